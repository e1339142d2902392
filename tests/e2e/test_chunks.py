"""proxy/codec/chunks/ against a real server: flying-squid's chunks, block changes and unloads.

A bare minecraft-protocol client (tests/e2e/chunk_capture.js) logs in and records the
world packets byte for byte; the decoder replays them into a small reference world,
which must agree with the server's own view of its blocks (peers/server.js ``block``):
the superflat layers, a ``/fill``, redstone that the server reports with
``multi_block_change`` (1.16.2+; flying-squid sends it for older versions only in cases
these tests cannot trigger), and the columns that load and unload as the client moves.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from proxy.codec.chunks import BlockChanges, ChunkColumn, ChunkDecoder, ChunkUnload, WorldUpdate
from proxy.protocol.tables import TO_CLIENT, ProtocolTable, table_for_version
from proxy.protocol.wire import read_varint
from proxy.protocol.versions import END_TO_END, LOGIN_CHAT, SUPPORTED
from tests.e2e.conftest import SquidFactory
from tests.e2e.peers import REPO, JsonLineProcess, PeerPool, SquidServer, node_executable

CAPTURE_JS = REPO / "tests" / "e2e" / "chunk_capture.js"
DEFAULT_VERSIONS = ["1.8.8", "1.12.2", "1.16.5", "1.18.2", "1.20.4", "1.21.4"]
# MCAGENT_E2E_VERSIONS="1.13.2,1.17.1" or "all" (every version flying-squid serves) widens the run.
_env = os.environ.get("MCAGENT_E2E_VERSIONS", "").strip()
ALL_VERSIONS = [v.name for v in SUPPORTED if v.verified in (END_TO_END, LOGIN_CHAT)]
VERSIONS = ALL_VERSIONS if _env == "all" else [v.strip() for v in _env.split(",") if v.strip()] or DEFAULT_VERSIONS


class ChunkCapture(JsonLineProcess):
    """The capture client; ``packets()`` returns the recorded packets with their bytes."""

    name = "capture"

    def start(self, port: int, version: str, out: Path, username: str = "capture") -> "ChunkCapture":
        self.name = f"capture-{version}"
        self.out = out
        self.spawn([node_executable(), str(CAPTURE_JS), "--port", str(port), "--version", version,
                    "--username", username, "--out", str(out)])
        self.wait_for(lambda e: e.get("event") in ("login", "end") or bool(e.get("fatal")), timeout=30)
        if not self.find_all("login"):
            raise AssertionError(f"{self.name} did not log in\n{self.tail()}")
        return self

    def packet_events(self, since: int = 0) -> list[dict[str, Any]]:
        return [e for e in self.events[since:] if e.get("event") == "packet"]

    def packets(self, since: int = 0) -> list[dict[str, Any]]:
        """Packets announced since event index ``since``, each with state, name and hex."""
        indices = [e["index"] for e in self.packet_events(since)]
        if not indices:
            return []
        lines = self.out.read_text().splitlines()
        return [json.loads(lines[i]) for i in indices]

    def wait_packets(self, name: str, count: int, since: int = 0, timeout: float = 15.0) -> None:
        def enough(_: dict[str, Any]) -> bool:
            return sum(1 for e in self.packet_events(since) if e["name"] == name) >= count

        enough.__name__ = f"{count} {name} packets"
        if not enough({}):
            self.wait_for(enough, timeout=timeout, since=since)

    def settle(self, quiet: float = 0.6, timeout: float = 10.0) -> None:
        """Wait until no packet has arrived for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        seen = len(self.events)
        last = time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.1)
            if len(self.events) != seen:
                seen, last = len(self.events), time.monotonic()
            elif time.monotonic() - last >= quiet:
                return


class World:
    """The reference model the decoded updates are applied to (last write wins)."""

    def __init__(self) -> None:
        self.columns: dict[tuple[int, int], dict[int, np.ndarray]] = {}
        self.multi: list[tuple[int, int, int, int]] = []
        self.single: list[tuple[int, int, int, int]] = []
        self.unloaded: list[tuple[int, int]] = []
        self.unloaded_unknown: list[tuple[int, int]] = []  # unloads of columns never loaded

    def apply(self, name: str, updates: list[WorldUpdate]) -> None:
        for update in updates:
            if isinstance(update, ChunkColumn):
                column = {} if update.full else self.columns.get((update.cx, update.cz), {})
                for sy, states in update.sections:
                    column[sy] = np.array(states)  # a writable copy, as a store would keep
                self.columns[(update.cx, update.cz)] = column
            elif isinstance(update, ChunkUnload):
                if self.columns.pop((update.cx, update.cz), None) is None:
                    self.unloaded_unknown.append((update.cx, update.cz))
                self.unloaded.append((update.cx, update.cz))
            elif isinstance(update, BlockChanges):
                (self.multi if name == "multi_block_change" else self.single).extend(update.changes)
                for x, y, z, state in update.changes:
                    section = self.columns.get((x >> 4, z >> 4), {}).get(y >> 4)
                    if section is not None:
                        section[((y & 15) << 8) | ((z & 15) << 4) | (x & 15)] = state

    def get(self, x: int, y: int, z: int) -> int | None:
        section = self.columns.get((x >> 4, z >> 4), {}).get(y >> 4)
        return None if section is None else int(section[((y & 15) << 8) | ((z & 15) << 4) | (x & 15)])


def replay(decoder: ChunkDecoder, table: ProtocolTable, packets: list[dict[str, Any]], world: World) -> None:
    for event in packets:
        raw = bytes.fromhex(event["hex"])
        name = event["name"]
        if name in ("login", "respawn") and event["state"] == "play":
            codec = table.codec("play", TO_CLIENT, name)
            assert codec is not None
            fields, _ = codec.decode(raw, read_varint(raw, 0)[1], [])
            decoder.note_dimension(name, fields)
        elif name == "registry_data":
            codec = table.codec("configuration", TO_CLIENT, name)
            assert codec is not None
            fields, _ = codec.decode(raw, read_varint(raw, 0)[1], [])
            decoder.note_registry(fields)
        else:
            world.apply(name, decoder.decode(name, raw))


def server_state(server: SquidServer, x: int, y: int, z: int) -> tuple[int, str]:
    event = server.request("block", x=x, y=y, z=z)
    return int(event["stateId"]), str(event["name"])


@pytest.fixture(params=VERSIONS)
def version(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_decoded_world_matches_the_server(version: str, squid_factory: SquidFactory, peer_pool: PeerPool,
                                          tmp_path: Path) -> None:
    server = squid_factory(version)
    capture = ChunkCapture()
    peer_pool.peers.append(capture)
    capture.start(server.port or 0, version, tmp_path / "packets.jsonl")
    capture.wait_packets("map_chunk", 9)
    capture.settle()

    table = table_for_version(version)
    decoder = ChunkDecoder(table)
    world = World()
    replay(decoder, table, capture.packets(), world)
    tall = table.protocol >= 757
    assert (decoder.dimension.min_y, decoder.dimension.height) == ((-64, 384) if tall else (0, 256))
    assert decoder.dimension.known, "the dimension came from the server's login (or registry)"
    assert len(world.columns) >= 9

    # The superflat layers and a random sample, position by position, as the server has them.
    rng = random.Random(version)
    names: dict[int, set[str]] = {}
    ys = [0, 1, 2, 3, 4, 5, 6, 40, 255] + ([-64, -1, 300] if tall else [])
    columns = rng.sample(sorted(world.columns), 6)
    for cx, cz in columns:
        for _ in range(2):
            x, z = cx * 16 + rng.randrange(16), cz * 16 + rng.randrange(16)
            for y in ys:
                state, name = server_state(server, x, y, z)
                assert world.get(x, y, z) == state, f"({x}, {y}, {z}): server has {name} ({state})"
                names.setdefault(y, set()).add(name)
    assert names[0] == {"bedrock"} and names[2] == {"dirt"}
    assert names[4] <= {"grass", "grass_block"} and names[5] == {"air"}

    # /fill arrives as one block_change per block; decoded to the box, with the server's state.
    cx, cz = columns[0]
    x0, z0 = cx * 16 + 3, cz * 16 + 5
    mark = capture.mark()
    server.run(f"/fill {x0} 7 {z0} {x0 + 1} 8 {z0 + 2} stone")
    capture.wait_packets("block_change", 12, since=mark)
    capture.settle()
    replay(decoder, table, capture.packets(mark), world)
    box = {(x, y, z) for x in (x0, x0 + 1) for y in (7, 8) for z in (z0, z0 + 1, z0 + 2)}
    assert {(x, y, z) for x, y, z, _ in world.single} == box
    stone, _ = server_state(server, x0, 7, z0)
    assert {s for *_, s in world.single} == {stone}
    for x, y, z in box:
        assert world.get(x, y, z) == stone

    # Redstone: flying-squid reports the wires' new shapes with multi_block_change. It
    # packs world coordinates into the records unmasked, so stay in chunk (0, 0), y < 16.
    layout_names = {f["name"] for f in table.raw_layout("play", TO_CLIENT, "multi_block_change")[1]}
    if "chunkCoordinates" in layout_names:
        assert (0, 0) in world.columns, "flying-squid spawns within 30 blocks of the origin"
        mark = capture.mark()
        server.run("/fill 2 5 2 6 5 2 redstone_wire")
        capture.wait_packets("block_change", 5, since=mark)
        time.sleep(0.5)  # let a few ticks process the wires' updates before the torch comes
        server.run("/fill 1 5 2 1 5 2 redstone_torch")
        capture.wait_packets("multi_block_change", 1, since=mark)
        capture.settle()
        replay(decoder, table, capture.packets(mark), world)
        wires = {(x, 5, 2) for x in range(2, 7)}
        assert world.multi and {(x, y, z) for x, y, z, _ in world.multi} <= wires
        for x, y, z in wires | {(1, 5, 2)}:
            state, name = server_state(server, x, y, z)
            assert world.get(x, y, z) == state, f"({x}, {y}, {z}): server has {name} ({state})"
        final = {(x, y, z): s for x, y, z, s in world.multi}
        for (x, y, z), s in final.items():
            assert s == server_state(server, x, y, z)[0]

    # Moving away: the server unloads the columns left behind (1.8: an empty ground-up
    # map_chunk) and sends new ones, which agree with the server too.
    before = set(world.columns)
    mark = capture.mark()
    for step in range(1, 7):
        capture.request("move", x=8.5 + 12 * step, y=5, z=8.5)
        time.sleep(0.2)
    capture.wait_packets("unload_chunk" if table.packet_id("play", TO_CLIENT, "unload_chunk") is not None
                         else "map_chunk", 1, since=mark)
    capture.settle()
    replay(decoder, table, capture.packets(mark), world)
    assert world.unloaded and not world.unloaded_unknown
    assert set(world.unloaded) & before
    assert not set(world.unloaded) & set(world.columns)
    fresh = sorted(set(world.columns) - before)
    assert fresh, "new columns arrived"
    for cx, cz in rng.sample(fresh, min(3, len(fresh))):
        x, z = cx * 16 + rng.randrange(16), cz * 16 + rng.randrange(16)
        for y in (0, 3, 4, 5) + ((-64,) if tall else ()):
            state, name = server_state(server, x, y, z)
            assert world.get(x, y, z) == state, f"({x}, {y}, {z}): server has {name} ({state})"


DUMP_JS = REPO / "tests" / "e2e" / "chunk_dump.js"
# Every accepted protocol the npm minecraft-data has: prismarine-chunk knows each chunk format,
# so this is the one independent check of decoding for the protocols no server peer speaks.
# Rows generated from a minecraft-data repository commit (26.2) are not here: prismarine-chunk
# reads the npm release, which has no data for them (tests/proxy/test_new_releases.py).
DUMP_VERSIONS = [v.name for v in SUPPORTED if not v.commit]


@pytest.mark.parametrize("dump_version", DUMP_VERSIONS)
def test_prismarine_chunk_columns_decode(dump_version: str, peers_installed: Path) -> None:
    """Columns built and dumped by prismarine-chunk, random blocks and all, decode to
    the states prismarine-chunk reports, for every accepted protocol; 1.21.5+ (unprefixed
    long arrays) and 26.1 (fluid counts) are checked here against an encoder not ours."""
    from tests.proxy.test_chunks import outer_defaults, packet

    env = dict(os.environ, MCAGENT_PEERS_DIR=str(peers_installed))
    for seed in (1, 2):
        out = subprocess.run([node_executable(), str(DUMP_JS), "--version", dump_version, "--seed", str(seed)],
                             capture_output=True, text=True, timeout=60, env=env, check=True)
        dump = json.loads(out.stdout.strip().splitlines()[-1])
        table = table_for_version(dump_version)
        mask = dump["mask"]
        if isinstance(mask, list):  # 1.17: [[high, low], ...] 32-bit halves of each long
            mask = [((hi & 0xFFFFFFFF) << 32 | (lo & 0xFFFFFFFF)) - ((hi >> 31 & 1) << 64) for hi, lo in mask]
        raw = packet(table, "map_chunk", outer_defaults(table, "map_chunk", x=4, z=-2, groundUp=True,
                                                        bitMap=mask, chunkData=bytes.fromhex(dump["hex"])))
        decoder = ChunkDecoder(table)
        decoder.set_dimension(dump["minY"], dump["height"])
        column = decoder.decode_chunk("map_chunk", raw)
        assert isinstance(column, ChunkColumn)
        wrong = [(x, y, z, s, column.block(x, y, z)) for x, y, z, s in dump["samples"] if column.block(x, y, z) != s]
        assert not wrong, f"{len(wrong)} of {len(dump['samples'])} differ, e.g. {wrong[:5]}"
        assert any(s for *_, s in dump["samples"]), "the sample holds blocks, not only air"
