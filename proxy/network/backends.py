"""The servers of the network, resolved once from the configuration.

``servers`` (or the one-entry ``upstream``) become ``Backend`` values, each with its own
player-info forwarding (the secret read once, at start); ``Network`` answers where a player
lands (``try``, or ``forced_hosts`` by the host the client typed), where a dropped player goes
next, which backend an address is (for transfers) and who may ``/server`` where.
"""
from __future__ import annotations

import attrs

from proxy.config import BackendEntry, ForwardingSection, ProxyConfig
from proxy.connection.forwarding import Forwarding

ADMINS = "@admins"


@attrs.frozen
class Backend:
    name: str
    host: str
    port: int
    forwarding: Forwarding = attrs.field(eq=False, repr=False)
    allow: tuple[str, ...] | None = None  # lower-case names and ADMINS; None: everyone
    aliases: tuple[str, ...] = ()  # lower case: other names players use for it

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"


def virtual_host(typed: str) -> str:
    """The host a client typed, as forced_hosts are keyed: Forge's "\\0FML..." marker and a
    trailing dot dropped, lower case."""
    return typed.split("\0", 1)[0].rstrip(".").lower()


class Network:
    def __init__(self, config: ProxyConfig) -> None:
        default = config.forwarding
        self.backends: dict[str, Backend] = {
            name: _backend(name, entry, entry.forwarding or default) for name, entry in config.backends().items()}
        self.try_order: tuple[str, ...] = tuple(config.landing_order())
        self.forced: dict[str, tuple[str, ...]] = {virtual_host(h): tuple(names)
                                                   for h, names in config.forced_hosts.items()}
        self.transfers = config.transfers
        self._admins = {name.lower() for name in config.admins}

    @property
    def first(self) -> Backend:
        return self.backends[self.try_order[0]]

    @property
    def several(self) -> bool:
        return len(self.backends) > 1

    def get(self, name: str) -> Backend | None:
        """The server a player names: its name or one of its aliases, in any case."""
        wanted = name.lower()
        return next((b for n, b in self.backends.items() if n.lower() == wanted or wanted in b.aliases), None)

    def landing(self, typed_host: str) -> list[Backend]:
        """Where a player who typed ``typed_host`` lands, first choice first."""
        names = self.forced.get(virtual_host(typed_host), self.try_order)
        return [self.backends[n] for n in names]

    def fallbacks(self, typed_host: str, leaving: str) -> list[Backend]:
        """Where a player dropped by ``leaving`` goes, in order: the landing list without it."""
        return [b for b in self.landing(typed_host) if b.name != leaving]

    def by_address(self, host: str, port: int) -> Backend | None:
        """The backend a transfer names, matched on host (case-insensitive) and port."""
        host = host.rstrip(".").lower()
        return next((b for b in self.backends.values() if b.host.lower() == host and b.port == port), None)

    def may_use(self, backend: Backend, player: str, admin: bool) -> bool:
        if backend.allow is None:
            return True
        return player.lower() in backend.allow or (ADMINS in backend.allow and admin)

    def names_for(self, player: str, admin: bool) -> list[str]:
        return [n for n, b in self.backends.items() if self.may_use(b, player, admin)]


def _backend(name: str, entry: BackendEntry, forwarding: ForwardingSection) -> Backend:
    allow = None if entry.allow is None else tuple(a.lower() for a in entry.allow)
    return Backend(name, entry.host, entry.port, Forwarding(forwarding.mode, forwarding.secret_bytes()), allow,
                   tuple(a.lower() for a in entry.aliases))
