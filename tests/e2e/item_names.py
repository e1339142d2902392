"""Item names as a version spells them: the modern (1.13+) name, or 1.8-1.12's.

Before 1.13 one name covers several variants told apart by metadata (an oak log is ``log``
with metadata 0) and iron ore drops itself. The test server reads modern names through the
same table (``peers/legacy_names.js``); a test expecting an inventory writes modern names
and compares them as the version spells them.
"""
from __future__ import annotations

LEGACY = {"oak_log": "log", "oak_planks": "planks", "raw_iron": "iron_ore", "grass_block": "grass",
          "short_grass": "tallgrass", "oak_leaves": "leaves", "oak_sapling": "sapling", "white_wool": "wool"}


def is_legacy(version: str) -> bool:
    """Whether ``version`` is before the flattening (1.13)."""
    major, minor = (int(part) for part in version.split(".")[:2])
    return (major, minor) < (1, 13)


def item_name(version: str, name: str) -> str:
    return LEGACY.get(name, name) if is_legacy(version) else name


def item_counts(version: str, counts: dict[str, int]) -> dict[str, int]:
    return {item_name(version, name): count for name, count in counts.items()}
