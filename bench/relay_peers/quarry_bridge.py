"""Path (c) of the relay benchmark: quarry's own proxy with its default behaviour.

How this works: ``quarry.net.proxy.DownstreamFactory`` with the stock ``Bridge``
(offline mode, compression threshold 256, quarry's defaults). Every packet in
both directions is unframed, decompressed, dispatched by name and, having no
handler, re-packed (and recompressed) by ``Bridge.packet_unhandled``. Fast
forwarding is not enabled. The reactor is the asyncio one, as in mcagent, so
only the packet handling differs. Prints ``{"event": "listening", "port": N}``.
"""
from __future__ import annotations

import argparse
import json
import sys

from twisted.internet import asyncioreactor

asyncioreactor.install()

from quarry.net.proxy import DownstreamFactory  # noqa: E402
from twisted.internet import reactor  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description="quarry default bridge for bench/relay.py")
    parser.add_argument("--listen-port", type=int, default=0)
    parser.add_argument("--upstream", required=True, help="HOST:PORT")
    args = parser.parse_args()
    host, _, port = args.upstream.rpartition(":")
    factory = DownstreamFactory()
    factory.connect_host = host
    factory.connect_port = int(port)
    factory.online_mode = False
    listening = reactor.listenTCP(args.listen_port, factory, interface="127.0.0.1")  # factory.listen() hides the port
    sys.stdout.write(json.dumps({"event": "listening", "port": listening.getHost().port}) + "\n")
    sys.stdout.flush()
    reactor.run()


if __name__ == "__main__":
    main()
