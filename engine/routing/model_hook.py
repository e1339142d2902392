"""What a request handed to the model carries: its ticket, the local candidates, the catalog.

When local routing is not confident, the assistant builds a
``ModelRoutingRequest`` once and the model service turns it into a call
(``engine.llm``); the model's choice comes back to
``LocalAssistant.model_answered``, where the execution layer re-checks it
(writes become a confirmation button, never an action) and may write the
intent cache. With no model service the assistant answers honestly that it
is not sure and lists read-only commands that may help; it never guesses.
"""
from __future__ import annotations

import attrs

from engine.commands.args import Arg
from engine.routing.cache import CacheKey


@attrs.frozen
class RoutingTicket:
    """Identifies one request waiting for the model. Holds the cache key, never the text."""

    request_id: int
    key: CacheKey | None  # None when the intent cache may not be written (history off, SHADOW/OFF)
    language: str


@attrs.frozen
class ModelCandidate:
    module_id: str
    score: float
    read_only: bool
    command_line: str | None  # runs it with this request's arguments; None when they do not parse


@attrs.frozen
class CatalogEntry:
    module_id: str
    usage: str
    description: str
    read_only: bool
    explicit_only: bool  # the model must be very sure before choosing it
    args: tuple[Arg, ...] | None = None  # its command's arguments; None: read off ``usage``


@attrs.frozen
class ModelRoutingRequest:
    ticket: RoutingTicket
    text: str  # the player's request; the model needs it, nothing here stores it
    language: str
    candidates: tuple[ModelCandidate, ...]  # local vector candidates, best first; empty in SHADOW
    catalog: tuple[CatalogEntry, ...]       # every module the model may choose (not structured-only)
