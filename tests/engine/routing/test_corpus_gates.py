"""Gates on the annotated corpus (tests/data/routing): shape, precision, writes-direct, the eval CLI."""
from __future__ import annotations

import json
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

from engine.modules.builtin import READ_MODULES, WRITE_MODULES
from engine.routing.evaluation import evaluate, main, read_corpus, summarize
from engine.routing.normalize import normalize_text

DATA = Path(__file__).resolve().parents[2] / "data" / "routing"
SPLITS = ("dev", "test")
# Checked for safety (writes never direct, precision) only: their coverage is reported, never gated or tuned on.
ALL_SPLITS = SPLITS + ("tuning", "blind")


@pytest.fixture(scope="module")
def reports() -> dict[str, dict[str, object]]:
    return {name: summarize(evaluate(read_corpus(DATA / f"{name}.jsonl")), frozenset(WRITE_MODULES)) for name in ALL_SPLITS}


def test_corpus_shape() -> None:
    lines = {name: read_corpus(DATA / f"{name}.jsonl") for name in SPLITS}
    assert sum(len(v) for v in lines.values()) >= 400
    assert not ({normalize_text(l.text) for l in lines["dev"]} & {normalize_text(l.text) for l in lines["test"]})
    for name, split in lines.items():
        expected = Counter((l.expect, l.lang) for l in split)
        for module_id in READ_MODULES:
            for lang in ("en", "zh"):
                assert expected[(module_id, lang)] >= 2, (name, module_id, lang)
        tags = Counter(l.tag for l in split)
        for tag in ("chat", "write", "negation", "condition", "compound", "reference", "ambiguous", "typo"):
            assert tags[tag] >= 1, (name, tag)
        assert {l.lang for l in split} == {"en", "zh"}


def test_test_split_precision_gate(reports: dict[str, dict[str, object]]) -> None:
    report = reports["test"]
    print(f"\ntest split: precision {report['direct_precision']}, coverage {report['direct_coverage']}, "
          f"unseen {report['unseen']}")
    assert report["direct_precision"] is not None and report["direct_precision"] >= 0.99  # type: ignore[operator]


@pytest.mark.parametrize("split", ALL_SPLITS)
def test_writes_never_sent_direct_on_the_corpus(reports: dict[str, dict[str, object]], split: str) -> None:
    assert reports[split]["writes_sent_direct"] == 0


@pytest.mark.parametrize("split", ("tuning", "blind"))
def test_precision_on_the_issue_14_splits(reports: dict[str, dict[str, object]], split: str) -> None:
    assert reports[split]["direct_precision"] is not None and reports[split]["direct_precision"] >= 0.99  # type: ignore[operator]


def test_blind_and_tuning_splits_are_disjoint() -> None:
    # The same words, not the same request: normalizing reads "alex在线没" as "alex在线吗", which
    # two writers may each have typed.
    blind = {_plain(l.text) for l in read_corpus(DATA / "blind.jsonl")}
    tuning = {_plain(l.text) for l in read_corpus(DATA / "tuning.jsonl")}
    assert not blind & tuning


def _plain(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split()).strip(" ?？!！.。,，")


def test_dev_split_precision(reports: dict[str, dict[str, object]]) -> None:
    assert reports["dev"]["direct_precision"] is not None and reports["dev"]["direct_precision"] >= 0.99  # type: ignore[operator]


def test_eval_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(DATA / "test.jsonl"), "--json"]) == 0  # as `mcagent routing` passes it
    report = json.loads(capsys.readouterr().out)
    for field in ("direct_precision", "direct_coverage", "wrong_direct", "writes_sent_direct",
                  "model_calls_avoided_per_100", "confusion", "failing", "unseen", "by_language"):
        assert field in report


def test_eval_cli_text_and_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main([str(DATA / "dev.jsonl")]) == 0
    assert "direct precision" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text('{"minCoverage": 2}', encoding="utf-8")
    assert main([str(DATA / "dev.jsonl"), "--config", str(bad)]) == 2
    assert "minCoverage" in capsys.readouterr().err
    broken = tmp_path / "c.jsonl"
    broken.write_text('{"text": "x"}\n', encoding="utf-8")
    assert main([str(broken)]) == 2
