"""The ground under a replayed track: written by ``mcagent sim --log-dir``, read back as the live map's kinds."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.world import terrain_record as terrain
from engine.sim.cli import main as sim_main
from engine.sim.records import SimOptions
from engine.sim.server import ServerWorld
from engine.world.blocks import BlockStore, BlockTable
from proxy.dashboard import episodes
from proxy.dashboard.terrain_map import Kind
from tests.proxy.dashboard.web_client import ADMIN_TOKEN, make


def _decision(x: float, y: float, z: float) -> dict[str, Any]:
    return {"kind": "decision", "tick": 1, "decision": {"choice": "explore"}, "state": {"pos": [x, y, z]}}


def test_each_column_shows_the_top_block_around_the_nearest_point_of_the_track() -> None:
    world = ServerWorld(3, SimOptions())
    table = world.table
    stone, lava, air = table.state_for("stone"), table.state_for("lava"), table.state_for("air")
    surface = int(world.heights[40, 40])       # the feet's y on open ground at (40, 40)
    # A trench open to the sky, its floor 20 blocks down, x = 60..70 at z = 40, lava at x = 65.
    deep = surface - 20
    for x in range(60, 71):
        for y in range(deep, surface + 12):
            world.store.set_block(x, y, 40, air)
        world.store.set_block(x, deep - 1, 40, stone)
    world.store.set_block(65, deep - 1, 40, lava)
    track = [_decision(40.5, surface, 40.5)] + [_decision(x + 0.5, deep, 40.5) for x in range(60, 71)]
    record = terrain.terrain_record(world.store, world.table, track)
    assert record is not None and record["version"] == "1.18.2"
    size, x0, z0 = record["size"], record["x0"], record["z0"]
    assert size == 31 + 2 * terrain.MARGIN and x0 <= 40 - terrain.MARGIN and x0 + size > 70 + terrain.MARGIN - 1

    def cell(x: int, z: int) -> tuple[str | None, int | None]:
        i = (z - z0) * size + (x - x0)
        block = record["blocks"][i]
        return (record["names"][block] if block >= 0 else None), record["tops"][i]

    assert cell(40, 40)[1] == surface - 1                  # the ground the player stood on
    assert cell(62, 40) == ("stone", deep - 1)             # the trench's floor
    assert cell(65, 40) == ("lava", deep - 1)
    # Beside the trench, the nearest point is down in it: the live map's window (8 over the feet)
    # shows the rock there, not the grass 20 blocks up.
    assert cell(62, 41)[1] == deep + terrain.ABOVE and cell(62, 41)[0] != "grass_block"


def test_the_record_reads_back_as_kinds_and_bad_files_are_named(tmp_path: Path) -> None:
    world = ServerWorld(3, SimOptions())
    surface = int(world.heights[40, 40])
    world.store.set_block(41, surface - 1, 40, world.table.state_for("water"))
    record = terrain.terrain_record(world.store, world.table, [_decision(40.5, surface, 40.5)])
    folder = tmp_path / "ep"
    folder.mkdir()
    (folder / episodes.DECISIONS).write_text(json.dumps(_decision(40.5, surface, 40.5)) + "\n")
    (folder / episodes.EVENTS).write_text(json.dumps({"events": []}))
    terrain.write(str(folder), record)
    loaded = episodes.load(folder).terrain
    assert loaded is not None and record is not None
    at = (40 - loaded.z0) * loaded.size + (41 - loaded.x0)
    assert loaded.kinds[at] == Kind.WATER and loaded.tops[at] == surface - 1
    assert Kind.GRASS in loaded.kinds and len(loaded.kinds) == loaded.size ** 2
    for broken, message in (({**record, "format": "x"}, "format"),
                            ({**record, "version": "0.1"}, "version"),
                            ({**record, "blocks": record["blocks"][:-1]}, "blocks: expected a list of size x size"),
                            ({**record, "names": ["not_a_block"] + record["names"][1:]}, "'not_a_block' is not a block"),
                            ({**record, "tops": [True] * len(record["tops"])}, r"tops\[0\]: expected a whole number")):
        (folder / episodes.TERRAIN).write_text(json.dumps(broken))
        with pytest.raises(episodes.EpisodeError, match=f"terrain.json: .*{message}"):
            episodes.load(folder)


def test_a_simulated_episode_carries_terrain_to_the_replay_page(tmp_path: Path) -> None:
    assert sim_main(["--seeds", "1", "--ticks", "600", "--log-dir", str(tmp_path)]) == 0
    client, _ = make(None, episodes=tmp_path)
    response = client.get("/api/episode?name=seed0", token=ADMIN_TOKEN)
    assert response.status == 200
    episode = json.loads(response.body)
    ground = episode["terrain"]
    assert ground is not None and len(ground["kinds"]) == ground["size"] ** 2
    # Every decision's column is inside the box and known ground.
    for frame in episode["frames"]:
        col, row = int(frame["x"] // 1) - ground["x0"], int(frame["z"] // 1) - ground["z0"]
        assert 0 <= col < ground["size"] and 0 <= row < ground["size"]
        assert ground["kinds"][row * ground["size"] + col] not in (Kind.UNKNOWN, Kind.AIR)


def test_columns_never_loaded_stay_unknown_and_an_empty_store_gives_no_record() -> None:
    table = BlockTable.for_version("1.18.2")
    store = BlockStore()
    stone = table.state_for("stone")
    # One chunk column loaded (x, z in 0..15): stone up to y = 63, air above.
    for sy in range(0, 8):
        store.fill_section(0, sy, 0, stone if sy < 4 else table.state_for("air"))
    track = [_decision(8.5, 64, 8.5)]
    record = terrain.terrain_record(store, table, track)
    assert record is not None
    size, x0, z0 = record["size"], record["x0"], record["z0"]
    for i, (block, top) in enumerate(zip(record["blocks"], record["tops"])):
        x, z = x0 + i % size, z0 + i // size
        if 0 <= x < 16 and 0 <= z < 16:
            assert (record["names"][block], top) == ("stone", 63)
        else:
            assert (block, top) == (-1, None)
    assert terrain.terrain_record(BlockStore(), table, track) is None
