"""Where a lava or water hazard episode puts the player: the surface pool, or a misstep at depth.

How this works: every ``SimOptions.push_every`` ticks a hazard episode moves the player into its
fluid (``push_target``). On the surface — the old worlds, or the player under the open sky —
that is the pool the generation dug beside spawn (the surface ladder's hazard, as it always
was). Below ground it is a misstep, not a teleport: only when the hazard's fluid lies within
``REACH`` steps of the player through open cells (air or fluid, never through rock) is the
player put into the nearest such cell; a player whose tunnels keep away from lava and water is
never pushed. A push every 30 s back to the surface pool would start every underground goal
again from the top, which is no hazard a miner meets.
"""
from __future__ import annotations

import math
from collections import deque
from typing import Protocol

from engine.sim.records import PlayerBody, SimOptions

REACH = 3                   # open steps from the feet within which a fluid is a misstep away
Pos = tuple[int, int, int]
SIDES = ((1, 0, 0), (-1, 0, 0), (0, 0, 1), (0, 0, -1), (0, -1, 0), (0, 1, 0))


class Host(Protocol):
    """What of the simulated server this needs (``engine.sim.server.ServerWorld``)."""

    options: SimOptions
    player: PlayerBody
    features: dict[str, list[Pos]]

    def block(self, x: int, y: int, z: int) -> str | None: ...

    def solid(self, x: int, y: int, z: int) -> bool: ...


def push_target(world: Host, below: bool) -> Pos | None:
    """The cell a push puts the player in (its feet), or None for no push this time. ``below``: the
    player is under ground (no sky over the feet) in a world that reaches below the surface."""
    hazard = world.options.hazard
    if hazard not in ("lava", "water"):
        return None
    if not below:
        sites = world.features.get(hazard, [])
        return sites[0] if sites else None
    return nearest_fluid(world, hazard)


def nearest_fluid(world: Host, fluid: str) -> Pos | None:
    """The nearest cell of ``fluid`` within REACH open steps of the player's feet (breadth first, so
    the fewest steps; ties in the order of ``SIDES``), or None."""
    p = world.player
    start = (math.floor(p.x), math.floor(p.y + 1e-6), math.floor(p.z))
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        (x, y, z), steps = queue.popleft()
        if world.block(x, y, z) == fluid:
            return (x, y, z)
        if steps >= REACH:
            continue
        for dx, dy, dz in SIDES:
            n = (x + dx, y + dy, z + dz)
            if n not in seen and not world.solid(*n) and world.block(*n) is not None:
                seen.add(n)
                queue.append((n, steps + 1))
    return None
