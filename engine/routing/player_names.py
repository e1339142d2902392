"""Unknown words that name a player: "is kev online", "小明在线吗", "where is xx_dragon_xx".

A player the proxy does not see online is still a player when the question puts a word
where a name goes; the players module then answers that nobody of that name is here.
"""
from __future__ import annotations

import re
from collections.abc import Collection

from engine.routing.terms import Term, TermKind

PLAYER_FEATURE = "@player"
_NAME_SHAPE = re.compile(r"[a-z0-9_]{3,16}")
_BEFORE_A_NAME = frozenset({"@be", "@distance", None})
_AFTER_A_NAME = frozenset({"@online", "@nearby", "@distance"})
_ASKS_WHERE = frozenset({"@where", "@distance"})
_ZH_NICKNAME = "小阿老"
# The characters Chinese writes foreign names with (Steve 史蒂夫, Alex 亚历克斯, Notch 诺奇): a run of
# them the vocabulary does not know is a name. Ordinary words among them (金, 马, 西) are words
# the vocabulary knows, so never such a run.
_TRANSLITERATED = frozenset(
    "阿埃艾爱安奥巴拜班邦鲍贝本比彼毕宾波伯博布查达戴丹道德登迪狄蒂丁杜敦顿多厄恩尔法范菲费芬丰弗福夫盖甘冈戈格根"
    "古圭哈海汉豪赫亨洪华霍基吉加贾杰捷卡凯坎康考柯科克肯库奎拉莱兰朗劳勒雷蕾里历利莉丽廉林琳琼露卢鲁路伦罗洛吕玛迈"
    "麦曼芒梅蒙米密敏莫墨姆穆纳娜乃奈南内尼妮涅宁纽努诺欧帕潘庞佩彭皮珀普奇齐恰乔切钦琴丘让荣瑞萨塞赛桑瑟森莎沙"
    "尚绍舍申施什史舒斯丝松苏索塔泰坦汤唐陶特提汀托瓦旺威韦维魏温翁沃乌伍希锡席谢辛休雅亚扬耶伊因英尤约泽扎詹兹佐")
# Last characters of place nouns ("出生点", "村庄", "要塞门", "矿洞"): such a run names no player.
_ZH_PLACE_ENDS = frozenset("点地家村庄门洞塔城堡站场房屋处口殿井坑湖河海山岛林谷窟室楼塞基营")
# Roles and relations ("管理员", "队友", "服主", "我哥"): whoever they are, they are not a nickname.
_ZH_ROLE_ENDS = frozenset("友员主")
_ZH_ROLES = frozenset({"管理", "管理猿", "腐竹", "老板", "兄弟", "老婆", "老公", "对象", "同学", "哥哥", "姐姐", "弟弟",
                       "妹妹", "爸爸", "妈妈", "我哥", "我姐", "我弟", "我妹", "师傅", "徒弟", "大佬", "萌新", "新人",
                       "主播", "房管", "版主", "客服"})
_EN_ROLES = frozenset({"admin", "admins", "mod", "mods", "op", "ops", "owner", "staff", "moderator", "moderators",
                       "helper", "dev", "devs", "teammate", "teammates", "host", "sibling", "bestie", "gf", "bf"})


def name_players(terms: list[Term], dictionary: Collection[str]) -> None:
    """An unknown word where a question about a player puts the name is that player's name.

    "is kev online", "where is kev", "how far is kev", "kira playing?": the word
    follows "is" (or opens the line, or follows "distance") and comes before
    "online"/"near"/"far" or ends a line that asks where or how far. Only a
    word that is no English word ("kev", not "dog": "where is my dog" stays
    unknown), spelled as a Minecraft name can be.
    """
    _name_zh_player(terms)
    asks = {t.feature for t in terms} & _ASKS_WHERE
    for i, term in enumerate(terms):
        word = term.surface
        if term.kind is not TermKind.UNKNOWN or word in dictionary or word in _EN_ROLES or not (
            _NAME_SHAPE.fullmatch(word)
        ):
            continue
        before = terms[i - 1].feature if i else None
        after = terms[i + 1].feature if i + 1 < len(terms) else None
        if before in _BEFORE_A_NAME and (after in _AFTER_A_NAME or after is None and asks):
            terms[i] = Term(word, PLAYER_FEATURE, TermKind.SLOT)

def _name_zh_player(terms: list[Term]) -> None:
    """"小明在线吗", "阿杰离我多远", "小红在哪": two or three unknown characters opening a
    question whether someone is online or how far are a name. Before 在哪 only a nickname
    (小/阿/老 + name) is: "基地在哪" asks where a base is."""
    run = 0
    while run < len(terms) and run < 5 and terms[run].kind is TermKind.UNKNOWN and terms[run].feature.startswith("c:"):
        run += 1
    name = "".join(t.surface for t in terms[:run])
    if 2 <= run < len(terms) and all(c in _TRANSLITERATED for c in name):
        # "史蒂夫还剩多少血", "亚历克斯在哪": a foreign name written in Chinese, whatever is asked of it.
        terms[:run] = [Term(name, PLAYER_FEATURE, TermKind.SLOT)]
        return
    if run not in (2, 3) or run == len(terms):
        return
    if name[-1] in _ZH_PLACE_ENDS:
        return  # "出生点离我多远", "村子在哪": a place, not a nickname
    if name[-1] in _ZH_ROLE_ENDS or name in _ZH_ROLES:
        return  # "管理在线吗", "我朋友在线吗": a role or a relation names nobody the module can look up
    after = [t.feature for t in terms[run:]]
    if after[0] in _AFTER_A_NAME or name[0] in _ZH_NICKNAME and after[0] == "@in" and after[-1] in ("@where", "@in"):
        terms[:run] = [Term(name, PLAYER_FEATURE, TermKind.SLOT)]


def as_speaker(normalized: str, own: str) -> str:
    """The player's own name in their line is the player: "is Tester low on food", "does Tester
    have a pickaxe", "any mail for Tester" ask about themselves (people write their name as they
    would anyone's). It is read as "i" ("my" for "Tester's"), or 我 beside Chinese ("Tester还有多少血").

    ``own`` is the lower-cased name; the caller keeps a name that is also a word of the vocabulary.
    """
    def speaker(found: re.Match[str]) -> str:
        start, end = found.span()
        han = (start and _HAN.match(normalized, start - 1)) or _HAN.match(normalized, end)
        if found.group(1):
            return "我的" if han else "my"
        if han:
            return "我"
        # The subject after an auxiliary or opening the line ("is Tester …", "Tester here?"), else an object.
        return "i" if start == 0 or _SUBJECT_AFTER.search(normalized, 0, start) else "me"

    return re.sub(rf"(?<![a-z0-9_]){re.escape(own)}('s|s')?(?![a-z0-9_'])", speaker, normalized)


_HAN = re.compile(r"[\u4e00-\u9fff]")
_SUBJECT_AFTER = re.compile(r"\b(?:is|was|does|did|has|have|can|could|will|would|should|are|am)\s+$")
