"""Going underground for ore (``MineOre``): one scenario per safety rule, fake ores, and stair steps.

A small driver plays the server: a finished dig turns the block to air, a movement moves the
player, a hotbar selection changes the hand. The world is solid stone with the player in a
two-high hole at (0, 8, 0)."""
from __future__ import annotations

import math

import numpy as np

from engine import actions as acts
from engine.actions import Action, InjectMovement
from engine.decision.catalog import ActionName, Choice
from engine.decision.executors import ExecContext, Mine, make_executor
from engine.decision.executors.safety import edge_beyond, floor_unsafe, sealed, step_cells, unsafe
from engine.decision.executors.underground import MineOre
from engine.decision.pit import trapped
from engine.decision.perception import BlockFinder
from engine.events import SlotItem
from engine.motion.astar import SearchOptions
from engine.motion.worlds import WorldBuilder
from engine.world.snapshot import PlayerState, Vec3, WorldSnapshot


def rock(x: tuple[int, int] = (-32, 32)) -> WorldBuilder:
    world = WorldBuilder("1.18.2", x=x, y=(0, 32), z=(-32, 32))
    world.fill(x[0], 0, -32, x[1] - 1, 31, 31, "stone")
    world.fill(0, 8, 0, 0, 9, 0, "air")
    return world


def snap(at: Vec3, held: int, hotbar: tuple[str, ...]) -> WorldSnapshot:
    slots: list[SlotItem | None] = [None] * 46
    for i, name in enumerate(hotbar):
        slots[36 + i] = SlotItem(name, 16 if name == "torch" else 1)
    player = PlayerState(at, 0.0, 0.0, True, 20.0, 20, 5.0, 0, 0.0, 0, "minecraft:overworld", held, tuple(slots))
    return WorldSnapshot("bot", None, player, (), ())


def cell(at: Vec3) -> tuple[int, int, int]:
    return (math.floor(at.x), math.floor(at.y + 1e-6), math.floor(at.z))


class Driver:
    """The executor against a scripted server: digs break, moves move, the hand changes."""

    def __init__(self, world: WorldBuilder, at: Vec3, hotbar: tuple[str, ...] = ("iron_pickaxe", "torch")) -> None:
        self.world = world
        self.terrain = world.terrain()
        self.hotbar = list(hotbar)
        self.held = 0
        self.at = at
        self.sent: list[Action] = []
        self.trail: list[tuple[int, int, int]] = [cell(at)]       # the feet cells the body went through
        self.dug_from: list[tuple[tuple[int, int, int], Vec3]] = []  # each dig started, and where the body was
        self.ctx = ExecContext(snap(at, 0, hotbar), self.terrain, BlockFinder(self.terrain), 1, 0.05, set(),
                               SearchOptions(max_nodes=2500), {}, np.random.default_rng(0))

    def run(self, executor: MineOre, ticks: int) -> None:
        for tick in range(1, ticks + 1):
            self.ctx.tick = tick
            self.terrain.sync()
            self.ctx.snapshot = snap(self.at, self.held, tuple(self.hotbar))
            out = executor.step(self.ctx)
            self.sent += out
            for a in out:
                if isinstance(a, acts.StartDigging):
                    self.dug_from.append(((a.x, a.y, a.z), self.at))
                if isinstance(a, acts.FinishDigging):
                    name = self.world.table.name(self.world.store.get(a.x, a.y, a.z) or 0)
                    self.world.set(a.x, a.y, a.z, "air")
                    if name is not None and name.endswith("diamond_ore"):
                        self.hotbar.append("diamond")
                elif isinstance(a, InjectMovement):
                    self.at = Vec3(a.x, a.y, a.z)
                    if cell(self.at) != self.trail[-1]:
                        self.trail.append(cell(self.at))
                elif isinstance(a, acts.SelectHotbar):
                    self.held = a.slot
                elif isinstance(a, acts.PlaceBlock):
                    self.world.set(a.x, a.y, a.z, a.item)
            self.terrain.sync()
            if executor.status is not None:
                return

    def dug(self) -> list[tuple[int, int, int]]:
        return [(a.x, a.y, a.z) for a in self.sent if isinstance(a, acts.StartDigging)]


def mine(count: int = 1, level: int = 8) -> MineOre:
    return MineOre(Choice(ActionName.MINE_BLOCK, ("diamond_ore",)), 4000, 1, "diamond_ore", count, level)


HOLE = Vec3(0.5, 8.0, 0.5)


def test_the_rules_name_why_a_block_may_not_be_dug() -> None:
    world = rock()
    world.set(5, 8, 0, "lava").set(5, 12, 0, "water")
    t = world.terrain()
    assert unsafe(t, 3, 8, 0) is None
    assert unsafe(t, 4, 8, 0) == "lava beside"
    assert unsafe(t, 5, 11, 0) == "water beside"          # water above the block
    assert unsafe(t, 31, 8, 0) == "unseen neighbour"      # the world model has nothing past x = 31
    world.set(2, 7, 0, "air")
    t.sync()
    assert floor_unsafe(t, 2, 8, 0) == "no floor" and floor_unsafe(t, 1, 8, 0) is None
    assert step_cells((0, 8, 0), (1, 7, 0)) == ((1, 9, 0), (1, 8, 0), (1, 7, 0))      # a stair down


def test_a_diamond_beside_lava_is_not_dug() -> None:
    world = rock()
    world.set(1, 8, 0, "deepslate_diamond_ore").set(2, 8, 0, "lava")
    d = Driver(world, HOLE)
    ex = mine()
    d.run(ex, 60)
    assert (1, 8, 0) not in d.dug()
    assert (1, 8, 0) in d.ctx.blacklist and ex.refusals.get("lava beside")
    assert ex.status is None or ex.status != "ok"


def test_a_diamond_under_water_is_not_dug() -> None:
    world = rock()
    world.set(1, 9, 0, "diamond_ore").set(1, 10, 0, "water")
    d = Driver(world, HOLE)
    ex = mine()
    d.run(ex, 60)
    assert (1, 9, 0) not in d.dug() and ex.refusals.get("water beside")


def test_a_diamond_beside_unseen_blocks_is_not_dug() -> None:
    # The world model holds sections x 0..15 only: x = 16 was never sent.
    world = rock(x=(0, 16))
    world.fill(14, 8, 0, 14, 9, 0, "air")
    world.set(15, 8, 0, "diamond_ore")
    d = Driver(world, Vec3(14.5, 8.0, 0.5))
    ex = mine()
    d.run(ex, 60)
    assert (15, 8, 0) not in d.dug() and ex.refusals.get("unseen neighbour")


def test_the_tunnel_reaches_and_mines_a_diamond_three_blocks_off_and_places_no_block_unsafely() -> None:
    world = rock()
    world.set(4, 8, 0, "deepslate_diamond_ore")
    d = Driver(world, HOLE)
    ex = mine()
    d.run(ex, 600)
    assert ex.status == "ok", (ex.status, ex.refusals)
    assert (4, 8, 0) in d.dug()
    assert all(unsafe(d.terrain, *p) is None or p == (4, 8, 0) for p in d.dug())


def test_a_fake_ore_revealed_as_stone_is_remembered_and_the_search_goes_on() -> None:
    world = rock()
    world.set(5, 8, 0, "diamond_ore").set(-6, 8, 0, "diamond_ore")
    d = Driver(world, HOLE)
    ex = mine()
    d.run(ex, 3)
    assert ex.target == (5, 8, 0)
    world.set(5, 8, 0, "stone")            # the anti-xray server reveals the truth as the tunnel nears
    d.run(ex, 900)
    assert (5, 8, 0) in ex.fakes and (5, 8, 0) in d.ctx.blacklist
    assert ex.status == "ok" and (-6, 8, 0) in d.dug()


def test_no_step_ends_facing_an_open_shaft_the_edge_reflex_would_stop_the_body_at() -> None:
    # Seed 760003 (1.18, normal): a staircase ran beside an old open shaft; each step toward it
    # set off the edge reflex, which pre-empted the task, and the new task took the same step:
    # 238 watchdog loops and no pickaxe in 48,000 ticks.
    world = rock()
    world.fill(2, 2, 0, 2, 9, 0, "air")                   # a shaft six deep, two blocks ahead
    world.set(4, 8, 0, "deepslate_diamond_ore")
    t = world.terrain()
    assert edge_beyond(t, (0, 8, 0), (1, 8, 0)) == "deep drop beyond"
    assert edge_beyond(t, (0, 8, 0), (0, 8, 1)) is None
    d = Driver(world, HOLE)
    d.run(mine(), 300)
    assert len(d.trail) > 3
    facing = [(a, b) for a, b in zip(d.trail, d.trail[1:]) if edge_beyond(d.terrain, a, b) is not None]
    assert facing == []


def test_with_no_ore_known_it_stairs_down_to_the_level() -> None:
    world = rock()
    d = Driver(world, HOLE, ("iron_pickaxe",))
    ex = mine(level=4)
    d.run(ex, 400)
    assert d.at.y <= 4.0 + 1e-6
    assert ex.status is None


def test_gold_and_diamond_need_an_iron_pickaxe() -> None:
    world = rock()
    world.set(1, 8, 0, "diamond_ore")
    d = Driver(world, HOLE, ("stone_pickaxe",))
    ex = mine()
    d.run(ex, 5)
    assert ex.status == "needs a better pickaxe for diamond_ore"


def test_mine_block_leaves_stone_beside_water_alone() -> None:
    # Seed 700025 under lava: it dug a pond's floor from the edge, swam over its own drops.
    world = rock()
    world.fill(-32, 10, -32, 31, 31, 31, "air")
    world.set(2, 9, 0, "water")            # the stone at (1, 9, 0) and (2, 8, 0) borders it
    d = Driver(world, Vec3(0.5, 10.0, 0.5), ("stone_pickaxe",))
    ex = make_executor(Choice(ActionName.MINE_BLOCK, ("stone",)), 400, 1)
    assert isinstance(ex, Mine)
    for tick in range(1, 3):
        d.ctx.tick = tick
        ex.step(d.ctx)
    assert ex.target is not None and unsafe(d.terrain, *ex.target) is None
    assert (1, 9, 0) in d.ctx.blacklist


def test_mine_block_goes_for_stone_under_the_sky_before_a_buried_cave_wall() -> None:
    # Seed 760004 (1.18, lava): the nearest stone was the wall of a cave 8 blocks under spawn,
    # sent with its section; the walk to it never failed and never arrived, 1,800 ticks long.
    world = rock()
    world.fill(-32, 20, -32, 31, 31, 31, "air")             # the open ground is y 20
    world.fill(-32, 10, -32, 31, 19, 31, "dirt")
    world.fill(-1, 8, -1, 1, 9, 1, "air")                   # a cave under the player's feet
    world.set(14, 19, 0, "stone")                           # stone in the open ground, farther off
    d = Driver(world, Vec3(0.5, 20.0, 0.5), ("wooden_pickaxe",))
    t = d.terrain
    assert sealed(t, 2, 8, 0) and not sealed(t, 14, 19, 0)
    ex = make_executor(Choice(ActionName.MINE_BLOCK, ("stone",)), 400, 1)
    assert isinstance(ex, Mine)
    d.ctx.tick = 1
    ex.step(d.ctx)
    assert ex.target is not None and not sealed(t, *ex.target)


def test_a_drop_collect_timed_out_on_is_not_tried_again() -> None:
    # Seed 700025 under lava: a drop lay under the water the player swam on; three 300-tick
    # timeouts walking to it, then a lava push at 5 health.
    import attrs
    from engine.world.snapshot import EntityView
    world = rock()
    world.fill(-32, 10, -32, 31, 31, 31, "air")
    d = Driver(world, Vec3(0.5, 10.0, 0.5), ("stone_pickaxe",))
    item = EntityView(777, "item", Vec3(6.5, 10.0, 0.5))
    collect = make_executor(Choice(ActionName.COLLECT_DROPS), 5, 1)
    for tick in range(1, 8):
        d.ctx.tick = tick
        d.ctx.snapshot = attrs.evolve(snap(d.at, 0, ("stone_pickaxe",)), entities=(item,))
        for a in collect.step(d.ctx):
            if isinstance(a, InjectMovement):
                d.at = Vec3(a.x, a.y, a.z)
    assert collect.status == "timeout" and 777 in d.ctx.ignored


def test_standing_in_water_ends_the_task_without_blacklisting_the_ore() -> None:
    # Seed 730000 under the water hazard: pushed into a pond, every step was refused for the
    # water and every diamond blacklisted in turn; the diamond goal never got its pickaxe.
    world = rock()
    world.set(0, 8, 0, "water")
    world.set(4, 8, 0, "diamond_ore")
    d = Driver(world, HOLE)
    ex = mine()
    d.run(ex, 5)
    assert ex.status == "in water or lava" and not d.ctx.blacklist


def test_a_crafting_table_no_walk_reaches_is_left_behind_for_the_one_carried() -> None:
    # Seed 760005 under water: the table placed on the surface stayed "near" from the tunnel
    # below, crafting walked for it and failed, and the player idled 43,000 ticks with three
    # diamonds and a table in the pack.
    world = rock()
    world.set(6, 12, 0, "crafting_table")                 # in the rock above: no walk gets there
    d = Driver(world, HOLE, ("iron_pickaxe", "crafting_table"))
    ex = make_executor(Choice(ActionName.CRAFT, ("diamond_pickaxe",)), 400, 1)
    d.run(ex, 100)
    assert ex.status == "no path to the crafting table"
    assert (6, 12, 0) in d.ctx.blacklist
    again = make_executor(Choice(ActionName.CRAFT, ("diamond_pickaxe",)), 400, 1)
    d.run(again, 5)
    assert again.status == "no crafting table"


def test_a_stair_down_never_digs_the_block_an_overhanging_body_stands_on() -> None:
    # Seed 900001 (1.18): the body stood 0.08 into its cell, half on the neighbour's top, and the
    # first stair down dug that block from under it: the server saw it standing on air.
    world = rock()
    world.fill(-32, 8, -32, 31, 31, 31, "air")             # open ground at y 8
    world.set(-3, 7, 0, "diamond_ore")
    d = Driver(world, Vec3(0.08, 8.0, 0.5))
    d.run(mine(), 300)
    assert d.dug_from, "it dug"
    for (x, y, z), at in d.dug_from:
        if y == math.floor(at.y) - 1:                      # a block at the feet's floor level
            assert not (at.x - 0.3 < x + 1 and at.x + 0.3 > x and at.z - 0.3 < z + 1 and at.z + 0.3 > z), \
                ((x, y, z), at)


def test_a_diamond_straight_below_is_reached_by_a_stair_the_body_can_climb_back() -> None:
    # Seed 910019 under water: the diamond lay 29 blocks under the stair's foot; each stair down
    # was followed by a level step back into the ore's column, which dug the floor the body had
    # stood on there: a shaft 29 deep, the pit check pillared up it, and the table set down at
    # its foot was out of reach (three diamonds, no pickaxe in 48,000 ticks).
    world = rock()
    world.fill(-32, 24, -32, 31, 31, 31, "air")            # open ground at y 24
    world.set(0, 12, 0, "deepslate_diamond_ore")
    d = Driver(world, Vec3(0.5, 24.0, 0.5))
    ex = mine()
    d.run(ex, 3000)
    assert ex.status == "ok", (ex.status, ex.refusals)
    assert not trapped(d.terrain, d.at)
