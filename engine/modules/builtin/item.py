"""agent:item: registry id lookup ("what's the id of oak planks" → minecraft:oak_planks).

The semantic parser re-reads the item from this request's own text (the
``@item`` slot's surface) and succeeds only when it names exactly one item;
the example sentence's item is never used. ``!item <name>`` searches by words
and asks which one when several items match. Both read the item table of the
player's Minecraft version (``WorldSnapshot.version``; the newest when unknown):
"oak log id" is minecraft:log on 1.12.2 and minecraft:oak_log on 1.20.1, and a
name only other versions have is answered with the versions that have it.
"""
from __future__ import annotations

import attrs

from engine.actions import ChatButton
from engine.modules import messages as m
from engine.modules.builtin.common import players_named
from engine.commands.args import Arg, ArgKind
from engine.modules.declarations import AgentCommand, ModuleRouting, ParseContext, RoutingProfile
from engine.modules.items import ItemInfo, ItemTable
from engine.modules.module import Access, Module, ModuleContext, ModuleResult
from engine.routing.vocabulary import ITEM_FEATURE

EXAMPLES_EN = (
    "what is the id of {item}", "id of {item}", "{item} id", "the id of {item}", "what is {item} id",
    "what is the item id of {item}", "item id of {item}", "item id for {item}", "{item} item id",
    "what is the registry id of {item}", "registry id of {item}", "registry id for {item}",
    "minecraft id of {item}", "minecraft id for {item}", "what is the minecraft id of {item}",
    "what is the id for {item}", "id for {item}", "what id is {item}", "what is the block id of {item}",
    "block id of {item}", "{item} block id", "what is the namespaced id of {item}", "internal name of {item}",
    "what is the internal name of {item}", "what is the identifier of {item}",
    # Written the way players type: short forms, slang, no auxiliaries.
    "{item} id?", "id for {item}?", "give me the id of {item}", "what is the registry name of {item}",
    "registry name of {item}", "the item id for {item}", "{item} registry id",
    "what id does {item} have", "what id does {item} use", "{item} has what id", "how do i write {item} as an id",
    "what do i type for {item}",
    # The item in the player's hand, named by where it is.
    "what is the id of the item im holding", "id of what im holding", "item id of my held item",
    "what is the id of the thing in my hand", "whats the id of this thing im holding", "id of the thing im holding", "id of the item in my hand",
)
EXAMPLES_ZH = (
    "{item}的id是什么", "{item}的id", "{item}的id是多少", "{item}id", "{item}的物品id", "{item}的物品id是什么",
    "{item}的物品id是多少", "{item}物品id", "{item}的注册名", "{item}的注册名是什么", "{item}的代码",
    "{item}的代码是什么", "{item}是什么id", "{item}的英文名", "{item}的方块id", "{item}的方块id是什么",
    "{item}的编号", "{item}的命名空间id",
    # Written the way players type: short forms, slang, no auxiliaries.
    "{item}的id是啥", "{item}id是什么", "{item}的id多少", "{item}的注册名是啥", "{item}的物品id是啥",
    "{item}的英文id",
    "{item}叫什么id", "{item}用id怎么写",
    # Not 东西: it is an inventory word, and the inventory's lines must not become this module's.
    "手上物品的id", "手里拿的物品id是什么", "我手上拿着的物品的id", "手持物品的id",
)
ASK_LIMIT = 6
HOLD_FEATURE, ID_FEATURE = "@hold", "@id"


@attrs.frozen
class ItemQuery:
    query: str = attrs.field(eq=False)  # as typed; two queries naming the same items are the same query
    matches: tuple[str, ...]  # registry ids; exactly one when the answer is certain
    held: bool = False  # no item named, the one in the player's hand asked for ("id of what im holding")


class ItemModule(Module[ItemQuery]):
    id = "agent:item"
    access = Access.READ

    def __init__(self, items: ItemTable) -> None:
        self.items = items

    def parse(self, _text: str, ctx: ParseContext) -> ItemQuery | None:
        if players_named(ctx):
            return None
        table = self.items.for_version(ctx.snapshot.version)
        named: set[str] = set()
        surfaces: list[str] = []
        elsewhere: list[str] = []
        for term in ctx.analysis.terms:
            if term.feature == ITEM_FEATURE:
                found = table.lookup(term.surface)
                if not found and table.elsewhere(term.surface):
                    elsewhere.append(term.surface)  # answered with the versions that have it
                    continue
                if len(found) != 1:
                    return None  # a name shared by several items: ask, don't guess
                named.add(found[0].key)
                surfaces.append(term.surface)
        if len(named) == 1:
            return ItemQuery(surfaces[0], (next(iter(named)),))
        if not named and len(set(elsewhere)) == 1:
            return ItemQuery(elsewhere[0], ())
        if not named and not elsewhere and {HOLD_FEATURE, ID_FEATURE} <= set(ctx.analysis.features):
            return ItemQuery("", (), held=True)
        return None

    def parse_command(self, args: str, ctx: ParseContext) -> ItemQuery | None:
        query = args.strip()
        if not query:
            return None
        return ItemQuery(query, tuple(i.key for i in self.items.for_version(ctx.snapshot.version).search(query)))

    def routing(self) -> ModuleRouting[ItemQuery]:
        return (
            ModuleRouting[ItemQuery].defaults()
            .command(AgentCommand.parsed("item", self.parse_command,
                                         lambda q: q.matches[0] if len(q.matches) == 1 else q.query,
                                         usage="!item <name>", description="the registry id of an item",
                                         aliases=("id",), description_zh="物品的注册 ID",
                                         args=(Arg("name", ArgKind.TEXT, description="the item's name as the player "
                                                   "said it, or its registry id"),)))
            .semantic(RoutingProfile.read(self.parse, EXAMPLES_EN, EXAMPLES_ZH).choice("shortcut.item"))
        )

    def execute(self, args: ItemQuery, ctx: ModuleContext) -> ModuleResult:
        lang = ctx.language
        table = self.items.for_version(ctx.snapshot.version)
        if args.held:
            return ModuleResult((self._held(ctx, table, lang),))
        infos = [info for i in args.matches if (info := table.get(i)) is not None]
        if len(infos) == 1:
            return ModuleResult((m.say(lang, "item.id", name=infos[0].display(lang), id=infos[0].id_text(lang)),))
        if not infos:
            return ModuleResult((self._not_here(args.query, table, lang),), completed=False)
        return self._ask(args.query, infos, lang)

    @staticmethod
    def _held(ctx: ModuleContext, table: ItemTable, lang: str) -> str:
        held = ctx.snapshot.player.held_item
        if held is None:
            return m.say(lang, "inventory.held_empty")
        info = table.get(held.item)
        if info is None:
            return m.say(lang, "item.id", name=held.item, id=held.item)
        return m.say(lang, "item.id", name=info.display(lang), id=info.id_text(lang))

    @staticmethod
    def _not_here(query: str, table: ItemTable, lang: str) -> str:
        others = table.elsewhere(query)
        if not others:
            return m.say(lang, "item.none", query=query)
        names = ", ".join(dict.fromkeys(f"{i.display(lang)} ({i.id})" for i, _, _ in others))
        found = ", ".join(dict.fromkeys(first if first == last else f"{first}–{last}" for _, first, last in others))
        return m.say(lang, "item.other_version", version=table.version, list=names, found=found)

    def _ask(self, query: str, infos: list[ItemInfo], lang: str) -> ModuleResult:
        shown = infos[:ASK_LIMIT]
        listing = ", ".join(f"{i.display(lang)} ({i.id_text(lang)})" for i in shown)
        if len(infos) > ASK_LIMIT:
            listing += f", … (+{len(infos) - ASK_LIMIT})"
        buttons = tuple(ChatButton(i.display(lang), f"!item {i.key}", i.key) for i in shown)
        return ModuleResult((m.say(lang, "item.ask", query=query, list=listing),), buttons, completed=False)
