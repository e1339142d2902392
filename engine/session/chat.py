"""A chat line's way through the session, from the packet to the answer, in one pass.

How this works (the whole path; ``engine.session.core`` only hands the line over):

1. The proxy's fast path asks ``may_take``: our prefixes, or ordinary chat while a write's
   confirmation card is visible, or a short line while a notification or a not-sure card is
   (``LocalAssistant.may_answer``). Anything else goes to the server unread (invariant 1).
2. ``typed`` (chat) or ``command_typed`` (``/agent``, ``/ai``) classifies the line
   (``engine.chat_tap``) and takes exactly one of four ways in:
   * ordinary chat: the assistant's ``answer_typed`` may take it as a typed "yes"/"cancel"
     for the visible card, a notification's button ("open inbox", "dismiss") or a not-sure
     card's option ("inventory"); if not, it is forwarded unchanged (``ForwardChat``);
   * ``@ai <request>``: the assistant's ``request`` (``!admin login`` after ``@ai`` is the
     command, so the secret never travels to the model service);
   * ``!command`` or ``/agent command``: the command table's ``run``;
   * nothing else.
3. What came back is a list of outputs, walked once by ``expand``
   (``engine.commands.expansion``): actions go out, a ``RunLine`` the player trusted runs
   through the command table (its handler may call the assistant's ``run_module``,
   ``click_card``, ``click_notice`` or the session's own commands) and what that gives is
   walked the same way; an ``AskModel`` goes to the model runner.
4. The runner's reply comes back through ``_delivered`` (its slot freed whoever still
   waits) and is answered at the next tick (``model_answers``): the assistant's
   ``model_answered`` re-checks it, and its outputs take step 3 again. After the player
   left, a reply is dropped.

Invocations carry who typed the line (admin or not, from ``AdminState``), the world as the
session sees it, and the session's own commands (``SessionCommands``).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.actions import Action, ForwardChat, Output, reply
from engine.assistant import Caller, LocalAssistant
from engine.chat_tap import ChatKind, TappedChat, classify, classify_command, may_be_addressed
from engine.commands.expansion import expand
from engine.commands.table import CommandTable, Invocation, PlayerSession
from engine.llm.calls import FailureKind, ModelCall, ModelFailure, ModelReply
from engine.llm.runner import ModelRunner
from engine.routing.language import reply_language
from engine.session.parts import AdminState, SessionConfig
from engine.world.snapshot import WorldSnapshot

ADMIN_LOGIN = "admin login"


class ChatPath:
    def __init__(self, config: SessionConfig, assistant: LocalAssistant | None, commands: CommandTable,
                 models: ModelRunner | None, admin: AdminState, own: PlayerSession,
                 snapshot: Callable[[], WorldSnapshot], progress: Callable[[], str | None]) -> None:
        self.config = config
        self.assistant = assistant
        self.commands = commands
        self.models = models
        self.admin = admin
        self.own = own
        self.snapshot = snapshot
        self.progress = progress
        self.left = False
        self._answers: list[tuple[ModelCall, ModelReply]] = []  # model replies for the next tick

    def leave(self) -> None:
        """The player left: replies still on their way are dropped."""
        self.left = True
        self._answers.clear()

    # --- 1. may this line be ours -----------------------------------------------------------
    def may_take(self, text: str, now: float) -> bool:
        """The proxy's chat fast path: could this line be for the proxy? False means it goes to the
        server as it came, unread. True for our prefixes, for any ordinary chat while a write's
        confirmation card is visible (it may be a typed "yes"), and for a short line while a
        notification or a not-sure card is (it may name a button); ``typed`` decides, and
        forwards it untouched when it is not an answer."""
        c = self.config
        if may_be_addressed(text, c.command_prefix, c.address_prefix):
            return True
        return not text.startswith("/") and self.assistant is not None and self.assistant.may_answer(text, now)

    # --- 2. one way in ----------------------------------------------------------------------
    def typed(self, text: str, now: float) -> list[Action]:
        c = self.config
        return self._line(classify(text, c.command_prefix, c.address_prefix, c.server_command), now, typed=text)

    def command_typed(self, command: str, now: float) -> list[Action]:
        return self._line(classify_command(command, self.config.server_command), now)

    def _line(self, tapped: TappedChat, now: float, typed: str | None = None) -> list[Action]:
        if tapped.kind is ChatKind.PASS:
            if typed is not None and not typed.startswith("/") and self.assistant is not None:
                # Ordinary chat may answer a visible confirmation card ("yes", "取消"), notification
                # ("open inbox") or not-sure card ("inventory"): then it is consumed like a click;
                # otherwise it goes on to the server unchanged (invariant 1).
                snapshot = self.snapshot()
                answered = self.assistant.answer_typed(typed, snapshot, now)
                if answered is not None:
                    return self.answer(answered, now, snapshot)
            return [ForwardChat()]
        if tapped.kind is ChatKind.ASSISTANT and tapped.body.lower().startswith(ADMIN_LOGIN):
            # A secret typed after @ai must not travel to the model service: it is the command.
            return self.run_command(tapped.body, now)
        if tapped.kind is ChatKind.ASSISTANT:
            if not tapped.body:
                return [reply(f"Say something after {self.config.address_prefix.strip()}, e.g. "
                              f"{self.config.address_prefix}where am I")]
            if self.assistant is None:
                return [reply("The assistant is not configured yet; try !help for proxy commands.")]
            snapshot = self.snapshot()
            return self.answer(self.assistant.request(tapped.body, snapshot, now, self.caller()), now, snapshot)
        return self.run_command(tapped.body, now)

    def run_command(self, line: str, now: float) -> list[Action]:
        """``name args`` as the player typed it after the prefix (or ``/agent``)."""
        return self.commands.execute(line, self.invocation(now), lambda ask: self._ask(ask.call, now))

    # --- 3. the one pass --------------------------------------------------------------------
    def answer(self, outputs: Sequence[Output], now: float, snapshot: WorldSnapshot | None = None) -> list[Action]:
        """What answered a line, with the lines the player trusted run through the command table and
        its model calls handed to the runner (``engine.commands.expansion``)."""
        built: list[Invocation] = []

        def run(line: str) -> Sequence[Output] | None:
            if not built:  # built once, and only when a line is run
                built.append(self.invocation(now, snapshot))
            return self.commands.run(line, built[0])

        return expand(outputs, run, lambda ask: self._ask(ask.call, now))

    def caller(self) -> Caller:
        return Caller(self.admin.granted, self.progress())

    def invocation(self, now: float, snapshot: WorldSnapshot | None = None) -> Invocation:
        snapshot = snapshot or self.snapshot()
        lang = reply_language(snapshot.locale)
        parse = self.assistant.parse_context(snapshot, lang) if self.assistant is not None else None
        limit = self.assistant.runtime.config.max_characters if self.assistant is not None else None
        return Invocation(snapshot, now, lang, self.admin.granted, self.config.command_prefix, self.own,
                          self.assistant, parse, self.progress(), limit, self.admin.pending)

    # --- 4. the model's reply ---------------------------------------------------------------
    def _ask(self, call: ModelCall, now: float) -> list[Action]:
        if self.models is None:
            self._delivered(call, ModelFailure(FailureKind.NOT_RUNNING, "no model service in this process"), now)
            return self.model_answers(now)
        self.models.run(call, lambda reply, at: self._delivered(call, reply, at))
        return []

    def _delivered(self, call: ModelCall, reply: ModelReply, now: float) -> None:
        """The runner's callback: the call is over (its slot freed, tokens counted) whoever still waits."""
        if self.assistant is not None:
            self.assistant.runtime.model_finished(call, reply, now)
        if not self.left:
            self._answers.append((call, reply))

    def model_answers(self, now: float) -> list[Action]:
        """The replies delivered since the last tick, each re-checked by the assistant and walked once."""
        if not self._answers or self.assistant is None:
            return []
        answers, self._answers = self._answers, []
        snapshot = self.snapshot()
        out: list[Action] = []
        for call, answer in answers:
            outputs = self.assistant.model_answered(call, answer, snapshot, now, self.caller())
            out += self.answer(outputs, now, snapshot)
        return out

