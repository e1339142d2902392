from __future__ import annotations

from engine.assistant import AssistantRuntime


def test_table_from_minecraft_data(shared_runtime: AssistantRuntime) -> None:
    items = shared_runtime.items
    assert len(items) > 1000 and items.version
    oak = items.get("minecraft:oak_planks")
    assert oak is not None and oak.name == "Oak Planks" and oak.display("zh") == "橡木木板"
    assert items.get("oak_planks") == oak


def test_lookup_by_every_spelling(shared_runtime: AssistantRuntime) -> None:
    items = shared_runtime.items
    for surface in ("oak planks", "oak_planks", "minecraft:oak_planks", "橡木木板"):
        assert [i.id for i in items.lookup(surface)] == ["minecraft:oak_planks"], surface
    assert [i.id for i in items.lookup("torches")] == ["minecraft:torch"]
    assert [i.id for i in items.lookup("diamonds")] == ["minecraft:diamond"]


def test_search_unique_or_several(shared_runtime: AssistantRuntime) -> None:
    items = shared_runtime.items
    assert [i.id for i in items.search("Oak Planks")] == ["minecraft:oak_planks"]
    planks = items.search("planks")
    assert len(planks) > 5 and all("planks" in i.id for i in planks)
    assert items.search("no such thing at all") == ()


def test_zh_aliases_name_real_items(shared_runtime: AssistantRuntime) -> None:
    items = shared_runtime.items
    for phrase in items.chinese_phrases():
        assert len(items.lookup(phrase)) == 1, phrase
