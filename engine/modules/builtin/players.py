"""agent:players: who is online (tab list) and who is near (player entities in sight)."""
from __future__ import annotations

import math

import attrs

from engine.modules import messages as m
from engine.modules.builtin.common import fmt, players_named
from engine.commands.args import Arg, ArgKind
from engine.modules.declarations import AgentCommand, ModuleRouting, ParseContext, RoutingProfile
from engine.modules.module import Access, Module, ModuleContext, ModuleResult
from engine.routing.vocabulary import ITEM_FEATURE, PLAYER_FEATURE

EXAMPLES_EN = (
    "who is online", "who is on", "who on", "whos on", "who is playing", "who else is online", "who else is on",
    "online players", "players online", "players", "list of players", "player list", "online",
    "how many players are online", "how many players are on", "how many people are online", "how many online",
    "is anyone online", "is anybody online", "anyone online",
    "who is near me", "who is nearby", "who is around", "who is around me", "who is close",
    "is anyone near me", "is anyone nearby", "anyone nearby", "anyone near me", "anybody nearby",
    "players near me", "nearby players", "players nearby", "closest player", "who is the closest player",
    "how far is {player}", "how far away is {player}", "how far is {player} from me", "distance to {player}",
    "where is {player}", "where {player}", "where is located {player}", "is {player} here yet", "{player} where", "is {player} online", "is {player} on", "is {player} nearby", "is {player} near me",
    # Written the way players type: short forms, slang, no auxiliaries.
    "how many people online", "how many players online", "how many on", "how many are online", "who is here",
    "who all is online", "who is on right now", "anyone close to me", "anyone close", "is anyone close",
    "how far am i from {player}", "how far is {player} from here", "where is {player} at", "is {player} here",
    "who is nearest", "who is nearest to me", "who is the nearest player", "any players online", "any players around",
    "anyone around", "anyone here", "is {player} around", "players around me", "how many players are there",    "anyone on", "anyone else on", "who is on the server", "who is in the server",
    "how many people on", "how many ppl online", "who is on rn",
    # A named player's whereabouts: the answer gives where they stand when they are in sight.
    "{player} coords", "what are {player}'s coords", "{player}'s location", "where is {player} located",
    "{player}'s position", "what is {player}'s position",
    "{player} on", "{player} still on", "is {player} still on",
    # Which way they are: the answer names the direction from the player.
    "what direction is {player} from me", "which direction is {player}",
)
EXAMPLES_ZH = (
    "谁在线", "有谁在线", "谁在线上", "谁在玩", "在线玩家", "在线的玩家", "在线玩家有哪些", "有哪些玩家在线",
    "在线人数", "有多少人在线", "多少人在线", "在线有多少人", "玩家列表", "在线列表", "有人在线吗",
    "附近有谁", "附近有人吗", "附近有玩家吗", "谁在我附近", "我附近有人吗", "附近的玩家", "附近玩家",
    "我旁边有谁", "周围有谁", "最近的玩家", "附近有没有人", "有没有人在线",
    "{player}离我多远", "{player}在哪", "{player}在线吗", "{player}在附近吗", "离{player}多远",
    # Written the way players type: short forms, slang, no auxiliaries.
    "在线的有谁", "在线有谁", "有谁", "在线玩家有谁", "在线人数多少", "在线人数是多少", "多少人", "几个人在线",
    "服务器有几个人", "服务器有多少人", "服务器上有谁", "最近的玩家是谁", "离我最近的玩家", "离我最近的是谁",
    "附近有谁在", "附近有人", "谁在附近", "{player}在不在", "{player}在吗", "{player}在哪里", "{player}离我有多远",
    "{player}多远",    "谁离我最近", "谁离我近",    "有谁在", "服务器几个人", "离我近的玩家",
    "{player}的坐标", "{player}坐标多少", "{player}在哪个位置", "{player}的位置", "{player}现在在哪", "现在谁在", "谁在啊",
    "{player}在我哪个方向", "{player}在哪个方向",
)


@attrs.frozen
class PlayersQuery:
    name: str | None  # one named player, or None for the overview


def parse_players(_text: str, ctx: ParseContext) -> PlayersQuery | None:
    if any(t.feature == ITEM_FEATURE for t in ctx.analysis.terms):
        return None
    if ctx.analysis.speaker and any(t.feature == "@position" for t in ctx.analysis.terms):
        return None  # "tell steve where i am", "send alex my coords": the player's own position, passed on
    named = players_named(ctx)
    # A name that is no one online ("is alex_99 on"): answered as not online.
    online = ctx.players or ParseContext.player_names(ctx.snapshot)
    offline = [t.surface for t in ctx.analysis.terms if t.feature == PLAYER_FEATURE and t.surface not in online]
    names = named + [n for n in offline if n not in named]
    if len(names) > 1:
        return None  # two names: which one? ask the model, never guess
    return PlayersQuery(names[0] if names else None)


def parse_command_args(args: str, ctx: ParseContext) -> PlayersQuery | None:
    name = args.strip()
    if not name:
        return PlayersQuery(None)
    # The tab list's spelling, so "!players steve" and "how far is Steve" are the same query.
    known = {n.lower(): n for n in ctx.snapshot.online_players}
    return PlayersQuery(known.get(name.lower(), name))


class PlayersModule(Module[PlayersQuery]):
    id = "agent:players"
    access = Access.READ

    def routing(self) -> ModuleRouting[PlayersQuery]:
        return (
            ModuleRouting[PlayersQuery].defaults()
            .command(AgentCommand.parsed("players", parse_command_args, lambda q: q.name or "",
                                         usage="!players [name]",
                                         description="who is online, who is near, how far and where",
                                         aliases=("online", "who"), description_zh="谁在线、谁在附近、有多远",
                                         args=(Arg("name", ArgKind.PLAYER, optional=True,
                                                   description="one player to locate"),)))
            .semantic(RoutingProfile.read(parse_players, EXAMPLES_EN, EXAMPLES_ZH))
            .shortcut("shortcut.players", PlayersQuery(None))
        )

    def execute(self, args: PlayersQuery, ctx: ModuleContext) -> ModuleResult:
        lang = ctx.language
        snap = ctx.snapshot
        near = snap.nearby_players()
        if args.name is not None:
            wanted = args.name.lower()
            for name, distance in near:
                if name.lower() == wanted:
                    # Where they stand too: "where is alex", "alex's coords" ask for it.
                    seen = next((e.position for e in snap.entities if e.kind == "player" and e.name == name), None)
                    if seen is None:
                        return ModuleResult((m.say(lang, "players.distance", name=name, distance=fmt(distance)),))
                    me = snap.player.position
                    if me is None or distance < 1.0:
                        return ModuleResult((m.say(lang, "players.distance_at", name=name, distance=fmt(distance),
                                                   x=fmt(seen.x), y=fmt(seen.y), z=fmt(seen.z)),))
                    # Which way to walk: the yaw the player would face looking at them.
                    toward = m.direction(math.degrees(math.atan2(me.x - seen.x, seen.z - me.z)), lang)
                    return ModuleResult((m.say(lang, "players.distance_toward", name=name, distance=fmt(distance),
                                               direction=toward, x=fmt(seen.x), y=fmt(seen.y), z=fmt(seen.z)),))
            online = {n.lower(): n for n in snap.online_players}
            if wanted in online:
                return ModuleResult((m.say(lang, "players.online_not_seen", name=online[wanted]),))
            return ModuleResult((m.say(lang, "players.not_online", name=args.name),))
        others = [n for n in snap.online_players if n != snap.player_name]
        lines = [
            m.say(lang, "players.online", count=len(snap.online_players), names=", ".join(snap.online_players))
            if others else m.say(lang, "players.none_online")
        ]
        if near:
            shown = ", ".join(f"{name} ({fmt(distance)} m)" for name, distance in near[:8])
            lines.append(m.say(lang, "players.near", list=shown))
        else:
            lines.append(m.say(lang, "players.none_near"))
        return ModuleResult(tuple(lines))
