"""``mcagent`` command line: run the proxy, list versions, evaluate routing, start a dev server."""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _install_reactor() -> Any:
    # The asyncio reactor lets httpx.AsyncClient calls become Deferreds without threads.
    from twisted.internet import asyncioreactor

    try:
        asyncioreactor.install()
    except Exception:  # already installed (tests, embedding)
        pass
    from twisted.internet import reactor

    return reactor


def _start_logging(json_logs: bool) -> None:
    from twisted.logger import globalLogBeginner, jsonFileLogObserver, textFileLogObserver

    observer = jsonFileLogObserver(sys.stdout) if json_logs else textFileLogObserver(sys.stdout)
    globalLogBeginner.beginLoggingTo([observer], redirectStandardIO=False)


def _load_config(args: argparse.Namespace) -> Any:
    from proxy.config import ConfigError, load, parse_address

    try:
        config = load(Path(args.config) if args.config else None)
        updates: dict[str, Any] = {}
        if args.listen:
            updates["listen"] = parse_address(args.listen)
        if args.upstream:
            updates["upstream"] = parse_address(args.upstream)
        if updates:
            config = config.model_copy(update=updates)
    except ConfigError as exc:
        print(f"mcagent: invalid configuration:\n{exc}", file=sys.stderr)
        raise SystemExit(2) from None
    return config


def build_server(config: Any, reactor: Any) -> Any:
    from proxy.assistant_factory import assistant_factory
    from proxy.server import ProxyServer

    return ProxyServer(config, reactor, assistant_factory=assistant_factory(config))


def cmd_run(args: argparse.Namespace) -> int:
    config = _load_config(args)
    reactor = _install_reactor()
    _start_logging(config.log_json)
    from twisted.internet.endpoints import TCP4ServerEndpoint
    from twisted.logger import Logger

    log = Logger(namespace="mcagent")
    server = build_server(config, reactor)
    endpoint = TCP4ServerEndpoint(reactor, config.listen.port, interface=config.listen.host)

    def listening(port: Any) -> None:
        server.start_ticking()
        log.info("mcagent listening on {host}:{port}, relaying to {uhost}:{uport} ({mode} mode)",
                 host=config.listen.host, port=port.getHost().port, uhost=config.upstream.host,
                 uport=config.upstream.port, mode="online" if config.online_mode else "offline")
        print(f"mcagent: connect your Minecraft client to {config.listen.host}:{port.getHost().port}", flush=True)

    def failed(failure: Any) -> None:
        print(f"mcagent: cannot listen on {config.listen.host}:{config.listen.port}: {failure.getErrorMessage()}",
              file=sys.stderr)
        reactor.stop()
        exit_code[0] = 1

    exit_code = [0]
    endpoint.listen(server).addCallbacks(listening, failed)

    def shutdown(*_: Any) -> None:
        server.broadcast("The proxy is shutting down.")
        for bridge in list(server.bridges):
            bridge.disconnect("The proxy is shutting down.")
        reactor.callLater(0.2, reactor.stop)

    reactor.callWhenRunning(lambda: signal.signal(signal.SIGTERM, lambda *a: reactor.callFromThread(shutdown)))
    reactor.run()
    return exit_code[0]


def cmd_versions(args: argparse.Namespace) -> int:
    from proxy.versions import SUPPORTED

    print(f"{'version':<9} {'protocol':>8}  verified")
    for v in SUPPORTED:
        print(f"{v.name:<9} {v.protocol:>8}  {v.verified}")
    return 0


def cmd_routing(args: argparse.Namespace, rest: list[str]) -> int:
    try:
        from engine.routing.evaluation import main as evaluation_main
    except ImportError:
        print("mcagent: the routing evaluator is not installed in this build", file=sys.stderr)
        return 2
    return int(evaluation_main(rest))


def cmd_dev(args: argparse.Namespace) -> int:
    """Start an embedded flying-squid server and the proxy in front of it."""
    peers = ROOT / ".peers" / "node_modules"
    if not peers.exists():
        print("mcagent: the embedded server is not installed; run scripts/install-peers.sh", file=sys.stderr)
        return 2
    server_port = args.server_port
    cmd = ["node", str(ROOT / "peers" / "server.js"), "--port", str(server_port), "--version", args.version,
           "--gamemode", args.gamemode]
    env = dict(os.environ, NODE_PATH=str(peers))
    child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True)
    assert child.stdout is not None
    deadline = time.monotonic() + 60
    ready = False
    while time.monotonic() < deadline:
        line = child.stdout.readline()
        if not line:
            break
        if '"ready"' in line:
            ready = True
            break
    if not ready:
        child.kill()
        print("mcagent: the embedded flying-squid server did not start", file=sys.stderr)
        return 1
    # Keep draining the server's event stream so its pipe never fills.
    import threading

    threading.Thread(target=lambda: [None for _ in child.stdout], daemon=True).start()  # type: ignore[union-attr]
    print(f"mcagent: embedded flying-squid ({args.version}, {args.gamemode}) on 127.0.0.1:{server_port}", flush=True)
    args.upstream = f"127.0.0.1:{server_port}"
    try:
        return cmd_run(args)
    finally:
        child.terminate()
        try:
            child.wait(3)
        except subprocess.TimeoutExpired:
            child.kill()


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="mcagent", description="A Minecraft protocol proxy with an agent inside.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help_text in (("run", "run the proxy"), ("dev", "run the proxy in front of an embedded flying-squid server")):
        p = sub.add_parser(name, help=help_text)
        p.add_argument("--config", help="config file (default config/proxy.json)")
        p.add_argument("--listen", help="HOST:PORT to listen on (default 127.0.0.1:25566)")
        p.add_argument("--upstream", help="HOST:PORT of the server (default 127.0.0.1:25565)")
        if name == "dev":
            p.add_argument("--server-port", type=int, default=25565)
            p.add_argument("--version", default="1.18.2", help="the embedded server's Minecraft version")
            p.add_argument("--gamemode", default="creative", choices=["creative", "survival"])
    sub.add_parser("versions", help="list supported Minecraft versions")
    sub.add_parser("routing", help="routing tools: mcagent routing eval CORPUS.jsonl [--config F] [--json]",
                   add_help=False)
    if argv[:1] == ["routing"]:
        return cmd_routing(argparse.Namespace(), argv[1:])
    args = parser.parse_args(argv)
    if args.command == "run":
        return cmd_run(args)
    if args.command == "dev":
        return cmd_dev(args)
    if args.command == "versions":
        return cmd_versions(args)
    parser.error(f"unknown command {args.command}")
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
