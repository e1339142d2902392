"""The item name table: registry ids, English display names, hand-written zh names.

``data/items.json`` is generated from minecraft-data by
``scripts/generate_item_table.py`` (newest version it describes);
``data/items_zh.json`` is written by hand for common items. Phrases are stored
in the tokenizer's spelling ("oak planks", plural "diamonds", "oak_planks",
"minecraft:oak_planks", "橡木木板"), so the vocabulary can turn them into the
``@item`` slot and a parser can map the slot's surface back to ids.
``data/items_short.json`` adds the short names players use for one item
("iron", "铁"), for requests only.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources

import attrs

from engine.routing.normalize import normalize_text
from engine.routing.tokens import english_words


@attrs.frozen
class ItemInfo:
    id: str
    name: str
    zh: tuple[str, ...] = ()

    def display(self, language: str) -> str:
        return self.zh[0] if language == "zh" and self.zh else self.name


def _plurals(word: str) -> tuple[str, ...]:
    if not word.isalpha() or word.endswith("s"):
        return ()
    if word.endswith(("x", "ch", "sh")):
        return (word + "es",)
    return (word + "s",)


class ItemTable:
    def __init__(
        self,
        items: Iterable[ItemInfo],
        version: str = "",
        short_names: Mapping[str, Sequence[str]] = {},
    ) -> None:
        """``short_names``: registry id → what players call it for short ("iron", "铁").

        Short names name the item in requests (``lookup``) but are not names:
        ``search`` (``!item <name>``) matches the full names only.
        """
        self.version = version
        self._by_id: dict[str, ItemInfo] = {}
        self._english: dict[str, set[str]] = {}
        self._chinese: dict[str, set[str]] = {}
        # For ``search``: each word of an English name → items, so a query costs
        # one lookup per word instead of re-tokenizing every name.
        self._name_words: dict[str, set[str]] = {}
        self._with_zh: list[ItemInfo] = []
        for item in items:
            self._by_id[item.id] = item
            words = english_words(item.name)
            spellings = {words}
            if words:
                spellings.update(words[:-1] + (p,) for p in _plurals(words[-1]))
            path = item.id.split(":", 1)[-1]
            spellings.add((path,))
            spellings.add((item.id,))
            for spelling in spellings:
                if spelling:
                    self._english.setdefault(" ".join(spelling), set()).add(item.id)
            for name in item.zh:
                self._chinese.setdefault(normalize_text(name), set()).add(item.id)
            for word in words:
                self._name_words.setdefault(word, set()).add(item.id)
            if item.zh:
                self._with_zh.append(item)
        self._short_english: dict[str, set[str]] = {}
        self._short_chinese: dict[str, set[str]] = {}
        for item_id, names in short_names.items():
            if item_id not in self._by_id:
                raise ValueError(f"short name for unknown item {item_id}")
            for name in names:
                words = english_words(name)
                if words:
                    self._short_english.setdefault(" ".join(words), set()).add(item_id)
                else:
                    self._short_chinese.setdefault(normalize_text(name), set()).add(item_id)

    @classmethod
    def builtin(cls) -> "ItemTable":
        data = resources.files("engine.modules").joinpath("data")
        table = json.loads(data.joinpath("items.json").read_text(encoding="utf-8"))
        zh = json.loads(data.joinpath("items_zh.json").read_text(encoding="utf-8"))["aliases"]
        short = json.loads(data.joinpath("items_short.json").read_text(encoding="utf-8"))
        items = [ItemInfo(row["id"], row["name"], tuple(zh.get(row["id"], ()))) for row in table["items"]]
        short_names: dict[str, list[str]] = {}
        for lang in ("en", "zh"):
            for item_id, names in short[lang].items():
                short_names.setdefault(item_id, []).extend(names)
        return cls(items, table["version"], short_names)

    def __len__(self) -> int:
        return len(self._by_id)

    def english_phrases(self) -> list[str]:
        return sorted(self._english.keys() | self._short_english.keys())

    def chinese_phrases(self) -> list[str]:
        return sorted(self._chinese.keys() | self._short_chinese.keys())

    def get(self, item_id: str) -> ItemInfo | None:
        if ":" not in item_id:
            item_id = f"minecraft:{item_id}"
        return self._by_id.get(item_id)

    def lookup(self, surface: str) -> tuple[ItemInfo, ...]:
        """Items a matched phrase names: one, or several when a name is shared (music discs)."""
        key = normalize_text(surface)
        ids = (self._english.get(key) or self._chinese.get(key) or self._short_english.get(key)
               or self._short_chinese.get(key) or set())
        return tuple(self._by_id[i] for i in sorted(ids))

    def _exact(self, key: str) -> tuple[ItemInfo, ...]:
        ids = self._english.get(key) or self._chinese.get(key) or set()
        return tuple(self._by_id[i] for i in sorted(ids))

    def search(self, query: str) -> tuple[ItemInfo, ...]:
        """For ``!item <name>``: an exact name or id, else every item whose name contains the words."""
        key = normalize_text(query)
        if not key:
            return ()
        exact = self._exact(" ".join(english_words(key)) or key)
        if exact:
            return exact
        words = english_words(key)
        if words:
            ids: set[str] | None = None
            for w in words:
                # A word matches a name word as typed or without its plural "s".
                matching = self._name_words.get(w, set()) | self._name_words.get(w.rstrip("s"), set())
                ids = matching if ids is None else ids & matching
                if not ids:
                    return ()
            found = [self._by_id[i] for i in ids or ()]
        else:
            found = [item for item in self._with_zh if any(key in zh for zh in item.zh)]
        return tuple(sorted(found, key=lambda i: (len(i.name), i.id)))
