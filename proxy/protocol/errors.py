"""The two kinds of protocol error, after h11: the peer's fault and ours.

``PeerError`` means the bytes a peer sent are bad (oversized, truncated, invalid);
the connection that sent them closes with the message as its reason. ``LayoutError``
means our own data or code cannot describe a packet; it never reaches a peer.
"""


class PeerError(Exception):
    """Malformed or oversized input from a peer: close that connection."""


class LayoutError(Exception):
    """A packet layout uses a type this codec does not implement."""
