"""Windows and inventory: hotbar swaps, crafting and smelting as the window clicks a client sends.

The sequencer plans clicks (``plans``), sends them (``clicks``), reads the server's
answers (``packets``) and keeps the proxy's copy of the player's inventory
(``inventory_mirror``).

May import: ``proxy.protocol``, ``proxy.codec`` and ``engine``.
"""
