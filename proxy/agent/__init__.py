"""The proxy's side of the engine: building each player's assistant, the model service, the autopilot's host.

These run engine code inside the reactor: model calls on the asyncio loop, episode logs in
the thread pool, never on the tick path (invariant 4).

May import: ``proxy.config`` and ``engine``.
"""
