"""Moves (``/server``, ``send``, failover) and the login failover with a Microsoft-account upstream:
an online-mode backend's login goes through the session server's join with the account's session,
asked for again (the store refreshes a token near expiry), and nothing secret is said or logged."""
from __future__ import annotations

import uuid
from typing import Any

import pytest
from twisted.internet.defer import Deferred, fail, succeed

from proxy.connection.account_source import AccountUnavailable
from proxy.protocol.framing import Framing, Writer
from proxy.protocol.wire import pack_varint
from proxy.testing import Leg, Rig, build_packet, handshake_packet
from tests.proxy.network.helpers import SERVERS, join, names, next_connection, SURVIVAL
from tests.proxy.test_upstream_account import ACCOUNT_UUID, OnlineServer, Session

FIRST_TOKEN = "mc-first-access-token-5b1e"
FRESH_TOKEN = "mc-refreshed-access-token-9c4d"


class RefreshingAccounts:
    """Stands in for ``AccountSource``: each session asked for is the next of ``tokens`` (as the
    store hands out a refreshed token once the old one is near expiry)."""

    def __init__(self, *tokens: str, join_error: Exception | None = None) -> None:
        self.tokens = list(tokens)
        self.asked: list[str] = []
        self.joins: list[tuple[Session, str]] = []
        self.join_error = join_error

    def session(self, account: str) -> Deferred[Any]:
        self.asked.append(account)
        token = self.tokens.pop(0) if len(self.tokens) > 1 else self.tokens[0]
        return succeed(Session(account, "Notch", ACCOUNT_UUID, token))

    def join(self, session: Session, digest: str) -> Deferred[None]:
        self.joins.append((session, digest))
        return fail(self.join_error) if self.join_error is not None else succeed(None)


class Encrypted:
    """The backend's side of an encrypted leg: what it sends and reads, through one cipher each way."""

    def __init__(self, leg: Leg, secret: bytes, threshold: int = -1) -> None:
        self.leg = leg
        self.writer = Writer()
        self.writer.enable_encryption(secret)
        self.writer.threshold = threshold
        self.reader = Framing()
        self.reader.enable_encryption(secret)
        self.reader.threshold = threshold

    def send(self, packet: bytes) -> None:
        self.leg.proto.dataReceived(self.writer.seal(self.writer.frame(packet)))

    def read(self) -> list[bytes]:
        data = self.leg.transport.value()
        self.leg.transport.clear()
        self.reader.feed(data)
        return [frame.packet for frame in self.reader.frames()]


def _rig(version: str, accounts: RefreshingAccounts, **config: Any) -> Rig:
    config.setdefault("servers", SERVERS)
    config.setdefault("try_order", ["lobby", "survival"])
    return Rig(version, accounts=accounts, login_rate_limit_seconds=0,
               upstream_auth={"mode": "microsoft", "account": "main"}, **config)


def _playing_on_the_offline_lobby(rig: Rig) -> None:
    rig.login("Notch")
    join(rig, 1)
    rig.client.received()


def _online_login(rig: Rig, server: OnlineServer, leg: Leg) -> Encrypted:
    """The backend asks for encryption; the proxy answers (after its join); the leg is encrypted."""
    rig.server_send(server.request(rig))
    (response,) = leg.received()
    server.read_response(rig, response)
    return Encrypted(leg, server.secret)


@pytest.mark.parametrize("version", ["1.12.2", "1.20.1", "1.21.11"])
def test_a_move_to_an_online_mode_backend_joins_with_a_fresh_session(version: str) -> None:
    accounts = RefreshingAccounts(FIRST_TOKEN, FRESH_TOKEN)
    rig = _rig(version, accounts)
    _playing_on_the_offline_lobby(rig)
    assert rig.server.network.send(rig.bridge, "survival") == ["Notch: Moving you to survival..."]
    assert next_connection(rig) == SURVIVAL
    survival = rig.accept_upstream()
    _, login_start = survival.received()
    fields = rig.codec.decode("login", "toServer", "login_start", login_start)
    assert fields["username"] == "Notch"  # as the account, as at the first login
    if "playerUUID" in fields:
        assert uuid.UUID(str(fields["playerUUID"])) == ACCOUNT_UUID
    server = OnlineServer()
    leg = _online_login(rig, server, survival)
    assert accounts.asked == ["main", "main"]  # the session asked for again: a token near expiry is refreshed
    ((session, digest),) = accounts.joins
    assert session.access_token == FRESH_TOKEN and digest == server.digest()
    assert rig.client.received() == []  # nothing of the online-mode login reaches the client
    leg.send(build_packet(rig.codec, "login", "toClient", "success", username="Notch", uuid=str(ACCOUNT_UUID)))
    if rig.codec.table.has_configuration:
        assert "start_configuration" in names(rig, rig.client.received())
        assert names(rig, leg.read(), "login", "toServer") == ["login_acknowledged"]
        rig.client_send(pack_varint(rig.bridge.ids.configuration_acknowledged))
        leg.send(build_packet(rig.codec, "configuration", "toClient", "finish_configuration"))
        rig.client_send(build_packet(rig.codec, "configuration", "toServer", "finish_configuration"))
        assert names(rig, leg.read(), "configuration", "toServer") == ["finish_configuration"]
    leg.send(build_packet(rig.codec, "play", "toClient", "login", entityId=9))
    got = rig.client.received()
    assert "login" in names(rig, got) and "You are on survival now." in " ".join(rig.chat_texts(got))
    assert rig.bridge.backend.name == "survival" and not rig.bridge.states.closed
    # The client's play packets reach survival encrypted, readable only with the secret.
    line = build_packet(rig.codec, "play", "toServer", "keep_alive", keepAliveId=11)
    rig.client_send(line)
    assert leg.read() == [line]
    assert bytes(line) not in survival.transport.value()


def test_a_refused_join_leaves_the_player_where_they_were_and_says_no_token() -> None:
    refused = AccountUnavailable("The session server refused Notch's sign-in (Invalid token.): run "
                                 "`mcagent login --account main` on the proxy's machine.")
    accounts = RefreshingAccounts(FIRST_TOKEN, FRESH_TOKEN, join_error=refused)
    rig = _rig("1.20.1", accounts)
    _playing_on_the_offline_lobby(rig)
    old = rig.upstream
    rig.server.network.switch(rig.bridge, "survival")
    survival = rig.accept_upstream()
    survival.received()
    rig.server_send(OnlineServer().request(rig))
    said = " ".join(rig.chat_texts(rig.client.received()))
    assert "Could not move you to survival: its online-mode login failed: The session server refused" in said
    assert FIRST_TOKEN not in said and FRESH_TOKEN not in said
    assert survival.transport.disconnecting and rig.bridge.backend.name == "lobby"
    assert rig.bridge.account_waiter is None and not old.transport.disconnecting


def test_a_failover_to_an_online_mode_backend_joins_too() -> None:
    accounts = RefreshingAccounts(FIRST_TOKEN, FRESH_TOKEN)
    rig = _rig("1.20.1", accounts)
    _playing_on_the_offline_lobby(rig)
    rig.server_send(rig.codec.kick("Server closed"))
    survival = rig.accept_upstream()
    survival.received()
    leg = _online_login(rig, OnlineServer(), survival)
    assert [s.access_token for s, _ in accounts.joins] == [FRESH_TOKEN]
    leg.send(build_packet(rig.codec, "login", "toClient", "success", username="Notch", uuid=str(ACCOUNT_UUID)))
    leg.send(build_packet(rig.codec, "play", "toClient", "login", entityId=4))
    assert "You are on survival now." in " ".join(rig.chat_texts(rig.client.received()))


def test_a_login_failover_with_the_account_answers_the_next_backend_as_the_account(logged: list[str]) -> None:
    """The lobby shuts down during the login; survival (online mode) is joined with the account, and
    its token shows nowhere."""
    accounts = RefreshingAccounts(FIRST_TOKEN)
    rig = _rig("1.21.11", accounts)
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol))
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_start", username="Notch",
                                 playerUUID=str(uuid.uuid4())))
    lobby = rig.accept_upstream()
    lobby.received()
    rig.server_send(build_packet(rig.codec, "login", "toClient", "disconnect", reason='{"text":"Server closed"}'))
    survival = rig.accept_upstream()
    _, login_start = survival.received()
    assert rig.codec.decode("login", "toServer", "login_start", login_start)["username"] == "Notch"
    leg = _online_login(rig, OnlineServer(), survival)
    assert [s.access_token for s, _ in accounts.joins] == [FIRST_TOKEN]
    leg.send(build_packet(rig.codec, "login", "toClient", "success", username="Notch", uuid=str(ACCOUNT_UUID)))
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_acknowledged"))
    leg.send(build_packet(rig.codec, "configuration", "toClient", "finish_configuration"))
    rig.client_send(build_packet(rig.codec, "configuration", "toServer", "finish_configuration"))
    leg.send(build_packet(rig.codec, "play", "toClient", "login", entityId=4))
    chat = " ".join(rig.chat_texts(rig.client.received()))
    assert "lobby is unavailable (Server closed); you are on survival." in chat
    for text in (chat, "\n".join(logged), repr(rig.bridge.login.account)):
        assert FIRST_TOKEN not in text


def test_every_server_down_with_the_account_says_so_without_a_secret(logged: list[str]) -> None:
    accounts = RefreshingAccounts(FIRST_TOKEN)
    rig = _rig("1.20.1", accounts)
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol))
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_start", username="Notch"))
    rig.refuse_upstream()
    rig.accept_upstream()
    rig.server_send(build_packet(rig.codec, "login", "toClient", "disconnect",
                                 reason='{"text":"Server is restarting"}'))
    kick = b"".join(rig.client.received())
    reason = rig.bridge.close_reason or ""
    assert reason.startswith("No server of the network could take you: lobby cannot be reached")
    assert b"survival is unavailable (Server is restarting)" in kick
    for text in (reason, kick.decode("utf-8", "replace"), "\n".join(logged)):
        assert FIRST_TOKEN not in text
