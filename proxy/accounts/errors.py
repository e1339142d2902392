"""Everything that can go wrong signing in, as our own exceptions (callers never see httpx's or msal's).

How this works: every failure is an ``AccountError`` subclass carrying two
plain sentences for a player: ``message`` (what happened) and ``action`` (what
to do about it); ``str()`` joins them. The text never holds a token: the few
that quote a service's own words get them scrubbed of every token the failing
operation knew (``http_calls.scrubbed``) before they are built. ``detail`` is
for a developer (an HTTP status, an error code, an exception's type name),
never a token or a URL with a query.
"""
from __future__ import annotations

_RELOGIN = "run `mcagent login` again"


class AccountError(Exception):
    message = "signing in to Minecraft failed"
    action = "try again later"

    def __init__(self, message: str | None = None, action: str | None = None, *, detail: str = "") -> None:
        if message is not None:
            self.message = message
        if action is not None:
            self.action = action
        self.detail = detail
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"{self.message}; {self.action}"


# -- the cache ----------------------------------------------------------------------------------
class CacheError(AccountError):
    """The token cache cannot be read or written; the file is left as it is."""

    action = "fix or delete the file, then run `mcagent login`"


class NotSignedIn(AccountError):
    action = "run `mcagent login` first"

    def __init__(self, account: str, known: list[str]) -> None:
        listed = f" (signed in: {', '.join(known)})" if known else " (no account is signed in)"
        super().__init__(f"no Microsoft account {account!r} is signed in{listed}",
                         f"run `mcagent login --account {account}` first")
        self.account = account


# -- Microsoft sign-in --------------------------------------------------------------------------
class SignInExpired(AccountError):
    message = "the saved Microsoft sign-in has expired or was revoked"
    action = _RELOGIN


class LoginTimedOut(AccountError):
    message = "the sign-in code expired before the sign-in was finished"
    action = "run `mcagent login` again and finish signing in in the browser before the code expires"


class LoginDeclined(AccountError):
    message = "the sign-in was declined in the browser"
    action = "run `mcagent login` again and accept the request to sign in"


class AppNotApproved(AccountError):
    message = "the configured client id (accounts.client_id) is not approved for Minecraft"
    action = ("remove accounts.client_id from the config to use the default, or have the Azure app approved "
              "for Minecraft (https://aka.ms/mce-reviewappid)")


# -- Xbox Live (XSTS answers a 401 with one of these XErr codes) ---------------------------------
class NoXboxProfile(AccountError):
    message = "this Microsoft account has no Xbox profile yet"
    action = "sign in once at https://www.xbox.com/ (or in the Minecraft launcher) to create one, then run `mcagent login` again"


class XboxUnavailable(AccountError):
    message = "Xbox Live is not available in this account's country or region"
    action = "Microsoft does not allow Xbox Live sign-in there; this account cannot play online"


class AdultVerificationNeeded(AccountError):
    message = "Xbox Live asks for adult verification for this account (South Korea)"
    action = "complete the age verification at https://www.xbox.com/, then run `mcagent login` again"


class ChildAccount(AccountError):
    message = "this is a child account, which Xbox Live allows only inside a Microsoft family"
    action = ("an adult must add it to a Microsoft family (https://account.microsoft.com/family/), "
              "then run `mcagent login` again")


# -- Minecraft services -------------------------------------------------------------------------
class NoMinecraftLicence(AccountError):
    message = "this Microsoft account does not own Minecraft: Java Edition"
    action = ("sign in with the account that bought the game, or buy it at https://www.minecraft.net/ "
              "(with Xbox Game Pass, start the official launcher once with this account first)")


class NoMinecraftProfile(AccountError):
    message = "this account owns Minecraft but has no Minecraft profile (player name) yet"
    action = "start the official Minecraft launcher once to choose a name, then run `mcagent login` again"


# -- the network and the services themselves ----------------------------------------------------
class ServiceUnreachable(AccountError):
    action = "check the network connection (and any proxy or firewall), then try again"

    def __init__(self, service: str, host: str, why: str, *, detail: str = "") -> None:
        super().__init__(f"cannot reach {service} ({host}): {why}", detail=detail)
        self.host = host


class ServiceFailed(AccountError):
    """A 5xx, an answer that is not what the service's API says, or an error we have no name for."""

    action = "try again in a few minutes; if it keeps failing, the service may have changed"

    def __init__(self, service: str, host: str, what: str, *, detail: str = "") -> None:
        super().__init__(f"{service} at {host} {what}", detail=detail)
        self.host = host
