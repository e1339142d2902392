"""What every part of a player's session reads: its config, what a driver is, who is an admin."""
from __future__ import annotations

from typing import Protocol

import attrs

from engine.actions import Action
from engine.admin_proof import AdminProof
from engine.assistant import LocalAssistant
from engine.world.snapshot import WorldSnapshot

Assistant = LocalAssistant  # what answers requests and adds its commands and its modules' to the table


@attrs.frozen
class SessionConfig:
    command_prefix: str = "!"
    address_prefix: str = "@ai "
    version: str | None = None  # the client's Minecraft version: selects the block table
    # The client's Minecraft version even where no block world is kept (``version`` is None
    # then): selects the item names ("<item> id" answers this version's id).
    game_version: str | None = None
    reflexes: bool = False  # reflexes on from the start (off for a human player by default)
    server_command: bool = False  # the proxy fronts several servers: /server is its command


class Driver(Protocol):
    """Something that moves the player while it has control (a path follower, a reflex)."""

    name: str

    def step(self, snapshot: WorldSnapshot, now: float) -> list[Action]:
        """This tick's actions (at most one InjectMovement); called at 20 Hz."""
        ...

    def finished(self) -> str | None:
        """None while running; otherwise why it ended ("arrived", "no path", ...)."""
        ...

    def server_moved(self, x: float, y: float, z: float, now: float) -> None:
        """The server corrected the position (a teleport): re-plan from there."""
        ...


@attrs.define
class AdminState:
    """Whether this player is an authenticated admin, the one fact the command table's access check
    reads: true from the start where names are verified (online mode), else after ``!admin login``
    (``proof``)."""

    granted: bool = False
    proof: AdminProof | None = None

    @property
    def pending(self) -> bool:
        """A listed admin who has not proved it yet (offline mode): the denial says how."""
        return self.proof is not None and self.proof.listed and not self.granted
