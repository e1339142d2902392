"""Reflexes: fast protective actions on the tick (System 0 of the seed).

The seam for the proxy and the Session: build a ``ReflexInputs`` each tick
(``engine.reflex.inputs``), call ``ReflexEngine.decide(inputs, terrain, now)``
and act on the ``ReflexDecision``: inject ``move`` as a movement packet (and
hold the client's own while ``driving``), send ``items`` (hotbar slot, use
item) in order, and show ``notice.text(locale)`` when ``started``. Tell the
engine about block changes (``block_changed``), server teleports
(``teleported``) and the kill switch (``cancel``).
"""
