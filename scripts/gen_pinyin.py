"""Write engine/routing/data/pinyin.txt.gz: the toneless Mandarin readings of common characters.

The Chinese side of the vocabulary uses them to repair pinyin-IME slips: a
player who types 学量 or 坐表 picked the wrong character of the right sound
(血量, 坐标). Characters: the 6,763 of GB2312. Readings: pypinyin 0.55.0
(MIT; its data come from Unicode's Unihan kMandarin/kHanyuPinyin and others),
all readings of each character (heteronyms) in its order, the commonest
first, tones dropped. pypinyin is needed
only to run this script, not at run time:

    pip install --target /tmp/pyp pypinyin==0.55.0
    PYTHONPATH=/tmp/pyp:. python scripts/gen_pinyin.py
"""
from __future__ import annotations

import gzip
from pathlib import Path

from pypinyin import Style, pinyin  # type: ignore[import-not-found]

OUT = Path(__file__).resolve().parents[1] / "engine" / "routing" / "data" / "pinyin.txt.gz"


def gb2312() -> list[str]:
    chars = []
    for high in range(0xB0, 0xF8):
        for low in range(0xA1, 0xFF):
            try:
                chars.append(bytes((high, low)).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    return chars


def main() -> None:
    lines = []
    for char in gb2312():
        # pypinyin's order: the commonest reading first; the repair tries it first.
        readings = list(dict.fromkeys(
            r for r in pinyin(char, style=Style.NORMAL, heteronym=True)[0] if r.isascii() and r.isalpha()
        ))
        if readings:
            lines.append(f"{char} {','.join(readings)}")
    OUT.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode("utf-8"), mtime=0))
    print(f"{OUT}: {len(lines)} characters")


if __name__ == "__main__":
    main()
