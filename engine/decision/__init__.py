"""The decision layer (autopilot): catalog, legal actions, providers, ladder, Autopilot.

``knowledge`` (recipes, dig times) → ``acts`` (action values beyond movement) →
``catalog`` (the 14 actions, legal filter) → ``state`` (the concise decision
state) → ``providers`` (mock / replay / api) → ``executors`` (actions as
per-tick state machines on engine.motion) → ``ladder`` → ``autopilot``.
"""
