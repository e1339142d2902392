"""``mcagent routing eval CORPUS.jsonl [--config system-semantic.json] [--json]``.

Each corpus line is ``{"text": ..., "lang": "en"|"zh", "expect": module id or
null}`` with an optional ``"tag"`` (domain, typo, chat, write, negation,
condition, compound, reference, ambiguous, admin). ``expect: null`` means the
request must not be answered locally: it belongs to the model, or to nobody.

Every line goes through the same ``Router.route`` the assistant uses, with a
fresh scope (so no intent cache), the client locale of its language
(``en_us`` / ``zh_cn``) and a fixed world: the player "Tester" with Alex,
Steve and Notch online and Alex in sight, so requests naming those players can
parse. A line counts as *local* when the router picked a module without the
model (explicit phrase, cache hit or direct match).

Reported: direct precision (correct local / all local), direct coverage of
in-domain lines (correct local / lines with an expected module), wrong-direct
count, writes-sent-direct (local picks of a write module, or of anything on a
line tagged ``write``; must be 0), model calls avoided per 100 requests,
per-reason counts, per-module confusion and the failing lines. Lines whose
normalized text equals an example sentence or explicit phrase verbatim are
counted ("seen verbatim") and precision/coverage are repeated for the others,
which measures generalization rather than recall of the examples.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs
import pydantic

from engine.routing.config import ConfigError, SemanticConfig, default_config, load
from engine.routing.language import detect_language
from engine.routing.line_model import LineModel, LineModelError
from engine.routing.normalize import normalize_text
from engine.routing.router import ScopeState
from engine.routing.stats import Reason
from engine.world.snapshot import EntityView, PlayerState, Vec3, WorldSnapshot

LOCALES = {"en": "en_us", "zh": "zh_cn"}
FALLBACK = "(fallback)"
NONE = "(none)"


class CorpusLine(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    text: str
    lang: str
    expect: str | None
    tag: str = ""


@attrs.frozen
class Outcome:
    line: CorpusLine
    decided: str | None  # module answered locally, or None
    reason: Reason
    score: float | None
    margin: float | None
    coverage: float | None
    seen: bool  # the normalized text equals an example sentence or explicit phrase verbatim

    @property
    def correct(self) -> bool:
        return self.decided == self.line.expect


def read_corpus(path: Path) -> list[CorpusLine]:
    lines: list[CorpusLine] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip():
            continue
        try:
            lines.append(CorpusLine.model_validate_json(raw))
        except pydantic.ValidationError as exc:
            raise ValueError(f"{path}:{number}: {exc.errors()[0]['msg']}") from None
    return lines


def fixture_snapshot(locale: str) -> WorldSnapshot:
    player = PlayerState(
        position=Vec3(12.5, 64.0, -30.5), yaw=180.0, pitch=0.0, on_ground=True, health=17.0, food=15,
        saturation=2.0, xp_level=7, xp_bar=0.25, game_mode=0, dimension="minecraft:overworld", held_slot=0,
        inventory=(None,) * 46,
    )
    alex = EntityView(42, "player", Vec3(20.0, 64.0, -30.5), "uuid-alex", "Alex")
    return WorldSnapshot("Tester", locale, player, ("Alex", "Notch", "Steve", "Tester"), (alex,))


def evaluate(lines: Iterable[CorpusLine], config: SemanticConfig | None = None,
             line_model: LineModel | None = None) -> list[Outcome]:
    """``line_model``: one to use instead of the shipped one (one trained without a corpus, say)."""
    # Imported here so `--help` stays fast and the module has no import cycle with the assistant.
    from engine.assistant import AssistantRuntime

    runtime = AssistantRuntime(config or default_config())
    if line_model is not None and runtime.index is not None:
        runtime.index.line_model = line_model
    known = {normalize_text(sentence) for spec in runtime.registry.index_specs(runtime.config.examples)
             for sentences in spec.examples.values() for sentence in sentences}
    known.update(normalize_text(p) for entry in runtime.registry.modules()
                 for command in entry.routing.commands for p in command.phrases)
    outcomes: list[Outcome] = []
    for n, line in enumerate(lines):
        snapshot = fixture_snapshot(LOCALES.get(line.lang, line.lang))
        language = detect_language(line.text, snapshot.locale)
        route = runtime.router.route(line.text, language, ScopeState(f"eval-{n}"), snapshot, now=0.0)
        match = route.match
        outcomes.append(Outcome(
            line, route.module_id, route.reason,
            match.score if match else None, match.margin if match else None, match.coverage if match else None,
            normalize_text(line.text) in known,
        ))
    return outcomes


def summarize(outcomes: list[Outcome], write_modules: frozenset[str]) -> dict[str, Any]:
    local = [o for o in outcomes if o.decided is not None]
    correct = [o for o in local if o.correct]
    in_domain = [o for o in outcomes if o.line.expect is not None]
    covered = [o for o in in_domain if o.correct]
    writes = [o for o in local if o.decided in write_modules or o.line.tag == "write"]
    confusion: dict[str, Counter[str]] = {}
    for o in outcomes:
        confusion.setdefault(o.line.expect or NONE, Counter())[o.decided or FALLBACK] += 1
    by_lang: dict[str, dict[str, Any]] = {}
    for lang in sorted({o.line.lang for o in outcomes}):
        mine = [o for o in outcomes if o.line.lang == lang]
        mine_local = [o for o in mine if o.decided is not None]
        mine_domain = [o for o in mine if o.line.expect is not None]
        by_lang[lang] = {
            "lines": len(mine),
            "precision": _ratio(sum(o.correct for o in mine_local), len(mine_local)),
            "coverage": _ratio(sum(o.correct for o in mine_domain), len(mine_domain)),
        }
    failing = [
        {
            "text": o.line.text, "lang": o.line.lang, "expect": o.line.expect, "decided": o.decided,
            "reason": o.reason.value, "tag": o.line.tag,
            "score": _round(o.score), "margin": _round(o.margin), "coverage": _round(o.coverage),
            "kind": "wrong-direct" if o.decided is not None else "missed",
        }
        for o in outcomes
        if not o.correct
    ]
    unseen = [o for o in outcomes if not o.seen]
    unseen_local = [o for o in unseen if o.decided is not None]
    unseen_domain = [o for o in unseen if o.line.expect is not None]
    return {
        "lines": len(outcomes),
        "in_domain": len(in_domain),
        "local": len(local),
        "direct_precision": _ratio(len(correct), len(local)),
        "direct_coverage": _ratio(len(covered), len(in_domain)),
        "wrong_direct": len(local) - len(correct),
        "writes_sent_direct": len(writes),
        "model_calls_avoided_per_100": round(100.0 * len(local) / len(outcomes), 1) if outcomes else 0.0,
        "seen_verbatim": len(outcomes) - len(unseen),
        "unseen": {
            "lines": len(unseen),
            "in_domain": len(unseen_domain),
            "direct_precision": _ratio(sum(o.correct for o in unseen_local), len(unseen_local)),
            "direct_coverage": _ratio(sum(o.correct for o in unseen_domain), len(unseen_domain)),
        },
        "reasons": dict(sorted(Counter(o.reason.value for o in outcomes).items())),
        "by_language": by_lang,
        "confusion": {k: dict(sorted(v.items())) for k, v in sorted(confusion.items())},
        "failing": failing,
    }


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def render(summary: dict[str, Any], corpus: str) -> str:
    out = [
        f"corpus {corpus}: {summary['lines']} lines, {summary['in_domain']} in-domain",
        f"direct precision      {summary['direct_precision']}  ({summary['local']} answered locally)",
        f"direct coverage       {summary['direct_coverage']}  (of in-domain lines)",
        f"wrong direct          {summary['wrong_direct']}",
        f"writes sent direct    {summary['writes_sent_direct']}  (must be 0)",
        f"model calls avoided   {summary['model_calls_avoided_per_100']} per 100 requests",
    ]
    unseen = summary["unseen"]
    out.append(f"seen verbatim         {summary['seen_verbatim']} lines equal an example or phrase; on the other "
               f"{unseen['lines']} ({unseen['in_domain']} in-domain): precision {unseen['direct_precision']}, "
               f"coverage {unseen['direct_coverage']}")
    for lang, row in summary["by_language"].items():
        out.append(f"  [{lang}] {row['lines']} lines, precision {row['precision']}, coverage {row['coverage']}")
    out.append("reasons: " + ", ".join(f"{k}={v}" for k, v in summary["reasons"].items()))
    out.append("confusion (expected -> decided):")
    for expected, row in summary["confusion"].items():
        out.append(f"  {expected:16} " + ", ".join(f"{k}={v}" for k, v in row.items()))
    if summary["failing"]:
        out.append("failing lines:")
        for f in summary["failing"]:
            numbers = "" if f["score"] is None else f" score={f['score']} margin={f['margin']} cov={f['coverage']}"
            out.append(f"  {f['kind']:12} [{f['lang']}] {f['text']!r} expect={f['expect']} "
                       f"decided={f['decided']} {f['reason']}{numbers}")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    """Arguments after ``mcagent routing eval``; a leading ``eval`` (from ``mcagent routing``) is skipped."""
    if argv[:1] == ["eval"]:
        argv = argv[1:]
    parser = argparse.ArgumentParser(prog="mcagent routing eval", description="Measure local routing on an annotated corpus.")
    parser.add_argument("corpus", type=Path, help="JSONL: {text, lang, expect, tag?} per line")
    parser.add_argument("--config", type=Path, help="system-semantic.json (default: built-in defaults)")
    parser.add_argument("--line-model", type=Path, help="a line model to use instead of the shipped one")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    try:
        config = load(args.config) if args.config else default_config()
        lines = read_corpus(args.corpus)
        model = LineModel.load(args.line_model) if args.line_model else None
    except (ConfigError, LineModelError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    from engine.modules.builtin import WRITE_MODULES

    summary = summarize(evaluate(lines, config, model), frozenset(WRITE_MODULES))
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        print(render(summary, str(args.corpus)))
    return 1 if summary["writes_sent_direct"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
