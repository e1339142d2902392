"""Write engine/routing/data/traditional.txt.gz: traditional characters and their simplified form.

Players on Taiwanese and Hong Kong servers type 坐標, 經驗, 背包裡有什麼; the
vocabulary is written in simplified characters, so normalization folds each
traditional character into its simplified form before anything else reads the
text (``engine/routing/normalize.py``).

Data: OpenCC's ``TSCharacters.txt`` (Apache-2.0), as shipped in the PyPI
package opencc-python-reimplemented 0.1.7, needed only to run this script:

    pip install --no-deps --target /tmp/occ opencc-python-reimplemented==0.1.7
    PYTHONPATH=/tmp/occ python scripts/gen_traditional.py

Kept: a single character whose OpenCC simplified candidates do not include
itself (乾 → 干/乾 is left alone: 乾 is written in simplified text too) and that
is no simplified character (neither a key of OpenCC's ``STCharacters.txt`` nor
one of GB2312's characters, the set ``pinyin.txt.gz`` covers), mapped to its
first candidate when that is one of GB2312's characters. So text in GB2312's
simplified characters is never changed by the fold.
"""
from __future__ import annotations

import gzip
from importlib import resources
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "engine" / "routing" / "data" / "traditional.txt.gz"


def _in_gb2312(char: str) -> bool:
    try:
        char.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


def _table(name: str) -> list[tuple[str, list[str]]]:
    text = resources.files("opencc").joinpath("dictionary", name).read_text(encoding="utf-8")
    rows = []
    for line in text.splitlines():
        key, _, values = line.partition("\t")
        if key and values:
            rows.append((key, values.split(" ")))
    return rows


def main() -> None:
    simplified_keys = {key for key, _ in _table("STCharacters.txt")}
    pairs = []
    for key, candidates in _table("TSCharacters.txt"):
        if len(key) != 1 or key in candidates or key in simplified_keys or _in_gb2312(key):
            continue
        target = candidates[0]
        if len(target) == 1 and _in_gb2312(target):
            pairs.append(key + target)
    OUT.write_bytes(gzip.compress(("\n".join(sorted(pairs)) + "\n").encode("utf-8"), mtime=0))
    print(f"{OUT}: {len(pairs)} characters")


if __name__ == "__main__":
    main()
