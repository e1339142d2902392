"""SimWorld's crafting and smelting take any member of vanilla's tags, as a vanilla server does."""
from __future__ import annotations

import math

import pytest

from engine import actions as acts
from engine.decision.knowledge import SMELT_TICKS
from engine.sim.world import SimWorld

Pos = tuple[int, int, int]


def _world(*items: tuple[str, int]) -> SimWorld:
    world = SimWorld(0)
    world.join_events()
    world.player.slots = [None] * len(world.player.slots)
    for item, n in items:
        assert world.give(item, n) == 0
    return world


def _counts(world: SimWorld) -> dict[str, int]:
    out: dict[str, int] = {}
    for s in world.player.slots:
        if s is not None:
            out[s.item] = out.get(s.item, 0) + s.count
    return out


def _beside(world: SimWorld, block: str) -> Pos:
    """Put ``block`` in the cell next to the player's feet."""
    p = world.player
    pos = (math.floor(p.x) + 1, math.floor(p.y), math.floor(p.z))
    world.store.set_block(*pos, world.table.state_for(block))
    return pos


def _craft(world: SimWorld, item: str, times: int = 1, table: Pos | None = None) -> bool:
    refused = world.rejected.get("craft refused", 0)
    world.apply([acts.CraftItem(item, times, table)], 1)
    return world.rejected.get("craft refused", 0) == refused


def test_a_log_makes_planks_of_its_own_species_only() -> None:
    world = _world(("birch_log", 1), ("stripped_spruce_wood", 1))
    assert not _craft(world, "oak_planks")
    assert _craft(world, "birch_planks") and _craft(world, "spruce_planks")
    assert _counts(world) == {"birch_planks": 4, "spruce_planks": 4}


def test_planks_of_any_species_mixed_or_not_make_sticks_a_table_and_a_wooden_pickaxe() -> None:
    world = _world(("birch_planks", 5), ("jungle_planks", 4))
    assert _craft(world, "stick")                                  # 2 planks
    assert _craft(world, "crafting_table")                          # 4, of both species
    table = _beside(world, "crafting_table")
    assert _craft(world, "wooden_pickaxe", table=table)            # the last 3 and 2 sticks
    assert _counts(world) == {"stick": 2, "crafting_table": 1, "wooden_pickaxe": 1}
    assert not _craft(world, "stick")                               # no planks left


def test_craft_takes_what_it_needs_for_each_time_or_nothing() -> None:
    world = _world(("cherry_planks", 3))
    assert not _craft(world, "stick", times=2)
    assert _counts(world) == {"cherry_planks": 3}
    assert _craft(world, "stick", times=1)
    assert _counts(world) == {"cherry_planks": 1, "stick": 4}


def test_cobbled_deepslate_does_what_cobblestone_does() -> None:
    world = _world(("cobbled_deepslate", 7), ("cobblestone", 4), ("stick", 2))
    table = _beside(world, "crafting_table")
    assert _craft(world, "stone_pickaxe", table=table)
    assert _craft(world, "furnace", table=table)                    # 8 of 4 + 4, mixed
    assert _counts(world) == {"stone_pickaxe": 1, "furnace": 1}


@pytest.mark.parametrize("raw", ["raw_iron", "iron_ore", "deepslate_iron_ore"])
def test_any_iron_ore_or_raw_iron_smelts_into_ingots_on_any_wood(raw: str) -> None:
    world = _world((raw, 3), ("birch_log", 2))
    furnace = _beside(world, "furnace")
    world.apply([acts.SmeltStart(furnace, raw, 3, "birch_log", 2)], 1)
    assert not world.rejected
    world.apply([acts.SmeltCollect(furnace)], 1 + 3 * SMELT_TICKS)
    assert _counts(world) == {"iron_ingot": 3}


def test_what_does_not_smelt_is_refused() -> None:
    world = _world(("dirt", 3), ("oak_log", 2))       # (cobbled deepslate smelts into deepslate, as vanilla's)
    furnace = _beside(world, "furnace")
    world.apply([acts.SmeltStart(furnace, "dirt", 3, "oak_log", 2)], 1)
    assert world.rejected == {"smelt refused": 1}
    assert _counts(world) == {"dirt": 3, "oak_log": 2}
