"""Running the proxy: the command line, the admin console, metrics, log redaction, the Node peers.

The top of the house: these assemble a ``proxy.server.ProxyServer`` and watch it.

May import: everything in ``proxy`` and ``engine``.
"""
