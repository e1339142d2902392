"""What a backend put on a client's screen that a second Join Game leaves there, and the packets
that take it off: the clean-up of a switch before 1.20.2 (``proxy.network.switch``).

How this works: from 1.20.2 a switch re-enters the configuration phase and the client drops
everything of the old server itself. Before, the client only gets the new backend's Join Game
and a Respawn, and keeps the old backend's tab list, boss bars, titles, tab header and footer
(and, on clients whose scoreboard outlives a Join Game, its objectives and teams). So, while
the proxy fronts several servers, the play relay shows a ``Leftovers`` the few packets that add
or remove such things (``ids``: their packet ids, surfaced by the fast path), it keeps their
keys, and on a switch ``take_off`` returns the packets that remove them all, sent before the new
Join Game while the old world still holds them (a removal of a team the client no longer has
is an error on 1.8-1.16 clients), as Velocity and BungeeCord do:

* tab list: ``player_info`` adds and removes, decoded with the version's layout; removed with
  ``player_info`` action ``remove_player`` (1.8-1.19.2) or ``player_remove`` (1.19.3+);
* boss bars (1.9+): ``boss_bar``'s UUID and action (0 add, 1 remove), read from its first bytes;
* scoreboard objectives and teams: ``scoreboard_objective`` / ``teams`` (``scoreboard_team`` on
  1.8): their name and mode (0 create, 1 remove), removed with mode 1;
* titles: any title packet; reset with ``title``'s reset action (``TITLE_RESET``) or
  ``clear_titles`` with reset (1.17+);
* tab header and footer: ``playerlist_header``, cleared with empty text.

Every kind is bounded (``LIMITS``): what a backend adds beyond that is not tracked and stays on
the client after a switch, the proxy's memory does not grow with a hostile backend.
"""
from __future__ import annotations

from typing import Any

from proxy.codec.versioned import VersionCodec
from proxy.protocol.errors import PeerError
from proxy.protocol.states import State
from proxy.protocol.tables import TO_CLIENT
from proxy.protocol.wire import pack_string, pack_varint, read_string, read_varint

PLAYERS, BOSS_BARS, OBJECTIVES, TEAMS = "players", "boss bars", "objectives", "teams"
LIMITS: dict[str, int] = {PLAYERS: 4096, BOSS_BARS: 256, OBJECTIVES: 1024, TEAMS: 4096}
# ``title``'s reset action by the first protocol that numbers it so: 1.11 (315) put the action
# bar at 2, moving times, clear and reset up by one (1.8-1.10: 0 title, 1 subtitle, 2 times,
# 3 clear, 4 reset). 1.17 split the packet: ``clear_titles`` then.
TITLE_RESET: tuple[tuple[int, int], ...] = ((315, 5), (0, 4))
TITLE_PACKETS = ("title", "set_title_text", "set_title_subtitle", "set_title_time", "action_bar")
TEAM_PACKETS = ("teams", "scoreboard_team")
CREATE, REMOVE = 0, 1
EMPTY_TEXT = '{"text":""}'


class Leftovers:
    def __init__(self, codec: VersionCodec) -> None:
        self.codec = codec
        table = codec.table
        self._names: dict[int, str] = {}
        for name in ("player_info", "player_remove", "boss_bar", "scoreboard_objective", *TEAM_PACKETS,
                     *TITLE_PACKETS, "playerlist_header"):
            pid = table.packet_id(State.PLAY, TO_CLIENT, name)
            if pid is not None:
                self._names[pid] = name
        self._keys: dict[str, dict[Any, None]] = {kind: {} for kind in LIMITS}  # insertion-ordered sets
        self.title = False
        self.header = False
        self.untracked = 0  # additions beyond LIMITS, left on the client by a switch

    @property
    def ids(self) -> frozenset[int]:
        """The server's play packet ids this tracker must see."""
        return frozenset(self._names)

    def keys(self, kind: str) -> list[Any]:
        return list(self._keys[kind])

    def saw(self, packet_id: int, packet: bytes) -> None:
        """A server packet the client is given; one this cannot read is simply not tracked."""
        name = self._names.get(packet_id)
        if name is None:
            return
        try:
            self._saw(name, packet)
        except (PeerError, KeyError, ValueError, IndexError, TypeError):
            pass  # the client is the judge of a malformed packet; the relay forwards it as it came

    def _saw(self, name: str, packet: bytes) -> None:
        _, pos = read_varint(packet, 0)
        if name == "player_info":
            self._player_info(self.codec.decode(State.PLAY, TO_CLIENT, name, packet))
        elif name == "player_remove":
            for player in self.codec.decode(State.PLAY, TO_CLIENT, name, packet)["players"]:
                self._remove(PLAYERS, str(player))
        elif name == "boss_bar":
            bar = bytes(packet[pos:pos + 16])
            if len(bar) != 16:
                return
            self._mode(BOSS_BARS, bar, read_varint(packet, pos + 16)[0])
        elif name == "scoreboard_objective" or name in TEAM_PACKETS:
            key, pos = read_string(packet, pos, 256)
            self._mode(OBJECTIVES if name == "scoreboard_objective" else TEAMS, key, packet[pos])
        elif name == "playerlist_header":
            self.header = True
        else:
            self.title = True

    def _player_info(self, fields: dict[str, Any]) -> None:
        action = fields.get("action")
        if isinstance(action, dict):  # 1.19.3+: flags; removal is its own packet
            adds = bool(action.get("add_player"))
            removes = False
        else:
            adds, removes = action == "add_player", action == "remove_player"
        for entry in fields.get("data") or ():
            if adds:
                self._add(PLAYERS, str(entry["uuid"]))
            elif removes:
                self._remove(PLAYERS, str(entry["uuid"]))

    def _mode(self, kind: str, key: Any, mode: int) -> None:
        if mode == CREATE:
            self._add(kind, key)
        elif mode == REMOVE:
            self._remove(kind, key)

    def _add(self, kind: str, key: Any) -> None:
        keys = self._keys[kind]
        if key in keys:
            return
        if len(keys) >= LIMITS[kind]:
            self.untracked += 1
            return
        keys[key] = None

    def _remove(self, kind: str, key: Any) -> None:
        self._keys[kind].pop(key, None)

    def take_off(self) -> list[bytes]:
        """The packets that remove everything tracked, in a client's order of use (teams before
        the players in them); the tracker starts empty for the next backend."""
        codec = self.codec
        table = codec.table
        out: list[bytes] = []
        players = self.keys(PLAYERS)
        teams_id = next((pid for pid, n in self._names.items() if n in TEAM_PACKETS), None)
        for team in self.keys(TEAMS):
            if teams_id is not None:
                out.append(pack_varint(teams_id) + pack_string(team) + bytes([REMOVE]))
        objective_id = table.packet_id(State.PLAY, TO_CLIENT, "scoreboard_objective")
        for objective in self.keys(OBJECTIVES):
            if objective_id is not None:
                out.append(pack_varint(objective_id) + pack_string(objective) + bytes([REMOVE]))
        boss_bar_id = table.packet_id(State.PLAY, TO_CLIENT, "boss_bar")
        for bar in self.keys(BOSS_BARS):
            if boss_bar_id is not None:
                out.append(pack_varint(boss_bar_id) + bar + pack_varint(REMOVE))
        if players:
            out.append(self._players_removed(players))
        if self.title:
            out.append(self._title_reset())
        header_id = table.packet_id(State.PLAY, TO_CLIENT, "playerlist_header")
        if self.header and header_id is not None:
            out.append(pack_varint(header_id) + pack_string(EMPTY_TEXT) + pack_string(EMPTY_TEXT))
        self._keys = {kind: {} for kind in LIMITS}
        self.title = self.header = False
        return out

    def _players_removed(self, players: list[str]) -> bytes:
        if self.codec.table.packet_id(State.PLAY, TO_CLIENT, "player_remove") is not None:
            return self.codec.build(State.PLAY, TO_CLIENT, "player_remove", players=players)
        return self.codec.build(State.PLAY, TO_CLIENT, "player_info", action="remove_player",
                                data=[{"uuid": player} for player in players])

    def _title_reset(self) -> bytes:
        table = self.codec.table
        clear = table.packet_id(State.PLAY, TO_CLIENT, "clear_titles")
        if clear is not None:
            return pack_varint(clear) + b"\x01"  # reset: the times too
        title = table.packet_id(State.PLAY, TO_CLIENT, "title")
        assert title is not None, "a version with titles has one of the two packets"
        action = next(reset for first, reset in TITLE_RESET if table.protocol >= first)
        return pack_varint(title) + pack_varint(action)
