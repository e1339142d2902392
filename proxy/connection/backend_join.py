"""A move's login to an online-mode backend as the proxy's Microsoft account (``upstream_auth``).

How this works: when a backend the player is being moved to (``/server``, ``send``, a failover, a
kept transfer) asks for encryption, the proxy answers as the account, as it did at the player's
first login (``proxy.connection.login``), but hours may have passed since: so it first asks for
the account's session again (``account_session``: the store refreshes the token when it is near
expiry), then joins through the session server with it (``join_session``), and only then answers
the backend and turns the new leg's encryption on. The two answers come back to the connection,
which hands them to the waiter it was given (``Connection.account_waiter``).

    PLANNED --session-->  JOINING --joined--> ANSWERED
    PLANNED / JOINING --refused--> GIVEN_UP      (and ``cancel``: the move ended meanwhile)

Nothing here logs or says a token: the session object keeps it out of its repr, and what the
player is told comes from ``AccountUnavailable`` texts, which never hold one.
"""
from __future__ import annotations

import enum
import os
from typing import TYPE_CHECKING, Callable, Protocol

from proxy.connection import upstream_encryption
from proxy.protocol.states import State
from proxy.protocol.tables import TO_CLIENT, TO_SERVER

if TYPE_CHECKING:
    from proxy.codec.versioned import VersionCodec
    from proxy.connection.seams import AccountSession, LoginServices


class AccountWaiter(Protocol):
    """Who the account services' answers go to: the first login (``LoginPhase``), or a move's
    ``BackendJoin`` while it waits (``Connection.account_waiter``)."""

    def account_ready(self, session: "AccountSession | None", error: str | None) -> None: ...
    def session_joined(self, error: str | None) -> None: ...


class Step(enum.Enum):
    SESSION = "asking for the account's session"
    JOINING = "joining through the session server"
    ANSWERED = "answered"
    GIVEN_UP = "given up"


class WaiterHost(Protocol):
    """The connection, as far as this login needs it."""

    account_waiter: AccountWaiter | None

    @property
    def io(self) -> "LoginServices": ...


Answer = Callable[[bytes, bytes], None]  # the encryption response to send, the shared secret to turn on


class BackendJoin:
    def __init__(self, conn: WaiterHost, account: str, codec: "VersionCodec", answer: Answer,
                 refused: Callable[[str], None]) -> None:
        self.conn = conn
        self.account = account
        self.codec = codec
        self._answer = answer
        self._refused = refused
        self.step = Step.SESSION
        self._secret = os.urandom(upstream_encryption.SECRET_BYTES)
        self._response = b""
        self._digest = ""

    def requested(self, packet: bytes) -> None:
        """The backend's Encryption Request (``PeerError`` when it is not one we can answer)."""
        request = self.codec.decode(State.LOGIN, TO_CLIENT, "encryption_begin", packet)
        plan = upstream_encryption.plan(request, self._secret,
                                        self.codec.field_types(State.LOGIN, TO_SERVER, "encryption_begin"))
        self._response = self.codec.encode(State.LOGIN, TO_SERVER, "encryption_begin", plan.response)
        if not plan.authenticate:
            self._answered()
            return
        self._digest = plan.digest
        self.conn.account_waiter = self
        self.conn.io.account_session(self.account)

    def account_ready(self, session: "AccountSession | None", error: str | None) -> None:
        if self.step is not Step.SESSION:
            return
        if session is None:
            self._give_up(error or "the proxy's Microsoft account could not be used")
            return
        self.step = Step.JOINING
        self.conn.io.join_session(session, self._digest)

    def session_joined(self, error: str | None) -> None:
        if self.step is not Step.JOINING:
            return
        if error is not None:
            self._give_up(error)
            return
        self._answered()

    def cancel(self) -> None:
        """The move ended: a late answer is ignored."""
        if self.step in (Step.SESSION, Step.JOINING):
            self.step = Step.GIVEN_UP
            self._release()

    def _answered(self) -> None:
        self.step = Step.ANSWERED
        self._release()
        self._answer(self._response, self._secret)

    def _give_up(self, why: str) -> None:
        self.step = Step.GIVEN_UP
        self._release()
        self._refused(why)

    def _release(self) -> None:
        if self.conn.account_waiter is self:
            self.conn.account_waiter = None
