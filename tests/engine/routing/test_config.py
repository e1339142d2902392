from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.routing.config import ConfigError, Mode, default_config, load, load_or_create, parse_config, reload

SEED_DEFAULTS = {
    "mode": "ENFORCE", "maxCharacters": 240, "minCoverage": 0.9,
    "defaultThreshold": {"score": 0.9, "margin": 0.15}, "languages": ["zh", "en"],
    "lexicalThresholds": {}, "examples": {}, "cacheEntries": 1024, "cacheSeconds": 300, "entriesPerPlayer": 32,
    "lineModel": 0.9,  # ours, not the seed's: the line model's least probability (null turns it off)
}
REPO_CONFIG = Path(__file__).resolve().parents[3] / "config" / "system-semantic.json"


def test_defaults_are_the_seed_schema_and_values() -> None:
    assert json.loads(default_config().to_json()) == SEED_DEFAULTS


def test_shipped_config_file_is_the_defaults() -> None:
    assert load(REPO_CONFIG) == default_config()


def test_load_or_create_writes_defaults_on_first_run(tmp_path: Path) -> None:
    path = tmp_path / "config" / "system" / "system-semantic.json"
    assert load_or_create(path) == default_config()
    assert json.loads(path.read_text(encoding="utf-8")) == SEED_DEFAULTS
    path.write_text(json.dumps({**SEED_DEFAULTS, "mode": "SHADOW"}), encoding="utf-8")
    assert load_or_create(path).mode is Mode.SHADOW


@pytest.mark.parametrize(
    "patch, field, value",
    [
        ({"minCoverage": 0.4}, "minCoverage", "0.4"),
        ({"minCoverage": 1.2}, "minCoverage", "1.2"),
        ({"defaultThreshold": {"score": 1.5, "margin": 0.1}}, "defaultThreshold.score", "1.5"),
        ({"defaultThreshold": {"score": 0.9, "margin": -0.1}}, "defaultThreshold.margin", "-0.1"),
        ({"lexicalThresholds": {"agent:status@zh": {"score": 2}}}, "lexicalThresholds.agent:status@zh.score", "2"),
        ({"lexicalThresholds": {"agent:status@fr": {"score": 0.5}}}, "lexicalThresholds", "agent:status@fr"),
        ({"cacheEntries": 0}, "cacheEntries", "0"),
        ({"entriesPerPlayer": -3}, "entriesPerPlayer", "-3"),
        ({"lineModel": 0.2}, "lineModel", "0.2"),
        ({"cacheSeconds": 0}, "cacheSeconds", "0"),
        ({"maxCharacters": 0}, "maxCharacters", "0"),
        ({"mode": "LOUD"}, "mode", "LOUD"),
        ({"languages": ["fr"]}, "languages", "fr"),
        ({"unknownKey": 1}, "unknownKey", "1"),
    ],
)
def test_errors_name_file_field_and_value(tmp_path: Path, patch: dict[str, object], field: str, value: str) -> None:
    path = tmp_path / "system-semantic.json"
    path.write_text(json.dumps({**SEED_DEFAULTS, **patch}), encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load(path)
    message = str(err.value)
    assert str(path) in message and field in message and value in message


def test_invalid_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n "mode": ENFORCE\n}', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad\.json: not valid JSON at line 2"):
        load(path)


def test_thresholds_language_key_wins_over_module_key_over_default() -> None:
    config = parse_config(json.dumps({
        "lexicalThresholds": {
            "agent:item": {"score": 0.95},
            "agent:item@zh": {"score": 0.97, "margin": 0.3, "coverage": 1.0},
        },
    }))
    assert config.thresholds("agent:status", "en") == default_config().thresholds("agent:status", "en")
    en = config.thresholds("agent:item", "en")
    zh = config.thresholds("agent:item", "zh")
    assert (en.score, en.margin, en.coverage) == (0.95, 0.15, 0.9)
    assert (zh.score, zh.margin, zh.coverage) == (0.97, 0.3, 1.0)


def test_mode_is_read_in_any_case() -> None:
    assert parse_config('{"mode": "shadow"}').mode is Mode.SHADOW


def test_reload_applies_live_fields_and_reports_what_needs_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    running = load_or_create(path)
    path.write_text(json.dumps({**SEED_DEFAULTS, "mode": "SHADOW", "cacheSeconds": 60,
                                "examples": {"agent:status": {"en": ["vitals please"]}},
                                "languages": ["en"]}), encoding="utf-8")
    report = reload(path, running, index_built=True)
    assert report.config.mode is Mode.SHADOW and report.config.cache_seconds == 60
    assert report.config.examples == running.examples and report.config.languages == running.languages
    assert set(report.applied) == {"mode", "cacheSeconds"}
    assert set(report.needs_restart) == {"examples", "languages"}
    assert any("restart" in line for line in report.lines())


def test_reload_cannot_turn_on_an_index_that_was_never_built(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({**SEED_DEFAULTS, "mode": "OFF"}), encoding="utf-8")
    running = load(path)
    path.write_text(json.dumps(SEED_DEFAULTS), encoding="utf-8")
    report = reload(path, running, index_built=False)
    assert report.config.mode is Mode.OFF
    assert any("mode ENFORCE" in item for item in report.needs_restart)
