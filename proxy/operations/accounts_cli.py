"""``mcagent login``, ``mcagent accounts`` and ``mcagent logout``: the account commands.

How this works: ``add_commands`` adds the three subcommands to the main
parser and ``run`` executes one. Each reads ``accounts`` from the proxy's
config (``--config``, else config/proxy.json, else the defaults), builds an
``AccountStore`` and prints plain sentences: a failure is the error's message
and what to do, on stderr, with a non-zero exit code. No token is ever
printed; the cache path always is, so the owner knows where the secrets are.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TextIO

COMMANDS = ("login", "accounts", "logout")
REVOKE_PAGE = "https://account.live.com/consent/Manage"


def add_commands(sub: Any) -> None:
    login = sub.add_parser("login", help="sign in with a Microsoft account (a code to enter in a browser) "
                           "and save its tokens for the proxy")
    login.add_argument("--account", help="the name to keep it under (default: the Minecraft profile name)")
    login.add_argument("--config", help="config file to read the accounts section from (default config/proxy.json)")
    listing = sub.add_parser("accounts", help="list the signed-in accounts, their token expiry and the cache file")
    listing.add_argument("--config", help="config file to read the accounts section from")
    logout = sub.add_parser("logout", help="forget a signed-in account's tokens")
    logout.add_argument("name", help="the account, as `mcagent accounts` lists it")
    logout.add_argument("--config", help="config file to read the accounts section from")


def run(args: argparse.Namespace, *, out: TextIO | None = None, err: TextIO | None = None,
        sleep: Callable[[float], None] = time.sleep) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    from proxy.accounts.errors import AccountError
    from proxy.accounts.store import AccountStore
    from proxy.config import ConfigError, load

    try:
        settings = load(Path(args.config) if args.config else None).accounts
    except ConfigError as exc:
        print(f"mcagent: invalid configuration:\n{exc}", file=err)
        return 2
    with AccountStore(settings, sleep=sleep) as store:
        try:
            if args.command == "login":
                return _login(store, args.account, out)
            if args.command == "accounts":
                return _list(store, out)
            return _logout(store, args.name, out, err)
        except AccountError as exc:
            doing = "sign-in failed" if args.command == "login" else "cannot use the account cache"
            print(f"mcagent: {doing}: {exc.message}\n  what to do: {exc.action}", file=err)
            return 1
        except KeyboardInterrupt:
            print("\nmcagent: sign-in cancelled; nothing was saved", file=err)
            return 130


def _login(store: Any, account: str | None, out: TextIO) -> int:
    def show(code: Any) -> None:
        minutes = max(1, round((code.expires_at - time.time()) / 60))
        print(code.message, file=out)
        print(f"Waiting for you to finish signing in (the code is valid for about {minutes} minutes; "
              "Ctrl-C to stop)...", file=out, flush=True)

    session = store.login(account, show)
    under = f" as account {session.account!r}" if session.account != session.name else ""
    print(f"Signed in as {session.name} ({session.uuid}){under}; tokens saved in {store.path}", file=out)
    return 0


def _list(store: Any, out: TextIO) -> int:
    accounts = store.accounts()
    print(f"Account cache: {store.path}", file=out)
    if not accounts:
        print("No accounts signed in; run `mcagent login`.", file=out)
        return 0
    now = time.time()
    for info in accounts:
        label = info.account if info.account == info.name else f"{info.account} ({info.name})"
        state = (f"Minecraft token valid until {_when(info.expires_at)}" if info.expires_at > now
                 else f"Minecraft token expired {_when(info.expires_at)} (renewed when next used)")
        print(f"  {label}  {info.uuid}  {state}; signed in or refreshed {_when(info.refreshed_at)}", file=out)
    return 0


def _logout(store: Any, name: str, out: TextIO, err: TextIO) -> int:
    if not store.logout(name):
        print(f"mcagent: no account {name!r} in {store.path}; `mcagent accounts` lists them", file=err)
        return 1
    print(f"Signed out {name}: its tokens are removed from {store.path}. To revoke mcagent's access at "
          f"Microsoft as well, remove it at {REVOKE_PAGE}", file=out)
    return 0


def _when(unix: float) -> str:
    return datetime.fromtimestamp(unix, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
