"""The one table of Minecraft versions the proxy accepts, and how each was verified."""
from __future__ import annotations

import attrs

END_TO_END = "end-to-end (mineflayer -> mcagent -> flying-squid)"
PROTOCOL_ONLY = "protocol-level (minecraft-protocol client -> mcagent -> minecraft-protocol server)"


@attrs.frozen
class SupportedVersion:
    name: str
    protocol: int
    verified: str


SUPPORTED: tuple[SupportedVersion, ...] = (
    SupportedVersion("1.8.8", 47, END_TO_END),
    SupportedVersion("1.9.4", 110, END_TO_END),
    SupportedVersion("1.10.2", 210, END_TO_END),
    SupportedVersion("1.11.2", 316, END_TO_END),
    SupportedVersion("1.12.2", 340, END_TO_END),
    SupportedVersion("1.13.2", 404, END_TO_END),
    SupportedVersion("1.14.4", 498, END_TO_END),
    SupportedVersion("1.15.2", 578, END_TO_END),
    SupportedVersion("1.16.5", 754, END_TO_END),
    SupportedVersion("1.17.1", 756, END_TO_END),
    SupportedVersion("1.18.2", 758, END_TO_END),
    SupportedVersion("1.19", 759, END_TO_END),
    SupportedVersion("1.19.2", 760, END_TO_END),
    SupportedVersion("1.19.3", 761, END_TO_END),
    SupportedVersion("1.19.4", 762, END_TO_END),
    SupportedVersion("1.20.2", 764, END_TO_END),
    SupportedVersion("1.20.4", 765, END_TO_END),
    SupportedVersion("1.20.6", 766, END_TO_END),
    SupportedVersion("1.21.1", 767, END_TO_END),
    SupportedVersion("1.21.3", 768, END_TO_END),
    SupportedVersion("1.21.4", 769, END_TO_END),
    SupportedVersion("26.1", 775, PROTOCOL_ONLY),
)

_BY_PROTOCOL = {v.protocol: v for v in SUPPORTED}


def by_protocol(protocol: int) -> SupportedVersion | None:
    return _BY_PROTOCOL.get(protocol)


def supported_range() -> str:
    names = ", ".join(v.name for v in SUPPORTED)
    return f"{SUPPORTED[0].name} to {SUPPORTED[-1].name} ({names})"
