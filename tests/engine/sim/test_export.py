"""``mcagent sim export``: the file says the same world the simulator plays, block for block."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from engine.sim.cli import main as sim_main
from engine.sim.export import FORMAT, ExportError, document, runs
from engine.sim.records import SimOptions
from engine.sim.rules import HEIGHT
from engine.sim.server import ServerWorld


def _unpack(doc: dict[str, object]) -> np.ndarray:
    size = int(doc["size"])  # type: ignore[call-overload]
    flat = np.concatenate([np.full(n, i) for i, n in doc["blocks"]])  # type: ignore[attr-defined]
    return flat.reshape(HEIGHT, size, size)


def test_runs_are_the_array_in_order() -> None:
    assert runs(np.array([4, 4, 1, 1, 1, 4])) == [(4, 2), (1, 3), (4, 1)]
    assert runs(np.array([], dtype=int)) == []


@pytest.mark.parametrize("seed", [0, 7])
def test_every_block_of_the_box_is_the_simulators(seed: int) -> None:
    world = ServerWorld(seed, SimOptions())
    doc = document(world)
    assert doc["format"] == FORMAT and doc["seed"] == seed
    cells = _unpack(doc)
    palette = doc["palette"]
    rng = np.random.default_rng(seed)
    for _ in range(3000):
        x, z = (int(v) for v in rng.integers(0, world.options.size, 2))
        y = int(rng.integers(0, HEIGHT))
        assert palette[cells[y, z, x]] == world.block(x, y, z), (x, y, z)
    # The interesting cells are where they are in the simulator: the trees' trunks and the ores.
    for (x, y, z) in world.features.get("tree", []):
        assert palette[cells[y, z, x]] == "oak_log"
    assert "iron_ore" in palette and "oak_log" in palette


def test_spawn_animals_clock_and_starting_inventory_are_the_simulators() -> None:
    options = SimOptions(start_bread=3, difficulty="hard", start_time=5000)
    world = ServerWorld(11, options)
    doc = document(world)
    assert doc["spawn"] == list(world.spawn)
    assert doc["time"] == 5000 and doc["difficulty"] == "hard"
    assert doc["start_inventory"] == [{"slot": 44, "name": "bread", "count": 3}]
    assert sorted((a["x"], a["z"]) for a in doc["animals"]) == \
        sorted((a.x, a.z) for a in world.animals.values())
    assert {a["kind"] for a in doc["animals"]} == {"cow", "sheep"}      # world.js summons only its mob kinds (cows)
    assert doc["options"]["start_bread"] == 3


def test_an_empty_start_is_an_empty_inventory() -> None:
    assert document(ServerWorld(2, SimOptions(start_bread=0)))["start_inventory"] == []


def test_the_bed_has_a_foot_and_a_head_facing_the_same_way() -> None:
    world = ServerWorld(4, SimOptions(bed=True))
    assert world.bed is not None
    x, y, z = world.bed
    doc = document(world)
    cells, palette = _unpack(doc), doc["palette"]
    assert palette[cells[y, z, x]] == "red_bed[part=foot,facing=east]"
    assert palette[cells[y, z, x + 1]] == "red_bed[part=head,facing=east]"


def test_a_state_the_file_cannot_say_is_refused_by_name() -> None:
    world = ServerWorld(1, SimOptions())
    lit = world.table.states_of("furnace")
    state = next(s for s in lit if s != world.table.state_for("furnace"))
    world.store.set_block(40, 45, 40, state)
    with pytest.raises(ExportError, match="furnace"):
        document(world)


def test_the_command_writes_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "w.json"
    assert sim_main(["export", "--seed", "5", "--out", str(out), "--start-bread", "0"]) == 0
    doc = json.loads(out.read_text())
    assert doc["seed"] == 5 and doc["start_inventory"] == []
    assert sum(n for _, n in doc["blocks"]) == doc["size"] * doc["size"] * doc["height"]
    assert str(out) in capsys.readouterr().out


def test_the_farms_ripe_wheat_is_said_with_its_age() -> None:
    world = ServerWorld(1000, SimOptions())
    palette = document(world)["palette"]
    assert "wheat[age=7]" in palette and "wheat" not in palette
