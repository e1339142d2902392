"""The backend's side of player-info forwarding, written from the published formats
(Paper's ``VelocityProxy`` and Spigot's ``bungeecord: true`` handshake handling),
not from ``proxy/connection/forwarding.py``: tests check the proxy's output against it.

``read_modern`` takes a Login Plugin Response's data and the backend's secret;
``read_legacy`` takes a handshake's server address. Both return what a backend
would log the player in with, or raise ``Refused`` with the reason a Paper or
Spigot backend shows the player.
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import struct
import uuid
from typing import Any

import attrs

MAX_VERSION = 4  # what Paper asks for: the highest version it reads


class Refused(Exception):
    """The backend refuses the login; the message is what the player is shown."""


@attrs.frozen
class Forwarded:
    version: int
    address: str
    uuid: str  # dashed, lower case
    name: str
    properties: tuple[tuple[str, str, str | None], ...]
    key: tuple[int, bytes, bytes] | None = None
    holder: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "version": self.version, "address": self.address, "uuid": self.uuid, "name": self.name,
            "properties": [{"name": n, "value": v, "signature": s} for n, v, s in self.properties],
            "key": None if self.key is None else {"expires": self.key[0], "public_key": self.key[1].hex(),
                                                  "signature": self.key[2].hex()},
            "holder": self.holder,
        }


class _Buffer:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise Refused("Unable to read player details (truncated)")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def varint(self) -> int:
        value = 0
        for i in range(5):
            byte = self.take(1)[0]
            value |= (byte & 0x7F) << (7 * i)
            if not byte & 0x80:
                return value - (1 << 32) if value >= 1 << 31 else value
        raise Refused("Unable to read player details (varint too long)")

    def utf(self, max_chars: int) -> str:
        length = self.varint()
        if length > max_chars * 3:
            raise Refused("Unable to read player details (string too long)")
        text = self.take(length).decode("utf-8")
        if len(text) > max_chars:
            raise Refused("Unable to read player details (string too long)")
        return text

    def boolean(self) -> bool:
        return self.take(1) != b"\x00"

    def uuid(self) -> str:
        return str(uuid.UUID(bytes=self.take(16)))

    def byte_array(self) -> bytes:
        return self.take(self.varint())


def read_modern(data: bytes | None, secret: bytes) -> Forwarded:
    """Paper: no data -> 'connect with Velocity'; a bad HMAC -> 'Unable to verify player details'."""
    if data is None:
        raise Refused("This server requires you to connect with Velocity.")
    if len(data) < 32:
        raise Refused("Unable to verify player details")
    signature, signed = data[:32], data[32:]
    if not hmac.compare_digest(signature, hmac.new(secret, signed, hashlib.sha256).digest()):
        raise Refused("Unable to verify player details")
    buf = _Buffer(signed)
    version = buf.varint()
    if version > MAX_VERSION:
        raise Refused(f"Unsupported forwarding version {version}, wanted upto {MAX_VERSION}")
    address = buf.utf(32767)
    ipaddress.ip_address(address)  # Paper parses it with InetAddresses.forString
    player_uuid = buf.uuid()
    name = buf.utf(16)
    properties = []
    for _ in range(buf.varint()):
        prop_name = buf.utf(32767)
        value = buf.utf(32767)
        prop_signature = buf.utf(32767) if buf.boolean() else None
        properties.append((prop_name, value, prop_signature))
    key = holder = None
    if version in (2, 3):
        expires = struct.unpack(">q", buf.take(8))[0]
        key = (expires, buf.byte_array(), buf.byte_array())
        if version == 3 and buf.boolean():
            holder = buf.uuid()
    if buf.pos != len(signed):
        raise Refused("Unable to read player details (trailing bytes)")
    return Forwarded(version, address, player_uuid, name, tuple(properties), key, holder)


def read_legacy(server_address: str) -> tuple[str, Forwarded]:
    """Spigot: split on NUL; 3 or 4 fields, else the 'enable IP forwarding' refusal."""
    split = server_address.split("\0")
    if len(split) not in (3, 4):
        raise Refused("If you wish to use IP forwarding, please enable it in your BungeeCord config as well!")
    host, address, undashed = split[0], split[1], split[2]
    player_uuid = str(uuid.UUID(hex=undashed))
    properties: list[tuple[str, str, str | None]] = []
    if len(split) == 4:
        for item in json.loads(split[3]):
            properties.append((item["name"], item["value"], item.get("signature")))
    return host, Forwarded(0, address, player_uuid, "", tuple(properties))
