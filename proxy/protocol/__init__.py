"""The wire, for every version: framing, compression, AES/CFB8, VarInts and NBT, the
layout compiler over the generated tables, the handshake, the accepted versions and the
connection states as one table.

May import: nothing else in ``proxy``.
"""
