"""What the player takes back in the line itself: self-corrections and contrasts.

Players fix a line while typing it ("whats the id of dirt wait no coarse dirt", "我要火药 不对 是史莱姆球")
and say what they do not mean beside what they do ("how much xp, in points not levels", "the smooth stone
slab, not the normal one"). Read as written, the words taken back look like a second item or a negation
of the request, and the line stops; read as meant, it is one plain question.

How this works (on the normalized line, before it is analyzed; each step at most once, linear in it):

* **Correction**: the text after the last marker ("i mean", "no wait", "wait no", "不对", "我是说"…) is
  what the player meant. When it asks on its own ("…不对 是史莱姆球 id是啥"), the line is that text.
  When it only names something (an item, a topic), it takes the place of the last thing of the same
  kind named before the marker ("dirt" → "coarse dirt"), so the rest of the line — its question, and
  also any write, negation or condition — still counts. When it names nothing, the line is left as is.
* **Described, then named**: "the blue glowy block you get from prismarine, sea lantern, whats the
  registry name", "how many of the orange metal bars do i have, the copper ones i think". One clause is
  an item's name alone (with "the", "i think", "right"…); the description around it is what the
  player had no name for. The line becomes the name, then the question; a description inside the
  question ("the id for the stripey wood") gives way to the name. Clauses said to the assistant
  ("get me some"), about another player, or with a negation, condition or compound are no
  description: such a line is left as is.
* **A guess beside the question**: "how many pearls do i have? like 16?", "xp level?? am i 30 yet",
  "y多少 是不是-59", "经验瓶还有多少瓶 有64没": a number the player expects asks nothing the question does
  not; the answer confirms or corrects it. A clause (or, in Chinese, a space-separated part) that is
  only such a number, with its hedge ("like", "is it", "是不是", "有…没") and unit, is dropped; so is
  "like 20 blocks" closing an English clause. A line that is only a guess keeps it.
* **Contrast**: "not" (or "instead of", "rather than") after a noun or at a clause's start, governing
  a noun phrase up to the clause's end or "just"/"only" ("not the full coords just y"), says what is
  not asked; that phrase is dropped. The phrase must name only things (topics, items, words the
  vocabulary does not know, "my", "full", "in"): "not now", "not yet", "do not tell me", "i'm not
  asking you", "not tp me" keep their negation and stop the line as before.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from engine.routing.terms import QUESTION_WORDS, Analysis, TermKind

# The marker and the "no"/"wait" said with it: "wait no i mean", ", no, i mean", "不对 是".
_MARKER = re.compile(
    r"(?:[,.!?]\s*|\s)(?:(?:oh|wait|hold on|hang on|sorry|no|nah|nope|oops)[,.!]?\s+)*"
    r"(?:i mean|i meant|no wait|wait no|or rather|scratch that|sorry i mean)\b[,.:]?\s*"
    r"|\s*(?:不对|不是不是|我是说|我的意思是|说错了|打错了)[，,。\s]*(?:是|应该是)?"
)
_NAMES = frozenset({TermKind.TOPIC, TermKind.SLOT})
_STOPS = frozenset({TermKind.NEGATION, TermKind.CONDITION, TermKind.COMPOUND, TermKind.REFERENCE, TermKind.WRITE})
# A correction that asks: a question word or a question's opening in it.
_ASKING = frozenset({"@what", "@where", "@who", "@how", "@howmuch", "@be", "@do", "@can", "@any", "@have"})
_HAN = re.compile(r"[\u4e00-\u9fff]")
_MY = re.compile(r"^(?:my|the|a|是)\s*")


def corrected(normalized: str, analyze: Callable[[str], Analysis]) -> str:
    """The line as the player meant it: corrections applied, the item it settles on, contrasts dropped."""
    return without_contrasts(named_after_description(without_guesses(self_corrected(normalized, analyze)), analyze),
                             analyze)


def self_corrected(normalized: str, analyze: Callable[[str], Analysis]) -> str:
    last = None
    for last in _MARKER.finditer(normalized):
        pass
    if last is None:
        return normalized
    before, after = normalized[:last.start()].strip(), normalized[last.end():].strip()
    if not after:  # "wat lvl am i on, y level i mean": the marker closes what it corrects with
        before, _, after = before.rpartition(",")
        before, after = before.strip(), after.strip()
    if not before or not after:
        return normalized
    meant = analyze(after)
    named = [t for t in meant.terms if t.kind in _NAMES]
    if any(t.feature in _ASKING for t in meant.terms if t.kind is TermKind.FUNCTION) or meant.requested:
        return after  # "…不对 是史莱姆球 id是啥": the line asks again, as meant
    if not named or any(t.kind in _STOPS for t in meant.terms) or _HAN.search(after):
        return normalized  # a Chinese name corrected ("饿不饿 我是说我的饥饿值"): clauses reads it as said
    kind = named[0].kind
    said = analyze(before)
    replaced = [t for t in said.terms if t.kind is kind]
    whole = [m for m in re.finditer(rf"\b{re.escape(replaced[-1].surface)}\b", before)] if replaced else []
    at = whole[-1].start() if whole else -1
    if at < 0:
        return f"{before}, {after}"  # nothing of its kind said before (or spelled otherwise): it adds to the line
    return before[:at] + _MY.sub("", after) + before[at + len(replaced[-1].surface):]


# "not" governs a noun phrase only after a noun or at a clause's start; after these words it
# negates a verb or a state ("do not", "i'm not", "is my hunger not full").
_FUNCTION_WORDS = frozenset("""
do does did dont don't doesnt doesn't didnt didn't is isnt isn't are arent aren't am was were wasnt
can could cant can't will would wont won't should shall have has had im i'm i its it's thats that's
youre you're theyre they're were we you u he she they it that this why how what where who whether if
he's hes she's shes there's theres whats what's wheres where's whos who's hows how's ur your
or and but to so just still really definitely probably maybe please pls plz ai bot hey
""".split())
_CONTRAST = re.compile(r"(?:^|(?<=[\s,.;:!?]))(?:not|instead of|rather than)\s+")
# Where the phrase ends: the clause's end, or what the player does want ("not the full coords just y").
_PHRASE_END = re.compile(r"[,.;:!?]|\s(?:just|only|but|this time)\b")
_PHRASE_WORDS = frozenset({"@self", "@full", "@in"})
# "not now", "not yet": when, not what; the request itself is put off or refused.
_NOT_A_THING = frozenset({"now", "yet", "rn", "atm", "anymore", "today", "tonight", "again", "ever", "needed",
                          "thanks", "thx", "ty", "really", "here", "there", "sure"})


def without_contrasts(normalized: str, analyze: Callable[[str], Analysis]) -> str:
    out: list[str] = []
    at = 0
    for found in _CONTRAST.finditer(normalized):
        if found.start() < at:
            continue
        head = normalized[:found.start()].rstrip()
        previous = re.split(r"\s+", head)[-1] if head else ""
        if previous and previous[-1] not in ",.;:!?" and previous in _FUNCTION_WORDS:
            continue
        end = _PHRASE_END.search(normalized, found.end())
        stop = end.start() if end is not None else len(normalized)
        phrase = normalized[found.end():stop].strip()
        if not phrase or phrase in _NOT_A_THING or any(w in _NOT_A_THING for w in phrase.split()):
            continue
        terms = analyze(phrase).terms
        if not terms or any(t.kind in _STOPS or t.kind is TermKind.FUNCTION and t.feature not in _PHRASE_WORDS
                            for t in terms):
            continue
        out.append(normalized[at:found.start()])
        at = stop
    if not out:
        return normalized
    kept = " ".join(part.strip() for part in [*out, normalized[at:]] if part.strip())
    return kept if any(c.isalnum() for c in kept) else normalized


_CLAUSE = re.compile(r"\s*(?:[,;!?，、；！？。]|\.+)\s*")
# Said around a name the player is unsure of: "sea lantern i think", "blaze rod right?", "the copper ones".
_HEDGE = re.compile(r"^(?:the |a |an |some |it'?s |its |i mean |就是|是|(?:那个|那种|这个|这种)[\u4e00-\u9fff、]{1,12}?的)|(?: i think| i guess| maybe| right| i believe| ones?"
                    r"| thing| block| lol|吧|吗)+$")
_NAME_WORDS = 5  # words of the longest item name a clause is read for
# Said to the assistant, unless the generic "you" of how one gets a thing ("the block you get from prismarine").
_TOLD_TO = re.compile(r"\b(?:me|u|ya|us)\b|\byou\b(?! (?:get|make|craft|find|use|mine|see|need|put)\b)|[你您]|帮我|给我")
_DESCRIBED = re.compile(r"\b(?:of|for) (?:the|them|those|these|this|that) [a-z ]+?(?= do i| have i| i have| i got| do we|$)")


def named_after_description(normalized: str, analyze: Callable[[str], Analysis]) -> str:
    parts = [p for p in _CLAUSE.split(normalized) if p]
    if len(parts) < 2:
        return normalized
    names: list[int] = []
    for i, part in enumerate(parts):
        bare = _HEDGE.sub("", part).strip()
        if len(bare.split()) > _NAME_WORDS:
            continue  # no item's name is this long: not analyzed, so most lines cost nothing here
        terms = analyze(bare).terms
        if len(terms) == 1 and terms[0].kind is TermKind.SLOT and terms[0].feature == "@item":
            names.append(i)
    if len(names) != 1:
        return normalized
    name = _HEDGE.sub("", parts[names[0]]).strip()
    asking = [i for i, part in enumerate(parts) if i != names[0] and _asks(analyze(part))]
    if len(asking) != 1:
        return normalized
    for i, part in enumerate(parts):
        if i in names or i in asking:
            continue
        terms = analyze(part).terms
        if _TOLD_TO.search(part) or any(t.kind in _STOPS and t.kind is not TermKind.WRITE and t.kind is not (
            TermKind.REFERENCE) or t.feature == "@player" for t in terms) or terms and terms[0].kind is TermKind.WRITE:
            return normalized  # "get me some, sea lantern, …": a request, not a description
    question = parts[asking[0]]
    if _HAN.search(question) and "的" in question.split("我")[0] and question.rfind("我") > 0:
        question = question[question.rfind("我"):]  # "村民收的宝石我有几个": what the player has, described before
    described = _DESCRIBED.search(question)
    if described is not None:
        return _DESCRIBED.sub(f"of {name}", question, count=1)
    return f"{name}, {question}"


def _asks(analysis: Analysis) -> bool:
    """A question word, an id asked for, or a question's opening ("do i have…"); "the one that is blue" asks nothing."""
    features = {t.feature for t in analysis.terms}
    return bool(features & QUESTION_WORDS) or "@id" in features or bool(analysis.terms) and analysis.terms[0].feature in _ASKING


_NUMBER = r"-?\d+(?:\.\d+)?(?:\s*(?:%|/\s*\d+))?(?:\s+-?\d+){0,2}"
_EN_UNITS = r"(?:\s*(?:blocks?|hearts?|levels?|lvls?|yet|or so|ish|maybe|right|already|or more|left|now|rn|%|\?))*"
_EN_GUESS = re.compile(rf"(?:(?:like|maybe|around|about|is it|am i|are we|at|only|still|just|already|prob|probably)\s+)*"
                       rf"{_NUMBER}{_EN_UNITS}")
_EN_GUESS_TAIL = re.compile(rf"\s+(?:like|around|about|maybe)\s+{_NUMBER}{_EN_UNITS}$")
_ZH_GUESS = re.compile(rf"(?:是不是|有没有|够不够|大概|差不多|快|有|够|到)?{_NUMBER}(?:个|格|级|颗心|颗|瓶|块|组|滴|%)?"
                       r"(?:了)?(?:没有|没|吗|吧|了吗|了没|对吧)?")
_ASKS_IN_WORDS = re.compile(r"^(?:\S+ )?(?:how|what|whats|what's|where|wheres|where's|who|whos|which|do|does|am|is|are|any\w*)\b")
_PIECE = re.compile(r"[^,.?!;，。？！；]+")


def without_guesses(normalized: str) -> str:
    kept: list[str] = []
    at = 0
    dropped = False
    for found in _PIECE.finditer(normalized):
        piece = found.group().strip()
        if _EN_GUESS.fullmatch(piece) or _HAN.search(normalized) and _ZH_GUESS.fullmatch(piece):
            kept.append(normalized[at:found.start()])
            at = found.end()
            dropped = True
            continue
        words = piece.split(" ")
        if _HAN.search(piece) and len(words) > 1 and any(_ZH_GUESS.fullmatch(w) for w in words):
            rest = " ".join(w for w in words if not _ZH_GUESS.fullmatch(w))
        elif _ASKS_IN_WORDS.search(piece):  # "how far is alex like 20 blocks"; "i'm at like 2 hearts" says it
            rest = _EN_GUESS_TAIL.sub("", piece)
        else:
            continue
        if rest != piece:
            kept.append(normalized[at:found.start()] + rest)
            at = found.end()
            dropped = True
    if not dropped:
        return normalized
    out = ("".join(kept) + normalized[at:]).strip(" ,.;")
    return out if any(c.isalpha() for c in out) else normalized
