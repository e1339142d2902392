"""agent:inventory: the held item and the inventory contents (window 0 slots).

With an item named ("how many torches do I have") it counts that item; with
two different items named it cannot know which one is meant and returns None.
"""
from __future__ import annotations

import attrs

from engine.events import SlotItem
from engine.modules import messages as m
from engine.modules.builtin.common import players_named
from engine.commands.args import Arg
from engine.modules.declarations import AgentCommand, ModuleRouting, ParseContext, RoutingProfile
from engine.modules.items import ItemTable
from engine.modules.module import Access, Module, ModuleContext, ModuleResult
from engine.routing.vocabulary import ITEM_FEATURE

EXAMPLES_EN = (
    "inventory", "my inventory", "what is in my inventory", "what do i have in my inventory", "what do i have",
    "inv", "my inv", "inv full", "inventory full", "what is in my inv", "items", "my items", "what items do i have", "my stuff",
    "what is in my hotbar", "my hotbar", "what am i carrying", "what do i carry",
    "what am i holding", "what is in my hand", "what do i have in my hand", "what is in my main hand",
    "what is in my offhand", "held item", "my held item", "what is my held item", "what item am i holding",
    "what block am i holding", "what am i holding in my hand",
    "how many {item} do i have", "how much {item} do i have", "how many {item}", "how many {item} in my inventory",
    "do i have any {item}", "do i have {item}", "do i have {item} in my inventory", "how many {item} do i have left",
    "am i holding {item}", "how many {item} have i got", "have i got any {item}",
    # Written the way players type: short forms, slang, no auxiliaries.
    "what have i got", "what do i have on me", "how many {item} i got", "how many {item} i have",
    "how much {item} i got", "how much {item} i have", "got any {item}", "any {item} left", "{item} left", "{item} count", "count of {item}",
    "how many {item} left", "do i still have {item}", "do i still have any {item}", "count my {item}",
    "what is on my hotbar", "what is in my bag", "what is in my backpack", "what is in my off hand",
    "what am i holding right now", "my inventory pls", "what is in my inventory right now",    "any {item}", "any {item} on me", "do i have any {item} on me",    "got {item}", "what is in the inventory",
    "what armor am i wearing", "do i have a pickaxe", "do i still have my elytra", "do i have any food",
    "what gear do i have", "do i have any {item} left", "got any {item} left",
    "how many {item} i have left", "i have how many {item}", "have i got {item}", "have i got a {item}", "how many {item} i got left",
    # Room for more: the overview says how many slots are free.
    "is my inventory full", "how many free slots do i have", "how much space in my inventory", "do i have room in my inventory",
    "any free slots", "is my inv full", "got any free slots left",
    # What the player carries, said with "on me" / "with me" ("do i have a bed with me").
    "do i have a {item} on me", "do i have a {item} with me", "do i have {item} with me", "do i have any food on me",
    "do i got {item} on me", "do i got any {item}", "got any food on me",
)
EXAMPLES_ZH = (
    "背包", "我的背包", "背包里有什么", "我的背包里有什么", "我背包里有什么", "背包里都有什么", "物品栏",
    "我的物品栏", "物品栏里有什么", "我有什么东西", "我有什么", "我带了什么", "快捷栏", "快捷栏里有什么",
    "我手里拿着什么", "我手里拿的是什么", "我拿着什么", "我手上拿着什么", "手里是什么", "我手上是什么",
    "我拿的是什么", "我手里是什么", "主手拿着什么", "副手拿着什么",
    "我有多少{item}", "我有几个{item}", "我有{item}吗", "我有没有{item}", "背包里有多少{item}",
    "背包里有{item}吗", "我还有多少{item}", "{item}有多少",
    # Written the way players type: short forms, slang, no auxiliaries.
    "身上有什么", "身上有啥", "我身上有什么", "还有{item}吗", "有{item}吗", "有多少{item}", "有几个{item}",
    "{item}还有多少", "{item}还剩多少", "还剩多少{item}", "背包里有啥", "背包有什么", "手里拿着啥", "手上是什么",
    "拿着什么", "快捷栏有什么", "副手是什么", "主手是什么",    "身上带了什么", "我身上带了啥",    "拿着什么东西", "手里拿着什么东西", "{item}还有吗", "{item}有吗",
    "我穿的什么装备", "背包里有没有镐子", "我有没有钻石",
    "背包满了吗", "背包还有空位吗", "还有几个空格", "背包还有多少格", "背包满没满",
)

# Window 0: 5–8 armor, 9–35 main inventory, 36–44 hotbar, 45 offhand.
CONTENT_SLOTS = range(9, 46)
# Where picked-up items can go (main inventory and hotbar): "how many free slots", "is my inventory full".
STORAGE_SLOTS = range(9, 45)
SHOWN = 12


@attrs.frozen
class InventoryQuery:
    item_id: str | None  # count one item (or the first of a kind), or None for the overview
    also: tuple[str, ...] = ()  # the other items of a kind or a shared name ("logs"), counted together
    said: str = attrs.field(default="", eq=False)  # the kind as the player said it


class InventoryModule(Module[InventoryQuery]):
    id = "agent:inventory"
    access = Access.READ

    def __init__(self, items: ItemTable) -> None:
        self.items = items

    def parse(self, _text: str, ctx: ParseContext) -> InventoryQuery | None:
        if players_named(ctx):
            return None  # someone else's inventory: not something we can see
        table = self.items.for_version(ctx.snapshot.version)
        named: list[tuple[str, tuple[str, ...]]] = []
        for term in ctx.analysis.terms:
            if term.feature == ITEM_FEATURE:
                # Ids, not keys: before the flattening every log variant is minecraft:log.
                found = tuple(dict.fromkeys(i.id for i in table.lookup(term.surface) or table.kind(term.surface)))
                if not found:
                    return None
                named.append((term.surface, found))
        if len({ids for _, ids in named}) > 1:
            return None
        if not named:
            return InventoryQuery(None)
        said, ids = named[0]
        return InventoryQuery(ids[0]) if len(ids) == 1 else InventoryQuery(ids[0], ids[1:], said)

    def parse_command(self, args: str, _ctx: ParseContext) -> InventoryQuery | None:
        if not args.strip():
            return InventoryQuery(None)
        found = self.items.search(args)
        return InventoryQuery(found[0].id) if len(found) == 1 else None

    def routing(self) -> ModuleRouting[InventoryQuery]:
        return (
            ModuleRouting[InventoryQuery].defaults()
            .command(AgentCommand.parsed("inv", self.parse_command, lambda q: q.item_id or "",
                                         usage="!inv [item]", description="held item, inventory contents and free slots",
                                         aliases=("inventory",), description_zh="手持物品和背包内容",
                                         args=(Arg("item", optional=True, description="count only this item"),)))
            .semantic(RoutingProfile.read(self.parse, EXAMPLES_EN, EXAMPLES_ZH))
            .shortcut("shortcut.inventory", InventoryQuery(None))
        )

    def _kind(self, args: InventoryQuery, totals: dict[str, int], lang: str) -> str:
        """"logs": every log the player carries, each with its count, and the sum."""
        held = sorted(((item, totals[item]) for item in (args.item_id, *args.also) if item is not None and totals.get(item)),
                      key=lambda kv: (-kv[1], kv[0]))
        if not held:
            return m.say(lang, "inventory.count_none", item=args.said)
        listing = ", ".join(f"{self._name(item, lang)} × {count}" for item, count in held)
        return m.say(lang, "inventory.kind", item=args.said, count=sum(c for _, c in held), list=listing)

    def _name(self, item: str, lang: str) -> str:
        info = self.items.get(item)
        return info.display(lang) if info else item

    def execute(self, args: InventoryQuery, ctx: ModuleContext) -> ModuleResult:
        lang = ctx.language
        player = ctx.snapshot.player
        totals: dict[str, int] = {}
        stacks = 0
        for index in CONTENT_SLOTS:
            slot: SlotItem | None = player.inventory[index] if index < len(player.inventory) else None
            if slot is None or slot.count <= 0:
                continue
            stacks += 1
            key = slot.item if ":" in slot.item else f"minecraft:{slot.item}"
            totals[key] = totals.get(key, 0) + slot.count
        if args.also:
            return ModuleResult((self._kind(args, totals, lang),))
        if args.item_id is not None:
            name = self._name(args.item_id, lang)
            count = totals.get(args.item_id, 0)
            if count:
                return ModuleResult((m.say(lang, "inventory.count", count=count, item=name),))
            return ModuleResult((m.say(lang, "inventory.count_none", item=name),))
        held = player.held_item
        lines = [
            m.say(lang, "inventory.held", item=f"{self._name(held.item, lang)} × {held.count}")
            if held is not None else m.say(lang, "inventory.held_empty")
        ]
        if totals:
            ranked = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
            shown = ", ".join(f"{self._name(item, lang)} × {count}" for item, count in ranked[:SHOWN])
            if len(ranked) > SHOWN:
                shown += f", … (+{len(ranked) - SHOWN})"
            free = sum(1 for i in STORAGE_SLOTS if _empty(player.inventory[i] if i < len(player.inventory) else None))
            lines.append(m.say(lang, "inventory.contents", stacks=stacks, list=shown, free=free,
                               slots=len(STORAGE_SLOTS)))
        else:
            lines.append(m.say(lang, "inventory.empty"))
        return ModuleResult(tuple(lines))


def _empty(slot: SlotItem | None) -> bool:
    return slot is None or slot.count <= 0
