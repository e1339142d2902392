"""A network of backends behind one proxy: the servers table, switching, failover, transfers
(docs/network.md)."""
