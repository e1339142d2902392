"""The engine's actions, executed on one connection.

How this works: ``HANDLERS`` maps each action type of the engine's one vocabulary
(``engine.actions.ACTIONS``: the session's actions and the autopilot's operations) to
the method that turns it into packets for either leg, or into a call to the proxy server
(ping, admin commands). Model calls are not actions: the Session runs them through the
model runner it was given (``proxy.agent.model_service``). ``perform`` looks every action up
by its exact type and raises ``UnknownAction`` for one without an entry, so a new action
cannot be dropped silently; ``tests/proxy/test_actuator.py`` checks that the table and
the simulator's (``engine/sim/world.py``) both cover ``ACTIONS``. Adding an action is
its class in ``engine/actions.py``, one entry here plus its handler, and one in the
simulator.

Packets of the agent's own (movement, digging, item use) go out only while both legs
are in play; replies shown while the client reconfigures wait for its next Join Game.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable


from engine import actions as acts
from engine.actions import (AdminCommand, ForwardChat, InjectMovement, Kick, MeasurePing, ReleaseHeldItem,
                            ReplyToPlayer, SelectHotbar, SetControl, SwitchServer, UseHeldItem, reply)
from proxy.codec.chat import reply_components
from proxy.protocol.states import State
from proxy.protocol.tables import TO_CLIENT, TO_SERVER

if TYPE_CHECKING:
    from proxy.connection.seams import ActuatorView

HELD_LIMIT = 64  # replies held while the client reconfigures
# The proxy's own teleport ids, far from servers' counters (vanilla counts up from
# 1 per player; flying-squid always sends 1), so a confirmation tells whose it is.
OWN_TELEPORT_IDS = range(0x4D430000, 0x4D440000)
# How long the client's movement stays held at a hand-back when the client never confirms the
# last sync (a client that ignores position packets must not be frozen for good).
HAND_BACK_WAIT = 2.0


class UnknownAction(TypeError):
    """An action type without a handler: a bug of ours, never silently ignored."""


class Actuator:
    def __init__(self, conn: ActuatorView) -> None:
        self.conn = conn
        self.held_for_play: list[bytes] = []
        self._next_teleport = OWN_TELEPORT_IDS.start
        self._sequence = 0  # 1.19+: block action sequence numbers of the agent's digs and placements
        self._sprinting = False  # what the server was last told of the agent's sprinting
        self._release_on: int | None = None  # the hand-back's sync: movement is held until it is confirmed
        self._release_by = 0.0

    def perform(self, actions: Iterable[object]) -> None:
        for action in actions:
            handler = HANDLERS.get(type(action))
            if handler is None:
                raise UnknownAction(f"no handler for {type(action).__name__} in proxy.connection.actuator.HANDLERS")
            handler(self, action)

    # -- chat and the proxy ------------------------------------------------------------
    def show(self, action: ReplyToPlayer) -> None:
        conn = self.conn
        codec = conn.codec
        if codec is None or conn.states.closed or conn.session is None:
            return
        packets = [codec.chat_to_client(c) for c in reply_components(action, codec.text_style)]
        if conn.states.playing:
            for packet in packets:
                conn.send_packet(packet)
        else:
            # The client is (re)configuring: a play packet now would be invalid there.
            # Hold the reply until the server's next Join Game puts the client in play.
            self.held_for_play.extend(packets)
            del self.held_for_play[:-HELD_LIMIT]

    def flush_held(self) -> None:
        held, self.held_for_play = self.held_for_play, []
        for packet in held:
            self.conn.send_packet(packet)

    def _forward_chat(self, action: ForwardChat) -> None:
        pass  # decided where the chat frame is read (proxy.connection.play): only it holds the bytes

    def _measure_ping(self, action: MeasurePing) -> None:
        self.conn.measure_ping()

    def _switch_server(self, action: SwitchServer) -> None:
        self.conn.switch_server(action.name)

    def _kick(self, action: Kick) -> None:
        self.conn.disconnect(action.reason, "kicked_by_proxy")

    def _admin(self, action: AdminCommand) -> None:
        self.show(reply(*self.conn.admin_command(action.line)))

    # -- the player's body -----------------------------------------------------------
    def _set_control(self, action: SetControl) -> None:
        self._release_on = None
        if action.driving:
            self.conn.driving = True
            return
        self._sprint(False)  # the player's own keys say again whether they sprint
        if self.conn.driving:
            self.conn.driving = False
            self._hand_back()

    def _hand_back(self) -> None:
        """Give the client its movement back from where the agent left the player.

        The client's own idea of its position can lag the syncs sent while driving (packets in
        flight, a sync it applied late), and its first movement packet after the release would
        move the player there. So the release sends one more sync, at the position the server
        has, and keeps holding the client's movement until the client confirms that teleport
        id: everything it sends after the confirmation starts from the right place. Versions
        without teleport confirmations (1.8) are released at once.
        """
        conn = self.conn
        codec, world = conn.codec, conn.session.world if conn.session is not None else None
        if (codec is None or world is None or world.position is None or not conn.upstream_open
                or not conn.states.playing or codec.table.packet_id("play", TO_SERVER, "teleport_confirm") is None):
            return
        teleport_id = self._teleport_id()
        at = world.position
        conn.send_packet(codec.move_client(at.x, at.y, at.z, world.yaw, world.pitch, teleport_id))
        self._release_on = teleport_id
        self._release_by = conn.clock.seconds() + HAND_BACK_WAIT

    def confirmed(self, teleport_id: int) -> None:
        """The client confirmed one of our syncs; the hand-back's ends the hold."""
        if teleport_id == self._release_on:
            self._release_on = None

    def holds_movement(self, now: float) -> bool:
        """Whether the client's movement is held back: the agent drives, or a hand-back
        waits for the client's confirmation (at most HAND_BACK_WAIT seconds)."""
        if self.conn.driving:
            return True
        if self._release_on is not None and now >= self._release_by:
            self._release_on = None
        return self._release_on is not None

    def _teleport_id(self) -> int:
        teleport_id = self._next_teleport
        self._next_teleport = teleport_id + 1 if teleport_id + 1 < OWN_TELEPORT_IDS.stop else OWN_TELEPORT_IDS.start
        return teleport_id

    def _inject(self, move: InjectMovement) -> None:
        conn = self.conn
        codec = conn.codec
        if codec is None or not conn.upstream_open or not conn.states.playing:
            return
        self._sprint(move.sprinting)  # a sprint-speed step goes with the sprint flag, as from a client
        conn.to_server_packet(codec.move_to_server(move.x, move.y, move.z, move.yaw, move.pitch, move.on_ground))
        conn.send_packet(codec.move_client(move.x, move.y, move.z, move.yaw, move.pitch, self._teleport_id()))

    def _sprint(self, on: bool) -> None:
        conn = self.conn
        own = conn.session.world.entity_id if conn.session is not None else None
        if on == self._sprinting or conn.codec is None or own is None:
            return
        self._sprinting = on
        self.item_packets(conn.codec.sprint(own, on))

    def _select(self, action: SelectHotbar) -> None:
        if self.conn.codec is not None:
            self.item_packets(*self.conn.codec.select_slot(action.slot))

    def _use(self, action: UseHeldItem) -> None:
        if self.conn.codec is not None:
            self.item_packets(self.conn.codec.use_item())

    def _release(self, action: ReleaseHeldItem) -> None:
        if self.conn.codec is not None:
            self.item_packets(self.conn.codec.release_item())

    def item_packets(self, to_server: bytes | None = None, to_client: bytes | None = None) -> None:
        conn = self.conn
        if not conn.upstream_open or not conn.states.playing:
            return
        if to_server is not None:
            conn.to_server_packet(to_server)
        if to_client is not None:
            conn.send_packet(to_client)

    # -- the autopilot's hands: digging, placing, attacking, respawning, window work ---
    def _next_sequence(self) -> int:
        self._sequence += 1
        return self._sequence

    def _start_dig(self, op: acts.StartDigging) -> None:
        if (codec := self.conn.codec) is not None:
            self.item_packets(codec.dig(0, op.x, op.y, op.z, op.face, self._next_sequence()))
            self.item_packets(codec.swing())

    def _finish_dig(self, op: acts.FinishDigging) -> None:
        if (codec := self.conn.codec) is not None:
            self.item_packets(codec.dig(2, op.x, op.y, op.z, op.face, self._next_sequence()),
                              # What a digging client shows at once; the server corrects it if it refuses.
                              codec.build(State.PLAY, TO_CLIENT, "block_change",
                                          location={"x": op.x, "y": op.y, "z": op.z}, type=0))

    def _swing(self, op: acts.SwingArm) -> None:
        if (codec := self.conn.codec) is not None:
            self.item_packets(codec.swing())

    def _place(self, op: acts.PlaceBlock) -> None:
        if (codec := self.conn.codec) is not None:
            ax, ay, az = op.against
            self.item_packets(codec.use_item_on(ax, ay, az, op.face, self._next_sequence()))
            self.item_packets(codec.swing())

    def _use_block(self, op: acts.UseBlock) -> None:
        # Lie down in a bed: the same use_item_on as a placement, on the block itself.
        if (codec := self.conn.codec) is not None:
            self.item_packets(codec.use_item_on(op.x, op.y, op.z, op.face, self._next_sequence()))
            self.item_packets(codec.swing())

    def _attack(self, op: acts.AttackEntity) -> None:
        if (codec := self.conn.codec) is not None:
            self.item_packets(codec.attack(op.entity_id))
            self.item_packets(codec.swing())

    def _interact(self, op: acts.InteractEntity) -> None:
        if (codec := self.conn.codec) is not None:
            self.item_packets(codec.interact_entity(op.entity_id, off_hand=op.off_hand))
            self.item_packets(codec.swing())

    def _respawn(self, op: acts.Respawn) -> None:
        if (codec := self.conn.codec) is not None:
            self.item_packets(codec.respawn())

    def _window_op(self, op: acts.SwapToHotbar | acts.CraftItem | acts.SmeltStart | acts.SmeltCollect) -> None:
        """Hotbar swaps, crafting and smelting: window clicks over several ticks."""
        windows = self.conn.windows
        if self.conn.codec is None or windows is None:
            return
        for packet in windows.start(op, self.conn.clock.seconds()):
            self.item_packets(packet)


HANDLERS: dict[type, Callable[[Actuator, Any], None]] = {
    ReplyToPlayer: Actuator.show,
    ForwardChat: Actuator._forward_chat,
    MeasurePing: Actuator._measure_ping,
    SwitchServer: Actuator._switch_server,
    Kick: Actuator._kick,
    AdminCommand: Actuator._admin,
    SetControl: Actuator._set_control,
    InjectMovement: Actuator._inject,
    SelectHotbar: Actuator._select,
    UseHeldItem: Actuator._use,
    ReleaseHeldItem: Actuator._release,
    acts.StartDigging: Actuator._start_dig,
    acts.FinishDigging: Actuator._finish_dig,
    acts.SwingArm: Actuator._swing,
    acts.PlaceBlock: Actuator._place,
    acts.UseBlock: Actuator._use_block,
    acts.AttackEntity: Actuator._attack,
    acts.InteractEntity: Actuator._interact,
    acts.Respawn: Actuator._respawn,
    acts.SwapToHotbar: Actuator._window_op,
    acts.CraftItem: Actuator._window_op,
    acts.SmeltStart: Actuator._window_op,
    acts.SmeltCollect: Actuator._window_op,
}
