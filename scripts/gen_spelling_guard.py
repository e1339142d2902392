"""Write engine/routing/data/english_words.txt.gz: English words the spelling corrector leaves alone.

A player who types "good", "wealth" or "heath" means that word, not "food" or
"health"; the corrector consults this list before guessing. The source is
SCOWL size 35 as Debian packages it (``wamerican-small``, 2020.12.07-2, the
file /usr/share/dict/american-english-small; copyright Kevin Atkinson and
others, permissive licence). Kept: lower-case ASCII words of at least three
letters, without possessives. The corrector reads those of four letters and
more; the intent cache also asks whether a three-letter unknown word ("dog")
is English, so may name a topic.

    apt-get download wamerican-small && dpkg-deb -x wamerican-small_*.deb /tmp/dict
    python scripts/gen_spelling_guard.py /tmp/dict/usr/share/dict/american-english-small
"""
from __future__ import annotations

import argparse
import gzip
from pathlib import Path


OUT = Path(__file__).resolve().parents[1] / "engine" / "routing" / "data" / "english_words.txt.gz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", nargs="?", default="/usr/share/dict/american-english-small")
    args = parser.parse_args()
    words = sorted({
        w for w in Path(args.source).read_text(encoding="utf-8").split()
        if len(w) >= 3 and w.isascii() and w.isalpha() and w.islower()
    })
    # mtime=0: the same list gives the same bytes.
    OUT.write_bytes(gzip.compress(("\n".join(words) + "\n").encode("ascii"), mtime=0))
    print(f"{OUT}: {len(words)} words")


if __name__ == "__main__":
    main()
