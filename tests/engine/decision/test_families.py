"""Wood, stone and iron come in families: any log species, deepslate, pre-1.13 names, pre-1.17 drops."""
from __future__ import annotations

import numpy as np

from engine import actions as acts
from engine.decision.autopilot import Autopilot
from engine.decision.catalog import ActionName, Choice, legal_actions
from engine.decision.executors import ExecContext, make_executor
from engine.decision.heuristic import heuristic, plan
from engine.decision.knowledge import RECIPES, planks_for
from engine.decision.ladder import Ladder
from engine.decision.perception import BlockFinder
from engine.decision.providers import MockProvider
from engine.decision.state import inventory_counts
from engine.events import SlotItem
from engine.motion.astar import SearchOptions
from engine.motion.worlds import WorldBuilder
from engine.world.snapshot import PlayerState, Vec3, WorldSnapshot
from tests.engine.decision.states import state


def snapshot(at: Vec3, items: dict[str, int] | None = None) -> WorldSnapshot:
    slots: list[SlotItem | None] = [None] * 46
    for i, (name, n) in enumerate((items or {}).items()):
        slots[9 + i] = SlotItem("minecraft:" + name, n)
    player = PlayerState(at, 0.0, 0.0, True, 20.0, 20, 5.0, 0, 0.0, 0, "minecraft:overworld", 0, tuple(slots))
    return WorldSnapshot("bot", None, player, (), ())


def forest(version: str = "1.18.2", log: str = "birch_log") -> WorldBuilder:
    """A stone floor at y=0 and one four-block tree trunk at x=4, z=0."""
    world = WorldBuilder(version, x=(-16, 32), y=(-16, 32), z=(-16, 32))
    world.fill(-16, 0, -16, 31, 0, 31, "stone")
    world.fill(4, 1, 0, 4, 4, 0, log)
    return world


def context(world: WorldBuilder, at: Vec3, items: dict[str, int] | None = None, tick: int = 1) -> ExecContext:
    terrain = world.terrain()
    return ExecContext(snapshot(at, items), terrain, BlockFinder(terrain), tick, tick * 0.05, set(),
                       SearchOptions(max_nodes=2500), {}, np.random.default_rng(0))


def test_a_birch_only_forest_makes_gather_wood_legal_and_the_heuristic_takes_it() -> None:
    world = forest(log="birch_log")
    autopilot = Autopilot(MockProvider(), world.terrain())
    s = autopilot.state(snapshot(Vec3(0.5, 1.0, 0.5)), {}, 1, True)
    assert s.distance("log") is not None
    legal = legal_actions(s)
    assert Choice(ActionName.GATHER_WOOD) in legal
    assert heuristic(s, legal).choice == Choice(ActionName.GATHER_WOOD)


def test_every_overworld_species_and_stripped_logs_are_wood_but_not_nether_stems() -> None:
    for log in ("spruce_log", "jungle_log", "acacia_log", "dark_oak_log", "stripped_birch_log"):
        terrain = forest(log=log).terrain()
        assert BlockFinder(terrain).nearest("log", Vec3(0.5, 1.0, 0.5), limit=1), log
    terrain = forest("1.20.4", "cherry_log").terrain()
    assert BlockFinder(terrain).nearest("log", Vec3(0.5, 1.0, 0.5), limit=1)
    terrain = forest(log="crimson_stem").terrain()
    assert not BlockFinder(terrain).nearest("log", Vec3(0.5, 1.0, 0.5), limit=1)


def test_gathering_wood_digs_a_birch_log() -> None:
    ctx = context(forest(log="birch_log"), Vec3(2.5, 1.0, 0.5))
    mine = make_executor(Choice(ActionName.GATHER_WOOD), 700, 1)
    out: list[object] = []
    for tick in range(1, 40):
        ctx.tick = tick
        out = list(mine.step(ctx))
        if any(isinstance(a, acts.StartDigging) for a in out):
            break
    dig = next(a for a in out if isinstance(a, acts.StartDigging))
    assert (dig.x, dig.z) == (4, 0) and 1 <= dig.y <= 4
    assert mine.status is None


def test_a_birch_log_in_the_inventory_reaches_the_wood_milestone() -> None:
    ladder = Ladder()
    reached = ladder.update({"birch_log": 1}, frozenset(), 5, 0.25)
    assert [m.name for m in reached] == ["wood"]
    ladder = Ladder()
    ladder.update({"log2": 1}, frozenset(), 5, 0.25)          # 1.8–1.12 acacia or dark oak
    assert ladder.current == "crafting_table"


def test_stone_and_iron_milestones_accept_deepslate_and_pre_1_17_ore() -> None:
    ladder = Ladder()
    ladder.update({"oak_log": 1, "crafting_table": 1, "wooden_pickaxe": 1, "cobbled_deepslate": 3,
                   "stone_pickaxe": 1, "furnace": 1, "iron_ore": 2}, frozenset(), 9, 0.45)
    assert {"stone", "iron_ore"} <= set(ladder.first)
    assert ladder.current == "iron_ingot"


def test_coal_carried_makes_the_torches_and_none_carried_smelts_charcoal() -> None:
    s = state(inventory=(("coal", 2), ("stick", 2)))
    assert plan("torch", 8, dict(s.inventory), s) == Choice(ActionName.CRAFT, ("torch",))
    bare = state(inventory=(("stick", 2), ("furnace", 1), ("oak_planks", 4), ("oak_log", 2)))
    assert plan("torch", 8, dict(bare.inventory), bare) != Choice(ActionName.CRAFT, ("torch",))


def test_birch_logs_craft_birch_planks_and_the_craft_op_names_them() -> None:
    s = state(inventory=(("birch_log", 2),))
    legal = legal_actions(s)
    assert Choice(ActionName.CRAFT, ("birch_planks",)) in legal
    assert Choice(ActionName.CRAFT, ("oak_planks",)) not in legal
    assert plan("iron_pickaxe", 1, dict(s.inventory), s) == Choice(ActionName.CRAFT, ("birch_planks",))
    craft = make_executor(Choice(ActionName.CRAFT, ("birch_planks",)), 40, 1)
    ops = craft.step(context(forest(), Vec3(0.5, 1.0, 0.5), {"birch_log": 2}))
    assert ops == [acts.CraftItem("birch_planks", 1, None)]


def test_planks_follow_their_log_species() -> None:
    assert planks_for("oak_log") == "oak_planks"
    assert planks_for("stripped_dark_oak_log") == "dark_oak_planks"
    assert planks_for("mangrove_wood") == "mangrove_planks"
    assert planks_for("log") == planks_for("log2") == "planks"
    for log, planks in (("cherry_log", "cherry_planks"), ("spruce_log", "spruce_planks")):
        assert RECIPES[planks].ingredients == ((log, 1),)


def test_tables_sticks_and_pickaxes_accept_any_planks() -> None:
    s = state(inventory=(("birch_planks", 4),))
    legal = legal_actions(s)
    assert Choice(ActionName.CRAFT, ("crafting_table",)) in legal
    assert Choice(ActionName.CRAFT, ("stick",)) in legal
    s = state(inventory=(("spruce_planks", 1), ("birch_planks", 2), ("stick", 2)), table_near=True)
    assert Choice(ActionName.CRAFT, ("wooden_pickaxe",)) in legal_actions(s)
    # The heuristic spends birch planks on sticks instead of going back for wood.
    s = state(inventory=(("birch_planks", 8),), milestone="wooden_pickaxe", table_near=True)
    assert plan("iron_pickaxe", 1, dict(s.inventory), s) == Choice(ActionName.CRAFT, ("stick",))


def test_cobbled_deepslate_crafts_the_stone_pickaxe_and_the_furnace() -> None:
    s = state(inventory=(("cobbled_deepslate", 8), ("stick", 2)), table_near=True)
    legal = legal_actions(s)
    assert Choice(ActionName.CRAFT, ("stone_pickaxe",)) in legal
    assert Choice(ActionName.CRAFT, ("furnace",)) in legal


def test_deepslate_is_stone_and_deepslate_iron_ore_is_iron_ore() -> None:
    world = WorldBuilder("1.18.2", x=(-16, 32), y=(-16, 32), z=(-16, 32))
    world.fill(-16, 0, -16, 31, 0, 31, "deepslate")
    world.set(6, 0, 0, "deepslate_iron_ore")          # in the floor: mining it leaves a step
    finder = BlockFinder(world.terrain())
    found = finder.nearest_each(("stone", "iron_ore", "log"), Vec3(0.5, 1.0, 0.5))
    assert set(found) == {"stone", "iron_ore"}
    assert found["iron_ore"][1] == (6, 0, 0)


def test_pre_1_17_iron_ore_smelts_into_ingots_with_any_planks_as_fuel() -> None:
    s = state(inventory=(("iron_ore", 3), ("birch_planks", 4)), furnace_near=True)
    assert Choice(ActionName.SMELT, ("iron_ingot",)) in legal_actions(s)
    world = forest()
    world.set(1, 1, 0, "furnace")
    ctx = context(world, Vec3(0.5, 1.0, 1.5), {"iron_ore": 3, "birch_planks": 4})
    smelt = make_executor(Choice(ActionName.SMELT, ("iron_ingot",)), 900, 1)
    ops: list[object] = []
    for tick in range(1, 20):
        ctx.tick = tick
        ops = list(smelt.step(ctx))
        if ops and not any(type(a).__name__ == "InjectMovement" for a in ops):
            break
    assert ops == [acts.SmeltStart((1, 1, 0), "iron_ore", 3, "birch_planks", 2)]


def test_1_12_logs_and_planks_and_only_plain_stone() -> None:
    world = forest("1.12.2", "stone")                  # the trunk replaced below
    table = world.table
    birch = table.states_of("log").start + 2           # meta 2: birch
    for y in range(1, 5):
        world.store.set_block(4, y, 0, birch)
    diorite = table.states_of("stone").start + 3
    world.fill(-16, 0, -16, 31, 0, 31, "grass")
    world.store.set_block(2, 0, 2, diorite)             # in the floor, nearer than the plain stone
    world.store.set_block(9, 0, 9, table.states_of("stone").start)
    finder = BlockFinder(world.terrain())
    found = finder.nearest_each(("log", "stone"), Vec3(0.5, 1.0, 0.5))
    assert found["log"][1][0] == 4
    assert found["stone"][1] == (9, 0, 9)              # diorite drops itself, not cobblestone
    s = state(inventory=(("log", 1),))
    assert plan("iron_pickaxe", 1, dict(s.inventory), s) == Choice(ActionName.CRAFT, ("planks",))
    s = state(inventory=(("planks", 4),))
    assert Choice(ActionName.CRAFT, ("crafting_table",)) in legal_actions(s)


def test_the_inventory_counts_ignore_the_namespace() -> None:
    assert inventory_counts(snapshot(Vec3(0, 0, 0), {"birch_log": 3}).player.inventory) == {"birch_log": 3}


def test_a_drop_seen_in_mid_air_is_looked_for_on_the_ground_below() -> None:
    from engine.decision.executors import resting_cell
    from engine.world.snapshot import Vec3
    from tests.engine.motion import terrains

    t = terrains.flat().fill(4, 1, 0, 4, 1, 0, "stone").terrain()   # floor at y=0, a block at (4, 1, 0)
    assert resting_cell(t, Vec3(2.5, 5.5, 0.5)) == (2, 1, 0)           # falls to the floor
    assert resting_cell(t, Vec3(4.5, 6.0, 0.5)) == (4, 2, 0)           # lands on the block
    assert resting_cell(t, Vec3(2.5, 1.1, 0.5)) == (2, 1, 0)           # already down
