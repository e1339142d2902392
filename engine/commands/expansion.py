"""One pass from what answered a line to the actions the proxy performs.

How this works: whatever answers a chat line — a command's handler, the assistant, the model's
reply handled on a later tick — is a list of outputs (``engine.actions.Output``): actions for
the proxy, ``RunLine`` (a command line the player trusted: an option number, a card or a
notification button they clicked, a write they confirmed) and ``AskModel`` (a model call).
``expand`` walks such a list once. Model calls go to ``ask`` first, in order (the session's
model runner; what a call gives at once, a failure without a runner, comes out last). Then
actions go out as they are and each ``RunLine`` goes to ``run``, the command table, which
looks the line up, checks access, parses it and calls its handler; what the handler gives is
walked the same way, and a line may hand back one more line, no further (``MAX_DEPTH``:
``!ai`` alone runs ``!assistant``). Nothing but the command table ever runs a line.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.actions import Action, AskModel, Output, RunLine

MAX_DEPTH = 2

RunOne = Callable[[str], Sequence[Output] | None]   # a line without its prefix → its outputs; None: unknown
Ask = Callable[[AskModel], list[Action]]


class ExpansionError(Exception):
    """Our own code handed a model call to a walk that has no runner for it."""


def expand(outputs: Sequence[Output], run: RunOne, ask: Ask | None = None, depth: int = 0) -> list[Action]:
    asked: list[Action] = []
    for out in outputs:
        if isinstance(out, AskModel):
            if ask is None:
                raise ExpansionError("a model call outside a session: nothing can run it")
            asked += ask(out)
    done: list[Action] = []
    for out in outputs:
        if isinstance(out, AskModel):
            continue
        if not isinstance(out, RunLine):
            done.append(out)
            continue
        ran = run(out.line.strip().lstrip("!")) if depth < MAX_DEPTH else None
        done += expand(ran or [], run, ask, depth + 1)
    return done + asked
