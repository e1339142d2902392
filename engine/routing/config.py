"""``system-semantic.json``: the routing configuration, same schema as the seed.

``load_or_create(path)`` writes the defaults on first run. ``reload`` re-reads
the file; mode, thresholds, text limit and cache limits apply at once, while
examples and languages shape the index built at start, so changing them (or
turning the index on after starting with mode OFF) needs a restart and the
report says so. Every error names the file, the field and the offending value.
"""
from __future__ import annotations

import enum
import json
from pathlib import Path
from typing import Any

import attrs
import pydantic

from engine.routing.language import SUPPORTED_LANGUAGES

ALGORITHM = "lexical-tfidf-v1"


class Mode(str, enum.Enum):
    ENFORCE = "ENFORCE"
    SHADOW = "SHADOW"
    OFF = "OFF"


# The modes as typed (``routing mode enforce|shadow|off``), for every surface that offers them.
ROUTING_MODES: tuple[str, ...] = tuple(mode.value.lower() for mode in Mode)


class ConfigError(ValueError):
    """The config file is unreadable or a value is out of range."""


@attrs.frozen
class Thresholds:
    score: float
    margin: float
    coverage: float


class _Strict(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", populate_by_name=True, frozen=True)


class DefaultThreshold(_Strict):
    score: float = pydantic.Field(0.9, ge=0.0, le=1.0)
    margin: float = pydantic.Field(0.15, ge=0.0, le=1.0)


class ThresholdOverride(_Strict):
    score: float | None = pydantic.Field(None, ge=0.0, le=1.0)
    margin: float | None = pydantic.Field(None, ge=0.0, le=1.0)
    coverage: float | None = pydantic.Field(None, ge=0.5, le=1.0)


class SemanticConfig(_Strict):
    mode: Mode = Mode.ENFORCE
    max_characters: int = pydantic.Field(240, alias="maxCharacters", gt=0)
    min_coverage: float = pydantic.Field(0.9, alias="minCoverage", ge=0.5, le=1.0)
    default_threshold: DefaultThreshold = pydantic.Field(DefaultThreshold.model_validate({}), alias="defaultThreshold")
    languages: tuple[str, ...] = ("zh", "en")
    lexical_thresholds: dict[str, ThresholdOverride] = pydantic.Field(default_factory=dict, alias="lexicalThresholds")
    examples: dict[str, dict[str, tuple[str, ...]]] = pydantic.Field(default_factory=dict)
    cache_entries: int = pydantic.Field(1024, alias="cacheEntries", gt=0)
    cache_seconds: int = pydantic.Field(300, alias="cacheSeconds", gt=0)
    entries_per_player: int = pydantic.Field(32, alias="entriesPerPlayer", gt=0)
    # The line model's least probability for a direct answer on a line the thresholds refused
    # (``engine/routing/line_model.py``); null: the thresholds alone decide.
    line_model: float | None = pydantic.Field(0.9, alias="lineModel", ge=0.5, le=1.0)

    @pydantic.field_validator("mode", mode="before")
    @classmethod
    def _mode_any_case(cls, value: Any) -> Any:
        return value.upper() if isinstance(value, str) else value

    @pydantic.field_validator("languages")
    @classmethod
    def _known_languages(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for lang in value:
            if lang not in SUPPORTED_LANGUAGES:
                raise ValueError(f"no vocabulary for language {lang!r} (have: {', '.join(SUPPORTED_LANGUAGES)})")
        return value

    @pydantic.field_validator("lexical_thresholds")
    @classmethod
    def _threshold_keys(cls, value: dict[str, ThresholdOverride]) -> dict[str, ThresholdOverride]:
        for key in value:
            module, _, lang = key.partition("@")
            if not module or (lang and lang not in SUPPORTED_LANGUAGES):
                raise ValueError(f"key {key!r} must be 'module' or 'module@lang' with lang in {SUPPORTED_LANGUAGES}")
        return value

    def thresholds(self, module_id: str, language: str) -> Thresholds:
        """Language-level key wins over module-level key, which wins over the defaults."""
        score, margin, coverage = self.default_threshold.score, self.default_threshold.margin, self.min_coverage
        for key in (module_id, f"{module_id}@{language}"):
            override = self.lexical_thresholds.get(key)
            if override is None:
                continue
            score = override.score if override.score is not None else score
            margin = override.margin if override.margin is not None else margin
            coverage = override.coverage if override.coverage is not None else coverage
        return Thresholds(score, margin, coverage)

    def to_json(self) -> str:
        data = self.model_dump(mode="json", by_alias=True)
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def default_config() -> SemanticConfig:
    return SemanticConfig.model_validate({})


def parse_config(text: str, source: str = "<string>") -> SemanticConfig:
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{source}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    try:
        return SemanticConfig.model_validate(raw)
    except pydantic.ValidationError as exc:
        problems = []
        for err in exc.errors():
            field = ".".join(str(part) for part in err["loc"]) or "(top level)"
            problems.append(f"{field} = {err.get('input')!r}: {err['msg']}")
        raise ConfigError(f"{source}: " + "; ".join(problems)) from None


def load(path: Path | str) -> SemanticConfig:
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{file}: cannot read: {exc.strerror}") from None
    return parse_config(text, str(file))


def load_or_create(path: Path | str) -> SemanticConfig:
    """Read the config; on first run (no file) write the defaults there and return them."""
    file = Path(path)
    if not file.exists():
        config = default_config()
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text(config.to_json(), encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"{file}: cannot create the default config: {exc.strerror}") from None
        return config
    return load(file)


@attrs.frozen
class ReloadReport:
    config: SemanticConfig  # what is now in effect
    applied: tuple[str, ...]
    needs_restart: tuple[str, ...]

    def lines(self) -> list[str]:
        out = [f"applied: {', '.join(self.applied) if self.applied else 'nothing changed'}"]
        if self.needs_restart:
            out.append(f"needs a restart to take effect: {', '.join(self.needs_restart)}")
        return out


_LIVE_FIELDS = (
    ("mode", "mode"), ("max_characters", "maxCharacters"), ("min_coverage", "minCoverage"),
    ("default_threshold", "defaultThreshold"), ("lexical_thresholds", "lexicalThresholds"),
    ("cache_entries", "cacheEntries"), ("cache_seconds", "cacheSeconds"), ("entries_per_player", "entriesPerPlayer"),
)


def reload(path: Path | str, running: SemanticConfig, index_built: bool) -> ReloadReport:
    """Re-read ``path`` against the running config.

    The returned config keeps the running examples and languages (the index
    was built from them); a mode other than OFF is refused when the index was
    never built because the server started with mode OFF.
    """
    fresh = load(path)
    applied = [alias for field, alias in _LIVE_FIELDS if getattr(fresh, field) != getattr(running, field)]
    restart = []
    if fresh.examples != running.examples:
        restart.append("examples")
    if fresh.languages != running.languages:
        restart.append("languages")
    mode = fresh.mode
    if not index_built and fresh.mode is not Mode.OFF:
        restart.append(f"mode {fresh.mode.value} (the index was not built because the server started with mode OFF)")
        mode = Mode.OFF
        applied = [a for a in applied if a != "mode"]
    effective = fresh.model_copy(update={"examples": running.examples, "languages": running.languages, "mode": mode})
    return ReloadReport(effective, tuple(applied), tuple(restart))
