"""Starting the dashboard: beside a running proxy (``dashboard`` config), or alone for replays.

How this works: ``start`` reads the ``dashboard`` section: nothing happens
without a port; a host beyond loopback needs ``allow_remote``; without the
console token there is no admin to let in, so the dashboard stays closed and
says why. The tokens go to the log redaction before anything could log them.
``replay_view`` serves only the replay of a folder, with a fresh random token
printed once on the terminal (no proxy, no config, no console token needed).
"""
from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from twisted.internet.endpoints import TCP4ServerEndpoint
from twisted.logger import Logger
from twisted.web.server import Site

from proxy.dashboard.auth import DashboardAuth, Scope, Throttle
from proxy.dashboard.site import DashboardResource

if TYPE_CHECKING:
    from proxy.config import ProxyConfig
    from proxy.server import ProxyServer

log = Logger(namespace="mcagent.dashboard")
LOOPBACK = ("127.0.0.1", "localhost", "::1")
VIEWER_TOKEN_ENV = "MCAGENT_DASHBOARD_VIEWER_TOKEN"


def report_refusals(host: str, failures: int, locked_for: float) -> None:
    """What the throttle of wrong tokens logs (the CLI builds it: ``LoginThrottle(clock, report_refusals)``)."""
    if failures == 1 and locked_for == 0:
        log.warn("dashboard: wrong token from {host} (further refusals are summarised)", host=host)
    else:
        log.warn("dashboard: {count} more refused tokens from {host}; locked for {wait:.0f} s", count=failures,
                 host=host, wait=locked_for)


def viewer_token(config: "ProxyConfig") -> str | None:
    from_env = os.environ.get(VIEWER_TOKEN_ENV, "").strip()
    if from_env:
        return from_env
    token = config.dashboard.viewer_token
    return token.get_secret_value().strip() or None if token is not None else None


def make_site(resource: DashboardResource) -> Site:
    site = Site(resource)
    site.displayTracebacks = False
    site.noisy = False
    # No access log: a path may carry a player's name, and nobody asked for one more log.
    site.log = lambda request: None  # type: ignore[method-assign]
    return site


def start(config: "ProxyConfig", server: "ProxyServer", reactor: Any, console_token: str | None,
          announce: Callable[[str], None], add_secret: Callable[[str | None], None],
          throttle: Throttle) -> DashboardResource | None:
    section = config.dashboard
    if section.port is None:
        return None
    viewer = viewer_token(config)
    add_secret(viewer)
    if console_token is None:
        log.error("dashboard port configured without a console token (console.token or MCAGENT_CONSOLE_TOKEN), "
                  "which is its admin token: not opened")
        return None
    if section.host not in LOOPBACK and not section.allow_remote:
        log.error("dashboard host {host} is not loopback and dashboard.allow_remote is false: not opened",
                  host=section.host)
        return None
    if section.host not in LOOPBACK:
        log.warn("the dashboard listens on non-loopback {host} over plain HTTP", host=section.host)
    tokens = {console_token: Scope.ADMIN}
    if viewer is not None and viewer != console_token:
        tokens[viewer] = Scope.VIEW
    root = Path(section.episodes or config.autopilot.log_dir or "logs/autopilot")
    resource = DashboardResource(DashboardAuth(tokens, reactor, throttle), reactor, server, root, reactor)
    reactor.addSystemEventTrigger("before", "shutdown", resource.close_streams)
    host = section.host
    TCP4ServerEndpoint(reactor, section.port, interface=host).listen(make_site(resource)).addCallbacks(
        lambda port: announce(f"mcagent: dashboard on http://{host}:{port.getHost().port}/"),
        lambda failure: log.error("dashboard cannot listen on {host}:{port}: {why}", host=host, port=section.port,
                                  why=failure.getErrorMessage()))
    return resource


def replay_view(path: Path, host: str, port: int, reactor: Any, announce: Callable[[str], None],
                throttle: Throttle, token: str | None = None) -> DashboardResource:
    """Serve the replay of ``path`` (an episode folder or a folder of them)."""
    token = token or secrets.token_urlsafe(18)
    resource = DashboardResource(DashboardAuth({token: Scope.VIEW}, reactor, throttle), reactor, None, path, reactor)
    TCP4ServerEndpoint(reactor, port, interface=host).listen(make_site(resource)).addCallback(
        lambda listening: announce(f"mcagent: replays of {path} on http://{host}:{listening.getHost().port}/replay "
                                   f"(token {token})"))
    return resource
