"""The decision layer (autopilot): catalog, legal actions, providers, ladder, goals, Autopilot.

``knowledge`` (recipes, dig times; the goals' recipes from engine.planning) → ``ladder``
→ ``goals`` (what to get: the iron pickaxe's ladder or a plan's) → ``acts`` (action values
beyond movement) → ``catalog`` (the 15 actions, legal filter) → ``state`` (the concise
decision state) → ``providers`` (mock / replay / api) → ``executors`` (actions as per-tick
state machines on engine.motion) → ``autopilot``.
"""
