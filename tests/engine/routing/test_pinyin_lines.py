"""Lines typed wholly in pinyin are read as the Chinese they spell (issue 23)."""
from __future__ import annotations

import pytest

from engine.assistant import AssistantRuntime
from engine.routing.config import SemanticConfig
from engine.routing.evaluation import fixture_snapshot
from engine.routing.pinyin_lines import PinyinReader
from engine.routing.router import ScopeState

_READINGS = {"我": ("wo",), "握": ("wo",), "有": ("you",), "又": ("you",), "多": ("duo",), "少": ("shao", "shao"),
             "钻": ("zuan",), "石": ("shi",), "是": ("shi",), "那": ("na",), "哪": ("na",), "个": ("ge",)}
_TEXT = ["我有多少钻石", "我有多少", "有多少", "钻石", "我有钻石", "是", "哪个", "那个", "又"]


def test_the_likeliest_characters_are_chosen_from_our_own_text() -> None:
    reader = PinyinReader(_READINGS, _TEXT, english=frozenset({"you", "a", "man"}))
    assert reader.read("wo you duo shao zuan shi") == "我有多少钻石"
    assert reader.read("ai wo you duo shao zuan shi") == "ai 我有多少钻石"  # the address is kept
    assert reader.read("wo you duoshao zuanshi?") == "我有多少钻石?"


@pytest.mark.parametrize("line", ["a man", "where am i", "wo", "wo you", "how many diamonds wo you",
                                  "wo you duo shao " + "x" * 50, "我有 duo shao"])
def test_what_is_not_a_pinyin_line_is_left_alone(line: str) -> None:
    reader = PinyinReader(_READINGS, _TEXT, english=frozenset({"you", "a", "man"}))
    assert reader.read(line) is None


def test_a_stopping_character_that_reads_nearly_as_well_leaves_the_line_unread() -> None:
    sure = PinyinReader(_READINGS, _TEXT, english=frozenset(), stopping=frozenset({"又"}))
    assert sure.read("wo you duo shao") == "我有多少"  # 有 before 多少 is far likelier than 又
    # 哪个 a little likelier than 那个 in our text: too close to call, so the line is not read.
    unsure = PinyinReader(_READINGS, [*_TEXT, "哪"], english=frozenset(), stopping=frozenset({"那"}))
    assert unsure.read("na ge shi duo shao") is None
    # 那个 likelier: read so, and the reference it is stops the line later.
    stops = PinyinReader(_READINGS, [*_TEXT, "那"], english=frozenset(), stopping=frozenset({"那"}))
    assert (stops.read("na ge shi duo shao") or "").startswith("那个")


def test_work_is_bounded_by_the_line() -> None:
    reader = PinyinReader(_READINGS, _TEXT, english=frozenset())
    assert reader.read(" ".join(["wo you duo shao"] * 200)) is not None


@pytest.mark.parametrize("line, module", [
    ("wo you duo shao zuan shi", "agent:inventory"), ("shei zai xian", "agent:players"),
    ("xue liang hai you duo shao a", "agent:status"), ("ni hui gan sha", "agent:help"),
    ("wo zai na li a, zuo biao gei wo kan xia", "agent:position"), ("wu pin id: tie ding", "agent:item"),
    ("you ren gei wo liu yan ma", "agent:inbox"), ("zi dong jia shi jin du ru he le", "agent:progress"),
    ("wo mei you zuan shi", None), ("na ge zuo biao shi duo shao", None), ("gei wo yi ge zuan shi", None),
    ("where am i", "agent:position"),
])
def test_pinyin_lines_route_as_chinese(shared_runtime: AssistantRuntime, line: str, module: str | None) -> None:
    route = shared_runtime.router.route(line, "en", ScopeState("t"), fixture_snapshot("en_us"), now=0.0)
    assert route.module_id == module
    if module is not None and line != "where am i":
        assert route.language == "zh"  # answered in the language the player meant


@pytest.mark.parametrize("changes", [{"mode": "off"}, {"languages": ["en"]}])
def test_no_reader_is_built_where_no_line_could_use_it(shared_runtime: AssistantRuntime,
                                                       changes: dict[str, object]) -> None:
    config = SemanticConfig.model_validate({**shared_runtime.config.model_dump(by_alias=True), **changes})
    runtime = AssistantRuntime(config, items=shared_runtime.items)
    assert runtime.router.pinyin is None
    assert shared_runtime.router.pinyin is not None
