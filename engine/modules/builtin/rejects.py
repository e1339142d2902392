"""Reject samples: requests that look like ours but are not.

They sit in the index beside the modules so a request close to "where is my
dog" scores high against them too, the margin to "where am i" shrinks and the
request goes to the model. They have no module and are never candidates.
"""
from __future__ import annotations

from typing import Any

from engine.modules.declarations import RoutingProfile
from engine.modules.registry import ModuleRegistry

PLACES_EN = (
    "where is my house", "where is my base", "where is my horse", "where is the stronghold", "where is spawn",
    "where is my bed", "where can i find netherite", "where is the portal", "where is the end portal",
    "where are the villagers",
)
PLACES_ZH = ("我的家在哪", "要塞在哪", "出生点在哪", "我的床在哪", "下界合金在哪找", "传送门在哪")
OTHERS_EN = (
    "my dog's health", "what is in the furnace", "what is {player} holding", "{player}'s position",
    "{player}'s inventory", "what is the seed", "who is the admin", "who killed me", "position of the moon",
    "status update", "how do i make {item}", "what does {item} do",
    # Greetings that sound like a status question about the assistant.
    "how are you doing", "how are you", "how is it going",
)
OTHERS_ZH = ("狗的血量", "熔炉里有什么", "{player}拿着什么", "{player}的坐标", "谁杀了我", "{item}怎么做")


def register_rejects(registry: ModuleRegistry) -> None:
    places: RoutingProfile[Any] = RoutingProfile.hints(PLACES_EN, PLACES_ZH)
    others: RoutingProfile[Any] = RoutingProfile.hints(OTHERS_EN, OTHERS_ZH)
    registry.reject("places", places)
    registry.reject("other-things", others)
