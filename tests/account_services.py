"""Real HTTP servers on loopback playing Microsoft sign-in, Xbox Live, XSTS, Minecraft services and the session server.

    with AccountServices() as services:
        services.add_account("Steve")
        services.next_sign_in("Steve", pending=2)          # the device code is authorised on the 3rd poll
        store = AccountStore(services.settings(tmp_path / "accounts.json"), sleep=..., clock=...)
        store.login(None, show=print)

or, for a proxy in an e2e test, an account already signed in:

        token = services.signed_in_cache(tmp_path / "accounts.json", "Steve")   # writes the cache
        ... config {"accounts": services.config_section(cache_file), "session_server": services.base_url}
        ... a Minecraft server peer asks services.base_url + "/session/minecraft/hasJoined"
        services.joins                    # every accepted join (Join: name, uuid, server_id)
        services.revoke_minecraft_tokens("Steve")    # the next join is refused as Mojang does

One server answers every endpoint at its real path (``/oauth20_token.srf``,
``/xsts/authorize``, ``/session/minecraft/join``, ...). Tokens are random and
prefixed by kind (``msa-at-``, ``msa-rt-``, ``xbl-``, ``xsts-``, ``mc-``); every
one issued is in ``issued``, so a test can look for any of them in text. Each
endpoint checks what the real one would (the RPS ticket's prefix, the XSTS
relying party, the identity token, the bearer token, the client id and scope);
``fail(endpoint, Reply(...))`` makes one answer a status, garbage or a delay
until ``clear_failures``. Handlers run in their own threads.
"""
from __future__ import annotations

import json
import secrets
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import attrs
import pytest

from proxy.accounts.cache import CachedAccount, TokenCache
from proxy.accounts.settings import LIVE_CLIENT_ID, LIVE_SCOPE, AccountSettings

PATHS = {
    "device_code": "/oauth20_connect.srf",
    "token": "/oauth20_token.srf",
    "xbox": "/user/authenticate",
    "xsts": "/xsts/authorize",
    "minecraft_login": "/authentication/login_with_xbox",
    "entitlements": "/entitlements/mcstore",
    "profile": "/minecraft/profile",
    "join": "/session/minecraft/join",
    "has_joined": "/session/minecraft/hasJoined",
    "certificates": "/player/certificates",
}
_ENDPOINT_OF_PATH = {path: name for name, path in PATHS.items()}

XERR_NO_XBOX_PROFILE = 2148916233
XERR_COUNTRY = 2148916235
XERR_ADULT_VERIFICATION = 2148916236
XERR_ADULT_VERIFICATION_2 = 2148916237
XERR_CHILD = 2148916238


@attrs.define
class FakeAccount:
    name: str
    uuid: uuid.UUID
    owns_game: bool = True
    has_profile: bool = True
    xerr: int | None = None  # XSTS refuses the account with this code
    uhs: str = attrs.field(factory=lambda: secrets.token_hex(8))


@attrs.frozen
class Reply:
    status: int = 200
    body: Any = None  # JSON, or a callable of the request returning JSON
    raw: bytes | None = None  # sent as is (garbage)
    delay: float = 0.0


@attrs.frozen
class Join:
    name: str
    uuid: uuid.UUID
    server_id: str


@attrs.frozen
class Request:
    method: str
    endpoint: str
    query: dict[str, str]
    form: dict[str, str]
    json: Any
    headers: dict[str, str]


@attrs.define
class _SignIn:
    account: str
    pending: int
    slow_down: int
    then: str  # "ok" or an OAuth error code


class AccountServices:
    def __init__(self, *, client_id: str = LIVE_CLIENT_ID, scope: str = LIVE_SCOPE,
                 minecraft_expires_in: float = 86400.0, interval: int = 1, device_expires_in: int = 900) -> None:
        self.client_id = client_id
        self.scope = scope
        self.minecraft_expires_in = minecraft_expires_in
        self.interval = interval
        self.device_expires_in = device_expires_in
        self.app_registration_rejected = False
        self._lock = threading.RLock()
        self._accounts: dict[str, FakeAccount] = {}
        self._sign_ins: list[_SignIn] = []
        self._devices: dict[str, _SignIn] = {}
        self._msa_access: dict[str, str] = {}  # token -> account
        self._refresh: dict[str, str] = {}  # live refresh token -> account
        self._xbl: dict[str, str] = {}
        self._xsts: dict[str, str] = {}
        self._minecraft: dict[str, str] = {}
        self._failures: dict[str, Reply] = {}
        self.issued: set[str] = set()
        self.joins: list[Join] = []
        self.requests: list[Request] = []
        self._services_key: Any = None  # this fake's "Mojang": signs each account's chat key
        self._chat_keys: dict[str, Any] = {}  # account -> its chat key pair (one per account, as Mojang's)
        self._server: ThreadingHTTPServer | None = None

    # -- accounts and tokens ------------------------------------------------------------------
    def add_account(self, name: str, account_uuid: uuid.UUID | None = None, **flags: Any) -> FakeAccount:
        account = FakeAccount(name, account_uuid or uuid.uuid4(), **flags)
        with self._lock:
            self._accounts[name] = account
        return account

    def account(self, name: str) -> FakeAccount:
        return self._accounts[name]

    def next_sign_in(self, name: str, *, pending: int = 0, slow_down: int = 0, then: str = "ok") -> None:
        """The next device code started is for ``name``: ``slow_down`` and ``pending`` polls, then ``then``."""
        with self._lock:
            self._sign_ins.append(_SignIn(name, pending, slow_down, then))

    def minecraft_token(self, name: str) -> str:
        """A valid Minecraft access token for ``name``, as login_with_xbox would issue."""
        return self._issue(self._minecraft, "mc-", name)

    def refresh_token(self, name: str) -> str:
        return self._issue(self._refresh, "msa-rt-", name)

    def signed_in_cache(self, path: Path, name: str, *, key: str | None = None, expires_in: float | None = None,
                        client_id: str | None = None) -> str:
        """Write ``path`` as if ``mcagent login`` had signed ``name`` in just now; the Minecraft token back."""
        account = self._accounts.get(name) or self.add_account(name)
        token = self.minecraft_token(name)
        now = time.time()
        entry = CachedAccount(account.name, account.uuid, client_id or self.client_id, self.refresh_token(name),
                              token, now + (expires_in if expires_in is not None else self.minecraft_expires_in),
                              now)
        TokenCache(path).change(lambda accounts: accounts.__setitem__(key or name, entry))
        return token

    def revoke_refresh_tokens(self, name: str) -> None:
        self._revoke(self._refresh, name)

    def revoke_minecraft_tokens(self, name: str) -> None:
        """Every Minecraft token of ``name`` stops working (expired or revoked: Mojang says the same)."""
        self._revoke(self._minecraft, name)

    def live_refresh_tokens(self, name: str) -> set[str]:
        with self._lock:
            return {t for t, a in self._refresh.items() if a == name}

    def fail(self, endpoint: str, reply: Reply) -> None:
        assert endpoint in PATHS, endpoint
        with self._lock:
            self._failures[endpoint] = reply

    def clear_failures(self) -> None:
        with self._lock:
            self._failures.clear()

    def count(self, endpoint: str) -> int:
        return sum(1 for r in self.requests if r.endpoint == endpoint)

    def _issue(self, table: dict[str, str], prefix: str, name: str) -> str:
        token = prefix + secrets.token_urlsafe(24)
        with self._lock:
            table[token] = name
            self.issued.add(token)
        return token

    def _revoke(self, table: dict[str, str], name: str) -> None:
        with self._lock:
            for token in [t for t, a in table.items() if a == name]:
                del table[token]

    # -- configuration for the code under test ------------------------------------------------
    @property
    def base_url(self) -> str:
        assert self._server is not None, "not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def config_section(self, cache_file: Path | None = None, **overrides: Any) -> dict[str, Any]:
        """The ``accounts`` section of proxy.json pointing every endpoint here."""
        section: dict[str, Any] = {
            "client_id": self.client_id, "scope": self.scope,
            "device_code_url": self.base_url + PATHS["device_code"], "token_url": self.base_url + PATHS["token"],
            "xbox_user_auth_url": self.base_url + PATHS["xbox"], "xsts_url": self.base_url + PATHS["xsts"],
            "minecraft_login_url": self.base_url + PATHS["minecraft_login"],
            "entitlements_url": self.base_url + PATHS["entitlements"],
            "profile_url": self.base_url + PATHS["profile"],
            "certificates_url": self.base_url + PATHS["certificates"], "timeout_seconds": 5.0,
        }
        if cache_file is not None:
            section["cache_file"] = str(cache_file)
        section.update(overrides)
        return section

    def settings(self, cache_file: Path | None = None, **overrides: Any) -> AccountSettings:
        return AccountSettings.model_validate(self.config_section(cache_file, **overrides))

    # -- chat keys (player certificates) ------------------------------------------------------
    def services_public_key_pem(self) -> str:
        """The public key this fake certifies chat keys with (a server's stand-in for Mojang's)."""
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        return self._services().public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo).decode()

    def chat_key_der(self, name: str) -> bytes:
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        return self._chat_key(name).public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)

    def _services(self) -> Any:
        from cryptography.hazmat.primitives.asymmetric import rsa

        with self._lock:
            if self._services_key is None:
                self._services_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            return self._services_key

    def _chat_key(self, name: str) -> Any:
        from cryptography.hazmat.primitives.asymmetric import rsa

        with self._lock:
            if name not in self._chat_keys:
                self._chat_keys[name] = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            return self._chat_keys[name]

    def _certificates(self, request: Request) -> Reply:
        import base64
        import struct
        from datetime import datetime, timezone

        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import padding
        from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

        account = self._bearer(request)
        if account is None or request.method != "POST":
            return Reply(401, {"path": PATHS["certificates"], "errorMessage": "Unauthorized"})
        key = self._chat_key(account.name)
        expires_ms = int((time.time() + 48 * 3600) * 1000)
        der = key.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
        # What vanilla checks: Mojang's SHA1withRSA over the UUID, the expiry (ms) and the key.
        signed = account.uuid.bytes + struct.pack(">q", expires_ms) + der
        signature = self._services().sign(signed, padding.PKCS1v15(), hashes.SHA1())
        when = datetime.fromtimestamp(expires_ms / 1000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        return Reply(200, {
            "keyPair": {"privateKey": key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()).decode(),
                        "publicKey": key.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo
                                                                   ).decode()},
            "publicKeySignature": base64.b64encode(signature).decode(),
            "publicKeySignatureV2": base64.b64encode(signature).decode(),
            "expiresAt": when, "refreshedAfter": when,
        })

    # -- the endpoints ------------------------------------------------------------------------
    def _answer(self, endpoint: str, request: Request) -> Reply:
        handler = _HANDLERS[endpoint]
        return handler(self, request)

    def _device_code(self, request: Request) -> Reply:
        if request.form.get("client_id") != self.client_id:
            return Reply(400, {"error": "unauthorized_client", "error_description": "unknown client id"})
        if request.form.get("scope") != self.scope:
            return Reply(400, {"error": "invalid_scope"})
        if not _is_uuid(self.client_id) and request.form.get("response_type") != "device_code":
            return Reply(400, {"error": "invalid_request", "error_description": "response_type missing"})
        with self._lock:
            if not self._sign_ins:
                return Reply(400, {"error": "invalid_request", "error_description": "no sign-in scripted"})
            sign_in = self._sign_ins.pop(0)
            device = "dc-" + secrets.token_urlsafe(16)
            self._devices[device] = sign_in
        code = secrets.token_hex(4).upper()
        return Reply(200, {"device_code": device, "user_code": code, "verification_uri": "https://www.microsoft.com/link",
                           "expires_in": self.device_expires_in, "interval": self.interval})

    def _token(self, request: Request) -> Reply:
        form = request.form
        if form.get("client_id") != self.client_id:
            return Reply(400, {"error": "unauthorized_client"})
        grant = form.get("grant_type")
        if grant == "urn:ietf:params:oauth:grant-type:device_code":
            with self._lock:
                sign_in = self._devices.get(form.get("device_code", ""))
                if sign_in is None:
                    return Reply(400, {"error": "bad_verification_code"})
                if sign_in.slow_down:
                    sign_in.slow_down -= 1
                    return Reply(400, {"error": "slow_down"})
                if sign_in.pending:
                    sign_in.pending -= 1
                    return Reply(400, {"error": "authorization_pending"})
                del self._devices[form["device_code"]]
            if sign_in.then != "ok":
                return Reply(400, {"error": sign_in.then})
            return Reply(200, self._msa_tokens(sign_in.account))
        if grant == "refresh_token":
            if form.get("scope") != self.scope:
                return Reply(400, {"error": "invalid_scope"})
            with self._lock:
                name = self._refresh.pop(form.get("refresh_token", ""), None)  # rotating: the old one dies
            if name is None:
                return Reply(400, {"error": "invalid_grant",
                                   "error_description": "The refresh token has expired or was revoked."})
            return Reply(200, self._msa_tokens(name))
        return Reply(400, {"error": "unsupported_grant_type"})

    def _msa_tokens(self, name: str) -> dict[str, Any]:
        return {"token_type": "bearer", "expires_in": 86400, "scope": self.scope,
                "access_token": self._issue(self._msa_access, "msa-at-", name),
                "refresh_token": self.refresh_token(name), "user_id": secrets.token_hex(8)}

    def _xbox(self, request: Request) -> Reply:
        body = request.json if isinstance(request.json, dict) else {}
        props = body.get("Properties") or {}
        ticket = str(props.get("RpsTicket", ""))
        prefix = "d=" if _is_uuid(self.client_id) else "t="
        name = self._msa_access.get(ticket[2:]) if ticket.startswith(prefix) else None
        if (name is None or props.get("AuthMethod") != "RPS" or props.get("SiteName") != "user.auth.xboxlive.com"
                or body.get("RelyingParty") != "http://auth.xboxlive.com" or body.get("TokenType") != "JWT"):
            return Reply(400, None)
        return Reply(200, self._xbox_answer(self._xbl, "xbl-", name))

    def _xsts(self, request: Request) -> Reply:
        body = request.json if isinstance(request.json, dict) else {}
        props = body.get("Properties") or {}
        tokens = props.get("UserTokens") or [None]
        name = self._xbl.get(str(tokens[0]))
        if (name is None or props.get("SandboxId") != "RETAIL"
                or body.get("RelyingParty") != "rp://api.minecraftservices.com/"):
            return Reply(400, None)
        account = self._accounts[name]
        if account.xerr is not None:
            return Reply(401, {"Identity": "0", "XErr": account.xerr, "Message": "",
                               "Redirect": "https://start.ui.xboxlive.com/AddChildToFamily"})
        return Reply(200, self._xbox_answer(self._xsts, "xsts-", name))

    def _xbox_answer(self, table: dict[str, str], prefix: str, name: str) -> dict[str, Any]:
        return {"IssueInstant": "2026-01-01T00:00:00Z", "NotAfter": "2026-01-15T00:00:00Z",
                "Token": self._issue(table, prefix, name),
                "DisplayClaims": {"xui": [{"uhs": self._accounts[name].uhs}]}}

    def _minecraft_login(self, request: Request) -> Reply:
        body = request.json if isinstance(request.json, dict) else {}
        identity = str(body.get("identityToken", ""))
        head, _, token = identity.partition(";")
        name = self._xsts.get(token)
        if name is None or head != f"XBL3.0 x={self._accounts[name].uhs}":
            return Reply(401, {"path": PATHS["minecraft_login"], "errorMessage": "Invalid identity token"})
        if self.app_registration_rejected:
            return Reply(403, {"path": PATHS["minecraft_login"], "errorMessage":
                               "Invalid app registration, see https://aka.ms/AppRegInfo for more information"})
        return Reply(200, {"username": str(uuid.uuid4()), "roles": [], "token_type": "Bearer",
                           "access_token": self.minecraft_token(name), "expires_in": self.minecraft_expires_in})

    def _bearer(self, request: Request) -> FakeAccount | None:
        auth = request.headers.get("authorization", "")
        name = self._minecraft.get(auth[7:]) if auth.startswith("Bearer ") else None
        return self._accounts[name] if name is not None else None

    def _entitlements(self, request: Request) -> Reply:
        account = self._bearer(request)
        if account is None:
            return Reply(401, {"path": PATHS["entitlements"], "errorMessage": "Unauthorized"})
        items = [{"name": "product_minecraft", "signature": "sig"}, {"name": "game_minecraft", "signature": "sig"}]
        return Reply(200, {"items": items if account.owns_game else [], "signature": "sig", "keyId": "1"})

    def _profile(self, request: Request) -> Reply:
        account = self._bearer(request)
        if account is None:
            return Reply(401, {"path": PATHS["profile"], "errorMessage": "Unauthorized"})
        if not account.has_profile:
            return Reply(404, {"path": PATHS["profile"], "errorType": "NOT_FOUND", "error": "NOT_FOUND",
                               "errorMessage": "The server has not found anything matching the request URI"})
        return Reply(200, {"id": account.uuid.hex, "name": account.name, "skins": [], "capes": []})

    def _join(self, request: Request) -> Reply:
        body = request.json if isinstance(request.json, dict) else {}
        name = self._minecraft.get(str(body.get("accessToken", "")))
        account = self._accounts.get(name) if name is not None else None
        if account is None or str(body.get("selectedProfile", "")) != account.uuid.hex or "serverId" not in body:
            return Reply(403, {"error": "ForbiddenOperationException", "errorMessage": "Invalid token"})
        with self._lock:
            self.joins.append(Join(account.name, account.uuid, str(body["serverId"])))
        return Reply(204, None)

    def _has_joined(self, request: Request) -> Reply:
        name, server_id = request.query.get("username"), request.query.get("serverId")
        with self._lock:
            join = next((j for j in self.joins if j.name == name and j.server_id == server_id), None)
        if join is None:
            return Reply(204, None)
        return Reply(200, {"id": join.uuid.hex, "name": join.name, "properties": []})

    # -- the server ---------------------------------------------------------------------------
    def start(self) -> "AccountServices":
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def do_GET(self) -> None:
                self._handle("GET")

            def do_POST(self) -> None:
                self._handle("POST")

            def _handle(self, method: str) -> None:
                url = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                headers = {k.lower(): v for k, v in self.headers.items()}
                form: dict[str, str] = {}
                parsed: Any = None
                if "form-urlencoded" in headers.get("content-type", ""):
                    form = {k: v[0] for k, v in parse_qs(raw.decode("utf-8", "replace")).items()}
                elif raw:
                    try:
                        parsed = json.loads(raw)
                    except ValueError:
                        parsed = None
                endpoint = _ENDPOINT_OF_PATH.get(url.path)
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                request = Request(method, endpoint or url.path, query, form, parsed, headers)
                with owner._lock:
                    owner.requests.append(request)
                    failure = owner._failures.get(endpoint or "")
                if endpoint is None:
                    reply = Reply(404, {"error": "not found"})
                elif failure is not None:
                    reply = failure
                else:
                    reply = owner._answer(endpoint, request)
                if reply.delay:
                    time.sleep(reply.delay)
                body = reply.body(request) if callable(reply.body) else reply.body
                data = reply.raw if reply.raw is not None else (b"" if body is None else json.dumps(body).encode())
                try:
                    self.send_response(reply.status)
                    if data:
                        self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client gave up (a timeout test)

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        self._server = server
        threading.Thread(target=server.serve_forever, name="account-services", daemon=True).start()
        return self

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "AccountServices":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


_HANDLERS: dict[str, Callable[[AccountServices, Request], Reply]] = {
    "device_code": AccountServices._device_code,
    "token": AccountServices._token,
    "xbox": AccountServices._xbox,
    "xsts": AccountServices._xsts,
    "minecraft_login": AccountServices._minecraft_login,
    "entitlements": AccountServices._entitlements,
    "profile": AccountServices._profile,
    "join": AccountServices._join,
    "has_joined": AccountServices._has_joined,
    "certificates": AccountServices._certificates,
}
assert set(_HANDLERS) == set(PATHS)


def _is_uuid(text: str) -> bool:
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True


@pytest.fixture
def account_services() -> Iterator[AccountServices]:
    """Started for the test, closed after; import it into a conftest to use it."""
    with AccountServices() as services:
        yield services
