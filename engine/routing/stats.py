"""Counters per dispatch/fallback reason and the latest match, for ``/system routing``.

Nothing here holds a player's text or UUID: a reason, a module id, a language
and three numbers. The latest match is one server-wide snapshot, as in the seed.
DIRECT and CACHE_HIT count requests that skipped the model's routing call;
SHADOW_DIRECT counts what would have gone direct. None of them proves a
judgement was right; the annotated corpus (``evaluation.py``) does that.
"""
from __future__ import annotations

import enum
from collections.abc import Callable

import attrs


class Reason(enum.Enum):
    __hash__ = object.__hash__  # singletons; counted once per request, Enum's own hash is slow

    OPTION = "OPTION"                    # current card's option number
    EXPLICIT = "EXPLICIT"                # a registered explicit phrase
    CACHE_HIT = "CACHE_HIT"
    DIRECT = "DIRECT"
    LEARNED = "LEARNED"                  # the thresholds refused; the line model was sure (``line_model.py``)
    DOUBTED = "DOUBTED"                  # anchoring passed; the line model was sure it is the model's turn
    SHADOW_DIRECT = "SHADOW_DIRECT"      # SHADOW mode: would have gone direct
    EMPTY = "EMPTY"                      # nothing but filler
    TOO_LONG = "TOO_LONG"
    UNSUPPORTED_LANGUAGE = "UNSUPPORTED_LANGUAGE"
    MODE_OFF = "MODE_OFF"
    LOW_SCORE = "LOW_SCORE"
    LOW_MARGIN = "LOW_MARGIN"
    LOW_COVERAGE = "LOW_COVERAGE"
    TOPIC_GAP = "TOPIC_GAP"              # an input topic/unknown word missing from the example
    FILTERED_NEGATION = "FILTERED_NEGATION"
    FILTERED_CONDITION = "FILTERED_CONDITION"
    FILTERED_REFERENCE = "FILTERED_REFERENCE"
    FILTERED_COMPOUND = "FILTERED_COMPOUND"
    FILTERED_WRITE = "FILTERED_WRITE"
    NOT_ASKED = "NOT_ASKED"              # a quote, a how-to question or a statement ("我饿了"): the model's
    REJECTED = "REJECTED"                # closest to a reject sample
    NOT_DIRECT = "NOT_DIRECT"            # best module may not run from similarity (write, hints, explicit-only)
    ARGS_UNPARSED = "ARGS_UNPARSED"      # the module's parser found missing or ambiguous arguments
    MODEL_FALLBACK = "MODEL_FALLBACK"    # handed to the model router
    NO_MODEL = "NO_MODEL"                # needed the model, none configured: honest "not sure" reply
    CACHE_WRITE = "CACHE_WRITE"
    CACHE_WRITE_DROPPED = "CACHE_WRITE_DROPPED"


LOCAL_PATHS = frozenset({Reason.OPTION, Reason.EXPLICIT, Reason.CACHE_HIT, Reason.DIRECT, Reason.LEARNED})


@attrs.frozen
class LatestMatch:
    module_id: str
    language: str
    score: float
    margin: float
    coverage: float
    reason: Reason


class RoutingStats:
    """Counters, the latest match and routing time.

    Routing time covers ``Router.route`` only (normalize … decide), never the
    model call or the module that runs afterwards, as the seed's diagnostics
    say. It is measured with the perf counter the runtime was given and passed
    to ``observe_seconds`` (the proxy's ``mcagent_routing_seconds``).
    """

    def __init__(self, observe_seconds: Callable[[float], None] | None = None) -> None:
        self.counters: dict[Reason, int] = {}
        self.latest: LatestMatch | None = None
        self.observe_seconds = observe_seconds
        self.timed = 0
        self.seconds_total = 0.0
        self.seconds_max = 0.0

    def record_seconds(self, seconds: float) -> None:
        self.timed += 1
        self.seconds_total += seconds
        self.seconds_max = max(self.seconds_max, seconds)
        if self.observe_seconds is not None:
            self.observe_seconds(seconds)

    def count(self, reason: Reason) -> None:
        self.counters[reason] = self.counters.get(reason, 0) + 1

    def record_match(self, match: LatestMatch) -> None:
        self.latest = match

    def lines(self) -> list[str]:
        counters = ", ".join(f"{r.value}={n}" for r, n in sorted(self.counters.items(), key=lambda kv: kv[0].value))
        out = [f"counters: {counters or 'none yet'}"]
        if self.timed:
            out.append(f"routing time (routing only, no model, no module): {self.timed} requests, "
                       f"mean {1e6 * self.seconds_total / self.timed:.0f} us, max {1e6 * self.seconds_max:.0f} us")
        m = self.latest
        if m is None:
            out.append("latest match: none yet")
        else:
            out.append(
                f"latest match: {m.module_id} [{m.language}] score={m.score:.3f} margin={m.margin:.3f} "
                f"coverage={m.coverage:.3f} -> {m.reason.value}"
            )
        return out
