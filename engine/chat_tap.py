"""Classify a chat line the player typed: proxy command, assistant request, or neither.

Only the exact prefixes count; anything else is ordinary chat and must reach the
server byte-identical (invariant 1), so this function errs toward PASS.
"""
from __future__ import annotations

import enum

import attrs


class ChatKind(enum.Enum):
    COMMAND = "command"
    ASSISTANT = "assistant"
    PASS = "pass"


@attrs.frozen
class TappedChat:
    kind: ChatKind
    body: str  # command line without the prefix, or the request text


# Slash commands the proxy registers in the client's command tree. Clients send
# them unsigned (a greedy string argument), so on 1.19+ they are the signed-chat-safe
# way to talk to the proxy; older clients send them as chat starting with "/".
ASSISTANT_COMMAND = "ai"
AGENT_COMMAND = "agent"
# In front of several servers the proxy also takes /server (as Velocity and BungeeCord do); in
# front of one it leaves /server to the server behind it.
SERVER_COMMAND = "server"


def classify(text: str, command_prefix: str = "!", address_prefix: str = "@ai ",
             server_command: bool = False) -> TappedChat:
    if text.startswith("/"):
        return classify_command(text[1:], server_command)
    if command_prefix and text.startswith(command_prefix) and len(text) > len(command_prefix):
        body = text[len(command_prefix):]
        if body[:1].isalpha() or body[:1] == "?":
            return TappedChat(ChatKind.COMMAND, body.strip())
    if address_prefix and text.lower().startswith(address_prefix.lower()):
        body = text[len(address_prefix):].strip()
        return TappedChat(ChatKind.ASSISTANT, body)
    return TappedChat(ChatKind.PASS, text)


def may_be_addressed(text: str, command_prefix: str = "!", address_prefix: str = "@ai ") -> bool:
    """A cheap superset of ``classify(...) is not PASS``, for the proxy's chat fast path.

    Everything it rejects, ``classify`` would pass on unchanged, so skipping the
    full decode for those lines loses nothing.
    """
    return (
        text.startswith("/")
        or (bool(command_prefix) and text.startswith(command_prefix))
        or (bool(address_prefix) and text[: len(address_prefix)].lower() == address_prefix.lower())
    )


def classify_command(command: str, server_command: bool = False) -> TappedChat:
    """A slash command (without the slash): ours, or the server's (PASS). ``server_command``:
    the proxy fronts several servers and ``/server`` is its own."""
    name, _, rest = command.partition(" ")
    name = name.lower()
    if server_command and name == SERVER_COMMAND:
        return TappedChat(ChatKind.COMMAND, f"{SERVER_COMMAND} {rest.strip()}".strip())
    if name == ASSISTANT_COMMAND:
        return TappedChat(ChatKind.ASSISTANT, rest.strip())
    if name == AGENT_COMMAND:
        return TappedChat(ChatKind.COMMAND, rest.strip() or "help")
    return TappedChat(ChatKind.PASS, command)
