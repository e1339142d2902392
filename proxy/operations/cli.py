"""``mcagent`` command line: run the proxy, list versions, evaluate routing, start a dev server."""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

from engine.decision.provider_names import PROVIDERS

ROOT = Path(__file__).resolve().parents[2]


def _install_reactor() -> Any:
    # The asyncio reactor lets httpx.AsyncClient calls become Deferreds without threads.
    from twisted.internet import asyncioreactor

    try:
        asyncioreactor.install()
    except Exception:  # already installed (tests, embedding)
        pass
    from twisted.internet import reactor

    return reactor


def _load_config(args: argparse.Namespace) -> Any:
    from pydantic import ValidationError

    from proxy.config import ConfigError, ProxyConfig, load, parse_address

    try:
        config = load(Path(args.config) if args.config else None)
        updates: dict[str, Any] = {}
        if args.listen:
            updates["listen"] = parse_address(args.listen, listen=True)
        if args.upstream:
            updates["upstream"] = parse_address(args.upstream)
        if updates:
            # Validated again: a rule across fields (an account login listening beyond loopback) holds
            # for addresses given on the command line too.
            try:
                config = ProxyConfig.model_validate({**dict(config), **updates})
            except ValidationError as exc:
                raise ConfigError("; ".join(f"--listen/--upstream: {e['msg']}" for e in exc.errors())) from None
    except ConfigError as exc:
        print(f"mcagent: invalid configuration:\n{exc}", file=sys.stderr)
        raise SystemExit(2) from None
    return config


def admin_warnings(config: Any) -> list[str]:
    """What to tell the owner at start about ``admins`` in offline mode (a name proves nothing there)."""
    from proxy.server import ADMIN_SECRET_ENV, admin_secret

    if not config.admins or config.online_mode:
        return []
    lines = ["admins are listed but the proxy runs in offline mode, where anyone can log in under any name: "
             "a listed admin must log in with `!admin login <secret>` in each session before admin commands work"]
    if admin_secret(config) is None:
        lines.append(f"no admin secret is set (admin_secret or {ADMIN_SECRET_ENV}): admin commands in game are "
                     "disabled; use the console")
    return lines


def build_server(config: Any, reactor: Any, metrics: Any = None,
                 add_secret: Callable[[str], None] | None = None) -> Any:
    """The proxy with its collaborators: the assistant's pieces (when the feature is on), metrics,
    and the signed-in Microsoft account (upstream_auth microsoft), whose tokens go to ``add_secret``
    (the log redaction) before anything could log them."""
    from engine.llm.secrets import BadKey
    from proxy.agent.assistant_factory import build_assistance
    from proxy.operations import heap
    from proxy.server import ProxyServer

    assistance = None
    if config.features.assistant:
        try:
            assistance = build_assistance(config, reactor, metrics)
        except BadKey as exc:
            print(f"mcagent: {exc}", file=sys.stderr)
            raise SystemExit(2) from None
    accounts = None
    if config.upstream_auth.mode == "microsoft":
        from proxy.connection.account_source import AccountSource
        from proxy.accounts.store import AccountStore

        sink = add_secret or (lambda secret: None)
        # The store learns tokens in worker threads; the redaction is the reactor's.
        store = AccountStore(config.accounts, on_secret=lambda secret: reactor.callFromThread(sink, secret))
        for secret in store.secrets():  # what the cache holds now, before anything runs
            sink(secret)
        accounts = AccountSource(store, reactor, config.session_server)
    server = ProxyServer(config, reactor, assistant_factory=assistance.make if assistance else None,
                         routing=assistance.routing if assistance else None,
                         model_service=assistance.model_service if assistance else None, metrics=metrics,
                         accounts=accounts)
    server.release_memory = heap.release  # once every player has left
    if server.model_service is not None:
        # Model calls still out at shutdown are cancelled (their players are told nothing more).
        reactor.addSystemEventTrigger("before", "shutdown", server.model_service.close)
    return server


def make_reload(server: Any, config_path: Path | None, overrides: dict[str, Any]) -> Any:
    """``reload``: re-read and validate; an invalid file keeps the running config."""
    from proxy.config import ConfigError, load

    # The network (servers and their forwarding secrets) is resolved once, at start.
    restart_fields = ("listen", "upstream", "online_mode", "console", "proxy_protocol", "forwarding", "log_json",
                      "upstream_auth", "accounts", "dashboard", "servers", "try_order", "forced_hosts",
                      "transfers")

    def reload() -> list[str]:
        try:
            fresh = load(config_path)
        except ConfigError as exc:
            return ["reload failed; still running the previous configuration:", *str(exc).splitlines()]
        fresh = fresh.model_copy(update=overrides)
        old = server.config
        kept = [f for f in restart_fields if getattr(fresh, f) != getattr(old, f)]
        for name in kept:
            fresh = fresh.model_copy(update={name: getattr(old, name)})
        server.config = fresh
        lines = [f"reloaded {config_path or 'defaults'}; new logins use it"]
        if kept:
            lines.append("needs a restart to change: " + ", ".join(kept))
        if server.routing is not None:
            lines.extend(server.routing.reload())
        return lines

    return reload


def _metrics_address(args: argparse.Namespace) -> Any:
    from proxy.config import ConfigError, parse_address

    if not args.metrics:
        return None
    try:
        return parse_address(args.metrics, listen=True)
    except ConfigError as exc:
        print(f"mcagent: --metrics: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def cmd_run(args: argparse.Namespace) -> int:
    config = _load_config(args)
    metrics_address = _metrics_address(args)
    reactor = _install_reactor()
    from twisted.internet.endpoints import TCP4ServerEndpoint
    from twisted.logger import Logger, globalLogBeginner, jsonFileLogObserver, textFileLogObserver

    from proxy.operations.console import ConsoleCommands, LogRing
    from proxy.operations.console_io import TcpConsoleFactory, console_token, start_terminal_console
    from proxy.operations.listen_failure import listen_error, stop_soon

    log = Logger(namespace="mcagent")
    metrics = None
    if args.metrics:
        from proxy.operations.metrics import Metrics

        metrics = Metrics()
    from proxy.operations.log_redaction import RedactingObserver

    # The redaction exists before anything that holds a secret, so each secret is registered
    # as it appears (the account's tokens, refreshed while the proxy runs); its observers
    # (the terminal, the console's log ring) are attached once they exist.
    redacting: Any = RedactingObserver([])  # provides ILogObserver (zope, unseen by mypy)
    server = build_server(config, reactor, metrics, redacting.add_secret)
    logs = LogRing()
    exit_code = [0]
    stopping = [False]

    def stop() -> None:
        if stopping[0]:
            return
        stopping[0] = True
        log.info("stopping: telling {players} players", players=server.player_count())
        for bridge in list(server.connections):
            bridge.disconnect("The proxy is shutting down.", "shutdown")
        server.stop_ticking()
        reactor.callLater(0.3, reactor.stop)

    # Addresses given on the command line outlast a reload of the file.
    overrides = {k: v for k, v, given in (("listen", config.listen, args.listen),
                                          ("upstream", config.upstream, args.upstream)) if given}
    commands = ConsoleCommands(server, make_reload(server, Path(args.config) if args.config else None, overrides),
                               stop, logs)
    server.console = commands
    terminal = start_terminal_console(commands, reactor, stop) if not args.no_console else None
    out = textFileLogObserver(sys.stdout) if terminal is None else (lambda e: _to_terminal(terminal, e))
    if config.log_json:
        out = jsonFileLogObserver(sys.stdout)
    service = server.model_service
    api_key = service.client.settings.api_key if service is not None and service.client is not None else None
    from proxy.server import admin_secret

    for secret in (api_key.reveal() if api_key is not None else None, console_token(config.console.token),
                   admin_secret(config)):
        redacting.add_secret(secret)
    redacting.observers.extend([out, logs])
    globalLogBeginner.beginLoggingTo([redacting], redirectStandardIO=False)
    for warning in admin_warnings(config):
        log.warn("{warning}", warning=warning)

    endpoint: Any = TCP4ServerEndpoint(reactor, config.listen.port, interface=config.listen.host)
    if config.proxy_protocol:
        from twisted.protocols.haproxy import proxyEndpoint

        endpoint = proxyEndpoint(endpoint)

    def announce(text: str) -> None:
        # The terminal is in raw mode while the console runs: lines need \r\n.
        if terminal is not None:
            terminal.show_log(text)
        else:
            print(text, flush=True)

    def listening(port: Any) -> None:
        server.listening = True
        server.start_ticking()
        log.info("mcagent listening on {host}:{port}, relaying to {uhost}:{uport} ({mode} mode)",
                 host=config.listen.host, port=port.getHost().port, uhost=server.network.network.first.host,
                 uport=server.network.network.first.port, mode="online" if config.online_mode else "offline")
        log.info("player-info forwarding: {forwarding}", forwarding=server.forwarding.describe())
        network = server.network.network
        if network.several:
            log.info("servers: {servers}; players land on the first of {order} that answers; transfers: {transfers}",
                     servers=", ".join(f"{b.name} {b.address} (forwarding {b.forwarding.mode})"
                                       for b in network.backends.values()),
                     order=", ".join(network.try_order), transfers=network.transfers)
        if server.accounts is not None and config.upstream_auth.account is not None:
            log.info("upstream_auth: {who}", who=server.accounts.describe(config.upstream_auth.account))
        announce(f"mcagent: connect your Minecraft client to {config.listen.host}:{port.getHost().port}")

    def failed(failure: Any) -> None:
        print(f"mcagent: cannot listen on {config.listen.host}:{config.listen.port}: {listen_error(failure)}",
              file=sys.stderr, flush=True)
        exit_code[0] = 1
        stop_soon(reactor)

    endpoint.listen(server).addCallbacks(listening, failed)

    if metrics is not None and metrics_address is not None:
        from proxy.operations.metrics import site

        address = metrics_address
        if address.host not in ("127.0.0.1", "localhost", "::1"):
            log.warn("metrics listen on non-loopback {host}", host=address.host)
        TCP4ServerEndpoint(reactor, address.port, interface=address.host).listen(site(server, metrics)).addCallbacks(
            lambda port: announce(f"mcagent: metrics on http://{address.host}:{port.getHost().port}/metrics"),
            lambda failure: log.error("metrics cannot listen on {host}:{port}: {why}", host=address.host,
                                      port=address.port, why=listen_error(failure)))

    if config.console.port is not None:
        token = console_token(config.console.token)
        host = config.console.host
        if token is None:
            log.error("console port configured without a token (console.token or MCAGENT_CONSOLE_TOKEN): not opened")
        elif host not in ("127.0.0.1", "localhost", "::1") and not config.console.allow_remote:
            log.error("console host {host} is not loopback and console.allow_remote is false: not opened", host=host)
        else:
            if host not in ("127.0.0.1", "localhost", "::1"):
                log.warn("the admin console listens on non-loopback {host}", host=host)
            TCP4ServerEndpoint(reactor, config.console.port, interface=host).listen(
                TcpConsoleFactory(commands, token, reactor)).addCallbacks(
                lambda port: announce(f"mcagent: console on {host}:{port.getHost().port}"),
                lambda failure: log.error("console cannot listen on {host}:{port}: {why}", host=host,
                                          port=config.console.port, why=listen_error(failure)))

    if config.dashboard.port is not None:
        from proxy.dashboard import service as dashboard
        from proxy.operations.login_throttle import LoginThrottle

        dashboard.start(config, server, reactor, console_token(config.console.token), announce, redacting.add_secret,
                        LoginThrottle(reactor, dashboard.report_refusals))

    reactor.callWhenRunning(lambda: signal.signal(signal.SIGTERM, lambda *a: reactor.callFromThread(stop)))
    reactor.callWhenRunning(lambda: signal.signal(signal.SIGINT, lambda *a: reactor.callFromThread(stop)))
    from proxy.operations import gc_policy

    gc_policy.install(server, reactor)  # last: what start-up built is frozen (see the module)
    reactor.run()
    return exit_code[0]


def cmd_replay_view(args: argparse.Namespace) -> int:
    """Serve the dashboard's episode replay for a folder, without a proxy."""
    path = Path(args.path)
    if not path.is_dir():
        print(f"mcagent: {path}: not a folder (give an episode folder or a folder of them)", file=sys.stderr)
        return 2
    host, _, port_text = args.listen.rpartition(":")
    if host not in ("127.0.0.1", "localhost", "::1") or not port_text.isdigit() or int(port_text) > 65535:
        print(f"mcagent: --listen {args.listen!r}: expected a loopback HOST:PORT (0 picks a free port)",
              file=sys.stderr)
        return 2
    reactor = _install_reactor()
    from proxy.dashboard.service import replay_view, report_refusals
    from proxy.operations.login_throttle import LoginThrottle

    replay_view(path, host, int(port_text), reactor, lambda text: print(text, flush=True),
                LoginThrottle(reactor, report_refusals), os.environ.get("MCAGENT_REPLAY_TOKEN") or None)
    reactor.run()
    return 0


def _to_terminal(terminal: Any, event: dict[str, Any]) -> None:
    from twisted.logger import formatEventAsClassicLogText

    text = formatEventAsClassicLogText(event)
    if text:
        terminal.show_log(text.rstrip("\n"))


def cmd_console(args: argparse.Namespace) -> int:
    from proxy.config import ConfigError, load, parse_address
    from proxy.operations.console_io import attach, console_token

    try:
        config = load(Path(args.config) if args.config else None)
    except ConfigError as exc:
        print(f"mcagent: invalid configuration:\n{exc}", file=sys.stderr)
        return 2
    if args.connect:
        address = parse_address(args.connect)
        host, port = address.host, address.port
    elif config.console.port == 0:
        print("mcagent: console.port is 0 (the port the proxy printed at start is not in the config): "
              "pass --connect HOST:PORT", file=sys.stderr)
        return 2
    elif config.console.port is not None:
        host, port = config.console.host, config.console.port
    else:
        print("mcagent: no console port: pass --connect HOST:PORT or set console.port in the config", file=sys.stderr)
        return 2
    token = args.token or console_token(config.console.token)
    if not token:
        print("mcagent: no console token: pass --token, set MCAGENT_CONSOLE_TOKEN or console.token", file=sys.stderr)
        return 2
    try:
        return attach(host, port, token)
    except OSError as exc:
        print(f"mcagent: cannot reach the console at {host}:{port}: {exc}", file=sys.stderr)
        return 1


def cmd_versions(args: argparse.Namespace) -> int:
    from proxy.protocol import versions

    if args.markdown:
        print(versions.markdown_table(), end="")
        return 0
    # Releases last: one row names every release sharing the protocol (1.8 has ten).
    width = max(len(versions.describe(v)) for v in versions.KNOWN)
    print(f"{'protocol':>8}  {'verified':<{width}}  releases (tables from minecraft-data {versions.MINECRAFT_DATA})")
    for v in versions.KNOWN:
        print(f"{v.protocol:>8}  {versions.describe(v):<{width}}  {v.label}")
    return 0


def cmd_routing(args: argparse.Namespace, rest: list[str]) -> int:
    try:
        from engine.routing.evaluation import main as evaluation_main
        from engine.routing.line_training import main as training_main
    except ImportError:
        print("mcagent: the routing tools are not installed in this build", file=sys.stderr)
        return 2
    if rest[:1] == ["train"]:
        return int(training_main(rest[1:]))
    return int(evaluation_main(rest))


def cmd_sim(rest: list[str]) -> int:
    try:
        from engine.sim.cli import main as sim_main
    except ImportError:
        print("mcagent: the simulator is not installed in this build", file=sys.stderr)
        return 2
    return int(sim_main(rest))


def cmd_dev(args: argparse.Namespace) -> int:
    """Start an embedded server (flying-squid up to 1.21.4, the world server after) and the proxy."""
    from proxy.operations import node_peers
    from proxy.protocol import versions

    if args.version not in {name for row in versions.SUPPORTED for name in row.releases}:
        print(f"mcagent: the proxy does not accept {args.version}; `mcagent versions` lists what it does",
              file=sys.stderr)
        return 2
    try:
        node = node_peers.node_executable()
        modules = node_peers.modules_for(args.version)
    except node_peers.PeersNotInstalled as exc:
        print(f"mcagent: the embedded server is not installed: {exc}", file=sys.stderr)
        return 2
    script = node_peers.server_script(args.version)
    kind = "flying-squid" if node_peers.squid_speaks(args.version) else "world server"
    server_port = args.server_port
    cmd = [node, str(script), "--port", str(server_port), "--version", args.version, "--gamemode", args.gamemode]
    env = dict(os.environ, NODE_PATH=str(modules))
    # The server's own output (its log, stack traces when a client goes away) goes to a file:
    # on the console's raw-mode terminal it would staircase over the prompt. Its own session
    # keeps the terminal's Ctrl-C for us; we stop it ourselves below.
    log_dir = ROOT / "logs"
    log_dir.mkdir(exist_ok=True)
    server_log = log_dir / "dev-server.log"
    log_file = open(server_log, "a", encoding="utf-8")
    child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log_file, env=env, text=True,
                             start_new_session=True)
    assert child.stdout is not None
    deadline = time.monotonic() + 60
    ready = False
    while time.monotonic() < deadline:
        line = child.stdout.readline()
        if not line:
            break
        log_file.write(line)
        if '"ready"' in line:
            ready = True
            server_port = _ready_port(line, server_port)  # --server-port 0: the one the OS gave
            break
    if not ready:
        child.kill()
        log_file.close()
        print(f"mcagent: the embedded {kind} did not start (see {server_log})", file=sys.stderr)
        return 1
    # Keep draining the server's event stream so its pipe never fills; it goes to the log too.
    import threading

    def drain() -> None:
        for line in child.stdout:  # type: ignore[union-attr]
            log_file.write(line)
            log_file.flush()

    threading.Thread(target=drain, daemon=True).start()
    print(f"mcagent: embedded {kind} ({args.version}, {args.gamemode}) on 127.0.0.1:{server_port}; "
          f"its output goes to {server_log}", flush=True)
    args.upstream = f"127.0.0.1:{server_port}"
    try:
        return cmd_run(args)
    finally:
        child.terminate()
        try:
            child.wait(3)
        except subprocess.TimeoutExpired:
            child.kill()  # flying-squid sometimes spins after SIGTERM
        log_file.close()


def _ready_port(line: str, asked: int) -> int:
    """The port in the embedded server's ``{"event":"ready","port":P}`` line (``asked`` without one)."""
    import json

    try:
        port = json.loads(line).get("port")
    except (ValueError, AttributeError):
        return asked
    return port if isinstance(port, int) and port > 0 else asked


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="mcagent", description="A Minecraft protocol proxy with an agent inside.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help_text in (("run", "run the proxy"), ("dev", "run the proxy in front of an embedded server (flying-squid, or the world server after 1.21.4)")):
        p = sub.add_parser(name, help=help_text)
        p.add_argument("--config", help="config file (default config/proxy.json)")
        p.add_argument("--listen", help="HOST:PORT to listen on (default 127.0.0.1:25566)")
        p.add_argument("--upstream", help="HOST:PORT of the server (default 127.0.0.1:25565)")
        p.add_argument("--metrics", help="serve Prometheus /metrics and /healthz on HOST:PORT (off by default)")
        p.add_argument("--no-console", action="store_true", help="no interactive console on this terminal")
        if name == "dev":
            p.add_argument("--server-port", type=int, default=25565, help="the embedded server's port (0: a free one)")
            p.add_argument("--version", default="1.18.2", help="the embedded server's Minecraft version (1.8.8 -> 1.21.4 on flying-squid, "
                           "1.21.5 -> 26.1 on peers/world.js)")
            p.add_argument("--gamemode", default="creative", choices=["creative", "survival"])
    v = sub.add_parser("versions", help="list the Minecraft releases the proxy accepts and how each was verified")
    v.add_argument("--markdown", action="store_true", help="print the version table of docs/versions.md")
    sub.add_parser("sim", help="headless autopilot episodes: mcagent sim --seeds N --ticks T --provider "
                   f"{'|'.join(PROVIDERS)} "
                   "[--json]", add_help=False)
    r = sub.add_parser("replay-view", help="replay recorded autopilot episodes in the browser, without a proxy")
    r.add_argument("path", help="an episode folder (decision_log.jsonl + episode_events.json) or a folder of them")
    r.add_argument("--listen", default="127.0.0.1:0", help="HOST:PORT to serve on (default a free loopback port)")
    c = sub.add_parser("console", help="attach to a running proxy's console port")
    c.add_argument("--config", help="config file to read console.host/port/token from")
    c.add_argument("--connect", help="HOST:PORT of the console")
    c.add_argument("--token", help="console token (default: MCAGENT_CONSOLE_TOKEN or the config)")
    sub.add_parser("routing", help="routing tools: mcagent routing eval CORPUS.jsonl [--config F] [--line-model F] [--json]; "
                   "mcagent routing train [--check]",
                   add_help=False)
    from proxy.operations import accounts_cli as account_cli

    account_cli.add_commands(sub)
    if argv[:1] == ["routing"]:
        return cmd_routing(argparse.Namespace(), argv[1:])
    if argv[:1] == ["sim"]:
        return cmd_sim(argv[1:])
    args = parser.parse_args(argv)
    if args.command == "run":
        return cmd_run(args)
    if args.command == "dev":
        return cmd_dev(args)
    if args.command == "versions":
        return cmd_versions(args)
    if args.command == "console":
        return cmd_console(args)
    if args.command == "replay-view":
        return cmd_replay_view(args)
    if args.command in account_cli.COMMANDS:
        return account_cli.run(args)
    parser.error(f"unknown command {args.command}")
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
