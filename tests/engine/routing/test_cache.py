"""Intent cache: unit tests and hypothesis properties (no text kept, isolation, TTL, LRU bounds)."""
from __future__ import annotations

import pickle
from collections import OrderedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.routing.cache import CacheKey, IntentCache, make_key

texts = st.text(alphabet="abcdefghijklmnopqrstuvwxyz 我在哪坐标", min_size=6, max_size=40).map(lambda t: "TEXT:" + t)
scopes = st.sampled_from(["s1", "s2", "s3", "s4"])


def key(scope: str, text: str, run: int = 0, memory: int = 0, lang: str = "en") -> CacheKey:
    return make_key(scope, run, memory, lang, text)


def opened(*scopes_: str, **limits: int) -> IntentCache:
    cache = IntentCache(**limits)  # type: ignore[arg-type]
    for scope in scopes_:
        cache.open_scope(scope, 0, 0)
    return cache


def test_key_is_scope_generations_language_and_sha256() -> None:
    k = make_key("s1", 2, 3, "zh", "我在哪")
    assert (k.scope, k.run_generation, k.memory_generation, k.language) == ("s1", 2, 3, "zh")
    assert len(k.digest) == 32
    assert make_key("s1", 2, 3, "zh", "我在哪") == k
    assert make_key("s1", 2, 4, "zh", "我在哪") != k


@settings(max_examples=80, deadline=None)
@given(entries=st.lists(st.tuples(scopes, texts), min_size=1, max_size=40))
def test_intent_cache_keeps_no_text_property(entries: list[tuple[str, str]]) -> None:
    cache = opened("s1", "s2", "s3", "s4")
    for scope, text in entries:
        cache.put(key(scope, text), "agent:position", now=0.0)
    dumped = pickle.dumps(cache)
    for _, text in entries:
        assert text.encode("utf-8") not in dumped
        assert text.encode("utf-16-le") not in dumped
    assert "TEXT:" not in repr(cache.__dict__)


@settings(max_examples=80, deadline=None)
@given(text=texts, owner=scopes, other=scopes)
def test_players_never_share_entries(text: str, owner: str, other: str) -> None:
    cache = opened("s1", "s2", "s3", "s4")
    cache.put(key(owner, text), "agent:status", now=0.0)
    expected = "agent:status" if owner == other else None
    assert cache.get(key(other, text), now=1.0) == expected


@settings(max_examples=60, deadline=None)
@given(text=texts, ttl=st.integers(1, 600), written=st.floats(0, 1e6), later=st.floats(0, 1e3))
def test_ttl(text: str, ttl: int, written: float, later: float) -> None:
    cache = opened("s1", ttl=ttl)
    cache.put(key("s1", text), "agent:help", now=written)
    got = cache.get(key("s1", text), now=written + later)
    assert got == ("agent:help" if later < ttl else None)
    if later >= ttl:
        assert len(cache) == 0


operations = st.lists(
    st.one_of(
        st.tuples(st.just("put"), scopes, st.integers(0, 30)),
        st.tuples(st.just("get"), scopes, st.integers(0, 30)),
    ),
    max_size=200,
)


@settings(max_examples=120, deadline=None)
@given(ops=operations, max_entries=st.integers(1, 12), per_player=st.integers(1, 6))
def test_lru_bounds_match_a_reference_model(ops: list[tuple[str, str, int]], max_entries: int, per_player: int) -> None:
    cache = opened("s1", "s2", "s3", "s4", max_entries=max_entries, per_player=per_player, ttl=10_000)
    model: OrderedDict[tuple[str, int], None] = OrderedDict()  # access order, oldest first
    for op, scope, n in ops:
        k = (scope, n)
        if op == "put":
            cache.put(key(scope, f"text {n}"), "agent:status", now=0.0)
            model[k] = None
            model.move_to_end(k)
            mine = [x for x in model if x[0] == scope]
            while len(mine) > per_player:
                del model[mine.pop(0)]
            while len(model) > max_entries:
                model.popitem(last=False)
        else:
            hit = cache.get(key(scope, f"text {n}"), now=1.0)
            assert (hit is not None) == (k in model)
            if k in model:
                model.move_to_end(k)
        assert len(cache) == len(model) <= max_entries
        for s in ("s1", "s2", "s3", "s4"):
            assert cache.entries_for(s) <= per_player


def test_a_late_write_after_the_scope_closed_is_dropped() -> None:
    cache = opened("s1")
    k = key("s1", "where am i")
    cache.clear_scope("s1")  # disconnect while the model was thinking
    assert cache.put(k, "agent:position", now=0.0) is False
    assert len(cache) == 0


def test_new_generations_drop_old_entries_and_stale_writes() -> None:
    cache = opened("s1")
    old = key("s1", "where am i", memory=0)
    assert cache.put(old, "agent:position", now=0.0)
    cache.open_scope("s1", 0, 1)  # memory cleared
    assert len(cache) == 0
    assert cache.get(old, now=0.0) is None
    assert cache.put(old, "agent:position", now=0.0) is False
    assert cache.put(key("s1", "where am i", memory=1), "agent:position", now=0.0)


def test_configure_shrinks_and_validates() -> None:
    cache = opened("s1", max_entries=10, per_player=10)
    for n in range(10):
        cache.put(key("s1", f"t{n}"), "agent:help", now=0.0)
    cache.configure(4, 2, 5)
    assert len(cache) == 2
    with pytest.raises(ValueError):
        cache.configure(0, 1, 1)


def test_purge_expired() -> None:
    cache = opened("s1", ttl=10)
    cache.put(key("s1", "a"), "agent:help", now=0.0)
    cache.put(key("s1", "b"), "agent:help", now=5.0)
    assert cache.purge_expired(now=12.0) == 1
    assert len(cache) == 1
