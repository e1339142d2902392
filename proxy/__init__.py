"""The proxy: Twisted on the asyncio reactor around a sans-IO connection per player.

Packages, lowest first; each may import only those before it (and ``engine``), which
``tests/test_house.py`` checks:

* ``protocol`` — the wire: framing, compression, encryption, NBT, layouts, the
  generated tables, the handshake, the accepted versions, the connection states.
* ``codec`` — what each version's packets mean: engine events in, actions out, chunks,
  chat components, the command tree.
* ``windows`` — inventory and window clicks for the agent's crafting and smelting.
* ``accounts`` — the player's Microsoft account: sign-in, token cache, refresh.
* ``config`` (module) — ``config/proxy.json`` validated at the edge.
* ``agent`` — the engine hosted in the reactor: assistants, the model service, the
  autopilot's providers and logs.
* ``connection`` — one player's connection: the core, login, play, the actuator, the
  two legs.
* ``server`` (module) — the listening side: admission, the tick, every connection.
* ``dashboard`` — the web dashboard: snapshots of the server and its sessions, episode
  replays, served by twisted.web (docs/dashboard.md).
* ``operations`` — the command line, the console, metrics, log redaction.
* ``testing`` (module) — the rig proxy tests use.
"""
