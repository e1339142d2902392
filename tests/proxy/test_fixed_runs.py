"""A container reads a run of fixed-size fields with one struct call (layout_kinds._fixed_runs):
every play packet of several versions decodes to the same fields, or fails with the same error,
as with each field read on its own."""
from __future__ import annotations

import random
from typing import Any

import pytest

from proxy.protocol import layout_kinds
from proxy.protocol.errors import PeerError
from proxy.protocol.layout import LayoutCompiler
from proxy.protocol.layout_codec import Codec
from proxy.protocol.errors import LayoutError
from proxy.protocol.tables import table_for_version

VERSIONS = ["1.8.8", "1.12.2", "1.16.5", "1.20.1", "1.21.11", "26.1"]


def _codecs(version: str, runs: bool, monkeypatch: pytest.MonkeyPatch) -> dict[tuple[str, str], Codec]:
    table = table_for_version(version)
    with monkeypatch.context() as m:
        if not runs:
            m.setattr(layout_kinds, "_RUN_FORMATS", {})
        compiler = LayoutCompiler(table.named_types, set(table._compiler.natives))
        out: dict[tuple[str, str], Codec] = {}
        for direction in ("toClient", "toServer"):
            for name in table.ids("play", direction):
                layout = table.raw_layout("play", direction, name)
                if layout is None:
                    continue
                try:
                    out[(direction, name)] = compiler.compile_prefix(layout)
                except LayoutError:
                    continue
        return out


def _outcome(codec: Codec, data: bytes) -> str:
    try:
        fields, pos = codec.decode(data, 0, [])
    except PeerError as exc:
        return f"PeerError: {exc}"
    except (ValueError, UnicodeDecodeError, OverflowError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return repr((fields, pos))  # repr: NaN from random bytes compares equal to itself


@pytest.mark.parametrize("version", VERSIONS)
def test_runs_decode_as_fields_one_by_one(version: str, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []
    real = layout_kinds._run_decoder

    def counting(run: Any) -> Any:
        built.append(len(run))
        return real(run)

    monkeypatch.setattr(layout_kinds, "_run_decoder", counting)
    fast = _codecs(version, True, monkeypatch)
    slow = _codecs(version, False, monkeypatch)
    assert built, "no container of this version has a run of fixed-size fields"
    assert fast.keys() == slow.keys()
    rng = random.Random(version)
    decoded = 0
    for key in sorted(fast):
        for length in (0, 1, 5, 9, 17, 25, 33, 40, 64, 200):
            for _ in range(4):
                data = bytes(rng.getrandbits(8) for _ in range(length))
                got = _outcome(fast[key], data)
                assert got == _outcome(slow[key], data), (key, data.hex())
                decoded += not got.startswith(("PeerError", "ValueError", "Unicode", "Overflow"))
    assert decoded > 100  # not only errors were compared


def test_movement_packets_are_one_run() -> None:
    """1.21.11's sync_entity_position: entity id, then nine numbers and a bool in one step."""
    table = table_for_version("1.21.11")
    layout = table.raw_layout("play", "toClient", "sync_entity_position")
    fields = layout[1]
    compiled = [(f["name"], layout_kinds._dec_bool, layout_kinds._enc_bool) for f in fields]
    steps = layout_kinds._fixed_runs(fields, compiled)
    assert [name for name, _ in steps] == ["entityId", None]
