"""Assistant modules: what the assistant can do, and how each one is routed.

``declarations`` is the registration API, ``registry`` holds the modules
(frozen at start), ``builtin`` has the modules that ship with mcagent.
"""
