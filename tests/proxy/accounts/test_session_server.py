"""The fake session server behaves as Mojang's: join needs a token issued for that profile, hasJoined needs a join."""
from __future__ import annotations

import httpx

from tests.account_services import AccountServices


def test_join_then_has_joined(account_services: AccountServices) -> None:
    steve = account_services.add_account("Steve")
    token = account_services.minecraft_token("Steve")
    base = account_services.base_url
    asked = httpx.get(f"{base}/session/minecraft/hasJoined", params={"username": "Steve", "serverId": "abc"})
    assert asked.status_code == 204
    joined = httpx.post(f"{base}/session/minecraft/join",
                        json={"accessToken": token, "selectedProfile": steve.uuid.hex, "serverId": "abc"})
    assert joined.status_code == 204 and [(j.name, j.uuid, j.server_id) for j in account_services.joins] == [
        ("Steve", steve.uuid, "abc")]
    asked = httpx.get(f"{base}/session/minecraft/hasJoined", params={"username": "Steve", "serverId": "abc"})
    assert asked.status_code == 200 and asked.json() == {"id": steve.uuid.hex, "name": "Steve", "properties": []}
    other = httpx.get(f"{base}/session/minecraft/hasJoined", params={"username": "Steve", "serverId": "xyz"})
    assert other.status_code == 204


def test_join_refuses_a_wrong_revoked_or_foreign_token(account_services: AccountServices) -> None:
    steve = account_services.add_account("Steve")
    alex = account_services.add_account("Alex")
    token = account_services.minecraft_token("Steve")
    url = f"{account_services.base_url}/session/minecraft/join"
    refused = {"error": "ForbiddenOperationException", "errorMessage": "Invalid token"}
    for body in ({"accessToken": "mc-nonsense", "selectedProfile": steve.uuid.hex, "serverId": "s"},
                 {"accessToken": token, "selectedProfile": alex.uuid.hex, "serverId": "s"}):
        answer = httpx.post(url, json=body)
        assert (answer.status_code, answer.json()) == (403, refused)
    account_services.revoke_minecraft_tokens("Steve")
    answer = httpx.post(url, json={"accessToken": token, "selectedProfile": steve.uuid.hex, "serverId": "s"})
    assert answer.status_code == 403 and account_services.joins == []


def test_a_signed_in_cache_for_a_proxy(account_services: AccountServices, tmp_path: object) -> None:
    from pathlib import Path

    from proxy.accounts.store import AccountStore

    cache = Path(str(tmp_path)) / "accounts.json"
    token = account_services.signed_in_cache(cache, "Steve")
    with AccountStore(account_services.settings(cache)) as store:
        session = store.session("Steve")
    assert session.access_token == token and session.uuid == account_services.account("Steve").uuid
