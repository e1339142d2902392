"""A headless simulated world that plays the server for the engine.

``world.SimWorld`` (terrain, day cycle, hunger, mobs, drops, recipes: the
server's side) consumes the engine's action values and produces engine
events; ``episode`` wires it to the real ``engine.session.Session`` (reflexes)
and ``engine.decision.autopilot.Autopilot`` one tick at a time; ``cli`` is
``mcagent sim``.
"""
