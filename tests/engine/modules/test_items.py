from __future__ import annotations

import json
from importlib import resources

from engine.assistant import AssistantRuntime
from engine.session import Session, SessionConfig


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


def test_an_ids_words_name_the_item(shared_runtime: AssistantRuntime) -> None:
    # Every disc is "Music Disc" and the template's name is "Netherite Upgrade": players read the id.
    items = shared_runtime.items
    for words, item_id in (("music disc creator", "minecraft:music_disc_creator"),
                           ("netherite upgrade smithing template", "minecraft:netherite_upgrade_smithing_template"),
                           ("experience bottle", "minecraft:experience_bottle"), ("ender eye", "minecraft:ender_eye")):
        assert [i.id for i in items.lookup(words)] == [item_id], words


def test_search_unique_or_several(shared_runtime: AssistantRuntime) -> None:
    items = shared_runtime.items
    assert [i.id for i in items.search("Oak Planks")] == ["minecraft:oak_planks"]
    planks = items.search("planks")
    assert len(planks) > 5 and all("planks" in i.id for i in planks)
    assert items.search("no such thing at all") == ()


def test_hand_zh_names_name_one_item(shared_runtime: AssistantRuntime) -> None:
    items = shared_runtime.items
    hand = json.loads(resources.files("engine.modules").joinpath("data/items_zh.json").read_text(encoding="utf-8"))
    for item_id, names in hand["aliases"].items():
        for name in names:
            assert [i.id for i in items.lookup(name)] == [item_id], name


def test_vocabulary_has_every_version_s_names(shared_runtime: AssistantRuntime) -> None:
    items = shared_runtime.items
    english, chinese = set(items.english_phrases()), set(items.chinese_phrases())
    assert {"oak log", "crafter", "wooden planks", "black hardened clay", "grass path", "notch apple"} <= english
    assert {"竹筏", "旋风棒", "橡木原木"} <= chinese
    # 1.12's name for its planks id: a phrase of the vocabulary, an item of 1.12 only.
    assert [i.key for i in items.for_version("1.12.2").lookup("wooden planks")] == ["minecraft:planks"]
    assert items.for_version("26.1").lookup("wooden planks") == ()


def test_tables_follow_the_version(shared_runtime: AssistantRuntime) -> None:
    items = shared_runtime.items
    assert items.for_version("26.1") is items.for_version("26.1")  # built once per version
    assert items.for_version("0.30c") is items.for_version(None) is items  # unknown: the newest
    for version in ("26.1", "1.21.1"):
        assert [i.id for i in items.for_version(version).lookup("crafter")] == ["minecraft:crafter"]
    for version in ("1.12.2", "1.20.1"):  # the crafter came in 1.20.3
        assert items.for_version(version).lookup("crafter") == ()
    assert [(i.id, i.name) for i, _, _ in items.for_version("1.12.2").elsewhere("crafter")] == \
        [("minecraft:crafter", "Crafter")]
    assert items.for_version("1.12.2").elsewhere("crafter")[0][1:] == ("1.20.4", "26.2")
    old = items.for_version("1.12.2").lookup("oak log")
    assert [(i.id, i.meta, i.id_text("en")) for i in old] == [("minecraft:log", 0, "minecraft:log (data value 0)")]
    assert [i.key for i in items.for_version("1.8.8").lookup("birch planks")] == ["minecraft:planks@2"]
    assert [i.key for i in items.for_version("1.12.2").lookup("白桦原木")] == ["minecraft:log@2"]
    assert [i.id for i in items.for_version("1.20.1").lookup("oak log")] == ["minecraft:oak_log"]
    # A name of 1.12 ("Oak Wood" was the log) names the 1.13 block of that name from 1.13 on.
    assert [i.id for i in items.for_version("1.20.1").lookup("oak wood")] == ["minecraft:oak_wood"]
    assert [i.id for i in items.for_version("1.12.2").lookup("log")] == ["minecraft:log"]


def test_zh_names_of_new_items(shared_runtime: AssistantRuntime) -> None:
    items = shared_runtime.items.for_version("26.1")
    assert [i.id for i in items.lookup("竹筏")] == ["minecraft:bamboo_raft"]
    assert [i.id for i in items.lookup("旋风棒")] == ["minecraft:breeze_rod"]
    assert items.get("minecraft:breeze_rod") is not None and items.get("minecraft:breeze_rod").display("zh") == "旋风棒"
    assert shared_runtime.items.for_version("1.20.1").lookup("旋风棒") == ()  # the breeze came in 1.21


def test_player_aliases_in_every_version(shared_runtime: AssistantRuntime) -> None:
    items = shared_runtime.items
    for version, notch in (("26.1", "minecraft:enchanted_golden_apple"), ("1.8.8", "minecraft:golden_apple@1")):
        table = items.for_version(version)
        for alias in ("notch apple", "ench gap", "god apple"):
            assert [i.key for i in table.lookup(alias)] == [notch], (version, alias)
        assert [i.key for i in table.lookup("gapple")] == ["minecraft:golden_apple"]
        assert [i.id for i in table.lookup("diamond pick")] == ["minecraft:diamond_pickaxe"]
    assert items.lookup("pick") == ()  # names no one item, and "pick up" must stay a verb
    # An item wins over a block without an item form of the same name (the potato crop).
    assert [i.id for i in items.lookup("potatoes")] == ["minecraft:potato"]


def test_names_said_otherwise_than_spelled(shared_runtime: AssistantRuntime) -> None:
    items = shared_runtime.items
    for version in ("26.1", "1.12.2"):
        table = items.for_version(version)
        # A plural name said in the singular; a two-word name said with "of".
        assert [i.id for i in table.lookup("stone brick")] == ["minecraft:stonebrick" if version == "1.12.2"
                                                                 else "minecraft:stone_bricks"]
        assert [i.id for i in table.lookup("bucket of water")] == ["minecraft:water_bucket"]
    # "stained" left out keeps the colour: "purple glass pane(s)" is not the plain glass pane.
    assert [i.id for i in items.for_version("26.1").lookup("purple glass panes")] == ["minecraft:purple_stained_glass_pane"]
    assert [i.id for i in items.for_version("26.1").lookup("red glass")] == ["minecraft:red_stained_glass"]
    # A name beats the item it is the plural of: "bricks" is the block, "brick" the item.
    assert [i.id for i in items.lookup("bricks")] == ["minecraft:bricks"]
    assert [i.id for i in items.lookup("brick")] == ["minecraft:brick"]
    assert [i.id for i in items.lookup("nether bricks")] == ["minecraft:nether_bricks"]
    # The singulars make no kinds: "oak leave" is the oak leaves, "leave" stays a verb.
    assert items.lookup("leave") == () and items.kind("leave") == ()
    assert "leave" not in shared_runtime.items.english_phrases()


def test_names_in_no_version_resolve_nowhere(shared_runtime: AssistantRuntime) -> None:
    items = shared_runtime.items
    for version in ("26.1", "1.12.2", "1.8.8"):
        table = items.for_version(version)
        assert table.lookup("unobtainium") == () and table.elsewhere("unobtainium") == ()
        assert table.search("unobtainium") == ()


def test_session_snapshot_carries_the_client_version() -> None:
    assert Session("Steve", SessionConfig(game_version="1.12.2")).snapshot().version == "1.12.2"
    assert Session("Steve", SessionConfig(version="1.20.1")).snapshot().version == "1.20.1"
    assert Session("Steve").snapshot().version is None


def test_kinds_by_the_head_word_of_their_names(shared_runtime: AssistantRuntime) -> None:
    items = shared_runtime.items
    newest = items.for_version(None)
    logs = {i.id for i in newest.kind("logs")}
    assert {"minecraft:oak_log", "minecraft:birch_log", "minecraft:cherry_log"} <= logs
    assert {i.id for i in newest.kind("log")} == logs and {i.id for i in newest.kind("原木")} == logs
    assert {"minecraft:iron_ore", "minecraft:coal_ore"} <= {i.id for i in newest.kind("矿石")}
    # Before the flattening a kind is the variants of one or two ids ("log" is the id path minecraft:log).
    assert {i.id for i in items.for_version("1.12.2").kind("logs")} == {"minecraft:log", "minecraft:log2"}
    assert newest.kind("music disc") == () and newest.kind("discs") != ()  # one name, however many items
    assert newest.kind("torch") == newest.kind("torches") == ()  # an item's own name is no kind
    assert newest.kind("力板") == ()  # a kind's zh name is a word: the end the items' names share
    # Two thirds of the names are enough (bamboo planks are 竹板); a link (白色床 → 床) or an item's
    # own name (避雷针) is no kind.
    assert "minecraft:spruce_planks" in {i.id for i in newest.kind("木板")}
    assert newest.kind("色床") == newest.kind("的头") == newest.kind("雷针") == ()
    assert "logs" in items.english_phrases() and "原木" in items.chinese_phrases()


def test_ores_said_without_their_last_character_or_by_their_stone() -> None:
    from engine.modules.items import _zh_said_otherwise
    assert _zh_said_otherwise("钻石矿石") == {"钻石矿"}
    assert _zh_said_otherwise("深层铁矿石") == {"深层铁矿", "深板岩铁矿石", "深板岩铁矿"}
    assert _zh_said_otherwise("矿石") == set() and _zh_said_otherwise("钻石") == set()
