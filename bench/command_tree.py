"""What adding /ai and /agent to a server's command tree costs: the old way against the splice.

How this works: a 10,000-node tree (a root with 4,999 literals, each leading to an
argument node of every parser the version knows) is encoded with the version's
layout. "decode + re-encode" is what the proxy did before (decode every node to a
dict, encode the tree again); "splice, first" is ``VersionCodec.rewrite`` on a tree
it has not seen (each node scanned only for its end); "splice, again" is the same
tree at the next login (one hash and a cache hit). Ratios matter, not absolute
times: the machine may be busy.

    .venv/bin/python bench/command_tree.py [--version 1.20.4] [--nodes 10000] [--rounds 3]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from proxy.codec.versioned import VersionCodec, _command_tree  # noqa: E402
from proxy.protocol.tables import table_for_version  # noqa: E402
from tests.proxy.test_server_packet_bounds import _argument_nodes, _node, _tree  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", default="1.20.4")
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    codec = VersionCodec(table_for_version(args.version))
    half = args.nodes // 2
    arguments = _argument_nodes(codec)
    nodes = [_node(codec, 0, list(range(1, half)))]
    nodes += [_node(codec, 1, [half + i], f"c{i}") for i in range(1, half)]
    nodes += [arguments[i % len(arguments)] for i in range(args.nodes - len(nodes))]
    packet = _tree(codec, nodes)
    old, first, again = [], [], []
    for _ in range(args.rounds):
        started = time.perf_counter()
        fields = codec.decode("play", "toClient", "declare_commands", packet)
        codec.encode("play", "toClient", "declare_commands", fields)
        old.append(time.perf_counter() - started)
        _command_tree(codec.table)._cache.clear()
        started = time.perf_counter()
        codec.rewrite("declare_commands", packet)
        first.append(time.perf_counter() - started)
        started = time.perf_counter()
        codec.rewrite("declare_commands", packet)
        again.append(time.perf_counter() - started)
    best = min(old), min(first), min(again)
    print(f"{len(nodes)}-node tree, {len(packet)} bytes, {args.version}, best of {args.rounds}:")
    print(f"  decode + re-encode   {best[0] * 1000:8.1f} ms")
    print(f"  splice, first time   {best[1] * 1000:8.1f} ms   ({best[0] / best[1]:.1f}x faster)")
    print(f"  splice, next login   {best[2] * 1000:8.2f} ms   ({best[0] / best[2]:.0f}x faster)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
