"""The accounts API the proxy and the CLI use: sign in, hand out a fresh Minecraft session, list, sign out.

How this works: ``AccountStore.login`` runs the Microsoft device-code sign-in
(``microsoft``), then the chain every later refresh repeats: Xbox Live and XSTS
(``xbox``), ``login_with_xbox``, the licence check and the profile
(``minecraft_services``); it saves the result in the token cache (``cache``)
under the account key (the profile name unless one is given). ``session``
returns the cached Minecraft token while it has more than
``refresh_margin_seconds`` left; otherwise it renews the Microsoft token with
the refresh token (which may rotate) and runs the chain again. If renewing
fails while the old token still has a minute, that token is handed out and the
failure logged, so a flaky network does not block a join it need not block.

Every call is synchronous and may take seconds (HTTP): the proxy runs them in
a thread, never on the reactor. They are thread-safe: one lock serialises
refreshes (a refresh token must not be spent twice at once), and every cache
write re-reads the file under the cache's own lock, so a ``mcagent login`` in
another process is never lost. A refresh finding its account signed out
meanwhile does not bring it back.

Tokens never leave in text: the values returned hide them from ``repr``, the
errors never quote them, and every token the store learns (Microsoft, Xbox,
XSTS, Minecraft) goes to ``on_secret`` (e.g. the log observer's ``add_secret``)
before it is used; ``secrets()`` lists the ones in the cache now.
"""
from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType

import attrs
import httpx
from twisted.logger import Logger

from proxy.accounts import minecraft_services, xbox
from proxy.accounts.cache import CachedAccount, TokenCache
from proxy.accounts.errors import AccountError, NotSignedIn, SignInExpired
from proxy.accounts.microsoft import DeviceCode, MicrosoftSignIn
from proxy.accounts.settings import AccountSettings, cache_path
from proxy.codec.chat_signing import ChatKey

__all__ = ["AccountInfo", "AccountStore", "DeviceCode", "MinecraftSession"]
# A chat key expiring sooner than this is fetched again (Minecraft services renew it well before).
CHAT_KEY_MARGIN_SECONDS = 3600.0

STILL_USABLE_SECONDS = 60.0  # an old token with less than this left is not worth handing out


@attrs.frozen
class MinecraftSession:
    account: str  # the cache key
    name: str  # the profile name
    uuid: uuid.UUID
    access_token: str = attrs.field(repr=False)
    expires_at: float  # unix seconds


@attrs.frozen
class AccountInfo:
    account: str
    name: str
    uuid: uuid.UUID
    expires_at: float  # of the Minecraft token; a later `session` refreshes it
    refreshed_at: float


class AccountStore:
    def __init__(self, settings: AccountSettings, *, http: httpx.Client | None = None,
                 clock: Callable[[], float] = time.time, sleep: Callable[[float], None] = time.sleep,
                 log: Logger | None = None, on_secret: Callable[[str], None] | None = None) -> None:
        self.settings = settings
        self._own_http = http is None
        self._http = http if http is not None else httpx.Client(
            timeout=httpx.Timeout(settings.timeout_seconds), follow_redirects=False,
            headers={"User-Agent": "mcagent"})
        self._clock = clock
        self._log = log if log is not None else Logger(namespace="mcagent.accounts")
        self._on_secret = on_secret
        self._known: set[str] = set()
        self._known_lock = threading.Lock()
        self._refresh_lock = threading.Lock()
        self._cache = TokenCache(cache_path(settings))
        self._chat_keys: dict[str, ChatKey] = {}  # in memory only: a private key is never written here
        self._chat_lock = threading.Lock()
        self._microsoft = MicrosoftSignIn(settings, self._http, clock, sleep)

    @property
    def path(self) -> Path:
        return self._cache.path

    def close(self) -> None:
        if self._own_http:
            self._http.close()

    def __enter__(self) -> "AccountStore":
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # -- the API --------------------------------------------------------------------------------
    def login(self, account: str | None, show: Callable[[DeviceCode], None]) -> MinecraftSession:
        """The device-code sign-in; ``show`` gets the URL, the code and Microsoft's message to print."""
        tokens = self._microsoft.device_login(show)
        self._learned(tokens.access_token, tokens.refresh_token)
        mc, player = self._minecraft(tokens.access_token)
        now = self._clock()
        entry = CachedAccount(player.name, player.uuid, self.settings.client_id, tokens.refresh_token, mc.token,
                              now + mc.expires_in, now)

        def save(accounts: dict[str, CachedAccount]) -> str:
            # Signing in again without --account keeps the key this player already has.
            key = account or next((k for k, a in accounts.items() if a.uuid == player.uuid), player.name)
            accounts[key] = entry
            return key

        key = self._cache.change(save)
        self._log.info("signed in {account} as {name} ({uuid}); its Minecraft token is valid until {until}",
                       account=key, name=player.name, uuid=str(player.uuid), until=_when(entry.expires_at))
        return _session(key, entry)

    def session(self, account: str) -> MinecraftSession:
        """A Minecraft session with at least ``refresh_margin_seconds`` left, refreshed if it needed it."""
        key, entry = self._find(account)
        if self._fresh(entry):
            return _session(key, entry)
        with self._refresh_lock:
            key, entry = self._find(account)  # another thread may have refreshed it meanwhile
            if self._fresh(entry):
                return _session(key, entry)
            try:
                return self._refresh(key, entry)
            except AccountError as exc:
                if entry.expires_at - self._clock() < STILL_USABLE_SECONDS or isinstance(exc, NotSignedIn):
                    self._log.warn("cannot refresh the tokens of {account}: {why}", account=key, why=str(exc))
                    raise
                self._log.warn("cannot refresh the tokens of {account}: {why}; using its current token, valid "
                               "until {until}", account=key, why=str(exc), until=_when(entry.expires_at))
                return _session(key, entry)

    def chat_key(self, account: str) -> ChatKey:
        """The account's chat key from Minecraft services' player certificates, as a vanilla
        client fetches it; kept in memory while it has more than an hour left."""
        session = self.session(account)
        with self._chat_lock:
            known = self._chat_keys.get(session.account)
            if known is not None and known.expires_at_ms / 1000 - CHAT_KEY_MARGIN_SECONDS > self._clock():
                return known
            key, private_pem = minecraft_services.chat_key(self._http, self.settings, session.access_token)
            self._learned(private_pem)
            self._chat_keys[session.account] = key
            return key

    def accounts(self) -> list[AccountInfo]:
        return [AccountInfo(key, a.name, a.uuid, a.expires_at, a.refreshed_at)
                for key, a in sorted(self._cache.read().items(), key=lambda item: item[0].casefold())]

    def logout(self, account: str) -> bool:
        """Forget the account's tokens here (Microsoft still lists the sign-in until revoked there)."""

        def remove(accounts: dict[str, CachedAccount]) -> str | None:
            key = _match(accounts, account)
            if key is not None:
                del accounts[key]
            return key

        key = self._cache.change(remove)
        if key is not None:
            self._log.info("signed out {account}", account=key)
        return key is not None

    def secrets(self) -> list[str]:
        """Every token in the cache now (refresh and access tokens), for the log redaction."""
        found = [token for a in self._cache.read().values() for token in (a.refresh_token, a.access_token)]
        self._learned(*found)
        return found

    # -- inside ---------------------------------------------------------------------------------
    def _find(self, account: str) -> tuple[str, CachedAccount]:
        accounts = self._cache.read()
        key = _match(accounts, account)
        if key is None:
            raise NotSignedIn(account, sorted(accounts, key=str.casefold))
        entry = accounts[key]
        self._learned(entry.refresh_token, entry.access_token)
        if entry.client_id != self.settings.client_id:
            raise SignInExpired(f"the account {key!r} was signed in through another client id than the "
                                "configured accounts.client_id", f"run `mcagent login --account {key}` again",
                                detail="client id changed")
        return key, entry

    def _fresh(self, entry: CachedAccount) -> bool:
        return entry.expires_at - self.settings.refresh_margin_seconds > self._clock()

    def _refresh(self, key: str, old: CachedAccount) -> MinecraftSession:
        tokens = self._microsoft.refresh(old.refresh_token)
        self._learned(tokens.access_token, tokens.refresh_token)
        mc, player = self._minecraft(tokens.access_token)
        now = self._clock()
        entry = CachedAccount(player.name, player.uuid, old.client_id, tokens.refresh_token, mc.token,
                              now + mc.expires_in, now)

        def save(accounts: dict[str, CachedAccount]) -> bool:
            on_disk = accounts.get(key)
            if on_disk is None:
                return False  # signed out while we refreshed: stays signed out
            if on_disk.refreshed_at > old.refreshed_at:
                return True  # a newer sign-in (another process) wins; our tokens are valid all the same
            accounts[key] = entry
            return True

        if not self._cache.change(save):
            raise NotSignedIn(key, sorted(self._cache.read(), key=str.casefold))
        self._log.info("refreshed the tokens of {account} ({name}); valid until {until}", account=key,
                       name=player.name, until=_when(entry.expires_at))
        return _session(key, entry)

    def _minecraft(self, msa_token: str) -> tuple[minecraft_services.MinecraftToken, minecraft_services.PlayerProfile]:
        user = xbox.user_token(self._http, self.settings, msa_token)
        self._learned(user.token)
        xsts = xbox.xsts_token(self._http, self.settings, user)
        self._learned(xsts.token)
        mc = minecraft_services.login_with_xbox(self._http, self.settings, xsts)
        self._learned(mc.token)
        minecraft_services.check_licence(self._http, self.settings, mc)
        return mc, minecraft_services.profile(self._http, self.settings, mc)

    def _learned(self, *tokens: str) -> None:
        with self._known_lock:
            fresh = [t for t in tokens if t and t not in self._known]
            self._known.update(fresh)
        if self._on_secret is not None:
            for token in fresh:
                self._on_secret(token)


def _match(accounts: dict[str, CachedAccount], account: str) -> str | None:
    if account in accounts:
        return account
    # Minecraft names are case-insensitive; a key that differs only in case is the same player.
    folded = [k for k in accounts if k.casefold() == account.casefold()]
    return folded[0] if len(folded) == 1 else None


def _session(key: str, entry: CachedAccount) -> MinecraftSession:
    return MinecraftSession(key, entry.name, entry.uuid, entry.access_token, entry.expires_at)


def _when(unix: float) -> str:
    return datetime.fromtimestamp(unix, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
