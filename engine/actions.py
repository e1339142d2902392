"""Actions an engine Session asks the proxy to perform.

The proxy's version codec turns each into packets for the connection's protocol
version. Actions carry no bytes; ``ForwardChat`` means "send the original packet
on, byte-identical", which only the proxy can do because only it holds the bytes.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

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
class Kick:
    reason: str


@attrs.frozen
class AdminCommand:
    """``!system <line>``: an admin console command typed in game; the proxy checks
    the player is an admin before running it, and says "not permitted" otherwise."""

    line: str


@attrs.frozen
class AskModel:
    """Run one model call off the tick path and hand the reply back to the player's assistant.

    The proxy runs ``call`` with the model client on its event loop; when it
    ends it calls ``AssistantRuntime.model_finished(call, reply, now)`` (always)
    and then ``LocalAssistant.model_answered(call, reply, snapshot, now)`` if
    that player is still connected, and performs the actions returned.
    """

    call: "ModelCall"


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


Action = (ReplyToPlayer | ForwardChat | MeasurePing | Kick | AdminCommand | SetControl | InjectMovement
          | SelectHotbar | UseHeldItem | ReleaseHeldItem | AskModel)


def reply(*lines: str) -> ReplyToPlayer:
    return ReplyToPlayer(tuple(lines))
