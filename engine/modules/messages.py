"""Reply texts in English and Chinese, looked up by key.

One table so a missing translation is visible in one place; ``say`` falls back
to English for a key without a zh text rather than failing mid-reply.
"""
from __future__ import annotations

from typing import Any

MESSAGES: dict[str, tuple[str, str]] = {
    # position
    "position.at": ("You are at {x}, {y}, {z} in {dimension}, facing {facing} (yaw {yaw}).",
                    "你在 {dimension} 的 {x}, {y}, {z}，面朝{facing}（yaw {yaw}）。"),
    "position.unknown": ("I don't know your position yet (no position packet seen since you joined).",
                         "还不知道你的位置（加入后还没有收到位置数据包）。"),
    # status
    "status.health": ("Health {health}/20 ({hearts} hearts).", "生命值 {health}/20（{hearts} 颗心）。"),
    "status.food": ("Food {food}/20, saturation {saturation}.", "饥饿值 {food}/20，饱和度 {saturation}。"),
    "status.xp": ("XP level {level} ({percent}% to the next).", "经验等级 {level}（距下一级 {percent}%）。"),
    "status.mode": ("Game mode: {mode}.", "游戏模式：{mode}。"),
    "status.unknown": ("I have not seen your {what} yet.", "还没有收到你的{what}数据。"),
    # players
    "players.online": ("{count} online: {names}.", "在线 {count} 人：{names}。"),
    "players.none_online": ("No one else is on the player list.", "玩家列表里没有其他人。"),
    "players.near": ("Near you: {list}.", "你附近：{list}。"),
    "players.none_near": ("No other player is in sight.", "视野内没有其他玩家。"),
    "players.distance": ("{name} is {distance} blocks away.", "{name} 离你 {distance} 格。"),
    "players.distance_at": ("{name} is {distance} blocks away, at {x}, {y}, {z}.",
                            "{name} 离你 {distance} 格，在 {x}, {y}, {z}。"),
    "players.distance_toward": ("{name} is {distance} blocks away to the {direction}, at {x}, {y}, {z}.",
                                "{name} 离你 {distance} 格，在你{direction}边，坐标 {x}, {y}, {z}。"),
    "players.online_not_seen": ("{name} is online but not within sight, so I can't tell the distance.",
                                "{name} 在线，但不在视野内，无法得知距离。"),
    "players.not_online": ("{name} is not online.", "{name} 不在线。"),
    # inventory
    "inventory.held": ("In your hand: {item}.", "手上拿着：{item}。"),
    "inventory.held_empty": ("Your hand is empty.", "你手上是空的。"),
    "inventory.contents": ("Inventory ({stacks} stacks, {free} of {slots} slots free): {list}.",
                           "背包（{stacks} 组，{slots} 格中空 {free} 格）：{list}。"),
    "inventory.empty": ("Your inventory is empty (or I have not seen it yet).", "背包是空的（或还没收到背包数据）。"),
    "inventory.count": ("You have {count} × {item}.", "你有 {count} 个{item}。"),
    "inventory.count_none": ("You have no {item}.", "你没有{item}。"),
    "inventory.kind": ("You have {count} {item}: {list}.", "你有 {count} 个{item}：{list}。"),
    # item
    "item.id": ("{name}: {id}", "{name}：{id}"),
    "item.ask": ("Several items match \"{query}\": {list}. Which one? Try !item <exact name>.",
                 "有多个物品匹配“{query}”：{list}。是哪一个？试试 !item <准确名称>。"),
    "item.none": ("No item is called \"{query}\".", "没有叫“{query}”的物品。"),
    "item.other_version": ("{version} has no {list}: it is in {found}.", "{version} 没有{list}：它在 {found} 里有。"),
    "item.usage": ("Usage: !item <name>, e.g. !item oak planks", "用法：!item <名称>，例如 !item 橡木木板"),
    # inbox
    "inbox.empty": ("Your inbox is empty.", "收件箱是空的。"),
    "inbox.header": ("Inbox: {count} message(s), {unread} new.", "收件箱：{count} 条消息，{unread} 条新消息。"),
    "inbox.line": ("{age} ago: {text}", "{age}前：{text}"),
    # progress
    "progress.not_started": ("Autopilot not started yet, so there is no milestone progress; !autopilot on starts it.",
                             "自动驾驶未启动，暂无里程碑进度；输入 !autopilot on 开启。"),
    "progress.report": ("Progress: {text}.", "进度：{text}。"),
    # help
    "help.header": ("I answer these from live game state:", "我可以根据实时游戏状态回答："),
    "help.examples": ("Ask in your own words, e.g. @ai where am i / @ai what's the id of oak planks.",
                      "也可以直接问，例如 @ai 我在哪 / @ai 橡木木板的id是什么。"),
    # writes
    "write.unavailable": ("Not available yet: {what}. Nothing was done.", "暂不可用：{what}。未执行任何操作。"),
    "write.usage": ("Usage: {usage}", "用法：{usage}"),
    # routing diagnostics
    "routing.denied": ("Not permitted: !system routing is for admins.", "无权限：!system routing 仅限管理员。"),
    # fallback
    "fallback.unsure": ("I'm not sure what you mean, so I did nothing.", "我不确定你的意思，所以没有执行任何操作。"),
    "fallback.no_model": ("No model service is configured to interpret it.", "没有配置模型服务来理解这句话。"),
    "fallback.try": ("These read-only commands may help:", "这些只读命令可能有帮助："),
    "fallback.option": ("{n}. {command} - {label}", "{n}. {command} - {label}"),
    "fallback.pick": ("Reply @ai <number>, type an option's name, or click one.",
                      "回复 @ai <编号>、输入选项名称或点击其中一个。"),
    "fallback.shortcuts": ("Read-only commands: {commands}.", "只读命令：{commands}。"),
    "fallback.writes": ("To act, use an explicit command: {commands}.", "要执行操作，请使用明确的命令：{commands}。"),
    "fallback.help": ("!help lists every command.", "!help 列出全部命令。"),
    "fallback.too_long": ("That request is too long for me to read locally ({limit} characters at most).",
                          "这句话太长，无法在本地处理（最多 {limit} 个字符）。"),
    "option.expired": ("There is no open list of options to pick from.", "当前没有可选择的选项列表。"),
    "option.range": ("Pick a number from 1 to {count}.", "请选择 1 到 {count} 之间的编号。"),
    "args.too_long": ("Those arguments are too long ({limit} characters at most). Usage: {usage}",
                      "参数太长（最多 {limit} 个字符）。用法：{usage}"),
    "unknown.args": ("I could not read the arguments. Usage: {usage}", "无法识别参数。用法：{usage}"),
    # shortcut labels
    "shortcut.position": ("where am I", "我的位置"),
    "shortcut.status": ("health, food, XP, game mode", "生命、饥饿、经验、游戏模式"),
    "shortcut.players": ("who is online / near", "在线和附近的玩家"),
    "shortcut.inventory": ("held item and inventory", "手持物品和背包"),
    "shortcut.item": ("item id lookup", "查询物品 ID"),
    "shortcut.inbox": ("kept messages", "收到的消息"),
    "shortcut.progress": ("autopilot progress", "自动驾驶进度"),
    "shortcut.help": ("what I can do", "我能做什么"),
}

DIMENSIONS: dict[str, tuple[str, str]] = {
    "minecraft:overworld": ("the Overworld", "主世界"),
    "minecraft:the_nether": ("the Nether", "下界"),
    "minecraft:the_end": ("the End", "末地"),
}

GAME_MODES: dict[int, tuple[str, str]] = {
    0: ("survival", "生存"), 1: ("creative", "创造"), 2: ("adventure", "冒险"), 3: ("spectator", "旁观"),
}

# Minecraft yaw: 0 faces south (+z), 90 west, 180 north, 270 east.
DIRECTIONS: tuple[tuple[str, str], ...] = (
    ("south", "南"), ("south-west", "西南"), ("west", "西"), ("north-west", "西北"),
    ("north", "北"), ("north-east", "东北"), ("east", "东"), ("south-east", "东南"),
)


def pick(language: str, pair: tuple[str, str]) -> str:
    return pair[1] if language == "zh" and pair[1] else pair[0]


def say(language: str, key: str, **values: Any) -> str:
    return pick(language, MESSAGES[key]).format(**values)


def direction(yaw: float, language: str) -> str:
    index = int(((yaw % 360.0) + 22.5) // 45.0) % 8
    return pick(language, DIRECTIONS[index])


def dimension(name: str | None, language: str) -> str:
    if name is None:
        return "?"
    known = DIMENSIONS.get(name if ":" in name else f"minecraft:{name}")
    return pick(language, known) if known else name


def game_mode(mode: int | None, language: str) -> str:
    if mode is None:
        return "?"
    known = GAME_MODES.get(mode & 0x7)
    return pick(language, known) if known else str(mode)


def age(seconds: float, language: str) -> str:
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds}s" if language != "zh" else f"{seconds}秒"
    if seconds < 3600:
        return f"{seconds // 60}m" if language != "zh" else f"{seconds // 60}分钟"
    return f"{seconds // 3600}h" if language != "zh" else f"{seconds // 3600}小时"
