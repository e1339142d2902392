"""lpVec3 (proxy.protocol.lp_vec3): encoded and read back, and 26.1's use_entity checked byte
for byte against node-minecraft-protocol's own serializer and parser for that version."""
from __future__ import annotations

import json
import subprocess

import pytest

from proxy.codec.versioned import VersionCodec
from proxy.operations import node_peers
from proxy.protocol import lp_vec3
from proxy.protocol.errors import PeerError
from proxy.protocol.tables import TO_SERVER, table_for_version
from proxy.protocol.wire import read_varint

# One step of the 15-bit quantization at scale s is 2s/32766; half of that is the worst error.
VECTORS = [(0.0, 0.0, 0.0), (0.25, 0.75, -0.5), (1.0, -1.0, 0.0), (2.5, 0.1, -3.0), (3.0, 3.0, 3.0),
           (4.0, 0.0, 0.0), (-7.3, 12.9, 0.01), (100.0, -250.5, 3.25), (1e-6, 0.0, 0.0), (70000.0, 1.0, -1.0)]


def _tolerance(vector: tuple[float, float, float]) -> float:
    scale = max(1.0, max(abs(c) for c in vector))
    return (scale + 1) / 32766.0 + 1e-9


@pytest.mark.parametrize("vector", VECTORS)
def test_round_trip_within_one_quantization_step(vector: tuple[float, float, float]) -> None:
    data = lp_vec3.encode(*vector)
    back, end = lp_vec3.decode(data + b"\xff", 0)
    assert end == len(data)
    for got, want in zip(back, vector):
        assert abs(got - want) <= _tolerance(vector)


def test_zero_is_one_byte_and_large_scales_add_a_varint() -> None:
    assert lp_vec3.encode(0.0, 0.0, 0.0) == b"\x00"
    assert lp_vec3.encode(float("nan"), 0.0, 0.0) == b"\x00"
    assert len(lp_vec3.encode(3.0, 0.0, 0.0)) == 6
    assert len(lp_vec3.encode(4.0, 0.0, 0.0)) == 7


@pytest.mark.parametrize("data", [b"", b"\x01\x02\x03", b"\x04\x00\x00\x00\x00\x00", b"\x04\x00\x00\x00\x00\x00\xff\xff\xff\xff\x7f"])
def test_truncated_or_absurd_input_is_a_peer_error(data: bytes) -> None:
    with pytest.raises(PeerError, match="lpVec3|varint|VarInt"):
        lp_vec3.decode(data, 0)


_NODE_SCRIPT = r"""
const mc = require(process.argv[1] + '/minecraft-protocol')
const [version, hex, spec] = [process.argv[2], process.argv[3], JSON.parse(process.argv[4])]
const ser = mc.createSerializer({ state: 'play', isServer: false, version })
const de = mc.createDeserializer({ state: 'play', isServer: true, version })
const ours = de.parsePacketBuffer(Buffer.from(hex, 'hex')).data.params
const theirs = ser.createPacketBuffer({ name: 'use_entity', params: spec }).toString('hex')
process.stdout.write(JSON.stringify({ ours, theirs }))
"""


@pytest.mark.parametrize("version", ["26.1", "26.2"])
@pytest.mark.parametrize("point", [(0.0, 0.5, 0.0), (0.25, 0.75, -0.5), (-2.2, 1.3, 5.7)])
def test_use_entity_matches_node_minecraft_protocol(version: str, point: tuple[float, float, float]) -> None:
    try:
        node, modules = node_peers.node_executable(), node_peers.modules_for(version)
    except node_peers.PeersNotInstalled as exc:
        pytest.skip(str(exc))
    codec = VersionCodec(table_for_version(version))
    if "location" not in codec.field_types("play", TO_SERVER, "use_entity"):
        pytest.skip(f"{version} has no lpVec3 use_entity")
    packet = codec.interact_entity(4242, off_hand=True, sneaking=True, point=point)
    spec = {"target": 4242, "hand": "off_hand", "location": dict(zip("xyz", point)), "sneaking": True}
    try:
        out = subprocess.run([node, "-e", _NODE_SCRIPT, str(modules), version, packet.hex(), json.dumps(spec)],
                             capture_output=True, text=True, check=True, timeout=60).stdout
    except subprocess.CalledProcessError as exc:
        if "No data available for version" in exc.stderr:  # 1.68.0 has data up to 26.1
            pytest.skip(f"node-minecraft-protocol cannot load {version}")
        raise
    result = json.loads(out)
    assert result["theirs"] == packet.hex()  # their serializer writes exactly our bytes
    ours = result["ours"]  # and their parser reads ours back
    assert ours["target"] == 4242 and ours["hand"] == "off_hand" and ours["sneaking"] is True
    assert ours["location"] == pytest.approx(dict(zip("xyz", point)), abs=_tolerance(point))
    pid, _ = read_varint(packet, 0)
    assert pid == codec.table.packet_id("play", TO_SERVER, "use_entity")
