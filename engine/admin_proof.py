"""Proof that a player listed as an admin is that admin, for one session.

How this works: in offline mode a name proves nothing (any client can log in as
any name), so a listed admin must log in once per session with the admin
secret: ``!admin login <secret>`` or ``/agent admin login <secret>``. The Session
hands the line to ``AdminProof.login``; on success the Session becomes an
authenticated admin (``Session.admin``), which is what every admin check reads.
In online mode the name was verified with Mojang, so no proof is asked for and
the Session starts authenticated. Wrong secrets back off per player name in a
``Backoff`` shared by every session (reconnecting does not reset it); while a
name is locked, attempts are refused without comparing. The secret is compared
in constant time and never appears in a reply.
"""
from __future__ import annotations

import hmac

from engine.backoff import Backoff


class AdminProof:
    def __init__(self, player: str, listed: bool, secret: str | None, backoff: Backoff) -> None:
        self.key = player.lower()
        self.listed = listed
        self._secret = secret.encode("utf-8") if secret else None
        self.backoff = backoff

    def login(self, attempt: str, now: float) -> tuple[bool, str]:
        """(granted, what to tell the player)."""
        wait = self.backoff.locked_for(self.key, now)
        if wait > 0:
            return False, f"Too many wrong admin secrets; try again in {wait:.0f} s."
        if self._secret is None:
            return False, ("No admin secret is configured on this proxy (admin_secret or MCAGENT_ADMIN_SECRET); "
                           "admin commands work from the console only.")
        right = hmac.compare_digest(attempt.strip().encode("utf-8"), self._secret)
        if right and self.listed:
            self.backoff.succeeded(self.key)
            return True, "Admin login accepted for this session."
        # A right secret from an unlisted name counts as a failure too: both are needed,
        # and the answer does not say which one was wrong.
        _, locked = self.backoff.failed(self.key, now)
        later = f" Wait {locked:.0f} s before the next try." if locked else ""
        return False, "Admin login refused." + later
