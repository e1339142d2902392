"""The one action vocabulary: everything the engine asks to be done to the world.

A Session's reflexes, commands, assistant and autopilot all emit these values,
and two executors carry them out: the proxy (``proxy``: each type has an entry in
its action table, encoded into packets for the connection's protocol version)
and the headless simulator (``engine/sim/world.py``, as a server would). Both
raise on a type without an entry, and one test checks both cover ``ACTIONS``.
Adding an action is a class here plus one handler in each executor.

Actions carry no bytes; ``ForwardChat`` means "send the original packet on,
byte-identical", which only the proxy can do because only it holds the bytes.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.world.snapshot import Vec3

if TYPE_CHECKING:
    from engine.llm.calls import ModelCall


@attrs.frozen
class ChatButton:
    """A clickable piece of a reply: ``label`` shown, ``command`` sent when clicked."""

    label: str
    command: str
    hover: str = ""


@attrs.frozen
class ReplyToPlayer:
    """Show the player a proxy message (marked ``[mcagent]`` by the renderer).

    ``lines`` are plain text; the renderer escapes nothing because it builds
    components, never parses formatting codes out of the text.
    """

    lines: tuple[str, ...]
    buttons: tuple[ChatButton, ...] = ()


@attrs.frozen
class ForwardChat:
    """Send the player's original chat packet to the server unchanged."""


@attrs.frozen
class MeasurePing:
    """Measure the round trip to the upstream server and report it to the player."""


@attrs.frozen
class SwitchServer:
    """``!server [name]`` / ``/server [name]``: list the servers behind the proxy, or move there
    (the proxy checks the player may)."""

    name: str | None = None


@attrs.frozen
class Kick:
    reason: str


@attrs.frozen
class AdminCommand:
    """``!system <line>``: an admin console command typed in game; the proxy checks
    the player is an admin before running it, and says "not permitted" otherwise."""

    line: str


@attrs.frozen
class SetControl:
    """The agent takes (True) or gives back (False) the player's movement.

    While the agent drives, the client's own movement packets are held back and
    the client is kept in sync with position packets whose confirmations the
    proxy consumes; when control is released the client resumes from where the
    agent left it, because that is where its own position already is.
    """

    driving: bool


@attrs.frozen
class InjectMovement:
    """One movement packet to the server, mirrored to the client as a position.

    The engine guarantees vanilla legality (speed, airtime, onGround); the proxy
    only encodes it for the connection's version.
    """

    x: float
    y: float
    z: float
    yaw: float
    pitch: float
    on_ground: bool
    sprinting: bool = False  # the proxy sends start/stop sprinting when this changes

    @property
    def position(self) -> Vec3:
        return Vec3(self.x, self.y, self.z)


@attrs.frozen
class SelectHotbar:
    """Hold hotbar slot 0..8: the server is told, and the client shown, the same slot."""

    slot: int


@attrs.frozen
class UseHeldItem:
    """Start using the held item (eating); the server finishes it after the item's time."""


@attrs.frozen
class ReleaseHeldItem:
    """Stop using the held item."""


# -- the autopilot's hands: dig, place, craft, smelt, attack, respawn -------------------------
@attrs.frozen
class StartDigging:
    """player_digging status 0 (start) at a block, on ``face`` (0 down .. 5 east), with an arm swing."""

    x: int
    y: int
    z: int
    face: int = 1


@attrs.frozen
class FinishDigging:
    """player_digging status 2 (finish) at the same block: sent after the dig time elapsed."""

    x: int
    y: int
    z: int
    face: int = 1


@attrs.frozen
class SwingArm:
    """arm_animation (main hand): vanilla clients swing every tick while digging."""


@attrs.frozen
class PlaceBlock:
    """Use the held block item on a face of the block ``against``: block_place / use_item_on."""

    x: int              # where the block will be
    y: int
    z: int
    against: tuple[int, int, int]
    face: int           # face of ``against`` that is clicked (1: top)
    item: str


@attrs.frozen
class UseBlock:
    """Use (right-click) a block with the hand: lie down in a bed. use_item_on, as PlaceBlock is."""

    x: int
    y: int
    z: int
    face: int = 1           # the face clicked (1: top)


@attrs.frozen
class SwapToHotbar:
    """window_click mode 2 (number key) in window 0: swap inventory ``slot`` with hotbar ``hotbar``."""

    slot: int
    hotbar: int


@attrs.frozen
class CraftItem:
    """Craft ``times`` × ``item``: open the crafting table at ``table`` (use_item_on) if given,
    else the 2×2 inventory grid; place the ingredients with ordinary clicks in the recipe's
    shape; shift-click the result slot; close the window (``proxy.windows.sequencer``)."""

    item: str
    times: int
    table: tuple[int, int, int] | None


@attrs.frozen
class SmeltStart:
    """Open the furnace at ``furnace`` (use_item_on), click ``count`` × ``item`` into the input
    slot and ``fuel_count`` × ``fuel`` into the fuel slot, close."""

    furnace: tuple[int, int, int]
    item: str
    count: int
    fuel: str
    fuel_count: int


@attrs.frozen
class SmeltCollect:
    """Open the furnace at ``furnace`` and shift-click its output slot, close."""

    furnace: tuple[int, int, int]


@attrs.frozen
class AttackEntity:
    """use_entity (attack) on an entity, with an arm swing."""

    entity_id: int


@attrs.frozen
class InteractEntity:
    """use_entity (interact) on an entity with the held item: shears on a sheep. From 26.1 the
    packet also says where the entity was clicked; the proxy sends a point mid-body."""

    entity_id: int
    off_hand: bool = False


@attrs.frozen
class Respawn:
    """client_command 0 (perform respawn) after death."""



ItemAction = SelectHotbar | SwapToHotbar | UseHeldItem | ReleaseHeldItem   # what a meal or a reflex does with the hand
Action = (ReplyToPlayer | ForwardChat | MeasurePing | SwitchServer | Kick | AdminCommand | SetControl | InjectMovement
          | SelectHotbar | UseHeldItem | ReleaseHeldItem | StartDigging | FinishDigging | SwingArm | PlaceBlock
          | UseBlock | SwapToHotbar | CraftItem | SmeltStart | SmeltCollect | AttackEntity | InteractEntity
          | Respawn)
ACTIONS: tuple[type, ...] = Action.__args__


# -- requests that stay in the engine -------------------------------------------------------
@attrs.frozen
class AskModel:
    """The assistant asks its Session to run one model call (``engine.llm.runner``).

    Not an action: the Session hands ``call`` to the model runner it was given,
    gets the reply on a later tick and passes it to
    ``LocalAssistant.model_answered``; no executor ever sees it.
    """

    call: "ModelCall"


@attrs.frozen
class RunLine:
    """The assistant asks its Session to run a command line the player trusted (a card or a
    notification button they clicked, an option number they typed), through the command table."""

    line: str


# What the assistant hands its Session: actions, and requests the Session carries out itself.
Output = Action | RunLine | AskModel


def reply(*lines: str) -> ReplyToPlayer:
    return ReplyToPlayer(tuple(lines))
