"""Conversation modes per player (``!mode offline|standard|extended|free``).

* ``offline``: local routing with the functions threshold; when it is not
  sure, a card, never a model call.
* ``standard`` (default): local routing with the functions threshold; when it
  is not sure, one model routing call, which may choose a module or answer
  briefly in plain text.
* ``extended``: local direct answers need the higher free-chat threshold;
  otherwise one model routing call, and when the model chooses no module it
  chats (with the recent conversation).
* ``free``: no routing at all for ``@ai`` requests: every request is a chat
  call. Explicit ``!`` commands still work in every mode.

With external AI off or no key, ``free`` routes like ``standard`` so local
answers still work.
"""
from __future__ import annotations

import enum

import attrs


class ConversationMode(enum.Enum):
    OFFLINE = "offline"
    STANDARD = "standard"
    EXTENDED = "extended"
    FREE = "free"

    @property
    def routes(self) -> bool:
        return self is not ConversationMode.FREE

    @property
    def keeps_conversation(self) -> bool:
        return self in (ConversationMode.EXTENDED, ConversationMode.FREE)


_WORDS: dict[str, ConversationMode] = {
    "offline": ConversationMode.OFFLINE, "离线": ConversationMode.OFFLINE, "本地": ConversationMode.OFFLINE,
    "standard": ConversationMode.STANDARD, "normal": ConversationMode.STANDARD, "标准": ConversationMode.STANDARD,
    "extended": ConversationMode.EXTENDED, "扩展": ConversationMode.EXTENDED,
    "free": ConversationMode.FREE, "chat": ConversationMode.FREE, "自由": ConversationMode.FREE,
    "聊天": ConversationMode.FREE,
}


def parse_mode(word: str) -> ConversationMode | None:
    return _WORDS.get(word.strip().lower())


@attrs.frozen
class ModeThresholds:
    """The free-chat threshold extended mode applies on top of the routing config's (functions) one."""

    score: float = 0.95
    margin: float = 0.2

    def __attrs_post_init__(self) -> None:
        if not (0.0 <= self.score <= 1.0 and 0.0 <= self.margin <= 1.0):
            raise ValueError("free-chat score and margin must be within 0..1")
