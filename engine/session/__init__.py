"""A player's engine session: events in, actions out (``Session`` in ``core``).

| module | what lives there |
|---|---|
| ``core`` | ``Session``: events and the tick, who moves the player (kill switch > reflex > autopilot or a command driver) |
| ``chat`` | ``ChatPath``: a chat line's way from the packet to the answer, in one pass; model calls and their replies |
| ``commands`` | ``SessionCommands``: what ``!help``, ``!stop``, ``!eat``, ``!goto``, ``!follow``, ``!reflex``, ``!autopilot``, ``!admin login`` do |
| ``parts`` | ``SessionConfig``, the ``Driver`` protocol, ``AdminState`` |
"""
from __future__ import annotations

from engine.session.chat import ChatPath
from engine.session.commands import SessionCommands
from engine.session.core import Session
from engine.session.parts import AdminState, Assistant, Driver, SessionConfig

__all__ = ["AdminState", "Assistant", "ChatPath", "Driver", "Session", "SessionCommands", "SessionConfig"]
