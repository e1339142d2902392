"""Each built-in module's replies, read from a world snapshot, in English and Chinese."""
from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest

from engine.actions import Action, ReplyToPlayer
from engine.assistant import AssistantRuntime, LocalAssistant
from engine.events import SlotItem
from engine.modules.module import Access
from engine.world.snapshot import Vec3, WorldSnapshot
from tests.engine.conftest import command, make_snapshot


def text(actions: list[Action] | None) -> str:
    assert actions is not None
    return "\n".join(line for a in actions if isinstance(a, ReplyToPlayer) for line in a.lines)


@pytest.fixture
def assistant(runtime_factory: Callable[..., AssistantRuntime]) -> LocalAssistant:
    return runtime_factory().new_assistant()


def test_position_en_and_zh(assistant: LocalAssistant) -> None:
    assert text(assistant.request("where am i", make_snapshot(), 0.0)) == \
        "You are at 10.5, 64, -20.2 in the Overworld, facing west (yaw 90)."
    zh = text(assistant.request("我在哪", make_snapshot("zh_cn", dimension="minecraft:the_nether", yaw=180.0), 0.0))
    assert zh == "你在 下界 的 10.5, 64, -20.2，面朝北（yaw 180）。"
    assert "don't know your position" in text(command(assistant, "pos", "", make_snapshot(position=None), 0.0))


def test_status(assistant: LocalAssistant) -> None:
    reply = text(command(assistant, "status", "", make_snapshot(game_mode=1), 0.0))
    assert "Health 18/20 (9 hearts)." in reply and "Food 17/20" in reply and "XP level 5" in reply
    assert "Game mode: creative." in reply
    assert "生命值 18/20" in text(assistant.request("我的血量", make_snapshot("zh_cn"), 0.0))


def test_players_online_near_and_distance(assistant: LocalAssistant) -> None:
    reply = text(assistant.request("who is online", make_snapshot(), 0.0))
    assert "3 online: Alex, Steve, Tester." in reply and "Alex (10 m)" in reply
    assert text(assistant.request("how far is alex", make_snapshot(), 0.0)) == "Alex is 10 blocks away to the east, at 20.5, 64, -20.2."
    assert text(assistant.request("alex的坐标", make_snapshot("zh_cn"), 0.0)) == "Alex 离你 10 格，在你东边，坐标 20.5, 64, -20.2。"
    assert text(assistant.request("tell alex where i am", make_snapshot(), 0.0)) != text(
        assistant.request("where is alex", make_snapshot(), 0.0))  # the player's own position, passed on
    assert "online but not within sight" in text(command(assistant, "players", "steve", make_snapshot(), 0.0))
    assert "Notch is not online" in text(command(assistant, "players", "Notch", make_snapshot(), 0.0))


def test_inventory_held_contents_and_counts(assistant: LocalAssistant) -> None:
    snap = make_snapshot(inventory={36: SlotItem("minecraft:diamond_sword", 1), 10: SlotItem("minecraft:torch", 32),
                                    11: SlotItem("torch", 16), 12: SlotItem("minecraft:bread", 3)})
    reply = text(command(assistant, "inv", "", snap, 0.0))
    assert "In your hand: Diamond Sword × 1." in reply
    assert "Torch × 48" in reply and "Bread × 3" in reply
    assert text(assistant.request("how many torches do i have", snap, 0.0)) == "You have 48 × Torch."
    assert text(assistant.request("我有多少面包", make_snapshot("zh_cn", inventory={12: SlotItem("minecraft:bread", 3)}), 0.0)) \
        == "你有 3 个面包。"
    assert text(assistant.request("do i have any cobblestone", snap, 0.0)) == "You have no Cobblestone."
    # Four stacks in the 36 slots items go to (the offhand is not one): 32 free.
    assert "(4 stacks, 32 of 36 slots free)" in text(assistant.request("is my inventory full", snap, 0.0))
    offhand = make_snapshot("zh_cn", inventory={45: SlotItem("minecraft:shield", 1), 9: SlotItem("minecraft:dirt", 64)})
    assert "36 格中空 35 格" in text(assistant.request("背包还有空位吗", offhand, 0.0))


def test_inventory_counts_a_kind_of_item(assistant: LocalAssistant) -> None:
    snap = make_snapshot(inventory={10: SlotItem("minecraft:oak_log", 12), 11: SlotItem("minecraft:birch_log", 3),
                                    12: SlotItem("minecraft:oak_log", 1), 13: SlotItem("minecraft:oak_planks", 4)})
    assert text(assistant.request("how many logs do i have", snap, 0.0)) == \
        "You have 16 logs: Oak Log × 13, Birch Log × 3."
    zh = make_snapshot("zh_cn", inventory={10: SlotItem("minecraft:oak_log", 2), 11: SlotItem("minecraft:spruce_log", 5)})
    assert text(assistant.request("我有多少原木", zh, 0.0)) == "你有 7 个原木：云杉原木 × 5, 橡木原木 × 2。"
    assert text(assistant.request("any swords left", snap, 0.0)) == "You have no swords."
    # Players' own words for a kind (items_short.json "kinds"): one character, or colloquial.
    armed = make_snapshot("zh_cn", inventory={10: SlotItem("minecraft:iron_sword", 1), 11: SlotItem("minecraft:stone_sword", 1),
                                              12: SlotItem("minecraft:wooden_pickaxe", 1)})
    assert text(assistant.request("我有几把剑", armed, 0.0)).startswith("你有 2 个剑：")
    assert text(assistant.request("背包里有镐子吗", armed, 0.0)).startswith("你有 1 个镐子：")
    assert text(assistant.request("我有床没", armed, 0.0)) == "你没有床。"


def test_item_id_lookup_unique_or_ask(assistant: LocalAssistant) -> None:
    snap = make_snapshot()
    assert text(assistant.request("what's the id of oak planks", snap, 0.0)) == "Oak Planks: minecraft:oak_planks"
    assert text(assistant.request("钻石剑的物品id", make_snapshot("zh_cn"), 0.0)) == "钻石剑：minecraft:diamond_sword"
    ask = command(assistant, "item", "planks", snap, 0.0)
    assert ask is not None and "Several items match" in text(ask)
    assert isinstance(ask[0], ReplyToPlayer) and ask[0].buttons[0].command.startswith("!item minecraft:")
    assert "No item is called" in text(command(assistant, "item", "unobtainium", snap, 0.0))
    assert "Usage: !item <name>" in text(command(assistant, "item", "", snap, 0.0))
    # "planks" alone names no unique item: never guessed, not answered locally.
    assert "minecraft:" not in text(assistant.request("what's the id of planks", snap, 0.0))


def test_item_id_of_the_item_in_hand(assistant: LocalAssistant) -> None:
    snap = make_snapshot(inventory={36: SlotItem("minecraft:diamond_sword", 1)})
    assert text(assistant.request("whats the id of what im holding", snap, 0.0)) == "Diamond Sword: minecraft:diamond_sword"
    zh = make_snapshot("zh_cn", inventory={36: SlotItem("minecraft:torch", 5)})
    assert text(assistant.request("手上物品的id", zh, 0.0)) == "火把：minecraft:torch"
    assert text(assistant.request("what is the id of the item in my hand", make_snapshot(), 0.0)) == "Your hand is empty."


def test_item_id_follows_the_player_s_version(assistant: LocalAssistant) -> None:
    def on(version: str, locale: str = "en_us") -> WorldSnapshot:
        return attrs.evolve(make_snapshot(locale), version=version)

    for version in ("26.1", "1.21.1"):
        assert text(assistant.request("crafter id", on(version), 0.0)) == "Crafter: minecraft:crafter"
    old = text(assistant.request("crafter id", on("1.12.2"), 0.0))
    assert old == "1.12.2 has no Crafter (minecraft:crafter): it is in 1.20.4–26.2."
    assert text(assistant.request("oak log id", on("1.12.2"), 0.0)) == "Oak Wood: minecraft:log (data value 0)"
    assert text(assistant.request("oak log id", on("1.20.1"), 0.0)) == "Oak Log: minecraft:oak_log"
    assert text(assistant.request("what is the id of birch planks", on("1.8.8"), 0.0)) == \
        "Birch Wood Planks: minecraft:planks (data value 2)"
    assert text(assistant.request("竹筏 id", on("26.1", "zh_cn"), 0.0)) == "竹筏：minecraft:bamboo_raft"
    assert text(assistant.request("旋风棒的id", on("1.21.1", "zh_cn"), 0.0)) == "旋风棒：minecraft:breeze_rod"
    assert text(assistant.request("what is the id of notch apple", on("26.1"), 0.0)) == \
        "Enchanted Golden Apple: minecraft:enchanted_golden_apple"
    # A name in no version never resolves, by request or command.
    assert "minecraft:" not in text(assistant.request("what is the id of unobtainium", on("26.1"), 0.0))
    assert "No item is called" in text(command(assistant, "item", "unobtainium", on("1.12.2"), 0.0))
    # !item on an old version: the buttons carry the variant's key, which answers it.
    ask = command(assistant, "item", "wood planks", on("1.12.2"), 0.0)
    assert ask is not None and isinstance(ask[0], ReplyToPlayer)
    assert "!item minecraft:planks@2" in [b.command for b in ask[0].buttons]
    assert text(command(assistant, "item", "minecraft:planks@2", on("1.12.2"), 0.0)) == \
        "Birch Wood Planks: minecraft:planks (data value 2)"


def test_inbox_keeps_notifications(assistant: LocalAssistant) -> None:
    snap = make_snapshot()
    assert text(command(assistant, "inbox", "", snap, 0.0)) == "Your inbox is empty."
    assistant.notify("Alex whispers: come to spawn", 10.0)
    assistant.notify("Reflex: escaped lava", 100.0)
    reply = text(assistant.request("any new messages", snap, 130.0))
    assert "2 message(s), 2 new" in reply
    assert reply.index("Reflex") < reply.index("Alex whispers")  # newest first
    assert "2 new" not in text(command(assistant, "inbox", "", snap, 140.0))


def test_progress_says_autopilot_not_started(assistant: LocalAssistant) -> None:
    assert "Autopilot not started" in text(assistant.request("progress", make_snapshot(), 0.0))
    assert "自动驾驶未启动" in text(assistant.request("自动驾驶进度", make_snapshot("zh_cn"), 0.0))


def test_write_commands_are_routing_targets_with_no_module_behind_them(assistant: LocalAssistant) -> None:
    """Routing may offer the command table's writes (examples, the model's catalog) but has nothing to run."""
    registry = assistant.runtime.registry
    for module_id in ("agent:goto", "agent:follow", "agent:stop", "agent:autopilot", "agent:eat"):
        entry = registry.get(module_id)
        assert entry is not None and entry.module is None and entry.access is Access.WRITE
        assert entry.routing.profile is not None and not entry.direct_capable
        command = entry.first_command()
        assert command is not None and assistant.commands.get(command.name) is not None


def test_write_command_usage(assistant: LocalAssistant) -> None:
    assert "Usage: !goto x y z" in text(command(assistant, "goto", "here", make_snapshot(), 0.0))
    assert "Usage: !autopilot on|off" in text(command(assistant, "autopilot", "maybe", make_snapshot(), 0.0))


def test_system_routing_is_for_admins_only(assistant: LocalAssistant) -> None:
    snap = make_snapshot()
    assert "Not permitted" in text(command(assistant, "system", "routing", snap, 0.0))
    reply = text(command(assistant, "system", "routing", snap, 0.0, admin=True))
    assert "algorithm lexical-tfidf-v1, mode ENFORCE" in reply and "counters:" in reply
    assert "not reloaded" in text(command(assistant, "system", "routing reload", snap, 0.0, admin=True))  # no config file


def test_help_lists_commands_and_hides_admin_ones(assistant: LocalAssistant) -> None:
    rows = dict(assistant.commands.help_rows("en", admin=False))
    assert {"!pos", "!status", "!players [name]", "!inv [item]", "!item <name>", "!inbox", "!progress",
            "!goto x y z", "!follow <player>", "!stop", "!autopilot on|off|status|provider mock|api|replay", "!eat"} <= set(rows)
    assert not any("not available" in text for text in rows.values())
    assert "!system routing [reload|mode enforce|shadow|off]" not in rows
    assert "!system routing [reload|mode enforce|shadow|off]" in dict(assistant.commands.help_rows("en", admin=True))
    assert "!pos" in text(assistant.request("what can you do", make_snapshot(), 0.0))


def test_unknown_command_is_not_ours(assistant: LocalAssistant) -> None:
    assert "Unknown command !dance" in text(command(assistant, "dance", "", make_snapshot(), 0.0))


def test_nearby_players_distance_formatting(assistant: LocalAssistant) -> None:
    snap = make_snapshot(near=(("Steve", Vec3(13.5, 68.0, -20.25)),))
    assert text(assistant.request("how far is steve", snap, 0.0)) == "Steve is 5 blocks away to the east, at 13.5, 68, -20.2."


def test_a_named_player_in_sight_is_given_a_direction(assistant: LocalAssistant) -> None:
    # North is -z and west -x: the player stands at 10.5, 64, -20.2.
    snap = make_snapshot(near=(("Steve", Vec3(0.5, 64.0, -30.2)),))
    assert "to the north-west" in text(assistant.request("what direction is steve from me", snap, 0.0))
    south = make_snapshot("zh_cn", near=(("Steve", Vec3(10.5, 64.0, -10.2)),))
    assert "在你南边" in text(assistant.request("Steve在我哪个方向", south, 0.0))
    beside = make_snapshot(near=(("Steve", Vec3(10.5, 64.0, -20.0)),))
    assert text(assistant.request("how far is steve", beside, 0.0)) == "Steve is 0.2 blocks away, at 10.5, 64, -20."


def test_a_line_wholly_in_pinyin_is_answered_in_chinese(assistant: LocalAssistant) -> None:
    reply = text(assistant.request("wo de zuo biao shi duo shao", make_snapshot(), 0.0))  # an English client
    assert reply.startswith("你在") and "10.5, 64, -20.2" in reply
    assert text(assistant.request("where am i", make_snapshot(), 0.0)).startswith("You are at")
