"""The admin action "send to a backend": the console's ``send``, confirmed, logged, admin only."""
from __future__ import annotations

import json

from twisted.logger import globalLogPublisher

from proxy.dashboard.overview import RateMeter, overview
from proxy.testing import Rig
from tests.proxy.dashboard.web_client import ADMIN_TOKEN, VIEW_TOKEN, Client, make
from tests.proxy.network.helpers import SURVIVAL, candidate_login, join, network_rig, next_connection, playing

JSON = {"content-type": "application/json"}


def _post(client: Client, token: str, body: dict[str, object]) -> tuple[int, dict[str, str]]:
    response = client.call("POST", "/admin/send", {"authorization": f"Bearer {token}", **JSON},
                           json.dumps(body).encode())
    return response.status, json.loads(response.body)


def test_an_admin_sends_a_player_to_another_server_and_it_is_logged() -> None:
    rig = network_rig("1.20.1", dashboard={"port": 0})
    playing(rig)
    view = overview(rig.server, RateMeter(), rig.reactor.seconds())
    assert view.servers == ("lobby", "survival") and view.players[0].server == "lobby"
    client, _ = make(rig.server)
    # The player's page offers the same choices (its JS draws a button per other server).
    page = json.loads(client.get("/api/player/alice", token=ADMIN_TOKEN).body)
    assert (page["servers"], page["server"]) == (["lobby", "survival"], "lobby")
    assert _post(client, VIEW_TOKEN, {"player": "alice", "server": "survival", "confirm": True})[0] == 403
    assert _post(client, ADMIN_TOKEN, {"player": "alice", "server": "survival"})[0] == 400   # not confirmed
    status, answer = _post(client, ADMIN_TOKEN, {"player": "alice", "server": "mars", "confirm": True})
    assert status == 400 and "lobby, survival" in answer["error"]
    assert _post(client, ADMIN_TOKEN, {"player": "alice", "server": "lobby", "confirm": True}) == (
        409, {"error": "alice: You are on lobby already."})
    assert rig.bridge.switch is None
    logged: list[str] = []

    def keep(event: dict[str, object]) -> None:
        logged.append(str(event.get("log_format", "")).format(**event))

    globalLogPublisher.addObserver(keep)
    try:
        status, answer = _post(client, ADMIN_TOKEN, {"player": "Alice", "server": "survival", "confirm": True})
    finally:
        globalLogPublisher.removeObserver(keep)
    assert (status, answer) == (200, {"ok": True, "done": "sending alice to survival"})
    assert "dashboard: an admin at 127.0.0.1 sent alice to survival" in logged
    assert next_connection(rig) == SURVIVAL
    # A second click while the move is under way is refused, not a second switch.
    assert _post(client, ADMIN_TOKEN, {"player": "alice", "server": "survival", "confirm": True})[0] == 409
    candidate_login(rig)
    join(rig, 5)
    assert rig.bridge.backend is not None and rig.bridge.backend.name == "survival"
    assert overview(rig.server, RateMeter(), rig.reactor.seconds()).players[0].server == "survival"
    assert json.loads(client.get("/api/player/alice", token=ADMIN_TOKEN).body)["server"] == "survival"


def test_in_front_of_one_backend_there_is_nowhere_to_send() -> None:
    rig = Rig()
    rig.login("alice")
    assert overview(rig.server, RateMeter(), rig.reactor.seconds()).servers == ()
    client, _ = make(rig.server)
    page = json.loads(client.get("/api/player/alice", token=ADMIN_TOKEN).body)
    assert (page["servers"], page["server"]) == ([], None)
    status, answer = _post(client, ADMIN_TOKEN, {"player": "alice", "server": "survival", "confirm": True})
    assert status == 409 and "one backend" in answer["error"]
