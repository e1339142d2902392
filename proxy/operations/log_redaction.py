"""A log observer that keeps secrets out of every log line (invariant 8).

How this works: ``RedactingObserver`` sits in front of the real observers (the
terminal, JSON output, the ``log tail`` ring). For each event it formats the
text once (with the traceback of a ``log.failure``) and looks for every form of
every secret (``engine.llm.secrets.forms``: raw, repr-escaped, JSON-escaped).
Events without one pass on untouched; an event with one is replaced by a plain
event carrying the scrubbed text, so no observer ever sees the original fields.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Callable

from twisted.logger import ILogObserver
from zope.interface import implementer

from engine.llm.secrets import forms, redact

Observer = Callable[[dict[str, Any]], None]


@implementer(ILogObserver)
class RedactingObserver:
    def __init__(self, observers: Iterable[Observer], secrets: Iterable[str | None] = ()) -> None:
        self.observers = list(observers)
        self._forms: list[tuple[str, str]] = []
        for secret in secrets:
            self.add_secret(secret)

    def add_secret(self, secret: str | None) -> None:
        if secret:
            hint = redact(secret)
            self._forms += [(form, hint) for form in forms(secret) if (form, hint) not in self._forms]

    def __call__(self, event: dict[str, Any]) -> None:
        if self._forms:
            event = self._scrubbed(event)
        for observer in self.observers:
            observer(event)

    def _scrubbed(self, event: dict[str, Any]) -> dict[str, Any]:
        from twisted.logger import formatEvent

        text = formatEvent(event)
        failure = event.get("log_failure")
        if failure is not None:
            text += "\n" + failure.getTraceback()
        if not any(form in text for form, _ in self._forms):
            return event
        for form, hint in self._forms:
            text = text.replace(form, hint)
        keep: dict[str, Any] = {k: event[k] for k in ("log_time", "log_level", "log_namespace", "log_system",
                                                      "player") if k in event}
        return {**keep, "log_format": text.replace("{", "{{").replace("}", "}}"), "log_redacted": True}
