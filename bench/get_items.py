"""``!get`` for everyday items in the simulator: which the autopilot reaches, on how many seeds.

Usage:
    .venv/bin/python bench/get_items.py                          # every item, 5 seeds from 1000
    .venv/bin/python bench/get_items.py --items "16 torch,shield" --seeds 3 --first-seed 0
    .venv/bin/python bench/get_items.py --jobs 2 --json
    .venv/bin/python bench/get_items.py --items "6 bread" --no-farm --start-items wheat_seeds:6 --ticks 72000

Each item is played as ``mcagent sim --goal <item>`` plays it (``!autopilot on <item>`` from a
fresh spawn, the mock provider, episodes end when the autopilot hands back or at ``--ticks``).
An item the planner finds out of reach in the simulator's world (it has oak trees, stone, iron
ore and some coal in its outcrops, a beach with sugar cane, gravel, a grown wheat farm, cows and
sheep, and the deep world below when the plan digs coal, gold, redstone or diamonds, as ``mcagent
sim`` plays it; no spiders, chickens, apples or Nether) is not played: the report gives the planner's reason and does not count it as reached. Per item: episodes that
reached it, the median tick, deaths and movement-checker violations. ``--no-farm`` leaves the grown
farm out (wheat is then what the player plants: give it seeds with ``--start-items wheat_seeds:6``;
the crops take about a day to ripen, so give it ``--ticks 72000``).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine.decision.providers import MockProvider
from engine.sim.cli import milestone_names, underground_for
from engine.sim.episode import run_episode
from engine.sim.world import SimOptions

ITEMS = (
    # wood
    "oak_planks", "stick", "crafting_table", "wooden_pickaxe", "wooden_sword", "wooden_axe", "wooden_shovel",
    "bowl", "chest", "ladder", "oak_fence", "oak_fence_gate", "oak_door", "oak_trapdoor", "oak_boat", "oak_sign",
    "oak_pressure_plate", "barrel",
    # stone and the furnace
    "stone_pickaxe", "stone_sword", "stone_axe", "furnace", "lever", "stone", "stone_bricks", "smooth_stone",
    "charcoal", "16 torch", "campfire",
    # iron
    "iron_ingot", "iron_pickaxe", "iron_sword", "iron_axe", "shield", "bucket", "shears", "iron_helmet",
    "iron_boots", "iron_bars", "minecart", "hopper",
    # food
    "cooked_beef", "8 bread", "cooked_mutton", "mutton", "sugar", "hay_block", "wooden_hoe",
    # the surface: beaches, gravel, the farm, the flock
    "sand", "glass", "glass_bottle", "sandstone", "flint", "flint_and_steel", "paper", "book", "bookshelf",
    "white_wool", "white_bed", "white_carpet", "painting", "white_banner", "leather", "leather_chestplate",
    "item_frame",
    # below ground (the deep world: stairs down, branch tunnels)
    "gold_ingot", "golden_pickaxe", "golden_sword", "golden_helmet", "light_weighted_pressure_plate",
    "diamond_pickaxe", "redstone", "compass", "clock", "coal", "coal_block", "redstone_torch", "piston", "repeater",
    "rail", "powered_rail", "map",
    # what the simulated world cannot provide (the planner says why)
    "golden_apple", "netherite_pickaxe", "bow", "fishing_rod", "lead", "cake", "cookie",
)


def play(job: tuple[str, int, int, bool, tuple[tuple[str, int], ...]]) -> dict[str, Any]:
    goal, seed, ticks, farm, start_items = job
    options = SimOptions(underground=underground_for(goal), farm=farm, start_items=start_items)
    result = run_episode(seed, ticks, MockProvider(), options, stop_when_done=True, goal=goal)
    item = goal.split()[-1]
    return {"goal": goal, "seed": seed, "tick": result.milestones.get(item), "ticks": result.ticks,
            "deaths": sum(result.deaths.values()), "violations": result.violations}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", default=",".join(ITEMS), help="comma-separated goals")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--ticks", type=int, default=24_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-farm", action="store_true", help="no grown wheat farm: wheat only as planted")
    parser.add_argument("--start-items", default="", help="more of the kit at spawn, e.g. wheat_seeds:6,shears:1")
    args = parser.parse_args(argv)
    try:
        start = tuple((name, int(n)) for name, _, n in (i.strip().partition(":") for i in args.start_items.split(",")
                                                         if i.strip()))
    except ValueError:
        parser.error(f"--start-items: not item:count pairs: {args.start_items!r}")
    goals = [g.strip() for g in args.items.split(",") if g.strip()]
    rows: dict[str, dict[str, Any]] = {}
    jobs: list[tuple[str, int, int, bool, tuple[tuple[str, int], ...]]] = []
    for goal in goals:
        names = milestone_names(goal)
        if isinstance(names, str):
            rows[goal] = {"goal": goal, "reached": 0, "episodes": 0, "out_of_reach": names}
        else:
            rows[goal] = {"goal": goal, "reached": 0, "episodes": 0, "ticks": [], "deaths": 0, "violations": 0}
            jobs += [(goal, seed, args.ticks, not args.no_farm, start)
                     for seed in range(args.first_seed, args.first_seed + args.seeds)]
    with ProcessPoolExecutor(args.jobs) as pool:
        for done in pool.map(play, jobs):
            row = rows[done["goal"]]
            row["episodes"] += 1
            row["deaths"] += done["deaths"]
            row["violations"] += done["violations"]
            if done["tick"] is not None:
                row["reached"] += 1
                row["ticks"].append(done["tick"])
            print(f"{done['goal']} seed {done['seed']}: {done['tick']}", file=sys.stderr)
    for row in rows.values():
        ticks = row.pop("ticks", [])
        row["median_tick"] = statistics.median(ticks) if ticks else None
    all_seeds = [g for g, r in rows.items() if "out_of_reach" not in r and r["reached"] == r["episodes"]]
    summary = {"seeds": args.seeds, "first_seed": args.first_seed, "ticks": args.ticks, "items": list(rows.values()),
               "reached_on_every_seed": len(all_seeds),
               "out_of_reach": sum(1 for r in rows.values() if "out_of_reach" in r)}
    if args.json:
        print(json.dumps(summary, sort_keys=True))
        return 0
    for row in rows.values():
        if "out_of_reach" in row:
            print(f"  {row['goal']:20s} out of reach: {row['out_of_reach']}")
        else:
            median = "-" if row["median_tick"] is None else f"{row['median_tick']:.0f}"
            print(f"  {row['goal']:20s} reached {row['reached']}/{row['episodes']}  median tick {median}  "
                  f"deaths {row['deaths']}  violations {row['violations']}")
    print(f"{len(all_seeds)} items reached on all {args.seeds} seeds; {summary['out_of_reach']} out of reach "
          f"in the simulated world")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
