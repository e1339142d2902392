"""What the packets of each version mean.

The versioned codec turns the packets the proxy subscribes to into engine events and the
engine's actions into packets; chunks, chat components and the command tree are its
larger formats. Everything here is read from the generated tables, never from version
checks in handlers.

May import: ``proxy.protocol`` and ``engine``; nothing else in ``proxy``.
"""
