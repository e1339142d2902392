"""Who gets in: 401 on every path without a token, the login cookie's flags, the guard against guessing."""
from __future__ import annotations

import json

import pytest

from proxy.dashboard.auth import COOKIE
from proxy.dashboard.site import PAGES
from proxy.testing import Rig
from tests.proxy.dashboard.web_client import ADMIN_TOKEN, VIEW_TOKEN, make

# Every path the dashboard serves, with the method it answers.
ENDPOINTS = [
    ("GET", "/"), ("GET", "/player/alice"), ("GET", "/replay"), ("GET", "/static/overview.js"),
    ("GET", "/static/map.js"), ("GET", "/static/style.css"), ("GET", "/static/login.html"),
    ("GET", "/api/whoami"), ("GET", "/api/overview"), ("GET", "/api/player/alice"), ("GET", "/api/episodes"),
    ("GET", "/api/episode?name=x"), ("GET", "/events/overview"), ("GET", "/events/player/alice"),
    ("POST", "/admin/stop"), ("POST", "/admin/kick"), ("POST", "/logout"), ("POST", "/login"),
    ("GET", "/nothing/here"),
]


@pytest.mark.parametrize("headers", [
    {}, {"authorization": "Bearer wrong-token-123456"}, {"authorization": f"Basic {ADMIN_TOKEN}"},
    {"cookie": f"{COOKIE}=forged-session-id"}, {"cookie": f"{COOKIE}={ADMIN_TOKEN}"},
], ids=["none", "wrong", "not-bearer", "forged-cookie", "token-as-cookie"])
def test_every_endpoint_answers_401_without_a_valid_token(headers: dict[str, str]) -> None:
    rig = Rig()
    rig.login("alice")
    client, _ = make(rig.server)
    for method, path in ENDPOINTS:
        # A fresh address each time: the guessing guard is tested on its own below.
        response = client.call(method, path, headers, host=f"10.0.{len(path)}.{len(method)}")
        assert response.status == 401, (method, path, response.status)
        assert b"alice" not in response.body
    assert not rig.client.transport.disconnecting  # nobody was kicked


def test_a_page_without_a_token_is_the_login_form_and_an_api_call_is_json() -> None:
    client, _ = make()
    page = client.call("GET", "/")
    assert page.status == 401 and b'<form method="post" action="/login"' in page.body
    api = client.call("GET", "/api/overview")
    assert api.status == 401 and json.loads(api.body) == {"error": "a dashboard token is needed"}


def test_login_sets_an_httponly_strict_cookie_that_is_not_the_token() -> None:
    client, clock = make(Rig().server)
    response = client.call("POST", "/login", {"content-type": "application/x-www-form-urlencoded"},
                           f"token={ADMIN_TOKEN}".encode())
    assert response.status == 303 and response.header("location") == "/"
    cookie = response.header("set-cookie")
    assert cookie is not None
    flags = [part.strip() for part in cookie.split(";")]
    assert "HttpOnly" in flags and "SameSite=Strict" in flags and "Path=/" in flags
    sid = flags[0].split("=", 1)[1]
    assert sid and ADMIN_TOKEN not in cookie and len(sid) >= 40
    who = client.call("GET", "/api/whoami", {"cookie": f"{COOKIE}={sid}"})
    assert who.status == 200 and json.loads(who.body)["scope"] == "admin"
    # Logging out forgets the session; the cookie no longer opens anything.
    out = client.call("POST", "/logout", {"cookie": f"{COOKIE}={sid}"})
    assert out.status == 200 and "Max-Age=0" in (out.header("set-cookie") or "")
    assert client.call("GET", "/api/whoami", {"cookie": f"{COOKIE}={sid}"}).status == 401


def test_a_login_cookie_expires() -> None:
    client, clock = make()
    response = client.call("POST", "/login", {}, f"token={VIEW_TOKEN}".encode())
    sid = (response.header("set-cookie") or "").split(";")[0].split("=", 1)[1]
    assert client.call("GET", "/api/whoami", {"cookie": f"{COOKIE}={sid}"}).status == 200
    clock.advance(12 * 3600 + 1)
    assert client.call("GET", "/api/whoami", {"cookie": f"{COOKIE}={sid}"}).status == 401


def test_wrong_tokens_lock_the_address_like_the_console() -> None:
    client, clock = make()
    for _ in range(3):
        assert client.get("/api/whoami", token="guess-guess-guess").status == 401
    # The fourth wrong try locks the address; then even the right token waits (429, Retry-After).
    assert client.get("/api/whoami", token="guess-guess-guess").status == 401
    locked = client.get("/api/whoami")
    assert locked.status == 429 and int(locked.header("retry-after") or "0") >= 1
    form = client.call("POST", "/login", {}, f"token={ADMIN_TOKEN}".encode())
    assert form.status == 429 and form.header("set-cookie") is None
    # Another address is not affected, and the lock ends.
    assert client.get("/api/whoami", host="10.9.9.9").status == 200
    clock.advance(600)
    assert client.get("/api/whoami").status == 200


def test_the_viewer_token_may_look_but_not_act() -> None:
    rig = Rig()
    rig.login("alice")
    client, _ = make(rig.server)
    assert client.get("/api/overview", token=VIEW_TOKEN).status == 200
    body = json.dumps({"player": "alice", "confirm": True}).encode()
    refused = client.call("POST", "/admin/kick", {"authorization": f"Bearer {VIEW_TOKEN}",
                                                  "content-type": "application/json"}, body)
    assert refused.status == 403
    assert not rig.client.transport.disconnecting


def test_an_admin_action_needs_json_and_confirmation() -> None:
    rig = Rig()
    rig.login("alice")
    client, _ = make(rig.server)
    auth = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    form = client.call("POST", "/admin/kick", {**auth, "content-type": "application/x-www-form-urlencoded"},
                       b"player=alice&confirm=true")
    assert form.status == 415
    unconfirmed = client.call("POST", "/admin/kick", {**auth, "content-type": "application/json"},
                              json.dumps({"player": "alice"}).encode())
    assert unconfirmed.status == 400
    assert not rig.client.transport.disconnecting
    nobody = client.call("POST", "/admin/kick", {**auth, "content-type": "application/json"},
                         json.dumps({"player": "bob", "confirm": True}).encode())
    assert nobody.status == 404
    kicked = client.call("POST", "/admin/kick", {**auth, "content-type": "application/json"},
                         json.dumps({"player": "ALICE", "confirm": True}).encode())
    assert kicked.status == 200 and json.loads(kicked.body)["done"] == "kicked alice"
    assert rig.client.transport.disconnecting
    assert b"Kicked by an administrator." in rig.client.received()[-1]


def test_the_endpoint_list_above_covers_every_route_and_page() -> None:
    client, _ = make()
    firsts = {(method, path.split("?")[0].split("/")[1]) for method, path in ENDPOINTS}
    for method, first in client.resource.routes:
        assert (method.decode(), first) in firsts
    for page in PAGES:
        assert ("GET", page) in firsts
