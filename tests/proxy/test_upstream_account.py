"""The server leg logs in as a Microsoft account (upstream_auth microsoft), on every login shape.

The rig plays an online-mode server: it sends an encryption request with its own RSA key,
decrypts the proxy's answer with its private key, and from then on speaks AES/CFB8 to the
proxy, while the client leg stays plain (an offline client on loopback).
"""
from __future__ import annotations

import hashlib
import uuid
from typing import Any

import attrs
import pytest
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from twisted.internet.defer import Deferred, fail, succeed

from proxy.connection.account_source import AccountUnavailable
from proxy.protocol.framing import Framing, Writer
from proxy.testing import Rig, build_packet, handshake_packet, packet_id

ACCOUNT_UUID = uuid.UUID("0f4e2c6a-9d1b-4c3e-8a7f-2b5d6e8f9a10")
# One of each login shape: plain (1.8), key in login start (1.19), the 1.19.1 switch in the
# encryption response, optional UUID (1.19.3), required UUID + configuration (1.20.2),
# shouldAuthenticate (1.20.5+), the newest.
VERSIONS = ["1.8.8", "1.12.2", "1.19", "1.19.2", "1.19.4", "1.20.2", "1.20.6", "1.21.11", "26.1", "26.2"]


@attrs.frozen
class Session:
    account: str
    name: str
    uuid: uuid.UUID
    access_token: str = attrs.field(repr=False)
    chat_key: Any = None


class FakeAccounts:
    """Stands in for ``AccountSource``: a session per account and the joins asked for."""

    def __init__(self, session: Session | None, join_error: Exception | None = None) -> None:
        self._session = session
        self.join_error = join_error
        self.asked: list[str] = []
        self.joins: list[tuple[Session, str]] = []
        self.pending_join: Deferred[None] | None = None
        self.hold_join = False

    def session(self, account: str) -> Deferred[Any]:
        self.asked.append(account)
        if self._session is None:
            return fail(AccountUnavailable(f"The proxy has no Microsoft account named {account} signed in: "
                                           f"run `mcagent login --account {account}` on its machine."))
        return succeed(self._session)

    def join(self, session: Session, digest: str) -> Deferred[None]:
        self.joins.append((session, digest))
        if self.join_error is not None:
            return fail(self.join_error)
        if self.hold_join:
            self.pending_join = Deferred()
            return self.pending_join
        return succeed(None)


class OnlineServer:
    """The upstream side of the rig as an online-mode server."""

    def __init__(self) -> None:
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
        self.der = self.key.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
        self.token = b"\x01\x02\x03\x04"
        self.secret = b""

    def request(self, rig: Rig) -> bytes:
        fields: dict[str, Any] = {"serverId": "", "publicKey": self.der, "verifyToken": self.token}
        if "shouldAuthenticate" in rig.codec.field_types("login", "toClient", "encryption_begin"):
            fields["shouldAuthenticate"] = True
        return build_packet(rig.codec, "login", "toClient", "encryption_begin", **fields)

    def read_response(self, rig: Rig, packet: bytes) -> None:
        fields = rig.codec.decode("login", "toServer", "encryption_begin", packet)
        token = fields["verifyToken"] if "verifyToken" in fields else fields["crypto"]["verifyToken"]
        self.secret = self.key.decrypt(fields["sharedSecret"], padding.PKCS1v15())
        assert self.key.decrypt(token, padding.PKCS1v15()) == self.token

    def digest(self) -> str:
        number = int.from_bytes(hashlib.sha1(b"" + self.secret + self.der).digest(), "big", signed=True)
        return format(number, "x") if number >= 0 else "-" + format(-number, "x")


def _login_start(rig: Rig, name: str) -> None:
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol))
    fields: dict[str, Any] = {"username": name}
    if "playerUUID" in rig.codec.field_types("login", "toServer", "login_start"):
        fields["playerUUID"] = str(uuid.uuid4())  # an offline client's own idea of its UUID
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_start", **fields))


def _rig(version: str, accounts: FakeAccounts, **config: Any) -> Rig:
    config.setdefault("upstream_auth", {"mode": "microsoft", "account": "main"})
    return Rig(version, accounts=accounts, **config)


@pytest.mark.parametrize("version", VERSIONS)
def test_the_server_leg_logs_in_as_the_account_and_is_encrypted(version: str) -> None:
    accounts = FakeAccounts(Session("main", "Notch", ACCOUNT_UUID, "mc-access-token"))
    rig = _rig(version, accounts)
    _login_start(rig, "notch")  # names compare as the game's do
    assert accounts.asked == ["main"]
    upstream = rig.accept_upstream()
    handshake, login_start = upstream.received()
    fields = rig.codec.decode("login", "toServer", "login_start", login_start)
    assert fields["username"] == "Notch"
    if "playerUUID" in fields:
        assert uuid.UUID(str(fields["playerUUID"])) == ACCOUNT_UUID
    server = OnlineServer()
    rig.server_send(server.request(rig))
    assert rig.client.received() == []  # the client never sees the server's encryption request
    ((session, digest),) = accounts.joins
    assert session.access_token == "mc-access-token"
    (response,) = upstream.received()
    server.read_response(rig, response)
    assert digest == server.digest()
    # From here the server leg is AES/CFB8 both ways; the client leg stays plain.
    to_proxy = Writer()
    to_proxy.enable_encryption(server.secret)
    success = build_packet(rig.codec, "login", "toClient", "success", username="Notch",
                           uuid=str(ACCOUNT_UUID))
    rig.upstream.proto.dataReceived(to_proxy.seal(to_proxy.frame(success)))
    (to_client,) = rig.client.received()
    assert packet_id(to_client) == rig.codec.table.packet_id("login", "toClient", "success")
    if rig.codec.table.has_configuration:
        rig.client_send(build_packet(rig.codec, "login", "toServer", "login_acknowledged"))
    else:
        chat_name = "chat_message" if rig.codec.table.packet_id("play", "toServer", "chat_message") is not None \
            else "chat"
        fields = {"message": "hello"}
        rig.client_send(build_packet(rig.codec, "play", "toServer", chat_name, **fields))
    from_proxy = Framing()
    from_proxy.enable_encryption(server.secret)
    from_proxy.feed(rig.upstream.transport.value())
    frames = list(from_proxy.frames())
    assert len(frames) == 1  # the login acknowledgement or the chat line, readable only with the secret
    assert b"hello" not in rig.upstream.transport.value()


@pytest.mark.parametrize("version", ["1.20.6", "26.1"])
def test_a_server_that_needs_no_authentication_is_not_joined(version: str) -> None:
    accounts = FakeAccounts(Session("main", "Notch", ACCOUNT_UUID, "mc-access-token"))
    rig = _rig(version, accounts)
    _login_start(rig, "Notch")
    upstream = rig.accept_upstream()
    upstream.received()
    server = OnlineServer()
    rig.server_send(build_packet(rig.codec, "login", "toClient", "encryption_begin", serverId="",
                                 publicKey=server.der, verifyToken=server.token, shouldAuthenticate=False))
    assert accounts.joins == []
    (response,) = upstream.received()
    server.read_response(rig, response)


def test_the_response_waits_for_the_join() -> None:
    accounts = FakeAccounts(Session("main", "Notch", ACCOUNT_UUID, "mc-access-token"))
    accounts.hold_join = True
    rig = _rig("1.21.11", accounts)
    _login_start(rig, "Notch")
    upstream = rig.accept_upstream()
    upstream.received()
    rig.server_send(OnlineServer().request(rig))
    assert upstream.received() == []  # not before the session server said yes
    assert accounts.pending_join is not None
    accounts.pending_join.callback(None)
    assert len(upstream.received()) == 1


def test_a_refused_join_tells_the_player_what_to_do() -> None:
    refused = AccountUnavailable("The session server refused Notch's sign-in (Invalid token.): the token is "
                                 "expired or revoked. On the proxy's machine run `mcagent login --account main`, "
                                 "then reconnect.")
    accounts = FakeAccounts(Session("main", "Notch", ACCOUNT_UUID, "mc-access-token"), join_error=refused)
    rig = _rig("1.20.1", accounts)
    _login_start(rig, "Notch")
    upstream = rig.accept_upstream()
    upstream.received()
    rig.server_send(OnlineServer().request(rig))
    (kick,) = rig.client.received()
    assert b"mcagent login --account main" in kick
    assert b"mc-access-token" not in kick
    assert rig.client.transport.disconnecting and upstream.received() == []


def test_without_a_signed_in_account_the_player_is_told_how_to_sign_in() -> None:
    rig = _rig("1.21.11", FakeAccounts(None))
    _login_start(rig, "Notch")
    (kick,) = rig.client.received()
    assert b"mcagent login --account main" in kick
    assert rig.reactor.tcpClients == []  # no upstream was opened


def test_another_name_than_the_accounts_is_refused() -> None:
    rig = _rig("1.21.11", FakeAccounts(Session("main", "Notch", ACCOUNT_UUID, "t")))
    _login_start(rig, "Steve")
    (kick,) = rig.client.received()
    assert b"log in with the name Notch" in kick
    assert rig.reactor.tcpClients == []


def test_a_local_name_may_stand_for_the_account() -> None:
    accounts = FakeAccounts(Session("main", "Notch", ACCOUNT_UUID, "t"))
    rig = _rig("1.21.11", accounts, upstream_auth={"mode": "microsoft", "account": "main", "local_name": "Steve"})
    _login_start(rig, "Steve")
    upstream = rig.accept_upstream()
    _, login_start = upstream.received()
    assert rig.codec.decode("login", "toServer", "login_start", login_start)["username"] == "Notch"


@pytest.mark.parametrize(("local_name", "first", "second", "refusal"), [
    # The same name twice meets the proxy's same-name check first.
    (None, "Notch", "Notch", b"Notch is already connected through this proxy"),
    # Both names may play as the account (its own and local_name), but not at once: the
    # second login would take the account over from the first.
    ("Steve", "Notch", "Steve", b"The Microsoft account main is already playing through this proxy"),
])
def test_a_second_client_for_the_account_is_refused(local_name: str | None, first: str, second: str,
                                                    refusal: bytes) -> None:
    accounts = FakeAccounts(Session("main", "Notch", ACCOUNT_UUID, "t"))
    rig = _rig("1.21.11", accounts,
               upstream_auth={"mode": "microsoft", "account": "main", "local_name": local_name})
    _login_start(rig, first)
    rig.accept_upstream()
    other = rig.another()
    _login_start(other, second)
    (kick,) = other.client.received()
    assert refusal in kick
    assert accounts.asked == ["main"]


def test_an_online_server_without_an_account_names_both_ways_out() -> None:
    rig = Rig("1.21.11")
    _login_start(rig, "Notch")
    upstream = rig.accept_upstream()
    upstream.received()
    rig.server_send(OnlineServer().request(rig))
    (kick,) = rig.client.received()
    assert b"upstream_auth" in kick and b"online-mode=false" in kick


def test_an_online_client_leg_and_an_account_server_leg_use_separate_secrets() -> None:
    import os

    from cryptography.hazmat.primitives.serialization import load_der_public_key

    accounts = FakeAccounts(Session("main", "Notch", ACCOUNT_UUID, "t"))
    rig = _rig("1.20.1", accounts, online_mode=True)
    rig.server.verify_session = lambda name, digest: succeed(  # type: ignore[method-assign]
        {"id": ACCOUNT_UUID.hex, "name": "Notch", "properties": []})
    _login_start(rig, "Notch")
    (request,) = rig.client.received()
    fields = rig.codec.decode("login", "toClient", "encryption_begin", request)
    key = load_der_public_key(fields["publicKey"])
    client_secret = os.urandom(16)
    rig.client_send(build_packet(rig.codec, "login", "toServer", "encryption_begin",
                                 sharedSecret=key.encrypt(client_secret, padding.PKCS1v15()),  # type: ignore[union-attr]
                                 verifyToken=key.encrypt(fields["verifyToken"], padding.PKCS1v15())))  # type: ignore[union-attr]
    upstream = rig.accept_upstream()
    upstream.received()
    server = OnlineServer()
    rig.server_send(server.request(rig))
    (response,) = upstream.received()
    server.read_response(rig, response)
    assert server.secret != client_secret


def test_the_accounts_token_is_in_no_dump_status_or_metrics_while_it_plays() -> None:
    # Invariant 8 on the owner's surfaces: the console's dump, sessions and status, and the
    # metrics page, read while a player is in play through the account.
    from proxy.operations.console import ConsoleCommands
    from proxy.operations.metrics import Metrics

    token = "mc-access-token-9f3a61c2e07b"
    accounts = FakeAccounts(Session("main", "Notch", ACCOUNT_UUID, token))
    rig = _rig("1.12.2", accounts, console={"port": 1234, "token": "console-token-5d1e"})
    _login_start(rig, "Notch")
    upstream = rig.accept_upstream()
    upstream.received()
    server = OnlineServer()
    rig.server_send(server.request(rig))
    (response,) = upstream.received()
    server.read_response(rig, response)
    to_proxy = Writer()
    to_proxy.enable_encryption(server.secret)
    success = build_packet(rig.codec, "login", "toClient", "success", username="Notch", uuid=str(ACCOUNT_UUID))
    rig.upstream.proto.dataReceived(to_proxy.seal(to_proxy.frame(success)))
    assert [c.player_name for c in rig.server.connections if c.session is not None] == ["Notch"]

    console = ConsoleCommands(rig.server, lambda: ["reloaded"], lambda: None)
    metrics = Metrics()
    metrics.collect(rig.server)
    surfaces = {line: "\n".join(console.execute(line)) for line in ("dump", "sessions", "status")}
    surfaces["metrics"] = metrics.render().decode()
    assert "Notch" in surfaces["sessions"] and "mcagent_connected_players 1.0" in surfaces["metrics"]
    for name, text in surfaces.items():
        assert token not in text and "console-token-5d1e" not in text, name
