"""Which kicks mean "this server is going away" (the player is moved on) and which mean what
they say (a ban, a full server: shown to the player as the backend meant it).

A backend that stops or restarts kicks everyone with a fixed message: vanilla's
``multiplayer.disconnect.server_shutdown`` ("Server closed"), Spigot's and Paper's
"Server closed" / "Server is restarting" (their ``stop`` and ``restart`` messages), a
plugin's "shutting down"; and, at login, Paper's "Server is still starting! Please wait before
reconnecting." (not there yet: the next server of ``try`` is). The reason is matched,
case-insensitively, against these phrases; anything else is a kick for a reason. Both the
login's failover (``proxy.connection.login_failover``) and the network's
(``proxy.network.switchboard``) ask it.
"""
from __future__ import annotations

SHUTDOWN_PHRASES: tuple[str, ...] = (
    "multiplayer.disconnect.server_shutdown",
    "server closed",
    "server is restarting",
    "server restarting",
    "restarting",
    "shutting down",
    "server shutdown",
    "server is stopping",
    "proxy lost connection",
    "still starting",
)


def is_shutdown(reason: str) -> bool:
    """Whether a kick's reason (plain text, or a translation key) says the server is going away."""
    text = " ".join(reason.lower().split())
    return any(phrase in text for phrase in SHUTDOWN_PHRASES)
