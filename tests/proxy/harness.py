"""The proxy's test rig, shipped in ``proxy.testing`` (kept here for the tests' imports)."""
from __future__ import annotations

from proxy.testing import Leg, Rig

__all__ = ["Leg", "Rig"]
