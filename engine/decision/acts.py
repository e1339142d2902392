"""Actions the autopilot emits beyond movement: dig, place, craft, smelt, attack, respawn.

Each is a frozen value the proxy's version codec turns into packets (see the
docstrings), and that the headless simulator executes as a server would. The
movement, hotbar and use-item actions are ``engine.actions``' own.
"""
from __future__ import annotations

import attrs

from engine.actions import Action


@attrs.frozen
class StartDigging:
    """player_digging status 0 (start) at a block, on ``face`` (0 down .. 5 east), with an arm swing."""

    x: int
    y: int
    z: int
    face: int = 1


@attrs.frozen
class FinishDigging:
    """player_digging status 2 (finish) at the same block: sent after the dig time elapsed."""

    x: int
    y: int
    z: int
    face: int = 1


@attrs.frozen
class SwingArm:
    """arm_animation (main hand): vanilla clients swing every tick while digging."""


@attrs.frozen
class PlaceBlock:
    """Use the held block item on a face of the block ``against``: block_place / use_item_on."""

    x: int              # where the block will be
    y: int
    z: int
    against: tuple[int, int, int]
    face: int           # face of ``against`` that is clicked (1: top)
    item: str


@attrs.frozen
class UseBlock:
    """Use (right-click) a block with the hand: lie down in a bed. use_item_on, as PlaceBlock is."""

    x: int
    y: int
    z: int
    face: int = 1           # the face clicked (1: top)


@attrs.frozen
class SwapToHotbar:
    """window_click mode 2 (number key) in window 0: swap inventory ``slot`` with hotbar ``hotbar``."""

    slot: int
    hotbar: int


@attrs.frozen
class CraftItem:
    """Craft ``times`` × ``item``: open the crafting table at ``table`` (use_item_on) if given,
    else the 2×2 inventory grid; place the ingredients with ordinary clicks in the recipe's
    shape; shift-click the result slot; close the window (``proxy.windows``)."""

    item: str
    times: int
    table: tuple[int, int, int] | None


@attrs.frozen
class SmeltStart:
    """Open the furnace at ``furnace`` (use_item_on), click ``count`` × ``item`` into the input
    slot and ``fuel_count`` × ``fuel`` into the fuel slot, close."""

    furnace: tuple[int, int, int]
    item: str
    count: int
    fuel: str
    fuel_count: int


@attrs.frozen
class SmeltCollect:
    """Open the furnace at ``furnace`` and shift-click its output slot, close."""

    furnace: tuple[int, int, int]


@attrs.frozen
class AttackEntity:
    """use_entity (attack) on an entity, with an arm swing."""

    entity_id: int


@attrs.frozen
class Respawn:
    """client_command 0 (perform respawn) after death."""


AgentOp = StartDigging | FinishDigging | SwingArm | PlaceBlock | UseBlock | SwapToHotbar | CraftItem | SmeltStart \
    | SmeltCollect | AttackEntity | Respawn
AgentAction = Action | AgentOp
