"""The network's side of every connection: where players land, ``/server``, failover, transfers.

How this works: the ``Connection`` asks the switchboard (its ``NetworkHooks``) four things and
tells it one (a login's failover, for the figures); the switchboard answers and starts a
``Switch`` (``proxy.network.switch``) when a player must move; the switch calls back when the
move is done or has failed, and the switchboard tells the player and decides what happens next:

* ``landing``: the servers a new player tries in order (``try``, or the forced host's list).
* ``switch``: ``!server`` / ``/server`` / the console's ``send``: list the servers, or move there
  (if the player may, and is playing). A failed move leaves the player where they were, told why.
* ``dropped``: the backend closed the connection, or kicked with a shutdown reason
  (``proxy.connection.shutdown_kicks``): the player goes to the next server of their landing
  list not yet tried, told why; a kick for a reason (ban, full) and a loss with nowhere to go are left to the
  connection, which shows them as they are.
* ``login_failed_over``: a first login that failed went on to the next server
  (``proxy.connection.login_failover``): counted with the failovers in play.
* ``transferred``: a backend's transfer (1.20.5+) to one of ``servers`` becomes a switch
  (``transfers: keep`` and ``refuse``); to another address it goes to the client (``keep``,
  ``pass``) or is dropped with a word to the player (``refuse``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from proxy.connection.shutdown_kicks import is_shutdown
from proxy.network.backends import Backend, Network
from proxy.network.switch import Switch
from proxy.protocol.states import State

if TYPE_CHECKING:
    from proxy.connection.core import Connection
    from proxy.connection.seams import BackendRef, Log


class Switchboard:
    def __init__(self, network: Network, log: "Log") -> None:
        self.network = network
        self.log = log
        self.switches = 0  # moves completed (switches, failovers, transfers kept inside)
        self.failovers = 0  # players moved on because their backend went away, in play or at login
        self.login_failovers = 0  # ... of them at login (``proxy.connection.login_failover``)

    # -- NetworkHooks ---------------------------------------------------------------------
    def landing(self, typed_host: str) -> "list[BackendRef]":
        return list(self.network.landing(typed_host))

    def switch(self, conn: Any, name: str | None) -> list[str]:
        return self._switch(conn, name, console=False)

    @property
    def several(self) -> bool:
        return self.network.several

    def server_names(self, conn: Any) -> list[str] | None:
        """The servers this player may ``/server`` to, for the command tree; None in front of one
        server, where ``/server`` stays the backend's."""
        if not self.network.several:
            return None
        c: Connection = conn
        return self.network.names_for(c.player_name or "?", c.session.admin if c.session is not None else False)

    def send(self, conn: Any, name: str) -> list[str]:
        """The console's ``send PLAYER SERVER``: any server, whoever the player is."""
        lines = self._switch(conn, name, console=True)
        return [f"{conn.player_name}: {line}" for line in lines]

    def _switch(self, conn: Any, name: str | None, console: bool) -> list[str]:
        c: Connection = conn
        network = self.network
        player = c.player_name or "?"
        admin = c.session.admin if c.session is not None else False
        current = c.backend.name if c.backend is not None else None
        if name is None or not name.strip():
            names = [f"{n} (you are here)" if n == current else n for n in network.names_for(player, admin)]
            return [f"Servers: {', '.join(names)}. /server <name> moves you."]
        backend = network.get(name.strip())
        if backend is None or not (console or network.may_use(backend, player, admin)):
            return [f"No server {name.strip()!r} for you; yours: {', '.join(network.names_for(player, admin))}."]
        if backend.name == current:
            return [f"You are on {backend.name} already."]
        refusal = self._cannot_move(c)
        if refusal is not None:
            return [refusal]
        self._start(c, backend, old_gone=False)
        return [f"Moving you to {backend.name}..."]

    def dropped(self, conn: Any, why: str, kicked: bool) -> bool:
        c: Connection = conn
        if c.switch is not None:
            switch = c.switch
            assert isinstance(switch, Switch)
            switch.old_gone = True  # the move goes on; the old backend is gone either way
            return True
        if kicked and not is_shutdown(why):
            return False  # a ban, a full server: the player sees it as the backend meant it
        leaving = c.backend.name if c.backend is not None else ""
        target = self._next(c, frozenset({leaving}))
        if target is None or self._cannot_move(c) is not None:
            return False
        said = "shut down" if kicked else "lost the connection"
        self.log.info("{server} {said} for {player} ({why}); moving them to {target}", server=leaving, said=said,
                      player=c.player_name, why=why, target=target.name)
        c.say(f"{leaving} {said} ({_short(why)}); moving you to {target.name}.")
        self.failovers += 1
        self._start(c, target, old_gone=True, tried=frozenset({leaving}))
        return True

    def login_failed_over(self, conn: Any) -> None:
        """A login went on to the next server of the landing list (the failover's own log line says why)."""
        self.failovers += 1
        self.login_failovers += 1

    def transferred(self, conn: Any, host: str, port: int) -> bool:
        c: Connection = conn
        mode = self.network.transfers
        if mode == "pass" or c.states.client is not State.PLAY:
            return False
        backend = self.network.by_address(host, port)
        if backend is None:
            if mode == "refuse":
                self.log.info("refused a transfer of {player} to {host}:{port}", player=c.player_name, host=host,
                              port=port)
                c.say(f"The server tried to send you to {host}:{port}; this proxy keeps you on its network.")
                return True
            return False
        refusal = self._cannot_move(c)
        if refusal is not None:
            c.say(f"The server sent you to {backend.name}, but: {refusal}")
            return True
        self.log.info("kept the transfer of {player} to {target} inside the proxy", player=c.player_name,
                      target=backend.name)
        self._start(c, backend, old_gone=False)
        return True

    # -- moves ----------------------------------------------------------------------------
    def _cannot_move(self, c: "Connection") -> str | None:
        if isinstance(c.switch, Switch):
            return f"Already moving you to {c.switch.backend.name}."
        if c.states.client is not State.PLAY or c.codec is None or c.session is None:
            return "Wait until you are in the game."
        return None

    def _start(self, c: "Connection", backend: Backend, old_gone: bool, tried: frozenset[str] = frozenset()) -> None:
        Switch(c, backend, self._done, self._failed, old_gone=old_gone, tried=tried).begin()

    def _next(self, c: "Connection", tried: frozenset[str]) -> Backend | None:
        player = c.player_name or "?"
        admin = c.session.admin if c.session is not None else False
        host = c.handshake.host if c.handshake is not None else ""
        for backend in self.network.landing(host):
            if backend.name not in tried and self.network.may_use(backend, player, admin):
                return backend
        return None

    def _done(self, switch: Switch) -> None:
        self.switches += 1
        c = switch.conn
        self.log.info("moved {player} to {target}", player=c.player_name, target=switch.backend.name)
        c.say(f"You are on {switch.backend.name} now.")

    def _failed(self, switch: Switch, why: str, kicked: bool) -> None:
        c = switch.conn
        name = switch.backend.name
        self.log.info("could not move {player} to {target}: {why}", player=c.player_name, target=name, why=why)
        if c.states.closed:
            return
        if not switch.old_gone:
            c.say(f"Could not move you to {name}: {why}")
            return
        target = self._next(c, switch.tried)
        if target is not None:
            c.say(f"{name} did not take you ({_short(why)}); trying {target.name}.")
            self._start(c, target, old_gone=True, tried=switch.tried)
            return
        if kicked:
            c.disconnect(f"{name}: {why}", "kicked_by_server")
        else:
            c.disconnect(f"No server of the network could take you ({name}: {_short(why)}).", "upstream_lost")


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 120 else text[:117] + "..."
