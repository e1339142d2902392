"""The Minecraft protocols the proxy accepts, read from the one list in ``data/versions.json``.

That file is also what ``scripts/gen_protocol.py`` and ``scripts/gen_blocks.py`` read to
decide which tables to generate, so the runtime, the generated tables, ``mcagent
versions`` and the table in docs/versions.md cannot disagree. A row is one protocol number with
every release that speaks it; a row with ``missing`` is known (minecraft-data names
it) but refused, and the refusal names the nearest accepted release. A row with a ``commit``
had its tables generated from that commit of the minecraft-data repository, a release the
pinned npm package has no data for yet; ``mcagent versions`` says so.
"""
from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import attrs

END_TO_END = "end-to-end"
LOGIN_CHAT = "login-chat"
PROTOCOL_ONLY = "protocol-level"
PROTOCOL_OWN_ENCODER = "protocol-level-own"
TABLES_ONLY = "tables"


@attrs.frozen
class SupportedVersion:
    protocol: int
    releases: tuple[str, ...]
    name: str              # the release its tables are filed under (and peers are started with)
    data: str | None       # the minecraft-data version its tables come from; None when refused
    verified: str          # a key of VERIFICATION, or "" when refused
    missing: str = ""      # why a known protocol is refused
    commit: str = ""       # the minecraft-data repository commit its tables come from; "" for the npm package
    # files of a later repository commit rebuilt from the code index: (kind, commit), e.g. ("protocol", ...)
    files: tuple[tuple[str, str], ...] = ()

    @property
    def accepted(self) -> bool:
        return not self.missing

    @property
    def label(self) -> str:
        """The releases as a player reads them: "1.20, 1.20.1"."""
        return ", ".join(self.releases)

    @property
    def newest(self) -> str:
        return self.releases[-1]


@cache
def _document() -> dict[str, Any]:
    text = resources.files("proxy").joinpath("data/versions.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _rows() -> tuple[SupportedVersion, ...]:
    doc = _document()
    rows = []
    for row in doc["protocols"]:
        releases = tuple(row["releases"])
        missing = str(row.get("missing", ""))
        verified = str(row.get("verified", ""))
        if not missing and verified not in doc["verification"]:
            raise ValueError(f"versions.json: protocol {row['protocol']} has unknown verification {verified!r}")
        rows.append(SupportedVersion(int(row["protocol"]), releases, str(row.get("name", releases[-1])),
                                     row.get("data"), verified, missing, str(row.get("commit", "")),
                                     tuple(sorted((str(kind), str(spec["commit"]))
                                                  for kind, spec in row.get("files", {}).items()))))
    protocols = [r.protocol for r in rows]
    if protocols != sorted(set(protocols)):
        raise ValueError("versions.json: protocols must be listed once each, in increasing order")
    return tuple(rows)


KNOWN: tuple[SupportedVersion, ...] = _rows()
SUPPORTED: tuple[SupportedVersion, ...] = tuple(v for v in KNOWN if v.accepted)
VERIFICATION: dict[str, str] = dict(_document()["verification"])
MINECRAFT_DATA: str = str(_document()["minecraft_data"])
MINECRAFT_DATA_REPOSITORY: str = str(_document()["minecraft_data_repository"])

_BY_PROTOCOL = {v.protocol: v for v in SUPPORTED}
_BY_NAME = {v.name: v for v in SUPPORTED}


def by_protocol(protocol: int) -> SupportedVersion | None:
    return _BY_PROTOCOL.get(protocol)


def by_name(name: str) -> SupportedVersion:
    """The accepted row filed under ``name`` (a KeyError otherwise)."""
    return _BY_NAME[name]


def nearest(protocol: int) -> SupportedVersion:
    """The accepted row closest to ``protocol`` (the newer one on a tie)."""
    return min(SUPPORTED, key=lambda v: (abs(v.protocol - protocol), -v.protocol))


def supported_range() -> str:
    first, last = SUPPORTED[0], SUPPORTED[-1]
    return f"{first.releases[0]} to {last.newest} (protocols {first.protocol} to {last.protocol})"


def refusal(protocol: int) -> str:
    """What a client speaking an unaccepted protocol is told."""
    known = next((v for v in KNOWN if v.protocol == protocol), None)
    speaks = f"protocol {protocol}" + (f" ({known.label})" if known else "")
    why = f": {known.missing}" if known and known.missing else ""
    return (f"This proxy supports Minecraft {supported_range()}; your client speaks {speaks}{why}. "
            f"The nearest supported release is {nearest(protocol).newest}.")


def describe(v: SupportedVersion) -> str:
    """The verified column of ``mcagent versions`` and docs/versions.md."""
    if not v.accepted:
        return f"refused: {v.missing}"
    if v.commit:
        rebuilt = "".join(f", {kind}.json at {commit[:12]}" for kind, commit in v.files)
        return f"{VERIFICATION[v.verified]}; tables from the minecraft-data repository at {v.commit[:12]}{rebuilt}"
    return VERIFICATION[v.verified]


def markdown_table() -> str:
    """The version table of docs/versions.md (tests/proxy/test_versions.py keeps that file equal to it)."""
    lines = ["| releases | protocol | verified |", "|---|---|---|"]
    for v in KNOWN:
        lines.append(f"| {v.label} | {v.protocol} | {describe(v)} |")
    return "\n".join(lines) + "\n"
