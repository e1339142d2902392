"""Reply texts of the model service, cards, modes and notifications (English, Chinese)."""
from __future__ import annotations

from typing import Any

MESSAGES: dict[str, tuple[str, str]] = {
    # why the model was not asked, or did not answer (first line of a card)
    "why.no_service": ("No model service is configured to interpret it.", "没有配置模型服务来理解这句话。"),
    "why.no_key": ("The model service has no API key configured, so I could not ask it.",
                   "模型服务没有配置 API 密钥，所以无法询问模型。"),
    "why.ai_off": ("External AI is off for you (!ai on turns it back on), so I did not ask the model.",
                   "你已关闭外部 AI（!ai on 可重新开启），所以没有询问模型。"),
    "why.offline": ("You are in offline mode (!mode standard lets me ask the model), so I did not ask it.",
                    "你处于离线模式（!mode standard 可允许询问模型），所以没有询问模型。"),
    "why.timeout": ("The model service did not answer in time.", "模型服务没有及时回应。"),
    "why.unavailable": ("The model service is unavailable right now.", "模型服务暂时不可用。"),
    "why.refused": ("The model service refused the request (check its API key and model name).",
                    "模型服务拒绝了请求（请检查 API 密钥和模型名称）。"),
    "why.rate": ("You asked the model {limit} times in the last minute; wait {seconds} s or use a command.",
                 "你在一分钟内已询问模型 {limit} 次；请等待 {seconds} 秒或使用命令。"),
    "why.concurrency": ("The model service is busy with other requests; try again in a moment.",
                        "模型服务正忙于其他请求，请稍后再试。"),
    "why.player_busy": ("Your previous question is still with the model; wait for its answer.",
                        "你的上一个问题仍在等待模型回答，请稍候。"),
    "why.budget": ("Today's model budget is used up (it resets at 00:00 UTC).",
                   "今天的模型额度已用完（UTC 00:00 重置）。"),
    "why.rejected": ("The model's answer could not be used ({reason}).", "模型的回答无法使用（{reason}）。"),
    # a write the model proposed
    "card.write_local": ("You asked for {command} ({what}). Nothing was done yet: click to confirm.",
                         "你要执行 {command}（{what}）。尚未执行：点击以确认。"),
    "card.write": ("The model suggests {command} ({what}). Nothing was done yet: click to confirm.",
                   "模型建议执行 {command}（{what}）。尚未执行：点击以确认。"),
    "card.type": ("Type yes to confirm, cancel to drop it, or details.", "输入“确认”执行，“取消”放弃，或“详情”。"),
    "card.cancelled": ("Cancelled: {command} was not run.", "已取消：{command} 没有执行。"),
    "card.details": ("{command}: {what}. Nothing was done yet.", "{command}：{what}。尚未执行。"),
    # the player's switches
    "memory.cleared": ("Memory cleared: our conversation and your remembered requests are forgotten; "
                       "cards shown before no longer work.",
                       "记忆已清除：对话和记住的请求都已忘记；之前的卡片不再有效。"),
    "history.on": ("History is on: requests the model answered are remembered for a few minutes, "
                   "so asking again needs no model call.",
                   "历史记录已开启：模型回答过的请求会被记住几分钟，再问时无需调用模型。"),
    "history.off": ("History is off: nothing you ask is remembered (!history on turns it back on).",
                    "历史记录已关闭：你问的内容都不会被记住（!history on 可重新开启）。"),
    # clicks
    "card.unknown": ("That card is unknown or too old; ask again.", "该卡片不存在或已过旧，请重新提问。"),
    "card.expired": ("That card has expired; ask again.", "该卡片已过期，请重新提问。"),
    "card.stale": ("That card is out of date (your settings or memory changed since); ask again.",
                   "该卡片已失效（你的设置或记忆已改变），请重新提问。"),
    "card.range": ("That card has no such option.", "该卡片没有这个选项。"),
    "card.used": ("That confirmation was already used.", "该确认已使用过。"),
    "card.syntax": ("Usage: /agent card <id> <version> <option> (the buttons send it for you).",
                    "用法：/agent card <编号> <版本> <选项>（点击按钮会自动发送）。"),
    # conversation modes
    "mode.now": ("Conversation mode: {mode}. {explain}", "对话模式：{mode}。{explain}"),
    "mode.set": ("Conversation mode is now {mode}. {explain}", "对话模式已设为 {mode}。{explain}"),
    "mode.usage": ("Usage: !mode offline|standard|extended|free", "用法：!mode offline|standard|extended|free"),
    "mode.offline": ("Only commands and confident local answers; the model is never asked.",
                     "只使用命令和有把握的本地回答，从不询问模型。"),
    "mode.standard": ("Local answers first; when unsure I ask the model once.",
                      "优先本地回答；不确定时询问模型一次。"),
    "mode.extended": ("Stricter local answers, then the model, which may also chat.",
                      "本地回答更严格，然后询问模型，模型也可以聊天。"),
    "mode.free": ("Every @ai message goes to the model as conversation; ! commands still work.",
                  "每条 @ai 消息都作为对话发给模型；! 命令仍然可用。"),
    # external AI switch
    "ai.on": ("External AI is on: requests I'm unsure about may be sent to the model service.",
              "外部 AI 已开启：我不确定的请求可能会发送给模型服务。"),
    "ai.off": ("External AI is off: nothing you say is sent to the model service; commands and local answers still work.",
               "外部 AI 已关闭：你说的话不会发送给模型服务；命令和本地回答仍然可用。"),
    "ai.no_key": ("(No API key is configured on this proxy, so the model cannot be asked anyway.)",
                  "（此代理没有配置 API 密钥，因此无论如何都无法询问模型。）"),
    "ai.usage": ("Usage: !ai on|off (!ai alone shows what the assistant can do)",
                 "用法：!ai on|off（单独输入 !ai 显示助手的功能）"),
    # notifications
    "notice.inbox": ("New message kept in your inbox ({unread} unread).", "收件箱有新消息（{unread} 条未读）。"),
    "notice.open_inbox": ("Open inbox", "打开收件箱"),
    "notice.dismiss": ("Dismiss", "忽略"),
    "notice.autopilot_status": ("Autopilot status", "自动驾驶状态"),
    "notice.stop_autopilot": ("Stop autopilot", "停止自动驾驶"),
    "notice.dismissed": ("Dismissed.", "已忽略。"),
    "notice.gone": ("That notification is no longer shown.", "该通知已不再显示。"),
    # model answers
    "chat.empty": ("The model gave no answer.", "模型没有给出回答。"),
    # help rows
    "help.mode": ("conversation mode (offline: never ask the model; free: chat)",
                  "对话模式（offline：从不询问模型；free：聊天）"),
    "help.ai": ("allow or stop requests to the external model for you", "允许或停止为你向外部模型发送请求"),
}

REJECT_REASONS: dict[str, tuple[str, str]] = {
    "unknown_module": ("it named a module that does not exist", "它选择了不存在的模块"),
    "bad_arguments": ("its arguments did not fit", "参数不符合要求"),
    "several_choices": ("it chose several things at once", "它同时选择了多项"),
    "empty": ("it was empty", "回答为空"),
    "tool_in_chat": ("it was not text", "不是文字回答"),
    "unparsed": ("the command it chose could not be read", "它选择的命令无法解析"),
}


def say(language: str, key: str, **values: Any) -> str:
    en, zh = MESSAGES[key]
    return (zh if language == "zh" and zh else en).format(**values)


def reject_reason(language: str, reason: str) -> str:
    en, zh = REJECT_REASONS.get(reason, (reason, reason))
    return zh if language == "zh" else en
