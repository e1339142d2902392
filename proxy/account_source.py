"""The signed-in Microsoft accounts as the reactor sees them (``upstream_auth`` microsoft).

How this works: the account store (``proxy.accounts``) is synchronous: reading the cache
and, when a token is about to expire, refreshing it (Microsoft, Xbox Live, XSTS, Minecraft
services) are blocking HTTP calls. ``AccountSource`` runs them in the reactor's thread
pool, so a refresh never holds up another player's packets, and hands every token it
sees to the log redaction before anything can log it. ``join`` is the session server's
join for the account, on the reactor (``proxy.session_server``). Both fire with a value
or fail with ``AccountUnavailable``, whose text is what the player is told.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Protocol

from twisted.internet.defer import Deferred
from twisted.internet.threads import deferToThreadPool
from twisted.logger import Logger
from twisted.python.failure import Failure

from proxy.connection import AccountSession
from proxy.session_server import JoinRefused, join

log = Logger(namespace="mcagent.accounts")


class AccountStoreLike(Protocol):
    def session(self, account: str) -> AccountSession: ...
    def secrets(self) -> Iterable[str]: ...


class AccountUnavailable(Exception):
    """What the player is told when the proxy cannot log in as the account."""


class AccountSource:
    def __init__(self, store: AccountStoreLike, reactor: Any, session_server: str,
                 add_secret: Callable[[str], None]) -> None:
        self.store = store
        self.reactor = reactor
        self.session_server = session_server
        self._add_secret = add_secret
        self._register()

    def _register(self) -> None:
        for secret in self.store.secrets():
            self._add_secret(secret)

    def session(self, account: str) -> "Deferred[AccountSession]":
        d: Deferred[AccountSession] = deferToThreadPool(self.reactor, self.reactor.getThreadPool(),
                                                        self.store.session, account)

        def got(session: AccountSession) -> AccountSession:
            self._register()  # a refresh may have brought new tokens
            return session

        def failed(failure: Failure) -> Failure:
            self._register()
            if failure.check(AccountUnavailable):
                return failure
            from proxy.accounts.errors import AccountError

            if failure.check(AccountError):
                raise AccountUnavailable(str(failure.value))
            log.failure("the account store failed for {account}", failure, account=account)
            raise AccountUnavailable("The proxy could not use its Microsoft account (an internal error, logged).")

        return d.addCallbacks(got, failed)

    def join(self, session: AccountSession, digest: str) -> "Deferred[None]":
        d = join(self.reactor, self.session_server, session.access_token, session.uuid.hex, digest)

        def failed(failure: Failure) -> None:
            if failure.check(JoinRefused):
                raise AccountUnavailable(
                    f"The session server refused {session.name}'s sign-in ({failure.getErrorMessage()}): the token "
                    f"is expired or revoked. On the proxy's machine run `mcagent login --account {session.account}`, "
                    "then reconnect.")
            raise AccountUnavailable(
                f"The proxy could not reach the session server to join ({_reason(failure)}): check its network, "
                "then reconnect.")

        return d.addErrback(failed)


def _reason(failure: Failure) -> str:
    text = failure.getErrorMessage() or type(failure.value).__name__
    return text if len(text) <= 120 else text[:117] + "..."
