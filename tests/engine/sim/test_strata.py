"""The simulator below the surface: rock, ores at each family's heights, caves and lava, darkness
and its monsters, anti-xray. Deterministic seeds; counts checked within ranges, not exact."""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from engine import actions as acts
from engine import events as ev
from engine.sim.records import SimOptions
from engine.sim.rules import HEIGHT
from engine.sim.world import SimWorld


@lru_cache(maxsize=None)
def world(family: str | None, seed: int = 7, anti_xray: float = 0.0) -> SimWorld:
    return SimWorld(seed, SimOptions(underground=family, anti_xray=anti_xray))


def blocks(w: SimWorld) -> np.ndarray:
    """The whole world as the server holds it, [y - min_y, z, x]."""
    size = w.options.size
    out = np.empty((HEIGHT - w.min_y, size, size), dtype=np.int64)
    for sy in range(w.min_y // 16, HEIGHT // 16):
        for cx in range(size // 16):
            for cz in range(size // 16):
                part = w.store.section((cx, sy, cz))
                assert part is not None
                r = sy * 16 - w.min_y
                out[r:r + 16, cz * 16:cz * 16 + 16, cx * 16:cx * 16 + 16] = part.reshape(16, 16, 16)
    return out


def levels(w: SimWorld, *names: str) -> np.ndarray:
    """The y of every block with one of these names."""
    states = [w.table.state_for(n) for n in names]
    ys = np.flatnonzero(np.isin(blocks(w), states)) // (w.options.size * w.options.size)
    return ys + w.min_y


def test_1_18_reaches_y_minus_64_with_deepslate_below_0_and_bedrock_at_the_bottom() -> None:
    w = world("1.18")
    assert w.min_y == -64
    assert w.block(10, -64, 10) == "bedrock"
    deep = levels(w, "deepslate")
    stone = levels(w, "stone")
    assert deep.min() >= -63 and deep.max() <= 7        # vanilla's gradient ends at y 8
    assert stone.min() >= 0
    joined = w.join_events()
    assert joined[0] == ev.DimensionChanged("minecraft:overworld", -64, HEIGHT + 64)


def test_1_18_ores_sit_at_vanillas_heights_and_counts() -> None:
    w = world("1.18")
    chunks = (w.options.size // 16) ** 2
    diamonds = levels(w, "diamond_ore", "deepslate_diamond_ore")
    assert diamonds.max() <= 17                          # trapezoid up to 16, a vein spreads a block
    assert 8 * chunks <= diamonds.size <= 50 * chunks
    assert (diamonds < -24).sum() > (diamonds >= -24).sum()      # the triangle peaks at the bottom
    gold = levels(w, "gold_ore", "deepslate_gold_ore")
    assert gold.max() <= 34 and gold.size > 0
    assert levels(w, "deepslate_coal_ore").size < levels(w, "coal_ore").size    # coal lives above y 0
    lava = levels(w, "lava")
    deep_lava = lava[lava < 20]
    assert deep_lava.size > 0 and deep_lava.max() < 20


@pytest.mark.parametrize("family, top", [("1.18", 16), ("1.17", 17)])
def test_redstone_lies_low_and_its_ore_drops_four_or_five(family: str, top: int) -> None:
    w = world(family)
    red = levels(w, "redstone_ore", "deepslate_redstone_ore")
    chunks = (w.options.size // 16) ** 2
    # 1.18: uniform to y 15 and a triangle peaking below the bottom; 1.17: y 0-15; a vein spreads 2.
    assert red.size >= 4 * chunks and red.max() <= top + 1
    if family == "1.18":
        assert (red < -32).sum() > (red >= -32).sum()
    from engine.sim.surface import loot
    rng = np.random.default_rng(0)
    got = {n for _ in range(50) for item, n in loot("deepslate_redstone_ore", 0, rng) or () if item == "redstone"}
    assert got == {4, 5}


def test_1_17_is_stone_from_bedrock_at_0_and_diamonds_below_16() -> None:
    w = world("1.17")
    assert w.min_y == 0 and levels(w, "deepslate").size == 0
    diamonds = levels(w, "diamond_ore")
    chunks = (w.options.size // 16) ** 2
    assert diamonds.max() <= 17 and 2 * chunks <= diamonds.size <= 12 * chunks
    assert levels(w, "iron_ore").max() <= 66 or levels(w, "iron_ore").size == 0


@pytest.mark.parametrize("family", ["1.18", "1.17"])
def test_the_surface_is_the_seeds_own_and_generation_is_deterministic(family: str) -> None:
    flat, deep = world(None), world(family)
    assert (flat.heights == deep.heights).all()
    size = flat.options.size
    for x, z in ((5, 9), (48, 48), (80, 30)):
        top = int(flat.heights[x, z])
        assert [flat.block(x, y, z) for y in range(top - 5, HEIGHT)] == [deep.block(x, y, z) for y in range(top - 5, HEIGHT)]
    again = SimWorld(7, SimOptions(underground=family))
    assert (blocks(again) == blocks(deep)).all()
    assert size == 96


def test_darkness_spawns_zombies_underground_but_not_near_a_torch() -> None:
    w = SimWorld(7, SimOptions(underground="1.18", mobs=False))
    # Stand in a sealed 30-block room cut at y -30 (dark, far from any sky).
    x0, y0, z0 = 33, -30, 33
    air = w.table.state_for("air")
    for x in range(x0, x0 + 30):
        for z in range(z0, z0 + 30):
            for y in (y0, y0 + 1):
                w.store.set_block(x, y, z, air)
            w.store.set_block(x, y0 - 1, z, w.table.state_for("deepslate"))
    p = w.player
    p.x, p.y, p.z = x0 + 15.5, float(y0), z0 + 15.5
    spawned = sum(w.underground.spawn(t, 10) is not None for t in range(100, 100 + 200 * 40, 200))
    assert spawned >= 10
    w.underground.placed(x0 + 15, y0, z0 + 15, "torch")
    lit = [m for t in range(100, 100 + 200 * 40, 200) if (m := w.underground.spawn(t, 10)) is not None]
    assert all(abs(m.x - (x0 + 15.5)) + abs(m.y - y0) + abs(m.z - (z0 + 15.5)) >= 13 for m in lit)
    assert not w.underground.dark_at(x0 + 15.5, y0, z0 + 17.5)
    surface = world(None)
    assert surface.underground.spawn(100, 10) is None and not surface.underground.dark_at(10, 5, 10)


def test_anti_xray_shows_hidden_rock_as_ore_and_a_dig_reveals_the_truth() -> None:
    w = SimWorld(7, SimOptions(underground="1.18", anti_xray=0.1))
    assert len(w.underground.fakes) > 1000
    fake = next(f for f in sorted(w.underground.fakes)
                if f[0] < 90 and w.block(f[0] + 2, f[1], f[2]) in ("stone", "deepslate"))
    assert w.block(*fake) in ("stone", "deepslate")            # the truth
    sent = dict((sy, a) for e in w.join_events() if isinstance(e, ev.ChunkColumnLoaded)
                and (e.cx, e.cz) == (fake[0] >> 4, fake[2] >> 4) for sy, a in e.sections)
    shown = w.table.name(int(sent[fake[1] >> 4][((fake[1] & 15) << 8) | ((fake[2] & 15) << 4) | (fake[0] & 15)]))
    assert shown is not None and shown.endswith("_ore")
    # A dig two blocks off reveals it (Paper's update-radius 2).
    x, y, z = fake[0] + 2, fake[1], fake[2]
    p = w.player
    p.x, p.y, p.z = x + 0.5, float(y - 1), z + 1.5
    w.give("iron_pickaxe", 1)
    w.apply([acts.StartDigging(x, y, z)], 1)
    out = w.apply([acts.FinishDigging(x, y, z)], 200)
    revealed = [c for e in out if isinstance(e, ev.BlocksChanged) for c in e.changes if c[:3] == fake]
    assert revealed and w.table.name(revealed[0][3]) in ("stone", "deepslate")
    assert fake not in w.underground.fakes
