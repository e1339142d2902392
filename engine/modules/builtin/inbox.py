"""agent:inbox: messages the proxy kept for the player (private messages, reflex and autopilot notices)."""
from __future__ import annotations

from engine.modules import messages as m
from engine.modules.builtin.common import EMPTY, Empty
from engine.modules.declarations import AgentCommand, ModuleRouting, ParseContext, RoutingProfile
from engine.modules.module import Access, Module, ModuleContext, ModuleResult
from engine.routing.normalize import normalize_text
from engine.routing.vocabulary import ITEM_FEATURE, PLAYER_FEATURE

EXAMPLES_EN = (
    "inbox", "my inbox", "check my inbox", "read my inbox", "what is in my inbox",
    "messages", "my messages", "any messages", "any new messages", "do i have any messages", "do i have messages",
    "do i have new messages", "new messages", "unread messages",
    "notifications", "my notifications", "any notifications", "any new notifications", "do i have notifications",
    "did anyone pm me", "did anyone message me", "did anyone dm me", "did anyone whisper to me", "any pms",
    "did i get any messages", "did i get a message", "mail", "any mail", "alerts", "any alerts",
    "got any messages", "any messages for me",
    # Written the way players type: short forms, slang, no auxiliaries.
    "anyone pm me", "anyone message me", "anyone dm me", "anyone msg me", "got mail", "got any mail",
    "any pms for me", "did anyone send me a message", "did someone message me", "did somebody pm me",
    "notifications?", "any msgs", "new msgs", "my msgs",    "anything in my inbox", "anything new", "do i have any new messages",    "got any new messages", "what are my messages",
    "any messages while i was away", "what did i miss while i was away", "did anyone leave me a message",
    "do i have unread mail", "mail i have not read",
    "what messages did i get",
    # From one named player: the inbox lists every kept message, that player's among them.
    "did {player} message me", "did {player} msg me", "did {player} pm me", "did {player} send me a message",
    "any messages from {player}", "did {player} leave me a message",
)
EXAMPLES_ZH = (
    "收件箱", "我的收件箱", "消息", "我的消息", "有消息吗", "有新消息吗", "有没有消息", "有没有新消息",
    "新消息", "未读消息", "通知", "我的通知", "有通知吗", "有新通知吗", "有人私聊我吗", "有人私信我吗",
    "有人找我吗", "有没有人找我", "有没有人私聊我", "我有新消息吗", "我有消息吗", "提醒", "有什么提醒",
    # Written the way players type: short forms, slang, no auxiliaries.
    "谁找我", "谁找过我", "有人找过我吗", "有人找我", "有消息", "有新消息", "有人私聊我", "有人私信我",
    "有没有人私信我", "有人留言吗", "有留言吗", "有没有通知", "通知呢", "消息呢",    "消息有吗", "通知有吗",    "有什么新消息", "有什么消息", "消息有哪些", "通知有哪些",
    "我不在的时候有人找我吗", "有人给我留言吗", "看看信箱", "有没有未读的信", "收件箱里有什么", "信箱里有什么",
    "{player}给我发消息了吗", "{player}有没有给我留言", "{player}给我留言了吗", "{player}私聊我了吗", "{player}找过我吗",
)
SHOWN = 8


def no_item(text: str, ctx: ParseContext) -> Empty | None:
    # A named item is no inbox question. A named player must be the sender of a
    # message to the asker ("did Alex message me", "Alex有没有给我留言", "any msgs
    # from Alex"): every kept message is listed, that player's among them. The other
    # direction ("did you message Alex", "did Alex read my message", "Alex收到我的消息了吗")
    # asks what this module does not keep.
    terms = ctx.analysis.terms
    if any(term.feature == ITEM_FEATURE for term in terms):
        return None
    named = [n for n, term in enumerate(terms) if term.feature == PLAYER_FEATURE]
    if not named:
        return EMPTY
    inbox = [n for n, term in enumerate(terms) if term.feature == "@inbox"]
    if len(named) > 1 or not inbox:
        return None
    sender = named[0]
    if any(term.feature == "@can" for term in terms[:sender]):
        return None  # "can Alex message me" asks what Alex may do
    if inbox[0] < sender:
        words = normalize_text(text).split()
        return EMPTY if "from" in words and words.index("from") + 1 < len(words) and (
            words[words.index("from") + 1] == terms[sender].surface) else None
    after = terms[sender + 1:]
    # "me" after the sender, or a Chinese message word that holds 我 ("给我留言", "找过我", "私我").
    return EMPTY if any(t.surface == "me" or " me" in t.surface or "我" in t.surface for t in after) else None


class InboxModule(Module[Empty]):
    id = "agent:inbox"
    access = Access.READ

    def routing(self) -> ModuleRouting[Empty]:
        return (
            ModuleRouting[Empty].defaults()
            .command(AgentCommand.literal(EMPTY, "inbox", "inbox", "收件箱",
                                          description="messages kept for you while you were busy or away",
                                          aliases=("mail", "messages"), description_zh="你忙碌或离开时为你保留的消息"))
            .semantic(RoutingProfile.read(no_item, EXAMPLES_EN, EXAMPLES_ZH))
            .shortcut("shortcut.inbox", EMPTY)
        )

    def execute(self, args: Empty, ctx: ModuleContext) -> ModuleResult:
        lang = ctx.language
        if not ctx.inbox:
            return ModuleResult((m.say(lang, "inbox.empty"),))
        lines = [m.say(lang, "inbox.header", count=len(ctx.inbox), unread=ctx.inbox_unread)]
        for message in reversed(ctx.inbox[-SHOWN:]):
            lines.append(m.say(lang, "inbox.line", age=m.age(ctx.now - message.at, lang), text=message.text))
        return ModuleResult(tuple(lines))
