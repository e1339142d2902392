"""A player's game profile: UUID, name and the signed properties (the skin).

How this works: a profile comes from one of two places. In online mode it is
Mojang's answer to the session server's ``hasJoined`` query, parsed here by
``profile_from_session`` (anything not shaped like a profile is the session
server's error, never trusted). In offline mode it is computed as vanilla does:
``offline_profile`` gives the name-based (MD5, version 3) UUID of
``"OfflinePlayer:<name>"`` and no properties, so a backend that computed offline
UUIDs itself before the proxy arrived keeps the same identities.

Nothing here does I/O.
"""
from __future__ import annotations

import hashlib
import re
import uuid
from typing import Any

import attrs

_NAME = re.compile(r"^[A-Za-z0-9_]{1,16}$")
# Bounds on what a session server may hand us: Mojang sends one "textures"
# property (~1 KB value, 684-character signature); these leave room for others.
MAX_PROPERTIES = 16
MAX_PROPERTY_CHARS = 32767


class ProfileError(ValueError):
    """The session server's answer is not a usable profile."""


@attrs.frozen
class ProfileProperty:
    name: str
    value: str
    signature: str | None = None


@attrs.frozen
class GameProfile:
    uuid: uuid.UUID
    name: str
    properties: tuple[ProfileProperty, ...] = ()


def offline_uuid(name: str) -> uuid.UUID:
    """Java's ``UUID.nameUUIDFromBytes(("OfflinePlayer:" + name).getBytes(UTF_8))``."""
    digest = hashlib.md5(("OfflinePlayer:" + name).encode("utf-8")).digest()
    return uuid.UUID(bytes=digest, version=3)


def offline_profile(name: str) -> GameProfile:
    return GameProfile(offline_uuid(name), name)


def profile_from_session(answer: Any, asked_name: str) -> GameProfile:
    """Parse Mojang's ``hasJoined`` JSON: ``{"id": hex32, "name", "properties": [...]}``.

    An empty answer (HTTP 204) means the player did not join: that is a refusal.
    """
    if not isinstance(answer, dict):
        raise ProfileError("the session server did not confirm the login")
    raw_id, name, raw_properties = answer.get("id"), answer.get("name"), answer.get("properties", [])
    if not isinstance(raw_id, str):
        raise ProfileError("the session server's profile has no id")
    try:
        player_uuid = uuid.UUID(hex=raw_id)
    except ValueError:
        raise ProfileError("the session server's profile id is not a UUID") from None
    if not isinstance(name, str) or not _NAME.match(name):
        raise ProfileError("the session server's profile has no valid name")
    if name.lower() != asked_name.lower():
        raise ProfileError("the session server confirmed a different player")
    if not isinstance(raw_properties, list) or len(raw_properties) > MAX_PROPERTIES:
        raise ProfileError("the session server's profile properties are malformed")
    properties = []
    for item in raw_properties:
        if not isinstance(item, dict):
            raise ProfileError("the session server's profile properties are malformed")
        prop_name, value, signature = item.get("name"), item.get("value"), item.get("signature")
        if not isinstance(prop_name, str) or not isinstance(value, str) \
                or not (signature is None or isinstance(signature, str)):
            raise ProfileError("the session server's profile properties are malformed")
        if max(len(prop_name), len(value), len(signature or "")) > MAX_PROPERTY_CHARS:
            raise ProfileError("a session server profile property is too long")
        properties.append(ProfileProperty(prop_name, value, signature or None))
    return GameProfile(player_uuid, name, tuple(properties))
