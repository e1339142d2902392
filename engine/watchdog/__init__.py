"""Watchdogs of the autopilot: stuck, action loops, death and the kill switch (``machine``)."""
