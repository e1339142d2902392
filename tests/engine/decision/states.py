"""A decision state for tests: an empty-handed player at the start of the ladder, fields overridable."""
from __future__ import annotations

from engine.decision.state import DecisionState


def state(**kw: object) -> DecisionState:
    base: dict[str, object] = dict(generation=0, tick=0, position=(0, 64, 0), health=20.0, food=20, day=True,
                                   milestone="wood", inventory=(), known=(), drops=0, hostiles=(), table_near=False,
                                   furnace_near=False, smelting=False)
    base.update(kw)
    return DecisionState(**base)  # type: ignore[arg-type]
