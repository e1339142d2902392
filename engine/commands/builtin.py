"""The commands that ship with mcagent: their entries, parsers and handlers.

Session commands move the player or switch what runs for them (the handlers
call the player's ``Session``); assistant commands change how the assistant
answers (``LocalAssistant``); the read-only modules' commands come from the
module registry (``engine.modules.registry.ModuleRegistry.commands``). The
write commands also declare how the assistant's router may offer them
(``CommandRouting``): their examples compete in the margin and the model may
propose them, but they only ever run from an explicit line, a card or a
button the player clicked (invariant 2).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from engine.actions import AdminCommand, MeasurePing, RunLine, SwitchServer
from engine.commands.args import Arg, ArgKind, Word, words
from engine.commands.table import Access, Command, CommandRouting, CommandTable, Invocation, Text, no_args
from engine.actions import Action
from engine.decision.provider_names import PROVIDERS
from engine.llm.modes import ConversationMode
from engine.modules.builtin.common import EMPTY, Empty, fmt, players_named
from engine.modules.declarations import ParseContext, RoutingProfile
from engine.routing.vocabulary import NUMBER_FEATURE, PLAYER_FEATURE

Out = Sequence[Action | RunLine]


# -- parsers ------------------------------------------------------------------------------
@attrs.frozen
class GotoArgs:
    x: float
    y: float
    z: float


@attrs.frozen
class FollowArgs:
    name: str


@attrs.frozen
class Switch:
    """A sub-command word and its optional value: ``on``, ``off``, ``status``, ``provider mock``."""

    word: str
    value: str | None = None


def _three_numbers(values: list[str]) -> GotoArgs | None:
    if len(values) != 3:
        return None
    try:
        x, y, z = (float(v) for v in values)
    except ValueError:
        return None
    return GotoArgs(x, y, z)


def parse_goto_text(_text: str, ctx: ParseContext) -> GotoArgs | None:
    return _three_numbers([t.surface for t in ctx.analysis.terms if t.feature == NUMBER_FEATURE])


def parse_goto(args: str, _ctx: ParseContext) -> GotoArgs | None:
    return _three_numbers(args.replace(",", " ").split())


# The words that say "a server" without naming one ("the survival server": survival names it).
GENERIC_SERVER_WORDS = frozenset({"server", "servers", "this server", "服务器", "服务端", "服", "这个服务器", "这个服"})
_SERVER_NAME_FEATURES = frozenset({"@server", "@modename", PLAYER_FEATURE})


def parse_server_text(_text: str, ctx: ParseContext) -> str | None:
    """The one server a request names ("take me to the survival server": survival; "带我去大厅":
    大厅), as typed: the proxy matches it against the servers' names and aliases, and answers
    an unknown one with the list. None unless exactly one name is there."""
    found: list[str] = []
    chars = ""  # unknown Chinese characters in a row are one word
    for term in ctx.analysis.terms:
        if term.feature.startswith("c:"):
            chars += term.surface
            continue
        if chars:
            found.append(chars)
            chars = ""
        if term.feature.startswith("w:") or (term.feature in _SERVER_NAME_FEATURES
                                             and term.surface not in GENERIC_SERVER_WORDS):
            found.append(term.surface)
    if chars:
        found.append(chars)
    return found[0] if len(found) == 1 else None


def parse_follow_text(_text: str, ctx: ParseContext) -> FollowArgs | None:
    named = players_named(ctx)
    return FollowArgs(named[0]) if len(named) == 1 else None


def parse_follow(args: str, _ctx: ParseContext) -> FollowArgs | None:
    name = args.strip()
    return FollowArgs(name) if name and " " not in name else None


ON_WORDS = ("on", "start", "enable", "开", "开启")
OFF_WORDS = ("off", "stop", "disable", "关", "关闭")


def parse_autopilot(args: str, _ctx: ParseContext) -> Switch | None:
    parts = args.lower().split()
    word = parts[0] if parts else "status"
    if word in ON_WORDS:
        return Switch("on", " ".join(parts[1:]) or None)      # a goal may follow: on 16 torch
    if word in OFF_WORDS:
        return Switch("off")
    if word == "status":
        return Switch("status")
    if word == "provider":
        return Switch("provider", parts[1] if len(parts) == 2 else None)
    return None


def render_switch(value: Switch) -> str:
    return value.word if value.value is None else f"{value.word} {value.value}"


def parse_reflex(args: str, _ctx: ParseContext) -> Switch | None:
    word = (args.split() or ["list"])[0].lower()
    return Switch(word) if word in ("on", "off", "list") else None


def parse_login(args: str, _ctx: ParseContext) -> str | None:
    sub, _, secret = args.strip().partition(" ")
    return secret.strip() if sub.lower() == "login" and secret.strip() else None


def parse_memory(args: str, _ctx: ParseContext) -> str | None:
    return "clear" if args.strip().lower() in ("clear", "清除", "清空") else None


def parse_history(args: str, _ctx: ParseContext) -> str | None:
    word = (args.split() or ["status"])[0].lower()
    if word in ON_WORDS:
        return "on"
    if word in OFF_WORDS:
        return "off"
    return "status" if word == "status" else None


def parse_word(args: str, _ctx: ParseContext) -> str:
    return args.strip().lower()


def parse_rest(args: str, _ctx: ParseContext) -> str:
    return args.strip()


# -- handlers -------------------------------------------------------------------------------
def _help(inv: Invocation, _: Empty) -> Out:
    return [inv.the_session().help(inv.lang)]


def _ping(inv: Invocation, _: Empty) -> Out:
    return [MeasurePing()]


def _server(inv: Invocation, name: str) -> Out:
    return [SwitchServer(name or None)]


def _stop(inv: Invocation, _: Empty) -> Out:
    return list(inv.the_session().stop(inv.now))


def _goto(inv: Invocation, args: GotoArgs) -> Out:
    return list(inv.the_session().goto(args.x, args.y, args.z))


def _follow(inv: Invocation, args: FollowArgs) -> Out:
    return list(inv.the_session().follow(args.name))


def _autopilot(inv: Invocation, args: Switch) -> Out:
    return list(inv.the_session().autopilot(args.word, args.value, inv.now))


def _get(inv: Invocation, text: str) -> Out:
    return list(inv.the_session().get(text, inv.now))


def _eat(inv: Invocation, _: Empty) -> Out:
    return list(inv.the_session().eat())


def _reflex(inv: Invocation, args: Switch) -> Out:
    return list(inv.the_session().reflex(args.word, inv.now))


def _admin_login(inv: Invocation, secret: str) -> Out:
    return list(inv.the_session().admin_login(secret, inv.now))


def _system(inv: Invocation, line: str) -> Out:
    return [AdminCommand(line or "help")]


def _mode(inv: Invocation, word: str) -> Out:
    return list(inv.the_assistant().mode_command(word, inv.lang))


def _ai(inv: Invocation, word: str) -> Out:
    if not word:
        return [RunLine("assistant")]  # !ai alone: what the assistant can do
    return list(inv.the_assistant().ai_command(word, inv.lang))


def _memory(inv: Invocation, word: str) -> Out:
    return list(inv.the_assistant().memory_command(word, inv.lang))


def _history(inv: Invocation, word: str) -> Out:
    return list(inv.the_assistant().history_command(word, inv.lang))


def _card(inv: Invocation, args: str) -> Out:
    return inv.the_assistant().click_card(args, inv.lang, inv.now)


def _notice(inv: Invocation, args: str) -> Out:
    return inv.the_assistant().click_notice(args, inv.lang, inv.now)


# -- the entries ----------------------------------------------------------------------------
HELP = Command("help", no_args(EMPTY), _help, Text("!help", "!help"), Text("this list", "本列表"), aliases=("?",),
               args=())
PING = Command("ping", no_args(EMPTY), _ping, Text("!ping"),
               Text("round-trip time from the proxy to the server", "代理到服务器的往返时间"), args=())
SERVER = Command(
    "server", parse_rest, _server, Text("!server [name]"),
    Text("the servers behind the proxy, or move to one", "代理后面的服务器，或移动到其中一个"),
    args=(Arg("server", ArgKind.TEXT, optional=True, description="the server's name as the player said it"),),
    write=True,
    routing=CommandRouting("agent:server", RoutingProfile.hints(
        ("take me to the survival server", "send me to lobby", "send me to the hub", "go to the lobby",
         "switch to the creative server", "move me to the survival server", "join the minigames server",
         "connect me to survival", "switch server", "change server"),
        ("带我去生存服", "带我去大厅", "去生存服务器", "切换到生存服", "传送到大厅", "回大厅", "换服", "切换服务器"),
        parse_server_text,
    ).confirmed_without_model(), lambda name: name),
)
_NUMBER = ArgKind.NUMBER
SWITCH = ("on", "off", "status")
MODES = tuple(mode.value for mode in ConversationMode)
GOTO = Command(
    "goto", parse_goto, _goto, Text("!goto x y z"),
    Text("walk there; sneak twice or !stop to take over", "走到那里；连按两次潜行或 !stop 接管"),
    routing=CommandRouting("agent:goto", RoutingProfile.hints(
        ("go to {number} {number} {number}", "take me to {number} {number} {number}", "walk to {number} {number} {number}",
         "go to spawn", "take me home", "go home", "bring me to the village", "travel to {number} {number} {number}",
         "move to {number} {number} {number}", "navigate to {number} {number} {number}"),
        ("去{number} {number} {number}", "带我去{number} {number} {number}", "走到{number} {number} {number}",
         "回家", "去出生点", "带我回家", "移动到{number} {number} {number}"),
        parse_goto_text,
    ), lambda a: f"{fmt(a.x)} {fmt(a.y)} {fmt(a.z)}"),
    args=(Arg("x", _NUMBER), Arg("y", _NUMBER), Arg("z", _NUMBER)), write=True,
)
FOLLOW = Command(
    "follow", parse_follow, _follow, Text("!follow <player>", "!follow <玩家>"),
    Text("keep near another player", "跟随另一名玩家"),
    routing=CommandRouting("agent:follow", RoutingProfile.hints(
        ("follow {player}", "follow me", "keep following {player}", "chase {player}", "follow that player"),
        ("跟着{player}", "跟随{player}", "跟着我", "跟我走"),
        parse_follow_text,
    ), lambda a: a.name),
    args=(Arg("player", ArgKind.PLAYER, description="an online player's name"),), write=True,
)
STOP = Command(
    "stop", no_args(EMPTY), _stop, Text("!stop"),
    Text("stop whatever the agent is doing (kill switch)", "停止代理正在做的一切（紧急停止）"),
    routing=CommandRouting("agent:stop", RoutingProfile.hints(
        ("stop", "stop moving", "stop following", "halt", "stop now", "cancel", "stop everything"),
        ("停", "停下", "停止", "别动", "停下来", "取消"),
    ), lambda _: ""),
    args=(), write=True,
)
AUTOPILOT = Command(
    "autopilot", parse_autopilot, _autopilot, Text(f"!autopilot on|off|status|provider {'|'.join(PROVIDERS)}"),
    Text("let the agent play toward an iron pickaxe (on <item>: toward that); sneak twice or !stop to take over",
         "让代理替你玩，直到做出铁镐（on <物品>：直到拿到它）；连按两次潜行或 !stop 接管"),
    # The model may switch it on or off; status and the provider are the player's own words.
    args=(Arg("state", ArgKind.CHOICE, ("on", "off")),), write=True,
    words=words(*SWITCH, Word("provider", words(*PROVIDERS))),
    routing=CommandRouting("agent:autopilot", RoutingProfile.hints(
        ("turn on autopilot", "turn off autopilot", "start autopilot", "stop autopilot", "enable autopilot",
         "disable autopilot", "autopilot on", "autopilot off"),
        ("开启自动驾驶", "关闭自动驾驶", "打开自动驾驶", "关掉自动驾驶", "启动自动驾驶", "停止自动驾驶"),
    ), render_switch),
)
GET = Command(
    "get", parse_rest, _get, Text("!get [count] <item>", "!get [数量] <物品>"),
    Text("let the agent play until you have it (torch, iron_sword, 16 torch...)",
         "让代理替你玩，直到拿到它（torch、iron_sword、16 torch……）"),
    args=(Arg("goal", ArgKind.TEXT, description="what to get: an item id, a count before it (16 torch)"),),
    write=True,
    # No examples: local similarity never offers it (the routing corpus has no such line to
    # measure it on); the model may choose it, and its card is confirmed like every write.
    routing=CommandRouting("agent:get", RoutingProfile.hints((), ()), lambda text: text),
)
EAT = Command(
    "eat", no_args(EMPTY), _eat, Text("!eat"), Text("eat the best food you carry", "吃掉你携带的最好的食物"),
    routing=CommandRouting("agent:eat", RoutingProfile.hints(
        ("eat", "eat something", "eat food", "eat some {item}", "i want to eat", "feed me"),
        ("吃东西", "吃点东西", "吃{item}", "吃饭"),
    ), lambda _: ""),
    args=(), write=True,
)
REFLEX = Command(
    "reflex", parse_reflex, _reflex, Text("!reflex on|off|list"),
    Text("reflexes that save you from lava, fire, drowning, mobs, hunger, falls, and eat when hurt",
         "反射：躲避岩浆、火、溺水、怪物、饥饿、坠落，受伤时进食"),
    args=(Arg("state", ArgKind.CHOICE, ("on", "off", "list"), optional=True),), write=True,
)
SYSTEM = Command(
    "system", parse_rest, _system, Text("!system <console command>", "!system <控制台命令>"),
    Text("admin console commands in game", "在游戏中使用管理控制台命令"), access=Access.ADMIN,
    args=(Arg("command", ArgKind.TEXT, optional=True),), write=True,
)
ADMIN_LOGIN = Command(
    "admin", parse_login, _admin_login, Text("!admin login <secret>", "!admin login <密钥>"),
    Text("offline mode: prove you are a listed admin, once per session", "离线模式：证明你是列出的管理员，每次会话一次"),
    args=(Arg("login", ArgKind.CHOICE, ("login",)), Arg("secret", ArgKind.TEXT)),
)
MODE = Command(
    "mode", parse_word, _mode, Text(f"!mode {'|'.join(MODES)}"),
    Text("conversation mode (offline: never ask the model; free: chat)", "对话模式（offline：从不询问模型；free：聊天）"),
    args=(Arg("mode", ArgKind.CHOICE, MODES),),
)
AI = Command(
    "ai", parse_word, _ai, Text("!ai on|off"),
    Text("allow or stop requests to the external model for you", "允许或停止为你向外部模型发送请求"),
    args=(Arg("state", ArgKind.CHOICE, SWITCH, optional=True),),
)
MEMORY = Command(
    "memory", parse_memory, _memory, Text("!memory clear"),
    Text("forget our conversation and your remembered requests", "忘记对话和你被记住的请求"),
    args=(Arg("clear", ArgKind.CHOICE, ("clear",)),),
)
HISTORY = Command(
    "history", parse_history, _history, Text("!history on|off|status"),
    Text("off: nothing you ask is remembered, every question is routed afresh",
         "关闭后不记住你问的任何内容，每个问题都重新路由"),
    args=(Arg("state", ArgKind.CHOICE, SWITCH, optional=True),),
)
CARD = Command("card", parse_rest, _card, Text("/agent card <id> <version> <option>"), Text("a card's button"),
               listed=False, args=(Arg("card", ArgKind.TEXT),))
NOTICE = Command("notice", parse_rest, _notice, Text("/agent notice <id> <button>"), Text("a notification's button"),
                 listed=False, args=(Arg("button", ArgKind.TEXT),))

# What every session has, with or without an assistant (a new command is one more entry here, or
# in ASSISTANT_COMMANDS when its handler needs the assistant).
SESSION_COMMANDS: tuple[Command[Any], ...] = (HELP, PING, SERVER, GOTO, FOLLOW, STOP, AUTOPILOT, GET, EAT, REFLEX,
                                              ADMIN_LOGIN, SYSTEM)
# What an assistant adds.
ASSISTANT_COMMANDS: tuple[Command[Any], ...] = (MODE, AI, MEMORY, HISTORY, CARD, NOTICE)
# The commands the assistant's router may offer (never run) from what a player says.
ROUTED_COMMANDS: tuple[Command[Any], ...] = tuple(c for c in SESSION_COMMANDS + ASSISTANT_COMMANDS
                                                  if c.routing is not None)
SESSION_TABLE = CommandTable(SESSION_COMMANDS).freeze()


def full_table(module_commands: Iterable[Command[Any]], more: Iterable[Command[Any]] = ()) -> CommandTable:
    """A session's commands with an assistant: the modules' read-only ones right after !help and
    !ping (in help, the questions come first), then the rest and ``more`` (commands added beyond
    these), the modules' admin ones last."""
    modules = list(module_commands)
    player = [c for c in modules if c.access is Access.PLAYER]
    admin = [c for c in modules if c.access is Access.ADMIN]
    first = (HELP, PING)
    rest = [c for c in SESSION_COMMANDS + ASSISTANT_COMMANDS if c not in first]
    return CommandTable([*first, *player, *rest, *more, *admin]).freeze()
