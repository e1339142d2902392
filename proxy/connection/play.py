"""Configuration and play for one connection: the fast path and the taps, without I/O.

How this works: in play, a frame whose packet id nobody subscribed to is written to
the other leg as the bytes it came as (re-framed only if the legs' compression
thresholds differ); from the server, whole runs of such frames go out in one write
(``server_batch``), and everything one server read sends the client is one write. A subscribed frame is decoded by the ``VersionCodec`` into engine
events for the ``Session``, whose actions the connection's ``Actuator`` performs. Only
chat from the client can be swallowed, and only when the session does not ask to
forward it; while the agent drives, the client's own movement is held back. Block world
packets go to ``ChunkDecoder``, window packets to the ``WindowSequencer``. The few
state-changing packets seen here are reported to ``proxy.protocol.states``.

Block world packets are forwarded at once but decoded into the world model in slices:
at most ``WORLD_BYTES_PER_TURN`` of them per server read, the rest in the next reactor
turns, in order (``_world``). A login brings a whole view of chunks in a few reads (25
columns at view distance 2, 441 at 10), ~1-2 ms each to decode: decoded in one turn, they
held every other player's packets. A dimension change first decodes what is queued (the
columns belong to the old dimension's layout), and beyond ``WORLD_QUEUE_BYTES`` queued
the decoding catches up inline, so the queue stays bounded.
"""
from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any


from engine import events as ev
from engine.actions import Action, ForwardChat
from engine.session import Session
from proxy.codec import translators
from proxy.codec.leftovers import Leftovers
from proxy.codec.entity_moves import EntityMoveReader
from proxy.codec.movement import MovementReader
from proxy.codec.server_links import ServerLinks
from proxy.config import LINK_KINDS
from proxy.codec.chunks import BlockChanges, ChunkColumn, ChunkDecoder, ChunkUnload, LazyColumn
from proxy.connection.actuator import OWN_TELEPORT_IDS
from proxy.connection.client_ping import ClientPing
from proxy.codec.versioned import VersionCodec
from proxy.protocol.errors import PeerError
from proxy.protocol.framing import Frame, Framing
from proxy.protocol.states import CLIENT, SERVER, State
from proxy.protocol.tables import TO_CLIENT, TO_SERVER
from proxy.protocol.wire import read_string, read_varint
from proxy.codec.subscriptions import (CLIENT_MOVEMENT, ENTITY_MOVES, MAX_SIZE_TO_SERVER, MAX_SIZE_TO_SERVER_DEFAULT,
                                      REWRITTEN, SWALLOWABLE, WINDOW_TO_CLIENT, WORLD_TO_CLIENT)
from proxy.connection.signed_chat_relay import CLIENT_PACKETS as SIGNED_CHAT_PACKETS, Handled, SignedChatRelay
from proxy.codec.window_packets import window_update

if TYPE_CHECKING:
    from proxy.connection.seams import Delayed, PlayView

WORLD_BYTES_PER_TURN = 8 * 1024
WORLD_QUEUE_BYTES = 4 * 1024 * 1024


class PlayRelay:
    def __init__(self, conn: PlayView, codec: VersionCodec, session: Session, chunks: ChunkDecoder | None,
                 signed: SignedChatRelay | None = None, players_only: bool = False) -> None:
        self.conn = conn
        # No feature reads other entities than players (subscriptions.players_only): other
        # entities are not kept, and their movements are forwarded without being decoded.
        self.players_only = players_only
        self.signed = signed  # 1.19.3+ through the player's account: keeps their signed chat valid
        self.codec = codec
        self.session = session
        self.chunks = chunks
        self.ids = conn.ids
        # The fast path's table (Framing.drain): with players only, a mob's movement joins
        # the runs forwarded unseen; the scanner peeks its entity id against the world's.
        self._scan_table = _players_only_table(codec, conn.ids.interesting) if players_only else conn.ids.interesting
        # Before 1.20.2, in front of several servers: what the backend puts on the screen that a
        # switch must take off (proxy.codec.leftovers); its packets leave the fast path's runs.
        self.leftovers = Leftovers(codec) if conn.network.several and not codec.table.has_configuration else None
        if self.leftovers is not None:
            self._scan_table = _marked(self._scan_table, self.leftovers.ids)
        # 1.21+: the configured server links, added to the backend's (proxy.codec.server_links).
        self.links = ServerLinks.for_codec(codec, conn.config.server_links, LINK_KINDS)
        if self.links is not None and self.links.play_id is not None:
            self._scan_table = _marked(self._scan_table, frozenset({self.links.play_id}))
        self._c2s = codec.subscribed[TO_SERVER]
        self.movement = MovementReader(codec)
        self.entity_moves = EntityMoveReader(codec)
        self._s2c = codec.subscribed[TO_CLIENT]
        self._dimension: str | None = None
        self._world: deque[tuple[str, bytes]] = deque()  # world packets not decoded yet, in order
        self._world_bytes = 0
        self._world_budget = WORLD_BYTES_PER_TURN
        self._world_later: Delayed | None = None
        self.client_ping = ClientPing()  # the client's own round trip, from the keep-alives relayed

    # -- from the client -------------------------------------------------------------
    def client_frame(self, frame: Frame) -> None:
        conn = self.conn
        pid = frame.packet_id
        name = self._c2s.get(pid)
        if name is None:
            if pid == self.ids.configuration_acknowledged:
                conn.to_server_frame(frame)
                conn.states.sent(CLIENT, "configuration_acknowledged")
                return
            if pid == self.ids.keep_alive_reply:
                self.client_ping.answered(_payload(frame), conn.clock.seconds())
            conn.fast_frames += 1
            conn.to_server_frame(frame)
            return
        if name in CLIENT_MOVEMENT:
            self._client_movement(name, frame)
            return
        signed = self.signed
        if signed is not None and name in SIGNED_CHAT_PACKETS:
            conn.decoded_frames += 1
            _check_size(name, frame)
            self._send(signed.client_other(name, self.codec.decode(State.PLAY, TO_SERVER, name, frame.packet)),
                       frame)
            return
        if name in SWALLOWABLE and not frame.compressed and not self._maybe_for_us(name, frame):
            if signed is None:
                conn.fast_frames += 1  # ordinary chat: forwarded as it came, without decoding
                conn.to_server_frame(frame)
                return
            conn.decoded_frames += 1  # ordinary signed chat: its acknowledgements are read
            _check_size(name, frame)
            self._send(self._signed_forward(signed, name, self.codec.decode(State.PLAY, TO_SERVER, name,
                                                                            frame.packet)), frame)
            return
        conn.decoded_frames += 1
        _check_size(name, frame)
        fields = self.codec.decode(State.PLAY, TO_SERVER, name, frame.packet)
        if name == "teleport_confirm" and int(fields.get("teleportId", -1)) in OWN_TELEPORT_IDS:
            conn.actuator.confirmed(int(fields["teleportId"]))
            return  # the client confirmed one of our sync positions: the server never sent it
        actions: list[Action] = []
        now = conn.clock.seconds()
        for event in translators.events(self.codec, TO_SERVER, name, fields):
            actions.extend(self.session.handle(event, now))
        forward = name not in SWALLOWABLE or any(isinstance(a, ForwardChat) for a in actions)
        if forward and signed is not None and name in SWALLOWABLE:
            self._send(self._signed_forward(signed, name, fields), frame)
        elif forward:
            conn.to_server_frame(frame)
        else:
            conn.swallowed += 1
            ack = self.codec.acknowledgement(name, fields)
            if ack is not None:
                conn.to_server_packet(ack)
            if signed is not None:
                self._send(signed.kept(name, fields), frame)
        conn.perform(actions)

    def _client_movement(self, name: str, frame: Frame) -> None:
        """The client's own movement (about one packet a tick): read by ``MovementReader``, or
        by the layout decoder for what it was not compiled for."""
        conn = self.conn
        conn.decoded_frames += 1
        _check_size(name, frame)
        packet = frame.packet
        events = self.movement.events(name, packet)
        if events is None:
            events = translators.events(self.codec, TO_SERVER, name,
                                        self.codec.decode(State.PLAY, TO_SERVER, name, packet))
        now = conn.clock.seconds()
        if conn.actuator.holds_movement(now):
            conn.held_movement += 1  # the agent drives: the client's own movement is held back
            return
        actions: list[Action] = []
        for event in events:
            actions.extend(self.session.handle(event, now))
        conn.to_server_frame(frame)
        if actions:
            conn.perform(actions)

    @staticmethod
    def _signed_forward(signed: SignedChatRelay, name: str, fields: dict[str, Any]) -> Handled:
        return signed.line(fields) if name == "chat_message" else signed.command(name, fields)

    def _send(self, handled: Handled, frame: Frame) -> None:
        """To the server as the signed-chat relay decided: what goes before, then the frame as
        it came, a rewritten packet, or nothing."""
        conn = self.conn
        for packet in handled.before:
            conn.to_server_packet(packet)
        if handled.warn is not None:
            conn.say(handled.warn)
        if handled.drop:
            return
        if handled.forward is not None:
            conn.to_server_packet(handled.forward)
        else:
            conn.to_server_frame(frame)

    def client_configuration(self, frame: Frame) -> None:
        """1.20.2+: the client's settings (its locale) arrive during configuration."""
        name = self.codec.subscribed_configuration.get(frame.packet_id)
        if name is None:
            return
        _check_size(name, frame)
        fields = self.codec.decode(State.CONFIGURATION, TO_SERVER, name, frame.packet)
        now = self.conn.clock.seconds()
        for event in translators.events(self.codec, TO_SERVER, name, fields):
            self.conn.perform(self.session.handle(event, now))

    def _maybe_for_us(self, name: str, frame: Frame) -> bool:
        """Read only the chat text (the first field in every version) and ask the session
        whether it could be for the proxy; most chat is not, and goes on."""
        _, pos = read_varint(frame.raw, frame.start)
        text, _ = read_string(frame.raw, pos)
        if name in ("chat_command", "chat_command_signed"):  # a slash command, sent without its slash
            text = "/" + text
        # Our prefixes, and also ordinary chat while a confirmation card is visible (a typed "yes").
        return self.session.may_take(text, self.conn.clock.seconds())

    # -- from the server -------------------------------------------------------------
    def server_batch(self, reader: Framing, data: bytes) -> None:
        """The fast path in bulk: a server read's runs of frames nobody subscribed to go out in
        one write each (a read that is one such run, as the bytes it came as)."""
        conn = self.conn
        seal = conn.writer.seal
        before = reader.frames_in
        items = reader.drain_read(data, self._scan_table, self.session.world.entities if self.players_only else None)
        if len(items) == 1 and isinstance(items[0], bytes):  # most reads: one run, one write
            conn.io.write_client(seal(items[0], frames=0))
            surfaced = 0
        else:
            surfaced = self._server_items(items)
        in_runs = reader.frames_in - before - surfaced
        conn.fast_frames += in_runs
        conn.writer.frames_out += in_runs

    def _server_items(self, items: list[Frame | bytes]) -> int:
        """Runs and surfaced frames of one read, in order, what goes to the client joined into one
        write (``Connection.hold_client``); the number of frames surfaced."""
        conn = self.conn
        seal = conn.writer.seal
        surfaced = 0
        conn.hold_client()
        try:
            for item in items:
                if conn.states.closed:
                    break
                if isinstance(item, bytes):
                    conn.write_client(seal(item, frames=0))
                else:
                    surfaced += 1
                    conn.server_frame(item)
        finally:
            conn.release_client()
        return surfaced

    def server_configuration(self, frame: Frame) -> None:
        if self.links is not None and frame.packet_id == self.links.configuration_id:
            self.links.configured(frame.packet)
        if self.chunks is not None and frame.packet_id == self.ids.registry_data:
            # 1.20.2+: dimension heights come from the registries sent here.
            self.flush_world()
            self.chunks.note_registry(self.codec.decode(State.CONFIGURATION, TO_CLIENT, "registry_data",
                                                        frame.packet))

    def server_frame(self, frame: Frame) -> None:
        conn = self.conn
        pid = frame.packet_id
        name = self._s2c.get(pid)
        if self.leftovers is not None:
            self.leftovers.saw(pid, frame.packet)
        if name is None:
            if (pid == self.ids.kick_disconnect or pid == self.ids.transfer) and conn.backend_says(frame):
                return  # the network moves the player (a failover, a transfer kept inside the proxy)
            if self.links is not None and pid == self.links.play_id:
                conn.send_packet(self.links.merged(frame.packet))
                return
            if pid == self.ids.keep_alive:
                self.client_ping.sent(_payload(frame), conn.clock.seconds())
            conn.send_frame(frame)
            conn.fast_frames += 1
            if pid == self.ids.kick_disconnect:
                conn.states.sent(SERVER, "kick_disconnect")
            elif pid == self.ids.start_configuration:
                conn.states.sent(SERVER, "start_configuration")
            return
        if name == "player_chat":  # subscribed only for the signed-chat relay: read, then forwarded
            if self.signed is not None:
                self.signed.server_player_chat(frame.packet)
            conn.send_frame(frame)
            conn.fast_frames += 1
            return
        if name == "entity_metadata" and not self._is_own_entity(frame):
            conn.send_frame(frame)  # another entity's: forward as it came
            conn.fast_frames += 1
            if self._is_sheep(frame):  # its shorn flag: a goal shearing for wool leaves a shorn one alone
                fields = self.codec.decode(State.PLAY, TO_CLIENT, name, frame.packet)
                now = conn.clock.seconds()
                for event in translators.sheep_metadata(self.codec, fields):
                    conn.perform(self.session.handle(event, now))
            return
        if name in ENTITY_MOVES:
            if self.players_only and _entity_id(frame) not in self.session.world.entities:
                conn.send_frame(frame)  # not a player's: nothing reads where it went
                conn.fast_frames += 1
                return
            moved = self.entity_moves.events(name, frame.packet)
            if moved is not None:  # (else the layout decoder below reads it and names its error)
                conn.decoded_frames += 1
                conn.send_frame(frame)
                self._handle(moved)
                return
        conn.decoded_frames += 1
        now = conn.clock.seconds()
        if name in WORLD_TO_CLIENT:
            conn.send_frame(frame)
            self._queue_world(name, frame.packet)
            return
        if name in REWRITTEN:  # rewritten from its bytes, never decoded whole; it carries no events
            # The words after /agent: this player's commands (admin ones only once admin).
            words = self.session.commands.completion(self.session.admin)
            conn.send_packet(self.codec.rewrite(name, frame.packet, words, conn.network.server_names(conn)))
            return
        fields = self.codec.decode(State.PLAY, TO_CLIENT, name, frame.packet)
        hidden = name in WINDOW_TO_CLIENT and self._window_packet(name, fields, now)
        if name in ("login", "respawn") and self.chunks is not None:
            self.flush_world()  # queued columns belong to the old dimension
            dimension = self.chunks.note_dimension(name, fields)
            if name == "respawn" or dimension.name != self._dimension:
                self._dimension = dimension.name
                conn.perform(self.session.handle(ev.DimensionChanged(dimension.name, dimension.min_y,
                                                                     dimension.height), now))
        if not hidden:
            conn.send_frame(frame)
        if pid == self.ids.join_game:
            if self.links is not None:
                conn.send_packet(self.links.after_join())
            conn.actuator.flush_held()
        actions: list[Action] = []
        for event in translators.events(self.codec, TO_CLIENT, name, fields):
            if self.players_only and isinstance(event, ev.EntitySpawned) and event.kind != "player":
                continue
            actions.extend(self.session.handle(event, now))
        conn.perform(actions)

    def _handle(self, events: list[ev.Event]) -> None:
        now = self.conn.clock.seconds()
        actions: list[Action] = []
        for event in events:
            actions.extend(self.session.handle(event, now))
        if actions:
            self.conn.perform(actions)

    # -- the block world, in slices ---------------------------------------------------
    def new_read(self) -> None:
        """A server read begins: it may decode ``WORLD_BYTES_PER_TURN`` of world packets."""
        self._world_budget = WORLD_BYTES_PER_TURN

    def _queue_world(self, name: str, packet: bytes) -> None:
        self._world.append((name, packet))
        self._world_bytes += len(packet)
        self._decode_world(unbounded=self._world_bytes > WORLD_QUEUE_BYTES)
        if self._world and self._world_later is None:
            self._world_later = self.conn.clock.callLater(0, self._next_turn)

    def _next_turn(self) -> None:
        self._world_later = None
        if self.conn.states.closed:
            self.stop()
            return
        self._world_budget = WORLD_BYTES_PER_TURN
        try:
            self._decode_world()
        except Exception as exc:  # noqa: BLE001 - the same handling as a server read's
            self.conn.server_input_failed(exc)
            return
        if self._world and self._world_later is None:
            self._world_later = self.conn.clock.callLater(0, self._next_turn)

    def _decode_world(self, unbounded: bool = False) -> None:
        """Decode queued world packets while this turn's budget lasts (at least one)."""
        conn = self.conn
        while self._world and (unbounded or self._world_budget > 0) and not conn.states.closed:
            name, packet = self._world.popleft()
            self._world_bytes -= len(packet)
            self._world_budget -= len(packet)
            self._world_update(name, packet, conn.clock.seconds())

    def flush_world(self) -> None:
        """Decode everything queued now (before a dimension change)."""
        self._decode_world(unbounded=True)

    def new_world(self, chunks: ChunkDecoder | None) -> None:
        """The player moves to another backend: the old world's queued packets are dropped and
        the block world starts from the new server's packets."""
        self.stop()
        self.chunks = chunks
        self._dimension = None

    def stop(self) -> None:
        """The connection closed: nothing queued is decoded any more."""
        self._world.clear()
        self._world_bytes = 0
        if self._world_later is not None and self._world_later.active():
            self._world_later.cancel()
        self._world_later = None

    def _world_update(self, name: str, packet: bytes, now: float) -> None:
        assert self.chunks is not None
        # Columns come lazily: checked now, decoded when the world model first reads them.
        for update in self.chunks.decode(name, packet, lazy=True):
            event: ev.Event
            if isinstance(update, LazyColumn):
                event = ev.ChunkColumnLoaded(update.cx, update.cz, (), update.full, update)
            elif isinstance(update, ChunkColumn):
                event = ev.ChunkColumnLoaded(update.cx, update.cz, tuple(update.sections), update.full)
            elif isinstance(update, BlockChanges):
                event = ev.BlocksChanged(tuple(update.changes))
            elif isinstance(update, ChunkUnload):
                event = ev.ChunkUnloaded(update.cx, update.cz)
            else:
                continue
            self.conn.perform(self.session.handle(event, now))

    def _is_own_entity(self, frame: Frame) -> bool:
        own = self.session.world.entity_id
        return own is not None and _entity_id(frame) == own

    def _is_sheep(self, frame: Frame) -> bool:
        entity = self.session.world.entities.get(_entity_id(frame))
        return entity is not None and entity.kind.removeprefix("minecraft:") == "sheep"

    def _window_packet(self, name: str, fields: dict[str, Any], now: float) -> bool:
        """Feed a window packet to the sequencer; True when it answers the agent's own window
        work, which the player's client never asked for and must not see (a crafting screen)."""
        windows = self.conn.windows
        if windows is None:
            return False
        update = window_update(name, fields)
        if update is None:
            return False
        ours = windows.owns(update, now)
        for packet in windows.update(update, now):
            self.conn.actuator.item_packets(packet)
        return ours


def _payload(frame: Frame) -> bytes:
    """A packet's fields as bytes, after its id: a keep-alive's id, compared without decoding."""
    packet = frame.packet
    _, pos = read_varint(packet, 0)
    return packet[pos:]


def _players_only_table(codec: VersionCodec, interesting: bytes) -> bytes:
    """``interesting`` with the entity movements marked 2: surfaced only for a kept entity."""
    table = bytearray(interesting)
    for name in ENTITY_MOVES:
        pid = codec.table.packet_id(State.PLAY, TO_CLIENT, name)
        if pid is not None and pid < len(table) and table[pid] == 1:
            table[pid] = 2
    return bytes(table)


def _marked(table: bytes, ids: frozenset[int]) -> bytes:
    """``table`` with ``ids`` marked 1: surfaced by the fast path."""
    marked = bytearray(table)
    for pid in ids:
        if pid < len(marked):
            marked[pid] = 1
    return bytes(marked)


def _entity_id(frame: Frame) -> int:
    """The entity id an entity packet starts with (a VarInt after the packet id on every version)."""
    packet = frame.packet
    _, pos = read_varint(packet, 0)
    return read_varint(packet, pos)[0]


def _check_size(name: str, frame: Frame) -> None:
    limit = MAX_SIZE_TO_SERVER.get(name, MAX_SIZE_TO_SERVER_DEFAULT)
    if frame.size > limit:
        raise PeerError(f"{name} packet of {frame.size} bytes exceeds {limit}")
