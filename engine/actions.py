"""Actions an engine Session asks the proxy to perform.

The proxy's version codec turns each into packets for the connection's protocol
version. Actions carry no bytes; ``ForwardChat`` means "send the original packet
on, byte-identical", which only the proxy can do because only it holds the bytes.
"""
from __future__ import annotations

import attrs


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


Action = ReplyToPlayer | ForwardChat | MeasurePing | Kick | AdminCommand


def reply(*lines: str) -> ReplyToPlayer:
    return ReplyToPlayer(tuple(lines))
