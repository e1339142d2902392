"""No secret and no chat line leaves through the dashboard: every page, view and event stream is searched.

The proxy here holds every kind of secret it can hold (the console token, the model key,
the forwarding secret, the admin secret, the viewer token) and a player has chatted, been
routed and run the autopilot, so each view has something to show. If any view ever
dumped the config, a routing diagnostic's text or a chat line, this test would find it.
"""
from __future__ import annotations

from engine.assistant import AssistantRuntime
from engine.llm.service import LlmService, LlmSettings
from engine.routing.config import default_config
from proxy.agent.assistant_factory import RoutingSurface
from proxy.testing import Rig, build_packet
from tests.proxy.dashboard.test_dashboard_streams import events
from tests.proxy.dashboard.web_client import ADMIN_TOKEN, VIEW_TOKEN, make
from tests.proxy.dashboard.world import feed_world

MODEL_KEY = "sk-model-key-7f3a9c1e5b2d"
FORWARDING_SECRET = "forwarding-secret-4e8b2a"
ADMIN_SECRET = "admin-secret-9d1c7f"
CHAT = "zanzibar quokka please give me the recipe for bread"
ASIDE = "my cat is called Wobblefritz"


def _proxy() -> Rig:
    runtime = AssistantRuntime(default_config(), llm=LlmService(LlmSettings(has_key=True, key_hint="sk-…2d")))
    rig = Rig("1.18.2", assistant_factory=lambda bridge: runtime.new_assistant(), routing=RoutingSurface(runtime),
              console={"port": 4000, "token": ADMIN_TOKEN}, llm={"api_key": MODEL_KEY},
              forwarding={"secret": FORWARDING_SECRET}, admin_secret=ADMIN_SECRET,
              dashboard={"port": 0, "viewer_token": VIEW_TOKEN}, features={"reflexes": True})
    rig.login("alice")
    feed_world(rig.bridge.session)
    for line in (f"@ai {CHAT}", ASIDE, "!autopilot on", f"@ai {ASIDE}"):
        rig.client_send(build_packet(rig.codec, "play", "toServer", "chat", message=line))
    rig.server_send(build_packet(rig.codec, "play", "toClient", "keep_alive", keepAliveId=99))
    for _ in range(40):
        rig.reactor.advance(0.05)
    rig.client_send(build_packet(rig.codec, "play", "toServer", "keep_alive", keepAliveId=99))
    return rig


def test_no_secret_and_no_chat_text_in_any_page_view_or_event() -> None:
    rig = _proxy()
    session = rig.bridge.session
    assert session is not None and session.pilot.active        # the views have an autopilot to show
    client, clock = make(rig.server)
    seen = []
    for path in ("/", "/player/alice", "/replay", "/api/whoami", "/api/overview", "/api/player/alice",
                 "/api/episodes", "/static/overview.js", "/static/player.js", "/static/replay.js",
                 "/static/map.js", "/static/common.js"):
        for token in (ADMIN_TOKEN, VIEW_TOKEN):
            response = client.get(path, token=token)
            assert response.status == 200, path
            seen.append(response.body)
    for path in ("/events/overview", "/events/player/alice"):
        _request, channel = client.open("GET", path, {"authorization": f"Bearer {VIEW_TOKEN}"})
        for _ in range(4):
            clock.advance(0.5)
        stream = channel.transport.written.getvalue()
        assert len(events(stream)) >= 3
        seen.append(stream)
    overview = client.get("/api/overview").body
    assert b'"latest":{"module"' in overview      # the routing view had a match to show
    assert b'"ping_ms":2000.0' in overview and b'"calls_today":' in overview   # the newer fields are searched too
    text = b"\n".join(seen).decode("utf-8")
    for secret in (ADMIN_TOKEN, VIEW_TOKEN, MODEL_KEY, FORWARDING_SECRET, ADMIN_SECRET, "sk-…2d"):
        assert secret not in text
    for phrase in ("zanzibar", "quokka", "Wobblefritz", "recipe for bread"):
        assert phrase.lower() not in text.lower()
