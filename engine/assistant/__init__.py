"""The assistant behind ``@ai`` and the ``!`` commands: router + module registry, per player.

How this works: ``AssistantRuntime`` (``runtime``) is built once per proxy process and holds
what all players share; ``runtime.new_assistant()`` gives each connection a
``LocalAssistant`` (``local``), which routes one ``@ai`` line and either runs a module now
(option number, explicit phrase, cache hit, confident read-only match) or falls back to the
model (``model_seam``) when it may be asked, else to an honest "not sure" card (``cards``).
The model is never called from here: a fallback returns an ``AskModel`` that the player's
session hands to its model runner, and the reply comes back through ``model_answered``,
which re-checks the choice (a write becomes a card to confirm, never an action). Nothing in
this package reads a clock or runs a command line: trusted lines go back to the session as
``RunLine``.

| module | what lives there |
|---|---|
| ``runtime`` | ``AssistantRuntime``: registry, command table, index, cache, counters, config, reload |
| ``shared`` | ``RuntimeParts`` (what a player's assistant reads of the runtime), ``Caller``, ``Preferences`` |
| ``local`` | ``LocalAssistant``: one player's scope, switches and inbox; ``request`` |
| ``cards`` | ``CardDesk``: option cards, write confirmations and typed answers, notifications |
| ``model_seam`` | ``ModelSeam``: when the model may be asked, the call, its answer re-checked |
"""
from __future__ import annotations

from engine.assistant.cards import ANSWER_SECONDS, CardDesk
from engine.assistant.local import INBOX_MODULE, LocalAssistant
from engine.assistant.model_seam import ModelSeam, PendingCall
from engine.assistant.runtime import AssistantRuntime
from engine.assistant.shared import Caller, Preferences, RuntimeParts

__all__ = ["ANSWER_SECONDS", "INBOX_MODULE", "AssistantRuntime", "CardDesk", "Caller", "LocalAssistant", "ModelSeam",
           "PendingCall", "Preferences", "RuntimeParts"]
