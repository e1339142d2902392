"""Which endpoint reaches a backend: an address is dialled directly, a name is resolved."""

from __future__ import annotations

from twisted.internet.endpoints import HostnameEndpoint, TCP4ClientEndpoint, TCP6ClientEndpoint
from twisted.internet.task import Clock

from proxy.connection.legs import backend_endpoint


def test_an_ipv4_address_is_dialled_without_the_hostname_endpoints_attempt_tick() -> None:
    endpoint = backend_endpoint(Clock(), "127.0.0.1", 25565, 5.0)
    assert isinstance(endpoint, TCP4ClientEndpoint)


def test_an_ipv6_address_gets_the_ipv6_endpoint() -> None:
    assert isinstance(backend_endpoint(Clock(), "::1", 25565, 5.0), TCP6ClientEndpoint)


def test_a_host_name_is_resolved_by_the_hostname_endpoint() -> None:
    assert isinstance(backend_endpoint(Clock(), "survival.example", 25565, 5.0), HostnameEndpoint)
