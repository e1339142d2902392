"""The packets that move a playing client into another backend's world, per version family.

How this works: a client that is already playing cannot log in again, so the proxy makes the
new backend's world replace the old one with packets the client accepts while playing.

* **1.20.2 and later** re-enter the configuration phase: the proxy sends Start Configuration,
  the client acknowledges, the new backend's registries and tags go through as at login, and its
  Join Game (``login``) after Finish Configuration starts a fresh world. Nothing is rewritten.
* **Before 1.20.2** the new backend's Join Game goes to the client as it came (a client takes a
  second Join Game while playing: new entity id, game mode, registries), followed by a Respawn
  into the same dimension built from its fields, which makes the client drop the old world's
  chunks and entities. Until 1.16 dimensions are numbers, and a client ignores a Respawn into
  the dimension it is already in: the Join Game then names another dimension (0 <-> -1) so the
  Respawn that follows is always a change (the "double respawn").

Version differences are data: which Join Game field fills each Respawn field
(``RESPAWN_FROM_JOIN``), and whether dimensions are numbers (the layout's field type). A
number copied between fields of one width but another sign keeps its byte (``_fit``): from
1.19 to 1.20.1 the Join Game's previous game mode is signed and vanilla sends -1 ("none")
at a first login, while the Respawn's is unsigned, where the same byte reads 255.
"""
from __future__ import annotations

from typing import Any

from proxy.codec.versioned import VersionCodec
from proxy.protocol.states import State
from proxy.protocol.tables import TO_CLIENT

# Respawn field -> the Join Game fields it is taken from, first present wins; fields of the same
# name on both sides are copied as they are, the rest take their type's zero value
# (copyMetadata: keep nothing of the old player).
RESPAWN_FROM_JOIN: dict[str, tuple[str, ...]] = {
    "gamemode": ("gameMode",),
    "previousGamemode": ("previousGameMode",),
    "dimension": ("dimension", "worldType"),  # 1.19-1.20.1: the join game calls it worldType
}
NOT_COPIED = frozenset({"copyMetadata"})
NUMBERED = frozenset({"i8", "i32", "varint", "u8"})
WIDTHS: dict[str, tuple[int, bool]] = {  # fixed-size integer type -> (bits, signed)
    "i8": (8, True), "u8": (8, False), "i16": (16, True), "u16": (16, False),
    "i32": (32, True), "u32": (32, False), "i64": (64, True), "u64": (64, False),
}


def reenters_configuration(codec: VersionCodec) -> bool:
    """1.20.2+: the switch goes through the configuration phase."""
    return codec.table.has_configuration


def start_configuration(codec: VersionCodec) -> bytes:
    return codec.build(State.PLAY, TO_CLIENT, "start_configuration")


def join_and_respawn(codec: VersionCodec, join_packet: bytes) -> tuple[bytes, bytes]:
    """Before 1.20.2: the Join Game to send (its dimension changed when dimensions are numbers)
    and the Respawn into the new backend's dimension that follows it."""
    join = codec.decode(State.PLAY, TO_CLIENT, "login", join_packet)
    respawn_types = codec.field_types(State.PLAY, TO_CLIENT, "respawn")
    respawn: dict[str, Any] = {}
    for name in respawn_types:
        if name in NOT_COPIED:
            continue
        for source in RESPAWN_FROM_JOIN.get(name, (name,)):
            if source in join:
                respawn[name] = _fit(join[source], respawn_types[name])
                break
    if isinstance(respawn.get("gamemode"), int):
        respawn["gamemode"] &= 0x07  # before 1.16 the join game's game mode carries the hardcore bit
    respawn_packet = codec.build(State.PLAY, TO_CLIENT, "respawn", **respawn)
    if _numbered(codec.field_types(State.PLAY, TO_CLIENT, "login").get("dimension")):
        join = dict(join)
        join["dimension"] = -1 if int(join["dimension"]) == 0 else 0
        join_packet = codec.encode(State.PLAY, TO_CLIENT, "login", join)
    return join_packet, respawn_packet


def _fit(value: Any, kind: Any) -> Any:
    """``value`` as the field of type ``kind`` reads the same bytes (-1 as u8 is 255)."""
    width = WIDTHS.get(kind) if isinstance(kind, str) else None
    if width is None or not isinstance(value, int) or isinstance(value, bool):
        return value
    bits, signed = width
    value &= (1 << bits) - 1
    return value - (1 << bits) if signed and value >= 1 << (bits - 1) else value


def _numbered(kind: Any) -> bool:
    return isinstance(kind, str) and kind in NUMBERED
