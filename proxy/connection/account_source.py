"""The signed-in Microsoft accounts as the reactor sees them (``upstream_auth`` microsoft).

How this works: the account store (``proxy.accounts``) is synchronous: reading the cache
and, when a token is about to expire, refreshing it (Microsoft, Xbox Live, XSTS, Minecraft
services) are blocking HTTP calls. ``AccountSource`` runs them in the reactor's thread
pool, so a refresh never holds up another player's packets; the store hands every token
it learns to the log redaction (its ``on_secret``) before it is used. A session comes
with the account's chat key (player certificates) when Minecraft services give one, for
keeping signed chat valid (``proxy.codec.chat_signing``); without it the player can still play.
``join`` is the session server's join for the account, on the reactor
(``proxy.connection.session_server``). Both fire with a value or fail with ``AccountUnavailable``,
whose text is what the player is told.
"""
from __future__ import annotations

import uuid
from typing import Any, Protocol

import attrs
from twisted.internet.defer import Deferred
from twisted.internet.threads import deferToThreadPool
from twisted.logger import Logger
from twisted.python.failure import Failure

from proxy.accounts.errors import AccountError
from proxy.codec.chat_signing import ChatKey
from proxy.connection.seams import AccountSession
from proxy.connection.session_server import JoinRefused, join

log = Logger(namespace="mcagent.accounts")


class MinecraftSessionLike(Protocol):
    @property
    def account(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def uuid(self) -> uuid.UUID: ...
    @property
    def access_token(self) -> str: ...


class AccountStoreLike(Protocol):
    """``proxy.accounts.store.AccountStore`` as this module uses it."""

    def session(self, account: str) -> MinecraftSessionLike: ...
    def chat_key(self, account: str) -> ChatKey: ...
    def accounts(self) -> list[Any]: ...  # AccountInfo: account, name, uuid, expires_at


@attrs.frozen
class UpstreamAccount:
    """What the server leg logs in with: the account's session, and its chat key if any."""

    account: str
    name: str
    uuid: uuid.UUID
    access_token: str = attrs.field(repr=False)
    chat_key: ChatKey | None = attrs.field(repr=False, default=None)


class AccountUnavailable(Exception):
    """What the player is told when the proxy cannot log in as the account."""


class AccountSource:
    def __init__(self, store: AccountStoreLike, reactor: Any, session_server: str) -> None:
        self.store = store
        self.reactor = reactor
        self.session_server = session_server

    def describe(self, account: str) -> str:
        """One line for the start-up log: who the server leg will be, or how to sign in (reads
        only the cache file, no network)."""
        try:
            known = {info.account.casefold(): info for info in self.store.accounts()}
        except AccountError as exc:
            return f"the account cache cannot be read: {exc}"
        info = known.get(account.casefold())
        if info is None:
            return (f"no Microsoft account {account} is signed in: players will be told to run "
                    f"`mcagent login --account {account}` here first")
        return f"the server leg logs in as the Microsoft account {info.account} ({info.name}, {info.uuid})"

    def session(self, account: str) -> "Deferred[AccountSession]":
        d: Deferred[AccountSession] = deferToThreadPool(self.reactor, self.reactor.getThreadPool(),
                                                        self._session, account)

        def failed(failure: Failure) -> Failure:
            if failure.check(AccountError):
                error = failure.value
                assert isinstance(error, AccountError)
                # The player reads this in game: name the account in the command to run.
                action = error.action.replace("`mcagent login`", f"`mcagent login --account {account}`")
                raise AccountUnavailable(f"The proxy cannot log in as the Microsoft account {account}: "
                                         f"{error.message}. On the proxy's machine: {action}.")
            log.failure("the account store failed for {account}", failure, account=account)
            raise AccountUnavailable("The proxy could not use its Microsoft account (an internal error, logged).")

        return d.addErrback(failed)

    def _session(self, account: str) -> UpstreamAccount:
        """In a worker thread: the session, then the chat key (whose failure costs only signing)."""
        session = self.store.session(account)
        chat_key: ChatKey | None = None
        try:
            chat_key = self.store.chat_key(account)
        except AccountError as exc:
            log.warn("no chat key for {account} ({why}): a signed line the proxy keeps will break the player's "
                     "chat chain on 1.19.3+", account=account, why=str(exc))
        return UpstreamAccount(session.account, session.name, session.uuid, session.access_token, chat_key)

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
