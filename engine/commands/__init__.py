"""Player commands: one table (``table``) and the entries that ship with mcagent (``builtin``)."""
