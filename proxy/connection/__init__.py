"""One player's connection through the proxy: the sans-IO core, its phases and its two legs.

``core`` holds the ``Connection`` (state, both legs' framing, the transitions of
``proxy.protocol.states``); ``login`` and ``play`` are its phases, ``actuator`` carries out
the engine's actions on it; ``legs`` are the thin Twisted protocols around it. Login-time
helpers: ``forwarding``, ``profile``, ``status``, ``session_server``,
``upstream_encryption``; signed chat: ``chat_signing``, ``signed_chat_relay``.

May import: ``proxy.protocol``, ``proxy.codec``, ``proxy.windows``, ``proxy.config``,
``proxy.accounts`` (its errors and values), ``proxy.agent`` and ``engine``.
"""
