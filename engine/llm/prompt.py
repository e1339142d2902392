"""The chat-completions messages for a routing call and for a chat call.

Trust boundary: the system messages are ours (instructions, and
``requestContext`` as JSON with the player's language from the client
settings, never from the text); the player's words go alone in the last user
message. Nothing the model says is ever fed back into a prompt as
instructions: earlier model answers only appear as ``assistant`` turns of the
conversation in extended and free modes.
"""
from __future__ import annotations

import json
from collections.abc import Sequence

from engine.llm.calls import CallPurpose, ChatMessage, ModelCall, ToolSpec
from engine.llm.modes import ConversationMode
from engine.routing.model_hook import ModelRoutingRequest, RoutingTicket

LANGUAGE_NAMES = {"en": "English", "zh": "Simplified Chinese"}

ROUTE_SYSTEM = (
    "You route requests for an assistant that lives inside a Minecraft proxy. The player typed the last user "
    "message. If one of the tools answers it, call exactly one tool with arguments taken from the player's own "
    "words; never invent arguments. Read-only tools answer from live game state. Tools that change the game are "
    "only proposed to the player, who must confirm them. A tool marked explicitOnly: true may be chosen only when "
    "the player clearly asked for exactly that. If no tool fits, do not call any tool and answer in plain text. "
    "Write plain text only: no Markdown, no links, no commands for the player to run. "
    "Answer in the language named by requestContext.playerLanguage."
)
STANDARD_TEXT = "When you answer in text, use at most two short sentences."
EXTENDED_TEXT = "When no tool fits, chat with the player helpfully and briefly (at most five sentences)."
CHAT_SYSTEM = (
    "You are a friendly assistant for a Minecraft player, inside a proxy between the player and the server. "
    "You cannot see or change the game from this conversation; for live state the player can type !help. "
    "Answer briefly (at most five sentences), in plain text: no Markdown, no links, no commands to run. "
    "Answer in the language named by requestContext.playerLanguage."
)


def request_context(language: str, mode: ConversationMode, extra: dict[str, object] | None = None) -> ChatMessage:
    context: dict[str, object] = {"playerLanguage": language, "languageName": LANGUAGE_NAMES.get(language, language),
                                  "conversationMode": mode.value}
    if extra:
        context.update(extra)
    return ChatMessage("system", "requestContext: " + json.dumps({"requestContext": context}, ensure_ascii=False))


def routing_call(
    request: ModelRoutingRequest,
    tools: tuple[ToolSpec, ...],
    scope: str,
    language: str,
    mode: ConversationMode,
    history: Sequence[ChatMessage] = (),
    max_tokens: int = 300,
) -> ModelCall:
    """One routing call: the catalog as tools, local candidates as hints, the player's text last."""
    candidates = [{"module": c.module_id, "score": round(c.score, 3)} for c in request.candidates]
    system = ROUTE_SYSTEM + " " + (EXTENDED_TEXT if mode is ConversationMode.EXTENDED else STANDARD_TEXT)
    extra: dict[str, object] = {"localCandidates": candidates} if candidates else {}
    messages = (ChatMessage("system", system), request_context(language, mode, extra), *history,
                ChatMessage("user", request.text))
    return ModelCall(request.ticket, scope, CallPurpose.ROUTE, messages, tools, max_tokens)


def chat_call(
    ticket: RoutingTicket,
    text: str,
    scope: str,
    language: str,
    mode: ConversationMode,
    history: Sequence[ChatMessage] = (),
    max_tokens: int = 400,
) -> ModelCall:
    messages = (ChatMessage("system", CHAT_SYSTEM), request_context(language, mode), *history,
                ChatMessage("user", text))
    return ModelCall(ticket, scope, CallPurpose.CHAT, messages, (), max_tokens, temperature=0.7)
