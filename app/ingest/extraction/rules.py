"""The offline rule-based extractor (Chinese and English).

Pipeline per user turn: split into sentences and clauses → drop questions and small talk
(``filter``) → try the rule table in order, first match wins per clause → one
``ExtractedFact`` per atomic fact. A little state lives across the clauses of a sentence
(the subject "我" of "我叫李明，是广东人", a pet kind for "一只叫馒头", a constraint or a habit
that the next clause continues, a correction) and across the turn (values the user withdrew,
"我已经从星河科技离职了" → retracted by the next employer fact, or emitted as a retraction).
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from app.arbitration.keys import key_spec
from app.arbitration.values import (
    COMMUTE_ZH,
    MEATLESS,
    MOVABLE_KEYS,
    OWN_THING_ZH,
    RENAMED_PET,
    SAME_KIND,
    STOP_HAN,
    activity_words,
    bare_value,
    time_marks,
    tool_kind,
)
from app.ingest.extraction import segment, semantic, spelling, standing
from app.ingest.extraction.base import ExtractedFact, MemoryType, Turn
from app.ingest.extraction.cues import clause_cues
from app.ingest.extraction.dates import (
    DAY_AHEAD_ZH,
    MOVED_TO_ZH,
    WHEN_AHEAD_ZH,
    DateMatch,
    cn_int,
    describe,
    find_date,
    parse_month_day,
    replace_date,
    tense,
)
from app.ingest.extraction.filter import (
    HOME_IS,
    HOME_TAIL,
    IS_HOME,
    NANP_PHONE,
    PLACE_NAME,
    has_memory_signal,
    hedged,
    is_noise,
    is_question,
)
from app.privacy.detect import detect, password_spans, valid_card

Lang = Literal["zh", "en"]

# ---------------------------------------------------------------- vocabularies

_HAN = re.compile(r"[\u4e00-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")
_PETS_ZH = (
    "猫咪|小猫|猫|小狗|狗狗|狗|兔子|仓鼠|鹦鹉|乌龟|金鱼|鱼|鸟|龙猫|刺猬|蜥蜴|柯基"
    "|柴犬|金毛|泰迪|哈士奇|布偶猫|英短|宠物"
)
_PETS_EN = (
    r"dog|cat|puppy|kitten|rabbit|bunny|hamster|parrot|bird|fish|turtle|tortoise"
    r"|guinea pig|lizard|snake|ferret|horse|pet|retriever|labrador|poodle|corgi|husky|beagle"
    r"|terrier|bulldog|dachshund|chihuahua|pug|spaniel|collie|sheepdog|schnauzer"
)
# a kind said in English inside a Chinese clause ("养了一只 golden retriever", "我家 cat 叫 Mochi"),
# one modifier allowed before it
_PET_KIND_ZH = rf"{_PETS_ZH}|(?i:(?:[a-z]+ )?(?:{_PETS_EN}))"
_FAMILY_ZH = (
    "女儿|儿子|孩子|老婆|老公|妻子|丈夫|太太|先生|爸爸|妈妈|父亲|母亲|哥哥|姐姐|弟弟|妹妹|"
    "爷爷|奶奶|外公|外婆|姥姥|姥爷|男朋友|女朋友|对象|未婚妻|未婚夫|孙子|孙女|" + semantic.KIN_ZH
)
_FAMILY_EN = (
    r"daughter|son|kid|child|wife|husband|partner|mom|mother|dad|father|brother|sister"
    r"|grandma|grandmother|grandpa|grandfather|boyfriend|girlfriend|fiancee|fiance|baby"
    r"|stepdad|stepmom|grandson|granddaughter|niece|nephew|cousin|aunt|uncle"
)
# a thing named first, before 是我最喜欢的…: not "this one", "that day" or a time ("这部是我最喜欢
# 的电影", "今天是我最讨厌的日子"); a word of now around it is no part of it ("榴莲现在是…")
_THING_FIRST = (
    r"(?:现在|如今|目前)?(?!这|那|哪|今天|昨天|明天|去年|今年|明年|前年|周[一二三四五六日末]|星期"
    r"|上周|下周)(?P<v>[^，,。是我现如目]{2,12}?)(?:现在|如今|目前)?"
)

_JOB_ZH = (
    r"(?:工程师|程序员|开发|设计师|经理|总监|主管|医生|大夫|护士|老师|教师|教授|学生|研究生|博士生|律师|"
    r"会计|司机|厨师|记者|编辑|作家|主播|博主|创始人|老板|总裁|CEO|CTO|产品|运营|前端|后端|全栈|"
    r"顾问|分析师|架构师|科学家|销售|客服|警察|公务员|店长|实习生|工人|演员|歌手|画家|翻译|秘书|"
    r"助理|HR|测试|研究员|自由职业者?|个体户|[^\s]{0,6}师|[^\s]{0,6}员"
    # the English short titles of jobs ("我在 Amazon 做 SDE", "现在是 senior SDE 了")
    r"|SDE|SWE|SDET|SRE|PM|QA|DBA|TPM)"
)
_JOB_EN = re.compile(
    r"(?:nurse|doctor|teacher|engineer|developer|designer|manager|student|consultant|architect"
    r"|lawyer|accountant|chef|cook|writer|analyst|scientist|founder|ceo|cto|cfo|intern"
    r"|freelancer|researcher|professor|pharmacist|dentist|surgeon|barista|programmer|coder"
    r"|pilot|officer|director|editor|journalist|artist|musician|photographer|translator"
    r"|paramedic|medic|mechanic|clerk|cashier|secretary|nanny|maid|cook|cop|judge|attorney"
    r"|agent|actuary|coach|dean|midwife|emt|gp|vet|carer|priest|rabbi|imam|monk|nun|chaplain"
    r"|missionary|model|actress|dj|youtuber|seamstress|waitress|hostess|sommelier|chauffeur"
    r"|steward|captain|apprentice|entrepreneur|paralegal|assistant|associate|resident"
    r"|postdoc|undergrad|sre|qa|pm|dev|devops|sysadmin|admin|retiree|homemaker|sde|swe|sdet"
    r"|tpm|dba"
    r"|[a-z]+(?:er|or|ist|ian))s?$"
    # a post named by what it heads: "head of product", "VP of engineering"
    r"|\b(?:head|vp|vice president|chief|director|lead) of \w+(?: \w+)?$",
    re.I,
)
# capitalised words after "I'm" that are no name: where one is from, a faith, a sign, a word
# a greeting that opens what is said: "hi", "hey there,"
_GREETING_LEAD = r"^\W*(?:hi|hey|hello|hiya|heya|yo|howdy)\b[\s,!.~]*(?:there[\s,!.~]*)?"
_GREETED = re.compile(_GREETING_LEAD + "i", re.I)
# what follows "hi im" and is no name: a state, a place of being, a newcomer's word
_STATE_EN = frozenset((
    "new", "back", "here", "there", "home", "done", "good", "fine", "ok", "okay", "well", "great",
    "tired", "sick", "stuck", "confused", "lost", "bored", "curious", "hungry", "busy", "ready",
    "sorry", "glad", "happy", "sad", "excited", "nervous", "late", "early", "alone", "single",
    "married", "pregnant", "retired", "vegan", "vegetarian", "sober", "free", "available", "off",
    "on", "in", "out", "away", "up", "down", "broke", "stressed", "worried", "desperate",
    "struggling",
))  # fmt: skip


def _greeted_with(text: str, name: str) -> bool:
    """True if the turn opens with a greeting and "I'm ``name``" ("hello, im sarah")."""
    return bool(re.match(rf"{_GREETING_LEAD}(?:i'?m|i am)\s+{re.escape(name)}\b", text, re.I))


def _greeted_name(value: str) -> bool:
    """A word after "hi im" that may be a name: no state, function word, -ing, -ed or -ly."""
    v = value.lower()
    return not (
        v in _STATE_EN or v in semantic.EN_STOP or re.search(r"(?:ing|ed|ly)$", v)
    ) and not _NOT_NAME_EN.fullmatch(value.capitalize())


_NOT_NAME_EN = re.compile(
    r"(?:\w+(?:ese|ish|ican|ean|ani|ari|aqi|ali|eli)|(?:Canad|Ital|Ind|Brazil|Austral|Russ|Niger"
    r"|Egypt|Iran|Norweg|Hungar|Colomb|Peruv|As|Pers|Armen|Ukrain|Roman|Bulgar|Croat|Serb"
    r"|Malays|Indones|Palestin|Syr|Georg|Belg|Christ|Argentin|Chil|Venezuel|Ethiop|Kenyan"
    r"|Austr|Lithuan|Latv|Eston|Tunis|Alger|Jordan|Cambod|Mongol|Nepal)ian|Korean|European"
    r"|African|American|Mexican|Cuban|Chilean|Kenyan|German|Moroccan|Texan|Asian"
    r"|Thai|Greek|Czech|Dutch|Swiss|Irish|Scottish|Welsh|French|Filipino|Filipina"
    r"|Jewish|Muslim|Hindu|Buddhist|Sikh|Christian|Catholic|Protestant|Mormon|Orthodox|Atheist"
    r"|Agnostic|Aries|Taurus|Gemini|Cancer|Leo|Virgo|Libra|Scorpio|Sagittarius|Capricorn"
    r"|Aquarius|Pisces|Gen Z|OK|Okay|Fine|Good|Great|Back|Here|In|Out|Done|Sorry|Ready|Home"
    r"|Free|Busy|Tired|Sure|Not|Also|Still|Just|Now|So|Very)$",
)
# a year of study said alone: "a junior at UCLA", "a sophomore at Rice"
_CLASS_YEAR = re.compile(
    r"junior|senior|(?P<any>freshman|sophomore|(?:first|second|third|fourth|final)[- ]year)",
    re.I,
)
# a school by its name ("a senior at Google" is no student)
_SCHOOL_NAME_EN = re.compile(
    r"\b(?:University|College|Institute|School|Academy|Polytechnic)\b|^(?:U[A-Z]{2,4}|[A-Z]{2,4}U"
    r"|MIT|Caltech|Stanford|Harvard|Yale|Princeton|Berkeley|Oxford|Cambridge)$"
)
# a role that is studying: the place named with it is a school
_STUDENT = re.compile(
    r"(?:^|\b)(?:(?:grad|graduate|phd|ph\.d\.|doctoral|master'?s|masters|undergrad(?:uate)?"
    r"|college|university|exchange|medical|med|law|art|high school)\s+)?(?:student|undergrad"
    r"|freshman|sophomore)s?$|(?:学生|研究生|博士生|硕士生|本科生|大学生|留学生|研究僧)$",
    re.I,
)
_FIELD_ACRONYM = re.compile(r"IT|HR|PR|QA|UX|UI|AI|ML|BD|R&D")
# lines of work and departments: what "I'm in …" / "I'm on the … team" names as a job, unlike
# "I'm in a meeting", "I'm in trouble", "I'm in Tokyo"
_FIELDS_EN = (
    r"IT|HR|PR|QA|UX|R&D|BD|marketing|sales|finance|tech|legal|engineering|design|accounting"
    r"|consulting|retail|healthcare|health care|insurance|real estate|logistics|operations|ops"
    r"|product|research|publishing|hospitality|banking|law|media|advertising|recruiting"
    r"|recruitment|construction|manufacturing|pharma|nursing|customer (?:service|support|success)"
    r"|support|government|academia|procurement|compliance|security|data(?: science)?|analytics"
    r"|software"
    r"|biotech|fintech|journalism|tourism|energy|telecoms?|nonprofits?|non-profits?|policy"
    r"|communications|comms|investment banking|private equity|venture capital|audit|tax|payroll"
    r"|supply chain|business development|growth|partnerships|fashion|film|gaming|architecture"
    r"|aerospace|automotive|agriculture|shipping|trading|wealth management|admin|education"
)
# what follows "I work in" and is no line of work
_NOT_FIELD_EN = re.compile(
    r"(?:the|a|an|my|our|this|that|these|those|shifts?|teams?|pairs?|person|remote\w*|bursts"
    r"|silence|sprints?|front of|between|here|there|town|downtown)\b",
    re.I,
)
# an employer named by what it is ("a small law firm downtown", "the county government")
_ORG_EN = re.compile(
    r"^(?:an? |the )?(?:[\w'&-]+ ){0,3}?(?:firm|company|bank|hospital|clinic|startup|start-up"
    r"|agency|council|government|department|dept|ministry|university|college|school|store"
    r"|shop|restaurant|cafe|bakery|factory|plant|warehouse|lab|laboratory|nonprofit|non-profit"
    r"|charity|studio|publisher|newspaper|magazine|airline|church|library|museum|hotel"
    r"|practice|office|consultancy|corporation|corp|insurer|retailer|supermarket|brewery"
    r"|winery|farm|ngo|military|army|navy|police|fire department)s?(?: of [\w ]{2,30}?)?"
    r"(?: (?:downtown|nearby"
    r"|here|in town|near me|near here))?$",
    re.I,
)
_NOT_JOB_EN = re.compile(
    r"(?:father|mother|brother|sister|daughter|lover|fan|eater|drinker|sleeper|beginner|user"
    r"|member|speaker|smoker|customer|owner|person|sucker|vegetarian|other|christian|asian|italian"
    r"|canadian|australian|indian|brazilian|korean|german|russian|buddhist|atheist|agnostic"
    r"|baptist|methodist|taoist|teenager|foreigner|newcomer|outsider|youngster|southerner"
    r"|northerner|westerner|easterner|left-hander|introvert|extrovert|believer|follower"
    # "a huge fan of the Lakers": what one is a fan of is no job, whatever it ends in
    r"|\b(?:fan|lover|admirer|supporter) of\b.*)$",
    re.I,
)
_LANGS_ZH = (
    "中文|汉语|普通话|粤语|广东话|英语|英文|日语|日文|韩语|法语|德语|西班牙语"
    "|俄语|葡萄牙语|意大利语|阿拉伯语|上海话|四川话|闽南语"
)
_LANGS_EN = (
    r"english|chinese|mandarin|cantonese|japanese|korean|french|german|spanish|russian"
    r"|portuguese|italian|arabic|hindi|dutch|vietnamese|thai"
)
# in a language's own slot ("I speak …", "my mother tongue is …") a capitalised word is the
# name of a language whatever it is ("Hokkien", "Tagalog", "Yoruba"), as a known one is
_LANG_NAME_EN = rf"{_LANGS_EN}|(?-i:[A-Z][a-z]{{2,}})"
_CALENDAR_EN = re.compile(
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|january|february|march|april|may|june|july"
    r"|august|september|october|november|december|today|tomorrow|yesterday",
    re.I,
)


def _no_calendar_word(value: str) -> bool:
    return not any(_CALENDAR_EN.fullmatch(w) for w in re.split(r"[,\s]+", value) if w)


_DRINKS = semantic.DRINKS
_TECH = semantic.TECH
_CONDITIONS_EN = (
    r"diabetes|asthma|hypertension|high blood pressure|celiac disease|arthritis|migraines|gout"
    r"|ibs|adhd|epilepsy|eczema|insomnia"
)
_GENDER = (
    {w: "男" for w in ("男生", "男的", "男人", "男性", "男孩")}
    | {w: "女" for w in ("女生", "女的", "女人", "女性", "女孩")}
    | {"man": "male", "guy": "male", "male": "male", "boy": "male", "woman": "female"}
)
_GENDER |= {"girl": "female", "female": "female", "non-binary": "non-binary"}
_PRONOUNS = {
    "你",
    "你们",
    "他",
    "她",
    "它",
    "他们",
    "这个",
    "那个",
    "这",
    "那",
    "it",
    "this",
    "that",
    "you",
    "them",
}

# ---------------------------------------------------------------- text helpers

# "keep in mind I keep kosher": a fact of the user's to heed, the user its subject
_HEED_LEAD = r"(?:please |pls )?(?:keep|bear) in mind(?: that)?(?= (?:i|i'm|im|i've|my)\b)"
_ZH_FILLER = re.compile(
    r"^(?:其实|实际上|事实上|说实话|说真的|老实说|对了|另外|还有就是|而且|然后|不过|但是|可是|所以|"
    r"那么?|嗯+|哦+|啊|呃|好吧|而|首先|其次|再确认一下|确认一下|顺便(?:说|提)一?(?:下|句)|顺便|补充一下|重申一下|"
    r"哈哈+|嘿嘿+|呵呵+|唉|哎呀?|诶)[，,\s]*"
)
_EN_FILLER = re.compile(
    r"^(?:actually|well|so|oh|um|uh|also|and|but|btw|by the way|fyi|ok|okay|yeah|hey|anyway"
    r"|honestly|to be honest|just so you know|just fyi|oh and|rather|instead|to clarify"
    rf"|{_HEED_LEAD}"
    r"|correction|just to confirm|to confirm|now|these days|nowadays|turns out|turned out|wait"
    r"|hmm+|sorry|oops|lol|ugh|eh|ah|fun fact|quick update|update)\b[,:\s]*",
    re.I,
)
# the 的 left of a possessive the user's 我 was cut from ("我的失眠好了" → "的失眠")
_LEADING_DE = re.compile(r"^的\s*(?=[\u4e00-\u9fffA-Za-z])")
# how the user feels without a thing ("不喝浑身难受"): no food avoided
_A_FEELING_ZH = re.compile(
    r"(?:就|会)?(?:浑身|整个人)?(?:难受|不舒服|受不了|没精神|没劲|犯困|头疼)"
)
_ZH_TAIL = re.compile(r"[了啊呀呢吧哦啦哈嘛喔咯的~～\s]+$")
_ALLERGY_TAIL_ZH = re.compile(
    r"(?:也|都|还|又|有点儿?|有些|很|特别|超级?|非常|比较|严重|一直)+(?:过敏|敏感|不耐受)?$"
    r"|(?:过敏|敏感|不耐受)$"
)
_EN_TAIL = re.compile(
    r"(?:\s+(?:anymore|any more|at all|whatsoever|too|as well|a lot|(?:so |very |that |too )?much"
    r"|either|please|now|these days|right now|at the moment|lately|recently|nowadays|for now|tbh"
    r"|honestly|lol|lmao|haha+|hehe+|btw|by the way|fyi|fwiw|tho|though|anyway|i guess"
    r"|i think|i believe|i suppose|i reckon|probably|maybe"
    r"|for (?:\w+ )?reasons"
    r"|for (?:years|ages|a while|a long time|(?:a|one|two|three|\d+) (?:years?"
    r"|months?|decades?))(?: now)?))+$|[\s.!~]+$",
    re.I,
)
_MARKER_ZH = re.compile(
    r"其实|实际上|改(?:喝|吃|用|成|为|到|去|住)|换成|换到|转到|转(?:行|岗)?(?:做|成|为)|不再|已经不|搬到|搬去|搬家|离职|辞职|跳槽|说错|更正|纠正|而是|戒了|现在改"
)
_MARKER_EN = re.compile(
    r"\b(?:actually|no longer|anymore|any more|instead|switched|changed|moved|relocated"
    r"|correction|i meant|i now|i'm now|now i|not anymore|these days)\b",
    re.I,
)
_EN_ADVERBS = {
    "usually", "always", "often", "never", "really", "also", "now", "actually", "normally",
    "generally", "still", "just", "mostly", "sometimes", "currently", "typically", "rarely",
    "definitely", "totally", "absolutely", "truly", "recently", "finally", "already", "only",
    "no", "longer", "even", "probably", "kinda", "literally",
}  # fmt: skip
# verbs that end like an adverb: "I rely on", "I apply for"; any other "-ly" word before the
# verb is an adverb ("I basically live …" → "basically lives …")
_LY_VERBS = frozenset(
    ("fly", "rely", "apply", "reply", "supply", "ally", "bully", "tally", "multiply", "comply",
     "imply", "rally", "dally")
)  # fmt: skip


def _is_ly_adverb(word: str) -> bool:
    w = word.lower()
    return len(w) > 4 and w.endswith("ly") and w not in _LY_VERBS


_EN_SAME = {
    "can", "can't", "cannot", "will", "won't", "would", "wouldn't", "should", "shouldn't",
    "must", "might", "may", "could", "couldn't", "was", "wasn't", "had", "did", "didn't",
    "quit", "left", "went", "got", "made", "took", "came", "grew", "became", "began", "bought",
    "built", "ate", "drank", "met", "flew", "found", "lost", "sold", "set", "put", "read", "ran",
    "spent", "told", "wrote", "gave", "saw", "joined", "need", "used", "won", "held", "felt",
    "kept", "slept", "taught", "thought", "brought", "caught", "spoke", "broke", "chose", "drove",
    "rode", "wore", "swam", "sang", "sat", "stood", "heard", "paid", "said", "sent", "lent",
    "meant", "led", "fed", "hung", "hit", "hurt", "cut", "let", "knew", "threw", "forgot",
}  # fmt: skip
_EN_CONJ = {
    "am": "is", "'m": "is", "are": "is", "have": "has", "'ve": "has", "do": "does",
    "don't": "doesn't", "go": "goes", "'ll": "will", "'d": "would", "aren't": "isn't",
    "haven't": "hasn't",
}  # fmt: skip


def _as_retracted(value: str) -> str:
    """A value as a retraction names it: lower-cased when it holds Latin letters (stored Latin
    values are compared case-insensitively), as said otherwise."""
    return value.lower() if _LATIN.search(value) else value


def _is_latin(text: str) -> bool:
    return bool(_LATIN.search(text)) and not _HAN.search(text)


def _conjugate(word: str) -> str:
    low = word.lower()
    if low in _EN_CONJ:
        return _EN_CONJ[low]
    if low in _EN_SAME or low.endswith("ed") or not low.isalpha():
        return word
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return word + "es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def third_person(text: str) -> str:
    """Rewrite a first-person English clause without its subject: ``"I live in Shenzhen"`` →
    ``"lives in Shenzhen"``, ``"I'm allergic to nuts"`` → ``"is allergic to nuts"``,
    ``"my birthday is May 5"`` → ``"birthday is May 5"``. Returns the rewritten clause; other
    pronouns ("my doctor") are left as written."""
    text = text.strip()
    m = re.match(r"^(?:I|we)('m|'ve|'ll|'d|'re)\s*", text, re.I)
    if m:
        head = {"'re": "are"}.get(m.group(1).lower()) or _EN_CONJ[m.group(1).lower()]
        return f"{head} {text[m.end() :]}".strip()
    m = re.match(r"^I\s+", text)
    if m:
        words = text[m.end() :].split(" ")
        for index, word in enumerate(words):
            if word.lower() not in _EN_ADVERBS and not _is_ly_adverb(word):
                words[index] = _conjugate(word)
                if word.lower() == "do" and index + 1 < len(words) and words[index + 1] == "not":
                    words[index] = "does"
                break
        return " ".join(words)
    if re.match(r"^we\s+", text, re.I):
        return text[3:].strip()
    return re.sub(r"^my\s+", "", text, flags=re.I)


# English small talk opening a Chinese clause ("btw 我今年32了", "hmm 其实…")
_EN_OPENER = re.compile(
    r"^(?:(?:hi|hey|hello|btw|fyi|ok|okay|so|oh|well|anyway|also|lol|haha+|hmm+|emm+|um+|uh)"
    r"\b[,!.\s]*)+(?=[\u4e00-\u9fff])",
    re.I,
)


# the attribute a Chinese clause opens with, said in English ("my hometown 是大连", "我的 password
# 是…", "email: …"): the subject of a Chinese predicate, read as its Chinese word
_ATTRIBUTE_ZH = {
    "password": "密码", "passport number": "护照号", "passport": "护照号", "email": "邮箱",
    "e-mail": "邮箱", "phone number": "手机号", "phone": "手机号", "cell": "手机号",
    "hometown": "老家", "birthday": "生日", "bday": "生日", "name": "名字", "full name": "全名",
    "wife": "老婆", "husband": "老公", "budget": "预算", "mother tongue": "母语",
    "native language": "母语",
}  # fmt: skip
_ATTRIBUTE = re.compile(
    r"^(?:my\s+|我的\s*)(?P<a>"
    + "|".join(sorted(_ATTRIBUTE_ZH, key=len, reverse=True))
    + r")\s*(?=是|叫|在|[:：]|[\u4e00-\u9fff]*人)",
    re.I,
)


# a Chinese particle ending a clause on a Latin word ("现在转做data analyst了"): no part of it
_LATIN_PARTICLE = re.compile(r"(?<=[A-Za-z])\s*[了啦呢哦啊呀]+\s*$")
# English chatter or a time phrase after a Chinese clause ("我对peanuts过敏 btw", "在Google工作
# since 2020"): no part of what the clause says; "as a PM" names the role the Chinese way
_EN_AFTER_ZH = re.compile(
    r"\s+(?:(?:btw|fyi|lol|lmao|haha+|hehe+|xd|tbh|though|anyway|a lot|so much|too|as well"
    r"|since (?:\w+ )?\d{4}|since (?:last|this) \w+|for (?:\w+|\d+) (?:years?|months?))"
    r"(?![\w'])[\s!.~]*)+$",
    re.I,
)
_AS_ROLE = re.compile(r"(?<=[\u4e00-\u9fff])\s+as an?\s+(?P<r>[A-Za-z][\w -]*)$", re.I)
# the same the other way round: "I'm a PM 在美团" is 在美团做PM
_ROLE_THEN_AT = re.compile(
    r"^I(?:'m| am)\s+an?\s+(?P<r>[A-Za-z][\w -]*?)\s*在\s*(?P<o>[^，,。\s]{2,12})$", re.I
)


def _without_emoji(text: str) -> str:
    """``text`` without its emoji, pictographs and their joiners ("我是老师🎉", "I live in
    Denver 🏔️", "I love sushi 🍣 and ramen"): how the user feels, no part of a value (Unicode
    categories So, Sk and Cf, and the variation selectors). Unchanged when it has none."""
    if not any(_is_emoji(ch) for ch in text):
        return text
    kept = "".join(" " if _is_emoji(ch) else ch for ch in text)
    return re.sub(r"[ \t]{2,}", " ", kept).strip()


def _is_emoji(ch: str) -> bool:
    return unicodedata.category(ch) in ("So", "Sk", "Cf") or ch in "\ufe0e\ufe0f"


def _clean_zh(text: str) -> str:
    text = _EN_OPENER.sub("", _without_emoji(text.strip()))
    text = _ATTRIBUTE.sub(lambda m: "我的" + _ATTRIBUTE_ZH[m.group("a").lower()], text)
    previous = None
    while previous != text:
        previous = text
        text = _ZH_FILLER.sub("", text.strip())
    if hedged(text):
        text = text.rstrip("?？ ")  # "我算是素食者吧？": said, not asked
    text = _EN_AFTER_ZH.sub("", text.strip(" 。！!；;，,"))
    text = _AS_ROLE.sub(r"做\g<r>", text)  # "我在字节 as a PM": 在字节做PM
    text = _ROLE_THEN_AT.sub(r"我在\g<o>做\g<r>", text)
    text = _FOR_SO_LONG_ZH.sub("", text)  # "我吃纯素五年了": how long is no part of the fact
    return _LATIN_PARTICLE.sub("", text)


# how long something has held, at the end of a clause after what it says ("吃纯素五年了",
# "养猫快三年了", "用Mac十多年了"); not the clause alone ("三年了"), nor an age or a date
_FOR_SO_LONG_ZH = re.compile(
    r"(?<=[\u4e00-\u9fffA-Za-z]{2})(?:已经|都|快|有|差不多|将近|大概)*"
    r"[零一二两三四五六七八九十百几半\d]+(?:多)?(?:个)?(?:多)?(?:年|月|星期|礼拜|周)(?:多|半)?(?:了|啦)$"
)


def _clean_en(text: str) -> str:
    text = _without_emoji(text.replace("\u2019", "'").replace("\u2018", "'").strip())
    previous = None
    while previous != text:
        previous = text
        text = _EN_FILLER.sub("", text).strip()
    text = re.sub(r",?\s*(?:please|thanks|thank you)[.!]*$", "", text, flags=re.I)
    # "I keep kosher when you suggest recipes": when the assistant should heed the fact
    text = _WHEN_YOU_TAIL.sub("", text)
    text = re.sub(r"\bw/(?=\s)", "with", text)
    text = _LIKE_HEDGE.sub("", text)
    if hedged(text):
        text = text.rstrip("?？ ")  # "so pescatarian I guess?": said, not asked
    return text.strip(" .!;,")


_HEEDED = re.compile(rf"^{_HEED_LEAD}\s*", re.I)
_WHEN_YOU_TAIL = re.compile(
    r"(?<=\w),?\s+(?:when(?:ever)?|if) (?:you|u)(?:'re| are)? (?:suggest|recommend|plan|pick"
    r"|write|give|make|answer|reply|propose|help)\w*\b[^,.!?]*[.!]*$",
    re.I,
)


# "like" as a hedge before an amount, after a verb of the user's: "I drink like 4 cups of
# coffee a day", "I run like three times a week" (not "I like 4 cats", "I feel like two people")
_LIKE_HEDGE = re.compile(
    r"(?<!\bI )(?<!\bwould )(?<!\bfeel )(?<!\bfeels )(?<!\blook )(?<!\blooks )(?<!\bsound )"
    r"(?<!\bseem )(?<!\bjust )(?<!\breally )(?<!\bdon't )(?<!\bdo )(?<=[a-z] )"
    r"like\s+(?=\d|(?:a couple|a few|one|two|three|four|five|six|seven|eight|nine|ten|twice"
    r"|half|a dozen)\b)",
    re.I,
)


def _zh_content(text: str) -> str:
    """A Chinese clause without the leading subject and trailing particles."""
    text = re.sub(r"^我家(?:里)?", "家里", text)
    text = re.sub(r"^(?:我们|咱们|我的|我)", "", text)
    text = re.sub(r"^(?:也|还|都)(?=不|没)", "", text)
    return _ZH_TAIL.sub("", text).strip()


_NAMED_KEYS = frozenset(
    ("education.school", "work.employer", "residence.city", "hometown", "work.location",
     "pets.name")
)  # fmt: skip
# what follows a value and is not part of it: a reason, a concession, a relative clause ("hiking
# because it clears my head", "green tea though"); for a place, who lives there with the user
_VALUE_TAIL_EN = re.compile(
    r"\s+(?:because|since|so that|which|who|while|although|though|cause|cuz|but)\b.*$"
    # how much, and what follows from it ("Python too much to switch", "it so much that …")
    r"|\s+(?:(?:way|far)\s+)?(?:too|so)\s+much\s+(?:to|that)\b.*$"
    # a preposition left alone once the date after it was read ("Stripe on [monday]")
    r"|\s+(?:on|at|in|since|from)$",
    re.I,
)
# ... and why or when the user went there ("Seattle for a job at Amazon", "Austin to be near
# my sister", "Boise in the spring")
_PLACE_TAIL_EN = re.compile(
    r"\s+(?:with\s+(?:my|our|his|her|their|the)|for|to (?:be|join|work|study|live|take)|after"
    r"|from (?-i:[A-Z])\w*"  # "moved to Denver from Atlanta": where from is no part of where
    r"|in the (?:spring|summer|fall|autumn|winter)|(?:last|this|past) (?:week|month|year|weekend)"
    r"|(?:a|an|one|two|three|few|\d+) (?:\w+ )?(?:days?|weeks?|months?|years?) ago|yesterday)\b.*$",
    re.I,
)
# a time ahead a trip is planned for: a holiday, a season, a month or a year to come
_TRIP_WHEN_ZH = (
    r"五一|十一|国庆|春节|过年|元旦|中秋|端午|清明|圣诞|寒假|暑假|年底|年初|月底"
    r"|下个?月|明年|今年|下周|下礼拜|这个?周末|下个?周末|[\d一二三四五六七八九十]{1,2}月份?"
)


_FREE_TEXT_KEYS = frozenset(("schedule.habit", "assistant.constraint", "event", "plan"))
# "anything by Studio Ghibli", "anything with mushrooms": a liking of any of a kind names the kind
_FREE_CHOICE_EN = re.compile(
    r"^(?:pretty much |just about |basically )?(?:anything|everything|whatever|all things)"
    r"\s+(?:(?:that's|that is|that has|made by|made with|by|with|from|involving|about)\s+)?"
    r"(?=\S)",
    re.I,
)
# A taste said by comparison holds what is preferred: "tea over coffee", "cats more than dogs",
# "tea than coffee" (after "I'd rather have"), "更喜欢茶", "比起咖啡我更喜欢茶" are tea, cats, 茶.
_COMPARED_KEYS = frozenset(
    ("preference.drink", "preference.likes", "tech.preferred", "language.preferred")
)
_COMPARED_EN = re.compile(
    r"\s+(?:(?:a lot |much |way |far |a bit |even )?more than|rather than|instead of|over|than)"
    r"\s+\S.*$",
    re.I,
)
_COMPARED_ZH = re.compile(
    r"^(?:比起[^，,。]{1,12}?来?[，,]?\s*我?(?:更|还是|比较)(?:喜欢|爱)?|我?(?:更|还是|比较)(?:喜欢|爱))"
    r"(?:喝|吃|用|听|看|玩)?"
)


# how bad a condition is, said before it
_DEGREE_EN = re.compile(
    r"^(?:(?:pretty|really|very|quite|super|so|kinda|kind of|fairly|rather)\s+)?(?:bad|severe"
    r"|mild|terrible|awful|horrible|minor|slight|occasional|frequent|constant|nasty|annoying)\s+",
    re.I,
)


_FOR_A_WHILE_ZH = re.compile(
    r"(?:已经|都|快|有)?[一二两三四五六七八九十半几\d]+多?个?(?:月|年|天|周|星期|礼拜)多?(?:了|啦)?$"
)


_SAID_HOW_EN = re.compile(r"^(?:actually|really|in fact|truly|definitely|honestly)\s+")


# a clause of its own after a value, opened by "and", "but" or "so" and a word that starts a
# clause ("Austin and honestly the heat is killing me", "Google and the free food is the best
# part", "shellfish and it's really annoying"); not a name's own "and" ("Trinidad and Tobago",
# "Johnson and Johnson")
_CLAUSE_AFTER_EN = re.compile(
    r"\s*,?\s+(?:and|but|so)\s+(?=(?:honestly|really|tbh|frankly|the|it|its|it's|i|i'm|we|my"
    r"|that|this|they|there|everything|nothing|\w+ly)(?:\s|$))",
    re.I,
)


# what leads to the one drink had of a kind: "茶基本只喝" of "我喝茶基本只喝龙井"
_ONLY_DRUNK_ZH = re.compile(r"^[^，,]{1,6}?(?:基本上?|一般|平时|主要|也就|就|都)*只喝")


def _norm(value: str, key: str | None) -> str:
    """The normalised value of a fact: trimmed, particles and fillers dropped; multi-valued
    keys are lower-cased for Latin text."""
    value = value.strip().strip("\"'“”‘’「」《》()（）")
    if _HAN.search(value):
        value = _LEADING_DE.sub("", value)  # "我的失眠好了": not "的失眠"
        trimmed = _ZH_TAIL.sub("", value)
        # a name ending in a particle's character ("美的") keeps it: one character left is no name
        value = value.strip() if key in _NAMED_KEYS and len(trimmed) < 2 else trimmed
    value = re.sub(r"^(?:a|an|the|some)\s+", "", _EN_TAIL.sub("", value), flags=re.I)
    # "my name is actually Tom": how it is said, no part of the value
    value = _SAID_HOW_EN.sub("", value) or value
    value = value.strip(" ，,。.!！")
    if key not in _FREE_TEXT_KEYS and _LATIN.match(value):
        value = _CLAUSE_AFTER_EN.split(value, maxsplit=1)[0]
        value = _VALUE_TAIL_EN.sub("", value)
    if key in ("residence.city", "hometown", "work.location"):
        value = _PLACE_TAIL_EN.sub("", value)
    if key == "schedule.habit":
        # "'ve started journaling every night": what is done, not that it began
        value = re.sub(
            r"^(?:'?ve|have|'?m|am)?\s*(?:(?:just|recently)\s+)?(?:started|begun|been|got into)"
            r"\s+(?=\w+ing\b)",
            "",
            value,
            flags=re.I,
        )
    if key == "preference.drink" and _HAN.search(value):
        # "我喝茶基本只喝龙井": of a kind, the one drunk
        value = _ONLY_DRUNK_ZH.sub("", value) or value
    if key in _NAMED_KEYS:  # "ORG1 in 2015" is ORG1: the date is when, not what
        value = semantic.strip_dates(value)
    if key in _THING_KEYS and _LATIN.match(value):
        # "anything by Studio Ghibli", "anything with truffle in it": what any of is liked
        value = _FREE_CHOICE_EN.sub("", value) or value
        value = semantic.strip_when(value)  # "gave up alcohol last year"
        value = re.sub(r"\s+in (?:it|them)$", "", value, flags=re.I)
        # "night shifts weirdly", "olives honestly": an adverb after the thing is how it is said
        words = value.split()
        while len(words) > 1 and _is_ly_adverb(words[-1]):
            words.pop()
        value = " ".join(words)
    if key in _COMPARED_KEYS:
        value = _COMPARED_EN.sub("", value) if _LATIN.match(value) else value
        value = _COMPARED_ZH.sub("", value) or value
    if key in _THING_KEYS and _HAN.search(value):
        # "戒烟三个月了": how long, no part of what
        value = _FOR_A_WHILE_ZH.sub("", value) or value
    if key == "schedule.habit":
        value = semantic.routine_value(value)
    if key == "health.allergy" and _HAN.search(value):
        # "我对芒果也过敏", "对猫毛有点敏感", "对花粉特别过敏": the allergen, not how
        value = _ALLERGY_TAIL_ZH.sub("", value) or value
    if key == "health.condition" and _LATIN.match(value):
        # "pretty bad migraines", "severe asthma": the condition, not how bad (the content
        # keeps it); "the migraines stopped" then names it
        value = _DEGREE_EN.sub("", value) or value
    if key in ("name.nickname", "name.full"):  # "叫我小马就行": the name, not the assent
        value = re.sub(r"(?:就行|就好|就可以|就成|好了)$", "", value)
    spec = key_spec(key)
    if (
        spec is not None
        and spec.cardinality == "multi"
        and _LATIN.search(value)
        and key not in ("pets.name", "name.alias")
    ):
        value = value.lower()  # a name keeps its capitals ("Max", "Lin Wei")
    return value


def _items(value: str, lang: Lang) -> list[str]:
    """Split a list ("Python 和 Go", "peanuts and shellfish", "香菜也不吃葱": the verb said
    again) into items; a split that would leave an empty part ("和牛") is not a list."""
    sep = (
        r"\s*(?:、|，|,|和|及|以及|与|跟|还有|或者|或|(?:也|还|又)(?:不|不能|不敢|没法)?(?:吃|喝|碰))\s*"
        if lang == "zh"
        else r"\s*(?:,|\band\b|\bor\b|&)\s*"
    )
    parts = [p.strip() for p in re.split(sep, value.strip())]
    if len(parts) > 1 and all(parts):
        return parts
    return [value.strip()]


def _join_zh(head: str, tail: str) -> str:
    return f"{head} {tail}" if tail[:1].isascii() and head and _HAN.match(head[-1]) else head + tail


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _mask(value: str, key: str | None = None) -> str:
    """A secret's stand-in: a password is hidden whole, a number keeps its last 4 digits."""
    if key == "account.password":
        return "******"
    return "*" * max(len(value) - 4, 0) + value[-4:]


# ---------------------------------------------------------------- state and rules


@dataclass(slots=True)
class _Clause:
    text: str  # cleaned for matching: fillers stripped, trailing punctuation dropped
    raw: str
    lang: Lang
    marker: bool  # a correction marker ("其实", "改喝", "actually", "no longer") in the clause
    date: DateMatch | None
    # said without a subject after a clause of the user's ("我是护士，在市一医院"): theirs too
    borrowed: bool = False


@dataclass(slots=True)
class _State:
    turn: Turn
    has_task: bool
    pending: dict[str, list[tuple[str, str]]] = field(
        default_factory=dict
    )  # key → (value, content)
    correction: bool = False  # the sentence corrects something
    last_family: str | None = None
    pet_kind: str | None = None
    neg_prefix: str | None = None  # "I'm " of "I'm not a programmer", for "but a designer"

    def new_sentence(self) -> None:
        self.correction, self.last_family, self.pet_kind, self.neg_prefix = False, None, None, None


Built = list[ExtractedFact] | None
Builder = Callable[[re.Match[str], _Clause, _State], Built]


@dataclass(frozen=True, slots=True)
class _Rule:
    family: str
    lang: Lang
    pattern: re.Pattern[str]
    build: Builder
    after: str | None = None  # only right after a clause of this family in the same sentence


def _fact(
    state: _State,
    clause: _Clause,
    key: str,
    value: str | None,
    content: str,
    *,
    type_: MemoryType | None = None,
    correction: bool = False,
    dated: bool = False,
    metadata: dict[str, object] | None = None,
) -> ExtractedFact:
    """One fact for ``key``: consumes the retractions pending for ``key``, inherits the
    sentence's correcting intent, stamps the date of the clause when ``dated``."""
    spec = key_spec(key)
    kind: MemoryType = type_ or (spec.type if spec else "fact")  # type: ignore[assignment]
    retracted = state.pending.pop(key, [])
    retracts = [_as_retracted(v) for v, _ in retracted]
    if kind == "constraint":
        # a rule for the assistant corrects nothing; an allergen said in place of a denied one
        # ("不是花生过敏，是芒果过敏") replaces it
        is_correction = bool(retracts) and key != "assistant.constraint"
    else:
        is_correction = correction or bool(retracts) or clause.marker or state.correction
    date = clause.date if dated else None
    frame = semantic.time_frame(clause.raw) if key in _NOT_NOW else None
    if (
        key == "residence.city"
        and frame is None
        and not _LIVES.search(clause.raw)
        # "之前住上海，后来搬到杭州了": a clause of its own change is not the sentence's past
        and not semantic.has_change_verb(clause.raw)
    ):
        # "我现在在长沙，来看我奶奶": the sentence says why the user is there
        frame = semantic.time_frame(_sentence_of(state.turn, clause.raw))
    if key in _ONCE_KEYS and semantic.one_off(clause.raw, _sentence_of(state.turn, clause.raw)):
        frame = "today"  # "had pizza for lunch", "刚下班": the day's chatter, see _not_now
    if key in ("preference.drink", "preference.likes") and (
        semantic.for_once(clause.raw)
        # "今天不是咖啡，是奶茶": the day said once for the sentence's clauses
        or (
            _TODAY_ONLY_CONTRAST.search(clause.raw)
            and semantic.for_once(_sentence_of(state.turn, clause.raw))
        )
        # "今天破个例，来杯奶茶": an exception said for the sentence's clauses
        or semantic.made_exception(_sentence_of(state.turn, clause.raw))
    ):
        frame = "today"  # "今晚喝点红酒": tonight's drink, not the usual one
    if _once_done(key, clause) and not retracts and _over(clause, state.turn):
        frame = "past"  # "did my first 10k on sunday": once, and over; no routine
    if key in _TIMED_KEYS and not retracts and _over(clause, state.turn):
        # "Handed in my notice in June! Starting at Genvia": the backstory of another fact of
        # the turn, if there is one (``_backstory``); alone, a thing that happened is an event
        metadata = {**(metadata or {}), "over": True}
    if (
        key in ("work.employer", "work.role")
        and _SIDE_WORK.search(clause.raw)
        and not semantic.has_change_cue(clause.raw)
    ):
        # "晚上还在 Upwork 上接点 freelance 的单子赚外快", "picked up weekend shifts bartending
        # on the side": work beside the job, which a single-valued key would replace
        frame = "side"
    if key in _SPOT_KEYS and semantic.here_now(clause.raw):
        frame = "today"  # "I'm at Starbucks right now": a spot, not where the user works
    if frame == "stay" and clause_cues(clause.raw)[0].temporary:
        frame = None  # "这次出差我住在杭州": a temporary fact, held in its session (session_scope)
    if (
        key in ("event", "residence.city", "work.location")
        and (frame == "stay" or (key == "event" and semantic.time_frame(clause.raw) == "stay"))
        and not retracts
        and _stay_now(clause, state.turn)
    ):
        frame = "today"  # "this week I'm in Lisbon for a conference": under way (_stay_now)
    if key in _PROSPECT_KEYS and not retracts and semantic.prospective(clause.raw):
        frame = "future"  # "我想去腾讯工作", "I'm applying to Stanford": a plan, see below
    if (frame == "future" and key in ("residence.city", *_PROSPECT_KEYS)) or (
        frame == "stay" and key in ("residence.city", "work.location")
    ):
        # "我下个月要搬去北京": a move still to come is a plan; "Staying at a hotel in Melbourne
        # this weekend", "in Osaka on a business trip this week": a stay is an event. The city
        # of now, and the place of work, stay
        if key in _PROSPECT_KEYS and value:
            # the place to come, to be dropped when the turn states it as of now (_one_plan)
            metadata = {**(metadata or {}), "prospect": [key, _norm(value, key)]}
        key = "plan" if frame == "future" and not _appointment(clause) else "event"
        kind, value, date = "event", clause.text, clause.date
        content, retracts, is_correction = _content(clause), [], False
    elif frame is not None:
        metadata = {**(metadata or {}), "frame": frame}
    if key == "schedule.habit" and clause.date is not None and content == _content(clause):
        # "doing evening workouts around 7pm now", "现在早上六点就起来写东西": a routine's time
        # of day is no date (it had read "on Tue Dec 1, 2026 at 7:00 PM")
        content = _content(clause, dated=False)
    return ExtractedFact(
        type=kind,
        content=content.strip(),
        key=key,
        value=_norm(value, key) if value is not None else None,
        is_correction=is_correction,
        retracts=retracts,
        valid_from=date.start if date else None,
        valid_to=date.end if date and kind == "event" else None,
        message_ids=[state.turn.message_id],
        metadata=metadata or {},
    )


# a time said to be gone by in its own words ("上周", "last month", "yesterday", "two days ago")
_GONE_BY = re.compile(
    r"上(?:个?(?:周|星期|礼拜|月)|周末)|昨[天晚]|前天|去年|前年"
    r"|\b(?:last (?:week|weekend|month|year|night|mon|tues|wednes|thurs|fri|satur|sun)\w*"
    r"|yesterday|\w+ ago)\b",
    re.I,
)


def _over(clause: _Clause, turn: Turn) -> bool:
    """True if the clause tells of a time gone by: its date (``dates.find_date``, resolved
    against the turn's time) ends before the turn was said, and the words say so — a time
    said as past (``_GONE_BY``), or a day or longer told in the past tense and not moved
    ("Handed in my notice in June", "did my first 10k on sunday"; not "they pushed it to
    Thursday at 6", "got a haircut on Friday at 3", which name an hour to come). Such a
    clause is no routine of one time, and no event beside another fact (``_backstory``)."""
    date = clause.date
    if date is None or date.end > turn.occurred_at:
        return False
    if _GONE_BY.search(clause.raw):
        return True
    return (
        date.granularity not in ("minute", "part")
        # "got" alone says no past: "also got a haircut on Friday at 3" is one booked
        and tense(re.sub(r"\bgot\b", "", clause.raw)) == "past"
        and not _MOVED_UNNAMED.search(clause.raw)
    )


# a firm's office named by its place ("Singapore office", "上海分公司")
_AN_OFFICE = re.compile(r"^(?P<place>.+?)\s*(?:office|branch|分公司|办公室|分部)$", re.I)
# work done beside the job: a side gig, extra money, shifts picked up on the side
_SIDE_WORK = re.compile(
    r"兼职|副业|外快|接(?:点|些|了)?(?:私活|单子?)"
    r"|\b(?:on the side|side (?:gig|hustle|job|project)s?|moonlight\w*|extra (?:cash|money)"
    r"|picked up (?:\w+ )?(?:weekend |night |extra )?shifts?)\b",
    re.I,
)


def _stay_now(clause: _Clause, turn: Turn) -> bool:
    """True if a stay away from home (``semantic.time_frame`` ``"stay"``) is under way as the
    turn is said: no word of a time to come, and its date holds the turn's time ("这周在杭州出
    差") or, with no date, words of the present say so ("I'm in Osaka on a business trip"). The
    turn's episode keeps it; neither an appointment to remember nor a home (a stay to come,
    "visiting my parents next week", "月底去成都出差", is an event)."""
    date = clause.date
    if tense(clause.raw) == "future":
        return False
    if date is not None:
        return date.start <= turn.occurred_at < date.end
    # no date: said as now ("I'm in Osaka on a business trip"), not ahead ("月底去成都出差")
    return bool(_SAID_NOW.search(clause.raw)) and not re.search(_TRIP_WHEN_ZH, clause.raw)


# words that put a clause in the present: "I'm in", "currently", "现在", "人在"
_SAID_NOW = re.compile(
    r"\b(?:i'?m|i am|we'?re|we are|currently|right now|at the moment)\b"
    r"|现在|正在|目前|这几天|这两天|人在",
    re.I,
)


def _once_done(key: str, clause: _Clause) -> bool:
    """A routine's clause that says no recurrence (``_HABITUAL``, ``_EVERY``): with a date
    gone by it tells of one time ("did my first 10k on sunday"), see ``_over``."""
    return key == "schedule.habit" and not (
        _HABITUAL.search(clause.raw) or _EVERY.search(clause.raw)
    )


def _appointment(clause: _Clause) -> bool:
    """True if a clause of something still to come has its day ("下周三 I have a job interview
    with Google", "moving on Saturday the 5th") and no wish: a day in the calendar is an event,
    a wish or a month ahead a plan."""
    date = clause.date
    return (
        date is not None
        and date.granularity in ("minute", "part", "day")
        and not _INTENT.search(clause.raw)
    )


# who the user lives with, or that they live alone, between the verb and the place ("I live
# with my parents in Boise", "I'm living alone in Leeds")
_WITH_WHOM = r"(?: alone| on my own| by myself| with (?:my|our) (?:[\w'-]+ ){0,4}?[\w'-]+)?"
# a clause that says where the user lives in its own words: its own frame is the whole say
_LIVES = re.compile(
    r"\b(?:live|lives|living|based|reside\w*|my home is)\b|住在|住|定居|安家|^我?家(?:就)?在", re.I
)


# a country or a region studied in ("去德国读了个硕士"), not a city that names its university
# (剑桥, 牛津)
_COUNTRY_ZH = re.compile(
    r"[\u4e00-\u9fff]{1,4}[国洲]|日本|新加坡|加拿大|澳大利亚|新西兰|香港|台湾|澳门|印度|瑞士|瑞典"
    r"|荷兰|丹麦|挪威|芬兰|爱尔兰|意大利|西班牙|葡萄牙|马来西亚|泰国|越南|俄罗斯|海外|国外"
)


# what is done in place of what was denied or dropped
_INSTEAD = re.compile(r"还是|而是|直接|\b(?:instead|rather)\b", re.I)


# an address said to be the old one or out of use, in its own clause: "my old email bob@a.com
# is dead", "别再用 bob@a.com 了", "以前的号码 138…"
_OLD_ADDRESS = re.compile(
    r"\bold\b|\bprevious\b|\bformer\b|\bdead\b|no longer|doesn'?t work|don'?t use|旧|以前的|原来的"
    r"|别再用|不再用|不用了|停用|注销|作废",
    re.I,
)


_STILL_IN_USE = re.compile(r"\bstill\b|还在用|还能用|仍然|也在用|也能用", re.I)


def _old_address_beside_new(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """``facts`` without an email or number the turn says is the old one beside another of the
    same kind ("my old email bob@a.com is dead, use bob@b.com"): the other retracts it and
    replaces the addresses held (``metadata["replaces"]``)."""
    for key in ("contact.email", "contact.phone"):
        said = [f for f in facts if f.key == key and f.value]
        if len(said) != 2:
            continue
        old = [f for f in said if _OLD_ADDRESS.search(_clause_with(turn.content, f.value or ""))]
        if len(old) != 1 or _STILL_IN_USE.search(turn.content):
            continue  # "my old email … still works, also …": both are the user's
        new = next(f for f in said if f is not old[0])
        new.retracts = list(dict.fromkeys([*new.retracts, (old[0].value or "").lower()]))
        new.metadata["replaces"] = True  # "…, use bob@b.com": the one to use from now on
        facts = [f for f in facts if f is not old[0]]
    return facts


def _value_and_rest(text: str, value: str) -> str:
    """``value`` and the words after it in ``text`` up to the end of their clause ("Arc" in
    "Just joined the Arc browser waitlist, so excited" → "Arc browser waitlist"); ``value``
    when ``text`` does not hold it."""
    at = text.lower().find(value.lower())
    if at < 0:
        return value
    return re.split(r"[，,。.!！?？;；]", text[at:], maxsplit=1)[0].strip()


# a clause that only says what holds instead ("是奶茶", "it's tea"): of the day its sentence names
_TODAY_ONLY_CONTRAST = re.compile(r"^\W*(?:而|其实|就)?是|^\W*(?:it's|it is)\b", re.I)


def _sentence_of(turn: Turn, raw: str) -> str:
    """The sentence of ``turn`` that holds the clause ``raw`` (``raw`` itself if none does)."""
    for sentence in split_clauses(turn.content):
        if raw.strip() in "".join(sentence):
            return "".join(sentence)
    return raw


def _content(clause: _Clause, text: str | None = None, *, dated: bool = True) -> str:
    """The clause in the user's own words: subject dropped (zh) or third person (en), relative
    dates replaced by absolute ones (unless ``dated`` is false)."""
    text = clause.text if text is None else text
    if dated and clause.date is not None and text == clause.text:
        text = replace_date(text, clause.date, clause.lang)
    return _zh_content(text) if clause.lang == "zh" else third_person(text)


def simple(
    key: str,
    template: str | None = None,
    *,
    split: bool = False,
    correction: bool = False,
    check: Callable[[str], bool] | None = None,
    metadata: dict[str, object] | None = None,
) -> Builder:
    """A builder for one value group ``v``: content from ``template`` (``{v}`` and the other
    named groups) or the clause itself; ``split`` makes one fact per list item."""

    def build(m: re.Match[str], clause: _Clause, state: _State) -> Built:
        groups = {k: (v or "") for k, v in m.groupdict().items()}
        raw = groups.get("v", "")
        if split and key not in _FREE_TEXT_KEYS and _LATIN.match(raw):
            raw = _CLAUSE_AFTER_EN.split(raw, maxsplit=1)[0]  # not an item of the list
        values = _items(raw, clause.lang) if split else [raw]
        facts = []
        for item in values:
            value = _norm(item, key)
            if not value or value.lower() in _PRONOUNS or (check and not check(value)):
                return None
            if template is None:
                content = _content(clause)
            else:
                content = template.format(**{**groups, "v": item.strip()})
                content = _content(clause, content) if clause.lang == "en" else content
            facts.append(
                _fact(state, clause, key, value, content, correction=correction, metadata=metadata)
            )
        return facts

    return build


_WHEN_YOUNG_EN = re.compile(
    r"\s+(?:as an? (?:kid|child|teen|teenager|baby|toddler|student|young \w+)|when I was\b"
    r"|in my (?:teens|twenties|thirties|forties)|at (?:age )?\d+|years ago|back in\b).*$",
    re.I,
)


def _place(value: str) -> str | None:
    """The place at the head of ``value`` (``"上海两个月了"`` → ``"上海"``), or ``None``."""
    value = _norm(value, None)
    # a Latin name in a Chinese slot ends at the first Chinese particle ("Singapore 了")
    if latin := re.match(r"[A-Z][A-Za-z.' -]*?(?=\s*(?:[了啦的呀吧]|$))", value):
        value = latin.group(0).strip()
    if _is_latin(value):
        # "moved to Canada as a teen": when, no part of the name
        value = _WHEN_YOUNG_EN.sub("", value)
        # "I live in Boston so winters are rough": what follows a conjunction is no part of it
        value = re.split(r"\s+(?:so|but|because|cause|cuz|while|though|which|where)\s", value)[0]
        # "I live in Leeds mostly because…": an adverb after the name is no part of it
        while (
            (words := value.rsplit(" ", 1))[1:] and words[1].islower() and _is_ly_adverb(words[1])
        ):
            value = words[0]
        # "笔记全搬到 Obsidian 了": a tool moved to is no home; "moved to IC": a job's track
        return (
            value
            if value[:1].isupper()
            and not semantic.TECH.match(value)
            and not re.match(rf"(?:{semantic.ROLE_TRACK.pattern})(?:\s|$)", value, re.I)
            else None
        )
    # "搬回老家成都": the place named after the word for one's home town
    value = re.sub(r"^(?:老家|家乡|故乡)(?:的)?(?=\S)", "", value)
    head = segment.slot_place(value)
    return head if head else (value if segment.is_place(value) else None)


def _undated(m: re.Match[str], group: str, clause: _Clause) -> str:
    """Group ``group`` of ``m`` without the clause's date ("Stripe last month" → "Stripe")."""
    text = m.group(group) or ""
    if clause.date is not None and text:
        offset = m.start(group)
        for start, end in sorted(clause.date.spans, reverse=True):
            if offset <= start <= m.end(group):
                text = text[: start - offset] + text[end - offset :]
    return text.strip()


# someone else a home is said of in the turn: "for my parents, Chicago is home now", "home
# these days is Lisbon for my best friend", "Denver is home now to my brother"; or something
# else
_HOME_OF_OTHERS = re.compile(
    r"\b(?:for|to)\s+(?:my|his|her|their|our|a lot of|lots of|many|the)\s+(?!own\b)\w+"
    # "Seattle is home now to Amazon's second campus"
    r"|\bhome (?:now |these days )?(?:to|for) (?!(?:me|us|now|about|almost|over|nearly|a|an"
    r"|one|two|three|four|five|six|seven|eight|nine|ten|several|\d+)\b)",
    re.I,
)


_HOME_WORD = re.compile(r"\bhome\b", re.I)


def _home_of_others(clause: str, turn: str) -> bool:
    """True if ``clause`` speaks of a home and its ``turn`` says it is someone else's
    (``_HOME_OF_OTHERS``): "Denver is home now to my brother" names no home of the user's."""
    return bool(_HOME_WORD.search(clause) and _HOME_OF_OTHERS.search(turn))


def _own_home(build: Builder) -> Builder:
    """``build``, unless the turn says whose home it is and it is someone else's."""

    def own(m: re.Match[str], clause: _Clause, state: _State) -> Built:
        if _HOME_OF_OTHERS.search(state.turn.content):
            return None
        return build(m, clause, state)

    return own


def place(key: str, template: str, *, correction: bool = False, dated: bool = False) -> Builder:
    """A builder for a place-valued key (hometown, residence); rejects non-places."""

    def build(m: re.Match[str], clause: _Clause, state: _State) -> Built:
        text = _undated(m, "v", clause)  # "搬到上海上个月" / "to Shanghai last month"
        if re.search(r"(?:毕业|读书|上学|念书|读研|工作|上班)$", text.strip()):
            return None  # "我是浙大毕业的": where the user studied or works, not a home
        if re.fullmatch(r"[\u4e00-\u9fff]{1,3}大|[\u4e00-\u9fff]{2,10}(?:大学|学院)", text.strip()):
            return None  # "我是北师大的": a school by the shape of its name, not a home
        where = _place(text.strip())
        if where is None:
            return None
        content = template.format(v=where)
        if dated and clause.date is not None:
            when = describe(clause.date, clause.lang)
            content += f"（{when}搬来）" if clause.lang == "zh" else f" (moved {when})"
        return [_fact(state, clause, key, where, content, correction=correction, dated=dated)]

    return build


# the one who does it, for the jobs said by what one does
_DOER = {
    "bartending": "bartender", "tutoring": "tutor", "teaching": "teacher",
    "consulting": "consultant", "freelancing": "freelancer", "nannying": "nanny",
    "waitressing": "waitress", "waiting tables": "waiter", "coaching": "coach",
    "lifeguarding": "lifeguard", "babysitting": "babysitter",
}  # fmt: skip


def _studying_zh(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """The student the level of study in group ``v`` names, as ``work.role``: 研/研二 → 研究生,
    博 → 博士生, 硕 → 硕士生, 本科 → 本科生, 大三 → 大三学生."""
    level = m.group("v")
    first = {"研": "研究生", "博": "博士生", "硕": "硕士生"}.get(level[0])
    role = first or ("本科生" if level == "本科" else f"{level}学生")
    return [_fact(state, clause, "work.role", role, f"是{role}")]


def _job_by_doing(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """The job said by what one does (group ``v``, ``_DOER``), and the employer in group
    ``org`` when it is a name ("at a hotel downtown" names none)."""
    role, org = _DOER[m["v"]], m["org"]
    facts = (
        [_fact(state, clause, "work.employer", org, f"works at {org}")]
        if org and org[0].isupper()
        else []
    )
    return [*facts, _fact(state, clause, "work.role", role, f"works as {_article(role)} {role}")]


def _role_turned_to(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """The job a Chinese clause turned to ("最近转 PM 了", "转后端了"), when it reads as a job."""
    role = m.group("role")
    if role.isascii() and (not _JOB_EN.search(role) or _NOT_JOB_EN.search(role)):
        return None
    # "转后端了", "后来转产品了": a Chinese job, the whole of what follows (not "转正了", "转学了")
    if not role.isascii() and not re.fullmatch(r"[\u4e00-\u9fff]{0,4}?" + _JOB_ZH, role):
        return None
    return [_fact(state, clause, "work.role", role, f"职业是{role}", correction=True)]


# a job said as the standpoint of what follows ("As a teacher, I get summers off")
_AS_JOB = re.compile(r"^\W*As an? (?P<role>[\w-]+(?: [\w-]+){0,2}?)\W*$", re.I)


def _as_job(text: str) -> bool:
    """True if ``text`` is a clause "As a <job>" alone, the job a job title."""
    m = _AS_JOB.match(text)
    return bool(m and _JOB_EN.search(m.group("role")) and not _NOT_JOB_EN.search(m.group("role")))


def _zh_org(org: str) -> bool:
    """A Chinese organisation's name: one word tagged an organisation or a name of its kind,
    or a name with an organisation's suffix (银行…)."""
    if not re.fullmatch(r"[\u4e00-\u9fff]{2,10}", org):
        return False
    words = segment.tag(org)
    return (len(words) == 1 and words[0][1] in ("nt", "nz")) or semantic.org_name_zh(org) == org


def _org_zh(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """The employer in group ``org`` when it is a Chinese organisation's name: one word tagged
    an organisation or a name of its kind, or a name with an organisation's suffix (银行…)."""
    org = m.group("org")
    if not _zh_org(org):
        return None
    return [_fact(state, clause, "work.employer", org, f"works at {org}")]


# "a diner called Rosie's", "a startup named Lumen": a firm of a kind, then its name
_CALLED = re.compile(
    r"^(?:an? |the )?(?:[\w'-]+ ){0,3}?(?:called|named) (?P<name>[A-Z0-9][\w&.'-]*(?: [A-Z0-9]"
    r"[\w&.'-]*)*)$"
    # "一个 startup 叫 Nuvola", "一家叫蓝鲸数据的公司": the firm's name, not its kind
    r"|^(?:一家|一个|一间|家|个)\s*[^，,。]{0,12}?(?:叫|名叫|叫做)\s*(?P<zh>[^，,。\s的]{2,20})"
    r"(?:的(?:公司|企业|工作室|店))?$"
)
# an office of the firm in a place ("Amazon 西雅图 office", "Acme's Denver office")
_OFFICE = re.compile(r"^(?P<head>.*?)\s*(?:(?i:office)|办公室|分部|分公司)$")
_OFFICE_PLACE_EN = re.compile(r"^(?P<org>.*?)(?:'s)?\s+(?P<place>[A-Z][a-z]+(?: [A-Z][a-z]+)?)$")


_TOWN_AFTER_EN = re.compile(r"\s+in\s+(?P<t>(?-i:[A-Z][a-z]+(?: [A-Z][a-z]+)?))$", re.I)
# a department or a field, not a town ("an analyst in Risk Management")
_NOT_TOWN_EN = re.compile(
    r"\b(?:Management|Marketing|Sales|Finance|Engineering|Operations|Research|Design|Support"
    r"|Development|Legal|Accounting|Product|Data|Security|Compliance|Risk|Logistics|Retail"
    r"|Education|Healthcare|Tech|Software|Year|Grade|Team|Group|Department|Office)\b"
)


def _town_after(text: str) -> str | None:
    """The capitalised town a job's words end on ("Google in London" → ``"London"``), or None."""
    m = _TOWN_AFTER_EN.search(text)
    return m["t"] if m and not _NOT_TOWN_EN.search(m["t"]) else None


def _without_town(text: str, town: str) -> str:
    return re.sub(rf"\s+in\s+{re.escape(town)}$", "", text)


def _office_in(org: str) -> tuple[str, str] | None:
    """``(firm, place)`` of an office named by its place after the firm ("Amazon 西雅图 office",
    "Acme's Denver office", "腾讯深圳分公司"), else ``None``: the word before "office" names the
    office by where it is (a place, or a name jieba tags a person's: 西雅图)."""
    office = _OFFICE.match(org.strip())
    if office is None:
        return None
    head = re.sub(r"^(?:the|our|my)\s+", "", office["head"].strip(), flags=re.I)
    if re.fullmatch(r"[A-Z][a-z]+(?: [A-Z][a-z]+)?", head) or segment.is_place(head):
        return "", head  # "the London office": the place alone, no firm named
    if latin := _OFFICE_PLACE_EN.match(head):
        return (latin["org"].strip(), latin["place"]) if latin["org"].strip() else None
    words = [w for w in segment.tag(head) if w[0].strip()]
    if len(words) < 2:
        return None
    place, flag = words[-1]
    if len(place) < 2 or not (flag in ("ns", "nr") or segment.is_place(place)):
        return None
    return head[: head.rindex(place)].strip(), place


# how one is employed, said where a firm's name may stand
_EMPLOYMENT_FORM = re.compile(
    r"freelance|freelancing|self-employed|part-time|full-time|remote|contract|独立|兼职|全职|自由职业者?",
    re.I,
)


# words after "at" that name no firm: a time, a spot, a manner ("a nurse at night", "at home")
_AT_NOT_A_FIRM = frozenset((
    "home", "work", "night", "nights", "heart", "least", "most", "best", "times", "first",
    "last", "school", "uni", "college", "weekends", "moment", "present", "large", "all", "it",
    "this", "that", "the", "a", "an", "my", "our", "their", "his", "her", "some", "one", "once",
    "times", "risk", "peace", "sea", "church", "lunch", "dinner", "breakfast", "noon",
))  # fmt: skip


def _lower_name(org: str, turn_text: str) -> bool:
    """True if ``org`` may be a firm's name written in lower case: the turn has no capital
    letter at all ("i'm an accountant at deloitte"), so case tells nothing, and ``org`` is one
    or two plain words, the first no word of time, place or manner (``_AT_NOT_A_FIRM``)."""
    if re.search(r"[A-Z]", re.sub(r"\bI\b", "", turn_text)):
        return False  # ("im" is read "I'm": the pronoun says nothing of how names are written)
    if not re.fullmatch(r"[a-z][a-z0-9&'-]*(?: [a-z0-9&'-]+)?", org):
        return False
    if re.search(rf"\b(?:the|a|an|my|our|their)\s+{re.escape(org)}\b", turn_text):
        return False  # "work for the state": a common noun, its article dropped from the slot
    return org.split()[0] not in _AT_NOT_A_FIRM and org not in semantic.EN_STOP


def work(*, correction: bool = False, field: bool = False) -> Builder:
    """Employer and/or role from groups ``org`` and ``role``; a place as ``org`` becomes
    ``work.location``. With ``field``, ``role`` is a line of work ("marketing", "retail")
    rather than a job title."""

    def build(m: re.Match[str], clause: _Clause, state: _State) -> Built:
        field_of = m.group("role") if field else ""
        if field and (
            not (field_of[:1].islower() or _FIELD_ACRONYM.fullmatch(field_of))  # "IT", "HR"
            or _NOT_FIELD_EN.match(field_of)
        ):
            return None  # "I work in Berlin", "I work in the city", "I work in shifts"
        groups = m.groupdict()
        if groups.get("old"):
            old = _norm(groups["old"], "work.employer")
            state.pending.setdefault("work.employer", []).append((old, ""))
        # "I joined Stripe last month": the date is no part of the name
        org = _norm(_undated(m, "org", clause) if groups.get("org") else "", "work.employer")
        org = re.sub(r"\s+(?:downtown|nearby|here|in town|near me|near here)$", "", org)
        if named := _CALLED.match(org):
            org = named["name"] or named["zh"]  # "a diner called Rosie's": the name, not the kind
        facts = []
        if office := _office_in(org):
            # "在 Amazon 西雅图 office 上班", "at Acme's Denver office": the place is where the
            # user works, the rest the employer
            org, office_place = office
            said = f"在{office_place}工作" if clause.lang == "zh" else f"works in {office_place}"
            facts.append(_fact(state, clause, "work.location", office_place, said))
        if _EMPLOYMENT_FORM.fullmatch(org):
            # "我是 freelance 的 illustrator": how the user is employed, no employer
            org = ""
        role = _norm(re.sub(r"(?:的)?工作$", "", groups.get("role") or ""), "work.role")
        zh = clause.lang == "zh"
        if not zh:
            # "at Google in London", "a nurse at a hospital in Manchester", "a nurse in Leeds":
            # the town is where the user works, not part of the employer or the role
            town = _town_after(org) or _town_after(role)
            if town:
                org, role = _without_town(org, town), _without_town(role, town)
                facts.append(_fact(state, clause, "work.location", town, f"works in {town}"))
        if zh and (dept := semantic.DEPARTMENT_ZH.search(org)):
            # "在腾讯的市场部工作": the firm, not its department; "在风险管理部做分析师": no firm
            org = org[: dept.start()]
        duty = re.search(r"(?:负责|主管|管理|分管|从事|担任)(?P<d>.+?)(?:的)?(?:工作|这块)?$", org)
        if zh and duty:  # "在公司负责招聘工作": the duty is the role, the place no employer
            org, role = org[: duty.start()], role or _norm(duty.group("d"), "work.role")
        if zh and (inner := _ROLE_AT_FIRM_ZH.search(role)):
            # "在一家做咖啡机的公司当销售": the firm is one noun phrase ("一家…的公司"), the role
            # follows its head; a quantifier alone ("一家") names no employer
            role = _norm(inner.group("r"), "work.role")
            org = "" if _QUANTIFIER_ZH.fullmatch(org) else org
        elif zh and _QUANTIFIER_ZH.fullmatch(org) and _FIRM_ONLY_ZH.search(role):
            # "在一家做在线教育的公司上班": "做…的公司" describes the firm (as "一家律所" does),
            # no role
            firm = _FIRM_ZH.search(clause.text)
            org, role = (firm.group(0) if firm else ""), ""
        if (
            role
            and not zh
            and not field
            and (not _JOB_EN.search(role) or _NOT_JOB_EN.search(role))
            and not _STAND_IN.fullmatch(role)  # "I'm a 程序员": checked when put back
        ):
            return None
        if role and semantic.names_diet(role):
            return None  # "I'm a pescatarian": how the user eats, read as a diet
        if zh and re.match(r"[给帮替]", org):
            return None  # "我在给华为做项目": work for a client, no employer nor role
        if (
            org.lower() in _PRONOUNS
            or org in ("家", "家里", "公司", "学校")
            or (zh and len(org) < 2)
            # "joined in", "work at home"; "a small law firm", "the city council" are employers
            or (
                not zh
                and not re.match(r"^[A-Z0-9]", org)
                and not _ORG_EN.search(org)
                and not _zh_org(org)  # "I'm a PM at 美团"
                and not _lower_name(org, state.turn.content)
            )
            # "a teacher with 10 years of experience", "a nurse with two kids": no employer
            or (groups.get("by") and not (_ORG_EN.search(org) or re.match(r"^[A-Z]", org)))
        ):
            org = ""
        if org and zh and (where := semantic.place_then_one_zh(org)):
            # "在杭州一家外企做HR": where the user works, and a firm of a kind
            facts.append(_fact(state, clause, "work.location", where[0], f"在{where[0]}工作"))
            org = where[1]
        if (
            org
            and not zh
            and (m_year := _CLASS_YEAR.fullmatch(role))
            and (m_year["any"] or _SCHOOL_NAME_EN.search(org))
        ):
            # "I'm a junior at UCLA": a year of study, at a school
            content = f"is {_article(role)} {role} at {org}"
            return [*facts, _fact(state, clause, "education.school", org, content)]
        if org and _STUDENT.search(role):
            # "I'm a grad student at Stanford", "我是北大的研究生": where one studies, not works
            content = f"{org}的{role}" if zh else f"is {_article(role)} {role} at {org}"
            return [*facts, _fact(state, clause, "education.school", org, content)]
        if org and zh and segment.is_place(org):
            facts.append(
                _fact(state, clause, "work.location", org, f"在{org}工作", correction=correction)
            )
        elif org:
            # the employer's own words: a role said beside it is a fact of its own, and stays
            # out of this one's content (corrected, it would live on here)
            text = f"在{org}工作" if zh else f"works at {org}"
            facts.append(_fact(state, clause, "work.employer", org, text, correction=correction))
        if role:
            text = (
                f"职业是{role}"
                if zh
                else f"works in {role}"
                if field
                else f"works as {_article(role)} {role}"
            )
            facts.append(_fact(state, clause, "work.role", role, text, correction=correction))
        return facts or None

    return build


_TEAM_HEAD = r"\s*(?:组|小组|团队|项目组|(?:team|squad)\b)"


def _based_in(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """``work.location`` of "base 在 X" when X is a place (a known one, or a capitalised name)."""
    place = m["place"].strip()
    if not (re.fullmatch(r"[A-Z][A-Za-z]+(?: [A-Z][A-Za-z]+)*", place) or segment.is_place(place)):
        return None
    return [_fact(state, clause, "work.location", place, f"在{place}工作")]


def _team_lead(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """``work.role`` "<team> team lead" of a team the user leads, and the employer named with it."""
    team = re.sub(r"^(?:small|little|new|whole|entire)\s+", "", m["team"].strip(), flags=re.I)
    if not team or team.lower() in _PRONOUNS or re.fullmatch(r"(?:this|that|the|a)", team, re.I):
        return None
    zh = clause.lang == "zh"
    role = f"{team}团队负责人" if zh and _HAN.search(team) else f"{team} team lead"
    facts = [
        _fact(state, clause, "work.role", role, f"职业是{role}" if zh else f"leads the {team} team")
    ]
    org = _norm(m.groupdict().get("org") or "", "work.employer")
    if org and re.match(r"^[A-Z0-9]", org):
        facts.append(_fact(state, clause, "work.employer", org, f"works at {org}"))
    return facts


def _a_team(value: str, content: str) -> bool:
    """Whether ``value`` only modifies a team's head noun in ``content`` ("Java 组")."""
    return bool(re.search(re.escape(value) + _TEAM_HEAD, content, re.I))


# the head of a firm's noun phrase, then the verb of the job held there
_ROLE_AT_FIRM_ZH = re.compile(
    r"(?:公司|企业|单位|工厂|厂|店|机构|集团|工作室)(?:里|里面)?(?:当|做|任|担任|干)(?P<r>.+)$"
)
_QUANTIFIER_ZH = re.compile(r"[一某这那]?[家个所间]")
_FIRM_ZH = re.compile(
    r"[一某这那]?[家个所间][^，,。！!？?]*?(?:公司|企业|单位|工厂|机构|集团|工作室)"
)
# the rest of "在一家做在线教育的公司上班" after "做": the firm's kind, no role
_FIRM_ONLY_ZH = re.compile(
    r"(?:公司|企业|单位|工厂|厂|店|机构|集团|工作室)(?:里|里面)?(?:上班|工作|打工|上班儿)?$"
)


_KIND_LEFT = re.compile(
    r"(?:my|the|that)\s+(?:old\s+|former\s+|previous\s+)?(job|company|firm)\b"
    r"(?!\s+(?:at|for|with|as|in|of)\b)",
    re.I,
)


def retract(key: str) -> Builder:
    """A withdrawn value ("我已经从星河科技离职了", "I quit Acme"): remembered as pending for
    ``key``; the next fact under ``key`` retracts it, otherwise it is emitted at the end."""

    def build(m: re.Match[str], clause: _Clause, state: _State) -> Built:
        said = _undated(m, "v", clause)  # "I left the company in March": no time in the name
        value = _norm(said, key)
        if kind := _KIND_LEFT.match(said):
            # "I quit my job last month", "I left the company": the one held, by its kind
            state.pending.setdefault(key, []).append((kind.group(1).lower(), _content(clause)))
            state.correction = True
            return []
        if not value or re.match(r"^(?:my |the )?(?:job|work|company)$", value, re.I):
            return None
        if clause.lang == "en" and not re.match(r"^[A-Z0-9]", value):  # "left for vacation"
            return None
        if key == "work.employer" and semantic.is_drink(
            re.sub(r"\s+(?:cold turkey|for good|altogether)\b.*$", "", value, flags=re.I)
        ):
            return None  # "I quit Diet Coke cold turkey": a drink given up, no employer
        state.pending.setdefault(key, []).append((value, _content(clause)))
        state.correction = True
        return []

    return build


def drink(*, correction: bool = False) -> Builder:
    """The usual drink: ``preference.drink``; a change ("改喝", "switched to") corrects."""

    def build(m: re.Match[str], clause: _Clause, state: _State) -> Built:
        value = _norm(m.group("v"), "preference.drink")
        groups = m.groupdict()
        if clause.lang == "en":
            value = re.sub(r"\s+(?:every|in the|each|daily|at|with)\b.*$", "", value, flags=re.I)
            if not _DRINKS.search(value):
                return None
        if not value or re.match(r"^(?:多|醉|不|完|过|了|点)", value):
            return None
        if clause.lang == "zh" and re.search(r".就|一喝|会", value):
            return None  # "喝牛奶就拉肚子": what drinking it does, not the usual drink
        changed = correction or bool(groups.get("old")) or clause.marker
        if groups.get("old"):
            old = _norm(groups["old"], "preference.drink")
            state.pending.setdefault("preference.drink", []).append((old, ""))
        if clause.lang == "zh":
            content = f"改喝{value}" if changed else _zh_content(clause.text)
        else:
            content = f"switched to {value}" if changed else third_person(clause.text)
        return [_fact(state, clause, "preference.drink", value, content, correction=changed)]

    return build


def _not_a_tool(value: str) -> bool:
    """A taste that names no tool ("plain JS", "Jenkins"): a tool panned is no dislike."""
    return semantic.is_taste(value) and not any(_TECH.fullmatch(w) for w in value.split())


def favourite(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """ "My favourite X is Y" / "我最喜欢的X是Y": ``Y`` under ``preference.likes`` (a drink under
    ``preference.drink``), with ``metadata["category"] = X``. A favourite is one per category:
    the next favourite of the same category replaces it (``app.arbitration.values``). A
    favourite said without its category ("现在最喜欢的是陈奕迅了") has the category ``"*"``:
    arbitration reads it as the favourite the user has of one category."""
    what = m.group("what").strip() or "*"
    value = _norm(m.group("v"), "preference.likes")
    if not value or value.lower() in _PRONOUNS:
        return None
    zh = clause.lang == "zh"
    meta: dict[str, object] = {}
    if re.fullmatch(r"drink|beverage|饮料|饮品|喝的", what, re.I):
        key = "preference.drink"
    elif _TECH.match(value):  # "我最喜欢的编程语言是Python": a tool, routed as prefer() does
        key = "tech.preferred"
    else:
        key, meta = "preference.likes", {"category": what.lower()}
    said = m.group("what").strip()
    content = (
        f"最喜欢的{said}是{m.group('v').strip()}"
        if zh
        else (f"favorite {said} is {m.group('v').strip()}")
    )
    return [_fact(state, clause, key, value, content, metadata=meta)]


def _preferred_key(item: str, lang: Lang) -> str:
    """The key of a preferred thing: a human language → ``language.preferred``, a drink →
    ``preference.drink``, a programming language or tool (or, in Chinese text, any Latin
    name) → ``tech.preferred``, anything else → ``preference.likes``."""
    low = item.lower()
    if re.fullmatch(_LANGS_ZH + "|" + _LANGS_EN, low):
        return "language.preferred"
    if _DRINKS.search(low) and len(item) <= 20:
        return "preference.drink"
    if _TECH.match(low) or (lang == "zh" and _is_latin(item)):
        return "tech.preferred"
    return "preference.likes"


_LATIN_HEAD = re.compile(
    r"([A-Za-z][A-Za-z0-9.+#-]*(?: [A-Za-z][A-Za-z0-9.+#-]*)*)\s*([\u4e00-\u9fff].*)$"
)


def _latin_object(item: str) -> str:
    """The Latin name a mixed-script object opens with, when Chinese words of doing follow it
    (``"TypeScript写前端"`` → ``"TypeScript"``, ``"Mac开发"`` → ``"Mac"``); a name with a
    Chinese noun after it stays whole (``"K-pop音乐"``)."""
    m = _LATIN_HEAD.match(item)
    if m is None:
        return item
    words = segment.tag(m.group(2))
    return m.group(1) if words and words[0][1].startswith("v") else item


def prefer(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """A stated preference, routed per item: a human language → ``language.preferred``, a drink
    → ``preference.drink``, a programming language/tool → ``tech.preferred``, else likes."""
    verb = m.group("verb")
    facts = []
    wanted = re.sub(
        r"\s+(?:over|to|rather than|instead of|more than|for|when|because)\s+.*$"
        r"|(?:而不是|胜过|多过).*$",
        "",
        m.group("v"),
    )
    for item in _items(wanted, clause.lang):
        item = _norm(_latin_object(item) if clause.lang == "zh" else item, None)
        if not item:
            continue
        key = _preferred_key(item, clause.lang)
        if clause.lang == "zh":
            content = _join_zh(verb, item)
        else:
            content = f"{_conjugate(verb) if ' ' not in verb else third_person('I ' + verb)} {item}"
        facts.append(_fact(state, clause, key, item, content))
    return facts or None


_MANY = re.compile(
    r"\b(?:two|three|four|five|both|\d+)\b|[两二三四五几俩仨]\s*[只条个位头]|俩|仨|都", re.I
)
# pets listed in one breath, each after an article or a count ("a dog and two cats", "一只狗和
# 一只猫")
_PET_LIST = re.compile(
    rf"(?:\b(?:an?|two|three|four|\d+) (?:\w+ )?)((?:{_PETS_EN})(?:s|ies)?)\b"
    rf"|[一两二三四五几\d][只条个头](?:小)?({_PETS_ZH})",
    re.I,
)
# nothing but names: "Milo and Luna", "Rex, Bella & Max", "大黄和小黑"
_NAMES_ONLY = re.compile(
    r"[A-Z][\w'-]+(?:\s*(?:,\s*(?:and\s+)?|\s+(?:and|&)\s+)[A-Z][\w'-]+)+"
    r"|(?![叫名是有])[\u4e00-\u9fff]{1,3}(?:[和跟、][\u4e00-\u9fff]{1,3})+"
)
_ONE_NAME = re.compile(r"[A-Z][a-z'-]{1,15}")
# capitalised words that name no pet after a comma: "I have a dog, Honestly."
_NOT_A_PET_NAME_EN = frozenset((
    "thanks", "thank", "lol", "haha", "sadly", "honestly", "anyway", "yes", "no", "ok", "okay",
    "too", "also", "again", "now", "today", "though", "sure", "right", "well", "yeah", "yep",
    "nope", "please",
))  # fmt: skip
_NAME_LIST = re.compile(r"\s*(?:,\s*(?:and\s+)?|、|\s+(?:and|&)\s+|和|跟|与)\s*")


def _singular(kind: str) -> str:
    """``"cats"`` → ``"cat"``, ``"puppies"`` → ``"puppy"``; other words as they are."""
    if re.fullmatch(r"[a-z]+ies", kind):
        return kind[:-3] + "y"
    if re.fullmatch(r"[a-z]+[^s]s", kind) and not kind.endswith(("us", "is")):
        return kind[:-1]
    return kind


def _pet_called(kind: str, name: str, zh: bool) -> str:
    """What a named pet is, in words of its own: ``"有一只猫叫咪咪"``, ``"has a cat named
    Milo"``."""
    return f"有一只{kind}叫{name}" if zh else f"has {_article(kind)} {kind} named {name}"


def pet(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """Pets: the kind (``pets.kind``) and/or the name (``pets.name``)."""
    groups = m.groupdict()
    kind = (groups.get("kind") or state.pet_kind or "").lower()
    name = groups.get("name") or groups.get("name2") or groups.get("name3")
    if not kind and not name:
        return None
    if name and re.match(r"[了着过个声]", name):
        return None  # "我家狗叫了一晚上": it barked, no name
    facts = []
    if kind and not name:
        state.pet_kind = kind
        facts.append(_fact(state, clause, "pets.kind", kind, _content(clause)))
    if name:
        if not kind:
            if semantic.own_subject(clause.raw) or re.search(
                r"我|\b(?:me|my|i)\b", clause.raw, re.I
            ):
                return None
            # "…got a puppy too! His name is Taco", "领养了一只狗，叫豆豆": the pet's kind may be
            # read later in the turn (by the classifier); kept only if one is (_pet_named)
            name = _norm(name, None)
            return [
                _fact(state, clause, "pets.name", name, _content(clause), metadata={"kind": ""})
            ]
        name = _norm(name, None)
        state.pet_kind = kind
        zh = clause.lang == "zh"
        content = f"宠物叫{name}" if zh and kind == "宠物" else _pet_called(kind, name, zh)
        facts.append(_fact(state, clause, "pets.name", name, content, metadata={"kind": kind}))
        if groups.get("kind"):  # "my cat Mochi", "我家猫叫团子": the kind is said, too
            said = f"养了{kind}" if clause.lang == "zh" else f"has {_article(kind)} {kind}"
            facts.append(_fact(state, clause, "pets.kind", kind, said))
    return facts


def family(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """A family member: its name when given (metadata ``relation``), else the relation."""
    relation = m.group("rel").lower()
    name = _norm(m.groupdict().get("name") or "", None)
    if name and clause.lang == "zh" and (len(name) > 4 or re.search(_JOB_ZH + "$", name)):
        return None
    content = _content(clause)
    if name and clause.lang == "en":
        content = f"{relation}'s name is {name}"
    return [
        _fact(
            state,
            clause,
            "family.member",
            name or relation,
            content,
            metadata={"relation": relation},
        )
    ]


def _account(label: str) -> str | None:
    """What a password opens, from its label: "wifi password" → "wifi", "银行卡密码" → "银行卡";
    None for a bare "password"/"密码"."""
    account = re.sub(r"\s*(?:password|密码)$", "", label, flags=re.I).strip().lower()
    # "新的密码", "my new password": how new it is names no account
    return re.sub(r"^(?:新的?|旧的?|原来的|现在的|(?:new|old|current)\b)\s*", "", account) or None


# a password's keyword said short, or a login that holds one: "password" in the content
_SHORT_KEYWORD = re.compile(r"^(?:[a-z]+ )?(?:p|pass)$|\b(?:pw|pwd|passwd|log-?in)$", re.I)


# the keys whose value is someone's name, and a "'s" that ends one: whose, not the name
_PERSONS_KEYS = ("pets.name", "name.full", "name.nickname", "family.member")
_WHOSE_END = re.compile(r"['’]s$")


def contact(key: str, sensitivity: str = "personal") -> Builder:
    """An email/phone (kept exactly as written) or a secret number (content masked)."""

    def build(m: re.Match[str], clause: _Clause, state: _State) -> Built:
        if key == "account.password":
            # the password is what detection seals after its keyword (one grammar for both:
            # "the wifi password for my router is …", "…, it's … now"; "the password is
            # wrong" states none)
            spans = [(a, b) for a, b in password_spans(clause.text) if a >= m.end("label")]
            if not spans:
                return None
            value = clause.text[spans[0][0] : spans[0][1]]
        else:
            value = m.group("v").strip()
        digits = re.sub(r"\D", "", value)
        if key == "finance.card" and not 13 <= len(digits) <= 19:
            return None  # "my business card number is 415 555 0134": a phone (ISO/IEC 7812)
        if key == "contact.phone" and (len(digits) > 15 or valid_card(digits)):
            return None  # "card number 4111 1111 1111 1111": no phone has 16 digits (E.164)
        zh = clause.lang == "zh"
        if sensitivity == "secret":
            label = _SHORT_KEYWORD.sub("password", m.group("label"))
            masked = _mask(value, key)
            content = f"{label}是 {masked}" if zh else f"{label} is {masked}"
        elif key == "contact.email":
            content = f"邮箱是 {value}" if zh else f"email is {value}"
        else:
            content = f"电话是 {value}" if zh else f"phone number is {value}"
        metadata: dict[str, Any] = {"sensitivity": sensitivity}
        if key == "account.password" and (
            account := _account(_SHORT_KEYWORD.sub("password", m.group("label")))
        ):
            metadata["account"] = account
        fact = _fact(state, clause, key, value, content, metadata=metadata)
        fact.value = value  # exactly as written
        return [fact]

    return build


_BUDGET_MAX = re.compile(
    r"最多|最高|不超过|上限|以内|封顶|at most|up to|max|no more than|under|cap"
)
_BUDGET_MIN = re.compile(r"至少|最少|不低于|起码|at least|min")


# a budget of a public body, not the user's project: "the city cut the budget for the library",
# "the school's budget is $2M", "政府今年的预算是…"
_PUBLIC_BUDGET = re.compile(
    r"\b(?:the\s+)?(?:city|state|county|town|federal|government|council|congress|parliament"
    r"|ministry|school(?:\s+(?:board|district))?|university|library|hospital|military|nasa)"
    r"(?:'s)?\b(?=.*\bbudget)|政府|市里|市政府|国家|学校|教育局|财政",
    re.I,
)


# money staked, lent or owed is no budget: "we have $20 riding on this", "bet him 50 bucks",
# "他还欠我两百", "跟同事打赌输了一百"
_MONEY_NOT_BUDGET = re.compile(
    r"\b(?:riding on|bet(?:s|ting)?|wager(?:ed)?|owes? (?:me|him|her|them)|lent|borrowed|loaned"
    r"|tip(?:ped)?)\b|打赌|赌了|欠我|借给|借了|输了|赢了",
    re.I,
)


def _public_budget(raw: str) -> bool:
    """True if the budget ``raw`` states is a public body's, with no word of the user's or
    their team's in it ("学校给我们项目的预算是5万" is the user's)."""
    return bool(_PUBLIC_BUDGET.search(raw)) and not re.search(
        r"我|咱|\b(?:my|our|we|us|I)\b", raw, re.I
    )


def budget(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """``project.budget``: the amount as written ("50万", "$5,000"), validated as a number."""
    value = re.sub(r"\s+", "", m.group("v")) if clause.lang == "zh" else m.group("v").strip()
    value = re.sub(r"(?:元|块钱?|人民币)$", "", value)
    if not re.search(r"\d|[一二两三四五六七八九十百千]+(?:万|千|亿)", value):
        return None
    if _public_budget(clause.raw):
        return None  # "the city cut the library's budget to $5 million": a public body's
    qualifier = m.group("q") or ""
    # "cut the budget to $20,000", "预算砍到三十万了": a new amount in place of the old
    changed = bool(_BUDGET_CHANGE.search(qualifier) or _BUDGET_CHANGE.search(clause.text))
    bound = (
        "max" if _BUDGET_MAX.search(qualifier) else "min" if _BUDGET_MIN.search(qualifier) else None
    )
    project = re.search(r"项目|project", clause.text, re.I)
    if clause.lang == "zh":
        content = ("项目" if project else "") + re.sub(r"\s+", "", m.group(0)).rstrip("元")
    else:
        content = ("project " if project else "") + m.group(0).strip()
    meta: dict[str, object] = {"bound": bound} if bound else {}
    return [
        _fact(state, clause, "project.budget", value, content, correction=changed, metadata=meta)
    ]


# "they cut the redesign budget to $8,000", "领导把预算砍到了八万": the people who set the user's
# project budget set the user's fact
# "客户要找我直接打这个 139…", "if the school needs me they can call me on …": how others reach
# the user is the user's number or address
def _a_name_said(value: str) -> bool:
    """True if ``value`` can be what the user is called: not a word of how ("by", "the")."""
    return value.lower() not in {"by", "the", "a", "an", "my", "his", "her", "that", "it", "me"}


def _name_not_doing(value: str) -> bool:
    """True if ``value`` after "叫我" can be a name: its first word is no verb, time, adverb,
    preposition, numeral or pronoun ("去吃饭", "明天去爬山", "一起玩" are asks)."""
    words = segment.tag(value)
    return bool(words) and not words[0][1].startswith(("v", "t", "d", "p", "m", "r", "c", "u"))


# when something is, said first ("明天下午三点", "后天晚上", "周五"): what follows says whose it is
_LEADING_WHEN_ZH = re.compile(
    rf"^(?:(?:{WHEN_AHEAD_ZH}|昨天|前天|上(?:周|星期|礼拜)[一二三四五六日天末])\s*)+"
)
# what cheers a taste on after its thing ("tea all the way", "pizza any day", "jazz forever")
_CHEER_TAIL = re.compile(
    r"\s+(?:all the way|any ?day|hands down|forever|for life|for sure|100%|ftw|all day)\W*$", re.I
)
_TASTE_VALUE_KEYS = frozenset(("preference.drink", "preference.likes", "tech.preferred"))
_CALLED_BY_OTHERS = re.compile(r"(?:都|一般|平时)?(?:叫|喊|称呼)我|\bcalls?\s+me\b", re.I)
_REACHED_BY = re.compile(
    r"(?:找我|联系我|打给我|打我|(?:call|text|e-?mail|reach|contact|ring)\s+me\b)[^。.!?！？]{0,15}?"
    r"(?:\+?\d[\d\s-]{5,}\d|[\w.%+-]+@[\w-]+\.\w)",
    re.I,
)
# the word for a budget, in a Chinese sentence too ("老板批了，budget 提到 8 万")
_BUDGET_WORD = r"(?:预算|(?<![A-Za-z])budget(?![A-Za-z]))"
_BUDGET_SAID = re.compile(_BUDGET_WORD, re.I)
_THEIRS_OURS = re.compile(
    r"^\W*(?:(?:they|the (?:team|client|company|board|boss)|(?:my|our) (?:boss|manager|client"
    r"|team|lead)|management)\b.*\bbudget\b|(?:老板|领导|公司|客户).*预算)",
    re.I,
)


_BUDGET_CHANGE = re.compile(
    r"\b(?:cut|raised|increased|reduced|lowered|bumped|dropped|slashed|trimmed|upped|changed)\b"
    r"|(?:砍|降|涨|提|减|加|调|改|缩)(?:到|至|成)",
    re.I,
)


# a year of birth in digits or Han numerals: 95, 1995, 九五, 一九九五
_YEAR = (
    r"(?P<y>(?:19|20)?\d{2}|[零〇一二三四五六七八九]{2}|[一二][九零〇][零〇一二三四五六七八九]{2})"
)


def _four_digits(year: str) -> str:
    """A year in four digits: two are of the last century from 30 on ("九五" → 1995, "05" →
    2005)."""
    n = cn_int(year) or 0  # digit by digit: "九五" → 95, "一九九五" → 1995
    return str(n) if len(year) == 4 else str((1900 if n >= 30 else 2000) + n)


def birth_year(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """``birthday`` as the year alone (``"1995"``)."""
    year = _four_digits(m.group("y"))
    return [_fact(state, clause, "birthday", year, f"{year}年出生")]


_BIRTH_YEAR_IN_PLACE = re.compile(_YEAR + r"年(?:出生|生)?的?")


_CN_DAY = (
    r"(?:初[一二三四五六七八九十]|十[一二三四五六七八九]?|二十[一二三四五六七八九]?"
    r"|廿[一二三四五六七八九]?|三十|[一二三四五六七八九]|\d{1,2})"
)
_LUNAR_DAY = re.compile(
    r"(?P<cal>农历|阴历|旧历|\blunar\b)?[\s的]*(?P<md>(?:正|腊|冬|闰?[一二三四五六七八九十]{1,2}|\d{1,2})月"
    + _CN_DAY
    + r"[日号]?)",
    re.I,
)
# words for months and days that only the lunar calendar has
_LUNAR_ONLY = re.compile(r"^(?:正|腊|冬|闰)|月(?:初|廿)")


def birthday(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """``birthday`` as ``MM-DD`` (``YYYY-MM-DD`` when the year is given)."""
    lunar = _LUNAR_DAY.search(clause.raw)
    if lunar and (lunar["cal"] or _LUNAR_ONLY.search(lunar["md"])):
        # "农历三月初八", "腊月初八": a day of the lunar calendar falls on another Gregorian day
        # each year; it is kept as said, never read as MM-DD
        value = "农历" + re.sub(r"[日号]$", "", lunar["md"])
        return [_fact(state, clause, "birthday", value, f"生日是{value}")]
    parsed = parse_month_day(m.group("v"))
    if parsed is None:
        return None
    year, month, day = parsed
    value = f"{year:04d}-{month:02d}-{day:02d}" if year else f"{month:02d}-{day:02d}"
    if clause.lang == "zh":
        content = f"生日是{f'{year}年' if year else ''}{month}月{day}日"
    else:
        month_name = datetime(2000, month, 1).strftime("%B")
        content = f"birthday is {month_name} {day}{f', {year}' if year else ''}"
    return [_fact(state, clause, "birthday", value, content)]


_EN_UNITS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_EN_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def en_int(text: str) -> int | None:
    """An English number in words up to 99 (``"twenty-seven"`` → 27); ``None`` otherwise."""
    words = re.split(r"[\s-]+", text.strip().lower())
    if len(words) == 1 and words[0] in _EN_UNITS:
        return _EN_UNITS.index(words[0])
    if words and words[0] in _EN_TENS[2:]:
        tens = _EN_TENS.index(words[0]) * 10
        if len(words) == 1:
            return tens
        if len(words) == 2 and words[1] in _EN_UNITS[1:10]:
            return tens + _EN_UNITS.index(words[1])
    return None


def _age_sex(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """``"36f"``, ``"41 m"``: the age, and the sex its letter gives."""
    facts = age(m, clause, state) or []
    sex = {"m": "male", "f": "female"}.get(m.group("sex").lower())
    if facts and sex:
        facts.append(_fact(state, clause, "identity.gender", sex, f"is {sex}"))
    return facts or None


def age(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """``age`` in years from group ``v`` (``_age_of``)."""
    return _age_of(m.group("v"), clause, state)


def _age_of(v: str, clause: _Clause, state: _State) -> Built:
    """``age`` in years, validated (1–129); digits, Chinese numerals or English words."""
    years = int(v) if v.isdigit() else (cn_int(v) if _HAN.search(v) else en_int(v))
    if years is None or not 0 < years < 130:
        return None
    content = f"今年{years}岁" if clause.lang == "zh" else f"is {years} years old"
    return [_fact(state, clause, "age", str(years), content)]


def constraint(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """A rule for the assistant (``assistant.constraint``, type constraint)."""
    text = clause.text
    if clause.lang == "zh":
        text = _ZH_TAIL.sub(
            "", re.sub(r"^(?:以后|今后|之后|往后|从现在起|从今以后|从今天起)[，,]?", "", text)
        )
        text = re.sub(r"^(?:请|麻烦)?你?", "", text)
        if re.match(r"^(?:控制|限制|保持|压缩)在", text):  # "控制在三句话以内" is about answers
            text = "回答" + text
    else:
        text = re.sub(
            r"^(?:please\s+)?(?:(?:from now on|going forward|in (?:the )?future),?\s+)?",
            "",
            text,
            flags=re.I,
        )
        text = re.sub(r"^please\s+", "", text, flags=re.I)
        text = re.sub(r"^I (?:don't|do not) want you to\s+", "don't ", text, flags=re.I)
        text = re.sub(r"^I(?:'d| would) like you to\s+|^I want you to\s+", "", text, flags=re.I)
    if len(text) < 2:
        return None
    return [
        _fact(
            state,
            clause,
            "assistant.constraint",
            text.lower() if clause.lang == "en" else text,
            text,
        )
    ]


def decision(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """``task.decision`` (type fact), scoped to the task when the turns came with one."""
    what = m.group("v").strip()
    personal = (m.groupdict().get("who") or "").lower() in ("我", "i")
    if personal and not state.has_task and not re.search("项目|project", clause.text, re.I):
        # "我决定明年考研" / "I decided to run again" is the user's own plan; "I chose them" is
        # a past choice, nothing to keep.
        verb = (m.groupdict().get("verb") or "决定").lower()
        return event("plan")(m, clause, state) if verb in ("决定", "decided") else []
    if clause.date is not None:
        what = replace_date(
            what, find_date(what, state.turn.occurred_at) or clause.date, clause.lang
        )
    if clause.lang == "zh":
        content = ("项目" if "项目" in clause.text else "") + "决定" + what
    else:
        verb = third_person("we " + m.group("verb")) if m.group("verb") else "decided"
        content = f"{verb} {what}"
    fact = _fact(state, clause, "task.decision", what, _ZH_TAIL.sub("", content))
    fact.scope = "task" if state.has_task else "user"
    return [fact]


_ZH_ACTION = re.compile(
    r"要|得|会|将|约了?|安排|有个|有一个|去|飞|回|出差|参加|开会|面试|考试|见|出发|上课|拜访|聚餐|看病|体检|搬"
)


_INTENT = re.compile(
    r"(?:want|wanna|hope|hoping|would like|'d like|wish|aim|aiming|dream)\s+(?:is\s+)?to\b"
    r"|(?:想要|想|希望|梦想|打算|计划)(?!念|起|到|法)",
    re.I,
)


# a time kept habitually, not once
_HABITUAL = re.compile(
    r"\b(?:these days|nowadays|every (?:night|day|morning|evening|weekday)|most (?:nights|days"
    r"|mornings|evenings)|usually|normally|generally)\b|每天|每晚|每周|平时|通常|一般都",
    re.I,
)

# ... or a thing of every day said at a clock time with no day ("I go to bed around 1am",
# "I wake up at 6"), not on one day ("tonight", "tomorrow", "on Friday")
_DAILY_EN = re.compile(
    r"^(?:I|we) (?:(?:go to (?:bed|sleep|the gym|work)|wake up|get up|sleep|work out|run|jog"
    r"|swim|walk|meditate|eat (?:breakfast|lunch|dinner)|start work|finish work|leave work))\b",
    re.I,
)
# a drink asked for ("来一杯吧", "给我来一杯美式吧"), put into another ("oat milk in my coffee",
# "在美式里改加燕麦奶"), or said with its cup ("来一杯美式": the drink is 美式)
_DRINK_ASKED = re.compile(r"吧\W*$|^\W*给我来")
_DRINK_ADDED = re.compile(r"\bin (?:my|the|your|his|her) \w+|^在.{1,8}里|改加", re.I)
_A_CUP_ZH = re.compile(r"来(?:一|两|几)?(?:杯|瓶|罐|听)(?P<d>[^，,。!！]{1,10})$")
# an amount of a drink, in its parts: a count in Chinese before its measure word; in English a
# count, what holds it, and how often
_COUNT_ZH = r"[零一二两三四五六七八九十几半\d]+(?:多)?"
_COUNT_EN = (
    r"(?:like |about |around |at least )?(?:\d+|one|two|three|four|five|six|a few|a couple of)"
)
_VESSEL_EN = r"(?:cups?|glasses|glass|bottles?|cans?|mugs?|shots?)"
_PER_EN = r"(?:a|per|every) (?:day|week)"
# how much of a drink, said before or after it ("一天三杯咖啡", "4 coffees a day", "2 cups of
# tea every day")
_AMOUNT_AROUND = re.compile(
    rf"^(?:(?:一|每)?(?:天|日|周)(?:要|得|都)?)?(?:至少|大概|差不多|起码)?{_COUNT_ZH}"
    r"(?:杯|瓶|罐|听|壶)"
    rf"|^{_COUNT_EN} (?:{_VESSEL_EN} of )?"
    rf"|\s+{_PER_EN}$",
    re.I,
)
# an amount with nothing of what it is an amount of ("一天三杯", "3 cups a day", "two a day")
_AMOUNT_ONLY = re.compile(
    rf"(?:(?:一|每)?(?:天|日|周|星期|礼拜|月))?(?:至少|最多|大概|差不多|起码)?{_COUNT_ZH}"
    r"(?:杯|瓶|罐|听|次|顿|碗|壶)(?:左右)?"
    rf"|{_COUNT_EN}(?: {_VESSEL_EN})? {_PER_EN}",
    re.I,
)


# one day named, no routine: "今天", "tonight", "this morning"
_THIS_DAY = re.compile(
    r"\b(?:today|tonight|this (?:morning|afternoon|evening)|right now|rn)\b"
    r"|今天|今晚|今早|今儿|这会儿",
    re.I,
)
_EVERY = re.compile(r"\b(?:every|each|always|often)\b|每|天天|经常|总是", re.I)
# a home given up ("深圳的房子已经退了", "moved out of my Austin apartment", "the lease is up")
_HOME_GIVEN_UP = re.compile(
    r"(?:房子|房|租的房子?|公寓|出租屋|宿舍)(?:已经|也|都|早就)?(?:退了|退租|卖了|卖掉|到期|不租了)"
    r"|\b(?:moved out of|gave up|sold|ended) (?:my|our|the) (?:[\w-]+ )?(?:apartment|flat|place"
    r"|house|lease|condo)\b|\blease (?:is |was )?(?:up|over|ended)\b",
    re.I,
)
# a child told of by sex ("是个男孩", "it's a girl"): said of a child, no one's gender else
_A_CHILD = re.compile(r"男孩|女孩|男宝|女宝|儿子|闺女|\b(?:boy|girl|baby)\b", re.I)
# one day to come ("下周三", "明天", "next Friday", "tomorrow")
_ONE_DAY_AHEAD = re.compile(
    r"\b(?:tomorrow|the day after tomorrow|next (?:mon|tues|wednes|thurs|fri|satur|sun)day)\b"
    r"|(?:下|下个)(?:周|星期|礼拜)[一二三四五六日天]|明天|后天|大后天|明早|明晚",
    re.I,
)
# ... or any doing in the simple present at an hour with no day ("I do my deep work before
# 9am", "I walk the dog at 7am"): not an appointment ("I have a call at 3", "I'm seeing her at 5",
# "I fly out at 6 tomorrow")
_SIMPLE_PRESENT_EN = re.compile(
    r"^(?:I|we) (?:(?:usually|always|normally|generally|often) )?"
    r"(?!(?:have|had|has|got|get|need|am|was|were|will|would|can|could|should|must|may|might"
    r"|want|did|do(?:n'?t| not)|fly|leave|land|arrive|meet|see|start|finish|owe|promised)\b)"
    # the simple present, not the past ("we moved dinner to Saturday 8pm", "I went at 6")
    r"(?![a-z]+ed\b|(?:went|came|took|made|saw|met|left|flew|ran|ate|drove|got|had|said|told"
    r"|found|gave|bought|brought|caught|spent|sent|kept|slept|felt|lost|paid|sat|woke|wrote"
    r"|rode|spoke|broke|chose|began|swam|drank|set|put|hit|quit|cut|shut|read)\b)"
    r"[a-z]{2,}\b(?! you\b)",
    re.I,
)
_ONE_DAY = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|this|next|last|on)\b|\d{1,2}/\d{1,2}", re.I
)


# a time to come said first, before what the user will do, the user left out as Chinese does
# ("周六约了老同学去爬山", "下个月去日本玩", "月底去成都出差"): the days of
# ``dates.DAY_AHEAD_ZH`` and the looser words no date names exactly
_SOON_ZH = (
    DAY_AHEAD_ZH
    + r"|(?:这个?|下个?)?周末|下个?月|这个?月|[月年][底初]|明年|今年|下半年|过(?:几|两)天|过段时间"
    r"|国庆|春节|过年|寒假|暑假|五一|元旦|中秋|端午|圣诞节?|今晚|明晚|明早|(?:这|下)(?:周|星期|礼拜)"
)
# a month said after the year ("明年三月结婚")
_MONTH_ZH = r"(?:[一二三四五六七八九十]|十[一二]|1[0-2]|[1-9])月(?:份|初|中|底)?"
# a day or a period to come first (a part of the day or a clock time alone is a routine's:
# "早上实在起不来", "十点半就上床"), then more of when, then how sure, then the doing
_AHEAD_OPENS_ZH = re.compile(
    rf"^\s*(?:{_SOON_ZH})(?:\s*(?:{WHEN_AHEAD_ZH}|[春夏秋冬]天|{_SOON_ZH}|{_MONTH_ZH}))*\s*"
    r"(?:(?:就|要|得|会|准备|打算|计划|还要|也要)\s*)*"
    r"(?!想|不|没|别|可能|应该|也许|估计)(?P<doing>\S.*)$"
)
# what the user goes to do ("去", "约了", "回老家", "出差"), read when jieba's tags do not say so
_DOING_ZH = re.compile(
    r"^(?:去|回|飞|约|带|陪|见|考|搬|参加|出差|旅游|旅行|结婚|办|请假|休|加班|开会|面试|体检"
    # with someone ("周六跟朋友去垦丁"), not a second time ("明天和后天")
    r"|跟(?![今明后]天)|和(?![今明后]天|周|下)"
    r"|出发|动身|上课|报名|装修|换|买|学|开车|自驾|坐)"
)


# arranged already, so still to come: "约了", "订了票", "报了名"
_ARRANGED_ZH = re.compile(r"约了|约好了|订了|定了|买了[^，,。]*票|报了名|报名了|挂了号")
_WORK_STARTS_ZH = re.compile(
    r"(?:开始|正式|就)?在[^，,。]{1,12}(?:上班|工作|住|读书|上学)|入职|报到"
    r"|去[^，,。]{1,12}(?:上班|工作|实习|上学|读书)"
)
# what is an appointment, kept on a date however loosely said: a trip for work, a meeting, an
# exam, a check-up, a wedding, someone met
_APPOINTED_ZH = re.compile(
    r"出差|开会|会议|conference|meeting|面试|考试|体检|复查|看病|手术|婚礼|约了|约好|见客户|拜访"
)
# loose words of a day to come: an appointment then has its day, though no date names it
_DAY_SOON_ZH = re.compile(r"^\s*(?:这个?)?周末|^\s*(?:今|明)(?:晚|早)")


def plan_ahead_zh(text: str) -> bool:
    """True if ``text`` opens with a time to come and goes on with what someone does, no
    subject named ("周六约了老同学去爬山", "月底去成都出差", "国庆回老家"); not when a subject
    follows the time ("下个月房租要涨", "明天孩子开学") or the doing is over ("周末搬家了")."""
    m = _AHEAD_OPENS_ZH.match(text)
    if m is None:
        return False
    doing = m.group("doing")
    if "了" in doing and not _ARRANGED_ZH.search(doing):
        return False  # "今天换了家店", "周末搬家了": done, no plan
    if _WORK_STARTS_ZH.search(doing):
        return False  # "下周开始在上海上班": where the user works from then, a change of work
    if _DOING_ZH.match(doing):
        return True
    tags = segment.tag(doing)
    return bool(tags) and tags[0][1] == "v"


# English: what the user is doing at a time to come, said without "I'm" ("working late
# tonight", "off to Lisbon in two weeks", "getting married next spring")
_SEASON_AHEAD_EN = (
    r"(?:this|next|the coming) (?:spring|summer|fall|autumn|winter)"
    r"|over (?:christmas|thanksgiving|easter|the holidays|new year'?s|the summer|the break)"
    r"|(?:at )?the end of (?:the|this|next) (?:month|year|summer)"
)
_SOON_EN = (
    # "this week", "this year" is now as much as to come ("teaching 3rd grade this year")
    _SEASON_AHEAD_EN + r"|this weekend|next (?:weekend|week|month|year)|tonight|tomorrow"
    r"|in (?:a few|a couple of|two|three|\d+) (?:days|weeks|months)"
    r"|on (?:mon|tues|wednes|thurs|fri|satur|sun)day"
)
_AHEAD_EN = re.compile(
    rf"^(?!(?:nothing|something|anything|everything|morning|evening|being|during)\b)"
    rf"(?:[a-z]{{3,}}ing|off to|headed to)\b.*\b(?:{_SOON_EN})\b",
    re.I,
)


# the time said first ("tonight cooking dinner for my in-laws", "next month: moving to Austin")
_TIME_FIRST_EN = re.compile(
    rf"^(?P<when>{_SOON_EN}|this (?:mon|tues|wednes|thurs|fri|satur|sun)day)\s*[,:-]?\s+"
    r"(?P<rest>(?:[a-z]{3,}ing|off to|headed to)\b.*)$",
    re.I,
)


def plan_ahead_en(text: str) -> bool:
    """True if ``text`` opens with a doing and names a time to come, no subject said
    ("working late tonight", "off to Lisbon in two weeks", "tonight cooking dinner for my
    in-laws"): the user's, as "I'm …" (``as_the_users_en``)."""
    text = text.strip()
    return bool(_AHEAD_EN.match(text) or _TIME_FIRST_EN.match(text)) and not _HABITUAL.search(text)


def as_the_users_en(text: str) -> str:
    """A doing to come said without a subject (``plan_ahead_en``), said as the user's: "I'm
    working late tonight"; a time said first goes after it ("I'm cooking dinner for my in-laws
    tonight")."""
    text = text.strip()
    if m := _TIME_FIRST_EN.match(text):
        return f"I'm {m['rest'].rstrip(' .!')} {m['when']}"
    return f"I'm {text}"


def season_plan_en(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """ "I'm getting married next spring", "visiting my parents over Christmas": a plan for a
    time no date names exactly (a season, a holiday, the end of a month); the value is the
    clause without its "I'm"."""
    value = m.group("v").strip()
    return [_fact(state, clause, "plan", value, _content(clause))]


# a day from which on a habit changes ("今天开始改喝茶", "从下周起每天跑步", "明天起不喝酒了")
_FROM_THEN_ON_ZH = re.compile(
    r"^从?[^，,]{1,6}?(?:开始|起)[，,\s]*(?:我)?(?:就|都)?(?:改|不再?|戒|每天|天天|每周|每晚|每早|早睡|只)"
)


def plan_ahead(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """What the user will do at a time to come (``plan_ahead_zh``): an ``event`` on a day
    ("周六约了老同学去爬山", "今晚加班") or an appointment at a looser time ("月底去成都出差"),
    else a ``plan`` ("下个月去日本玩", "国庆去云南玩");
    the value is the clause as said, the user's 我 left out. Nothing for a time gone by."""
    text = re.sub(r"^我\s*", "", clause.text)
    now = state.turn.occurred_at
    if not plan_ahead_zh(text) or (clause.date is not None and clause.date.end <= now):
        return None
    if _FROM_THEN_ON_ZH.match(text):
        return None  # "今天开始改喝茶", "下周起不加班了": what holds from then on, no event
    if semantic.moves_plan(state.turn.content):
        # "游泳改到周日下午了，周六要加班": a turn that moves a plan or a routine is read as a
        # move (``_moves``); what else it says of a day to come is why
        return None
    # on a day, an event; in a week, a month or a season, an appointment is an event ("下个月
    # 去成都出差") and anything else an intention, a plan ("下个月去 Bali 度假")
    day = (
        clause.date is not None and clause.date.granularity in ("minute", "part", "day")
    ) or bool(_DAY_SOON_ZH.match(text) or _APPOINTED_ZH.search(text))
    content = _content(clause, text) if clause.date is None else _content(clause)
    return [_fact(state, clause, "event" if day else "plan", text, content, dated=True)]


def event(key: str) -> Builder:
    """A dated happening (``event``) or an intention (``plan``); type event, ``valid_from`` the
    resolved date, ``valid_to`` the end of that period."""

    def build(m: re.Match[str], clause: _Clause, state: _State) -> Built:
        date = clause.date
        if key == "event":
            if date is None or date.granularity not in ("minute", "part", "day"):
                return None
            if clause.lang == "zh" and not _ZH_ACTION.search(clause.text):
                return None
            if semantic.reframed(key, clause.text) == "work":
                return None  # "I'm starting at Kaiser on Monday": a new job (``_semantic``)
            daily = (
                _DAILY_EN.match(clause.text)
                or (_SIMPLE_PRESENT_EN.match(clause.text) and date.granularity != "day")
            ) and not _ONE_DAY.search(clause.text)
            if (_HABITUAL.search(clause.text) or daily) and not _INTENT.search(clause.text):
                # "I'm in bed by 10:30 these days": a time kept every day is a routine
                habit = _norm(clause.text, "schedule.habit")
                if len(habit) >= 2:
                    said = clause.raw.strip().rstrip(".。!！")
                    return [_fact(state, clause, "schedule.habit", habit, said)]
        content = _content(clause)
        value = clause.text
        if date is not None:
            for start, end in sorted(date.spans, reverse=True):
                value = value[:start] + value[end:]
        value = re.sub(
            r"^(?:我们|我|I(?:'m| am| will|'ll| have|'ve got)?|we)\s*",
            "",
            value.strip(),
            flags=re.I,
        )
        value = re.sub(r"^(?:要|得|会|将)", "", value).strip(" ，,")
        if len(value) < 2 or (key == "event" and semantic.passing_state(value)):
            return None  # "Sorry, I'm a bit busy today": how the day goes, no appointment
        # a dated wish is an intention, not an appointment ("want to move to Japan in 2 years")
        kind = "plan" if key == "event" and _INTENT.match(value) else key
        return [_fact(state, clause, kind, value, content, dated=True)]

    return build


# What a behaviour rule is about: how the assistant answers, says, recommends, calls the user.
# "别担心" / "never give up" / "don't let it get you down" are encouragement, not rules.
_ZH_ASSIST_VERBS = (
    r"用|使用|提|提起|提到|说|讲|回复|回答|答|推荐|建议|写|发|叫|称呼|问|加|带|列|输出|总结|翻译|解释|"
    r"啰嗦|废话|长篇大论|超过|重复|打扰|透露|告诉|分享|给我|帮我|替我|主动|评论|安排|涉及|出现|"
    r"举例|比喻|表情|emoji"
)
_EN_ASSIST_VERBS = (
    r"answer|reply|respond|write|use|say|mention|recommend|suggest|call|talk|speak|tell|remind"
    r"|ask|bring up|send|include|show|explain|format|list|summari[sz]e|translate|add|refer"
    r"|address|interrupt|give me|offer|share|reveal|book|schedule|order|sign|start|end|apologi[sz]e"
    r"|repeat|quote|cite|emojis?|jargon|abbreviations?"
)

# Each entry: (family, language, pattern, builder[, after]). First match wins per clause.
# makers of phones and computers, named alone for the device ("换苹果了")
_DEVICE_MAKERS_ZH = frozenset(
    ("苹果", "华为", "小米", "红米", "安卓", "三星", "荣耀", "魅族", "一加", "联想", "戴尔", "鸿蒙",
     "索尼", "谷歌")
)  # fmt: skip


_S = (
    # "从今天开始改喝茶", "今天起我不吃肉了": what holds from now on
    r"^(?:从?(?:今天|今儿|现在|即日|这周|本周)(?:开始|起)[，,\s]*)?"
    r"(?:我|本人)?(?:现在|目前|如今|平时|其实|已经|最近|刚刚|刚|也|还|都|一直|真的|比较"
    r"|很|最|特别|非常|超|挺|就|确实|从来|几乎|基本上?|一般|向来)*"
)
# a thing said first, then the user and how firmly ("香菜我是真的", "恐怖片我一般", "香菜我一口都")
_FRONTED = (
    r"^(?:所以|因为|但是?|可是|不过|而且)?\s*"
    # up to eight characters, a Latin word counting as one ("horror movies 我是真的不敢看")
    # (a degree is no thing: "一点都吃不了" says how little, not what)
    r"(?P<v>(?![这那我你他她]|一点|一口|根本|完全|真的|实在)"
    r"(?:[\u4e00-\u9fff]|[A-Za-z][A-Za-z'-]*\s?){1,8}?)\s*"
    # the user, or no subject but a quantifier of the thing ("milk 都不能喝", "辣的一点都吃不了")
    r"(?:我(?:是)?|(?=(?:一口|一点|根本|完全)?[都也])|(?=还是|仍然|依然|照样))"
    # "羊肉还是不吃": what the user still does not eat
    r"(?:真的|一般|从来|基本上?|平时|完全|根本|一口都|一点都|都|也|就|向来|实在|是|还是|仍然|依然"
    r"|照样)*"
)
# a meal or a day is an occasion, not a food ("晚饭我不吃", "今天我不喝")
_OCCASION_ZH = re.compile(r"[早午晚]饭|[早午晚]餐|夜宵|今天|明天|昨天|今晚|这顿|平时")


def _no_modal(value: str) -> bool:
    """A modal is no allergen ("海鲜我一般不碰，会过敏": the food is in the clause before), nor
    is a person ("是我女儿过敏": it is the daughter who is allergic)."""
    return not re.fullmatch(r"(?:也|都|就|还)?(?:会|容易|可能会?)", value) and not re.match(
        r"(?:其实|只有|就)?是?(?:我|你|他|她)", value
    )


def _not_occasion(value: str) -> bool:
    return not _OCCASION_ZH.search(value)


# who may stand before 都 in place of a thing ("大家都不吃", "孩子们都不能喝")
_PEOPLE_ZH = re.compile(r"们|大家|别人|人家|家人|同事|朋友|孩子|老人|有人|谁|什么")


def _a_thing_zh(value: str) -> bool:
    """A thing avoided, said before the verb: no occasion ("晚饭我不吃") and no people."""
    return _not_occasion(value) and not _PEOPLE_ZH.search(value)


def _avoided_first(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """``diet.avoid`` of a thing said before the refusal ("香菜我不吃", "辣的我一点都吃不了了")."""
    verb = m["verb"] or m["can"]
    return simple("diet.avoid", verb + "{v}", check=_a_thing_zh)(m, clause, state)


_I = (
    # a comment word may open it ("weirdly I've gotten into running", "honestly, I love it")
    r"^(?:(?!only\b)[a-z]+ly,?\s+)?I\b\s*(?:(?:really|just|also|absolutely|totally|truly|still"
    r"|now|currently|usually"
    r"|generally|mostly|normally|actually|definitely)\s+)*"
)
# an offer the user took ("just signed the offer from …", "I've accepted Stripe's offer"), and
# what may follow its employer's name: when, and nothing else
_OFFER_TAKEN_EN = r"^(?:I(?:'ve| have)? )?(?:just |finally |officially )?(?:signed|accepted|took) "
_OFFER_WHEN_EN = r"(?:,? (?:yesterday|today|last \w+|this \w+|start(?:ing)? \w+))?[!.]*$"


_MOBILE_CN = r"(?<![\d-])(?P<v>1[3-9]\d(?:\d{8}|([\s-])\d{4}\2\d{4}))(?![\d-])"
_NANP = rf"(?<![\d-])(?P<v>(?:\+?1[\s.-]?)?{NANP_PHONE})(?![\d-])"
# a number of that shape that is no phone of the user's: a parcel's or an order's, an amount,
# a service line, a relative's or someone else's
_NOT_OWN_NUMBER = re.compile(
    r"单号|订单|快递|运单|物流|转账|汇款|[元块]|客服|热线|\b(?:tracking|order|parcel|invoice"
    r"|reference|ref|account|transfer)\b|\b(?:my\s+)?(?:wife|husband|mom|mum|dad|son|daughter"
    r"|sister|brother|boss|colleague|friend|partner)'?s?\b|老婆|老公|妈|爸|儿子|女儿|姐|哥|弟|妹"
    r"|同事|老板|朋友|对象|[他她](?:自己)?的|\b(?:his|her|their)\b",
    re.I,
)


def _own_mobile(m: re.Match[str], clause: _Clause, state: _State) -> Built:
    """A mainland mobile number with no label: the user's, unless the clause says whose or
    what else it is (``_NOT_OWN_NUMBER``; after how others reach the user, when it says so)."""
    reached = _REACHED_BY.search(clause.text)  # "同事要找我直接打这个 138…": said from there on
    if _NOT_OWN_NUMBER.search(clause.text[reached.start() :] if reached else clause.text):
        return None
    return contact("contact.phone")(m, clause, state)


_R: list[tuple[str, Lang, str, Builder] | tuple[str, Lang, str, Builder, str]] = [
    # "现在居然觉得香菜还挺香的": a thing found good now, a taste of the user's
    (
        "likes",
        "zh",
        r"^(?:我)?(?:现在|如今|最近|后来)?(?:居然|竟然|反而|倒是|开始)?(?:觉得|发现)"
        r"(?P<v>[\u4e00-\u9fff]{1,6}?)(?:其实|也|还|倒)?(?:挺|蛮|很|超|特别|真|还挺|还蛮)"
        r"(?:香|好吃|好喝|好听|好看)的?[了啊呀哈嘛]*$",
        simple("preference.likes", "觉得{v}好", correction=True, check=semantic.is_taste),
    ),
    # contacts and secrets first: they can sit inside any clause
    (
        "secret",
        "zh",
        r"(?P<label>身份证号?码?|护照号?码?)(?:是|为|[:：])?\s*(?P<v>[0-9A-Za-z]{6,})",
        contact("identity.document", "secret"),
    ),
    (
        "secret",
        "zh",
        r"(?P<label>银行卡号?码?|信用卡号?码?|卡号)(?:是|为|[:：])?\s*(?P<v>[\d\s-]{8,}\d)",
        contact("finance.card", "secret"),
    ),
    (
        "secret",
        "zh",
        # the account it opens stays in the label: "银行卡密码", "wifi密码"; the value is
        # what detection seals after it
        r"(?:我的|我)?(?P<label>[\u4e00-\u9fffA-Za-z]{0,4}?密码)",
        contact("account.password", "secret"),
    ),
    (
        "secret",
        "en",
        r"(?P<label>(?:ssn|social security number|passport(?: number)?|id number"
        r"|driver'?s licen[cs]e(?: number)?|licen[cs]e number))"
        # what it is for may come between: "passport number for the visa form: K48291735"
        r"(?:\s+(?:for|on|of|in)\s+[^\d:.,;!?]{1,30}?)?\s*(?:is|:)?\s*"
        r"(?P<v>(?=[A-Za-z-]*\d)[0-9A-Za-z-]{6,})",
        contact("identity.document", "secret"),
    ),
    (
        "secret",
        "en",
        # "card number 4111 1111 1111 1111 exp 09/27": the verb may go unsaid after "number"
        r"(?P<label>(?:credit |debit |bank )?card(?: number)?)\s*(?:is|:|(?<=number))\s*"
        r"(?P<v>[\d\s-]{8,}\d)",
        contact("finance.card", "secret"),
    ),
    (
        "secret",
        "en",
        # "my wifi password is …" → "wifi password is ******": the account stays in the label
        # the keywords are detection's ("pin", "pw", "passphrase", "seed phrase", the "p:" of
        # "u: anna p: hunter2"): what it seals as a password is stated as one
        r"(?P<label>(?:\b(?!(?:my|the|your|our|a|new|old)\b)[a-z]+ )?(?<![a-z])(?:password"
        r"|passcode|passphrase|passwd|pwd|pw|pin(?: code| number)?|log-?in"
        r"|(?:seed|recovery) (?:phrase|words)|mnemonic|pass(?=\s*[:=])|p(?=\s*[:=]))\b)",
        contact("account.password", "secret"),
    ),
    (
        "contact",
        "zh",
        r"(?P<v>[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)",
        contact("contact.email"),
    ),
    (
        "contact",
        "en",
        r"(?P<v>[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)",
        contact("contact.email"),
    ),
    (
        "contact",
        "zh",
        r"(?:电话|手机|号码|手机号|联系方式)\D{0,8}?(?P<v>\+?\d[\d\s-]{5,}\d)",
        contact("contact.phone"),
    ),
    # a mainland mobile number needs no label ("我微信就是手机号，15921886543"), written whole or
    # in groups of 3-4-4 ("139 8012 6677", "139-8012-6677")
    ("contact", "zh", _MOBILE_CN, _own_mobile),
    ("contact", "en", _MOBILE_CN, _own_mobile),
    # a North American number needs no label either: "use 628-555-0199 instead"
    ("contact", "en", _NANP, _own_mobile),
    (
        "contact",
        "en",
        # the number, or the way to be reached by it ("call me on …", "whatsapp me at …")
        r"(?:phone|mobile|cell|number|tel"
        r"|(?:call|ring|text|reach|contact|message|whatsapp|ping)\s+me\s+(?:on|at|via)\b"
        # the right one after a wrong one: "I gave you the wrong number, mine is …"
        r"|\b(?:mine|the (?:right|correct|real) one)(?:'s|\s+is)\b)"
        r"\D{0,20}?(?P<v>\+?\(?\d[\d\s().-]{5,}\d)",
        contact("contact.phone"),
    ),
    # numbers and dates about the user
    (
        "budget",
        "zh",
        _BUDGET_WORD + r"(?P<q>[^\d零一二两三四五六七八九十]{0,6}?)"
        r"(?P<v>\d+(?:\.\d+)?\s*(?:万|千|百|亿|k|K|w|W)?"
        r"(?:元|块钱?|人民币|美元|美金|刀)?|[一二两三四五六七八九十百千]+(?:万|千|亿)(?:元|块钱?|人民币|美元|美金)?)",
        budget,
    ),
    (
        "budget",
        "en",
        r"budget\b(?P<q>[^$€£¥\d]{0,30}?)(?P<v>[$€£¥]?\s?\d[\d,]*(?:\.\d+)?\s?(?:k|m|thousand|million|dollars|usd|euros?|rmb|yuan)?\b)",
        budget,
    ),
    # a birth word and a calendar day ("我是1995年7月8号出生的", "bday's oct 12", "Born on
    # 14 July 1988"): birthday() keeps only a clause whose words give a month and a day
    ("birthday", "zh", r"(?:生日|出生日期)(?:是|在|为)?(?P<v>.+)$", birthday),
    # a birth year alone ("我是九五年的", "我95年的", "我是1990年出生的"): the year, in four digits
    (
        "birthday",
        "zh",
        r"^(?:我|本人)?(?:是)?" + _YEAR + r"年(?:出生|生)?的?$",
        birth_year,
    ),
    ("birthday", "zh", r"^(?:我|本人)?是?(?P<v>[^，,]{3,20}?)(?:出生|生)的?$", birthday),
    # the day first, then the birth word ("我是12月24号生日", "我农历三月初八生日")
    (
        "birthday",
        "zh",
        r"^(?:我|本人)?(?:是|在)?(?P<v>(?:农历|阴历)?[\d一二三四五六七八九十正腊冬][^，,]{2,10}?)的?"
        r"(?:过)?生日",
        birthday,
    ),
    (
        "birthday",
        "en",
        r"(?:\bbirth ?day|\bb-?day)(?:\s+is|'s)\s+(?:on\s+)?(?P<v>.+)$",
        birthday,
    ),
    ("birthday", "en", r"^(?:I was |I'm |me,? )?born (?:on )?(?P<v>.+)$", birthday),
    # "我今年 32 岁": a space beside the number is typography
    (
        "age",
        "zh",
        r"^我?(?:今年|已经|快|其实|实际上)*(?:是)?\s*(?P<v>[\d零一二两三四五六七八九十廿卅]{1,3})\s*(?:周)?岁",
        age,
    ),
    # "我今年二十八了", "我今年其实是32", "今年刚好三十啦": a number after 今年 and nothing but
    # 了 is an age
    (
        "age",
        "zh",
        r"^我?(?:今年|已经)+(?:其实|实际上)?(?:是)?(?:都|快|刚好|正好|刚|才|也)?\s*"
        r"(?P<v>[\d零一二两三四五六七八九十]{1,3})\s*(?:了|啦|喽|咯)?$",
        age,
    ),
    # "上个月过完生日已经29了", "过完生日就30了": the age a birthday brought
    (
        "age",
        "zh",
        r"(?:过完|过了)(?:生日|年)[，,]?\s*(?:我)?(?:已经|就|都|刚好|正好)?\s*"
        r"(?P<v>[1-9]\d|[二三四五六七八九]十[一二三四五六七八九]?)\s*(?:岁)?(?:了|啦|咯)?$",
        # ("女儿上周过生日了。过完生日已经15了": the daughter's)
        lambda m, c, s: None if semantic.family_subject(s.turn.content) else age(m, c, s),
    ),
    # "说错了，我29了": a number of years and nothing else
    ("age", "zh", r"^我(?:都|快)?\s*(?P<v>[1-9]\d)\s*了?$", age),
    (
        "age",
        "en",
        r"^I(?:'m| am) (?:(?:now|just|already|turning) )?(?P<v>\d{1,3}|(?:twenty|thirty|forty|fifty"
        r"|sixty|seventy|eighty|ninety)(?:[ -](?:one|two|three|four|five|six|seven|eight|nine))?"
        r"|eighteen|nineteen)(?: years? old| yo)?$",
        age,
    ),
    # "36f here", "im 41 m", "I just turned 29": the forum shorthand and a birthday passed
    (
        "age",
        "en",
        r"^(?:I(?:'m| am) |im )?(?P<v>\d{2})\s?(?P<sex>[mf]|yo|y/o)\b(?!\S)",
        _age_sex,
    ),
    (
        # "I turned forty last week", "just had my 30th birthday!"
        "age",
        "en",
        r"^(?:I )?(?:just |recently |finally )?(?:turned (?P<v>\d{1,3}|(?:twenty|thirty|forty"
        r"|fifty|sixty|seventy|eighty|ninety)(?:[ -](?:one|two|three|four|five|six|seven|eight"
        r"|nine))?|eighteen|nineteen)\b|(?:had|celebrated) my (?P<n>\d{1,3})(?:st|nd|rd|th)"
        r" birthday\b)",
        lambda m, c, s: _age_of(m["v"] or m["n"], c, s),
    ),
    # identity
    # a name in another language ("我的中文名叫林薇", "my Chinese name is Lin Wei"): beside the
    # name, not in its place
    (
        "name",
        "zh",
        r"^(?:我的?)?(?P<lang>中文|英文|英语|日文|韩文)名(?:字)?(?:是|叫做?)\s*(?P<v>[^\s，,]{1,10}"
        r"|[A-Z][a-z'-]+(?: [A-Z][a-z'-]+){0,2})\s*[。！!.]*$",
        simple("name.alias", "{lang}名字叫{v}"),
    ),
    (
        "name",
        "en",
        r"^my (?P<lang>chinese|english|japanese|korean|spanish|hebrew|arabic|hindi) name(?:'s| is)"
        r" (?P<v>[^\s,.!]{1,10}|[A-Z][a-z'-]+(?: [A-Z][a-z'-]+){0,2})\s*[.!]*$",
        simple("name.alias", "{lang} name is {v}"),
    ),
    (
        "name",
        "zh",
        # a name in Latin letters may hold spaces ("我叫 Kevin Zhang")
        r"^(?:我|本人)(?:的名字|的全名)?(?:现在|已经|改)*(?:叫做?|名叫)\s*(?P<v>[^\s，,]{1,10}"
        r"|[A-Z][a-z'-]+(?: [A-Z][a-z'-]+){1,2})\s*$",
        simple(
            "name.full",
            "名字叫{v}",
            check=lambda v: len(v) <= 4 or segment.is_person_name(v) or _is_latin(v),
        ),
    ),
    # "我是李雷": a full name said alone after 是 (not "我是宝妈", "我是李医生")
    (
        "name",
        "zh",
        r"^(?:我|本人)(?:就)?是\s*(?P<v>[\u4e00-\u9fff]{2,4})[啊呀哈哦啦]?\s*[。！!.]*$",
        simple("name.full", "名字叫{v}", check=segment.is_full_name),
    ),
    # "我姓刘，叫刘思远": a clause of the user's sentence that names a person
    (
        "name",
        "zh",
        r"^(?:就|全名)?(?:叫做?|名叫)\s*(?P<v>[^\s，,]{2,4})\s*$",
        simple("name.full", "名字叫{v}", check=segment.is_tagged_name),
    ),
    # a name changed ("我已经改名了，现在身份证上是刘思远", "改名叫刘思远了"): the name now
    (
        "name",
        "zh",
        r"^(?:我)?(?:已经)?(?:改名|更名)(?:了|字了)?[，,\s]*(?:现在|以后|新名字)?(?:身份证上)?"
        r"(?:叫做?|是)\s*(?P<v>[\u4e00-\u9fff]{2,4}|[A-Z][a-z'-]+(?: [A-Z][a-z'-]+){0,2})"
        r"\s*[了啊呀]*$",
        simple("name.full", "改名叫{v}", correction=True),
    ),
    # a family name alone ("我姓欧阳", "my last name is Nguyen"): not the whole name
    (
        "name",
        "zh",
        r"^(?:我|本人)(?:也|就|其实|已经)?(?:的姓(?:氏)?是|改姓|姓是?)\s*"
        r"(?P<v>(?![啥错谁])[\u4e00-\u9fff]{1,2}?)了?[啊呀哈哦呢的]?\s*[。！!.]*$",
        simple("name.family", "姓{v}", check=lambda v: not re.search(r"[啥错谁什么哪]", v)),
    ),
    (
        "name",
        "en",
        r"^(?:and\s+|oh\s+and\s+)?my (?:sur|last |family )name(?:'s| is) "
        r"(?P<v>(?:(?:(?-i:[A-Z])[\w'-]*|van|von|der|den|de|la|le|du|da|di|del) ){0,2}"
        r"(?-i:[A-Z])[\w'-]+)(?:\s+(?:actually|btw|by the way|now|though))?\s*[.!]*$",
        simple(
            "name.family",
            "family name is {v}",
            check=lambda v: not set(v.lower().split()) & _NATIONALITIES,
        ),
    ),
    (
        "name",
        "zh",
        r"^(?:我的?)?(?:名字|全名|姓名)(?:是|叫)\s*(?P<v>[^\s，,]{1,10}"
        r"|[A-Z][a-z'-]+(?: [A-Z][a-z'-]+){1,2})\s*$",
        simple("name.full", "名字叫{v}"),
    ),
    (
        "name",
        "zh",
        # from a time on: "以后", "从现在开始", "今后", "还是" (a name changed)
        r"^(?:以后|今后|往后|从现在(?:起|开始)?|从今天(?:起|开始)|还是|那)?(?:你们?)?(?:就|可以|都|改)*"
        r"(?:叫|喊|称呼)我\s*(?P<v>[^\s，,]{1,8}?)\s*(?:就行|就好|就可以|吧|好了)?$",
        simple("name.nickname", "希望被称为{v}"),
    ),
    (
        "name",
        "en",
        r"^my (?:full )?name is (?P<v>[A-Za-z][\w'-]*(?: [A-Z][\w'-]*)*)",
        simple("name.full", "name is {v}"),
    ),
    # "I'm Aisha.", "Hi, I'm Tom": a capitalised name and nothing after it, not a nationality
    # or a faith ("I'm Canadian", "I'm Catholic")
    (
        "name",
        "en",
        r"^I(?:'m| am) (?P<v>[A-Z][a-z'-]+(?: [A-Z][a-z'-]+)?)$",
        simple(
            "name.full",
            "name is {v}",
            check=lambda v: all(w[:1].isupper() for w in v.split()) and not _NOT_NAME_EN.match(v),
        ),
    ),
    # "hi im jon": a greeting, then a name typed in lower case (not "hey im back", "hi im new")
    (
        "name",
        "en",
        r"^(?:(?:hi|hello|hiya|heya|yo|howdy)\b[\s,!.~]*(?:there[\s,!.~]*)?)?"
        r"I(?:'m| am) (?P<v>[a-z][a-z'-]{1,14})$",
        lambda m, c, s: (
            simple("name.full", "name is {v}", check=_greeted_name)(m, c, s)
            if _GREETED.match(c.raw) or _greeted_with(s.turn.content, m["v"])
            else None
        ),
    ),
    (
        "name",
        "en",
        r"^(?:(?:please|from now on|you can|just)\s+)*call me (?P<v>[A-Za-z][\w'-]*)",
        # "call me when you're free", "call me back": a phone call, not a name
        simple(
            "name.nickname",
            "likes to be called {v}",
            check=lambda v: (
                not re.fullmatch(
                    r"when|if|back|later|tomorrow|today|tonight|now|asap|at|on|anytime|sometime|after"
                    r"|before|whenever|once|maybe|again|up|in|sometimes|please"
                    # "call me whatever", "call me crazy": no name
                    r"|whatever|anything|something|that|this|it|crazy|old-fashioned",
                    v,
                    re.I,
                )
            ),
        ),
    ),
    # the name the user would rather be called by ("I'd rather you use Rebecca", "I'd prefer
    # you call me Rob"): a name, capitalised ("I'd rather you use metric" names none)
    (
        "name",
        "en",
        r"^(?:actually,?\s+)?(?:i'?d|i would) (?:much )?(?:rather|prefer(?: it if)?) you"
        r" (?:use|used|call me|called me|go with|went with) (?P<v>(?-i:[A-Z][a-z][\w'-]*))\b"
        r"(?!\s+(?-i:[A-Z]))",
        simple("name.nickname", "likes to be called {v}"),
    ),
    (
        "name",
        "en",
        # "my nickname is Kiki", "my friends call me Tommy", "people call me Jojo"
        # "everyone at church calls me Peggy", "my family calls me Peggy"
        r"^(?:(?:literally|basically|pretty much|mostly|but|except) )?"
        r"(?:my (?:nick ?name|pet name)(?: is|'s)|(?:my (?:friends|family|mates|buddies|coworkers"
        r"|colleagues|team|parents|kids|mom|mum|mother|dad|father|sister|brother|wife|husband"
        r"|partner|grandma|grandpa|boyfriend|girlfriend)"
        r"|(?:most |all my )?(?:friends|people|folks|everyone|everybody))"
        r"(?: (?:at|in|from|on) (?:the |my |our )?\w+)?"
        r" (?:all |usually |just |literally )?calls? me) (?P<v>[A-Z][\w'-]*)",
        # ("calls me by my last name", "calls me the boss": no name)
        simple("name.nickname", "goes by {v}", check=_a_name_said),
    ),
    (
        "name",
        "en",
        # "I'm going by Jo now", "I go by Sam these days": the name the user answers to now
        r"^(?:(?:actually|btw|so|and|but|also|oh)\W+)*(?:i'?m going|i go|i now go) by"
        r" (?P<v>(?-i:[A-Z])[\w'-]*)(?=\s*(?:$|[,.;!]|\s(?:now|these days|from now on|at work)\b))",
        simple("name.nickname", "goes by {v}", check=_a_name_said),
    ),
    (
        "name",
        "zh",
        # "我的小名叫豆豆", "朋友都叫我阿杰", "大家都叫我小鱼"
        r"^(?:我的)?(?:小名|昵称|外号|绰号)(?:是|叫|(?:也|已经)?[改换](?:成|叫|为)了?)"
        r"\s*(?P<v>[^\s，,]{1,8}?)\s*$",
        simple("name.nickname", "小名叫{v}"),
    ),
    (
        "name",
        "zh",
        r"^(?:现在|如今|最近)?(?:我)?(?:朋友|家里人|家人|大家|同事)(?:们)?(?:现在)?(?:都|一般|平时)*叫我"
        r"\s*(?P<v>[^\s，,]{1,8}?)\s*$",
        # "同事叫我去吃饭", "朋友叫我明天去爬山": asked to do something, no name
        simple("name.nickname", "大家叫我{v}", check=_name_not_doing),
    ),
    (
        "gender",
        "zh",
        r"^我是(?:一个|个|一名)?(?P<v>男生|女生|男的|女的|男人|女人|男性|女性|男孩|女孩)$",
        lambda m, c, s: [_fact(s, c, "identity.gender", _GENDER[m["v"].lower()], _content(c))],
    ),
    (
        "gender",
        "en",
        r"^I(?:'m| am) (?:an? )?(?P<v>man|woman|guy|girl|male|female|boy|non-binary)$",
        lambda m, c, s: [_fact(s, c, "identity.gender", _GENDER[m["v"].lower()], _content(c))],
    ),
    # places
    (
        "hometown",
        "zh",
        r"^(?:我的?)?(?:老家|家乡|籍贯)(?:是|在)?(?P<v>.+?)的?$",
        place("hometown", "家乡是{v}"),
    ),
    (
        "hometown",
        "zh",
        r"^我?(?:是|来自|出生在|出生于|生在|生于)(?P<v>.+?)(?:人|的)$",
        place("hometown", "家乡是{v}"),
    ),
    (
        "hometown",
        "zh",
        r"^我?(?:来自|出生在|出生于|生在|生于)(?P<v>.+?)$",
        place("hometown", "家乡是{v}"),
    ),
    (
        "hometown",
        "en",
        r"^(?:I(?:'m| am) (?:originally )?from|I come from|I grew up in|I was born in"
        r"|my hometown is)\s+(?P<v>.+)$",
        place("hometown", "is from {v}"),
    ),
    (
        "move",
        "zh",
        r"^我?(?:(?!决定|打算|准备|计划|想|要|考虑|犹豫|可能|也许|或许).){0,6}?(?:搬到|搬去|搬回|搬家到|搬来|迁到)了?"
        r"(?P<v>.+?)(?:去|来)?(?:住|生活)?了?$",
        place("residence.city", "现在住在{v}", correction=True, dated=True),
    ),
    (
        "move",
        "en",
        r"^I(?:'ve| have)? (?:just |recently |finally )?(?:moved"
        r"|relocated) (?:back )?to (?P<v>.+)$",
        place("residence.city", "now lives in {v}", correction=True, dated=True),
    ),
    (
        # "update: we moved from Leeds to Manchester last weekend": the household's move, from
        # where to a place's name, then only when ("right after the reunion" is left to the
        # classifier's reading)
        "move",
        "en",
        r"^(?:I|we)(?:'ve| have)? (?:just |recently |finally |officially )?(?:moved|relocated)"
        r"(?: (?:all the way |back )?from (?-i:[A-Z])[\w.' -]{0,30}?)? (?:back )?to "
        r"(?P<v>(?-i:[A-Z])[\w.'-]*(?: (?-i:[A-Z])[\w.'-]*)*)"
        r"(?: (?:last \w+|this \w+|(?:a|two|three|a few) (?:days|weeks|months) ago|recently"
        r"|yesterday|today|now|in \w+))?[!.]*$",
        place("residence.city", "now lives in {v}", correction=True, dated=True),
    ),
    (
        # "we packed up and went to Portland last month", "packed up and left for Austin": a
        # household packed up and gone somewhere has moved there
        "move",
        "en",
        r"^(?:(?:I|we) )?(?:(?:just|finally|recently|officially) )?packed (?:up|everything up"
        r"|our (?:bags|stuff|things|lives) up|up (?:everything|our lives|the house))"
        r"(?: and| then)? (?:went|headed|moved|left|drove|flew|came) (?:back )?(?:to|for|out to"
        r"|down to|up to|over to) "
        r"(?P<v>(?-i:[A-Z])[\w.'-]*(?: (?-i:[A-Z])[\w.'-]*)*)"
        r"(?: (?:last \w+|this \w+|(?:a|two|three|a few) (?:days|weeks|months) ago|recently"
        r"|yesterday|in \w+))?[!.]*$",
        place("residence.city", "now lives in {v}", correction=True, dated=True),
    ),
    (
        # "we've been renting a place up in Milwaukee", "just bought a house in Tacoma": a home
        # taken somewhere is where the user lives now
        "move",
        "en",
        r"^(?:I|we)(?:'ve| have|'re| are)? (?:(?:just|recently|finally|now) )?(?:been )?"
        r"(?:renting|rented|bought|got|leased|moved into|closed on)(?: ourselves| myself)? "
        r"(?:a |an |our |my |the )?(?:(?:new|little|small|tiny|nice|cheap|bigger|first) )*"
        r"(?:place|house|home|flat|apartment|condo|studio)(?: (?:up|down|over|out))? in "
        # the place's name, then only when ("last spring", "since June") or that the user
        # moved in; a purpose, a time taken for or a year of long ago is no home of now
        r"(?P<v>(?-i:[A-Z])[\w.'-]*(?: (?-i:[A-Z])[\w.'-]*)*)"
        r"(?: (?:last \w+|since .+|(?:a|two|three|a few) (?:days|weeks|months) ago"
        r"|recently|yesterday|today|now|and (?:we )?moved in(?: \w+ \w+)?"
        r"|for (?:a year|(?:two|three|four|five|a few|many|\d+) (?:years|months))))?[!.]*$",
        place("residence.city", "now lives in {v}", correction=True, dated=True),
    ),
    (
        "residence",
        "zh",
        # who the user lives with may stand before the verb ("我和老婆孩子住在杭州")
        r"^我?(?:现在|目前|一直)?(?:(?:跟|和|同|与)[^，,。！!住在]{1,8}?(?:一起|一块儿?)?|一个人)?"
        r"(?:住在|住|定居在|定居于?|生活在|常住)(?P<v>.+)$",
        place("residence.city", "住在{v}"),
    ),
    (
        "residence",
        "zh",
        # "在New York住了五年了": how long is no part of where
        r"^我?(?:现在|目前|一直)?在(?P<v>.+?)(?:住|生活|定居)(?:了[^过]*)?$",
        place("residence.city", "住在{v}"),
    ),
    (
        "residence",
        "zh",
        # "我在杭州", "我人在苏州呢": where the user is, said with nothing after the place. The
        # family classifier read a bare "我在<city>" as residence for 12 of 20 cities and as
        # work, hometown or nothing for the others; what follows a place ("我在北京出差")
        # keeps its own reading
        r"^我?(?:现在|目前)?人?(?:现在|目前)?在(?P<v>[^\s，,。！!？?、；;]{2,12}?)[呢啊呀哦哈了啦]?$",
        lambda m, c, s: (
            place("residence.city", "在{v}")(m, c, s) if segment.is_place(m.group("v")) else None
        ),
    ),
    (
        "residence",
        "en",
        r"^I (?:currently |now |still )?(?:live|reside|am living|'m living|am based"
        rf"|'m based){_WITH_WHOM} in (?P<v>.+)$",
        place("residence.city", "lives in {v}"),
    ),
    (
        "residence",
        "en",
        rf"^I(?:'m| am) (?:currently |now )?(?:living|based){_WITH_WHOM} in (?P<v>.+)$",
        place("residence.city", "lives in {v}"),
    ),
    (
        # "My flat's in Leeds", "our apartment is in Brooklyn": where the user's home is, by
        # the home (a named place; "my place is in a mess" names none)
        "residence",
        "en",
        r"^(?:my|our) (?:(?:new|little|tiny|small|current) )?(?:flat|apartment|apt|house|home"
        r"|condo|studio|place)(?:'s| is) (?:(?:now|currently|still) )?in "
        r"(?P<v>(?-i:[A-Z])[\w.'-]*(?: (?-i:[A-Z])[\w.'-]*)*)(?: now)?[!.]*$",
        place("residence.city", "lives in {v}"),
    ),
    (
        # "home is Denver for me", "home these days is Lisbon": where home is, by the word
        # home ("back home in Ohio" is where the user is from, and no clause of its own)
        "residence",
        "en",
        rf"^{HOME_IS}(?P<v>{PLACE_NAME}){HOME_TAIL}[!.]*$",
        _own_home(place("residence.city", "lives in {v}")),
    ),
    (
        # "Chicago is home now", "Austin's been home for about 4 years", "Berlin has been home
        # since 2019": a place said to be home
        "residence",
        "en",
        rf"^(?P<v>{PLACE_NAME}){IS_HOME}{HOME_TAIL}[!.]*$",
        _own_home(place("residence.city", "lives in {v}")),
    ),
    (
        "residence",
        "en",
        r"^I (?:now )?call (?P<v>(?-i:[A-Z])[\w.'-]*(?: (?-i:[A-Z])[\w.'-]*)*) home"
        r"(?: (?:now|these days))?[!.]*$",
        _own_home(place("residence.city", "lives in {v}")),
    ),
    # work and study
    (
        "job",
        "zh",
        # "最近转 PM 了", "转行做 product designer 了", "我转去做运营了": a job after a verb of
        # turning (a tool after it is no job: "全面转 Swift 了")
        r"^我?(?:现在|最近|已经|刚刚?|也|又|正式|后来)*转(?:岗|行)?(?:去做|去当|做|成|为|到)?了?\s*"
        r"(?P<role>[A-Za-z][A-Za-z /-]{1,30}?|[\u4e00-\u9fff]{1,6}?)\s*了?$",
        _role_turned_to,
    ),
    (
        "quit",
        "zh",
        r"^我?(?:已经|刚刚?|最近|上个月|去年)*从(?P<v>.+?)(?:离职|辞职|退出|出来|走)了?$",
        retract("work.employer"),
    ),
    (
        "quit",
        "zh",
        r"^我?(?:已经|刚刚?|最近)*(?:离开了?|辞掉了?)(?P<v>.+?)(?:的工作)?了?$",
        retract("work.employer"),
    ),
    (
        "quit",
        "en",
        r"^I(?:'ve| have)? (?:just |recently )?(?:quit|left|resigned from|was laid off from"
        r"|got laid off from|no longer work (?:at|for)|don't work (?:at"
        r"|for)) (?P<v>.+?)(?: anymore| any more)?$",
        retract("work.employer"),
    ),
    (
        "job",
        "zh",
        r"从(?P<old>.+?)跳(?:槽)?[到去]了?(?P<org>.+?)(?:(?:做|当|担任)(?P<role>.+))?$",
        work(correction=True),
    ),
    (
        "school",
        "zh",
        r"^我?(?:[0-9零〇一二三四五六七八九]{2,4}年)?(?:是)?(?:毕业于|毕业自)(?P<v>.+)$",
        simple("education.school", "毕业于{v}"),
    ),
    (
        "school",
        "zh",
        r"^我?(?:在|是)?(?P<v>(?!我?[不没])[^在]{2,12}?(?:大学|学院|中学|高中|小学|学校|北大|清华)|[\u4e00-\u9fff]{1,2}大)(?:读书|上学|读研|读博|念书|读大学|读本科|读硕士|读博士|毕业|的学生|毕业的|的)$",
        simple("education.school"),
    ),
    (
        "school",
        "en",
        r"^I (?:graduated from|studied at|study at|am studying at|'m studying at) (?P<v>[A-Z].*)$",
        simple("education.school", "studied at {v}"),
    ),
    (
        "school",
        "en",
        r"^I (?:go to|attend|attended|went to) (?P<v>.*?(?:university|college|school|institute"
        r"|academy|polytechnic)\b.*)$",
        simple("education.school", "studied at {v}"),
    ),
    (
        "job",
        "zh",
        r"^我?(?:现在|目前|如今|还)*(?:入职|加入)了?(?P<org>[^，,做当]+?)(?:(?:做|当|担任)(?P<role>.+))?$",
        work(correction=True),
    ),
    (
        "job",
        "zh",
        r"^(?:我)?(?:现在|目前|如今|还|一直|是)*在(?P<org>[^，。在]+?)(?:做|当|担任|任职|工作|上班|实习|打工|干)(?P<role>.*?)(?:的)?$",
        work(),
    ),
    ("job", "zh", rf"^我?(?:现在|目前)*是(?P<org>[^的]+?)的(?P<role>.*?{_JOB_ZH})$", work()),
    # "我是 Bytedance 的 PM", "我是腾讯的 data engineer": a title said in English
    (
        "job",
        "zh",
        r"^我?(?:现在|目前)*是\s*(?P<org>[^的]+?)\s*的\s*(?P<role>[A-Za-z][A-Za-z .&/-]{1,30}?)$",
        lambda m, c, s: (
            work()(m, c, s)
            if _JOB_EN.search(m.group("role").strip()) and not _NOT_JOB_EN.search(m.group("role"))
            else None
        ),
    ),
    (
        "job",
        "zh",
        rf"^我?(?:现在|目前|如今|已经)*(?:是|当|做)了?(?:一[名个位])?(?P<role>[^，,的]{{0,8}}?{_JOB_ZH})了?$",
        work(),
    ),
    # a job title said in English inside Chinese ("我是一名data engineer", "我是freelancer")
    (
        "job",
        "zh",
        r"^我?(?:现在|目前|如今|已经)*(?:是|当|做)了?(?:一[名个位]|个)?\s*"
        r"(?P<role>[A-Za-z][A-Za-z .-]{1,30}?)了?$",
        lambda m, c, s: (
            work()(m, c, s)
            if _JOB_EN.search(m.group("role").strip()) and not _NOT_JOB_EN.search(m.group("role"))
            else None
        ),
    ),
    ("job", "zh", r"^我?(?:的)?(?:工作|职业)是(?P<role>.+)$", work()),
    # right after leaving a job ("我从阿里离职了，现在在字节"): where the user is now employs them
    (
        "job",
        "zh",
        r"^我?(?:现在|目前|如今)(?:在|去了|到了)(?P<org>[^，,。在的]{2,10}?)(?:了|啦)?$",
        work(correction=True),
        "quit",
    ),
    # a workplace said as where the user is now, or jumped to, by a name jieba does not know as
    # a common word or a place ("我现在在米哈游了", "已经换到快手了", "跳去蔚来了"); "现在在机场了",
    # "现在在开会了" are a spot and a doing
    (
        "job",
        "zh",
        r"^(?:我|也|都|已经|刚刚?|最近|上个?月|去年)*(?:(?:现在|目前|如今)在|跳槽?(?:到|去)了?|换到了?)"
        r"(?P<org>[^，,。在的]{2,8}?)(?:了|啦)$",
        lambda m, c, s: (
            work(correction=True)(m, c, s) if segment.slot_name(m.group("org")) else None
        ),
    ),
    # "我现在在一所小学教数学": a subject taught at a school names the teacher; a school said
    # with "一所" ("杭州一所中学") names no employer
    (
        "job",
        "zh",
        r"^我?(?:现在|目前|如今|还|一直|今年)*在(?P<org>[^，,。在]{0,10}?(?:小学|中学|初中|高中|大学"
        r"|学校|学院|幼儿园|培训机构|培训班|机构|[一二三四五六七八九十\d]+中|附中))(?:里|当老师)?教(?P<s>[\u4e00-\u9fffA-Za-z]{1,4}?)(?:的)?$",
        lambda m, c, s: [
            _fact(s, c, "work.role", f"{m.group('s')}老师", f"职业是{m.group('s')}老师"),
            *(
                []
                if re.search(r"一[所家个]|某|^那", m.group("org"))
                else [_fact(s, c, "work.employer", m.group("org"), f"在{m.group('org')}工作")]
            ),
        ],
    ),
    # "As a nurse on night shifts I barely see daylight": a job said as the standpoint of what
    # follows is the user's job
    (
        "job",
        "en",
        r"^As an? (?P<role>[\w-]+(?: [\w-]+){0,2}?)(?: (?:at|for) (?P<org>[A-Z][\w&.'-]*"
        r"(?: [A-Z][\w&.'-]*)*))?(?: (?:on|in|with|of|who)\b.*?)?(?:,.*| (?:I|I'm|I've|my)\b.*)?$",
        work(),
    ),
    # "是做设计的", "我其实是写前端的", "我是教数学的": what the user does for a living
    (
        "job",
        "zh",
        r"^我?(?:现在|目前|其实|本来|一直|主要)*是(?:做|搞|干)(?!什么|啥)(?P<role>[^，,的]{1,8})的$",
        work(),
    ),
    (
        "job",
        "zh",
        r"^我?(?:现在|目前|其实|本来|一直|主要)*是(?P<role>(?:写|教|卖|开|跑|修|带)(?!什么|啥)[^，,的]{1,8})的$",
        work(),
    ),
    (
        "job",
        "en",
        r"^I (?:currently |now |still )?work as (?:an? )?(?P<role>.+?)(?: (?:over at|at"
        r"|for|(?P<by>with)) (?P<org>.+))?$",
        work(),
    ),
    (
        "job",
        "en",
        # "I'm now working at 字节": the progressive says the same
        r"^I(?: (?:currently |now |still )?work|(?:'m| am) (?:(?:now|currently|still) )*working)"
        r" (?:at|for) (?P<org>.+?)(?: as (?:an? )?(?P<role>.+))?$",
        work(),
    ),
    (
        "job",
        "en",
        r"^(?:I (?:currently |now |still |mainly |mostly )?work|my (?:job|work)(?: there)? is)"
        r" in (?P<role>[a-z][\w &/-]{1,30}?)"
        r"(?: (?:at|for) (?P<org>.+))?$",
        work(field=True),
    ),
    (
        # a line of work or a department: "I'm in marketing", "I'm in HR at a small startup",
        # "I'm on the design team", "I'm in the legal department"
        "job",
        "en",
        r"^I(?:'m| am) (?:(?:now|currently|still|actually|mostly|mainly) )*(?:in|on) (?:the )?"
        rf"(?P<role>{_FIELDS_EN})(?: (?:department|dept|team|industry|field|sector|side"
        r"|business|space))?(?: (?:at|for|with) (?P<org>.+?))?(?: now| these days)?$",
        work(field=True),
    ),
    (
        "job",
        "en",
        r"^I(?:'ve| have)? (?:just |recently )?(?:joined|started at|started working at"
        r"|got a job at) (?P<org>.+?)(?: as (?:an? )?(?P<role>.+))?$",
        work(correction=True),
    ),
    (
        # "I'm starting at Stripe next Monday as head of product": a job about to start, its
        # day no part of the firm
        "job",
        "en",
        r"^I(?:'m| am)? (?:just |officially )?(?:starting|beginning)"
        r"(?: (?:a new job|work|my new job))? (?:at|with) (?P<org>.+?)"
        r"(?: (?:next|this|on|in) [\w-]+| tomorrow| soon)? as (?:an? |the )?(?P<role>.+)$",
        work(correction=True),
    ),
    (
        # "just signed the offer from Quillfeather Bank", "accepted an offer at Stripe as a PM":
        # an offer taken is the new employer (one only received is not)
        "job",
        "en",
        _OFFER_TAKEN_EN + r"(?:the |an |a |their |my )?(?:job )?offer (?:from|at|with)"
        # the employer's name, then only when or as what: "… from Comcast to upgrade my
        # internet" is no job
        r" (?P<org>(?-i:[A-Z])[\w&.'-]*(?: (?-i:[A-Z])[\w&.'-]*)*)"
        r"(?: as (?:an? )?(?P<role>[\w -]+?))?" + _OFFER_WHEN_EN,
        work(correction=True),
    ),
    (
        # "I've accepted Stripe's offer", "signed Datadog's offer yesterday": the same, named
        # by its owner
        "job",
        "en",
        _OFFER_TAKEN_EN
        + r"(?P<org>(?-i:[A-Z])[\w&.-]*(?: (?-i:[A-Z])[\w&.-]*)*)(?:'s|’s) (?:job )?offer"
        + _OFFER_WHEN_EN,
        work(correction=True),
    ),
    (
        # "我接受了字节跳动的offer", "已经签了华为的录用通知": an offer taken is the new employer
        # (not one refused, asked about, only received, or someone else's)
        "job",
        "zh",
        r"^我?(?:已经|刚|刚刚|终于|正式|最后)*(?:接受|接|签|签下|签约)了?\s*"
        r"(?P<org>[^，,。！？!?的\s][^，,。！？!?的]{0,11}?)\s*的\s*(?:offer|录用通知书?|录用"
        r"|工作邀请|聘书)(?=$|[，,。！!])",
        work(correction=True),
    ),
    (
        # "I started as a barista at Blue Bottle on monday": the role first
        "job",
        "en",
        r"^I(?:'ve| have)? (?:just |recently )?(?:started|began)(?: working| work)? as "
        r"(?:an? )?(?P<role>[\w -]+?) (?:at|for|with) (?P<org>.+)$",
        work(correction=True),
    ),
    (
        "job",
        "en",
        r"^I(?:'m| am) (?:(?:now|currently|actually|really|also|still|officially|finally) )*"
        r"(?:an? )(?P<role>[\w -]+?)(?: (?:over at|at|for|(?P<by>with)) (?P<org>.+))?$",
        work(),
    ),
    # "Work has been brutal at Novartis lately", "my team at Shopify is great": the user's
    # work, or the people of it, placed at a named organisation name the employer
    (
        "job",
        "en",
        r"^(?:(?:honestly|ugh|man|and|but|so),?\s+)?(?:work|my (?:job|work|shifts?|boss|manager"
        r"|team|coworkers|co-workers|colleagues|office|department)|things at work)\b"
        r"(?:'s)?(?P<said>[^,;]*?)\b(?:over )?at (?P<org>(?-i:[A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*)*))"
        r"(?P<rest>(?:\s+(?-i:[a-z])[\w'-]*)*)$",
        lambda m, c, s: work()(m, c, s) if not segment.is_place(m.group("org")) else None,
    ),
    # "I run the podcast ads analytics team there", "I lead a small data team at Spotify": the
    # team the user leads names the role (its employer, if named)
    (
        "job",
        "en",
        r"^I (?:(?:now|currently|also|basically) )*(?:run|lead|manage|head(?: up)?|oversee)"
        r" (?:the|a|an|our|my|their) (?P<team>[\w &/-]{2,40}?) (?:team|group|department|squad"
        r"|unit|division)(?: (?:there|here|over there|at (?P<org>.+?)))?(?: now)?$",
        _team_lead,
    ),
    (
        "job",
        "zh",
        r"^我?(?:在(?:那里|那边|这里|这边|公司))?\s*(?:(?i:lead|manage|run)|带|领导|管|负责)"
        r"\s*(?:一个|个|着)?\s*(?P<team>[^，,。]{2,20}?)\s*的?\s*(?:(?i:team)|团队|组|小组)$",
        _team_lead,
    ),
    # "公司是一家 fintech 叫 Nium", "公司叫星河科技": the workplace named
    (
        "job",
        "zh",
        r"^(?:而且|不过|但是?|其实)?(?:我们?的?)?(?:公司|单位)(?:是(?:一家|个|一个)[^，,。]{0,12}?)?"
        r"\s*(?:叫做?|名叫)\s*(?P<org>[^，,。\s][^，,。]{0,20}?)$",
        work(),
    ),
    # "base 在 Singapore", "我 base 在上海": where the user's work is based
    (
        "job",
        "zh",
        r"^我?(?:现在|目前|主要|一般)*\s*(?i:base|based)\s*在\s*(?P<place>[^，,。\s][^，,。]{1,20}?)"
        r"\s*(?:的?\s*(?:(?i:office)|办公室))?$",
        _based_in,
    ),
    # "I'm based out of our Denver office most weeks", "I work from the Austin office": the
    # firm's office the user works at is named by its place
    (
        "job",
        "en",
        r"^I(?:(?:'m| am) (?:(?:now|currently|mostly|usually|mainly) )*based"
        r"| (?:(?:now|currently|mostly|usually|mainly) )*work) (?:out of|from|at|in)"
        r" (?:our|the|my (?:company|firm|employer)'s)"
        r" (?P<place>(?-i:[A-Z][a-z]+(?: [A-Z][a-z]+)?)) (?:office|branch|site|campus|hq"
        r"|headquarters)\b.*$",
        lambda m, c, s: [_fact(s, c, "work.location", m["place"], f"works in {m['place']}")],
    ),
    # "I've been a nurse for ten years": a job held until now
    (
        "job",
        "en",
        r"^I(?:'ve| have) (?:(?:now|always|also|actually) )*been (?:an? )(?P<role>[\w -]+?)"
        r"(?: (?:at|with) (?P<org>.+?))?(?: (?:for|since) (?:\w+ ){0,3}?(?:years?|months?|ages"
        r"|a while|decades?|\d{4})(?: now)?| now)?$",
        work(),
    ),
    # "I'm at Sundial Energy", "I'm with Orbit Labs now": a name whose head word is that of an
    # organisation (not "I'm at Heathrow", a place one is at)
    (
        "job",
        "en",
        # (the name's capitals read as written, "I'm with Geico for car insurance" is none)
        r"^I(?:'m| am) (?:(?:now|currently|still|actually) )*(?:at|with) "
        r"(?P<org>(?-i:[A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*)* "
        r"(?:Energy|Labs?|Inc|Health|Healthcare|Bank|Capital|Systems"
        r"|Technologies|Tech|Group|Partners|Media|Studios?|Consulting|Software|Solutions|Corp"
        r"|Corporation|Co|Analytics|Robotics|Pharma|Pharmaceuticals|Insurance|Ventures|Holdings"
        r"|Networks|Foods|Motors|Airlines|Games|Digital|Industries|Dynamics|Biotech|Bio"
        r"|Therapeutics|Security|Financial|Realty|Engineering|Agency|Associates|Hospital|Clinic"
        r"|Bakery|Brewing|Press|Publishing)))\.?(?: now| these days| for now)?$",
        work(),
    ),
    (
        # "I'm at 腾讯 now": a Chinese name that is an organisation's (not "I'm at 上海")
        "job",
        "en",
        r"^I(?:'m| am) (?:(?:now|currently|still|actually) )*(?:at|with)"
        r" (?P<org>[\u4e00-\u9fff]{2,10})(?: now| these days| right now| for now)?$",
        _org_zh,
    ),
    (
        # a title held now: "got promoted, I'm the head chef now", "I'm now the team lead"
        "job",
        "en",
        r"^I(?:'m| am) (?=.*\bnow\b)(?:(?:now|officially|finally) )*the (?P<role>[\w -]+?)"
        r"(?: (?:at|for) (?P<org>.+?))?(?: now)?$",
        work(correction=True),
    ),
    # health and diet
    (
        "allergy",
        "zh",
        _S + r"是?对(?P<v>.+?)(?<![不没])过敏$",
        simple("health.allergy", "对{v}过敏", split=True),
    ),
    (
        "allergy",
        "zh",
        # "不是花生过敏" denies (``_NEGATIONS``); "是芒果过敏" after it names the allergen
        _S + r"是?(?P<v>(?![^对]*(?:不是|没有))[^对]+?)(?<![不没])过敏$",
        simple("health.allergy", "对{v}过敏", split=True, check=_no_modal),
    ),
    (
        "allergy",
        "en",
        r"^I(?:'m| am) (?:also |very |severely |highly |deathly )?allergic to (?P<v>.+)$",
        simple("health.allergy", "is allergic to {v}", split=True),
    ),
    (
        # "I react badly to shellfish", "it's only amoxicillin I react to": a reaction to a
        # thing is an allergy
        "allergy",
        "en",
        r"^I (?:also |still )?(?:react|have (?:a |an )?(?:bad |severe )?reactions?)"
        r" (?:really |very )?(?:badly |bad )?to (?:only |just )?"
        # not how the user takes a thing ("I react to stress by eating", "to criticism")
        r"(?!(?:stress|pressure|criticism|news|it|that|this|them|people|change)\b)"
        r"(?P<v>[\w-]{2,30}(?: [\w-]+){0,2})$",
        simple("health.allergy", "is allergic to {v}", split=True),
    ),
    (
        "allergy",
        "en",
        r"^I have (?:an? |a severe )?(?P<v>.+?) allergy$",
        simple("health.allergy", "is allergic to {v}", split=True),
    ),
    (
        "condition",
        "zh",
        _S + r"(?:有(?![点些])|得了|患有|患了)"
        r"(?P<v>高血压|糖尿病|哮喘|心脏病|胃病|抑郁症|焦虑症|痛风|.{1,4}?(?:病|症|炎))$",
        simple("health.condition", "有{v}"),
    ),
    (
        # "我在读研", "现在读大三呢", "在读博": the user is a student, of that level
        "student",
        "zh",
        _S + r"(?:现在|目前|还|正)?(?:在)?(?:读|念|上)"
        r"(?P<v>研(?:究生)?[一二三]?|博(?:士)?[一二三四五]?|硕(?:士)?|本科|大[一二三四五]|高[一二三]|初[一二三])(?:呢|中|了|啦|哈)?$",
        _studying_zh,
    ),
    (
        # "I'm a grad student in biology", "a PhD student studying chemistry": the student,
        # the field in the content
        "student",
        "en",
        r"^I(?:'m| am) (?:currently |now |still )?an? "
        r"(?P<v>(?:(?:grad|graduate|phd|ph\.d\.|doctoral|master'?s|masters|undergrad(?:uate)?"
        r"|college|university|med|medical|law) )?student)"
        r"(?: (?:in|of|studying|doing|majoring in) (?P<f>[a-z][a-z -]{1,30}))$",
        lambda m, c, s: [
            _fact(s, c, "work.role", m.group("v"), f"is {_article(m['v'])} {m['v']} in {m['f']}")
        ],
    ),
    # a job started, said by its day ("starting monday as a staff engineer", "I start next week
    # as a nurse"): the role held from then on (the firm, when named, is read elsewhere)
    (
        "work",
        "en",
        r"^(?:(?:so|and|but|update|news|omg|finally|yay)\W+)*(?:I(?:'m| am)? )?start(?:ing|s)?"
        r" (?:on )?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|today|next (?:week"
        r"|month)|in (?:two|2|a couple of) weeks)"
        r" as (?:a |an |the )?(?P<v>[A-Za-z][\w&/ -]{1,40}?)\W*$",
        simple("work.role", "starts as {v}", correction=True),
    ),
    # a promotion names the job held now ("got promoted to senior last week!!", "I was promoted
    # to team lead", "升职成主管了"); a level alone ("senior") is put on the job held by
    # arbitration (``values._promoted``)
    (
        "work",
        "en",
        r"^(?:(?:so|and|but|update|news|guess what|omg|finally|yay)\W+)*(?:I(?:'ve| have)? )?"
        r"(?:just |finally |officially )*(?:got|was|been|have been|'ve been)"
        r" (?:just |finally |officially )?promoted to (?:be )?(?:a |an |the )?"
        r"(?P<v>[A-Za-z][\w&/ -]{1,40}?)"
        r"(?:\s+(?:last|this|yesterday|today|on|in|at|after|as of|effective)\b.*)?\W*$",
        simple("work.role", "was promoted to {v}", correction=True, metadata={"promoted": True}),
    ),
    (
        "work",
        "zh",
        _S + r"(?:终于|刚刚?)?(?:升职|晋升|被提拔|提拔|升)(?:了)?(?:成|为|到|做)?(?:了)?"
        r"(?P<v>[\u4e00-\u9fffA-Za-z ]{2,10}?)(?:了|啦)?$",
        simple(
            "work.role",
            "升职为{v}",
            correction=True,
            metadata={"promoted": True},
            check=lambda v: not re.match(r"职|级|学|官|值|温|高|空", v),
        ),
    ),
    # a job to start at a firm named ("下周一去 Microsoft 报到", "月底去腾讯入职"): the workplace
    # from then on ("去新公司报到" names none)
    (
        "work",
        "zh",
        r"^(?:我)?(?:下周.|下个?月|月底|明天|后天|周.|下礼拜.|\d+号)?(?:就|要)?(?:去|到)\s*"
        r"(?P<v>(?!新公司|公司|单位)[A-Za-z][\w&.-]*(?: [A-Z][\w&.-]*)*|[\u4e00-\u9fff]{2,8}?)\s*"
        r"(?:报到|入职)了?$",
        simple("work.employer", "入职{v}", correction=True),
    ),
    # working remotely for good is where the user works ("I'm fully remote from home now",
    # "I work remotely", "现在完全远程办公了"); not for a day ("I work from home on Fridays",
    # "今天在家办公")
    (
        "work",
        "en",
        r"^(?:and |so |but )?(?:now |these days )?I(?:'m| am| work| now work| have been working"
        r"|'ve been working)(?: now)? (?:(?:fully|completely|100%|totally|permanently"
        r"|full[- ]time) )?(?P<v>remote(?:ly)?)(?: (?:from home|now|full[- ]time|these days"
        r"|for good))*$"
        r"|^(?:and |so |but )?(?:now |these days )?I (?:now )?work (?:(?:fully|completely"
        r"|permanently|full[- ]time) )?(?P<h>from home)(?: (?:now|full[- ]time|these days"
        r"|for good))*$",
        lambda m, c, s: [_fact(s, c, "work.location", "remote", "works remotely")],
    ),
    (
        "work",
        "zh",
        _S + r"(?:现在|目前|已经|如今)+(?:都|是|就)?(?:完全|全职|长期|一直|彻底)?"
        r"(?:远程办公|远程工作|居家办公|在家办公)了?$",
        lambda m, c, s: [_fact(s, c, "work.location", "远程", "远程办公")],
    ),
    (
        # "now I'm bartending at a hotel downtown": a job said by what one does all day
        "work",
        "en",
        r"^(?:and |so |but )?(?:now |currently )?I(?:'m| am) (?:now |currently |still )?"
        r"(?P<v>bartending|tutoring|teaching|consulting|freelancing|nannying|waitressing"
        r"|waiting tables|coaching|lifeguarding|babysitting)"
        # (not "consulting for Nike this quarter": work for a client, no job)
        r"(?: at (?P<org>[A-Z][\w&.' -]{1,40}))?(?: (?:now|full[- ]time|part[- ]time))?$",
        _job_by_doing,
    ),
    (
        # "我乳糖不耐受", "本人麸质过敏体质": a condition said as what the user is
        "condition",
        "zh",
        _S + r"(?:有点|有些|一直|天生)?(?P<v>[\u4e00-\u9fff]{1,4}不耐受|过敏体质|低血糖|贫血)"
        r"(?:的|体质)?$",
        simple("health.condition", "{v}"),
    ),
    (
        "condition",
        "en",
        rf"^I have (?P<v>{_CONDITIONS_EN})$",
        simple("health.condition", "has {v}"),
    ),
    # "my asthma's been acting up": a condition the user calls theirs ("my eczema's gone" is a
    # recovery, read elsewhere)
    (
        "condition",
        "en",
        rf"^my (?P<v>{_CONDITIONS_EN})(?:'s| is| has| have| are| was| were| keeps?| flared| got)\b"
        r"(?!.*\b(?:gone|cured|healed|over|better|cleared|went away|disappeared|under control)\b)",
        simple("health.condition", "has {v}"),
    ),
    (
        "diet",
        "zh",
        _S + r"(?:吃素|只吃素|是素食主义者|是素食者|是吃素的)$",
        lambda m, c, s: [_fact(s, c, "diet.style", "素食", "吃素")],
    ),
    (
        "diet",
        "zh",
        # a kind of vegetarian diet by its name: "我吃纯素", "我是蛋奶素", "现在改吃鱼素了"
        _S + r"(?:改|只|在|也)?(?:吃|是)(?P<v>纯素|全素|蛋奶素|奶素|蛋素|鱼素|半素)"
        r"(?:的|者|主义者)?了?$",
        lambda m, c, s: [_fact(s, c, "diet.style", m["v"], "吃" + m["v"])],
    ),
    (
        "diet",
        "zh",
        # an inability said with a degree ("不太能吃辣", "不怎么能喝酒") is one: 能 says what the
        # user can have, not how often (``semantic.seldom``: "不太吃辣")
        _S + r"(?P<verb>不吃|不(?:太|怎么|大)?能吃|不可以吃|吃不了|不敢吃|不碰|忌口|不喝"
        r"|不(?:太|怎么|大)?能喝|戒了|戒掉了)"
        r"(?P<v>(?!素(?:了|的|食)?$).+)$",  # "不吃素" is no vegetarian, not an avoidance
        # "不喝浑身难受": what follows is how the user feels without it, no food
        simple("diet.avoid", "{verb}{v}", split=True, check=lambda v: not _A_FEELING_ZH.match(v)),
    ),
    # the food or the thing said first, before the user ("香菜我是真的吃不了", "恐怖片我一般不看"):
    # a standing refusal (one ending in 了 gives the thing up: see semantic.quit_objects)
    (
        "diet",
        "zh",
        # an inability that has come about ("辣的我一点都吃不了了") is one all the same
        _FRONTED + r"(?:(?P<verb>不吃|不碰|不喝)(?:的)?|(?P<can>不能吃|吃不了|不敢吃|喝不了|不能喝)"
        r"(?:的|了)?)$",
        _avoided_first,
    ),
    (
        "dislikes",
        "zh",
        _FRONTED + r"(?P<verb>不看|不听|不玩|不敢看|不敢听|不敢玩|看不了|听不了|看不下去|听不下去"
        r"|受不了|不喜欢|不爱)(?:的)?$",
        simple("preference.dislikes", "{verb}{v}", check=semantic.is_taste),
    ),
    (
        "diet",
        "en",
        # any diet by name ("I'm a flexitarian", "I'm keto these days"), as the classifier's
        # diet family reads it
        # ("Pescatarian for about 6 years": the diet said first, the user left out)
        r"^(?:I(?:'m| am) |(?=[A-Za-z -]+ (?:for|since) ))"
        r"(?:(?:now|currently|mostly|strictly|fully|also|been) )*(?:an? )?"
        r"(?P<v>[\w -]+?)(?: (?:now|these days|nowadays|mostly)"
        r"| (?:for|since) (?:about |like |almost |over )?\w+(?: \w+)?)?$",
        simple("diet.style", "is {v}", check=semantic.names_diet),
    ),
    (
        "diet",
        "en",
        _I + r"(?P<verb>can't|cannot|can not|don't|do not|no longer|never|won't|shouldn't"
        r"|am not allowed to|'m not allowed to)\s+(?:really\s+|even\s+)?(?P<eat>eat|drink|consume"
        r"|tolerate|digest"
        # "have" only after can't/shouldn't/allowed to: "I don't have big plans" is no diet
        r"|(?:(?<=can't )|(?<=cannot )|(?<=shouldn't )|(?<=allowed to )|(?<=no longer ))have)"
        r"\s+(?P<v>.+)$",
        simple("diet.avoid", "I {verb} {eat} {v}", split=True),
    ),
    # "I can't really do fried food anymore", "I can't handle spicy food": a verb of coping,
    # not of eating, whose object is something eaten or drunk
    (
        "diet",
        "en",
        _I + r"(?P<verb>can't|cannot|can not|can no longer|no longer)\s+(?:really\s+|even\s+)?"
        r"(?P<eat>do|handle|stomach|take)\s+(?P<v>.+)$",
        simple("diet.avoid", "I {verb} {eat} {v}", split=True, check=semantic.is_edible),
    ),
    (
        "diet",
        "en",
        _I + r"(?:avoid|stay away from|cut out|gave up|quit eating)\s+(?P<v>.+)$",
        simple("diet.avoid", "avoids {v}", split=True),
    ),
    # pets and family
    (
        "pets",
        "zh",
        rf"^(?:我|我们)?(?:家)?(?:里)?(?:有|养了?|养着)(?P<n>[一二两三四五六七八九十几\d]+)?(?:只|条|个|头|匹|尾)?\s*(?P<kind>{_PET_KIND_ZH})\s*(?:[，,]?(?:叫|名叫)(?:它|他|她)?\s*(?P<name>.+))?$",
        pet,
    ),
    (
        "pets",
        "zh",
        rf"^(?:我的?|我们?家的?|我们的)?\s*(?P<kind>{_PET_KIND_ZH})?\s*(?:(?:一|另一|还有一|其中一|另外一)(?:只|条|个|头))?(?:的?名字)?(?:取名|起名)?(?:叫做?|名叫|名字是|名字叫)(?:它|他|她)?\s*(?P<name>[^\s，,]{{1,8}})\s*$",
        pet,
    ),
    (
        "pets",
        "en",
        rf"^(?:I|we)(?: just| finally)? (?:have|got|adopted|'ve got|brought home) (?:an? |one |two "
        rf"|three |\d+ |another |a new )?(?P<kind>{_PETS_EN})s? (?:named|called) (?P<name>[\w'-]+)"
        rf"(?: (?:instead|too|now|as well))?$",
        pet,
    ),
    (
        "pets",
        "en",
        r"^(?:his|her|its) name(?:'s| is) (?P<name>[A-Z][\w'-]*)$"
        r"|^(?:he|she|it)(?:'s| is) (?:called|named) (?P<name2>[A-Z][\w'-]*)$"
        # "…got a beagle last month, named her Pepper": the name given to the pet just told of
        r"|^(?:and )?(?:(?:we|I)(?: have| 've|'ve)? )?(?:named|called|call) (?:him|her|it)"
        r" (?P<name3>[A-Z][\w'-]*)$",
        pet,
    ),
    (
        "pets",
        "en",
        rf"^my (?P<kind>{_PETS_EN})(?:'s name is| is named| is called) (?P<name>[\w'-]+)$",
        pet,
    ),
    # "we adopted a kitten last weekend": when is no event beside the pet
    (
        "pets",
        "en",
        rf"^(?:I|we)(?: just| finally| recently)? (?:have|got|adopted|'ve got|brought home|rescued)"
        rf" (?:an?|one|two|three|\d+|another|a new)"
        # "a little black cat": a word or two of how it looks
        rf"(?: (?:little|tiny|small|big|young|old|sweet|fluffy|new|black|white|grey|gray|brown"
        rf"|ginger|orange|tabby|spotted|senior|rescue)){{0,2}} (?P<kind>{_PETS_EN})s?"
        rf"(?: (?:last \w+|yesterday|today|this \w+|recently|a \w+ ago))?$",
        pet,
    ),
    (
        "family",
        "zh",
        # "现在的男朋友叫Jack", "新男朋友叫Jack": the one of now
        rf"^(?:我的?)?(?:现在的?|新的?|如今的?)?(?P<rel>{_FAMILY_ZH})(?:的名字)?(?:叫做?|名叫|名字是|名字叫)"
        rf"(?![我你他她])\s*(?P<name>[^\s，,]{{1,6}})\s*$",
        family,
    ),
    ("family", "zh", rf"^我?(?:有|生了)(?:一个|两个|三个|个|\d+个)?(?P<rel>{_FAMILY_ZH})$", family),
    (
        "family",
        "en",
        rf"^my (?P<rel>{_FAMILY_EN})(?:'s name is| is named| is called) (?P<name>[\w'-]+)$",
        family,
    ),
    (
        "family",
        "en",
        rf"^I have an? (?P<rel>{_FAMILY_EN}) (?:named|called) (?P<name>[\w'-]+)$",
        family,
    ),
    ("family", "en", rf"^I have (?:an?|one|two|three|\d+) (?P<rel>{_FAMILY_EN})s?$", family),
    # behaviour rules for the assistant
    (
        "constraint",
        "zh",
        rf"^(?:以后|今后|之后|往后|从现在起|从今以后|从今天起)?[，,]?(?:请|麻烦)?你?(?:在)?(?:回答|回复|说话|聊天|写|输出)?(?:的)?(?:时候|时)?(?:都|也|一律|永远)?(?:不要|别|不许|不准|禁止|请勿|不用|无需|避免|不能|少)(?:再|总是|老是|一直)?"
        rf"(?:{_ZH_ASSIST_VERBS})(?P<rest>.*)$",
        constraint,
    ),
    (
        "constraint",
        "zh",
        r"^(?:以后|今后|之后|从现在起|每次|永远|一直)?(?:请|麻烦)?你?(?:都|务必|一定要?|要|只|尽量)*(?:用|使用|以)(?P<rest>.+?)(?:回答|回复|交流|沟通|来回答|写|输出)(?P<tail>.*)$",
        constraint,
    ),
    (
        "constraint",
        "zh",
        r"^(?:以后|今后)?(?:请|麻烦)?你?(?:把)?(?:回答|回复|答案|内容)?(?:都)?(?:控制|限制|保持|压缩)在(?P<rest>.+)$",
        constraint,
    ),
    (
        "constraint",
        "zh",
        r"^(?:以后|今后|从现在起|从今以后|每次)[，,]?(?!我)(?P<rest>.{2,})$",
        constraint,
    ),
    (
        "constraint",
        "zh",
        r"^(?:我希望你|我要你|我需要你|希望你|请你|请|麻烦你)(?P<rest>.*(?:以后|每次|总是|一直|始终|永远|都|不要|别|回答|回复).*)$",
        constraint,
    ),
    (
        "constraint",
        "zh",
        r"^(?!我)(?:控制|保持|尽量|多|少|只|先|直接|简短|简洁|不超过|每次|用|加上?|给出?|回答|回复|并且|还要|要)(?P<rest>.+)$",
        constraint,
        "constraint",
    ),
    (
        "constraint",
        "en",
        r"^(?:please\s+)?(?:(?:from now on|going forward"
        r"|in (?:the )?future),?\s+)?(?:please\s+)?(?:always|never|don't|do not|stop|avoid"
        # "don't really use vim anymore": a hedge says the user's own habit, not a rule
        r"|no more|refrain from|make sure to always)\s+(?!(?:really|actually|even)\b)(?:\w+\s+)?"
        rf"(?:{_EN_ASSIST_VERBS})\b.*$",
        constraint,
    ),
    (
        "constraint",
        "en",
        r"^(?:please\s+)?(?:from now on|going forward|in (?:the )?future),?\s+.+$",
        constraint,
    ),
    (
        "constraint",
        "en",
        rf"^(?:please\s+)?(?:answer|reply|respond|write|speak|talk|keep|use|be"
        rf"|give me)\b.*\b(?:always|every time|all|only|in (?:{_LANGS_EN})|bullet|short|brief"
        rf"|concise|formal|casual|simple)\b.*$",
        constraint,
    ),
    (
        "constraint",
        "en",
        r"^I (?:don't|do not) want you to .+$|^I(?:'d| would) like you to (?:always|never) .+$"
        r"|^I want you to (?:always|never) .+$",
        constraint,
    ),
    # drinks, then preferences
    (
        "drink",
        "zh",
        _S + r"(?:从(?P<old>.+?))?(?:改喝|换成喝|改成喝|换喝|开始喝)了?(?P<v>.+)$",
        drink(correction=True),
    ),
    (
        "drink",
        "zh",
        _S + r"(?:喜欢喝|爱喝|常喝|只喝|每天喝|一般喝|习惯喝|最近喝|喝"
        # "每天早上都得来一杯美式": a cup of it had
        r"|(?:(?:每天|早上|下午|晚上|都|得|要|会)*)来(?:一|两|几)?(?:杯|瓶|罐|听))(?P<v>.+)$",
        drink(),
    ),
    (
        "drink",
        "en",
        r"^I(?:'ve| have)? (?:just |recently )?(?:switched|changed|moved"
        r"|gone over) (?:from (?P<old>.+?) )?to (?P<v>.+)$",
        drink(correction=True),
    ),
    (
        "drink",
        "en",
        r"^I(?:'ve| have)? (?:just |recently )?started drinking (?P<v>.+)$",
        drink(correction=True),
    ),
    (
        "drink",
        "en",
        _I + r"(?:drink|have|like drinking|love drinking|prefer|enjoy drinking)\s+(?P<v>.+)$",
        drink(),
    ),
    (
        "language",
        "zh",
        # a language by its form as well as by name ("我母语是维吾尔语", "我会说客家话")
        r"^我?(?:的)?(?:母语是|会说|会讲|说|讲|更习惯用|习惯用)"
        r"(?P<v>[\u4e00-\u9fff]{2,6}?(?:[和、及与][\u4e00-\u9fff]{2,6}?)*)(?:交流|沟通|聊天)?$",
        simple("language.preferred", "会说{v}", split=True, check=semantic.is_language),
    ),
    (
        "language",
        "en",
        rf"^(?:I (?:speak|understand|am fluent in|'m fluent in)|my (?:native|first"
        rf"|mother) (?:language|tongue) is) (?P<v>(?:{_LANG_NAME_EN})(?:(?:,|and"
        rf"| )+(?:{_LANG_NAME_EN}))*)$",
        simple("language.preferred", "speaks {v}", split=True, check=_no_calendar_word),
    ),
    (
        "tech",
        "zh",
        _S + r"(?P<verb>偏好|偏爱|更喜欢用|喜欢用|习惯用|常用|主要用|爱用|更倾向于用?"
        r"|倾向于用?)\s*(?P<v>.+)$",
        prefer,
    ),
    # a device by its maker or system ("我用苹果手机", "我用的是安卓机", "平时用Windows电脑"): the
    # name before the kind of device is the tool
    (
        "tech",
        "zh",
        _S + r"(?:在)?用(?:的是)?\s*(?P<v>[A-Za-z][\w.+ -]{0,15}?|[\u4e00-\u9fff]{2,4}?)\s*"
        r"(?:的)?(?:手机|电脑|笔记本|平板|(?<!手)机)$",
        lambda m, c, s: (
            [_fact(s, c, "tech.preferred", _norm(m.group("v"), None), _join_zh("用", m.group("v")))]
            if segment.name_run(m.group("v")) or segment.brand(m.group("v"))
            else None
        ),
    ),
    # a device switched to by its maker ("终于换苹果了", "换了华为", "转安卓了"): the maker is the
    # tool now (``_change_cues`` marks it as replacing the one before)
    (
        "tech",
        "zh",
        _S + r"(?:终于|又|刚|上个?月|上周|去年|前几天|前段时间|昨天)*(?:换|转|改用)(?:了|成|到)?\s*"
        r"(?P<v>[A-Za-z][\w.+-]{1,15}"
        r"|[\u4e00-\u9fff]{2,4}?)\s*(?:的)?(?P<d>手机|电脑|笔记本|平板|系统)?(?:了|啦)?$",
        lambda m, c, s: (
            [_fact(s, c, "tech.preferred", _norm(m.group("v"), None), _join_zh("用", m.group("v")))]
            if m.group("v") in _DEVICE_MAKERS_ZH
            or (m.group("d") and (segment.name_run(m.group("v")) or segment.brand(m.group("v"))))
            else None
        ),
    ),
    (
        "tech",
        "en",
        _I + r"(?P<verb>prefer|mostly use|use|code in|program in|like using|love using"
        r"|like to use)\s+(?P<v>.+)$",
        lambda m, c, s: (
            prefer(m, c, s)
            if m.group("verb") == "prefer"
            or all(_TECH.match(_norm(i, None)) for i in _items(m.group("v"), "en"))
            else None
        ),
    ),
    # smoking is a habit, not a drink or a taste: "I smoke a few a day", "I vape", "我抽烟"
    ("habit", "en", r"^I (?:\w+ly )?(?P<v>(?:smoke|vape)\b.*)$", simple("schedule.habit")),
    (
        "habit",
        "en",
        r"^I(?:'m| am) (?:a |an )?(?:\w+ )?(?P<v>smoke)r$",
        simple("schedule.habit", "smokes"),
    ),
    (
        "habit",
        "zh",
        _S + r"(?:一般|平时|经常|每天|一直|偶尔|也)*(?P<v>(?:抽|吸)(?:电子)?烟.*)$",
        simple("schedule.habit"),
    ),
    (
        "habit",
        "zh",
        _S + r"(?:一般|通常|平时|习惯|总是|经常|往往|基本上?|大多)+(?P<v>(?:在)?(?:早上"
        r"|上午|中午|下午|晚上|周末|工作日|晚饭后|饭后|睡前|每天|每周.).+)$",
        simple("schedule.habit"),
    ),
    # "我每天必须来一杯美式": the drink had every day is the usual one, no routine of its own
    (
        "drink",
        "zh",
        _S + r"(?:每天|天天)(?:都|必须|都要|要|得|必)*(?:来|喝)(?:一|1|两|2)?[杯瓶罐]"
        r"(?P<v>[^，,。]{1,8}?)(?:续命|提神)?$",
        lambda m, c, s: drink()(m, c, s) if semantic.is_drink(m.group("v")) else None,
    ),
    (
        "habit",
        "zh",
        _S + r"(?P<v>(?:每天|每周.|每晚|每天早上|每天晚上|每个周末)(?:都)?.{2,})$",
        simple("schedule.habit"),
    ),
    (
        "habit",
        "zh",
        r"^(?:在)?(?P<v>(?:早上|上午|中午|下午|晚上|周末|工作日|睡前).{2,})$",
        simple("schedule.habit", check=lambda v: semantic.fits("schedule.habit", v)),
        "habit",
    ),
    # how the user gets to work or school is a routine without a word of frequency ("I take the
    # subway to work", "These days I drive to work", "我一直坐地铁上班")
    (
        "habit",
        "en",
        r"^I (?:(?:usually|normally|always|mostly|now|still|generally) )?(?P<v>(?:take the "
        r"(?:subway|bus|train|tube|metro|ferry|tram)|drive|walk|bike|cycle|ride my bike|commute"
        r"|carpool|get the (?:bus|train)) to (?:work|school|the office|class|uni))"
        r"(?: now| these days| every day| most days)?$",
        simple("schedule.habit"),
    ),
    (
        "habit",
        "zh",
        # (the time may come before the user: "最近我开车上班")
        r"^(?:最近|现在|如今|这段时间)?"
        + _S.removeprefix("^")
        + r"(?:一直|总是|天天|平时|每天)?(?P<v>"
        + COMMUTE_ZH
        + r")了?$",
        simple("schedule.habit"),
    ),
    (
        "habit",
        "en",
        r"^I (?:usually|normally|generally|always|often|typically|tend to) (?P<v>.+\b(?:morning"
        r"|afternoon|evening|night|weekends?|weekdays?|every|daily|before|after)\b.*)$",
        simple("schedule.habit"),
    ),
    (
        "habit",
        "en",
        r"^I (?P<v>.+?\bevery (?:day|morning|evening|night|week|weekend|monday|tuesday"
        r"|wednesday|thursday|friday|saturday|sunday)\b.*)$",
        simple("schedule.habit"),
    ),
    (
        "dislikes",
        "zh",
        _S + r"(?P<verb>不(?:太|怎么|大|是很|是特别)?(?:喜欢|爱)|讨厌|受不了|反感|厌恶"
        r"|怕)(?P<eat>吃)?(?P<v>.+)$",
        simple("preference.dislikes", "{verb}{eat}{v}", split=True, check=semantic.is_taste),
    ),
    (
        # "我对篮球一点兴趣都没有", "对足球不太感兴趣": no interest is a dislike
        "dislikes",
        "zh",
        _S + r"对(?P<v>[^，,。！!]{1,10}?)(?:一点|完全|根本|压根|丝毫|真的|也)?"
        r"(?P<verb>兴趣都没有|兴趣也没有|(?:都|也)?没(?:什么|啥|有)?兴趣|(?:都|也)?不(?:太|怎么)?感(?:兴趣|冒))"
        r"(?:了)?$",
        simple("preference.dislikes", "对{v}{verb}", check=semantic.is_taste),
    ),
    (
        "likes",
        "zh",
        # "我最喜欢的歌手是周杰伦", "现在最喜欢的是陈奕迅了", "最爱的变成榴莲了": a favourite, its
        # category said or not
        r"^(?:我)?(?:现在|目前|如今)?最(?:喜欢|爱)的(?P<what>.{0,8}?)(?<![不没])(?<!不再)"
        r"(?:是|就是|(?:变|换|改)成了?|成了)(?P<v>.+)$",
        favourite,
    ),
    # the thing first: "茄子是我最喜欢的菜" is a favourite; "茄子是我最不喜欢的菜",
    # "香菜是我最讨厌的东西" a dislike of the thing, not of its kind
    (
        "likes",
        "zh",
        rf"^{_THING_FIRST}(?:就|真的|绝对)?是我(?:这辈子|平生)?最(?:喜欢|爱)"
        r"(?:吃|喝|看|听|玩)?的"
        r"(?P<what>(?!一?(?:天|年|日子|时候|季节|个月|周))[\u4e00-\u9fffA-Za-z]{1,8}?)"
        r"(?P<one>之一)?了?$",
        # one of the favourites is one more liking, no favourite that replaces another
        lambda m, c, s: (
            simple("preference.likes", "喜欢{v}")(m, c, s) if m.group("one") else favourite(m, c, s)
        ),
    ),
    (
        "dislikes",
        "zh",
        rf"^{_THING_FIRST}(?:就|真的|绝对)?是我(?:这辈子|平生)?最"
        r"(?P<verb>不喜欢|讨厌|怕|受不了)"
        r"(?:吃|喝|看|听|玩)?的(?!一?(?:天|年|日子|时候|季节|个月|周))(?:[\u4e00-\u9fffA-Za-z]{1,8}?)"
        r"(?:了|之一)?$",
        simple("preference.dislikes", "最{verb}{v}", check=semantic.is_taste),
    ),
    # "我是周杰伦的铁粉", "我是个足球迷": a fan named by what they follow
    (
        "likes",
        "zh",
        _S + r"是(?:一个|个|一名)?(?P<v>[^，,。的]{2,10}?)的?(?:忠实|资深|死忠|铁杆|超级)?"
        r"(?:铁粉|死忠粉|粉丝|粉|迷|发烧友)了?$",
        simple("preference.likes", "是{v}的粉丝", check=semantic.is_taste),
    ),
    # a thing, then the net's word of praise for it ("火锅yyds", "螺蛳粉绝绝子", "奶茶永远的神"):
    # a liking ("真香" is said of anything: "AI 补全太香了")
    (
        "likes",
        "zh",
        rf"^{_THING_FIRST}(?:真的|简直|就是|绝对|永远)?(?:是)?"
        r"(?:(?i:yyds)|永远的神|绝绝子|天下第一|爱了爱了|爱死了?)[!！~～]*$",
        simple("preference.likes", "喜欢{v}", check=semantic.is_taste),
    ),
    # a thing, then that the user cannot take it in the mouth or at all ("香菜真的吃不了",
    # "苦瓜我是真的接受不了", "咖啡喝不惯"): a dislike
    (
        "dislikes",
        "zh",
        # (not "别的茶都喝不惯": other things than the one liked are no thing of their own)
        rf"^(?!别的|其他|其它|任何|所有){_THING_FIRST}(?:我)?(?:是)?"
        r"(?:反倒|反而|倒是|突然|越来越|竟然|居然|已经|现在|也|都)*"
        r"(?:真的|实在|完全|根本|一直|死活)?(?:是)?"
        r"(?P<verb>吃不了|吃不惯|喝不了|喝不惯|接受不了|欣赏不来|(?i:get)不到)(?:了|啊|呀)?$",
        simple("preference.dislikes", "{verb}{v}", check=semantic.is_taste),
    ),
    # "只要是科幻片我都爱看", "anything 抹茶味的我都爱": whatever is of a kind, the user likes
    (
        "likes",
        "zh",
        r"^(?:只要是|凡是|但凡是?|(?i:anything|everything)\s*(?:with|by)?)\s*"
        r"(?P<v>[^，,。我]{1,16}?)(?:的|味的)?\s*我?(?:都|全都|通通)(?:很|超|特别)?"
        r"(?P<verb>爱|喜欢|热爱)(?P<eat>吃|看|听|喝|玩)?$",
        simple("preference.likes", "{verb}{eat}{v}", check=semantic.is_taste),
    ),
    (
        "likes",
        "zh",
        # ("最喜欢的不是周杰伦了" likes no 周杰伦)
        # (the longer verb first: "爱上香菜了" is a liking of 香菜, not of 上香菜)
        _S + r"(?P<verb>喜欢|爱上了?|迷上了?|热爱|钟爱|爱)(?P<eat>吃)?"
        r"(?!的(?:已经|早就|并)?不)(?:的(?:就)?是)?(?P<v>.+)$",
        simple("preference.likes", "{verb}{eat}{v}", split=True, check=semantic.is_taste),
    ),
    # "所以特别能吃辣", "我很能吃辣": a taste had in plenty, said by how much the user can take
    (
        "likes",
        "zh",
        r"^(?:我|所以|而且|也|都|从小就?)*(?P<deg>很|特别|超级?|挺|比较|贼|非常|巨)(?P<verb>能吃)"
        # "很能吃苦" is enduring hardship, no taste
        r"(?P<v>辣|甜|酸|咸|肉|(?!苦)[\u4e00-\u9fff]{2,4})[的了啊呀哈]*$",
        simple("preference.likes", "{deg}{verb}{v}", check=semantic.is_taste),
    ),
    (
        "dislikes",
        "en",
        # the user left out before a negation ("Not a big fan of olives")
        r"(?:" + _I + r"|^(?=not\b))"
        # a hedge between the negation and its verb is the same dislike ("I don't really enjoy
        # crowded bars", "don't particularly like")
        r"(?P<verb>hate|dislike|detest|can't stand|cannot stand|(?P<neg>(?:don't|do not)"
        r" (?:really |particularly |much )?(?:like|enjoy)"
        r"|(?:(?:am|'m) )?not (?:a (?:big |huge )?fan of"
        r"|(?:really |that )?into"
        r"|(?:really |that )?big on|crazy about|keen on)"
        r"|don't care for)|(?:'ve |have )?never been (?:a (?:big |huge )?fan of"
        r"|(?:really |that )?into"
        r"|(?:really |that )?big on|crazy about|keen on))\s+"
        # a liking negated with a word of ending ("I'm not into anime anymore", "not a fan of
        # jazz these days") takes the liking back and states no dislike
        r"(?P<v>(?(neg)(?!.*\b(?:any ?more|these days|nowadays|lately|no more)\b)).+)$",
        simple("preference.dislikes", "I {verb} {v}", check=semantic.is_taste),
    ),
    # the thing first, then how the user takes it ("Horror movies are not really my thing",
    # "Jazz has never been my cup of tea", "Country music drives me nuts"): the subject is the
    # value of a predicate of dislike
    (
        "dislikes",
        "en",
        r"^(?:(?:honestly|tbh|and|but|well|so|also)[\s,]+)*(?P<v>(?!(?:it|that|this|those|these|he"
        r"|she|they|we|i|you|everything|nothing)\b)[\w' -]{2,40}?)\s+"
        r"(?:(?:is|are|'s|'re|has|have)(?:n't| not| never)\s+(?:really\s+|quite\s+|exactly\s+)?"
        r"(?:been\s+)?(?:my(?!\s+(?:favou?rite|fave|fav|top|number one)\b)|for me)\b"
        r"(?:\s+(?:thing|cup of tea|jam|style|scene|vibe))?"
        r"|(?:really\s+)?(?:drives?|makes?) me (?:nuts|crazy|mad|insane"
        r"|up the wall)|(?:really\s+)?gets? on my nerves|(?:really\s+)?bores? me"
        r"|(?:really\s+)?(?:stress|freak|gross|creep)(?:es|s)? me out)\b.*$",
        # "plain JS drives me nuts": a tool panned is read with the tools (``semantic.isolate``)
        simple("preference.dislikes", "dislikes {v}", check=_not_a_tool),
    ),
    # "I'm a cat person", "I'm more of a tea person": what the user is a person of is a liking,
    # or the drink they have
    (
        "likes",
        "en",
        _I + r"(?:'m|am) (?:(?:definitely|totally|more of|much more of|such|very much|always been)"
        r"\s+)*an? (?P<v>(?!(?:morning|night|evening|early|late|people|day|detail|details|big"
        r"|good|bad|nice|private|visual|numbers|glass)\b)[\w-]+(?: [\w-]+)?)"
        r" (?:person|guy|girl|kind of (?:guy|girl|person))\b.*$",
        lambda m, c, s: simple(
            "preference.drink" if _DRINKS.match(m.group("v").strip()) else "preference.likes",
            "is a {v} person",
            check=semantic.is_taste,
        )(m, c, s),
    ),
    # a fan named by what they follow ("I'm a huge Arsenal fan", "I'm a die-hard Lakers fan")
    (
        "likes",
        "en",
        _I + r"(?:'m|am) (?:such )?(?:an? )?(?:(?:big|huge|massive|die-?hard|lifelong|life-long"
        r"|long-?time|total|true|crazy|loyal|avid|devoted|hardcore|proper|super)\s+)*"
        r"(?P<v>(?!(?:of|a|an|the)\b)[\w'&.-]+(?: [\w'&.-]+){0,3}?)"
        r" (?:fan|fanatic|nerd|geek|buff|lover)s?$",
        simple("preference.likes", "is a fan of {v}", check=semantic.is_taste),
    ),
    (
        "likes",
        "en",
        _I + r"(?P<verb>love|like|enjoy|adore|am into|'m into|am a (?:big |huge )?fan of"
        r"|(?:'m|am) (?:all|totally|so|really) (?:about|into)"
        r"|'m a (?:big |huge )?fan of"
        # a liking held for long ("I've always loved…"), or said as a weakness for it
        r"|(?:'ve|have) (?:always |really |just |been )*(?:loved|liked|enjoyed|adored|into)"
        r"|(?:'m|am) (?:such |a )?(?:total |huge |real |big )?sucker for"
        r"|can't get enough of|(?:have|'ve got) a (?:real |big )?(?:soft spot|weakness) for"
        # a liking taken up ("I've gotten into running", "got really into pottery this year")
        r"|(?:(?:'ve|have|'m|am) )?(?:(?:gotten|been getting|getting)"
        r"(?: (?:really|super|very|so|quite|kinda|more))?|got (?:really|super|so|very|kinda)) into"
        r"(?! (?:(?:a |an |some |big |serious )?(?:trouble|debt|fights?|arguments?|accidents?|mess)"
        r"|(?:grad |med |law )?(?:school|college|university)|the program)\b))"
        r"\s+(?:eating\s+|to eat\s+)?(?P<v>.+)$",
        simple("preference.likes", "I {verb} {v}", check=semantic.is_taste),
    ),
    (
        "likes",
        "en",
        r"^(?:my )?(?:current |new )?(?:favou?rite|fav) (?P<what>[\w -]{1,30}?)"
        r"(?: is| are|\s*=)(?: now)? (?P<v>.+?)(?: now)?$",
        favourite,
    ),
    # decisions, plans, events
    (
        "decision",
        "zh",
        r"(?P<who>我们|我|咱们|大家|团队)?(?:已经|最终|最后)?(?<!不)(?:决定|定了|敲定|确定|选定)了?(?P<v>.{2,})$",
        decision,
    ),
    (
        "decision",
        "en",
        # "I've decided against the marathon": a plan dropped (``semantic.rejected``)
        r"\b(?P<who>we|I|the team)(?:'ve| have)? (?P<verb>decided(?! against)|agreed|chose"
        r"|settled on|are going with|'re going with|will go with|'ll go with)\s+(?P<v>.+)$",
        decision,
    ),
    ("decision", "en", r"^let'?s (?P<verb>go with|use|stick with) (?P<v>.+)$", decision),
    # "我不打算换工作了": a plan denied is none
    (
        "plan",
        "zh",
        r"^(?:我|我们)?.{0,8}?(?<![不没别])(?:打算|计划|准备|考虑(?!到))(?P<v>.{2,})$",
        event("plan"),
    ),
    # "五一想去成都玩四五天", "明年想去冰岛看极光": a trip wished for a time ahead is a plan (a
    # wish with no time, "好想去冰岛啊", is not; nor a doing, "周末想去吃火锅")
    (
        "plan",
        "zh",
        rf"^(?:我|我们)?(?P<when>{_TRIP_WHEN_ZH})(?:我|我们)?(?:还)?(?:想|想要|要)去"
        r"(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:玩|旅游|旅行|度假|逛逛|转转|看看|住|待|滑雪|看[\u4e00-\u9fff]{1,3})"
        r".{0,8}$",
        lambda m, c, s: [
            _fact(s, c, "plan", f"{m.group('when')}去{m.group('v')}", _content(c), dated=True)
        ],
    ),
    # "计划有变，改去韩国了": a trip in place of the one planned
    (
        "plan",
        "zh",
        r"^(?:我|我们)?(?:还是|就|又|最后)?(?:改去|改成去|换成去)(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)"
        r"(?:了|啦|吧)?$",
        lambda m, c, s: [_fact(s, c, "plan", f"去{m.group('v')}", _content(c), dated=True)],
    ),
    (
        "plan",
        "en",
        r"^I(?:'m| am)? (?:planning|plan|intend|intending|thinking about"
        r"|considering) (?:to )?(?P<v>.+)$|^I(?:'m| am) (?:hoping|aiming) to (?P<w>.+)$",
        event("plan"),
    ),
    # "we're going to Korea instead", "I'm flying to Lisbon after all": a trip to a named
    # place in place of the one planned
    (
        "plan",
        "en",
        r"^(?:I|we)(?:'m|'re| am| are) (?:now |actually |still |definitely )?(?:going|heading"
        r"|flying|driving|off) to (?P<v>(?-i:[A-Z][\w'-]+)(?: (?-i:[A-Z][\w'-]+))*)"
        r" (?:instead|after all)$",
        lambda m, c, s: [_fact(s, c, "plan", f"go to {m.group('v')}", _content(c), dated=True)],
    ),
    ("event", "zh", r"^(?P<v>.+)$", event("event")),
    ("plan", "zh", r"^(?P<v>.+)$", plan_ahead),
    (
        "plan",
        "en",
        rf"^(?:I'm|I am|we're|we are)\s+(?P<v>[a-z]{{3,}}ing\b.*\b(?:{_SEASON_AHEAD_EN}))$",
        season_plan_en,
    ),
    (
        "event",
        "en",
        r"^(?:I|we)(?:'m| am|'re| are| will|'ll| have| 've got| need to| have to| must"
        r"|'m going to| am going to|'m gonna)?\s+(?P<v>.+)$",
        event("event"),
    ),
]

RULES: list[_Rule] = [
    _Rule(
        family=entry[0],
        lang=entry[1],
        pattern=re.compile(entry[2], re.I if entry[1] == "en" else 0),
        build=entry[3],
        after=entry[4] if len(entry) > 4 else None,
    )
    for entry in _R
]

# A negative clause is probed in its positive form: what it matches is withdrawn (pending)
# and the next fact under that key retracts it ("我不是程序员，是设计师").
_NEGATIONS: list[tuple[Lang, re.Pattern[str], str]] = [
    (
        "zh",
        re.compile(r"^(?P<pre>我?)(?:已经|并)?(?:不是|不再是)(?P<rest>.+)$"),
        r"\g<pre>是\g<rest>",
    ),
    (
        "zh",
        re.compile(r"^我?(?:已经)?(?:不住在|不住|不再住在?)(?P<rest>.+?)了?$"),
        r"我住在\g<rest>",
    ),
    ("zh", re.compile(r"^我?(?:已经)?(?:不在|不再在)(?P<rest>.+?)了?$"), r"我在\g<rest>"),
    ("zh", re.compile(r"^我?(?:其实|已经|现在|也)*(?:不吃素|不再吃素)了?$"), r"我吃素"),
    (
        "en",
        re.compile(
            r"^I(?:'m| am) (?:not|no longer) (?:actually |really |even )?(?P<rest>.+?)"
            r"(?: anymore| any more)?$",
            re.I,
        ),
        r"I'm \g<rest>",
    ),
    (
        "en",
        re.compile(
            r"^I (?:no longer|don't|do not) (?P<rest>(?:live|work|study)\b.+?)(?: anymore"
            r"| any more)?$",
            re.I,
        ),
        r"I \g<rest>",
    ),
    ("en", re.compile(r"^(?P<pre>I\s+\w+)\s+not\s+(?P<rest>.+)$", re.I), r"\g<pre> \g<rest>"),
]

# "St. Mary's", "Dr. Lee": an abbreviation's full stop ends no sentence
_ABBREV = "".join(
    rf"(?<!\b{a}\.)" for a in ("St", "Dr", "Mr", "Mrs", "Ms", "Mt", "Jr", "Sr", "Prof")
)
# "!" or "?" inside a word ("BlueHeron!42", a password) ends no sentence
_SENTENCE = re.compile(
    rf"(?<=[。！？；\n])\s*|(?<=[!?;])(?=\s|$|[^\x00-\x7f])\s*|(?<=[.]){_ABBREV}\s+(?=\S)"
    # "叫我思雨就好～ 下周一去新公司报到": a chat's tilde then a space ends a sentence
    r"|(?<=[～~])\s+(?=[^\x00-\x7f])"
    # "…obsessed w tennis balls 🎾 birthday party ideas for a dog??": an emoji then the turn's
    # closing question; what was said before it is no part of the question
    r"|(?<=[\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F])\s+(?=[^.!?。！？\n]*[?？]+\s*$)"
)
_CLAUSE = re.compile(
    r"\s*(?:，|,(?!\d{3}\b)|：(?=\S)|(?=而是)|\s*[—–]\s*|\s+-\s+|\s+(?:and|so)\s+"
    r"(?=(?:\w+ly,?\s+|(?:now|then|these days|nowadays),?\s+)?"
    r"(?:I|I'm|I've|I'll|I'd|my|we|we're|our|please|pls|plz|don't|no|can|could)\b)"
    # "moved to Texas so Fahrenheit please": what follows "so" is a clause of its own when it
    # opens on a name
    r"|\s+so\s+(?=(?-i:[A-Z])\w+\b)"
    r"|\s+(?=but\s+(?:now\s+|these days\s+)?(?:I|I'm|I've|I'll|I'd|my|we|we're|our|please"
    r"|don't|not|a|an|in|at|from|for|with|on)\b)"
    r"|\s+(?=(?:but|because|cause|cuz|while|whereas|though|although)\s+(?:\w+ly,?\s+)?"
    r"(?:I|I'm|I've|I'll|I'd)\b)"
    # "We relocated to Austin because my husband got a job at Dell", "moved to Seattle bc the
    # rent…": the reason is a clause of its own, whoever its subject ("because of X" stays)
    r"|\s+(?=(?:because|bc|b/c|'cause|cuz|coz)\s+(?!of\b)\S|cause\s+(?:my|our)\b))\s*",
    re.I,
)


# "I live in Lisbon and work at Siemens", "I'm 34 and live in Austin": a second predicate of
# the user's, its "I" left out
_ELIDED_I = re.compile(
    # at the sentence's start or a clause's ("I'm Vivian, I live in Leeds and work as a nurse")
    r"(?:^|(?<=[,;]))"
    r"(?P<head>\s*(?:\w+,?\s+)?I(?:['’](?:m|ve|d)|\s+am)?\s+[^,;]+?)\s+(?:and|but)\s+"
    r"(?=(?:(?:work|live|study|teach|worked|lived"
    r"|studied|taught)\s+(?:at|in|for|as|from|on)\b|(?:joined|started at|moved to)\s+[A-Z]))",
    re.I,
)


# a sentence that opens with a negated taste, its subject left out ("Not a big fan of olives,
# but I love…", "不太喜欢跑步，但我喜欢游泳"): the user's, said of themselves
_ELIDED_NEG = re.compile(
    r"^\s*(?:(?P<en>not|never been)(?= (?:a (?:big |huge )?fan of|(?:really |that )?(?:into|big on"
    r"|keen on)|crazy about)\s)|(?=不(?:太|怎么|大|是很|是太)?(?:喜欢|爱)[^，,。]{1,12}[，,]))",
    re.I,
)


def _subject_given(m: re.Match[str]) -> str:
    said = (m.group("en") or "").lower()
    return {"not": "I'm not", "never been": "I've never been"}.get(said, "我")


# "I changed my password, the new one is tiger77", "我把密码改了，新的是xyz98765", "got a new card,
# the number is …": one clause names the secret's kind, the next gives its value without it;
# the value's clause is given the kind's word back
_SECRET_LATER_EN = re.compile(
    r"\b(?P<kind>password|passcode|pin|card|passport)\b(?P<mid>[^.;!?,]*),\s*(?:and\s+)?"
    r"(?:(?:the\s+|my\s+)?(?:new\s+)?(?:one|number|code|no\.?)\s+(?:is|:)|it'?s|it is)\s*"
    r"(?:now\s+)?(?=\S)",
    re.I,
)
# the new one's number given a sentence or two after its kind ("the old passport expired in
# march. renewed one came yesterday, new number is K55306418"): only a value with a digit
_SECRET_LATER_NEW_EN = re.compile(
    r"\b(?P<kind>password|passcode|pin|card|passport)\b(?P<mid>[^\n]{0,160}?[,.;!?]?)\s+"
    r"(?:and\s+)?(?:the\s+|my\s+)?new\s+(?:one|number|code|no\.?)\s*(?:is|:)\s*"
    r"(?=[A-Za-z-]*\d[0-9A-Za-z-]{3,})",
    re.I,
)
# the value given in a sentence of its own after its kind was named ("can you hang on to my
# passport number? it's K48201937"): only a value with a digit
_SECRET_LATER_IT_EN = re.compile(
    r"\b(?P<kind>password|passcode|pin|card|passport)\b(?P<mid>[^\n]{0,160}?[.!?])\s+"
    r"(?:it'?s|it is|that'?s|that is)\s+(?=[A-Za-z-]*\d[0-9A-Za-z-]{3,})",
    re.I,
)
_SECRET_LATER_ZH = re.compile(
    r"(?P<kind>密码|银行卡|信用卡|卡号|卡|护照|身份证)(?P<mid>[^。；;！!？?，,]*)[，,]\s*"
    r"(?:新的?|新(?:的)?号码?|号码|现在的?)(?:是|为|[:：])\s*(?=\S)"
)
_SECRET_LABEL = {
    "card": "card number", "passport": "passport number", "pin": "pin", "passcode": "passcode",
    "password": "password", "密码": "密码", "银行卡": "卡号", "信用卡": "卡号", "卡号": "卡号",
    "卡": "卡号", "护照": "护照号码", "身份证": "身份证号",
}  # fmt: skip


def _secret_said_later(text: str) -> str:
    """``text`` with a secret's value said apart from its kind given the kind's word back
    ("…, the new one is X" → "…, my new password is X"); unchanged otherwise."""

    def en(m: re.Match[str]) -> str:
        return f"{m['kind']}{m['mid']}, my new {_SECRET_LABEL[m['kind'].lower()]} is "

    def zh(m: re.Match[str]) -> str:
        return f"{m['kind']}{m['mid']}，新{_SECRET_LABEL[m['kind']]}是"

    def en_new(m: re.Match[str]) -> str:
        return f"{m['kind']}{m['mid']} my new {_SECRET_LABEL[m['kind'].lower()]} is "

    def en_it(m: re.Match[str]) -> str:
        return f"{m['kind']}{m['mid']} my {_SECRET_LABEL[m['kind'].lower()]} is "

    said = _SECRET_LATER_EN.sub(en, text)
    if said == text:
        said = _SECRET_LATER_NEW_EN.sub(en_new, text, count=1)
    if said == text:
        said = _SECRET_LATER_IT_EN.sub(en_it, text, count=1)
    return _SECRET_LATER_ZH.sub(zh, said)


_NUMBER_LATER_ZH = re.compile(
    r"(?P<k>号码|手机号?|电话号?码?|换号|门号)(?P<mid>[^。；;！!？?，,]{0,6})[，,]\s*"
    # "新的是0988-…", or the number alone as the next clause ("换了新号码，0987-654-321，…")
    r"(?:新的?(?:是|为)(?=\s*\+?\d)|(?=\+?\d[\d\s-]{6,}\d\s*(?:[，,。;；!！]|$)))"
)


def _number_said_later(text: str) -> str:
    """``text`` with a phone number said apart from its word given the word back ("我换号码了，
    新的是0988-765-432" → "…，新号码是0988-765-432"; "手机号码，139…" → "…，号码是139…")."""

    def said(m: re.Match[str]) -> str:
        new = "新" if re.search(r"[新换換]", m.group(0)) else ""
        return f"{m['k']}{m['mid']}，{new}号码是"

    text = _NUMBER_LATER_EN.sub(r"\g<k>\g<mid>, my new number is ", text)
    return _NUMBER_LATER_ZH.sub(said, text)


# "I changed my phone number, the new one is 555-987-6543", "got a new SIM, the new one is …"
_NUMBER_LATER_EN = re.compile(
    r"\b(?P<k>phone(?: number)?|number|cell|mobile|sim)\b(?P<mid>[^.;!?]{0,30}?)\s*[,;:—–-]\s*"
    r"(?:and\s+)?(?:the\s+)?new\s+one(?:\s+is|'s|:)\s*(?=\+?\(?\d)",
    re.I,
)


# a Chinese sentence that opens with the user's move or change and leaves the user out
# ("后来搬到了无锡", "去年跳槽去了字节", "上个月搬去杭州了"): the user is its subject
_DEVICE_SWITCH = (
    r"(?:换|转)(?:了|成|到)?\s*[\u4e00-\u9fff]{2,4}?(?:的)?(?:手机|电脑|系统)?"
    r"(?:了|啦)?[\s，,。！!~]*$"
)
_DEVICE_SWITCH_ZH = re.compile(
    r"^\s*(?:最近|现在|已经|终于|刚|又|上个?月|上周|去年|前几天|前段时间|昨天)*" + _DEVICE_SWITCH
)
# a Chinese clause that opens with an intention ("打算国庆回趟老家", "准备明年考公"), not a
# question ("打算去哪玩？"), a noun ("计划有变", "准备工作都做完了", "计划生育政策") nor readiness
# ("准备好了")
# a Chinese clause that opens with a move from a place, its time before it ("去年从上海搬回老家长沙
# 了", "上个月从北京搬到深圳")
_MOVE_OPENS_ZH = re.compile(
    r"^\s*(?:去年|前年|今年|年初|年底|上个?月|这个?月|上周|前几天|前段时间|最近|刚刚?|已经)*"
    r"从[\u4e00-\u9fffA-Za-z]{1,10}?(?:搬|迁)(?:到|去|回|来)"
)
# "现在居然觉得香菜还挺香的": what the user finds, the user left out; "这阵子迷上了普洱",
# "回来居然爱上香菜了": a taste taken up, the user left out
_FOUND_OPENS_ZH = re.compile(
    r"^(?:现在|如今|最近|后来|这阵子|这段时间|这两年|回来|慢慢)?(?:居然|竟然|反而|倒是|开始|就)?"
    r"(?:觉得|发现|迷上|爱上|喜欢上)"
)
_PLAN_OPENS_ZH = re.compile(
    r"^\s*(?:打算|计划|准备)(?!有变|好|着?呢|中|了|工作|金|生育|书|表|案|期|阶段|的)(?=\S{2,})"
    r"(?!.*[吗呢？?]\W*$)"
)
# a trip taken in place of another, its 我 left out: "只好改成去新加坡" (``is_place`` checks the
# place)
_TRIP_INSTEAD_ZH = re.compile(
    r"^\s*(?:现在|最后|只好|只能|那就|就|还是)*(?P<go>(?:改成|换成)去)"
    r"(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:了|啦|吧)?[。！!]*$"
)
_SUBJECTLESS_CHANGE_ZH = re.compile(
    r"^(?P<t>\s*(?:后来|之后|然后|最近|现在|如今|去年|前年|今年|年初|年底|上个?月|上周|上礼拜|前段时间)?"
    r"(?:又|也|就|已经|早就|刚|刚刚|终于)?)(?=(?:"
    + "|".join(
        (
            r"搬|迁居|跳槽|转行|改喝|改用|改去|调到|调去|入职|回到|回了",
            r"(?:接受|签)了[^，,。的]{1,12}的(?:offer|录用|工作邀请)",
            r"(?:每天)?" + COMMUTE_ZH,  # "现在每天坐公交去公司了": how the user gets to work now
            _DEVICE_SWITCH,  # "终于换苹果了", "换了华为": a device by its maker
        )
    )
    + "))"
)


# "一只叫可乐一只叫雪碧": an enumeration of named ones said without a comma between them
_NAMED_RUN_ZH = re.compile(
    r"(?P<one>(?:另|还有)?一(?:只|个|条|匹)叫[^，,。！？；\s]{1,8}?)(?=(?:另|还有)?一(?:只|个|条|匹)叫)"
)


# "我现在用 Notion 不用 Evernote 了": a verb's object, then the same verb denied with another
# object, said without a comma between them: two clauses ("我不吃羊肉也不吃香菜" is one denial)
_VERB_THEN_NOT_ZH = re.compile(
    r"(?P<one>(?<![不没别])(?P<v>用|喝|吃|住在|住|写|说)\s*[^，,。！？；\s不][^，,。！？；不也还都]{0,19}?)"
    r"\s*(?=不(?P=v))"
)


# "Been a nurse for ten years now", "been renting a flat in Leeds": a job or a home held until
# now, said without its subject
_BEEN_FIRST_EN = re.compile(r"^(?:(?:honestly|well|yeah|so|and),?\s+)?been (?=an? |renting )", re.I)
# "just started at Blue Bottle as a barista", "finally moved to Austin", "joined Stripe last
# week": a change of the user's said without its subject, as chat leaves it out
_CHANGE_FIRST_EN = re.compile(
    # "🎉 starting monday as …": an emoji that opens the sentence is no word of it
    r"^(?:[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]+\s*)?"
    r"(?:(?:honestly|well|yeah|so|and|ok(?:ay)?|update|(?:big |good |great )?news),?:?\s+)*"
    r"(?=(?:(?:just|recently|finally|officially)\s+)?(?:(?:started|joined|moved|relocated"
    r"|transferred|switched)\s+(?:to|at|as|over|from|working)\b"
    # "moved up to senior engineer last month"
    r"|(?:moved|stepped)\s+up\s+to\b"
    # "starting monday as a staff engineer": a job begun on a day
    r"|starting\s+(?:on\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|next\s+week)"
    r"\s+as\b"
    r"|(?:signed|accepted|took)\s+(?:(?:the|an|a|their|my)|(?-i:[A-Z])\S*'s)\s+(?:job\s+)?offer\b"
    # "big news, signed with Delivery Hero": a contract signed with a named company
    r"|signed\s+with\s+(?-i:[A-Z])"
    r"|(?:bought|rented|got|leased|closed on)\s+(?:a|an|our|my|the)\s+(?:\w+\s+)?"
    r"(?:place|house|home|flat|apartment|condo)\s+in\b))",
    re.I,
)
# "big fan of anything by Studio Ghibli": a liking said without its subject
_FAN_FIRST_EN = re.compile(
    r"^(?:(?:honestly|well|yeah|so|and),?\s+)?(?:an?\s+)?(?=(?:(?:big|huge|massive|total)\s+)+fan"
    r"\s+of\b)",
    re.I,
)


def _sentences(text: str) -> list[str]:
    """The sentences of a turn; a second predicate of the user's with its "I" left out is a
    clause of its own, its "I" given back ("I live in Lisbon and work at Siemens" → "I live in
    Lisbon, I work at Siemens"), as is a negated taste the sentence opens with ("Not a fan of
    running" → "I'm not a fan of running")."""
    return [
        _SUBJECTLESS_CHANGE_ZH.sub(
            r"我\g<t>",
            _ELIDED_NEG.sub(
                _subject_given,
                _ELIDED_I.sub(
                    r"\g<head>, I ",
                    _FAN_FIRST_EN.sub(
                        "I'm a ",
                        _BEEN_FIRST_EN.sub(
                            "I've been ", _CHANGE_FIRST_EN.sub("I ", s, count=1), count=1
                        ),
                    ),
                ),
                count=1,
            ),
            count=1,
        )
        for s in _SENTENCE.split(
            _VERB_THEN_NOT_ZH.sub(r"\g<one>，", _NAMED_RUN_ZH.sub(r"\g<one>，", text))
        )
        if s and s.strip()
    ]


# a leading clause of the time from which the main one holds ("After I graduated I moved to
# Berlin", "Since the divorce I live in Leeds", "手术以后我不喝咖啡了"): the main clause is the
# statement, read as if a comma stood between them (a frame of a period or a condition, "when
# I was a kid…", "when it rains I don't run", "上大学的时候…", stays one clause: it scopes what
# follows to then)
_FRAME_EN = re.compile(
    r"^(?P<frame>\W*(?:(?:ever\s+)?since|after|before|once)\s+\S[^,;]*?)"
    r"\s+(?=(?:now\s+|then\s+)?(?:I|I'm|I've|I'd|I'll|we|we're|we've|my)\b)",
    re.I,
)
_FRAME_ZH = re.compile(r"^(?P<frame>[^，,。！？；]{2,16}?(?:以后|之后|以来))(?=我)")


# "…and now I drive a Tesla": an adverb of now before the user's clause is read after it, so
# the clause opens with its subject as the statement it is
_NOW_FIRST_EN = re.compile(
    r"^(?P<now>now|these days|nowadays),?\s+(?=(?:I|I'm|I've|we|we're|my)\b)(?P<rest>.+?)"
    r"(?P<end>[.!]*)$",
    re.I,
)


# two intentions under one verb ("I'm planning to visit Japan in April and to learn the guitar
# this year"): two plans, each with the verb
_TWO_INTENTIONS_EN = re.compile(
    r"^(?P<head>\s*(?:I|we)(?:'m|'re| am| are)? (?:planning|plan|hoping|hope|going|trying|aiming"
    r"|intend|intending|want|wanting) to )(?P<a>.+?),? and (?:(?:also|then) )?to (?P<b>.+)$",
    re.I,
)


def _two_intentions(clause: str) -> list[str]:
    """``clause`` as two when it says two intentions under one verb, else ``[clause]``."""
    m = _TWO_INTENTIONS_EN.match(clause)
    if m is None or len(m["a"].split()) < 2:
        return [clause]  # "planning to cook and to clean today": one errand, its day shared
    return [f"{m['head']}{m['a']}", f"{m['head'].strip()} {m['b']}"]


def _framed(clause: str, first: bool = True) -> list[str]:
    """``clause`` split after a leading frame of time, or ``[clause]``; a clause after the
    first that opens with "now" is read with "now" after it."""
    if not first and (now_first := _NOW_FIRST_EN.match(clause.strip())):
        clause = f"{now_first['rest']} {now_first['now'].lower()}{now_first['end']}"
    m = _FRAME_EN.match(clause) or _FRAME_ZH.match(clause)
    if m is None:
        return [clause]
    return [m["frame"], clause[m.end() :]]


# a taste of the user's said with its object left out or only pointed at, after a clause that
# names the thing ("My wife doesn't like cats, 但是我很喜欢", "我妈讨厌香菜，我倒挺喜欢",
# "My husband doesn't like sushi but I love it", "我妈不喜欢吃鱼，我还挺爱吃的", "my dad 不喝咖啡
# but I drink it every day"): the thing is the object of the verb of taste, eating or drinking
_TASTE_OBJECT = re.compile(
    r"(?:\b(?:(?:lik|lov|hat)(?:e|es|ed)|enjoy(?:s|ed)?|eats?|ate|drinks?|drank)\s+"
    r"|(?:喜欢|爱|讨厌)(?:吃|喝|看|听|玩)?|(?<![喜爱])吃|喝)"
    r"(?P<obj>[^，,。.!！?？;；]{1,30}?)\s*[。.!！]*$",
    re.I,
)
_TASTE_BARE = re.compile(
    r"^(?P<head>\s*(?:但是?|可是|不过|而)?\s*我(?:很|也|挺|超|倒|却|就|还|其实|真的|非常)*"
    r"(?:喜欢|爱|讨厌|不喜欢)(?:吃|喝|看|听|玩)?)(?P<end>的?\s*[。！!.]*)$"
    r"|^(?P<en>\s*(?:(?:but|though|yet|while)\s+)?(?:now\s+)?I\s+(?:(?:\w+ly|do|really|actually)\s+)*"
    r"(?:like|love|adore|enjoy|hate|drink|eat)\s+)(?:it|them|that)\b(?P<rest>.*)$",
    re.I,
)


def _object_given(clauses: list[str]) -> list[str]:
    """``clauses`` with a bare taste of the user's given the object of the clause before it."""
    out = list(clauses)
    for i in range(1, len(out)):
        bare = _TASTE_BARE.match(out[i])
        named = _TASTE_OBJECT.search(out[i - 1])
        if not (bare and named):
            continue
        obj = named["obj"].strip()
        if obj.lower() in ("it", "them", "that", "它", "的"):
            continue
        if bare["en"]:
            out[i] = f"{bare['en']}{obj}{bare['rest']}"
        else:
            out[i] = f"{bare['head']}{obj}{bare['end']}"
    return out


# a cleft of the user's ("it's dogs I'm allergic to", "it's tea that I drink now"): the thing
# put first is the object of the clause after it, read in its place ("I'm allergic to dogs")
_CLEFT_EN = re.compile(
    r"^(?P<lead>\W*(?:(?:but|no|actually|really)\W+)*)it'?s\s+(?:really\s+|actually\s+)?"
    r"(?P<x>(?!not\b)[^,.;!?]{1,30}?)\s+(?:that\s+|which\s+)?"
    r"(?P<s>I'?m|I am|I)\s+(?P<p>[a-z]{2,}(?:\s+(?:to|of|with|into|about|on|in))?)"
    r"(?P<end>\s*(?:now|these days)?\s*[.!]*)$",
    re.I,
)


def _uncleft(clause: str) -> str:
    """``clause`` with a cleft of the user's read in its plain order (``_CLEFT_EN``)."""
    m = _CLEFT_EN.match(clause)
    if m is None:
        return clause
    return f"{m['lead']}{m['s']} {m['p']} {m['x']}{m['end']}"


# a liking said by an idiom ("nothing beats an iced oat latte", "you can't beat a good curry",
# "there's nothing like fresh sourdough"): read as "I love …"
_BEATS_EN = re.compile(
    r"^(?P<lead>\W*(?:(?:honestly|tbh|man|god|ngl|seriously|but|and)\W+)*)"
    r"(?:nothing (?:beats|tops)|(?:you )?can'?t beat|there'?s nothing (?:like|better than)"
    r"|nothing(?:'s| is) better than)\s+"
    # a thing, not a thing for a purpose ("a deadline to focus the mind", "Python for data
    # science", "Amazon on price") nor a virtue ("experience", "hard work")
    r"(?!(?:experience|hard work|practice|patience|family|health|time|sleep|rest|honesty)\b)"
    r"(?P<x>(?:an?\s+|my\s+)?(?:(?!\b(?:to|for|on|at|when|if|in)\b)[^,.;!?]){2,40}?)"
    r"\s*(?P<end>[.!]*)$",
    re.I,
)
# a job said as a state, at a named workplace ("being a nurse at St. Mary's is no joke"): read
# as "I'm a nurse at St. Mary's"
_BEING_EN = re.compile(
    r"^(?P<lead>\W*(?:(?:honestly|tbh|man|ugh|but|and|lol)\W+)*)being "
    # a named workplace ("at St. Mary's", "at Shopify"), not "a CEO at a startup", "a teacher"
    r"(?P<x>(?:an?)\s+[^,.;!?]{2,40}?\s+(?:at|for|with)\s+"
    r"(?-i:[A-Z])(?:[^,.;!?]|\.(?= [A-Z])){1,40}?)"
    r"\s+(?:is|has been|was|can be|gets|sucks|ain'?t|isn'?t)\b[^,.;!?]*(?P<end>[.!]*)$",
    re.I,
)


def _unidiom(clause: str) -> str:
    """``clause`` with a liking or a job said by an idiom read plainly (``_BEATS_EN``,
    ``_BEING_EN``)."""
    if m := _BEATS_EN.match(clause):
        return f"{m['lead']}I love {m['x']}{m['end']}"
    if m := _BEING_EN.match(clause):
        return f"{m['lead']}I'm {m['x']}{m['end']}"
    return clause


# "My name's Jonathan but call me Jay", "I'm Rob, but you can call me Bobby": the name to be
# called by is a clause of its own
_BUT_CALLED = re.compile(
    r",?\s+but\s+(?=(?:please\s+|pls\s+|just\s+)?(?:(?:you can\s+)?call me|i go by)\b"
    # "name's Priyanka but literally everyone calls me Pree": what others call the user
    r"|(?:(?:literally|basically|pretty much|almost|mostly)\s+)?(?:everyone|everybody|people"
    r"|most people|friends|my (?:friends|family|mom|mum|dad|sister|brother|wife|husband|partner)"
    r"|folks)\s+(?:(?:at|in|from|on)\s+(?:the\s+|my\s+)?"
    r"\w+\s+)?(?:\w+\s+)?call(?:s)?\s+me\b)",
    re.I,
)


# what a family name is said to be that is no name: where it comes from ("My last name is
# Polish, so nobody can pronounce it")
_NATIONALITIES: frozenset[str] = frozenset(
    (
       "polish", "irish", "korean", "chinese", "japanese", "german", "french", "italian",
       "spanish", "portuguese", "dutch", "greek", "russian", "indian", "vietnamese", "thai",
       "filipino", "mexican", "scottish", "welsh", "english", "british", "american", "canadian",
       "swedish", "norwegian", "danish", "finnish", "turkish", "arabic", "persian", "hungarian",
       "czech", "ukrainian", "armenian", "lebanese", "nigerian", "jewish", "hebrew", "hawaiian",
       "swiss", "austrian", "belgian", "brazilian", "cuban",
    )
)  # fmt: skip


# a thing said first as the topic of what the user does not do ("辣的完全不碰了", "咖啡我现在一口
# 都不喝了"): what follows it in a value is the comment, not the thing
_TOPIC_KEYS = frozenset(("diet.avoid", "preference.dislikes"))
_TOPIC_TAIL_ZH = re.compile(
    r"(?<=[\u4e00-\u9fff])(?:的)?(?:我|现在|目前|最近|完全|根本|一口|一点|基本|已经|早就|再也)"
    r"[\u4e00-\u9fff]*$"
)


# "我已经改名了，现在身份证上是刘思远": the new name is said in the clause after the change
_NEW_NAME_ZH = re.compile(
    r"((?:改名|更名)(?:字)?了?)[，,]\s*(?=(?:现在|以后|新名字)?(?:身份证上)?(?:叫|是))"
)


# an English clause that opens with the user's own doing, its "I" left out as chat does ("got
# hired as sous chef at Nobu", "just adopted a puppy"): the user's, not a remark beside a fact
_DOING_FIRST_EN = re.compile(
    r"^\W*(?:(?:update|news|so|and|also|btw|finally|just|officially|recently)\W+)*"
    r"(?:got (?:hired|promoted|accepted|married|engaged|diagnosed|a new|a job)|started (?:at|as"
    r"|working)|joined|moved (?:to|up|back|into)|switched (?:to|over)|quit|left|adopted"
    r"|signed (?:with|on|up)|landed a|accepted (?:an?|the) (?:offer|job|position|role)"
    r"|name'?s)\b",
    re.I,
)


def split_clauses(text: str) -> list[list[str]]:
    """Split a turn into sentences, each a list of clauses (punctuation kept on the last)."""
    text = _NEW_NAME_ZH.sub(r"\1", _BUT_CALLED.sub(", ", text))
    return [
        _object_given(
            [
                part
                for n, c in enumerate(
                    _unidiom(_uncleft(c)) for c in _CLAUSE.split(s) if c and c.strip()
                )
                for framed in _framed(c, first=n == 0)
                for part in _two_intentions(framed)
            ]
        )
        for s in _sentences(
            _denied_first(
                _favourite_swapped(_said_here(_name_is(_NUMBER_NOT_NUMBER.sub(", not ", text))))
            )
        )
    ]


# a name with "'s" for "is" or "has" before a verb or a word of how it stands ("Luna's gone",
# "Austin's been home for 4 years", "Biscuit's still with my sister"; "gone" only at the end of
# a clause: "Luna's gone to my mom's" is away, not ended); before a noun it is
# whose ("Luna's bowl") and stays, and "X's not …" is left to the readers of negation, which
# read it as said ("Horror's not for me anymore")
_NAME_IS = re.compile(
    r"(?<![\w'])(?P<name>(?!(?:It|That|What|Here|There|Let|He|She|Who|Where|How|This)')"
    r"[A-Z][a-z]+)'s\s+(?=(?P<verb>been|got|gone(?=\s*(?:[^\w\s']|$))|always|still|now"
    r"|finally|just|back"
    r"|dead|moving|living|staying|working|doing|going|getting)\b)"
)


def _name_is(text: str) -> str:
    """``text`` with a name's "'s" that stands for "is" or "has" written out (``_NAME_IS``):
    "Luna's gone" → "Luna is gone", "Austin's been home" → "Austin has been home"."""
    return _NAME_IS.sub(
        lambda m: f"{m['name']} {'has' if m['verb'] in ('been', 'got') else 'is'} ", text
    )


# who the user is, said as "X here" at the start of a turn ("type 1 diabetic here — what's a
# good snack?", "software engineer at Shopify here", "nurse here, working nights", "Mike here"):
# read as "I'm X"
_SAID_HERE_EN = re.compile(
    r"^(?P<lead>\W*(?:(?:hi|hey|hello|ok|okay|so|well)\W+)*)"
    r"(?P<x>(?!(?:same|nothing|cold|hot|warm|raining|snowing|sunny|quiet|busy|late|early|dark"
    r"|everyone|everybody|nobody|noon|midnight|it|this|that|these|those|my|the|a|an|we|i|you"
    r"|still|also|all|not|no|more|back|over|out|right|just|only|new|first|kinda|kind of|sorta"
    r"|so|very|really|pretty|a bit|totally|lost|confused|stuck|morning|evening|afternoon"
    r"|night|dinner|lunch|breakfast)\b)"
    r"[A-Za-z][\w'.+-]*(?: [\w'.+-]+){0,5}?) here(?=\s*(?:[,.!;:—–]|-\s|$))",
    re.I,
)
# a role said bare ("nurse here", "software engineer at Shopify here") is said with its article
_ROLE_WORD = re.compile(
    r"(?:er|or|ist|ian|ant|ent|ee|nurse|chef|dev|lead|pm|student|mom|dad|parent)$", re.I
)


def _said_here(text: str) -> str:
    """``text`` with a self-introduction said as "X here" at its start read as "I'm X" (a
    role with its article: "I'm a nurse"); unchanged otherwise."""
    m = _SAID_HERE_EN.match(text)
    if m is None:
        return text
    x = m["x"]
    head = re.split(r" (?:at|for|in|with|from|of)\b", x, maxsplit=1)[0].split()[-1]
    article = "a " if x[0].islower() and _ROLE_WORD.search(head) else ""
    return f"{m['lead']}I'm {article}{x}{text[m.end() :]}"


# "I'm 43 not 34": a number said in place of another, a clause of contrast of its own
_NUMBER_NOT_NUMBER = re.compile(r"(?<=\d)\s+not\s+(?=\d)", re.I)

# a favourite replaced, the old one said first ("Coldplay isn't my favourite anymore, it's
# Radiohead these days", "最喜欢的歌手不是周杰伦了，是陈奕迅"): said the way the favourite rules
# read, the new one first ("my favourite is Radiohead now, not Coldplay")
_FAVOURITE_SWAP_EN = re.compile(
    r"(?P<old>\b[\w'&.+-]+(?: [\w'&.+-]+){0,3}?)\s+"
    r"(?:isn't|is not|is no longer|'s not|'s no longer)\s+my\s+(?:favou?rite|fave|fav)"
    r"(?P<what>(?: [\w-]+){0,2}?)(?:\s+any ?more|\s+now)?\s*[,;]\s*"
    r"(?:(?:now\s+)?(?:it's|it is)\s+|now\s+)?(?P<new>[\w'&.+-]+(?: [\w'&.+-]+){0,3}?)"
    r"(?:\s+is)?(?:\s+(?:these days|now|nowadays))?(?=\s*[.!?]|\s*$)",
    re.I,
)
_FAVOURITE_SWAP_ZH = re.compile(
    r"(?:^|(?<=[，,。！!？?；;\s]))(?P<lead>(?:我的?)?(?:现在|目前|如今)?)最(?P<verb>喜欢|爱)的"
    r"(?P<what>[^，,。！!？?]{0,8}?)(?:已经|早就|也)?不(?:再)?是"
    r"(?P<old>[^，,。！!？?]{1,15}?)了?[，,]\s*(?:而|现在|如今|目前)?(?:是|变成了?|换成了?)"
    r"(?P<new>[^，,。！!？?]{1,15}?)了?(?=[，,。！!？?]|$)"
)
_FILLER_EN = re.compile(
    r"^(?:(?:eh|hmm|well|ok|okay|so|honestly|actually|tbh|but|and)\b[\s,]*)+", re.I
)


# a value denied, then the right one said alone ("my name isn't Sam, it's Tom", "I'm not allergic
# to peanuts, it's almonds", "我不是在北京工作，是在深圳"): said the way a correction names both,
# the right one first ("my name is Tom, not Sam", "我是在深圳工作，不是在北京工作")
_DENIED_FIRST_EN = re.compile(
    r"(?P<head>(?:^|(?<=[.!?;,]\s))[^,.;!?]*?)\s*"
    r"\b(?P<neg>isn't|is not|wasn't|was not|'m not|am not|aren't|are not)\s+"
    r"(?P<tail>[^,.;!?]+?)\s*[,;]\s*(?:(?:but|rather|actually)\s+)?"
    r"(?:it's|it is|it was|that's|that is)\s+(?P<new>[^,.;!?]+?)(?=\s*(?:[.!?,;]|\s-\s|$))",
    re.I,
)
_POSITIVE_EN = {
    "isn't": "is",
    "is not": "is",
    "wasn't": "was",
    "was not": "was",
    "'m not": "'m",
    "am not": "am",
    "aren't": "are",
    "are not": "are",
}
_LAST_PREP_EN = re.compile(
    r"^(?P<pre>.*\b(?:to|in|at|of|for|from|with|on|by|as)\s+)(?P<a>[^ ].*)$", re.I
)
_DENIED_FIRST_ZH = re.compile(
    r"(?P<head>(?:^|(?<=[。！!？?；;，,]))[^，,。！!？?；;]*?)(?:并|其实)?不是"
    r"(?P<x>[^，,。！!？?；;]{1,16}?)[，,]\s*"
    r"(?:而|其实|应该)?是(?P<y>[^，,。！!？?；;]{1,16}?)(?=[。！!？?；;]|$)"
)
_NOUNISH = ("n", "ns", "nr", "nt", "nz", "eng", "j")
# what follows "it's" that is no value: someone's, a reason, a degree ("it's my wife's", "it's
# only 10am", "it's just cheap", "it's the sugar")
_NO_VALUE_EN = re.compile(
    r"^(?:my|his|her|their|our|your|the|just|only|too|so|because|not|really|kind of|kinda"
    r"|a bit|pretty|very)\b",
    re.I,
)
# the words of a slip noticed, before a correction ("oops", "sorry", "wait")
_OOPS_EN = r"oh|oops|sorry|no|wait|hmm|ah|nope"
# whose denial: the user's own ("I'm not …", "my name isn't …"), not a boss's or a dish's
_MINE_EN = re.compile(
    rf"^(?:(?:{_OOPS_EN}|actually|well|so)\W+)*(?:I|my (?:(?:first |last "
    r"|full |nick)?name|surname|e-?mail|(?:phone )?number|birthday|city|hometown|job|role|title"
    r"|company|employer|school|major|age|(?:dog|cat|pet|puppy|kitten)'s name))$",
    re.I,
)
_CLEFT_REST_EN = re.compile(r"\b(?:I|I'm|I've|I'd|we|we're|my)\b", re.I)


def _denied_first(text: str) -> str:
    """``text`` with a denial followed by the right value alone said right-first
    (``_DENIED_FIRST_EN``/``_ZH``). The value denied is what follows the last preposition of
    the denial ("allergic to peanuts" → peanuts), or the whole of it ("Sam"); in Chinese,
    only when both open alike ("对花生过敏" / "对芒果过敏"), the right value said short taking
    the denied one's place ("在北京工作" / "在深圳" → "在深圳工作"); else ("不是北京人，是上海人")
    they are read as they are."""

    def en(m: re.Match[str]) -> str:
        tail, new = m.group("tail").strip(), m.group("new").strip()
        prep = _LAST_PREP_EN.match(tail)
        pre, old = (prep.group("pre"), prep.group("a")) if prep else ("", tail)
        if len(old.split()) > 4 or len(new.split()) > 4 or _CLEFT_REST_EN.search(new):
            return m.group(0)  # "it's shellfish I'm allergic to": a cleft, read as one
        if not _MINE_EN.match(m.group("head").strip()) or _NO_VALUE_EN.match(new):
            return m.group(0)  # "my boss isn't Sam", "I'm not hungry, it's only 10am"
        positive = _POSITIVE_EN[m.group("neg").lower()]
        head = m.group("head")
        gap = "" if positive.startswith("'") else " "
        return f"{head.rstrip()}{gap}{positive} {pre}{new}, not {old}"

    def zh(m: re.Match[str]) -> str:
        if semantic.family_subject(m.group("head")) or semantic.is_about_others(m.group("head")):
            return m.group(0)  # "我妈不是在北京工作，是在天津": hers
        x, y = m.group("x"), m.group("y")
        shared = next(
            (i for i, (a, b) in enumerate(zip(x, y, strict=False)) if a != b), min(len(x), len(y))
        )
        rest = y[shared:]
        if not (shared and rest):
            return m.group(0)  # "不是程序员，是设计师": nothing opens both, read as they are
        if len(y) < len(x):
            words = segment.tag(x[shared:])
            noun = next((w for w, flag in words if flag in _NOUNISH), None)
            said = segment.tag(rest)
            if noun is None or len(said) != 1 or said[0][1] not in _NOUNISH:
                return m.group(0)  # "不是在杭州找工作，是在上海找": no noun in the other's place
            y = x[:shared] + x[shared:].replace(noun, rest, 1)
        return f"{m.group('head')}是{y}，不是{x}"

    return _DENIED_FIRST_ZH.sub(zh, _DENIED_FIRST_EN.sub(en, text))


# a value denied and another said in its place ("医生说不是胃炎，是胃酸倒流", "是华科的，不是武
# 大", "it's not a hamster, it's a guinea pig"), or one changed into another ("预算从20万改成15万
# 了"), whatever its key. The key is settled by what the user holds: the old words must name a
# stored value (``tasks.replace_in_place``), so "不是花生，是杏仁" with no peanut stored changes
# nothing.
_DENIED_SAID_ZH = re.compile(
    r"(?P<head>(?:^|(?<=[。！!？?；;，,\s]))[^，,。！!？?；;]*?)(?:并|也)?不是"
    r"(?P<x>[^，,。！!？?；;]{1,16}?)[，,\s]\s*"
    r"(?:而|其实|应该|实际上|就)?是(?P<y>[^，,。！!？?；;]{1,16}?)"
    rf"(?=[。！!？?；;，,~～]|$|{semantic.LATIN_BEFORE_HAN})"
)
_SAID_DENIED_ZH = re.compile(
    r"(?P<head>(?:^|(?<=[。！!？?；;，,\s]))[^，,。！!？?；;]*?)(?<![不还但可于总要倒正只算像])是"
    r"(?P<y>[^，,。！!？?；;是]{1,16}?)[，,\s]\s*(?:而)?不是"
    rf"(?P<x>[^，,。！!？?；;]{{1,16}}?)(?=[。！!？?；;，,~～]|$|{semantic.LATIN_BEFORE_HAN})"
)
_DENIED_SAID_EN = re.compile(
    r"(?P<head>(?:^|(?<=[.!?;,]\s))[^,.;!?]*?)\s*"
    r"\b(?:isn't|is not|wasn't|was not|'s not|'m not|am not|aren't|are not|not)\s+"
    r"(?P<x>[^,.;!?]+?)\s*[,;—–]\s*(?:(?:but|rather|actually)\s+)?"
    r"(?:it's|it is|it was|its|that's|that is|he's|she's|they're|I'm|I am)\s+"
    r"(?P<y>[^,.;!?]+?)(?=\s*(?:[.!?,;]|\s-\s|$))",
    re.I,
)
_SAID_DENIED_EN = re.compile(
    r"(?P<head>(?:^|(?<=[.!?;,]\s))[^,.;!?]*?)\s*\b(?:it's|it is|its|that's|he's|she's)\s+"
    r"(?P<y>[^,.;!?]+?)\s*,?\s+not\s+(?P<x>[^,.;!?]+?)(?=\s*(?:[.!?,;]|$))",
    re.I,
)
_SAID_EDGE_ZH = re.compile(
    r"^(?:其实|应该|就|而|那个|这个)+|(?:的|了|啦|啊|呀|哈+|吧|嘛|呢|哦|喔|噢|哟|[~～!！\s])+$"
)
_SAID_EDGE_EN = re.compile(
    r"^(?:(?:a|an|my|actually|really|just)\s+)+|\s+(?:anymore|now|instead|either|though|lol"
    r"|haha|tbh)$",
    re.I,
)
_SAID_PERSON = re.compile(
    r"[我你他她它]|自己|别人|\b(?:I|me|my|you|your|he|him|his|she|her|they|them|their|we|us|our)\b",
    re.I,
)
# what the denial is about is a cause, not a fact of the user ("问题不是腾讯，是加班太多", "the
# issue isn't Python, it's the deadline"), and a said part that tells how much ("加班太多")
_ABOUT_A_CAUSE = re.compile(
    r"问题|原因|关键|麻烦|毛病|主要|重点|\b(?:problem|issue|reason|point|trouble|thing)\b", re.I
)
_SAID_DEGREE = re.compile(r"太|很|非常|特别|越来越|[多少]了|\b(?:too|so|very)\b", re.I)
_SAID_NEGATION = re.compile(r"不|没|别|\b(?:no|not|never)\b|n't\b", re.I)


# one thing changed into another, both named ("预算从20万改成15万了", "安卓换成苹果了", "moved
# the standup from Monday to Wednesday", "swapped my Pixel for an iPhone")
_SWITCHED_ZH = re.compile(
    r"(?P<head>(?:^|(?<=[。！!？?；;，,\s]))[^，,。！!？?；;从由]*?)(?:从|由)?"
    r"(?P<x>[^，,。！!？?；;从由]{1,12}?)"
    r"(?:改成|换成|改为|换为|变成|改到|换到|调到|挪到|推到|转成|转去了?|转到|跳槽到|跳到|跳去)"
    r"(?P<y>[^，,。！!？?；;]{1,12}?)(?=[。！!？?；;，,~～]|$)"
)
_SWITCHED_EN = re.compile(
    r"(?P<head>(?:^|(?<=[.!?;,]\s))[^,.;!?]*?)\b(?:from\s+(?P<x>[^,.;!?]+?)\s+to"
    r"|(?:swapped|traded|replaced|switched)\s+(?P<x2>[^,.;!?]+?)\s+(?:for|with))\s+"
    r"(?P<y>[^,.;!?]+?)(?=\s*(?:[.!?,;]|\s-\s|$))",
    re.I,
)


# the words that open a correction in Chinese ("不对，", "打错了，", "不好意思，")
_SLIP_WORDS_ZH = (
    r"哦|噢|啊|呃|嗯|不对|错了|说错了|打错了|写错了|记错了|口误|更正一下|更正|纠正一下|"
    r"不好意思|抱歉|等等"
)
# the words that open a correction in English, beside "oops", "sorry"…
_SLIP_WORDS_EN = (
    r"actually|well|so|correction|typo|my bad|nvm|nevermind|never mind|turns out|ok|okay"
)
# what may stand before a correction of the user's own, in its clause: nothing, the words of a
# slip or a correction, the user ("我", "I'm"), the user's thing by its word ("我手机", "预算", "my
# email"), or — for a condition — a doctor's finding ("医生说"); nothing else ("这批货",
# "the cough", "For my daughter it", "哈哈")
_OWN_HEAD_ZH = re.compile(
    rf"^(?:(?:{_SLIP_WORDS_ZH})[，,\s]*)*(?:其实|应该)?(?:把)?(?:我们?家?的?)?(?:{OWN_THING_ZH})?"
    r"(?:其实|应该|本来)?$"
)
_REPORT_HEAD_EN = re.compile(
    r"^(?:(?:the|my) )?doc(?:tor)?s? (?:says|said|thinks)(?: that)?(?: it)?$", re.I
)
_REPORT_HEAD_ZH = re.compile(
    r"^(?=.)(?:医生|大夫)?(?:复查|复诊|覆诊|检查|诊断|看了|查了)?(?:结果)?(?:说|讲|话|显示)?$"
)
# a pet's name put right ("sorry, his name isn't Rex, it's Max"): only the name of a pet is
# corrected so
_PET_NAME_HEAD = re.compile(
    rf"^(?:(?:{_OOPS_EN}|actually|well|so)\W+)*(?:(?:his|her|its|(?:my |the )?(?:dog|cat|puppy"
    r"|kitten|pet)'s) name)$",
    re.I,
)
# what is before a correction in the turn that says nothing: the words of a slip ("wait,",
# "sorry —", "不对，")
_ONLY_OOPS = re.compile(rf"^\W*(?:(?:{_OOPS_EN}|{_SLIP_WORDS_EN}|{_SLIP_WORDS_ZH})\W*)*$", re.I)
_OWN_HEAD_EN = re.compile(
    rf"^(?:(?:{_OOPS_EN}|{_SLIP_WORDS_EN})(?:\W+|$))*"
    r"(?:it|that|I|I'm|I am|my (?:(?:first |last |full |nick)?name|surname|e-?mail"
    r"|(?:phone )?number|birthday|city|hometown|job|role|title|company|employer|school|major"
    r"|budget|allergy|diet|drink|language))?$",
    re.I,
)
# a turn whose "not X, Y" or "from X to Y" is not the user putting their own fact right: a
# question, a wish or a what-if, a quote, a joke, a time only, a secret
_NOT_SAID_AS_SO = re.compile(
    r"[“”「」『』\"]|会不会|要不要|是不是|是否|你是说|还是说|如果|假如|假设|假設|要是|万一|的话|"
    r"考虑|建议|还没决定|打算|想把|想从|对对对|行了吧|是啦是啦|是是是|係呀係呀|写着|唱|标题|台词|"
    r"[?？]\W*$|吗\W*$|\b(?:if|imagine|might|maybe|someday|thinking about|considering|should"
    r"|could|would|did you|do you|you mean|yeah right|oh sure|sure,|label|line|headline|lyrics?"
    r"|read|wish|dream\w*)\b|可能|也许|或许|梦|是呀是呀|对呀对呀",
    re.I,
)
_FOR_NOW_OR_SECRET = re.compile(
    r"[?？]|今天|今晚|这周|本周|这次|这趟|这两天|密码|口令|"
    r"\b(?:today|tonight|this week|this time|password|passcode|pin)\b",
    re.I,
)
# more than one thing said in the new part, or the old one said as one of several
_SAID_SEVERAL = re.compile(
    r"和|跟|及|以及|还有|也|、|\b(?:and|also|plus|as well)\b|/|&|只|仅|\b(?:only|just|alone)\b",
    re.I,
)


def may_put_right(text: str) -> bool:
    """False for a turn that cannot be the user putting their own fact right, whatever it names:
    a question, a wish, a what-if, a quote, a joke (``said_as_not_so``), a time only or a secret
    (``_FOR_NOW_OR_SECRET``)."""
    return not (_FOR_NOW_OR_SECRET.search(text) or said_as_not_so(text))


def said_as_not_so(text: str) -> bool:
    """True for a turn whose "not X, Y" is no one's statement of fact: a question, a wish, a
    what-if, a quote, a joke (``_NOT_SAID_AS_SO``, ``semantic.is_hypothetical``)."""
    return bool(_NOT_SAID_AS_SO.search(text) or semantic.is_hypothetical(text))


def thing_denied(text: str) -> bool:
    """True if a "不是X，是Y" / "isn't X, it's Y" of ``text`` is said of something other than
    the user: a thing, someone, a cause ("这批货不是上海的，是广州的", "The cough isn't asthma,
    it's a cold", "问题不是腾讯，是加班太多"), not of the user or the user's thing by its word."""
    for pattern, zh in ((_DENIED_SAID_ZH, True), (_DENIED_SAID_EN, False)):
        for m in pattern.finditer(text):
            head = m.group("head").strip()
            if _PET_NAME_HEAD.match(head):
                continue  # "his name isn't Rex, it's Max": the pet's
            own = (_OWN_HEAD_ZH if zh else _OWN_HEAD_EN).match(head) or (
                (_REPORT_HEAD_ZH if zh else _REPORT_HEAD_EN).match(head)
            )
            if not own or semantic.someone_elses(head) or _ABOUT_A_CAUSE.search(head):
                return True
    return False


def said_in_place(text: str) -> list[tuple[str, str]]:
    """``(old, new)`` word pairs of ``text`` (simplified Chinese or English) where the user
    puts their own fact right in one breath: a denial and what holds, either order ("不是胃炎，
    是胃酸倒流" → ("胃炎", "胃酸倒流"); "it's almonds, not peanuts" → ("peanuts", "almonds")),
    or a change that names both ("预算从20万改成15万了" → ("20万", "15万")). Leading and
    trailing small words and particles are cut, and the words that only place a value in its
    slot (``values.bare_value``: "我手机安卓" → 安卓, "allergic to peanuts" → peanuts).

    Kept only when nothing but the user, the user's thing or the words of a slip stand before
    it in its clause (``_OWN_HEAD_ZH``/``_EN``; a doctor's finding for a condition, or a pet's
    name said by "his name", which the old part then opens with "report:" or "pet:"), nothing
    before or after it in the turn is about
    someone else,
    and the turn is no question, wish, what-if, quote, joke, time only or secret
    (``may_put_right``); the new part names no person, negates nothing, tells no degree, is
    one thing, and is a value ("it's the sugar", ``_NO_VALUE_EN``). The old words are not
    checked against anything here: the caller keeps a pair only when they are a stored value."""
    if not may_put_right(text):
        return []
    pairs = []
    for pattern, zh in (
        (_DENIED_SAID_ZH, True),
        (_SAID_DENIED_ZH, True),
        (_SWITCHED_ZH, True),
        (_DENIED_SAID_EN, False),
        (_SAID_DENIED_EN, False),
        (_SWITCHED_EN, False),
    ):
        edge = _SAID_EDGE_ZH if zh else _SAID_EDGE_EN
        for m in pattern.finditer(text):
            head, before = m.group("head").strip(), text[: m.start()]
            if not _ONLY_OOPS.match(before) and (
                semantic.someone_elses(before) or not semantic.own_subject(before)
            ):
                continue  # "我妈去看了医生，医生说不是…", "Ordered for Jake: not green tea…"
            if semantic.someone_elses(text[m.end() :]):
                continue  # "Not Google, it's Meta - that's where my wife works"
            report = bool((_REPORT_HEAD_ZH if zh else _REPORT_HEAD_EN).match(head))
            pet = bool(_PET_NAME_HEAD.match(head))
            if not (report or pet or (_OWN_HEAD_ZH if zh else _OWN_HEAD_EN).match(head)):
                continue
            if not pet and (semantic.someone_elses(head) or _ABOUT_A_CAUSE.search(head)):
                continue
            old = m.group("x") or m.groupdict().get("x2") or ""
            x, y = edge.sub("", old.strip()), edge.sub("", m.group("y").strip())
            x, y = bare_value(x), bare_value(y)
            if not zh and _NO_VALUE_EN.match(y):
                continue
            if not x or not y or x.lower() == y.lower():
                continue
            if _SAID_PERSON.search(y) or _SAID_NEGATION.search(y) or _SAID_DEGREE.search(y):
                continue
            if _SAID_SEVERAL.search(y) or _SAID_SEVERAL.search(x):
                continue
            if (len(y) > 12) if zh else (len(y.split()) > 4):
                continue
            pairs.append((("report:" if report else "pet:" if pet else "") + x, y))
    return pairs


# a correction that names what was wrong by its word alone ("Wrong city, it's Porto.", "you got
# the wrong email, it's …"): said as the slip it is ("I gave you the wrong city, it's Porto"),
# which names its fact by that word (``values._TOPIC_KEYS``)
_KEY_NAMED_WRONG_EN = re.compile(
    rf"(?:^|(?<=[.!?;]\s))(?:(?:{_OOPS_EN})\W+)*"
    r"(?:you (?:got|have) (?:the |my )?|that's the |that is the )?wrong\s+"
    r"(?P<noun>city|name|e-?mail(?: address)?|(?:phone )?number|hometown|company|job|school"
    r"|birthday)\s*[,;:.!—-]*\s*(?P<said>(?:it's|it is|its|should be|it should be)\s+[^,.;!?]+?)"
    r"(?=\s*(?:[.!?,;]|$))",
    re.I,
)


def _key_named_wrong(text: str) -> str:
    """``text`` with a correction that names its fact by a word alone ("Wrong city, it's
    Porto.") said as a slip ("I gave you the wrong city, it's Porto")."""
    return _KEY_NAMED_WRONG_EN.sub(
        lambda m: f"I gave you the wrong {m.group('noun')}, {m.group('said')}", text
    )


def _favourite_swapped(text: str) -> str:
    """``text`` with a favourite replaced said new-first (``_FAVOURITE_SWAP_EN``/``_ZH``)."""

    def en(m: re.Match[str]) -> str:
        if _NO_VALUE_EN.match(m.group("new")):
            return m.group(0)  # "it's my wife's favourite", "it's just cheap"
        old = _FILLER_EN.sub("", m.group("old"))
        return f"my favourite{m.group('what')} is {m.group('new')} now, not {old}"

    def zh(m: re.Match[str]) -> str:
        what, new, old = m.group("what"), m.group("new"), m.group("old")
        return f"{m.group('lead')}最{m.group('verb')}的{what}是{new}，不是{old}了"

    return _FAVOURITE_SWAP_ZH.sub(zh, _FAVOURITE_SWAP_EN.sub(en, text))


def _lang(text: str) -> Lang:
    return "zh" if _HAN.search(text) else "en"


# the part of a change that names what it replaced ("switched to green tea instead of coffee",
# "做的是产品而不是测试了"): no fact of now; `_contrasts` reads it from the turn
_REPLACED_TAIL = re.compile(r"\s+(?:instead of|rather than)\s+\S.*$|\s*而不是\S.*$", re.I)


# "swapped Coke for sparkling water", "traded my Kindle for a Kobo", "replaced Slack with
# Teams": the thing after "for"/"with" is the new one, as in "switched from X to Y"
_SWAP_EN = re.compile(
    r"\b(?:(?:swapped|traded|exchanged|ditched|dumped)\s+(?:out\s+)?(?:my\s+|the\s+)?"
    r"(?P<a>[^,.;:!?，。]+?)\s+for|replaced\s+(?:my\s+|the\s+)?(?P<b>[^,.;:!?，。]+?)\s+with)\s+"
    r"(?!(?:an?\s+)?(?:new|another|different|one)\b)",
    re.I,
)
# "Python has completely replaced R for me": the new thing said first
_REPLACED_BY_EN = re.compile(
    r"^(?P<new>(?-i:[A-Z])[\w.+#-]*(?: (?-i:[A-Z])[\w.+#-]*)?) (?:has |have )?(?:completely |fully "
    r"|totally |basically |pretty much )?replaced (?P<old>(?-i:[A-Z])[\w.+#-]*(?: (?-i:[A-Z])"
    r"[\w.+#-]*)?)(?: for me\b)?(?=\s*(?:$|[,.;!]))",
    re.I,
)


# "I'm a nurse so nights are rough": a consequence with a subject and verb of its own, not the
# adverb of "so tired", "so much"; the rules read the clause before it when the whole forms
# nothing (the classifier still reads the whole: "I'm 6'4\" so airline seats are torture")
_CONSEQUENCE_EN = re.compile(
    r"\s+so\s+(?!that\b)(?:(?:the|this|it|it's|its|there|there's|everything|nothing|he|she"
    r"|they|his|her|their)\b|(?:[\w'-]+\s+){1,3}(?:is|are|was|were|has|have|will|gets|means)\b)"
    r".*$",
    re.I,
)


def _make_clause(raw: str, now_turn: Turn) -> _Clause:
    lang = _lang(raw)
    text = _clean_zh(raw) if lang == "zh" else _clean_en(raw)
    if semantic.has_change_cue(raw):
        text = _REPLACED_TAIL.sub("", text) or text
    marker = bool((_MARKER_ZH if lang == "zh" else _MARKER_EN).search(raw))
    return _Clause(text, raw, lang, marker, find_date(text, now_turn.occurred_at))


# a clause written in English with Chinese words in it ("My birthday is 11月3号"): its
# grammar is English, whatever script its words are in
_EN_GRAMMAR = re.compile(r"^(?:[A-Za-z][\w']*\s+){2,}")


def _apply(
    clause: _Clause, state: _State, *, skip: tuple[str, ...] = ()
) -> tuple[str, list[ExtractedFact]] | None:
    found = _apply_in(clause, state, skip, clause.lang)
    if found is None and clause.lang == "zh":
        m = _ZH_FRAME_EN.match(clause.text)  # "我是vegetarian": "I'm vegetarian"
        if m and not (m.group("verb") == "是" and m.group("v").isupper()):  # "我是INTJ": no name
            said = f"{_ZH_FRAME_VERB[m.group('verb')]} {m.group('v')}"
            found = _apply_in(dataclasses.replace(clause, text=said, lang="en"), state, skip, "en")
            if found is not None:
                return found
        m = _ZH_SUBJECT_EN.match(clause.text)  # "我现在 based in Singapore", "我 love 火锅"
        if m and all(_is_noun_zh(run) for run in _HAN_RUN.findall(m.group("rest"))):
            adverb = _ZH_ADVERB_EN.get(m.group("when") or "", "")
            for head in ("I", "I'm"):
                said = " ".join(w for w in (head, adverb, m.group("rest")) if w)
                english = dataclasses.replace(clause, text=said, lang="en")
                found = (
                    _apply_named(english, state, skip)
                    if _HAN.search(said)
                    else _apply_in(english, state, skip, "en")
                )
                if found is not None:
                    return found
        english = dataclasses.replace(clause, text=_clean_en(clause.raw), lang="en")
        if _EN_GRAMMAR.match(english.text):
            found = _apply_in(english, state, skip, "en") or _apply_named(english, state, skip)
    return found


# a Chinese verb of being or having whose whole object is in Latin letters: the English
# clause says the same ("我是vegetarian", "我是Anna", "我有asthma")
_ZH_FRAME_VERB = {"是": "I'm", "有": "I have"}
_ZH_FRAME_EN = re.compile(r"^我(?:也|还)?(?P<verb>是|有)\s*(?P<v>[A-Za-z][A-Za-z' -]*[A-Za-z])$")

# a Chinese subject before an English predicate ("我现在 based in Singapore", "我 work from
# home"): the English clause with its subject said in English
_ZH_ADVERB_EN = {"现在": "now", "目前": "currently", "最近": "recently", "一直": "always"}
_ZH_SUBJECT_EN = re.compile(
    r"^我\s*(?P<when>现在|目前|最近|一直)?\s*(?P<rest>[A-Za-z][A-Za-z']*\s.*)$"
)

_HAN_RUN = re.compile(r"[\u4e00-\u9fff]+")


def _is_noun_zh(run: str) -> bool:
    """A run of Chinese that can stand as a name in an English clause ("火锅", "字节"), not a
    Chinese predicate of its own ("用中文跟你聊")."""
    words = segment.tag(run)
    return len(run) <= 6 and bool(words) and words[0][1][:1] in ("n", "j", "s")


_STAND_IN = re.compile(r"\bQzh([a-z])\b", re.I)


def _apply_named(
    clause: _Clause, state: _State, skip: tuple[str, ...]
) -> tuple[str, list[ExtractedFact]] | None:
    """An English clause whose names are Chinese ("I work at 字节", "I graduated from 浙大 in
    2018"): the English patterns find a name by its capital, so each run of Chinese characters
    is read as a name standing in its place, and put back in what the clause forms."""
    runs = _HAN_RUN.findall(clause.text)
    if not runs or len(runs) > 3:
        return None
    named = iter(f"Qzh{chr(ord('a') + i)}" for i in range(len(runs)))
    text = _HAN_RUN.sub(lambda _: next(named), clause.text)
    before = {key: len(items) for key, items in state.pending.items()}
    date = find_date(text, state.turn.occurred_at)  # the date's place in the text read
    found = _apply_in(dataclasses.replace(clause, text=text, date=date), state, skip, "en")

    def back(value: str) -> str:
        return _STAND_IN.sub(lambda m: runs[ord(m.group(1).lower()) - ord("a")], value)

    for key, items in state.pending.items():
        items[before.get(key, 0) :] = [(back(v), back(c)) for v, c in items[before.get(key, 0) :]]
    if found is None:
        return None
    for fact in found[1]:
        fact.content = back(fact.content)
        fact.value = back(fact.value) if fact.value else fact.value
        fact.retracts = [back(r) for r in fact.retracts]
    # a Chinese word in a job's slot is a job when it ends like a Chinese job title
    kept = [
        f
        for f in found[1]
        if not (f.key == "work.role" and f.value and _HAN.search(f.value))
        or semantic.work_role_zh("是" + f.value) == f.value
    ]
    if not kept and found[1]:
        return None
    return found[0], kept


def _apply_in(
    clause: _Clause, state: _State, skip: tuple[str, ...], lang: Lang
) -> tuple[str, list[ExtractedFact]] | None:
    """The first rule of ``lang`` that reads ``clause``: its family and the facts it forms."""
    for rule in RULES:
        if rule.lang != lang or rule.family in skip:
            continue
        if rule.after is not None and state.last_family != rule.after:
            continue
        m = rule.pattern.search(clause.text)
        if m is None:
            continue
        facts = rule.build(m, clause, state)
        if facts is not None:
            return rule.family, facts
    return None


# a verb of working or living whose place is only pointed at: the key of the place meant
_THERE_PROBE = (
    (re.compile(r"\bwork(?:ing)? (?:over )?there$|在(?:那边|那里|那儿)(?:上班|工作)了?$", re.I),
     "work.employer"),
    (re.compile(r"\bliv(?:e|ing) (?:over )?there$|(?:住在?(?:那边|那里|那儿)|那边住)了?$", re.I),
     "residence.city"),
)  # fmt: skip


def _negate(clause: _Clause, state: _State) -> bool:
    """Probe a negative clause in its positive form; what it asserts becomes pending."""
    for lang, pattern, positive in _NEGATIONS:
        m = pattern.match(clause.text)
        if lang != clause.lang or m is None:
            continue
        probe = _Clause(m.expand(positive), clause.raw, lang, False, clause.date)
        scratch = _State(state.turn, state.has_task)  # the probe must not touch real state
        found = _apply(probe, scratch, skip=("event", "plan", "constraint", "decision", "quit"))
        content = _content(clause)
        if not found or not found[1]:
            # "I don't work there anymore", "不在那边上班了": the place pointed at is the one held
            key = next((k for rx, k in _THERE_PROBE if rx.search(probe.text)), None)
            if key is None:
                return False
            state.pending.setdefault(key, []).append(("there", content))
            state.correction = True
            return True
        for fact in found[1]:
            if fact.key and fact.value:
                state.pending.setdefault(fact.key, []).append((fact.value, content))
        state.correction = True
        if lang == "en":
            state.neg_prefix = re.sub(r"\s+(?:not|no longer)\s.*$", " ", clause.text, flags=re.I)
        return True
    return False


def _leftovers(state: _State) -> list[ExtractedFact]:
    """Withdrawn values no later fact replaced: one retraction fact per key (value ``None``)."""
    facts = []
    for key, items in state.pending.items():
        contents = [c for _, c in items if c]
        if not contents:
            continue
        spec = key_spec(key)
        facts.append(
            ExtractedFact(
                type=spec.type if spec else "fact",  # type: ignore[arg-type]
                content=contents[-1],
                key=key,
                value=None,
                is_correction=True,
                retracts=[_as_retracted(v) for v, _ in items],
                message_ids=[state.turn.message_id],
                metadata={"retraction": True},
            )
        )
    return facts


_SECRET_KINDS = {
    "finance.card": re.compile(r"\bcard\b|卡", re.I),
    "account.password": re.compile(r"\bpassword\b|密码", re.I),
    "identity.document": re.compile(r"\bpassport\b|护照|身份证", re.I),
}


def _guessed_keyless(f: ExtractedFact) -> bool:
    """True if ``f`` is a fact with no key the key-family classifier guessed."""
    return f.key is None and f.value is None and f.metadata.get("formed_by") == "classifier"


# words of writing software: "I code in Java at work" names a language, not a place
_CODES = re.compile(
    r"\b(?:code|coding|program\w*|develop\w*|writ\w*|script\w*)\b|写|编程|开发", re.I
)
_MOVE_DONE_EN = re.compile(r"\b(?:finished|done|finally done) moving (?=(?:to|into)\b)", re.I)


def extract_turn(turn: Turn, *, has_task: bool = False) -> list[ExtractedFact]:
    """The facts one user turn states, in order (``[]`` for other roles and for small talk).

    Blocking: clauses no rule matched are classified with the in-process embedder
    (``semantic``), so call it from a worker thread inside an event loop.
    """
    if turn.role != "user" or not turn.content.strip():
        return []
    turn = dataclasses.replace(turn, content=spelling.fix(turn.content))  # "i wrk at", "住再"
    unswapped = _SWAP_EN.sub(lambda m: f"switched from {m['a'] or m['b']} to ", turn.content)
    unswapped = _REPLACED_BY_EN.sub(
        lambda m: f"I switched from {m['old']} to {m['new']}", unswapped
    )
    turn = dataclasses.replace(turn, content=unswapped)  # "swapped X for Y": X is what ended
    # "Just finished moving to Salt Lake City!!": a move done, as "just moved to"
    turn = dataclasses.replace(turn, content=_MOVE_DONE_EN.sub("moved ", turn.content))
    turn = dataclasses.replace(turn, content=_key_named_wrong(turn.content))  # "Wrong city, …"
    if (cut := standing.material_start(turn.content)) is not None:
        # "translate this into Spanish: I live near the river…": the text to work on is not
        # the user's statement; the request before the colon stays, read as a one-off task
        turn = dataclasses.replace(turn, content=turn.content[:cut] + " …")
    # 'Translate "I live in Paris" into Spanish': the quoted text is the task's, not the user's
    # ("我家橘猫叫“大黄”": a short name in quotes is read as said plainly)
    content = standing.unquoted_names(standing.without_quoted_material(turn.content))
    turn = dataclasses.replace(turn, content=content)
    turn = dataclasses.replace(turn, content=_secret_said_later(turn.content))
    turn = dataclasses.replace(turn, content=_number_said_later(turn.content))
    state = _State(turn, has_task)
    facts: list[ExtractedFact] = []
    leftovers: list[tuple[int, _Clause, bool]] = []  # (insert position, clause, correction)
    sentence_of: list[int] = []  # the sentence of each leftover
    bare: dict[int, int] = {}  # leftover → its sentence, for clauses with no subject
    formed: set[int] = set()  # sentences the rules formed a fact from
    ruled_where: dict[int, set[str]] = {}  # sentence → the place keys its rules formed
    # sentences that take back what the user said of themselves → the first clause doing so
    denying: dict[int, int] = {}
    clause_at: dict[int, int] = {}  # leftover → its clause's index in its sentence
    for sid, sentence in enumerate(split_clauses(turn.content)):
        state.new_sentence()
        subject = False
        # "如果我搬到深圳…", "if I ever burn out I might…", "Oh great, I just love queues":
        # nothing is so, up to a clause that resumes with "but I…"
        sentence = sentence[semantic.unmeant(sentence) :]
        if not sentence:
            continue
        relative: str | None = None  # the family member the sentence is about
        others = False  # the sentence is about someone outside the family, until "I…"
        pet = False  # a pet was named: the clauses after it without a subject are about it
        sentence = _only_after_denial(sentence)  # "I don't speak French, only English"
        ruled, read = _standing_rules(sentence, state)  # "Bullet points please, always."
        if len(ruled) == 1 and _reason_of_a_rule(ruled[0], facts):
            ruled = []  # ("i hate tables, never use them": a request beside it, a rule)
        if ruled:
            facts.extend(ruled)
            formed.add(sid)
        for i, raw in enumerate(sentence):
            if sid not in denying and semantic.denies(raw, sentence[0]):
                denying[sid] = i  # "…not allergic to X — got tested last week": an explanation
            if i in read:
                continue
            if is_noise(raw):
                state.last_family = None
                continue
            if named := _pet_name(raw, state):
                facts.extend(named)  # "…got a puppy! His name is Taco": the pet's, not a person's
                continue
            introduced = semantic.introduced_relative(sentence[i - 1]) if i else None
            if introduced and not semantic.own_subject(raw):
                # "我有个双胞胎妹妹，在成都读大学", "I have an older brother, works at Google,
                # lives in Austin": the relative just named is the subject, up to the user's
                # own next clause
                relative = introduced
                name_only = (
                    _lang(raw) != "zh" and _BARE_NAME.fullmatch(raw.strip(" ,.!")) is not None
                )
                clause = _make_clause(_said_of(introduced, raw, name_only), turn)
                # the introducing clause formed the member; a bare relation is not formed twice
                for f in _about_relative(clause, state, introduced):
                    if f.key == "family.member" and f.value == introduced:
                        continue
                    if f.key is None and name_only:
                        continue  # a name only names them
                    if f.key == "family.member":
                        f.metadata.setdefault("relation", introduced)
                    facts.append(f)
                continue
            if (reason := _reason_said(raw)) is not None:
                if (who := semantic.family_subject(reason)) is not None:
                    # "bc my partner got a job at Amazon": the partner is named; what they did
                    # is why the user changed, no fact of its own (nor of the user's)
                    relative = who
                    told = _about_relative(_make_clause(reason, turn), state, who)
                    facts.extend(f for f in told if f.key is not None)
                    continue
                if not _USER_PRONOUN.match(reason):
                    continue  # "因为 Notion 太慢了", "bc the rent went up": why, no fact of theirs
            # "明天下午三点同事约了客户开会": whose doing it is, said after when
            after_when = _LEADING_WHEN_ZH.sub("", raw, count=1)
            if (
                (
                    semantic.is_about_others(raw)
                    or (after_when != raw and semantic.is_about_others(after_when))
                )
                and not _THEIRS_OURS.match(raw)
                and not _REACHED_BY.search(raw)
                # "朋友们都叫我小林子", "my friends call me CJ": what others call the user
                and not _CALLED_BY_OTHERS.search(raw)
            ):
                relative, others = None, True
                continue
            if others and not semantic.own_subject(raw) and not _BUDGET_SAID.search(raw):
                # "老板换号了，新号码…": still the boss's; but "老板批了，budget 提到 8 万": the
                # budget those who approve it set is the user's project's (``_THEIRS_OURS``)
                continue
            others = False
            if plan_ahead_en(raw):
                # "working late tonight", "visiting my parents over Christmas": the user's
                raw = as_the_users_en(raw)
            who = semantic.family_subject(raw)
            if who is not None and re.search(r"\bcalls?\s+me\s+[A-Z]", raw):
                who = None  # "my family calls me Peggy": what the user is called, by them
            if who is not None:
                # the clauses up to the user's own next clause are about them, too
                # ("My mom, Rosa, is turning 70")
                more = itertools.takewhile(lambda c: not semantic.own_subject(c), sentence[i + 1 :])
                whole = ", ".join([raw.rstrip(" ,，"), *[c.strip(" ,，") for c in more]])
                relative = who
                told = _about_relative(_make_clause(whole, turn), state, who)
                if _why_of_a_change(whole, sentence[:i]):
                    # "搬到深圳了，老公在那边找了份工作", "relocated to Nashville, my mom's
                    # health isn't great": the relative is named, what they did is why
                    told = [f for f in told if f.key is not None]
                facts.extend(told)
                continue
            if relative is not None and not semantic.own_subject(raw):
                continue  # "…, so recipes need to be nut-free": still about them
            if pet and not (semantic.own_subject(raw) or semantic.is_naming(raw)):
                continue  # "我家兔子叫布丁，三岁了": the pet's age, not the user's
            # "Pescatarian for about 6 years": a diet said first is the user's
            signal = has_memory_signal(raw) or semantic.diet_first(raw)
            if (
                not (signal or subject)
                and (i or _DEVICE_SWITCH_ZH.match(raw))  # "换了苹果，因为…": the turn opens by it
                and _SUBJECTLESS_CHANGE_ZH.match(raw)
                and not re.search(r"吧\W*$", raw)
                # "年会不在三亚了，换成杭州": the gathering named before is what changed
                and not any(semantic.gathering_named(c) for c in sentence[:i])
            ):
                # "太胖了，改喝无糖豆浆": a change with no subject after a clause about nothing
                # else's doing (a relative's or another's sentence was left above) is the user's;
                # "算了，改用TiDB吧" proposes a change, no doing of the user's
                raw = _SUBJECTLESS_CHANGE_ZH.sub(r"我\g<t>", raw, count=1)
                signal = True
            if (
                not (signal or subject)
                and (trip := _TRIP_INSTEAD_ZH.match(raw))
                and segment.is_place(trip.group("v"))
                and not any(semantic.gathering_named(c) for c in sentence[:i])
            ):
                # "日本的旅行取消了，改成去泰国": a trip to a place in place of the one dropped
                # ("改成去健身房", "改成去游泳": no place, a doing; "公司原定的团建取消了，改成去
                # 莫干山": the outing's place, not a trip of the user's)
                raw = "我" + raw[trip.start("go") :].strip()
                signal = True
            if not (signal or subject) and (
                _PLAN_OPENS_ZH.match(raw)
                or _MOVE_OPENS_ZH.match(raw)
                or _FOUND_OPENS_ZH.match(raw)
                # a turn that moves a plan is read as a move (``_moves``; ``plan_ahead``)
                or (plan_ahead_zh(raw) and not semantic.moves_plan(turn.content))
            ):
                # "打算国庆回趟老家", "去年从上海搬回老家长沙了": the user's plan or move, its 我
                # left out
                raw = "我" + raw.strip()
                signal = True
            if (not (signal or subject) or (subject and not semantic.own_subject(raw))) and (
                opens := _LIFE_OPENS_EN.match(raw)
            ):
                # "got promoted to senior last week!!", "moved to Denver in May": English
                # leaves the user out before a turn of their life, and after a clause of theirs
                # ("I quit coffee, switched to green tea in the mornings")
                raw = "I " + raw[opens.end() :].strip()
                signal = True
            if not (signal or subject) and (borrowed := _borrowed_subject(raw, turn, state)):
                # "最近搬去了Seattle", "现在住 Oakland": Chinese leaves the user out, and a
                # name in Latin letters is no word the classifier's segmenter can place
                state.last_family = borrowed[0]
                facts.extend(borrowed[1])
                formed.add(sid)
                subject = True
                continue
            if not (signal or subject):
                if semantic.is_about_user(raw):
                    if not _DOING_FIRST_EN.match(raw):
                        bare[len(leftovers)] = sid
                    clause_at[len(leftovers)] = i
                    leftovers.append((len(facts), _make_clause(raw, turn), state.correction))
                    sentence_of.append(sid)
                continue
            clause = _make_clause(raw, turn)
            clause.borrowed = subject and not signal
            subject = True
            if state.neg_prefix and re.match(r"^\s*(?:but|rather|instead)\b", raw, re.I):
                clause.text = state.neg_prefix + re.sub(r"^(?:I'm|I am)\s+", "", clause.text)
            state.correction = state.correction or clause.marker
            found = _apply(clause, state)
            if found is None and (head := _CONSEQUENCE_EN.sub("", raw)) != raw:
                head_clause = _make_clause(head, turn)
                head_clause.borrowed = clause.borrowed
                found = _apply(head_clause, state)
            if found is None and not semantic.own_subject(raw):
                found = _borrowed_subject(raw, turn, state)  # "其实我改名了，现在叫 Jennifer Wang"
            if found is None:
                if not _negate(clause, state):
                    state.last_family = None
                    if semantic.is_about_user(raw):
                        clause_at[len(leftovers)] = i
                        leftovers.append((len(facts), clause, state.correction))
                        sentence_of.append(sid)
                continue
            family_name, new = found
            state.last_family = family_name
            pet = pet or any(f.key == "pets.name" for f in new)
            facts.extend(new)
            if new:
                formed.add(sid)
                ruled_where.setdefault(sid, set()).update(
                    f.key for f in new if f.key in _WHERE_KEYS
                )
    # a subject-less clause ("no contest", "wish me luck") beside a formed fact adds nothing
    # and one after a denial explains it ("…not allergic to penicillin, got tested last week")
    kept = [
        (item, sentence_of[n])
        for n, item in enumerate(leftovers)
        if bare.get(n) not in formed
        # "差点把咖啡戒了", "I almost quit Stripe": what nearly happened is nothing to keep
        and not semantic.ALMOST.search(item[1].raw)
        and not (
            sentence_of[n] in denying
            and clause_at[n] > denying[sentence_of[n]]
            and not semantic.own_subject(item[1].raw)
            and not semantic.has_change_cue(item[1].raw)
            # "考研不考了，想了想还是直接找工作吧": what is done instead, no explanation
            and not _INSTEAD.search(item[1].raw)
        )
    ]
    if kept:
        guessed = _semantic([item for item, _ in kept], state)
        # a clause with no subject that only adds a detail to a fact its sentence formed
        # under the same key ("我下个月要去成都出差，待一周") is no second fact
        stated = {
            (kept[i][1], f.key)
            for i, _, made in guessed
            if semantic.own_subject(kept[i][0][1].raw)
            for f in made
        }
        guessed = [
            (i, pos, made)
            for i, pos, made in guessed
            if semantic.own_subject(kept[i][0][1].raw)
            or not made
            or any(f.value or (kept[i][1], f.key) not in stated for f in made)
        ]
        # nor is a clause with no subject and no change that names a spot within the place a
        # rule of its sentence formed ("我住在杭州，就在西湖边上": 杭州 stays the home)
        guessed = [
            (i, pos, kept_made)
            for i, pos, made in guessed
            if (
                kept_made := [
                    f
                    for f in made
                    if not _A_SPOT_ZH.match(kept[i][0][1].raw.strip())
                    or f.key not in ruled_where.get(kept[i][1], set())
                ]
            )
            or not made
        ]
        # what each sentence's clauses formed alone: a whole sentence adds only other keys
        keys: dict[int, set[str | None]] = {}
        for i, _, made in guessed:
            keys.setdefault(kept[i][1], set()).update(f.key for f in made)
        # a place a clause formed alone is not formed again under another place's key by the
        # whole sentence ("Since my company opened an office there, I've been living in
        # Lisbon": Lisbon is where the user lives, not also where they work)
        places = {f.value.lower() for f in facts if f.value and f.key in _WHERE_KEYS} | {
            f.value.lower()
            for _, _, made in guessed
            for f in made
            if f.value and f.key in _WHERE_KEYS
        }
        alone = {kept[i][1]: 0 for i, _, _ in guessed}
        for i, _, _ in guessed:
            alone[kept[i][1]] += 1
        merged = _whole_sentences(
            kept, formed | {sid for sid, n in alone.items() if n == len(_of(kept, sid))}, turn
        )
        for i, pos, made in _semantic([item for item, _ in merged], state):
            gone = {q.lower() for q in semantic.quit_objects(merged[i][0][1].raw)}
            added = [
                f
                for f in made
                if f.key is not None
                and f.key not in keys.get(merged[i][1], set())
                # a plan and an event are one happening said twice ("job interview at Stripe
                # on thursday, super nervous": the event formed alone, the sentence no plan)
                and not (f.key in _TIMED_KEYS and keys.get(merged[i][1], set()) & _TIMED_KEYS)
                and not (f.key in _WHERE_KEYS and f.value and f.value.lower() in places)
                and not (f.value and f.value.lower() in gone and f.key != "diet.avoid")
            ]  # what the sentence gives up is a withdrawal (and avoided), not a new fact
            if added:
                guessed.append((i, pos, added))
        for _, pos, made in sorted(guessed, key=lambda f: f[1], reverse=True):
            facts[pos:pos] = made
    covered = {r for f in facts for r in f.retracts}
    facts += [f for f in _leftovers(state) if not set(f.retracts) <= covered]
    # "在那边负责…", "我在单位还负责招人": a place pointed at is no employer; "so exhausted
    # today", "我感冒了": how the user feels is no condition or event; "不爱吃东西": no thing
    facts = [
        f
        for f in facts
        if not (
            (f.key in _WORKPLACE_KEYS and f.value and semantic.is_generic_place(f.value))
            # "我在 Java 组", "I'm on the Payments team": a word naming a team is part of
            # the team's name, not the employer
            or (f.key == "work.employer" and f.value and _a_team(f.value, f.content))
            or (
                f.key in _PASSING_KEYS
                and semantic.passing_state(f.value or f.content, where=f.value is None)
            )
            or (f.key in _THING_KEYS and f.value and semantic.names_nothing(f.value))
            # "please don't call me that", "别用了": a request about what was just said
            or (f.key == "assistant.constraint" and standing.points_back(f.value or f.content))
            # "还是叫我名字吧": the word for a name is no name of the user's
            or (
                f.key in _NAME_KEYS
                and bool(f.value)
                and _NAME_WORD.fullmatch(_ADDRESS.sub("", f.value or "")) is not None
            )
            # "I rarely drink coffee", "我很少喝咖啡": had seldom, neither had nor avoided
            or (f.value and f.key not in _DEGREE_KEYS and semantic.seldom(f.content))
            # "我想多练练", "想去走走": a verb said twice for a try names nothing to do
            or (f.key == "plan" and bool(f.value) and bool(_A_TRY.fullmatch(f.value or "")))
            # "I didn't go to the gym today": what did not happen is no event
            or (f.key == "event" and bool(_NOT_HAPPENED.match(f.value or f.content)))
            # "I sold the Toyota": a thing given up is withdrawn, not a fact the user holds
            or (_guessed_keyless(f) and bool(semantic.quit_objects(f.content)))
            or _ill_formed(f, turn.content)
        )
    ]
    facts = _own_secrets(turn, facts + _secrets_detected(turn, facts))
    if secrets := {f.key for f in facts if f.key in _SECRET_KINDS and f.value}:
        # "I got a new card, the number is …": the clause naming the kind is the value's label
        facts = [
            f
            for f in facts
            if not (
                _guessed_keyless(f) and any(_SECRET_KINDS[k].search(f.content) for k in secrets)
            )
        ]
    # "I don't drink coffee at night", "我晚上不喝咖啡": a habit of when, not a food avoided
    # (one whose time was read as a date, "after 8pm", keeps no habit: its words are lost)
    timed = [
        f
        for f in facts
        if f.key == "diet.avoid"
        and f.value
        and (semantic.time_scoped(f.value) or semantic.time_scoped(f.content))
    ]
    for f in timed:
        f.key, f.type, f.value = "schedule.habit", "preference", _norm(f.content, None)
    facts = [f for f in facts if not (f in timed and re.search(r"\b\d{4}\b", f.content))]
    # "搬去 Singapore 了，公司外派": the place moved to is no employer; "moved for my partner's
    # job": another's job is no work of the user's
    places = {f.value.lower() for f in facts if f.key in _PLACE_KEYS and f.value}
    facts = [
        f
        for f in facts
        if not (f.key == "work.employer" and (f.value or "").lower() in places)
        and not (f.key in _WORK_KEYS and _OTHERS_JOB.search(f.content))
    ]
    # "英文我看着累", "my French is rusty": a language the user finds hard or speaks weakly is
    # no language or rule of theirs; "at work we use Java": a tool used because it must be is
    # no preference; "Mike's email", "pet sitting my friend's dog": someone else's
    facts = [
        f
        for f in facts
        if not (_LANGUAGE_HARD.match(f.content) or _LANGUAGE_HARD.match(f.value or ""))
        and not (
            f.key in _LANGUAGE_SKILL_KEYS and f.value and semantic.weak_skill(turn.content, f.value)
        )
        and not (
            f.key == "tech.preferred"
            and f.value
            and semantic.obliged_tool(_sentence_with(turn.content, f.value), f.value)
        )
        and not (
            f.key in _OWNED_KEYS
            and f.value
            and semantic.others_thing(" ".join(_sentence_with(turn.content, f.value)), f.value)
        )
        # "I was born in December": a month, a holiday or a verb is no place (rule-formed
        # places too, as ``semantic.fits`` checks the classifier's)
        and not (f.key in _PLACE_KEYS and f.value and not semantic.fits(f.key, f.value))
        # "my sister got a beagle, named her Pepper": a pronoun names no member or pet
        and not (f.key in ("family.member", "pets.name") and semantic.is_pronoun(f.value or ""))
        # "I joined Slack's beta program", "Just joined the Arc browser waitlist": a programme
        # or a club joined is no workplace, said with its name or after it
        and not (
            f.key == "work.employer"
            and f.value
            and not (
                semantic.fits(f.key, f.value)
                and semantic.fits(f.key, _value_and_rest(turn.content, f.value))
            )
        )
        # "我前夫叫王磊": a partner of before is no member of the family now; "Tom and I split
        # up a few weeks ago": the parting ends the partner (``_ended``), it is no event
        and not (
            f.key == "family.member"
            and f.value
            and semantic.names_an_ex(_clause_with(turn.content, f.value), f.value)
        )
        and not (
            f.key == "event"
            and f.value
            and semantic.parted_unnamed(_clause_with(turn.content, f.value))
        )
    ]
    facts = _pronouns_named(turn, facts)
    facts = _not_now(facts)
    facts = _one_plan(facts)
    facts = _not_tools(facts)
    facts = _complaints_answered(_rules_requested(facts, turn.content))
    _added_duties(turn, facts)
    _duties(turn, facts)
    facts = _no_habit_of_work(turn, facts)
    facts += _implied(turn, facts)
    facts += _answer_language(turn, facts)
    _change_cues(turn, facts)
    facts = _old_address_beside_new(turn, facts)
    # "I don't use tom@old.example anymore, it's tom@new.example now": an address given up is
    # no address of the user's; the new one retracts it
    facts = [
        f
        for f in facts
        if not (
            f.key in ("contact.email", "contact.phone")
            and f.value
            and f.value.lower() in {r.lower() for r in f.retracts}
        )
    ]
    # "我其实不吃素", "I don't eat vegan": a diet not followed is no food avoided
    facts = [
        f for f in facts if not (f.key == "diet.avoid" and f.value and semantic.names_diet(f.value))
    ]
    _dated_as_said(turn, facts)
    # "I haven't smoked in two years": nothing happens on a date; what ended is withdrawn
    not_done = [
        f for f in facts if f.key in ("event", "plan") and semantic.not_since(f.value or "")
    ]
    facts = [f for f in facts if f not in not_done]
    if retracts := [r for f in not_done for r in f.retracts]:
        facts.append(
            dataclasses.replace(_withdrawal_record(turn, {"retraction": True}), retracts=retracts)
        )
    facts = _beside_a_switch(turn, facts)
    facts = _not_called(turn, facts)
    facts += _routine_then_now(turn, facts)
    facts += _moved_alone(turn, facts)
    _moves(turn, facts)
    _contrasts(turn, facts)
    facts += _renamed(turn, facts)
    if abstained := _abstained(turn, facts):
        # "我一点辣都不能吃": the thing named stands for the classifier's guess with none
        facts = [f for f in facts if not (f.key == "diet.avoid" and not f.value)] + abstained
    facts += _liking_ended(turn, facts)
    facts += _address_withdrawn(turn, facts)
    facts += _age_by_birthday(turn, facts)
    facts = _name_restated(turn, facts)
    facts = _all_now(turn, _switched_drink(facts))
    facts += _withdrawal(turn, facts)
    facts = _liking_taken_up(turn, facts)
    facts = _job_left(turn, facts)
    facts = _past_job_ended(turn, facts)
    facts = _changed_to_name(turn, _now_holds(turn, facts))
    facts = _taken_back(turn, facts)
    facts = _surname_dropped(_one_per_name(_pet_named(_named_in_passing(facts)), turn.content))
    facts = _named_once(facts)
    _where_it_went(turn.content, facts)
    facts = _city_before_firm(facts)
    # "今天破个例，…": that an exception is made is no happening of its own
    facts = [
        f
        for f in facts
        if not (f.key in ("event", "plan") and f.value and semantic.only_exception(f.value))
    ]
    for f in facts:
        if f.key == "schedule.habit" and f.value:
            f.value = _HABIT_COPULA.sub(r"\g<when>", f.value)  # "每天是走路上班": 每天走路上班
            f.value = _HABIT_ADVERB.sub(r"\g<when>", f.value)  # "周末还会游泳": 周末游泳
        if f.key == "plan" and f.value:
            f.value = plan_as_done(f.value)  # "打算明年去日本": 明年去日本
        if f.key in _TOPIC_KEYS:
            # "辣的我现在完全不碰了": the thing is the topic, not what is said of it after
            f.value = f.value and _TOPIC_TAIL_ZH.sub("", f.value)
            f.retracts = [_TOPIC_TAIL_ZH.sub("", r) or r for r in f.retracts]
    for f in facts:
        now_holds = f.metadata.get("now_holds") is not None
        if f.key is None and f.value and now_holds and semantic.names_diet(f.value):
            f.key, f.type = "diet.style", "preference"  # "Mediterranean now.": the diet kept now
            f.metadata = {k: v for k, v in f.metadata.items() if k not in ("now_holds", "strong")}
            f.metadata["replaces"] = True
        elif f.key is None and f.value and now_holds and tool_kind(f.value):
            f.key, f.type = "tech.preferred", "preference"  # "it's all Postgres now": a tool
            f.metadata = {k: v for k, v in f.metadata.items() if k not in ("now_holds", "strong")}
            f.metadata["replaces"] = SAME_KIND
    facts += _diets_taken_up(turn, facts)
    for f in facts:
        if (
            f.key == "work.location"
            and semantic.TECH.match(f.value or "")
            and _CODES.search(_clause_with(turn.content, f.value or ""))
        ):
            f.key, f.type = "tech.preferred", "preference"  # "I code in Java at work": a tool
    # "I went vegan for a month in 2019", "昨天试了一天素食": a diet had once is not the diet held
    facts = [
        f
        for f in facts
        if not (
            f.key == "diet.style"
            and f.value
            and semantic.diet_not_now(_clause_with(turn.content, f.value))
        )
    ]
    if diets_ended := [
        r
        for f in facts
        if f.key not in ("diet.style", "diet.avoid")
        for r in f.retracts
        if semantic.names_diet(r)
    ]:
        # "素不吃了，最近体检查出贫血": the diet given up is withdrawn as the diet, not as the
        # condition said beside it
        for f in facts:
            if f.key not in ("diet.style", "diet.avoid"):
                f.retracts = [r for r in f.retracts if not semantic.names_diet(r)]
                f.is_correction = f.is_correction and bool(f.retracts or f.value is None)
        facts.append(
            ExtractedFact(
                type="preference",
                content=_turn_content(turn.content),
                key="diet.avoid",  # made the diet's own withdrawal just below
                value=None,
                is_correction=True,
                retracts=list(dict.fromkeys(diets_ended)),
                message_ids=[turn.message_id],
                metadata={"retraction": True},
            )
        )
    for f in facts:
        if f.key == "diet.avoid" and not f.value and any(map(semantic.names_diet, f.retracts)):
            # "不再吃素了" gives up the diet (stored as 素食, "吃素"), no avoided food
            f.key = "diet.style"
            f.retracts += ["素食"] if any("素" in r for r in f.retracts) else []
    if missed := semantic.missed(turn.content):
        # "好久没吃火锅了，好想吃": a thing missed is still liked, nothing is given up
        facts = [f for f in facts if f.value and not f.retracts]
    ended = [] if missed else _ended(turn, facts)
    if ability := _ability_denied(turn, facts):
        # one record: it ends what it names, and takes back the ability of the previous turn
        ability[0].metadata.update(ended[0].metadata if ended else {})
        ended = ability
    if forgotten := _kind_forgotten(turn):
        # "forget my email", "把我手机号删了": every value held of that kind is withdrawn
        forgotten_keys = {f.key for f in forgotten}
        facts = [f for f in facts if f.key not in forgotten_keys or f.value] + forgotten
    if kind := _kind_ended(turn, facts):
        # "That email is dead now, I don't use it anymore": what ended is named by its kind;
        # the records of an ending that names nothing stand aside
        def unnamed(f: ExtractedFact) -> bool:
            return f.value is None and f.key != kind.key and bool(f.metadata.get("retraction"))

        facts = [f for f in facts if not unnamed(f)] + [f for f in ended if not unnamed(f)]
        return _finished(turn, [*facts, kind])
    facts = facts + ended
    # the doing taken up goes first: stored before the record of what ended, that record then
    # holds nothing more than it and is archived (``ArbitrationService._said_beside``)
    facts = _finished(turn, _especially(_taste_now(turn, _doing_instead(turn, facts) + facts)))
    if renamed := _pet_renamed_en(turn.content):
        for fact in facts:
            if fact.key in (None, "pets.name") and fact.value == renamed.group("new"):
                fact.metadata["renamed_from"] = RENAMED_PET  # "we renamed her Mochi"
    facts = [f for f in facts if not _moved_not_mine(f)]
    if semantic.meant_a_thing(turn.content):
        # "我问的是北京的房价，不是上海的": what was asked about, nothing of the user's denied
        facts = [f for f in facts if not f.metadata.get("retraction")]
    # "差点把咖啡戒了", "I nearly moved to Berlin": what nearly happened did not
    return [f for f in facts if f.type == "constraint" or not semantic.ALMOST.search(f.content)]


def _finished(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """The turn's facts as returned: a day's exception left out (``_not_for_today``), rules of
    consecutive sentences joined (``_rules_joined``), rules in the order of a request
    (``_rules_verb_first``), happenings gone by told as another fact's backstory left out
    (``_backstory``)."""
    return _backstory(
        _rules_verb_first(_rules_joined(_not_for_today(turn, _role_taken_up(turn, facts))))
    )


# a job or team moved to, in a turn that ends one ("no longer in sales, moved over to ops",
# "不当老师了，改做教研"): the ending names a department or team, or a job; what follows the
# verb of moving is a lower-case English name (a capitalised one is a place or a firm), or 2–6
# Chinese characters after 改做 / 转做 / 改当
_DEPARTMENTS_EN = (
    r"(?:sales|marketing|ops|operations|engineering|finance|accounting|hr|legal|support"
    r"|customer service|qa|design|product|research|it|admin|procurement|logistics|data"
    r"|security|compliance|pr|communications|editorial|recruiting)"
)
_ROLE_ENDED = re.compile(
    rf"\b(?:no longer|not)\s+(?:in|on|doing)\s+(?:the\s+)?(?:{_DEPARTMENTS_EN}\b(?:\s+team)?"
    r"|[a-z]+(?: [a-z]+)?\s+(?:team|department|dept)\b)"
    rf"|不(?:再)?(?:当|做|干)(?:{_JOB_ZH})了",
    re.I,
)
_ROLE_MOVED = re.compile(
    r"\b(?:moved|switched|transferred|shifted)(?: over| across)? (?:to|into) (?:the )?"
    rf"(?P<en>(?-i:{_DEPARTMENTS_EN}|[a-z][a-z&/ -]{{1,30}}? (?:team|department|dept)))"
    r"(?= team| side| department| dept|\s*(?:[,.;!]|$|\b(?:now|instead|since|and|but)\b))"
    r"|(?:改|转)(?:做|当|干)了?(?P<zh>[\u4e00-\u9fff]{2,6}?)(?:了|啦)?(?=[，,。！!；;\s]|$)",
    re.I,
)


def _role_taken_up(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """``facts`` and the job or team a turn says the user moved to (``_ROLE_MOVED``) after it
    ends a job, a department or a team (``_ROLE_ENDED``), as the role — when the turn formed no
    role, home or work place itself and the name is no place nor a value of its other facts.
    "not on the night shift anymore, moved to days" and "不喝奶茶了，改做咖啡了" end no job."""
    if not _ROLE_ENDED.search(turn.content) or any(
        f.key in ("work.role", "residence.city", "work.location") and f.value for f in facts
    ):
        return facts
    m = _ROLE_MOVED.search(turn.content)
    if m is None or any(
        check(turn.content)
        for check in (semantic.is_about_others, semantic.someone_elses, semantic.family_subject)
    ):
        return facts
    value = (m["en"] or m["zh"] or "").strip()
    if (
        not value
        or segment.is_place(value)
        or any(f.value and f.value.lower() == value.lower() for f in facts)
    ):
        return facts
    zh = bool(m["zh"])
    return [
        *facts,
        ExtractedFact(
            type="profile",
            content=semantic.describe("work.role", value, zh),
            key="work.role",
            value=value,
            is_correction=True,
            message_ids=[turn.message_id],
        ),
    ]


def _not_for_today(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """``facts`` without a food or drink left out for the day or the night only ("今天不喝茶了，
    喝了两杯了", "今晚不喝酒了", ``_for_today_only``): nothing given up, nothing it retracts."""
    return [
        f
        for f in facts
        if not (
            f.key == "diet.avoid"
            and f.value
            and _for_today_only(_clause_with(turn.content, f.value))
        )
    ]


# a clause that names the one most meant of what the clause before it said ("我喜欢吃辣的，尤其
# 是四川菜", "I love Italian food, especially pasta")
_ESPECIALLY = re.compile(r"^\W*(?:尤其是|特别是|尤其|特别|especially|particularly|esp\.?)\s*", re.I)


def _especially(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A fact read from a clause that only names what is most meant of the fact before it
    ("…，尤其是四川菜" after "喜欢吃辣的") takes that fact's key and type, its value without the
    lead word: one more value of the same taste, never a key of its own by guess (a drink)."""
    for before, fact in itertools.pairwise(facts):
        lead = _ESPECIALLY.match(fact.content)
        if lead is None or not before.key or not before.key.startswith(("preference.", "diet.")):
            continue
        value = _ESPECIALLY.sub("", fact.value or fact.content).strip(" 。.!！")
        if not value:
            continue
        fact.key, fact.type, fact.value = before.key, before.type, value
        fact.content = f"{before.content}，尤其是{value}" if _HAN.search(value) else fact.content
        fact.metadata.pop("family", None)
    return facts


def _rules_joined(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A rule for the assistant said in the sentence after another rule of the turn and going
    on with it ("No disclaimers. Just answer.", ``standing.joins``) is one rule with it, as in
    one sentence: its words join the first's value and content."""
    out: list[ExtractedFact] = []
    last: ExtractedFact | None = None
    for f in facts:
        rule = f.metadata.get("formed_by") == "standing_rule" and bool(f.value)
        if rule and last is not None and standing.joins(last.content, f.content):
            sep = "，" if _HAN.search(last.content) else ", "
            last.value = f"{last.value}{sep}{f.value}"
            last.content = f"{last.content}{sep}{f.content}"
            last.message_ids = list(dict.fromkeys([*last.message_ids, *f.message_ids]))
            continue
        last = f if rule and not f.metadata.get("cancels") else last
        out.append(f)
    return out


def _rules_verb_first(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A rule for the assistant said topic first ("翻译就别加了") keeps the order of a request
    as its value and content ("别加翻译", ``standing.verb_first``); the readers before this
    one matched it against the turn's words as said."""
    for f in facts:
        if f.metadata.get("formed_by") == "standing_rule" and f.value:
            f.value, f.content = standing.verb_first(f.value), standing.verb_first(f.content)
    return facts


# the key of each kind of secret detection finds (app/privacy/detect.py)
_DETECTED_KEYS = {
    "password": "account.password",
    "id_document": "identity.document",
    "cn_id": "identity.document",
    "us_ssn": "identity.document",
    "bank_card": "finance.card",
}
# a code sent to log in once, or to pick up a parcel: nothing to keep
_ONE_TIME = re.compile(
    r"验证码|动态码|动态密码|临时密码|一次性密码|校验码|取件码|取货码"
    r"|(?<![A-Za-z])(?:one[- ]?time|verification|confirmation|otp|2fa|sms|temporary)"
    r"\s+(?:code|pin|passcode|password)|(?<![A-Za-z])(?:login\s+(?:code|pin)|otp)(?![A-Za-z])",
    re.I,
)
# a sentence whose secret is not the user's own to keep: someone else's ("Sam's wifi
# password", "帮我妈填表"), one sent or texted, one for a time only, an example, a test or
# default value, a story, a hypothesis, an order's number
_NOT_OWN = re.compile(
    r"(?-i:(?<![A-Za-z])(?!(?:I|It|That|What|Here|There|Let|He|She)')[A-Z][a-z]+'s\b)"
    r"|\b(?:client|customer|friend|boss|colleague|coworker|mom|mum|dad|mother|father|wife"
    r"|husband|son|daughter|sister|brother|partner|kid|neighbou?r|grandma|grandpa|his|her|their"
    r"|sent me|texted|emailed me|they sent|only|this weekend|temporar\w*"
    r"|example|e\.g\.|such as|sample|test\w*|sandbox|placeholder|default|dummy|fake"
    r"|tonight|just for|for the night"
    r"|movie|film|novel|story|book|game|once upon|if|were|suppose|imagine|order|tracking)\b"
    r"|妈|爸|老婆|老公|儿子|女儿|朋友|同事|老板|客户|他的|她的|别人|发来|发的|临时|这次|比如|例如|示例"
    r"|测试|默认|小说|电影|故事|假如|如果|假设|订单|单号|快递|物流|举例|教程|今晚",
    re.I,
)
# or one no longer in use ("My old card … was cancelled", "我以前的密码是…"), unless the
# sentence gives the new one ("the old passport expired, new number is …")
_NO_LONGER = re.compile(
    r"\b(?:old|previous|former|used to|cancell?ed|expired|no longer|deactivated|lost|stolen)\b"
    r"|以前|之前|旧|挂失|注销|作废|不用了|停用|过期",
    re.I,
)
_RENEWING = re.compile(r"\bnew\b|新|换成|改成|改为", re.I)


def _not_kept(sentence: str) -> bool:
    """Whether the secret a sentence gives is not the user's own to keep (``_NOT_OWN``, a
    one-time code ``_ONE_TIME``, ``_NO_LONGER`` without ``_RENEWING``)."""
    return bool(
        _NOT_OWN.search(sentence)
        or _ONE_TIME.search(sentence)
        or (_NO_LONGER.search(sentence) and not _RENEWING.search(sentence))
    )


def _own_secrets(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """``facts`` without the secrets (of ``_SECRET_KINDS``) whose sentence says they are not
    the user's own to keep (``_not_kept``): "Sam's wifi password is …", "the test card 4242…",
    "My old card … was cancelled", "小说里主角的密码是…". The turn stays sealed."""
    kept = []
    for f in facts:
        value = f.value or ""
        at = turn.content.find(value) if f.key in _SECRET_KINDS and value else -1
        if at >= 0:
            head = re.split(r"[.!?。！？\n]\s*", turn.content[:at])[-1]
            tail = re.split(r"[.!?。！？\n](?:\s|$)", turn.content[at + len(value) :])[0]
            if _not_kept(f"{head} {tail}"):
                continue
        kept.append(f)
    return kept


def _secrets_detected(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """The user's own secrets detection finds in the turn (``detect``: a password, a PIN or
    a code, a document's or a card's number) that no rule formed, each under its key
    (``_DETECTED_KEYS``), its value sealed and its content the clause that gives it, masked.
    However the sentence is worded, a secret the service seals is a secret it keeps. Not one
    in a question or of someone else ("my mom's pin is …"); ``_own_secrets`` then keeps only
    the user's own, in use."""
    have = {re.sub(r"[\s-]", "", f.value) for f in facts if f.value}
    out: list[ExtractedFact] = []
    for found in detect(turn.content):
        key = _DETECTED_KEYS.get(found.kind)
        compact = re.sub(r"[\s-]", "", found.value)
        if key is None or compact in have:
            continue
        starts = [m.end() for m in semantic.CLAUSE_END.finditer(turn.content, 0, found.start)]
        start = starts[-1] if starts else 0
        # the clause that gives it, from the one before when it only names the value
        end_m = semantic.CLAUSE_END.search(turn.content, found.end)
        end = end_m.start() if end_m else len(turn.content)
        if len(re.findall(r"[A-Za-z]+|[\u4e00-\u9fff]", turn.content[start : found.start])) < 3:
            start = starts[-2] if len(starts) > 1 else 0  # "passcode? its 7314": its keyword
        clause = turn.content[start:end].strip()
        if (
            is_question(clause)
            or semantic.is_about_others(clause)
            or semantic.family_subject(clause) is not None
        ):
            continue
        have.add(compact)
        content = clause.replace(found.value, _mask(found.value, key))
        out.append(
            ExtractedFact(
                type="profile",
                content=_turn_content(content),
                key=key,
                value=found.value,
                message_ids=[turn.message_id],
                metadata={"sensitivity": "secret"},
            )
        )
    return out


# a name in Latin letters inside Chinese: "Seattle", "VS Code", "Jennifer Wang"
_LATIN_NAME_IN_ZH = re.compile(r"(?:^|[^A-Za-z])[A-Z][A-Za-z0-9.+#'-]*")


def _borrowed_subject(
    raw: str, turn: Turn, state: _State
) -> tuple[str, list[ExtractedFact]] | None:
    """A clause with no subject, read by the rules with the user as its subject: a Chinese
    one whose value is a name in Latin letters ("最近搬去了Seattle" → "我最近搬去了Seattle"; the
    classifier's isolation finds a value by the segmenter's tags, which give a Latin word no
    place or organisation), or an English "now at/in X" after a clause of the user's ("I left
    ByteDance, now at Google"). A clause no rule reads is left to the classifier as before."""
    if not semantic.is_about_user(raw):
        return None
    if _lang(raw) == "zh" and _LATIN_NAME_IN_ZH.search(raw) and not _LATIN_FIRST.match(raw):
        # (a clause that opens with the name has it as its topic: "Notion 太卡")
        said = "我" + raw.strip()
    elif _lang(raw) == "zh" and _TURNED_TO_ZH.match(raw.strip()):
        # "转后端了", "后来转产品了": a verb of turning to a job, the user's own
        said = "我" + raw.strip()
    elif m := _NOW_AT_EN.match(raw.strip()):
        # "I left ByteDance, now at Google": works there now; "…, now in Leeds": lives there
        verb = "I now work" if m.group("at").lower() in ("at", "with") else "I'm now based"
        said = f"{verb} {m.group('at').split()[-1]} {raw.strip()[m.end('at') :].strip()}"
    else:
        return None
    clause = _make_clause(said, turn)
    clause.raw = raw
    # a scratch copy: a clause no rule reads leaves the sentence's state as it was
    scratch = dataclasses.replace(
        state, pending={key: list(items) for key, items in state.pending.items()}
    )
    found = _apply(clause, scratch)
    if found and any(f.key in _PLACE_KEYS for f in found[1]) and _ALL_MOVED.search(raw):
        return None  # "照片全部迁到 iCloud 了": things moved, not the user
    if not found or not found[1]:
        found = _at_work_now(raw, clause, scratch)
    if not found or not found[1]:
        return None
    state.pending, state.correction = scratch.pending, scratch.correction or clause.marker
    return found


# a verb of turning to a job, with no subject ("后来转产品了"); 转到 moves a place or a tool
_TURNED_TO_ZH = re.compile(
    r"(?:现在|最近|已经|后来|刚刚?|也|又|正式)*转(?:岗|行)?(?:做|成|为)?(?!到)"
)
_LATIN_FIRST = re.compile(r"\s*(?:现在|目前|最近|一直)?\s*[A-Za-z]")
# "全部迁到", "都搬到": what is moved is all of something, not the user's home
_ALL_MOVED = re.compile(r"(?:全|都)[^，,。]{0,2}(?:搬|迁)")


# an English clause of where the user is now, its subject left out after a clause of theirs
_NOW_AT_EN = re.compile(
    r"^(?:(?:and|but)\s+)?now (?P<at>at|in|with|based in|living in)\s+(?=[A-Z\u4e00-\u9fff])"
)


# where the user is now, by a name in Latin letters: "现在在 Google", "目前在 Lumen AI 了"
_AT_LATIN_NOW = re.compile(
    r"^(?:现在|目前|如今|已经|又)+在\s*"
    r"(?P<org>[A-Z][A-Za-z0-9&.-]*(?: [A-Z][A-Za-z0-9&.-]*){0,2})\s*(?:了|啦)?$"
)
# a turn about a job: "离职", "跳槽", "换工作", "不在 X 了", "上班", "公司", "offer"
_JOB_TALK = re.compile(r"离职|辞职|跳槽|工作|上班|入职|公司|offer|\bjob\b|不在", re.I)


def _at_work_now(
    raw: str, clause: _Clause, state: _State
) -> tuple[str, list[ExtractedFact]] | None:
    """A subject-less "现在在 X" with X a Latin name is the employer of now when the turn
    speaks of a job or an employer is being withdrawn ("已经离职了，现在在 ByteDance",
    "我已经不在 Microsoft 了，现在在 Google"); alone it could be a spot ("现在在 Costco")."""
    m = _AT_LATIN_NOW.match(_ZH_TAIL.sub("", clause.text[1:]) + "了")
    if m is None or semantic.TECH.match(m.group("org")):
        return None
    if "work.employer" not in state.pending and not _JOB_TALK.search(state.turn.content):
        return None
    org = m.group("org")
    fact = _fact(state, clause, "work.employer", org, f"在{org}工作", correction=True)
    return "work", [fact]


# a clause that only gives a name: "His name is Taco", "it's called Clover", "叫豆豆"
_NAMING = re.compile(
    r"^(?:(?:his|her|its) name(?:'s| is)|(?:he|she|it)(?:'s| is) (?:called|named))\s+[A-Z]"
    r"|^(?:它|他|她)?(?:的名字)?(?:取名|起名)?(?:叫做?|名叫|名字叫|名字是)\s*[^\s我你他她它]",
    re.I,
)
_PET_WORD = re.compile(rf"{_PETS_ZH}|\b(?:{_PETS_EN})(?:s|ies)?\b", re.I)


def _pet_name(raw: str, state: _State) -> list[ExtractedFact] | None:
    """The pet's name a clause that gives only a name states in a turn that names a pet
    ("We just got a puppy too! His name is Taco", "最近又领养了一只狗，叫豆豆"), or None; the name
    keeps its place only if the turn forms the pet's kind (``_pet_named``)."""
    bare = raw.strip(" .!,;，。！")
    if state.pet_kind and (
        _NAMES_ONLY.fullmatch(bare)
        # "We adopted a kitten, Jerry.": the name of the pet just named, in apposition
        or (
            _ONE_NAME.fullmatch(bare)
            and bare.lower() not in _NOT_A_PET_NAME_EN
            and not _HAN.search(state.pet_kind)
        )
    ):
        # "We have two cats, Milo and Luna": the names of the pets the sentence just gave
        clause = _make_clause(raw, state.turn)
        kind, zh = state.pet_kind, bool(_HAN.search(state.pet_kind))
        return [
            _fact(
                state, clause, "pets.name", name, _pet_called(kind, name, zh),
                metadata={"kind": kind},
            )
            for name in _NAME_LIST.split(bare)
        ]  # fmt: skip
    if not (_NAMING.match(raw.strip()) and _PET_WORD.search(state.turn.content)):
        return None
    clause = _make_clause(raw, state.turn)
    for rule in RULES:
        if rule.family == "pets" and rule.lang == clause.lang:
            m = rule.pattern.search(clause.text)
            if m is not None and (facts := rule.build(m, clause, state)):
                return facts
    return None


def _surname_dropped(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A surname said before the whole name is no name of its own ("我姓刘，叫刘思远")."""
    named = [f.value for f in facts if f.key == "name.full" and f.value]
    return [
        f
        for f in facts
        if not (
            f.key in ("name.full", "name.family")
            and f.value
            and any(n != f.value and n.startswith(f.value) for n in named)
        )
    ]


def _named_once(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """``facts`` without a relative formed by their relation alone when the turn also names
    them: "我有个女儿，叫小雨", "I have a daughter, Mia" form one member, 小雨 / Mia (its
    ``metadata["relation"]`` the relation), not also 女儿 / daughter."""
    named = {
        str(f.metadata["relation"]).lower()
        for f in facts
        if f.key == "family.member"
        and f.metadata.get("relation")
        and f.value
        and f.value.lower() != str(f.metadata["relation"]).lower()
    }
    named |= {_singular(r) for r in named}  # "two kids, Max and Lily": no member "kid"
    return [
        f
        for f in facts
        if not (f.key == "family.member" and (f.value or "").lower() in named and not f.retracts)
    ]


def _one_per_name(facts: list[ExtractedFact], text: str) -> list[ExtractedFact]:
    """In a turn about more than one ("two cats, Milo and Luna", "两只猫，叫咪咪和花花"), a
    pet's or a relative's name that is a list becomes a fact per name ("a dog called Salt and
    Pepper" keeps its one name); a pet's kind in English is said in the singular."""
    out: list[ExtractedFact] = []
    seen: set[tuple[str | None, str | None]] = set()
    many = bool(_MANY.search(text))
    kinds = [f for f in facts if f.key == "pets.kind" and f.value]
    known = {_singular((k.value or "").lower()) for k in kinds}
    extras: list[ExtractedFact] = []
    for f in kinds:
        # "I have a dog and a cat", "我有一只狗和一只猫": one fact per kind its words name
        for said in [en or zh for en, zh in _PET_LIST.findall(f.content)][1:]:
            zh = bool(_HAN.search(said))
            one = said if zh else _singular(said.lower())
            if one.lower() in known:
                continue
            known.add(one.lower())
            # each its own words: one content for two facts reads as a duplicate
            content = semantic.describe("pets.kind", one, zh)
            extras.append(
                dataclasses.replace(f, value=one, content=content, retracts=[], metadata={})
            )
    facts = [*facts, *extras]
    for f in facts:
        if f.key == "pets.kind" and f.value and not _HAN.search(f.value):
            one = _singular(f.value)
            said = rf"\ban? {re.escape(f.value)}\b"  # "has a dogs" → "has a dog"
            f.content = re.sub(said, f"{_article(one)} {one}", f.content)
            f.value = one
        names = (
            _NAME_LIST.split(f.value.strip())
            if many and f.key in ("pets.name", "family.member") and f.value
            else [f.value]
        )
        for name in names:
            if len(names) > 1:
                content = f.content.replace(f.value or "", name or "")
                f = dataclasses.replace(f, value=name, content=content)
            if (f.key, f.value) not in seen or f.key is None:
                seen.add((f.key, f.value))
                out.append(f)
    return out


_CALLED_ME = re.compile(r"我|\b(?:me|my|i)\b", re.I)
# a subject pointed at by an animal's measure word ("这只", "那条"): a pet
_THIS_ANIMAL = re.compile(r"^\W*(?:现在|如今|目前)?(?:的)?(?:这|那)(?:只|条|头|匹)")


def _named_in_passing(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A name said with no one it is the user's ("还有个女儿，叫甜甜", "又养了一只，叫豆豆"): a
    nickname whose clause names no "我"/"me" is the name of the relative or the pet the turn
    just named — the relative then holds the name instead of the word of kin — and never a
    name the user goes by. Returns the turn's facts."""
    kept: list[ExtractedFact] = []
    for f in facts:
        if f.key != "name.nickname" or not f.value or _CALLED_ME.search(f.content):
            kept.append(f)
            continue
        if any(g.key == "pets.name" and g.value == f.value for g in facts):
            continue
        if _THIS_ANIMAL.match(f.content):
            # "现在这只叫来福": the one an animal's measure word points at is a pet (its kind
            # read elsewhere in the turn, ``_pet_named``)
            f.key, f.metadata["kind"] = "pets.name", ""
            kept.append(f)
            continue
        kin = [
            g for g in facts
            if g.key == "family.member" and g.value and semantic.is_kin_word(g.value)
        ]  # fmt: skip
        if kin:
            kin[-1].content = f"{kin[-1].value}叫{f.value}"
            kin[-1].value = f.value
            continue
        kept.append(f)
    return kept


def _pet_named(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A name said of a pet whose kind the clause does not give ("His name is Taco", "叫豆豆",
    ``metadata["kind"] == ""``) is the name of the pet the turn names a kind of; with none,
    it is dropped: nothing says whose name it is. Returns the turn's facts."""
    kinds = [f.value for f in facts if f.key == "pets.kind" and f.value]
    kept = []
    for f in facts:
        if f.key == "pets.name" and f.metadata.get("kind") == "":
            if not kinds:
                continue
            kind = f.metadata["kind"] = kinds[-1]
            f.content = _pet_called(kind, f.value or "", bool(_HAN.search(kind)))
        kept.append(f)
    return kept


def _ability_denied(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """ "其实不太会啦，只会 arigato 这种", "说会弹有点夸张了，现在完全不会了": a turn that opens by
    taking back an ability without naming it forms a take-back record of topic
    ``semantic.ABILITY_TOPIC``; the ingest job names the user's previous turn and arbitration
    withdraws the abilities that turn formed (a language, "会弹钢琴") — nothing else of it."""
    sentences = split_clauses(turn.content)
    if not sentences or any(f.value or f.metadata.get("takes_back") for f in facts):
        return []
    if not semantic.denies_ability(sentences[0]):
        return []
    meta: dict[str, Any] = {
        "retraction": True,
        "takes_back": True,
        "takes_back_topic": semantic.ABILITY_TOPIC,
    }
    return [_withdrawal_record(turn, meta)]


# keys a passing state ("so exhausted today") is not a value of
_PASSING_KEYS = frozenset(("health.condition", "event", "plan", None))
# keys whose value is a thing had or avoided, which "东西" / "stuff" does not name
_THING_KEYS = frozenset(("preference.likes", "preference.dislikes", "diet.avoid"))
# keys a negation of degree still states ("I don't like horror movies that much")
_DEGREE_KEYS = frozenset(("preference.dislikes", "assistant.constraint"))
_NOT_HAPPENED = re.compile(
    r"(?:i\s+)?(?:didn'?t|did not|haven'?t|hasn'?t|have not|has not|wasn'?t|was not|never)\b"
    r"|(?:我)?(?:昨天|今天|上周|刚才)?(?:没|没有)(?!有?空)",
    re.I,
)

# keys whose value holds now, and so not when the clause says it held before or comes later
_NOT_NOW = frozenset(
    ("residence.city", "work.employer", "work.role", "work.location", "schedule.habit",
     "preference.likes", "preference.drink", "tech.preferred", "diet.avoid", "diet.style",
     "pets.name", "pets.kind")
)  # fmt: skip
# of which a simple past verb ("I lived in Rome") already says so
_PAST_BY_VERB = frozenset(("residence.city", "work.employer", "work.role", "work.location"))
# keys a happening of today would be read as: it is none of them
_ONCE_KEYS = frozenset((None, "event", "schedule.habit"))
# keys a spot the user is at this moment would be read as: it is none of them
_SPOT_KEYS = frozenset(("residence.city", "work.employer", "work.location", "education.school"))
# keys a place of work or study still to come would be read as: it is a plan
_PROSPECT_KEYS = ("work.employer", "work.role", "work.location", "education.school")


def _one_plan(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """``facts`` with one plan per value: the employer and the role still to come of one
    clause ("我想去腾讯做产品经理") are one plan, in the clause's words; and none for a place of
    work or study the turn states as the user's now ("把我调到上海分部了，下周开始在上海上班")."""
    out: list[ExtractedFact] = []
    planned: dict[str, ExtractedFact] = {}
    held = {(f.key, (f.value or "").lower()) for f in facts if f.key in _PROSPECT_KEYS}
    for fact in facts:
        prospect = fact.metadata.pop("prospect", None)
        if isinstance(prospect, list) and (prospect[0], str(prospect[1]).lower()) in held:
            continue
        if fact.key == "plan" and fact.value:
            if fact.value in planned:
                planned[fact.value].content = _turn_content(fact.value)
                continue
            planned[fact.value] = fact
        out.append(fact)
    return out


def _backstory(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """``facts`` without the happenings gone by (``metadata["over"]``, set by ``_fact``) told
    beside a fact of another key of the same turn (a withdrawal too): "Handed in my notice in
    June! Starting at Genvia next month", "离婚了，手续上周办完" — how the fact came about, kept
    by the turn's episode. Told alone ("I went to the dentist on Monday")
    a happening is an event, dated when it happened."""
    told = any(f.key not in (None, "event", "plan") for f in facts)  # a withdrawal too
    out = []
    for fact in facts:
        if fact.metadata.pop("over", None) and told:
            continue
        out.append(fact)
    return out


def _not_now(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """``facts`` without what held only before ("I lived in Rome for five years before that",
    "Before Google I was at Amazon", "I used to smoke every day", "我以前在北京住过十年": the
    turn's episode keeps the words; they replace nothing of now). The frame is
    ``semantic.time_frame`` of the fact's clause (``metadata["frame"]``, set by ``_fact``,
    which makes a move still to come a plan: "我下个月要搬去北京")."""
    out = []
    for fact in facts:
        frame = fact.metadata.pop("frame", None)
        held_before = frame in ("past", "today", "side") or (
            frame == "past-verb" and fact.key in _PAST_BY_VERB
        )
        if held_before and not fact.retracts:
            continue
        out.append(fact)
    return out


def _reason_of_a_rule(rule: ExtractedFact, facts: list[ExtractedFact]) -> bool:
    """A dislike or complaint read as a rule after a rule of the turn of the same kind ("pls keep
    answers short, like 3-4 sentences max. i hate scrolling thru walls of text"): the reason
    for that rule, not a second one (``standing.gives_reason``, ``standing.aspects``)."""
    if not standing.gives_reason(rule.content):
        return False
    mine = standing.aspects(rule.content)
    return any(
        f.metadata.get("formed_by") == "standing_rule" and mine & standing.aspects(f.content)
        for f in facts
    )


def _standing_rules(sentence: list[str], state: _State) -> tuple[list[ExtractedFact], set[int]]:
    """The standing rules for the assistant the sentence states, however worded
    (``standing.standing_rules``), as ``assistant.constraint`` facts with the rule as the
    value, and the indices of the clauses they were read from (no other rule reads them)."""
    facts: list[ExtractedFact] = []
    read: set[int] = set()
    for rule in standing.standing_rules(sentence):
        said = [sentence[i] for i in rule.clauses]
        clause = _make_clause(", ".join(said), state.turn)
        fact = _fact(state, clause, "assistant.constraint", rule.value, rule.text)
        fact.metadata["formed_by"] = "standing_rule"
        mine = standing.aspects(rule.text)
        if (
            standing.ends_rule(rule.text)
            or standing.ends_rule(", ".join(said))
            # "the bullet points are getting annoying, just write normal paragraphs"
            or any(standing.tired_of(c) and mine & standing.aspects(c) for c in sentence)
        ):
            fact.metadata["changed"] = True  # "stop with the bullet points": see values.py
        if standing.cancels(said, sentence):
            fact.metadata["cancels"] = True  # "英文翻译还是不要了": nothing asked of its own
        facts.append(fact)
        read.update(rule.clauses)
    if not facts:
        # "summarize the notes below": a one-off task; one that gives the user's own address
        # ("email me at dan@…", "打我电话 139…") still gives it
        read = {i for i in standing.task_clauses(sentence) if not _OWN_ADDRESS.search(sentence[i])}
    return facts, read


# the user's own email or number, after "me"/"我": "email me at …", "text me on …"
_OWN_ADDRESS = re.compile(
    # "网易那个不用了，新的是 x@qq.com", "the new one is …": the user's new one
    r"(?:\b(?:me|my)\b|我|新的?(?:是|为|[:：])|\bnew (?:one|address|email|number) is\b)"
    r".{0,24}?(?:[\w.%+-]+@[\w-]+(?:\.[\w-]+)+|\+?\(?\d[\d\s().-]{6,}\d)",
    re.I,
)


def _rules_requested(facts: list[ExtractedFact], text: str) -> list[ExtractedFact]:
    """A rule for the assistant is asked for: one the rule table or the classifier formed
    from a clause not worded as a request ("24hr shifts so sometimes ill be slow to reply",
    "每次买东西搬上去累死") is dropped (``standing.is_request``), and so is one read from a
    clause of the turn ``text`` that says what the user uses from now on ("以后就用 macOS 了",
    ``standing.own_change``)."""
    return [
        f
        for f in facts
        if f.key != "assistant.constraint"
        or f.metadata.get("formed_by") == "standing_rule"
        or (standing.is_request(f.content) and not standing.own_change(text, f.content))
    ]


def _complaints_answered(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A complaint about the answers ("ugh, your answers are way too long.") followed in its
    turn by the rule that says what to do instead ("keep them under five sentences from now
    on") is that rule's reason, not a rule of its own: dropped when the rule is of its kind
    (``standing.aspects``)."""
    rules = [f for f in facts if f.metadata.get("formed_by") == "standing_rule"]
    asked = [f for f in rules if not standing.complains(f.content)]
    return [
        f
        for f in facts
        if f not in rules
        or f in asked
        or not any(standing.aspects(f.content) & standing.aspects(a.content) for a in asked)
    ]


def _thing_of(text: str, name: str) -> bool:
    """True if ``name`` is followed in ``text`` by a thing of it ("the Iceland photos", "the
    Berlin chapter"), not by a plan ("the Iceland trip", "Berlin plans")."""
    after = r"\s+(?!(?:plans?|trip|idea|thing|move|offer)\b)[a-z]{3,}"
    return bool(re.search(rf"\b{re.escape(name)}{after}", text))


# a clause saying something still holds, or has not changed: "还在美团", "学校没换", "still at
# Oracle", "same job at Shopify"
_STILL_SO = re.compile(
    r"还在|还是|仍然|仍在|依然|照样|照旧|没换|没变|不变|\bstill\b|\bsame\b|\bas before\b", re.I
)


# a clause that is only "not …", said of the clause before it
_NOT_OF_ANOTHER = re.compile(r"^\W*(?:but\s+|and\s+)?(?:not|而不是|不是)\b", re.I)


def _of_the_user(clause: str) -> bool:
    """True if ``clause`` may speak of the user ("turns out it's reflux"): not of someone
    else ("my son's allergy is to amoxicillin"), nor of a thing pointed at ("the one out of
    stock is amoxicillin")."""
    return not (
        semantic.someone_elses(clause)
        or semantic.family_subject(clause) is not None
        or re.match(r"^\W*the (?:one|ones|thing|stuff|brand|kind)\b", clause, re.I)
    )


def _ended(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """ "I can't handle spicy food at all anymore", "粤语都快忘光了", "上次吃榴莲吃到吐了，不喜欢
    了", "I'm not Alex": clauses that say something of the user's ended, or is not so, without
    the words that would isolate what. One record, ``metadata["ended"]`` holding the texts
    that name it (the clause, or its whole sentence when the clause is a few words, or what the
    user says they are not); the ingest job keeps it only if those texts
    name an active value of the user's, which it then retracts. Not for a clause a fact of the
    turn was formed from (its value is in the clause), nor in a take-back (that names what it
    withdraws)."""
    if any(f.metadata.get("takes_back") and not f.metadata.get("unnamed_ending") for f in facts):
        return []
    formed = [f.value.lower() for f in facts if f.value]
    # a clause whose name a withdrawal of a name names already ("大家不叫我小林子了")
    formed += [
        r.lower()
        for f in facts
        if (f.key or "").startswith("name.") and not f.value
        for r in f.retracts
        if r
    ]
    ruled = [f.value.lower() for f in facts if f.value and f.key == "assistant.constraint"]
    texts: list[str] = []
    denials: list[str] = []
    named: list[str] = []
    denying: list[str] = []  # clauses that take back something without a word of ending
    for sentence in split_clauses(turn.content):
        sentence = sentence[semantic.unmeant(sentence) :]
        if not sentence:
            continue
        for at, raw in enumerate(sentence):
            bare = raw.strip(" \t.!?。！？").lower()
            if (
                any(v in raw.lower() for v in formed)
                or (bare and any(bare in r for r in ruled))
                or is_question(raw)
            ):
                continue  # its value, a clause of a rule ("Use metric with me, | not imperial"),
                # or a question ("我是不是该换个手机了" gives nothing up)
            if not (at and _NOT_OF_ANOTHER.match(raw) and not _of_the_user(sentence[at - 1])):
                # "I'm not Alex": what the user is not; "my son's allergy is to amoxicillin,
                # not penicillin": what the one before is not
                denials += semantic.denied(raw)
            ended = semantic.ends(raw) or semantic.never_so(raw)  # "I never worked at X"
            if not (ended or semantic.denies(raw, sentence[0])):  # "其实不太会", "被老板否了"
                continue
            size = len(_zh_content(raw)) if _lang(raw) == "zh" else len(raw.split()) * 2
            # the sentence of a short clause, less what it says still holds ("不做运营了，转产品了，
            # 还在美团": 美团 is not ended)
            text = (
                raw
                if size > 8
                else "，".join(c for c in sentence if c == raw or not _STILL_SO.search(c))
            )
            (texts if ended else denying).append(text)
            if semantic.rejected(raw):  # "I withdrew from Chicago": the plan named
                # ... not a thing of it ("we scrapped the Iceland photos")
                # "别的证书先不考了，专心考驾照": what the clause drops, when it says it; else
                # the names of its sentence
                dropped = semantic.dropped_objects(raw)
                named += dropped or [a for a in semantic.anchors(text) if not _thing_of(text, a)]
    if not (texts or denials or denying):
        return []
    meta = {
        "retraction": True,
        "ended": list(dict.fromkeys(texts)),
        "denying": list(dict.fromkeys(denying)),
        "denied": denials,
        "named": list(dict.fromkeys(named)),
    }
    return [_withdrawal_record(turn, meta)]


# in lower case: "IT" is a field of work, "it" a pronoun
_PRONOUN_EN = re.compile(r"them|it|those|these|that|this|one")
# the thing a verb or a preposition before names: "It's not that I don't like dogs, I'm just
# allergic to them" → dogs; "don't suggest anything with nuts in it. … can't eat them" → nuts
_OBJECT_EN = re.compile(
    r"\b(?:like|love|hate|eat|drink|have|own|with|of|about|to|on)\s+"
    r"(?:(?:the|my|any|some|a|an)\s+)?(?P<x>[a-z][a-z'-]{2,})\b",
    re.I,
)


def _pronouns_named(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A value that is only a pronoun ("allergic to them") is the thing the turn named last
    before it as the object of a verb or a preposition ("It's not that I don't like dogs, I'm
    just allergic to them" → dogs); with none, the fact is dropped: a pronoun is no value."""
    out = []
    for f in facts:
        if not (f.value and _PRONOUN_EN.fullmatch(f.value.strip())):
            out.append(f)
            continue
        said = re.search(rf"\b{re.escape(f.value.strip())}\b", turn.content, re.I)
        before = turn.content[: said.start()] if said else ""
        named = [
            m.group("x")
            for m in _OBJECT_EN.finditer(before)
            if m.group("x").lower() not in semantic.EN_STOP
            and not _PRONOUN_EN.fullmatch(m.group("x"))
            and m.group("x").lower() not in ("anything", "something", "everything")
        ]
        if named:
            f.value = named[-1]
            f.content = re.sub(r"\b\w+$", named[-1], f.content)
            out.append(f)
    return out


def _not_tools(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A name the turn gives as the user's employer, or that the user is at ("At Pellucid I
    also write the release notes", "I'm with Kestrel Automation now"), is no tool they use: a
    classifier's ``tech.preferred`` guess of it is dropped."""
    employers = {f.value.lower() for f in facts if f.key == "work.employer" and f.value}

    def workplace(f: ExtractedFact) -> bool:
        value = f.value or ""
        at = rf"\b(?:at|I'?m with|I am with)\s+{re.escape(value)}\b"
        return value.lower() in employers or bool(re.search(at, f.content, re.I))

    return [
        f
        for f in facts
        if not (
            f.key == "tech.preferred"
            and f.value
            and f.metadata.get("formed_by") == "classifier"
            and workplace(f)
        )
    ]


# a duty said beside the job the user has ("I also run the on-call rotation", "我在单位还负责
# 招人", "平时也带几个实习生"): added to it, not in its place
_DUTY_ADDED = re.compile(
    r"\b(?:also|too|as well|on top of|in addition|besides|plus|on the side)\b"
    r"|也|另外|还(?!是|在)|兼职|同时|顺便",
    re.I,
)


def _no_habit_of_work(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """``facts`` without the routines of a turn that tells of the user's work: a turn that
    forms a workplace or role and a routine, read whole by the key-family classifier as about
    work, says what the job is made of ("I work at Amazon, warehouse side, picking orders all
    day", "主要负责风控，天天跟模型打交道"), not a routine of the user's own; one read otherwise
    keeps it ("I'm a nurse and I run every morning", "我在腾讯上班，每周三晚上去打羽毛球")."""
    habits = [f for f in facts if f.key == "schedule.habit" and not f.retracts]
    if not habits or not any(f.key in _WORK_KEYS and f.value for f in facts):
        return facts
    from app.ingest.extraction.acts import said

    (guess,) = semantic.classify([said(turn.content)])
    if guess.family != "work":
        return facts
    return [f for f in facts if f not in habits]


# a job the user had before, and where ("我以前在滴滴干了三年", "之前在阿里待过两年")
_PAST_JOB_ZH = re.compile(
    r"(?:以前|之前|当年|曾经|早年|那时候?)[^，,。；;！!]*?在(?P<org>[^，,。；;！!在]{2,12}?)"
    r"(?:干|工作|上班|待|呆|做|实习|打工)"
)


def _past_job_ended(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """``facts`` with a Chinese job ending that follows a job of before ("我以前在滴滴干了三年，
    后来跳槽了") ending that job, not whatever job the user has now: its withdrawal of the
    employer names the place of before, so the user's current employer stays."""
    past = _PAST_JOB_ZH.search(turn.content)
    if past is None:
        return facts
    org = past.group("org").strip()
    for f in facts:
        if f.key == "work.employer" and f.value is None and not f.retracts:
            if turn.content.find(f.content) < past.start():
                continue  # the ending is said before the job of before
            f.retracts = [org]
    return facts


def _duties(turn: Turn, facts: list[ExtractedFact]) -> None:
    """Mark a role read from a duty ("I look after the payroll", "我在单位负责招人") with
    ``metadata["duty"]``: arbitration keeps it beside a role the user already has
    (``values._duty_beside_role``) instead of replacing that role."""
    clauses = [c for sentence in split_clauses(turn.content) for c in sentence]
    for fact in facts:
        if fact.key != "work.role" or not fact.value:
            continue
        said = [c for c in clauses if fact.value.lower() in c.lower()]
        if not said:
            continue
        if semantic.states_duty(said[0]):
            fact.metadata["duty"] = True  # "I'm now in charge of … there" may still replace it
        elif _AT_THE_WORKPLACE.search(said[0]) and _DOING.search(said[0]):
            # "I just started doing night shifts in the ICU there": an activity at the same
            # job, not a new one
            fact.metadata["duty"] = True
            fact.is_correction = False


# a clause that points back at the workplace the user has ("…there", "在那边…"), and the
# activity verb that names no job title ("doing night shifts")
_AT_THE_WORKPLACE = re.compile(r"\b(?:there|at work)\b|那边|那里|单位里", re.I)
_DOING = re.compile(r"\bdoing\b|做", re.I)


def _added_duties(turn: Turn, facts: list[ExtractedFact]) -> None:
    """A role formed from a turn that adds a duty and says nothing changed keeps its words as a
    fact with no key, so the user's role (single-valued) is not replaced by it."""
    if not _DUTY_ADDED.search(turn.content) or semantic.has_change_cue(turn.content):
        return
    clauses = [c for sentence in split_clauses(turn.content) for c in sentence]
    for fact in facts:
        if fact.key != "work.role" or not fact.value or fact.retracts:
            continue
        said = [c for c in clauses if fact.value.lower() in c.lower()]
        if said and _DUTY_ADDED.search(said[0]):  # the cue in the duty's own clause
            fact.type, fact.key, fact.value = "profile", None, None
            fact.content = _turn_content(said[0])
            fact.metadata["added_duty"] = True


# a graduation with nothing after it: the user is a student no more ("我已经毕业了", "just
# graduated"); "毕业于清华", "graduated from MIT" say where they studied
_GRADUATED = re.compile(
    r"(?:^|[，,。！!\s])我?(?:已经|刚刚?|终于|也|今年|去年|上个月)*毕业了(?!\S*[吗吧？?])"
    r"|\bI(?:'ve| have)?\s+(?:just\s+|finally\s+|recently\s+)?graduated\b(?!\s+from\b)",
    re.I,
)


def _role_given_up(turn: Turn, activity: str) -> ExtractedFact:
    """A withdrawal of ``work.role`` retracting the work given up by its activity; arbitration
    freezes the role it names ("teaching" → "5th grade teacher", ``values.names_work``)."""
    return ExtractedFact(
        type="profile",
        content=_turn_content(turn.content),
        key="work.role",
        value=None,
        is_correction=True,
        retracts=[activity.lower()],
        message_ids=[turn.message_id],
        metadata={"retraction": True},
    )


def _job_left(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """``facts`` and, for a job left without naming the workplace ("I got laid off", "lost my
    job", "我被裁了", "工作辞了") when the turn forms no employer, a withdrawal of
    ``work.employer`` with no value, so the user's active employer is frozen (a value-less
    fact conflicts with every value of its single-valued key, docs/arbitration.md). A keyless
    fact of the same words is left out: the withdrawal keeps them."""
    activity = semantic.work_given_up(turn.content)
    if activity and not any(f.key == "work.role" for f in facts):
        # "I quit teaching": the role named by the activity ("teacher") is withdrawn
        facts = [*facts, _role_given_up(turn, activity)]
    elif (
        _GRADUATED.search(turn.content)
        and not any(f.key == "work.role" for f in facts)
        and not semantic.someone_elses(turn.content)
    ):
        # "我毕业了，现在在银行上班", "I just graduated": no longer a student
        role = _role_given_up(turn, "学生")
        role.retracts += ["student"]
        facts = [*facts, role]
    if any(f.key == "work.employer" for f in facts):
        return facts
    clause = semantic.job_left(turn.content)
    if clause is None:
        return facts
    content = _turn_content(clause)
    return [f for f in facts if f.key is not None or f.content != content] + [
        ExtractedFact(
            type="profile",
            content=content,
            key="work.employer",
            value=None,
            is_correction=True,
            message_ids=[turn.message_id],
            # "I went freelance", "switched jobs, still nursing": the same work, for no employer
            # (``values._job_without_employer``)
            metadata={
                "retraction": True,
                **({"own_work": True} if semantic.work_goes_on(turn.content) else {}),
            },
        )
    ]


# A value said as what holds now, without a predicate that says what it is: "Portland now.",
# "Lyft these days", "Milan's home now", "I'm at Meta now", "ended up at Stripe", "moved over
# to Amazon". What the name is (a city, an employer, a tool) is read from the fact it takes the
# place of: the ingest job gives it the key of the user's previous turn (tasks.inherit_changes).
_LEAD_NOW_EN = (
    r"^(?:(?:oh|so|well|nope|nah|no|actually|yeah|yep|and|but|btw|update|ok|okay|anyway"
    r"|correction|lol)\b[\s,:!-]*)*"
)
# a name: capitalised, or a short lower-case head before a capital ("macOS", "iPhone", "eBay")
_NAME_NOW_EN = (
    r"(?P<name>(?:[A-Z]|(?-i:[a-z]{1,4}(?=[A-Z])))[\w&.'+-]*"
    r"(?: (?:of |de |the |& )?[A-Z0-9][\w&.'+-]*)*?)"
)
_NOW_EN = (
    r"(?P<now>now|these days|nowadays|at the moment|right now|for good|as of [\w ]{2,20}"
    r"|since [\w ]{2,20})"
)
_TRAIL_NOW_EN = r"(?:[\s,]+(?:actually|though|btw|lol|haha|i guess|instead))*[\s.!]*$"
_NOW_HOLDS_EN = (
    # the name alone: "Portland now.", "nope, Minneapolis these days", "Milan's home now"
    re.compile(
        rf"{_LEAD_NOW_EN}(?:it'?s\s+|(?P<prep>in|at|with)\s+)?{_NAME_NOW_EN}"
        rf"(?:'s| is)?(?: home| my home| my city| my base)?[\s,]+{_NOW_EN}{_TRAIL_NOW_EN}"
    ),
    # the time first: "now at Google", "these days it's Lyft"
    re.compile(
        rf"{_LEAD_NOW_EN}(?P<now>now|these days|nowadays)[\s,]+"
        rf"(?:it'?s\s+|(?P<prep>in|at|with)\s+)?{_NAME_NOW_EN}{_TRAIL_NOW_EN}",
        re.I,
    ),
    # "I'm at Meta now", "I'm with Accenture", "we're in Dallas now": "in" only with a now
    re.compile(
        rf"{_LEAD_NOW_EN}(?:I'?m|I am|we'?re|we are)\s+(?:(?:now|currently|still|actually"
        rf"|officially|over|out|down|up)\s+)*(?P<prep>at|with|in)\s+{_NAME_NOW_EN}"
        rf"(?:[\s,]+{_NOW_EN})?{_TRAIL_NOW_EN}",
        re.I,
    ),
    # a verb of arriving: "ended up at Stripe", "moved over to Amazon", "we wound up in Bristol"
    re.compile(
        rf"{_LEAD_NOW_EN}(?:(?:I|we)(?:'ve| have)?\s+)?(?:(?:just|recently|finally|eventually"
        rf"|then|since|now)\s+)*(?P<verb>(?:moved|switched|went|headed|jumped|came) over"
        rf"|jumped ship|jumped|wound up|ended up|landed|headed|transferred|moved|switched"
        rf"|packed up and (?:moved|headed|left))\s+(?:(?:everything|it|all|us|(?:our|my) "
        # the household moved with the user, not a thing of theirs ("moved my savings to …")
        rf"(?:stuff|things|family|kids|life|home|base|household|belongings))\s+)?"
        rf"(?:over\s+)?(?P<prep>to|at|in|with)\s+"
        rf"(?P<name>(?-i:[A-Z][\w&.'+-]*(?: (?:of |de |the |& )?[A-Z0-9][\w&.'+-]*)*))"
        rf"(?=$|[\s,.!;])(?P<rest>.*)$",
        re.I,
    ),
)
# a change said with no value, the value in a sentence of its own ("Relocated. Phoenix.",
# "Switched jobs. Accenture.", "Nope, Twilio. Started last week."), or after a label ("New job:
# Stripe."): the kind of change says which keys the name can take (NOW_HOLDS_KEYS)
_CHANGE_WORDS_EN = (
    r"(?P<home>relocated|moved(?: house| cities| out| again)?|packed up|new (?:city|home|place))"
    r"|(?P<job>(?:switched|changed) (?:jobs|companies|employers|teams)|new (?:job|gig|employer"
    r"|company)|got (?:a new job|hired)|started (?:a new job|somewhere new))"
    r"|(?P<start>started|transferred|got transferred)"
)
_CHANGE_SAID_EN = re.compile(
    rf"(?i:{_LEAD_NOW_EN}(?:(?:I|we)(?:'ve| have)?\s+)?(?:(?:just|finally|recently)\s+)?"
    rf"(?:{_CHANGE_WORDS_EN})(?:\s+(?:again|recently|last \w+|this \w+|in \w+|\w+ ago))*)"
    r"[\s.!]*$"
)
_BARE_NAME_EN = re.compile(
    rf"(?i:{_LEAD_NOW_EN}(?:(?:{_CHANGE_WORDS_EN})\s*[:\-–—]\s*)?)"
    rf"{_NAME_NOW_EN}[\s.!]*$"
)
_CHANGE_PREP = {"home": "in", "job": "with", "start": "at"}


def _change_prep(m: re.Match[str]) -> str:
    """The preposition a change said with no value stands for ("relocated" → "in")."""
    return next((_CHANGE_PREP[k] for k in _CHANGE_PREP if m.group(k)), "")


# a routine said as done now, without its key: "Walking the dog at 6 now.", "I take the train
# to work these days" — a routine only when the turn before said one of the same doing
_DOING_NOW_EN = re.compile(
    rf"{_LEAD_NOW_EN}(?:I\s+(?=[a-z]+\s)(?!(?:am|was|have|had|do|did|will|would|can|could|think"
    rf"|guess|feel|mean|know|love|like|hate|want|need)\b)|(?=[A-Za-z]+ing\b))"
    rf"(?P<doing>[A-Za-z]+[^,;:!?]*?)[\s,]+(?:now|these days|nowadays|instead){_TRAIL_NOW_EN}",
    re.I,
)
# the rest of a clause of arriving names no more than when or why ("in May", "last spring",
# "after the layoffs")
_REST_NOW_EN = re.compile(
    r"^(?:[\s,]+(?:now|these days|in (?:the )?\w+|last \w+|this \w+|a \w+ ago|\w+ \w+ ago"
    r"|\w+ ago"
    r"|after [\w ]+|because [\w' ]+|for good|actually|though|btw|lol|again))*[\s.!]*$",
    re.I,
)


def _now_holds(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """``facts`` and a name said as what holds now (``_NOW_HOLDS_EN``, in a clause or its whole
    sentence: "Sacramento, as of June"): when the turn formed no value of a named key (a city,
    an employer, a school, a drink, a tool), one fact with no key, the name as its value,
    ``metadata["now_holds"]`` the preposition before it ("in", "at", "with", "to" or ""), in
    place of a keyless fact of the same words — the ingest job gives it the key of the fact it
    takes the place of, or drops it; when the turn formed the name under such a key
    ("Firefox these days"), that fact is a correction, and a switch of a tool or a language.
    A stay, a move to come or someone else's clause names no such value."""
    if _lang(turn.content) != "en":
        return facts
    sentences = split_clauses(turn.content)
    joined = [", ".join(c.strip(" ,") for c in sentence) for sentence in sentences]
    change = next((m for text in joined if (m := _CHANGE_SAID_EN.match(text))), None)
    for sentence in sentences:
        # "If I quit my job, moved to Portland, would my rent go down?": nothing so
        sentence = sentence[semantic.unmeant(sentence) :]
        if not sentence:
            continue
        said = [c.strip(" ,") for c in sentence]
        for i, text in enumerate([*said, ", ".join(said)] if len(said) > 1 else said):
            if (
                # "Priya, my flatmate, | moved to Leeds": a clause of no subject of its own
                # after someone else's is still theirs
                (
                    any(semantic.someone_elses(c) for c in said[:i])
                    and not semantic.own_subject(text)
                )
                or semantic.is_about_others(text)
                or semantic.family_subject(text) is not None
                or semantic.is_hypothetical(text)
                or semantic.here_now(text)
                # "Denver is home now to my brother", "for my parents, Chicago is home now"
                or _home_of_others(text, turn.content)
            ):
                continue
            m = next((m for p in _NOW_HOLDS_EN if (m := p.match(text))), None)
            whole = text == ", ".join(said)
            bare = _BARE_NAME_EN.match(text) if m is None and whole else None
            if bare is not None and (labelled := _CHANGE_SAID_EN.match(text.split(":")[0])):
                m, prep = bare, _change_prep(labelled)  # "New job: Stripe."
            elif bare is not None and change is not None and not _CHANGE_SAID_EN.match(text):
                m, prep = bare, _change_prep(change)  # "Relocated. Phoenix."
            elif m is not None:
                prep = (m.groupdict().get("prep") or "").lower()
            if m is None:
                if not facts and (doing := _DOING_NOW_EN.match(text)):
                    value = doing.group("doing").strip()
                    return [
                        ExtractedFact(
                            type="fact",
                            content=_turn_content(text),
                            value=value[:1].lower() + value[1:],
                            is_correction=True,
                            message_ids=[turn.message_id],
                            metadata={"now_holds": "doing", "strong": True},
                        )
                    ]
                continue
            name = re.sub(r"(?:'s|[.'])+$", "", m.group("name"))
            groups = m.groupdict()
            if groups.get("rest") is not None and not _REST_NOW_EN.match(groups["rest"]):
                continue
            if re.fullmatch(r"[A-Z][a-z]+ing", name) or re.fullmatch(_LEAD_NOW_EN, name, re.I):
                continue  # "Freelancing now": a doing, no name
            bare_in = (groups.get("prep") or "").lower() == "in" and not groups.get("verb")
            bare_in = bare_in and m is not bare
            if (
                semantic.cap_spans(name)[:1] != [name]
                or (bare_in and not groups.get("now"))
                or semantic.time_frame(turn.content) in ("stay", "future")
            ):
                continue
            named = [f for f in facts if f.key in _NOW_HOLDS_KEYS and f.value]
            for f in named:
                if f.value and f.value.lower() == name.lower():
                    f.is_correction = True
                    if f.key in _SWITCHABLE:
                        f.metadata["replaces"] = True  # "Firefox these days": in Chrome's place
                    if f.metadata.get("formed_by") == "classifier":
                        # a guess of the name's key: the ingest job gives it the key of the
                        # fact it takes the place of, when the turn before says which
                        f.metadata["rekey"] = [prep, name]
            if named:
                return facts
            content = _turn_content(text)
            kept = [f for f in facts if f.key is not None or f.content != content]
            return [
                *kept,
                ExtractedFact(
                    type="fact",
                    content=content,
                    value=name,
                    is_correction=True,
                    message_ids=[turn.message_id],
                    metadata={
                        "now_holds": prep,
                        "strong": bool(groups.get("now") or groups.get("verb") or m is bare),
                    },
                ),
            ]
    return facts


# a change said by a verb of moving or switching, in any language ("搬家了，现在在慕尼黑", "已经
# fully 转过去了", "整个组搬到雄安了", "transferred", "moved over"): with ``semantic``'s change
# cues, what lets one name of the turn be what holds now
_CHANGE_WORD = re.compile(
    r"搬|换|转|改用|改成|跳槽|调到|调去|去了|入职|落户|定居|安家|\b(?:moved|relocated|transferred"
    r"|switched|changed|now|these days|anymore|not|new (?:city|place|home|job|school|address)"
    r"|hired|poached me|started (?:at|there|with))\b",
    re.I,
)
# the changes that say what they change, by themselves: a home or a work place moved, a job
# changed, a thing switched to; the other words ("now", "not") only beside a change cue of
# ``semantic``, and then any of the keys a name can hold now
_CHANGE_SAID = {
    "moved": re.compile(
        r"搬(?:到|去|来|回|过去|家)|落户|定居|安家|调到|调去|\b(?:relocated"
        r"|new (?:city|place|home|address))\b"
        # the user moved, not a thing of theirs ("moved my savings to Fidelity")
        r"|\bmoved\b",
        re.I,
    ),
    "job": re.compile(
        r"跳槽|入职|\b(?:new job|(?:got |been )?hired|poached me|started (?:at|there|with))\b",
        re.I,
    ),
    "transferred": re.compile(r"转学|\btransferred\b", re.I),
    "switched": re.compile(r"换|转|改用|改成|\bswitched\b", re.I),
}


# where a turn's clauses part, for the readings of a change
_CLAUSE_CUT = re.compile(r"[,，。.!！?？;；—]")
_GONE = re.compile(
    r"\b(?:not|no longer|anymore|never|left|quit|without|ex)\b|n't\b|不|没|离开|离职|辞", re.I
)
# a thing moved, not the user: "moved my savings to Fidelity" (a thing switched or changed:
# ``_THING_SWITCHED``)
_THING_MOVED = re.compile(
    r"\b(?:moved|transferred)\s+(?:my|our|the|his|her|their|its|this|that)\s+"
    r"(?!(?:stuff|things|family|kids|life|home|base|household|belongings)\b)\w+",
    re.I,
)
# a thing switched, not what the user uses: "switched banks, I'm with Chase now", "changed
# hotels", "switched my phone to a Pixel", "手机换了，现在用华为", "输入法换了" ("switched jobs" is
# the user's own change)
_THING_SWITCHED = re.compile(
    r"\b(?:switch|chang)(?:ed|ing|e)?\s+(?!to\b|over\b|back\b|completely\b|fully\b|entirely\b"
    r"|jobs?\b|careers?\b|compan(?:y|ies)\b|employers?\b|schools?\b|cities\b|countries\b)[a-z]"
    r"|(?:^|[，,。！!\s])(?!我|现在|已经|最近|又|也|都|就|全|刚|终于|早就)[\u4e00-\u9fff]{1,4}换了"
    r"|换了(?:一?个|一?家|一?台|一?部)[\u4e00-\u9fff]{1,4}(?=[，,。！!]|$)",
    re.I,
)
# a word after a name that makes it a thing of the name ("the Dracula theme", "Waymo folks"),
# not a word of time or of the sentence ("Vancouver life now!", "Lyon since October")
_THING_AFTER = (
    r"\s+(?!(?:life|now|since|for|from|with|and|but|is|was|these|this|last|next|today|tonight"
    r"|yesterday|too|again|already|here|there|baby|forever)\b)[a-z]{3,}"
)
# where a move goes when no name is known to the segmenter ("整个组搬到雄安了")
_MOVED_TO_PLACE_ZH = re.compile(
    r"(?:搬到|搬去|调到|调去|转到|转学(?:去|到)|换成|改用)"
    r"(?P<to>[\u4e00-\u9fff]{2,5}?)(?:了|去|工作|上班|[，,。！!]|$)"
)


def _changed_to_name(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """``facts`` and the one name a change turn says without a predicate the rules read
    ("搬家了，现在在慕尼黑", "最近被同事安利了 Cursor，已经 fully 转过去了", "公司把我们整个组搬到雄
    安了", "sorry, autocorrect — Oregon State, not Ohio State"): when the turn says a change
    (``semantic.has_change_cue``, ``semantic.moves``, a contrast, ``_CHANGE_WORD``), formed
    no value under any key, and names exactly one thing
    (``semantic.anchors``) besides what it says is not so, that name is a fact with no key and
    ``metadata["now_holds"] = ""``: the ingest job gives it the key of the fact of the
    previous turn it takes the place of, or drops it (``tasks.inherit_changes``). Someone
    else's change, a question or a hypothetical names nothing of the user's."""
    text = turn.content
    if any((f.key and f.value) or "now_holds" in f.metadata for f in facts):
        if "转学" in text:
            for f in facts:  # "转学去交大了": the school before is left
                if f.key == "education.school" and f.value and not f.retracts:
                    f.metadata["replaces"] = True
        return facts  # the turn said what it is: "my Italian is pretty good now"
    clauses = [c for c in _CLAUSE_CUT.split(text) if c.strip()]
    if (
        is_question(text)
        or semantic.is_hypothetical(text)
        or semantic.is_about_others(text)
        or semantic.family_subject(text) is not None
        or semantic.here_now(text)  # "I'm at Starbucks right now": where the user is today
        # "Denver is home now to my brother": someone else's home
        or _home_of_others(text, text)
        # someone else's change, or a change of a thing ("My buddy Dave just got hired at
        # Apple", "帮我妈换成 Android 了", "公司电脑换成 Mac 了", "酒店改订到深圳了")
        or any(
            semantic.someone_elses(c)
            or semantic.is_about_others(c)
            or semantic.family_subject(c) is not None
            or semantic.not_own_change(c, "tech")
            for c in clauses
        )
    ):
        return facts
    denied = [d.lower() for d in semantic.contrast_objects(text)]
    if denied and (not may_put_right(text) or thing_denied(text)):
        # "歌词里唱“不是北京，是上海”", "这批货不是上海的，是广州的": nothing of the user's
        denied = []
    if _THING_MOVED.search(text) or _THING_SWITCHED.search(text):
        return facts  # "moved my savings to Fidelity", "手机换了，现在用华为": a thing of theirs
    said = next((kind for kind, words in _CHANGE_SAID.items() if words.search(text)), "")
    # a word of ``_CHANGE_SAID`` is one of ``_CHANGE_WORD``; the others count beside a cue
    weak = _CHANGE_WORD.search(text) and (semantic.has_change_cue(text) or semantic.moves(text))
    if not (denied or said or weak):
        return facts
    # what the turn says is gone is not what holds ("I don't live in Boston anymore", "left
    # Google in March"): a name in a clause that negates or leaves
    gone = [part for c in clauses for part in re.split(r"\s-\s", c) if _GONE.search(part)]
    ended = any(f.metadata.get("retraction") for f in facts)
    names = [
        a
        for a in semantic.anchors(text) or [m["to"] for m in _MOVED_TO_PLACE_ZH.finditer(text)]
        if not any(a.lower() in d or d in a.lower() for d in denied)
        and not any(a in c for c in gone)
        and not any(a.lower() in r.lower() for f in facts for r in f.retracts)
        # a thing of the name, not the name ("the Dracula theme", "Waymo folks")
        and not (a.isascii() and re.search(rf"\b{re.escape(a)}{_THING_AFTER}", text))
        # beside an ending, an English word capitalised as a sentence's first ("I don't work at
        # Amazon anymore. Job hunting now I guess"); alone, a name ("Vancouver life now!")
        and not (
            ended
            and " " not in a
            and a.isascii()
            and re.search(rf"(?:^|[.!?]\s+){re.escape(a)}\b(?! [A-Z])", text)
        )
        # "被同事安利了": a word said as a verb names nothing
        and not re.search(rf"{re.escape(a)}[了过着](?![，,。！!？?~～]|$)", text)
        # "问题不是咖啡，是我睡太晚": what holds is a reason the user gives, not a thing
        and not (denied and re.search(rf"{_REASON_SAID}[^，,。.;；!！?？]*{re.escape(a)}", text))
    ]
    if ended and not (said or denied):
        return facts  # "I quit my job, I'm watching Netflix now": what ended, and a doing
    if denied and len(put := semantic.contrast_said(text)) == 1:
        # "过敏的是头孢，不是青霉素": the thing said in the place of the one denied, not a word
        # of what it is (过敏)
        names = [n for n in names if n in put[0] or put[0] in n] or put
    # "换了台 Mac，以后就用 macOS 了": a name inside another is the same thing, said shorter
    names = [a for a in names if not any(a.lower() in b.lower() and a != b for b in names)]
    # "我问的是北京的房价，不是上海的", "I meant the weather in Dallas, not Austin": a thing of
    # the place is what the user meant, not the place
    names = [a for a in names if not _thing_of_place(a).search(text)]
    if said == "switched" and not denied:
        # a switch names what it switched to in its clause, in the one before ("…安利了 Cursor，
        # 已经 fully 转过去了") or in one after that says it is used ("换了台 Mac，以后就用 macOS
        # 了"); not in another ("今天换了家店买，星巴克排队太长")
        at = next((i for i, c in enumerate(clauses) if _CHANGE_SAID["switched"].search(c)), 0)
        near = [at, at - 1]
        if at + 1 < len(clauses) and re.search(r"用|\buse", clauses[at + 1], re.I):
            near.append(at + 1)
        names = [a for a in names if any(a in clauses[i] for i in near if i >= 0)]
    if len(names) != 1:
        return facts
    return [
        *facts,
        ExtractedFact(
            type="fact",
            content=_turn_content(text),
            value=names[0],
            is_correction=True,
            message_ids=[turn.message_id],
            metadata={
                "now_holds": "" if denied else said,
                "strong": False,
                # what it is said instead of: the ingest job keys it only by a fact so named
                **({"instead_of": semantic.contrast_objects(text)} if denied else {}),
            },
        ),
    ]


def _thing_of_place(name: str) -> re.Pattern[str]:
    """What is asked or said of a place ``name``, not the place: "北京的房价", "the weather in
    Dallas"."""
    n = re.escape(name)
    return re.compile(
        rf"{n}的(?:{semantic.PLACE_THINGS_ZH})"
        rf"|\b(?:{semantic.PLACE_THINGS_EN}|jobs?) (?:in|of|at|for) {n}\b",
        re.I,
    )


# what is said in the place of a thing denied that is a reason: the user doing something ("问题不
# 是咖啡，是我睡太晚", "it's not the coffee, it's because I sleep late")
_REASON_SAID = (
    r"(?:是|\b(?:it's|it is|is)\s+)(?:因为|由于|(?:because|cause|since)\b\s*)?(?:我|\bI\b)"
)


# the keys a name said as what holds now can take, by the preposition before it ("in Dallas
# now", "at Meta now", "moved over to Amazon", "Portland now."); the ingest job picks one of
# them by the fact it takes the place of (tasks.inherit_changes)
NOW_HOLDS_KEYS: dict[str, tuple[str, ...]] = {
    "in": ("residence.city", "work.location"),
    "at": ("work.employer", "education.school"),
    "with": ("work.employer",),
    "to": ("residence.city", "work.employer", "education.school", "tech.preferred"),
    "": ("residence.city", "work.employer", "work.location", "education.school",
         "preference.drink", "tech.preferred"),
    # by the change a turn says (``_changed_to_name``)
    "moved": ("residence.city", "work.location"),
    "job": ("work.employer", "work.location"),
    "switched": ("tech.preferred", "preference.drink", "work.employer", "education.school"),
    "transferred": ("work.employer", "work.location", "education.school"),
}  # fmt: skip
_NOW_HOLDS_KEYS = frozenset(k for keys in NOW_HOLDS_KEYS.values() for k in keys)


# the keys whose value is a number: a value holds digits
_NUMBERED_KEYS = frozenset(("identity.document", "finance.card", "contact.phone"))
# a Chinese thing that opens with an adverb or a count is a piece of a clause ("一天不喝就浑身
# 难受" → "就浑身难受", "一滴都不碰" → "一滴")
_ZH_FRAGMENT = re.compile(r"^(?:[就都也还才又却]|[一两几半][滴口点些个杯次下](?:都|也)?$)")
# a particle read as a name of one character ("喊似的" → "似")
_PARTICLES = frozenset("似的了吧啊呢吗呀哦嘛么啦")


def _ill_formed(f: ExtractedFact, text: str) -> bool:
    """True if the value of ``f`` has no shape its key's values have: a number of a document,
    card or phone with no digit ("the old passport expired" → "expired"), or with digits cut
    out of a longer code ("K55306418" read as a phone); a Chinese thing that opens with an
    adverb or is a count (``_ZH_FRAGMENT``); a name that is one particle (``_PARTICLES``).
    ``text`` is the turn's."""
    value = (f.value or "").strip()
    if not value:
        return False
    if f.key in _NUMBERED_KEYS:
        at = text.find(value)
        glued = at > 0 and text[at - 1].isascii() and text[at - 1].isalpha()
        return not any(ch.isdigit() for ch in value) or (f.key == "contact.phone" and glued)
    if f.key in _THING_KEYS and _HAN.match(value):
        return _ZH_FRAGMENT.match(value) is not None
    return f.key in _NAME_KEYS and value in _PARTICLES


_NAME_KEYS = ("name.full", "name.nickname")
# the word for a name, not a name: "叫我名字", "call me by my real name"
_NAME_WORD = re.compile(
    r"(?:我的)?(?:名字|本名|真名|大名|全名|原名|名)"
    r"|(?:by )?(?:my )?(?:real |actual |full |own )?name",
    re.I,
)
# a name word in a sentence: what a request pointing back ("别用了", "don't use it") is about
_SPEAKS_OF_NAME = re.compile(
    r"\b(?:name|nick ?name|called|call(?:ing)? me|go(?:ing)? by)\b"
    r"|名字|称呼|昵称|小名|外号|叫我|喊我",
    re.I,
)
# being addressed by a name, declined: "don't call me that", "stop calling me Bex", "I don't go
# by that", "别这么叫我了", "不要再喊我小胖"
_ADDRESS_DECLINED = re.compile(
    r"\b(?:don'?t|do not|never|stop|quit|no longer|not)\s+(?:\w+\s+)?"
    r"(?:call(?:ing)?(?: me)?|go(?:ing)? by|us(?:e|ing))\b"
    r"|(?:别|不要|不用|不许|不想)(?:再)?(?:这么|这样|那么|那样)?(?:叫|喊|称呼|用)"
    # "现在大家不叫我小林子了": what the user is no longer called
    r"|不(?:再)?(?:叫|喊|称呼)我",
    re.I,
)
_ADDRESS = re.compile(r"^(?:还是|就)?(?:叫|喊|称呼)我的?|^(?:call me|use)\s+", re.I)
# the user's own name asked for in place of a nickname
_OWN_NAME_ASKED = re.compile(
    r"(?:叫|喊|称呼)我(?:的)?(?:名字|本名|真名|大名|全名)|用我的?(?:名字|本名|真名|大名|全名)"
    r"|\bcall me by my (?:\w+ )?name\b|\buse my (?:real |actual |full |own )?name\b",
    re.I,
)
# capitalised words that open or furnish a sentence, not names
_NOT_A_NAME_EN = frozenset(
    (
        *("i", "i'm", "sorry", "please", "pls", "hmm", "actually", "eh", "oh", "ok", "okay"),
        *("so", "hi", "hey", "well", "also", "just", "don't", "never", "stop", "call", "ugh"),
        *("ah", "wait", "no", "yes", "yeah", "but", "and", "the", "my", "it's", "that's"),
        *("forget", "ignore"),
    )
)


def _names_in(text: str) -> list[str]:
    """Names written in ``text``: capitalised Latin words (one or two) that do not furnish a
    sentence, and Chinese person names as the segmenter tags them."""
    out = [
        w
        for w in re.findall(r"(?<![\w'])[A-Z][a-z'-]+(?: [A-Z][a-z'-]+)?", text)
        if w.split()[0].lower() not in _NOT_A_NAME_EN
    ]
    out += re.findall(r"['\"‘“「]([^'\"’”」]{1,20})['\"’”」]", text)  # "stop calling me 'buddy'"
    if _HAN.search(text):
        out += [w for w, t in segment.tag(text) if t == "nr" and len(w) >= 2]
    return list(dict.fromkeys(out))


# a clause that is a number of years and nothing else ("现在 25", "so 30 now", "31了", "不对 26
# 了", "oops I'm actually 29 not 28", "Just hit 30 last month"): words of a slip, of time and of
# the user being it around the number
_BARE_YEARS = re.compile(
    r"^\W*(?:(?:(?:so|and|now|wait|oops|sorry|actually|no|nope|hmm|well|i mean|correction"
    r"|(?:i'?m|i am|im)|just|hit|turned)\b"
    r"|不对|说错了|记错了|其实|哦|啊|嗯|现在|所以|已经|都|今年|我)"
    r"[\s,，:：]*)*"
    r"(?P<v>[1-9]\d?)\s*(?:岁)?(?:\s*(?:了|啦|now|already|actually|years? old|yo|last \w+"
    r"|this \w+|lol|haha|lmao|tbh))*(?:[\s,，]*(?:not|不是)\s*(?P<was>[1-9]\d?))?\W*$",
    re.I,
)
_BIRTHDAY_PASSED_ZH = re.compile(r"^\W*(?:刚|已经)?(?:过完|过了)生日(?:之后|以后|后)?|^\W*生日过了")
_BIRTH_WORD = re.compile(r"生日|\bbirth ?day\b|\bb-?day\b|\bturned\b|\bjust hit\b", re.I)
# a slip said of what was told ("不对", "oops", "I'm actually 29 not 28"): a bare number beside
# it is the number told again, an age when it is a grown-up's
_SLIP = re.compile(
    r"不对|说错|记错|打错|搞错|不是\s*[1-9]\d?|\b(?:oops|actually|correction|i mean|my bad|wait"
    r"|not [1-9]\d?)\b",
    re.I,
)


def _age_by_birthday(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A bare number beside a birthday in the user's sentence is their age ("oh wait 我上个月
    生日过了，现在 25", "birthday was on Monday, so 41 now", "Just hit 30 last month"): the
    birthday says what the number counts; so does a slip the turn owns to ("不对 26 了", "oops
    I'm actually 29 not 28"), for a grown-up's age (13–99). A correction, as a birthday passed
    changes the age. Nothing when the turn forms an age already or the sentence is someone
    else's."""
    if any(f.key == "age" for f in facts):
        return []
    slip = bool(_SLIP.search(turn.content))
    someone = False  # a clause before was about someone else
    for sentence in split_clauses(turn.content):
        birthday = any(_BIRTH_WORD.search(c) for c in sentence)
        for raw in sentence:
            # "女儿上周过生日了。过完生日已经15了": the daughter's age; "oops 30. my sister
            # reminded me": the user's, someone named only after it
            someone = someone or bool(semantic.family_subject(raw) or semantic.is_about_others(raw))
            if someone or not (birthday or slip):
                continue
            # "过完生日已经28了": the birthday passed, said before the number in its clause
            raw = _BIRTHDAY_PASSED_ZH.sub("", raw)
            m = _BARE_YEARS.match(raw)
            if m is None or (_BIRTH_WORD.search(raw) and not re.search(r"just hit", raw, re.I)):
                continue
            years = int(m["v"])
            if not birthday and not 13 <= years <= 99:
                continue
            if not birthday and re.findall(r"\d+", turn.content)[0] != m["v"]:
                continue  # "we booked a table for 25. oops 30.": the number before, corrected
            zh = _lang(" ".join(sentence)) == "zh"
            # a slip alone says no more than that a number was wrong: it is the age only if
            # an age is held, the one it names if it names one (``values._age_said_again``)
            was = m["was"] or next(
                iter(re.findall(r"(?:\bnot|不是)\s*([1-9]\d?)(?!\d)", " ".join(sentence))), ""
            )
            # said as an age ("今年已经32了", "I'm actually 29"): no more to check
            said_as_age = re.search(r"今年|岁|years? old|\bi'?m\b|\bturned\b|\bhit\b", raw, re.I)
            again = {} if birthday or said_as_age else {"age_said_again": was}
            return [
                ExtractedFact(
                    type="profile",
                    content=f"今年{years}岁" if zh else f"is {years} years old",
                    key="age",
                    value=str(years),
                    is_correction=True,
                    message_ids=[turn.message_id],
                    metadata=again,
                )
            ]
    return []


# a name offered in place of the one the user gave to be called by: "actually, go with Rebecca",
# "hmm let's go with Tom instead"
_NAME_OFFERED = re.compile(
    r"^(?P<lead>(?i:\W|actually|hmm+|ugh|ok(?:ay)?|no|nah|wait|sorry|so|just|pls|please"
    r"|on second thought)*)"
    r"(?i:(?:let'?s |just )?(?:go with|use|stick with) )(?P<n>[A-Z][a-z]+(?:-[A-Z][a-z]+)?)"
    r"(?P<instead> instead)?(?: please| pls| then)?\W*$"
)
# words that take back what was just said before a name is offered ("hmm actually go with Kit")
_HESITATION = re.compile(r"\b(?:actually|hmm+|ugh|wait|on second thought)\b", re.I)


_NAME_TALK = re.compile(r"\b(?:names?|call(?:s|ed)?|nickname|go(?:es)? by)\b", re.I)


def _name_restated(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A name offered to be called by in place of another ("actually, go with Rebecca, Becca
    feels too casual", "let's go with Mohammed instead", "Just use Margaret", "hmm actually go
    with Kit" — another name beside it, names spoken of, "instead" or a word that takes back
    what was just said before it): a nickname that replaces the one held
    — only when one is held (``metadata["name_said_again"]``, ``values._name_said_again``):
    "let's go with Postgres" after no name is no name. Returns the turn's facts, a rule read
    from the same words ("go with Rebecca") left out; unchanged when the turn forms a name."""
    if any(f.key in _NAME_KEYS for f in facts):
        return facts
    for sentence in split_clauses(turn.content):
        for raw in sentence:
            m = _NAME_OFFERED.match(raw.strip())
            if m is None or m["n"].split("-")[0].lower() in _NOT_A_NAME_EN:
                continue
            name = m["n"].lower()
            others = [n for n in _names_in(turn.content) if n.lower() != name]
            offered = bool(m["instead"] or _HESITATION.search(m["lead"]))
            if not (others or offered or _NAME_TALK.search(turn.content)):
                continue  # "let's go with Alpine": a choice, no name beside it or said of names
            return [
                *(f for f in facts if not (f.type == "constraint" and name in (f.value or ""))),
                ExtractedFact(
                    type="profile",
                    content=f"likes to be called {m['n']}",
                    key="name.nickname",
                    value=m["n"],
                    is_correction=True,
                    message_ids=[turn.message_id],
                    metadata={"name_said_again": True},
                ),
            ]
    return facts


def _address_withdrawn(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A name the user declines to be called by, or a nickname given up for the user's own
    name ("I'm not Alex, please don't call me that", "…Coco 这个名字，别用了", "算了，别这么
    叫我了，还是叫我名字吧", "stop calling me Bex"): one withdrawal of ``name.nickname``
    (no value, a correction) that retracts the names the sentence gives — whatever key holds
    them — or, naming none, the nickname held. A request that names no name and speaks of
    no name ("don't use it" about a file) withdraws nothing."""
    if any(f.key in _NAME_KEYS and f.value is None for f in facts):
        return []  # the turn already withdraws a name ("I'm not Alex")
    for sentence in split_clauses(turn.content):
        whole = " ".join(sentence)
        for i, raw in enumerate(sentence):
            declined = _ADDRESS_DECLINED.search(raw)
            own = _OWN_NAME_ASKED.search(raw)
            if not (declined or own):
                continue
            if declined and not own:
                if not _SPEAKS_OF_NAME.search(whole):
                    continue
                back = standing.points_back(raw[declined.start() :])
                after = raw[declined.end() :]
                named = [] if back else _names_in(after)
                if not back and not named and _HAN.search(after):
                    # "别叫我小美了": what is left past the pronoun and the particles
                    rest = re.sub(r"^我|[了吧啊呀哦啦嘛呢\s]+$", "", after.strip())
                    named = [rest] if re.fullmatch(r"[\u4e00-\u9fff]{1,8}", rest) else []
                if not back and not named:
                    continue  # "don't use my email": something else declined
            else:
                named = []
            if declined and not named:
                named = _names_in(" ".join(sentence[:i]))
            zh = _lang(whole) == "zh"
            said = "、".join(named) if zh else " or ".join(named)
            # its own words, not the rule's: a record with the rule's content would be taken
            # for the rule said again
            if zh:
                content = f"不想被称为{said}" if said else "不想再被这样称呼"
            else:
                content = f"does not go by {said}" if said else "does not go by that name"
            return [
                ExtractedFact(
                    type="profile",
                    content=content,
                    key="name.nickname",
                    value=None,
                    is_correction=True,
                    retracts=[_as_retracted(n) for n in named],
                    message_ids=[turn.message_id],
                    metadata={"retraction": True},
                )
            ]
    return []


def _turn_content(text: str) -> str:
    """A whole turn as a record's content: cleaned of fillers, without the leading subject."""
    return _zh_content(_clean_zh(text)) if _lang(text) == "zh" else _clean_en(text)


def _taken_back(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """ "I take that back", "说错了，我说的是我妈", "oops, I meant UCSD": what a turn that opens by
    taking back what the user just said forms (``metadata["takes_back"]``; the ingest job names
    the user's previous turn, arbitration withdraws what that turn formed). Returns the turn's
    facts:

    - facts of the user's own in the turn ("说错了，我是南师大毕业的") each replace what the
      previous turn formed under their key (they are marked, nothing is added);
    - else a value said in place of the misstated one ("sorry, autocorrect — it's Leo, not
      Liam", "打错了，是小虹"): one fact with that value and no key, ``metadata["in_place"]``,
      in place of any fact of the turn holding that value; arbitration gives it the key of
      the memory it replaces;
    - else one record that withdraws what the previous turn formed.

    "Forget that I live in Paris" (``semantic.forgets_what_follows``): each fact becomes the
    withdrawal of its value (``_forget``)."""
    text = turn.content.strip()
    if semantic.forgets_what_follows(text):
        _forget(facts)
        return facts
    if semantic.rule_pointed_at(text) and semantic.takes_back(text):
        # "用英文的那条不用了": the request pointed at is dropped, nothing it says is a rule
        facts = [f for f in facts if f.key != "assistant.constraint"]
    if any(f.metadata.get("formed_by") == "standing_rule" for f in facts):
        return facts  # "Use metric with me, not imperial": the "not …" is the rule's own
    if not semantic.takes_back(text):
        return _unnamed_ending(turn, facts)
    if flip := semantic.flipped_polarity(text):
        # "打错了，是不喜欢！香菜我一口都不碰": the thing just named stays, its taste turns over
        # (``values``); what else the turn says of it stands beside, written after it (an
        # avoidance written first would freeze the liking the slip turns over)
        flipped = {"retraction": True, "takes_back": True, "flip_to": flip}
        return [_withdrawal_record(turn, flipped), *facts]
    value = semantic.said_in_place(text)
    if value is not None and (said_as_not_so(text) or thing_denied(text)):
        # "did you mean it's not Berlin, it's Munich?", "这批货不是上海的，是广州的": no slip of
        # the user's own is put right
        return facts
    # "说错了，是二十九": the number said in place, in digits like the stored one
    if value and _HAN.search(value) and (n := cn_int(value.removesuffix("岁"))) is not None:
        value = str(n)
    # beside a value said in place, a guess of the classifier's (a fragment such as "彩虹的虹")
    # is not what the user restates, nor is that value a fact of its own ("it's Tim, not Tom")
    own = [
        f
        for f in facts
        if f.key not in (None, "family.member")
        and f.value
        and f.type != "constraint"
        and not (value and f.metadata.get("formed_by") == "classifier")
        and not (value and f.value.lower() == value.lower())
        # "oops, I meant March 13": the day said in place is no appointment of its own
        and not (value and f.key == "event" and value.lower() in f.value.lower())
    ]
    for f in own:
        f.metadata["takes_back"] = True
        f.is_correction = True
    if own and semantic.never_said(text):
        # "我从来没说过我是北京人，我只是在北京上过学": beside what the turn states, what it
        # denies having said is withdrawn (the memories of the previous turn it names)
        return [*facts, _withdrawal_record(turn, {"retraction": True, "takes_back": True})]
    if own:
        return facts
    # "纠正一下，我老婆其实叫陈婧，女字旁的婧，不是安静的静": a relative's name said again, spelled
    # right; arbitration replaces the name of theirs spelled alike, nothing else of the turn before
    respelled = [
        f
        for f in facts
        if f.key == "family.member"
        and f.value
        and f.is_correction
        and (value is None or value.lower() == f.value.lower())
    ]
    if len(respelled) == 1:
        respelled[0].metadata["respelled"] = True
        return [f for f in facts if f.key is not None or f.value is not None]
    withdrawn: list[str] = []
    if value is not None and (year := _BIRTH_YEAR_IN_PLACE.fullmatch(value)):
        # "说错了，是八九年的": a birth year said in place of the misstated one
        facts = [f for f in facts if not (f.value and f.value.lower() == value.lower())]
        born = _four_digits(year.group("y"))
        return [
            *facts,
            ExtractedFact(
                type="profile",
                content=f"{born}年出生",
                key="birthday",
                value=born,
                is_correction=True,
                message_ids=[turn.message_id],
                metadata={"takes_back": True},
            ),
        ]
    if value is not None:
        facts = [
            f
            for f in facts
            if not (
                f.value
                and (
                    f.value.lower() == value.lower()
                    or (f.key == "event" and value.lower() in f.value.lower())
                )
            )
        ]
        # "不对，它叫来福，旺财是我邻居家的": what the turn withdraws beside a value said in its
        # place is the misstated value the new one replaces, not a pet or a thing given up
        withdrawn = [r for f in facts if f.value is None and f.metadata.get("retraction")
                     for r in f.retracts]  # fmt: skip
        if withdrawn:
            facts = [f for f in facts if not (f.value is None and f.metadata.get("retraction"))]
    elif semantic.is_slip(text):
        return facts  # "oops, I meant juice": which word was mistyped is unknown: none is withdrawn
    meta: dict[str, Any] = {"retraction": True, "takes_back": True}
    if topic := semantic.taken_back_topic(text):
        meta["takes_back_topic"] = topic
    elif semantic.rule_pointed_at(text):
        meta["takes_back_topic"] = semantic.RULE_TOPIC  # "用英文的那条不用了": the request
    if semantic.elliptic_denial(text):
        meta["elliptic"] = True  # "I don't, …": only of a turn said right before
    if value is not None:
        meta = {"takes_back": True, "in_place": True}
        if semantic.spelled_out(text):
            meta["spelled"] = True  # "Catherine with a C": only a name spelled alike is meant
        if topic := semantic.slip_topic(text):
            meta["takes_back_topic"] = topic  # "航班号说错了，是CA929": only a flight number
        if instead := [*semantic.contrast_objects(text), *withdrawn]:
            meta["instead_of"] = list(dict.fromkeys(instead))
    return [*facts, _withdrawal_record(turn, meta, value)]


# "I don't speak French, only English": the clause after a denied verb holds what the verb does
_DENIED_VERB_EN = re.compile(
    r"^\W*I\s+(?:don'?t|do not|never|can'?t|cannot)\s+(?:really\s+)?(?P<v>[a-z]+)\b", re.I
)
_ONLY_EN = re.compile(r"^(?P<lead>\s*(?:but\s+)?)(?:only|just)\s+(?=\S)", re.I)


def _only_after_denial(sentence: list[str]) -> list[str]:
    """The clauses of ``sentence``, where one that says only what a denied verb does ("I don't
    speak French, only English", "I never drink soda, just water") is given that verb and the
    user: "I speak English" — a statement of the user's, not a rule for the assistant."""
    out = list(sentence)
    for i in range(1, len(out)):
        denied = _DENIED_VERB_EN.match(out[i - 1])
        only = _ONLY_EN.match(out[i])
        if denied and only:
            out[i] = f"{only.group('lead')}I {denied.group('v')} {out[i][only.end() :]}"
    return out


def _unnamed_ending(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """ "I don't use it anymore", "stopped going a while ago", "最近膝盖疼，不跑了": a clause that
    says something ended without naming it ends what the user just spoke of. One record that
    takes back what the previous turn formed (``metadata["takes_back"]``), only what its verb
    names when it has one ("不跑了" the running, not the city), all of it when the verb names
    no activity ("I don't really do that anymore"). A withdrawal record the turn already has
    becomes that record (one record per turn: two of the same words would be one memory)."""
    verbs = [
        verb
        for sentence in split_clauses(turn.content)
        if not semantic.is_hypothetical(sentence[0])
        for clause in sentence
        if (verb := semantic.unnamed_ending(clause)) is not None
    ]
    if not verbs:
        return facts
    # "现在不喜欢了": the predicate with no object is the ending, no fact of its own
    facts = [
        f
        for f in facts
        if not (f.key and f.value is None and not f.retracts and not f.metadata.get("retraction"))
    ]
    meta: dict[str, Any] = {
        "retraction": True,
        "takes_back": True,
        "unnamed_ending": True,
        "takes_back_topic": f"{semantic.VERB_TOPIC}{verbs[0]}",
    }
    record = next((f for f in facts if f.value is None and f.metadata.get("retraction")), None)
    if record is not None:
        record.metadata.update(meta)
        return facts
    return [*facts, _withdrawal_record(turn, meta)]


def _withdrawal_record(turn: Turn, meta: dict[str, Any], value: str | None = None) -> ExtractedFact:
    """The one keyless record of a turn that takes something back: the turn's words as its
    content, a correction, ``metadata`` saying what it withdraws (and ``value`` when a value is
    said in place of the withdrawn one)."""
    return ExtractedFact(
        type="fact",
        content=_turn_content(turn.content.strip()),
        value=value,
        is_correction=True,
        message_ids=[turn.message_id],
        metadata=meta,
    )


def _forget(facts: list[ExtractedFact]) -> None:
    """ "Forget that I live in Paris": each fact the turn states becomes the withdrawal of its
    value (no value, ``retracts`` the value, a correction), so nothing of it is stored."""
    for f in facts:
        if f.key is not None and f.value:
            f.retracts, f.value = [_as_retracted(f.value)], None
            f.is_correction = True
            f.metadata = {"retraction": True}


def _names_someone(text: str) -> bool:
    """True if a person other than the user is named anywhere in ``text`` ("and my wife too",
    "same with my brother", "还有我妈"): checked from each word on."""
    if _lang(text) == "zh":
        starts, pos = [], 0
        for word in segment.cut(text):
            starts.append(pos)
            pos += len(word)
    else:
        starts = [m.start() for m in re.finditer(r"\b\w", text)]
    return any(semantic.someone_elses(text[i:]) for i in starts)


_CUE_ONLY = re.compile(
    r"^\W*(?:(?:oh|ah|and|also|plus|yeah|btw|another thing|one more thing|另外|还有|而且|对了"
    r"|还有就是|以及)\W*)+$",
    re.I,
)


def addon_sentences(text: str) -> list[str]:
    """The add-ons of a user turn: clauses that add to what the user just said, possibly
    without its predicate ("no beef either", "oh and bee stings too", "还有芒果", "普通话当然也
    会说"). In each sentence, the first clause with an additive word
    (``semantic.is_additive``), joined to the next one when it is nothing but the cue
    ("另外，…", "Oh and, …"); not in a question or a hypothetical, and not when it or a
    clause before it is about someone else ("my wife is allergic to bees too", "我老婆也是").
    What follows it in the sentence ("…，他的现场太好哭了") is not part of it. The ingest job
    gives such a clause the key of a fact of the user's previous turn when it forms no fact
    of its own (``app/ingest/tasks.py``, ``inherit_addons``)."""
    out = []
    for sentence in _sentences(text):
        clauses = [c.strip() for c in _CLAUSE.split(sentence) if c and c.strip()]
        if not clauses or is_question(sentence) or semantic.is_hypothetical(clauses[0]):
            continue
        at = next((i for i, c in enumerate(clauses) if semantic.is_additive(c)), None)
        if at is None:
            continue
        unit = clauses[at]
        if _CUE_ONLY.match(unit) and at + 1 < len(clauses):
            sep = "，" if _lang(unit) == "zh" else ", "
            unit = unit.rstrip(" ,，") + sep + clauses[at + 1]
            at += 1
        if any(_names_someone(c) or semantic.not_mine(c) for c in [*clauses[:at], unit]):
            continue
        out.append(unit)
    return out


def addon_has_subject(sentence: str) -> bool:
    """True if an add-on sentence, past its fillers ("oh and", "另外"), has a subject or an
    address of its own ("I also work at Shopify", "请…"): what it forms is its own."""
    clean = _clean_zh(sentence) if _lang(sentence) == "zh" else _clean_en(sentence)
    return semantic.own_subject(clean)


def addon_content(sentence: str) -> str:
    """An add-on sentence as a fact's content when no value is isolated: the user's words,
    cleaned of fillers (zh: without the leading subject)."""
    return _turn_content(sentence)


_LIKING_VERBS = frozenset(("喜欢", "爱", "爱吃", "爱喝", "like", "love", "enjoy"))
_CONSUMED_ZH = frozenset(("吃", "喝", "听", "看"))


def _things_had(clause: str) -> list[str]:
    """The things a clause says the user ate, drank, heard or watched, or tired of: the nouns
    right after 吃/喝/听/看 ("上次吃榴莲吃到吐了" → ["榴莲"]) and what got boring ("火锅最近吃腻了"
    → ["火锅"])."""
    found = [
        q
        for q in semantic.quit_objects(clause)
        if q not in semantic.quit_objects(clause, tired=False)
    ]
    if _lang(clause) == "zh":
        words = list(segment.tag(clause))
        for n, (word, _) in enumerate(words):
            if word not in _CONSUMED_ZH:
                continue
            # "喝了好多啤酒", "吃了一次臭豆腐": past the aspect and the amount to the noun
            for after, flag in words[n + 1 : n + 4]:
                if flag.startswith("n") and len(after) >= 2:
                    found.append(after)
                    break
                if not (flag in ("ul", "uguo", "m", "q", "mq", "d") or after in ("了", "过")):
                    break
    return list(dict.fromkeys(found))


def _liking_ended(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A liking taken back with no object of its own ("上次吃榴莲吃到吐了，现在闻到就反胃，
    不喜欢了", "火锅吃到吐了，不爱吃了") is a dislike of the one thing
    its sentence had before it: ``preference.dislikes`` retracting it. Nothing when the sentence
    names no such thing or more than one, or when the turn holds a taste of the thing already."""
    tasted = {(f.value or "").lower() for f in facts if f.key in _TASTES or f.key == "diet.avoid"}
    new: list[ExtractedFact] = []
    for sentence in split_clauses(turn.content):
        if semantic.is_hypothetical(sentence[0]):
            continue
        for i, raw in enumerate(sentence):
            if semantic.unnamed_ending(raw) not in _LIKING_VERBS or semantic.someone_elses(raw):
                continue
            things = [t for c in sentence[:i] if not is_question(c) for t in _things_had(c)]
            if len(set(things)) != 1 or things[0].lower() in tasted:
                continue
            thing = things[0]
            new.append(
                ExtractedFact(
                    type="preference",
                    content=f"不喜欢{thing}"
                    if _lang(raw) == "zh"
                    else f"doesn't like {thing} anymore",
                    key="preference.dislikes",
                    value=_norm(thing, "preference.dislikes"),
                    is_correction=True,
                    retracts=[_as_retracted(thing)],
                    message_ids=[turn.message_id],
                    metadata={"liking_ended": True, "changed": True},
                )
            )
            tasted.add(thing.lower())
    return new


# a liking with no object ("还挺喜欢的", "现在反而爱上了", "actually kinda like it now")
_BARE_LIKING = re.compile(
    r"^\W*(?:还|也|现在|其实|反而|真的?|挺|蛮|很|越来越|开始|慢慢)*(?:喜欢|爱)(?:上)?(?:的|了|它|啦)*\W*$"
    r"|^\W*(?:(?:and|but|actually|now|kinda|kind of|really|i)\s+)*(?:like|love|enjoy)s?"
    r"\s+(?:it|them)(?:\s+(?:now|a lot|actually))*\W*$",
    re.I,
)


# what the user watches, listens to, reads or plays now, said beside a taste that ended ("I
# watch comedies now", "改看美剧", "最近在听 indie rock", "现在迷上了羽毛球")
_CONSUMES_NOW_EN = re.compile(
    r"\bI(?:'m| am)?\s+(?:mostly |mainly |only |just )?(?P<v>watch(?:ing)?|listen(?:ing)? to"
    r"|read(?:ing)?|play(?:ing)?|into)\s+(?P<x>[A-Za-z][\w' -]{1,30}?)\s+"
    r"(?:now|these days|nowadays|instead)\b",
    re.I,
)
_CONSUMES_NOW_ZH = re.compile(
    r"(?:改|现在(?:在|改)?|最近(?:在|开始)?|开始|迷上了?)(?P<v>看|听|追|玩|读|打)"
    r"\s*(?![腻够烦厌完懂不没])(?P<x>[\u4e00-\u9fffA-Za-z][\u4e00-\u9fffA-Za-z -]{0,11}?)\s*"
    r"(?:了|啦|[，,。！!~]|$)"
)
_VERB_ZH = {"看": "看", "听": "听", "追": "看", "玩": "玩", "读": "读", "打": "打"}


def _taste_now(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A taste taken up in the turn that ends one ("现在不追韩剧了，改看美剧", "horror's not for me
    anymore, I watch comedies now", "K-pop 现在听腻了，最近在听 indie rock"): the thing watched,
    listened to, read or played now is a liking (``_CONSUMES_NOW_EN``/``_ZH``), when the turn
    withdrew a taste and formed no liking of its own. Returns the turn's facts."""
    ended = any(
        f.metadata.get("retraction") and (f.key or "preference.").startswith("preference.")
        for f in facts
    )
    if not ended or any(f.key == "preference.likes" and f.value for f in facts):
        return facts
    zh = bool(_HAN.search(turn.content))
    m = (_CONSUMES_NOW_ZH if zh else _CONSUMES_NOW_EN).search(turn.content)
    if m is None:
        return facts
    thing = m["x"].strip()
    doing = f"{_VERB_ZH[m['v']]}{thing}" if zh else thing  # "看美剧", "听indie rock"
    # a Chinese thing keeps its verb ("看美剧"); a Latin one is its name ("indie rock")
    value = doing if _HAN.search(thing) else thing
    content = f"喜欢{doing}" if zh else f"likes {thing}"
    return [
        *facts,
        ExtractedFact(
            type="preference",
            content=content,
            key="preference.likes",
            value=_norm(value, "preference.likes"),
            message_ids=[turn.message_id],
        ),
    ]


def _liking_taken_up(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A liking with no object of its own ("还挺喜欢的", "kinda like it now") in a turn that lifts
    an avoidance ("现在慢慢能接受香菜了，还挺喜欢的", "现在能吃辣了，还挺喜欢") is a liking of the
    one thing lifted; with no such thing, or several, it names nothing and forms no fact (the
    classifier's liking with no value is left out). Returns the turn's facts."""
    out = [
        f
        for f in facts
        if not (
            f.key == "preference.likes" and f.value is None and not f.metadata.get("retraction")
        )
    ]
    lifted = list(
        dict.fromkeys(r for f in facts if f.metadata.get("lifted") for r in f.retracts if r)
    )
    bare = any(_BARE_LIKING.match(c) for s in split_clauses(turn.content) for c in s)
    if len(lifted) != 1 or not bare or any(f.key == "preference.likes" and f.value for f in out):
        return out
    thing = lifted[0]
    content = f"喜欢{thing}" if _HAN.search(thing) else f"likes {thing}"
    return [
        *out,
        ExtractedFact(
            type="preference",
            content=content,
            key="preference.likes",
            value=_norm(thing, "preference.likes"),
            message_ids=[turn.message_id],
        ),
    ]


# keys of what the user uses or does: a turn that changes one gives up a tool or a job
_TOOL_OR_JOB_KEYS = frozenset(
    ("tech.preferred", "language.preferred", "work.employer", "work.role", "education.school")
)


# a spot said alone after a place, no verb of its own: "就在西湖边上", "在朝阳区那边", "离外滩很近"
_A_SPOT_ZH = re.compile(
    r"^(?:就|也|都|离)?(?:在|离)?[\u4e00-\u9fffA-Za-z]{1,10}?(?:边上|附近|那边|这边|旁边|一带|周边|很近|不远)"
    r"[了呢啊吧哈]*[。！!]*$"
)


# how a drink is made, not a drink: "三分糖去冰", "少冰半糖", "大杯热的"
_DRINK_ORDER_ZH = re.compile(
    r"(?:[一二三四五六七八九十半全无少多去正常标准]分?糖|[去少多正常]冰|不加冰|常温|热的?|温的?"
    r"|[超大中小]杯|\s)+"
)


def _gave_up(
    turn: Turn, raw: str, key: str, value: str | None, thing: str, mark: str
) -> ExtractedFact:
    """What the clause ``raw`` says the user gave up, ``thing``, retracted under ``key``: a
    food or drink avoided now (``value`` the thing, ``mark`` "abstained"), or a tool no longer
    touched ("MySQL现在基本不碰了": no value, ``mark`` "retraction")."""
    return ExtractedFact(
        type="preference",
        content=_content(_make_clause(raw, turn)),
        key=key,
        value=value,
        is_correction=True,
        retracts=[_as_retracted(thing)],
        message_ids=[turn.message_id],
        metadata={mark: True},
    )


def _abstained(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """What the user says they no longer eat or drink ("可乐戒了，体检说血糖有点高", "quit soda
    completely, my doctor said…", "现在一点辣都不碰") is avoided now: one ``diet.avoid`` per
    thing no fact of the turn holds yet, retracting it, so what was liked or drunk is frozen.
    Read only in the user's own clauses: not in a reason ("因为…"), not in what a relative or
    someone else gave up, not in a question or a hypothetical."""
    held = [
        (f.value or "").lower()
        for f in facts
        if f.key in ("diet.avoid", "preference.drink", "diet.style", "preference.dislikes")
        and f.value
    ]
    if any(f.key in _TOOL_OR_JOB_KEYS and f.value for f in facts):
        return []  # "现在全面转 Swift 了，OC 不碰了": a tool left, not a food
    new: list[ExtractedFact] = []
    for sentence in split_clauses(turn.content):
        for raw in sentence[semantic.unmeant(sentence) :]:
            if (
                is_question(raw)
                or _reason_said(raw) is not None
                or semantic.someone_elses(raw)
                or semantic.family_subject(raw) is not None
                or semantic.craves(raw)
            ):
                continue
            for thing in semantic.abstained(raw):
                tool = thing.strip()
                if semantic.TECH.match(tool) or tool in semantic.TECH_ZH:
                    # "MySQL现在基本不碰了": a tool left, withdrawn where it is held
                    new.append(_gave_up(turn, raw, "tech.preferred", None, tool, "retraction"))
                    continue
                value = _norm(thing, "diet.avoid")
                if (
                    not value
                    or any(value.lower() in h for h in held)  # "drinking energy drinks"
                    or semantic.names_diet(value)
                ):
                    continue
                held.append(value.lower())
                new.append(_gave_up(turn, raw, "diet.avoid", value, thing, "abstained"))
    return new


def _switched_drink(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A drink given up for another in the same turn ("I stopped drinking jasmine tea, it's all
    hot chocolate now") is a switch, not an avoidance: the new drink retracts the old one, and
    no ``diet.avoid`` is formed for it."""
    given_up = {
        r.lower()
        for f in facts
        if f.key == "preference.drink" and f.value and f.retracts
        for r in f.retracts
    }
    if not given_up:
        return facts
    return [
        f for f in facts if not (f.key == "diet.avoid" and f.value and f.value.lower() in given_up)
    ]


_NOT_DRINKING = re.compile(
    r"不喝|没喝|别喝|\b(?:don'?t|do not|never|no longer|stopped) drink", re.I
)
# a liked thing that is a tool used: "喜欢用 Flutter 做跨平台", "I like using Svelte"
_USING = re.compile(
    r"^(?:用|使用|using|to use|working (?:in|with)|coding in|writing)\s*"
    r"(?P<x>[A-Za-z][\w+#.]*(?:[ -][A-Z][\w+#.]*)*)",
    re.I,
)
# a liked thing that is a known tool ("不过我自己更喜欢 Slack", "I love Postgres")
_TOOL_LIKED = re.compile(r"^(?P<x>[A-Za-z][\w+#.]*(?: [A-Za-z][\w+#.]*)?)$")


def _tool_liked(value: str) -> re.Match[str] | None:
    return _TOOL_LIKED.match(value) if _TECH.match(value) else None


_LIKE_USING = re.compile(
    r"(?:喜欢|偏好|偏爱|爱|prefer|like|love|enjoy)\w*\s*" + _USING.pattern.lstrip("^"), re.I
)


# a thing the user is used to using, by its name ("我习惯用印象笔记"): a tool, not a taste;
# a common word is no tool's name ("习惯用筷子")
_HABIT_USING = re.compile(r"习惯(?:用|使用)\s*(?P<x>[^，,。\s]{2,12})$")


def _used_by_habit(content: str) -> re.Match[str] | None:
    m = _HABIT_USING.search(content)
    if m is None:
        return None
    x = m.group("x")
    return m if _TECH.match(x) or segment.slot_name(x) else None


def _implied(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """Facts another fact of the turn implies, by the shape of its words:

    - a habit of drinking something ("我每天都喝可乐", "I drink black tea every morning") is
      also the usual drink (``preference.drink``), the object of the drinking verb isolated by
      segmentation (``semantic.drink_object``);
    - a liking whose object is a tool being used ("喜欢用 Flutter 做跨平台", "习惯用印象笔记") is
      ``tech.preferred`` = the tool's name (the liking is re-keyed, not doubled).
    """
    out: list[ExtractedFact] = []
    keys = {f.key for f in facts}
    for fact in facts:
        if fact.key == "preference.likes" and fact.value:
            m = (
                _USING.match(fact.value.strip())
                or _LIKE_USING.search(fact.content)
                or _tool_liked(fact.value.strip())
                or _used_by_habit(fact.content)
            )
            if m and "tech.preferred" not in keys:
                fact.key, fact.value = "tech.preferred", m.group("x").strip()
                fact.type = "preference"
                keys.add("tech.preferred")
            continue
        if fact.key != "schedule.habit" or "preference.drink" in keys:
            continue
        text = fact.value or fact.content
        if _NOT_DRINKING.search(text) or _NOT_DRINKING.search(turn.content):
            continue
        drink = semantic.drink_object(text)
        if not drink or len(drink) > 30:
            continue
        zh = _lang(text) == "zh"
        spec = key_spec("preference.drink")
        out.append(
            ExtractedFact(
                type=spec.type if spec else "preference",  # type: ignore[arg-type]
                content=semantic.describe("preference.drink", drink, zh),
                key="preference.drink",
                value=_norm(drink, "preference.drink"),
                is_correction=fact.is_correction,
                message_ids=list(fact.message_ids),
                metadata={k: v for k, v in fact.metadata.items() if k != "category"},
            )
        )
        keys.add("preference.drink")
    return out


# a rule for the language of the answers ("reply in Spanish", "用中文回复"): the language the
# user prefers, which a later rule of another language replaces
_ANSWER_LANGUAGE = re.compile(
    rf"\b(?:reply|answer|respond|write|talk|speak|chat)\w*(?: (?:to |with )?me)?"
    rf" (?:only |always |just )?in (?:(?P<x>{_LANGS_EN})\b|\s*(?P<t>{_LANGS_ZH}))"
    rf"|\bswitch(?:ing)? (?:back |over )?to (?P<z>{_LANGS_EN})\b"
    # "let's go back to English": the language of before asked for again
    rf"|\b(?:go(?:ing)?|get(?:ting)?|revert(?:ing)?) back to (?P<b>{_LANGS_EN})\b"
    rf"|(?:^|[请麻烦都全只律还是以后今改]|prefer\s*)用\s*(?P<y>{_LANGS_ZH}|{_LANGS_EN})"
    rf"\s*(?:来|跟我|和我|给我|跟你|和你)?(?:回答|回复|回|答|写|聊|交流|沟通|说)"
    rf"|(?:还是|改成|换成|换回|改回|切回)\s*(?:用)?\s*(?P<w>{_LANGS_ZH}|{_LANGS_EN})"
    r"\s*(?:吧|就行|就好|好了)"
    rf"|(?:回答|回复)[^，,。]{{0,6}}用(?P<v>{_LANGS_ZH})"  # "回答我的时候用英文"
    # "以后跟我说中文", "和我讲English就行": what the user asks to be spoken to in
    rf"|(?:跟|和|对)我(?:说|讲)\s*(?P<s>{_LANGS_ZH}|{_LANGS_EN})\s*(?:吧|就行|就好|好吗|哈|呀|啊)?\W*$"
    # the language alone, said to stand: "Actually, English from now on."
    rf"|^(?:(?:actually|ok(?:ay)?|so|and|but|hmm+)\W+)*(?P<u>{_LANGS_EN})(?: only)?\W*"
    r"(?:from now on|going forward|from here on(?: out)?)(?:\W+(?:please|pls|thanks))?\W*$",
    re.I,
)


_ANSWERS = "answer_language"
# what may open a request before its verb: "ok so please stop …"
_ASK_LEAD_EN = r"^\W*(?:(?:ok(?:ay)?|so|and|please|pls|also)\W+)*"
_STOP_FIRST = re.compile(_ASK_LEAD_EN + r"(?:stop|quit)\b", re.I)
# a request for the answers in a language, turned down from now on: "不用再用英文回我了",
# "别再用英文回复了", "don't reply in English anymore", "stop answering in Spanish"
_NO_LONGER_ASKED = re.compile(
    # said to the assistant, of its answers to the user: not "我同事说不用再用英文回他了", "我现在
    # 不用英文回复邮件了", "stop replying in English to my sister's emails"
    r"^\W*(?:(?:以后|今后|那|好|算了|还有)[，,\s]*)*(?:你)?(?:就|也)?"
    rf"(?:不用|不要|别|不需要|不必)再?(?:跟我|给我|对我)?用\s*(?P<y>{_LANGS_ZH}|{_LANGS_EN})\s*"
    r"(?:来|跟我|和我|给我)?(?:回答|回复|回|答|写|聊|交流|沟通|说)(?:我)?(?:了|啦|吧)?\W*$"
    r"|" + _ASK_LEAD_EN + r"(?:stop|quit|no more)\s+"
    r"(?:reply|answer|respond|writ|talk|speak)\w*(?: (?:to |with )?me)? in"
    rf" (?P<x>{_LANGS_EN})\b(?!\s+(?:to|for|when|in|on|with)\b)"
    r"|" + _ASK_LEAD_EN + r"(?:don'?t|do not|no need to)\s+"
    r"(?:reply|answer|respond|write|talk|speak)\w*(?: (?:to |with )?me)? in"
    rf" (?P<z>{_LANGS_EN})\b(?!\s+(?:to|for|when|in|on|with)\b).*\b(?:anymore|any more)\b",
    re.I,
)


# a part of the code written for the user, whose language is not the answers'
_PART_OF_CODE = re.compile(
    r"注释|代码|变量名?|函数名?|提交信息|\b(?:comments?|code|variables?|variable names|commit"
    r" messages?|docstrings?)\b",
    re.I,
)


def _answer_language(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """The language a request for the answers names ("reply in Spanish", "Can you answer me in
    French from now on?", "switch to German please", "用中文回复", "还是 English 吧") is the
    language the user prefers, of the category ``answer_language``: a later one replaces the
    language an earlier request named, not the languages the user speaks ("I speak French"
    stays beside "from now on reply in English"). A language the turn states already takes
    the category instead of being formed twice."""
    out: list[ExtractedFact] = []
    for sentence in split_clauses(turn.content):
        sentence = sentence[semantic.unmeant(sentence) :]
        if not sentence:
            continue
        for raw in sentence:
            stopped = _NO_LONGER_ASKED.search(raw)
            if stopped is not None:
                # "不用再用英文回我了", "stop replying in Spanish": the language asked for before
                # is not wanted now
                named = next(g for g in stopped.groups() if g)
                out.append(
                    ExtractedFact(
                        type="preference",
                        # its own words: the rule read from the clause holds the clause's
                        content=f"不再希望用{named}回答"
                        if _lang(raw) == "zh"
                        else f"no longer wants answers in {named}",
                        key="language.preferred",
                        value=None,
                        is_correction=True,
                        retracts=[_norm(named, "language.preferred")],
                        message_ids=[turn.message_id],
                        metadata={"retraction": True},
                    )
                )
                continue
            said = _ANSWER_LANGUAGE.search(raw)
            if (
                said is None
                or semantic.is_negated(raw)
                or _STOP_FIRST.match(raw)  # "stop replying in English to my sister's emails"
                or standing.refines(raw)
                or standing.complains(raw)  # "你老是用英文回我": the other way is asked for
            ):
                continue  # "…in Spanish this time?": the answer just given, not a preference
            if semantic.is_about_others(raw) or semantic.family_subject(raw):
                continue  # "我朋友让AI回答都用英文": someone else's answers
            if _PART_OF_CODE.search(raw[: said.start()]):
                continue  # "注释还是改成中文吧": the code's comments, not the answers (a rule)
            named = next(g for g in said.groups() if g)
            value = _norm(named, "language.preferred")
            same = [
                f
                for f in [*facts, *out]
                if f.key == "language.preferred" and (f.value or "").lower() == value.lower()
            ]
            for f in same:
                f.metadata["category"] = _ANSWERS
            if not any(f.key == "assistant.constraint" for f in [*facts, *out]):
                # "算了还是中文吧": the request is a rule for the answers too, which takes the
                # place of one that named another language ("reply in English please")
                rule = f"用{named}回答" if _lang(raw) == "zh" else f"answer in {named.lower()}"
                out.append(
                    ExtractedFact(
                        type="constraint",
                        content=rule,
                        key="assistant.constraint",
                        value=rule,
                        message_ids=[turn.message_id],
                        metadata={"formed_by": "standing_rule", "changed": True},
                    )
                )
            if same:
                continue
            out.append(
                ExtractedFact(
                    type="preference",
                    # what was asked, not a language spoken ("会说中文" would claim one)
                    content=f"希望用{named}回答"
                    if _lang(raw) == "zh"
                    else f"wants answers in {named}",
                    key="language.preferred",
                    value=value,
                    message_ids=[turn.message_id],
                    metadata={"formed_by": "answer_language", "category": _ANSWERS},
                )
            )
    return out


_PLACE_KEYS = frozenset(("residence.city", "hometown"))
_WHERE_KEYS = frozenset(("residence.city", "hometown", "work.location"))
_WORK_KEYS = frozenset(("work.employer", "work.role", "work.location"))
_OTHERS_JOB = re.compile(
    r"\b(?:my|our|his|her|their) (?!(?:own|company|firm|team|employer|boss)\b)[a-z]+'s"
    r" (?:new )?(?:job|work|company|office|career)\b"
    r"|(?:老公|老婆|丈夫|妻子|男朋友|女朋友|爱人|对象|先生|太太|爸|妈)(?:的)?(?:新)?(?:工作|公司|单位)",
    re.I,
)
_LANGUAGE_HARD = re.compile(
    rf"^(?:{_LANGS_ZH})(?:我|的)?(?:看着|看起来|读着|读起来|听着|听起来)?(?:太|有点|好|很)?"
    rf"(?:累|费劲|吃力|难懂|头疼)"
)
_WORKPLACE_KEYS = frozenset(("work.employer", "work.location"))
# the keys a language may be a value of: spoken, liked, disliked
_LANGUAGE_SKILL_KEYS = frozenset(("language.preferred", "preference.likes", "preference.dislikes"))
# the keys of what the user has: a pet, an address, a number
_OWNED_KEYS = frozenset(("pets.name", "pets.kind", "contact.email", "contact.phone"))


def _sentence_with(text: str, value: str) -> list[str]:
    """The clauses of the first sentence of ``text`` that holds ``value`` (case-insensitive),
    else ``[text]``."""
    low = value.lower()
    return next(
        (sentence for sentence in split_clauses(text) if low in "".join(sentence).lower()),
        [text],
    )


# a day said as where a change starts ("今天开始不喝酒了", "from today on"): not a day's only
_FROM_THE_DAY = re.compile(
    r"开始|起|\b(?:from (?:today|tonight|now) on|starting (?:today|tonight)|as of today)\b", re.I
)


def _for_today_only(clause: str) -> bool:
    """True if ``clause`` says what holds for the day or the night only ("今天不喝茶了", "I'm
    not drinking coffee today", ``semantic.for_once``), not from that day on."""
    return semantic.for_once(clause) and not _FROM_THE_DAY.search(clause)


def _clause_with(text: str, value: str) -> str:
    """The first clause of ``text`` that holds ``value`` (case-insensitive), else ``text``."""
    low = value.lower()
    return next((c for sentence in split_clauses(text) for c in sentence if low in c.lower()), text)


def _of(items: list[tuple[tuple[int, _Clause, bool], int]], sid: int) -> list[int]:
    return [n for n, (_, s) in enumerate(items) if s == sid]


_TIMED_KEYS = frozenset(("plan", "event"))


def _whole_sentences(
    items: list[tuple[tuple[int, _Clause, bool], int]], formed: set[int], turn: Turn
) -> list[tuple[tuple[int, _Clause, bool], int]]:
    """The leftover clauses of a sentence, joined into one clause with its sentence (only for
    sentences of two or more leftover clauses, not all of which formed a fact alone): a
    sentence says one thing across its commas ("And now we've relocated again, to Cardiff",
    "I got married and took my wife's name, it's Jordan Park now"), its cue in one clause and
    its value in another, so the classifier and value isolation read them together."""
    out: list[tuple[tuple[int, _Clause, bool], int]] = []
    by_sentence: dict[int, list[tuple[int, _Clause, bool]]] = {}
    for item, sid in items:
        # "换工作了，去了小米，因为那边离家近": why is no part of what the sentence states
        if not (_REASON_LED.match(item[1].raw) or _a_reason(item[1].raw, turn.content)):
            by_sentence.setdefault(sid, []).append(item)
    for sid, group in by_sentence.items():
        if sid in formed or len(group) == 1:
            continue  # classified clause by clause already
        raw = ", ".join(c.raw.strip(" ,，") for _, c, _ in group)
        clause = _make_clause(raw, turn)
        out.append(((group[0][0], clause, any(corr for _, _, corr in group)), sid))
    return out


_PET_KIND_EN = re.compile(rf"(?:{_PETS_EN})s?", re.I)
_WITHDRAWN_BY_NAME = frozenset(("work.employer", "residence.city", "education.school", "pets.name"))


# a thing of a kind the catalogue keeps one value of per item, pointed at and said to be over
# ("That email is dead now", "my old number doesn't work anymore", "那张卡注销了", "旧邮箱不用了"):
# the kind's word names the key, the value is the one the user holds under it
_KIND_KEYS = (
    (re.compile(r"\be-?mail(?: address)?\b|邮箱|邮件地址", re.I), "contact.email"),
    (re.compile(r"\b(?:phone|cell|mobile)(?: number)?\b|\bnumber\b|手机号?|电话|号码|^号$", re.I),
     "contact.phone"),
    (re.compile(r"\b(?:credit |debit |bank )?card\b|银行卡|信用卡|卡", re.I), "finance.card"),
    (re.compile(r"\bpassword\b|密码", re.I), "account.password"),
    (re.compile(r"\bpassport\b|护照|身份证", re.I), "identity.document"),
)  # fmt: skip
_KIND_ENDED = re.compile(
    r"(?:^|(?<=[\s,，]))(?:(?:oh|and|also|btw|well|actually|so)\W+)*(?:that|the|my|this)\s+"
    r"(?:old\s+)?"
    r"(?P<en>[a-z][a-z -]{1,24}?)\s+(?:is|was|'s|has been|got|isn'?t|doesn'?t|does not)\s+"
    r"(?:\w+\s+)?(?:dead|gone|closed|cancell?ed|deactivated|expired|shut down|deleted|stolen|lost"
    r"|invalid|blocked|work(?:ing)?(?: any ?more)?|valid(?: any ?more)?|in use(?: any ?more)?"
    r"|no longer (?:valid|active|in use|works?|working))\b"
    r"|(?:我的?)?(?:那个|那张|这个|这张|旧的?|以前的?|原来的?)(?P<zh>[\u4e00-\u9fff]{1,4}?)\s*"
    r"(?:(?:已经|早就|也|都)?(?:注销|停用|作废|不用|过期|丢|挂失|销户|停机|停)了"
    r"|(?:is |was |'s )?(?:dead|gone|closed|cancell?ed|deactivated|expired"
    r"|no longer (?:works?|valid|active|in use)|doesn'?t work(?: any ?more)?)\b)"
    # "那是我以前在英国用的号，已经停机了": the one used before, then that it ended
    r"|(?:以前|之前|原来|旧)[^，,。！!？?]{0,10}?的(?P<zh2>号码?|手机号?|电话|邮箱|卡)[，,]?\s*"
    r"(?:已经|早就|也|都)?(?:注销|停用|作废|不用|过期|停机|停)了"
    # "wait, that's my old work address — don't use it": said to be the old one
    r"|\b(?:that'?s|that is)\s+my\s+old\s+(?:work\s+|personal\s+|school\s+)?"
    r"(?P<old>e-?mail(?: address)?|(?<=work )address|number)\s*(?:[—–-]|,|$)"
    r"(?![^.;!?]*\bstill\b)",
    re.I,
)


def _kind_ended(turn: Turn, facts: list[ExtractedFact]) -> ExtractedFact | None:
    """The record of a contact or secret said to be over by its kind ("That email is dead
    now", "那张卡注销了", "那个工作邮箱 no longer works"), keyed by the kind
    (``values._kind_ended`` picks the one value held from an earlier turn), or None: no such
    clause, or the turn gives that key a value that replaces the old one itself ("…，新卡号是
    …"); a new email beside it replaces nothing, so the record still ends the old one."""
    for sentence in split_clauses(turn.content):
        # the thing, then that it ended, may be two clauses ("…用的号，已经停机了")
        for clause in [*sentence, "，".join(c.strip(" ，,") for c in sentence)]:
            m = _KIND_ENDED.search(clause)
            if m is None or is_question(clause):
                continue
            old = "email" if m["old"] == "address" else m["old"]
            noun = m["en"] or m["zh"] or m["zh2"] or old or ""
            key = next((k for pattern, k in _KIND_KEYS if pattern.search(noun)), None)
            if key is None:
                continue
            if any(f.key == key and f.value and f.metadata.get("replaces") for f in facts):
                return None
            return _ended_unnamed(turn, "profile", key, "kind_ended")
    return None


# a request to forget what the user holds of a kind: "forget my email", "please don't keep my
# phone number", "can you delete my passport number?", "把我手机号删了", "别存我的银行卡号";
# the request opens its clause (an imperative, not "I deleted my number from the site") and
# ends with the kind, or with where it is kept ("from your memory", "on file"); "忘了" and
# "don't remember" say the user forgot ("把密码忘了", "dont remember my password")
_KIND_NOUN_EN = (
    r"(?:old |work |personal |home )?(?P<en>e-?mail(?: address(?:es)?|s)?|(?:phone|cell|mobile)"
    r"(?: numbers?)?|numbers?|(?:credit |debit |bank )?card(?: numbers?| details)?|passwords?"
    r"|passport(?: number)?|address(?:es)?|home address|where i live|city)"
)
_KIND_NOUN_ZH = (
    r"(?P<zh>邮箱(?:地址)?|邮件地址|e-?mail|手机号(?:码)?|电话(?:号码)?|号码|银行卡(?:号)?"
    r"|信用卡(?:号)?|卡号|密码|护照(?:号)?|身份证(?:号)?|住址|地址|住(?:在)?哪(?:儿|里)?)"
)
_FORGET_KIND = re.compile(
    r"^\W*(?:(?:please|pls|plz|also|and|oh|actually|so|just|ok(?:ay)?|btw|hey|can you"
    r"|could you|would you|will you)\W+)*"
    r"(?P<verb>forget|delete|remove|erase|wipe|scrap|don'?t (?:keep|store|save|hold on to"
    r"|record)|(?:do )?not (?:keep|store|save|record)|stop (?:keeping|storing"
    r"|saving)|never (?:keep|store|save))\s+(?:about\s+)?(?:(?:my|the)\s+)?"
    + _KIND_NOUN_EN
    + r"(?:\s+(?:please|pls|from (?:your )?(?:memory|notes|records?)|on (?:file|record)"
    r"|any ?more|too"
    r"|as well|for me|now|for good|entirely|completely))*\W*$"
    r"|^\W*(?:请|麻烦|帮我|你)?(?:把)?(?:我的?)?"
    + _KIND_NOUN_ZH
    + r"(?:也|都)?(?:删了|删掉|删除|忘掉|去掉|清掉|清除|别存了?|别记了?|不要存了?|不要记了?)"
    r"(?:吧|啊|哈|哦)?\W*$"
    r"|^\W*(?:请|麻烦|你)?(?:忘掉|删掉|删了|删除|清掉|清除|去掉|别存|别记|不要存|不要记|别保存"
    r"|不要保存|不用存|不用记)(?:掉)?(?:我的?)"
    + _KIND_NOUN_ZH.replace("(?P<zh>", "(?P<zh2>")
    + r"(?:吧|啊|哈|哦)?\W*$",
    re.I,
)
# what "forget my …" names that is a thing, not what is known of the user ("forget my phone":
# the device), and another way offered beside it ("forget my email, just text me"): never mind
# it, not a request to forget what was told
_THINGS_NOT_INFO = frozenset(("card", "credit card", "debit card", "bank card", "phone", "cell"))
_ANOTHER_WAY = re.compile(
    r"\b(?:i'?ll|i will|i'?m gonna|let'?s|just (?:text|call|use|email|message)|use|instead|pay"
    r"|text me|call me)\b",
    re.I,
)
# what each kind asked to be forgotten names
_FORGET_KEYS = (
    # an email, a card, a password or a passport named first: "email address" is no home, a
    # "card number" or a "passport number" no phone
    *((pattern, (key,)) for pattern, key in _KIND_KEYS if key != "contact.phone"),
    # an address is where the user lives
    (
        re.compile(r"where i live|address(?:es)?$|^city$|住址|地址|住(?:在)?哪", re.I),
        ("residence.city",),
    ),
    *((pattern, (key,)) for pattern, key in _KIND_KEYS if key == "contact.phone"),
)


# the word classes of a firm's name after a city ("杭州阿里", "深圳腾讯", "广州华为"): a proper
# name; "南京银行", "上海中学" are one name, their second word a common noun
_FIRM_FLAGS = ("nz", "nr", "nrt", "nt", "eng")


def _city_before_firm(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """``facts`` with a Chinese employer said after its city ("我在杭州阿里上班") read as the
    firm and where the user works: the employer 阿里, and 杭州 as the work location unless the
    turn states one."""
    out = list(facts)
    for f in facts:
        if f.key != "work.employer" or not f.value or not _HAN.search(f.value):
            continue
        words = segment.tag(f.value)
        if (
            len(words) != 2
            or not segment.is_place(words[0][0])
            or words[1][1] not in _FIRM_FLAGS
            or len(words[1][0]) < 2
        ):
            continue
        city, firm = words[0][0], words[1][0]
        f.value, f.content = firm, f.content.replace(f"{city}{firm}", firm)
        if not any(g.key == "work.location" for g in out):
            where = dataclasses.replace(
                f,
                key="work.location",
                value=city,
                content=f"在{city}工作",
                message_ids=list(f.message_ids),
                metadata=dict(f.metadata),
                retracts=[],
            )
            out.append(where)
    return out


def _kind_forgotten(turn: Turn) -> list[ExtractedFact]:
    """Records of the keys a turn asks to forget by their kind ("forget my email", "don't keep
    my phone number on file", "把我手机号删了", ``_FORGET_KIND``), each with no value and
    ``metadata["forgotten"]``: ``values._forgotten`` withdraws every value the user holds of
    that key from earlier turns. ``[]`` when no clause asks it."""
    out: list[ExtractedFact] = []
    for sentence in split_clauses(turn.content):
        for clause in sentence:
            m = _FORGET_KIND.search(clause.strip())
            if m is None:
                continue
            noun = (m["en"] or m["zh"] or m["zh2"] or "").lower()
            if (m["verb"] or "").lower() == "forget" and (
                noun in _THINGS_NOT_INFO or any(_ANOTHER_WAY.search(c) for c in sentence)
            ):
                continue  # "forget my card, I'll pay cash": never mind it, not forget it
            keys = next((k for pattern, k in _FORGET_KEYS if pattern.search(noun)), ())
            type_: MemoryType = "profile"
            out += [
                _ended_unnamed(turn, type_, key, "forgotten")
                for key in keys
                if all(f.key != key for f in out)
            ]
    return out


def _ended_unnamed(turn: Turn, type_: MemoryType, key: str, flag: str) -> ExtractedFact:
    """A record of ``key`` with no value that ends what the user held under it, chosen by
    arbitration from ``metadata[flag]`` (``values._recovered``, ``_parted``, ``_diet_broken``)."""
    return ExtractedFact(
        type=type_,
        content=_turn_content(turn.content.strip()),
        key=key,
        is_correction=True,
        message_ids=[turn.message_id],
        metadata={"retraction": True, flag: True},
    )


# a quantity before what is eaten again ("能吃一点辣了", "吃些肉了")
_HOW_MUCH_ZH = re.compile(r"^(?:一点点|一点儿?|一些|点儿?|些|少量|少许|稍微)")


def _withdrawal(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """What the turn gives up (``_given_up``), and beside it a recovery told by the doctor
    that names no condition the turn formed ("the doc cleared me to run again"): a record that
    ends the user's one condition (``values._recovered``), whatever else the turn ends by
    name."""
    out = _given_up(turn, facts)
    if semantic.recovery_told(turn.content) and not any(
        f.key == "health.condition" for f in [*facts, *out]
    ):
        out.append(_ended_unnamed(turn, "profile", "health.condition", "recovered"))
    return out


def _given_up(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """What the turn gives up that no fact of the turn retracts ("不用 Windows 了",
    "胃溃疡已经治好了"): one withdrawal record, keyed by the verb that gave it up, so the
    memory holding the value is frozen."""
    covered = {r.lower() for f in facts for r in f.retracts}
    rules_said = [f.value.lower() for f in facts if f.type == "constraint" and f.value]
    # what someone else gave up is theirs ("my son doesn't like broccoli anymore"); a rule for
    # the assistant gives up nothing of the user's ("you don't need to use bullet points
    # anymore")
    # a hypothetical ("要是我不住在上海就好了") or a question ("why don't I like coffee anymore?")
    # gives nothing up
    clauses = [
        c
        for sentence in split_clauses(turn.content)
        for c in sentence[semantic.unmeant(sentence) :]
        if not is_question(c)
    ]
    # a thing said to be someone else's ("that was my sister's cat", "max isn't my dog") names
    # what the user does not have, though the clause speaks of another
    theirs = [q.lower() for c in clauses if semantic.not_mine(c) for q in semantic.quit_objects(c)]
    own = [
        c
        for c in clauses
        if (not semantic.someone_elses(c) or semantic.not_mine(c))
        and not any(r in c.lower() for r in rules_said)
        and not semantic.ALMOST.search(c)  # "我差点就从京东辞职了": it did not happen
    ]
    quit_values = [q for c in own for q in semantic.quit_objects(c) if q.lower() not in covered]
    recovered = semantic.recovered_unnamed(turn.content) and not any(
        f.key == "health.condition" for f in facts
    )
    if recovered:
        # "做完手术已经好了": what ended is the user's one condition (``values._recovered``); the
        # treatment it came by is no thing given up
        return [_ended_unnamed(turn, "profile", "health.condition", "recovered")]
    if (
        not quit_values
        and semantic.parted_unnamed(turn.content)
        and not any(f.key == "family.member" and f.retracts for f in facts)
    ):
        # "我们分手了": what ended is the user's partner (``values._parted``)
        return [_ended_unnamed(turn, "profile", "family.member", "parted")]
    if (
        not quit_values
        and semantic.meat_again(turn.content)
        and not any(f.key == "diet.style" for f in facts)
    ):
        # "我现在开始吃肉了": what ended is a meatless diet held (``values._diet_broken``)
        return [_ended_unnamed(turn, "preference", "diet.style", "meat_again")]
    if not quit_values:
        return []
    # the verb nearest the thing given up says what it was ("Kiwi flew off when I left the
    # window open": a pet, not a job left)
    key = semantic.withdrawal_key(turn.content, quit_values[0] if len(quit_values) == 1 else None)
    if key in _WITHDRAWN_BY_NAME:
        # an employer, a city, a school or a pet given up is a name: in English, capitalised
        # ("quit Hooli"), not a clause ("quit - your words motivate me")
        # ... or a pet said by its kind ("the hamster died")
        quit_values = [
            v
            for v in quit_values
            if not _LATIN.match(v)
            or v[:1].isupper()
            or v.lower() in theirs
            or _PET_KIND_EN.fullmatch(v)
        ]
        if not quit_values:
            return []
    text = turn.content.strip()
    meta: dict[str, Any] = {"retraction": True}
    meatless = any(MEATLESS.search(v) for v in quit_values)
    if meatless and semantic.meat_again(text):
        # "I don't eat vegetarian anymore, I eat meat again": a meatless diet ends, no
        # avoidance is lifted
        key, meta["meat_again"] = "diet.style", True
    elif semantic.lifts(text):
        meta["lifted"] = True  # "I eat pork now": an avoidance ends, not a liking
        # "能吃一点辣了": how much is not what was avoided
        quit_values = [_HOW_MUCH_ZH.sub("", v) or v for v in quit_values]
    spec = key_spec(key)
    # "印象笔记早就不用了，改用飞书文档": what the user switched to holds the key of what they
    # gave up, when no fact of the turn holds it
    instead = _switched_to(text) if key in _SWITCHABLE else None
    if instead and not any(f.key == key and f.value for f in facts):
        meta = {}
    return [
        ExtractedFact(
            type=spec.type if spec else "fact",  # type: ignore[arg-type]
            content=f"改用{instead}" if instead and not meta else _turn_content(text),
            key=key,
            value=_norm(instead, key) if instead and not meta else None,
            is_correction=True,
            retracts=[_as_retracted(v) for v in quit_values],
            message_ids=[turn.message_id],
            metadata=meta,
        )
    ]


_SWITCHED_TO = re.compile(
    r"(?:改用|换用|换成|改成|都用|现在用|改为)(?:了|用)?\s*"
    r"(?P<v>[\u4e00-\u9fffA-Za-z0-9][\u4e00-\u9fffA-Za-z0-9 .+#-]{0,15}?)"
    r"\s*(?:了|啦|吧|呢|哈)*(?:$|[，,。！!；;~])"
)


def _switched_to(text: str) -> str | None:
    """The thing a turn says the user switched to ("…，改用飞书文档", "换成 VS Code 了"), or
    None; a person or a pronoun is no such thing."""
    m = _SWITCHED_TO.search(text)
    if m is None or re.match(r"[我你他她它这那]", m.group("v")):
        return None
    return m.group("v").strip()


_FAMILY_RULES = ("family",)


# what a relative thinks or says is theirs to hold, not a fact to keep about them
_OPINION = re.compile(r"觉得|认为|说|\b(?:thinks?|says?|said|believes?|feels?)\b", re.I)


# a time the clause ties what it says to, which dates.find_date does not read as a date: news
# or a stretch of their life ("just got a job", "start kindergarten in the fall", "together 8
# years", "刚", "这两年")
_THEIR_TIME = re.compile(
    r"\b(?:just|recently|soon|in the (?:fall|autumn|spring|summer|winter)|\d+ (?:years?|months?"
    r"|weeks?))\b|刚|最近|马上|快要|[一两二三四五六七八九十几\d]+(?:年|个月|周)(?:了|多)",
    re.I,
)


# a relative's age, said with the year it holds in ("今年六岁了", "turned 7 this year")
_THEIR_AGE = re.compile(
    r"(?:\d{1,3}|[一二两三四五六七八九十廿卅]{1,3})\s*(?:周)?岁"
    r"|\b(?:is|'s|turned|turns|just turned) (?:\d{1,3}|one|two|three|four|five|six|seven|eight"
    r"|nine|ten|eleven|twelve)(?: years? old)?\b(?! (?:minutes?|hours?|days?|weeks?|months?)\b)",
    re.I,
)


def _standing_about_them(clause: _Clause) -> bool:
    """A clause about a relative states a standing fact about them ("我哥在腾讯上班", "my son
    is allergic to eggs"): not dated or tied to a time (an event of theirs, ``_THEIR_TIME``),
    not a change of theirs ("my sister switched to coffee recently"), not what they think or
    say ("我妈觉得日料太生了"; what they say after it, "我哥在腾讯上班，他说那边加班挺多的", leaves
    the fact before it standing)."""
    if _THEIR_AGE.search(clause.raw):
        return True  # "我女儿今年六岁了", "my son turned 7 this year": how old they are
    return (
        clause.date is None
        and not _THEIR_TIME.search(clause.raw)
        and not semantic.has_change_cue(clause.raw)
        and not _OPINION.search(re.split(r"[，,]", clause.raw)[0])
        and not semantic.one_off(clause.raw)  # "my sister visited": came and went
    )


# "…, my son does", "我老婆也是": a clause that only points back at what was said says nothing
# of its own about the person
_ELLIPTIC = re.compile(
    r"^\W*(?:(?:and|but|so|it'?s|that'?s)\s+)?(?:my|our)\s+[\w'-]+(?:\s+[\w'-]+)?\s+"
    r"(?:does|did|do|is|was|has|had|too)(?:\s+(?:too|also|though|instead))?\W*$",
    re.I,
)


# what a relative did to or with the user, or did once and no more ("my niece got me hooked",
# "my friend dragged me along", "my kids insisted", "我妈逼我去相亲"): the clause tells the
# user's story, it states nothing standing about them
_ACTS_ON_USER = re.compile(
    r"(?:(?:just|finally|kinda|basically|really)\s+)?"
    r"(?:got|gets|made|makes|dragged|drags|talked|talks|convinced|pushed|forced|took|brought"
    r"|told|asked|helped|sent|gave|showed|introduced|signed|roped|put)\s+me\b"
    # ... a deed once done ("my kids insisted"), not a state ("my dad retired")
    r"|(?!(?:retired|married|divorced|widowed|engaged|disabled|unemployed|employed|tired)\b)"
    r"[a-z]+ed(?:\s+(?:lol|lmao|haha|tho|though|too|again))?$"
    r"|(?:又|还|总|老|一直|非要|硬)?(?:让|叫|逼|拉|带|劝|催|喊|拖)我",
    re.I,
)


def _member_content(relative: str, name: str | None, lang: Lang) -> str:
    """What a family member is, in words of its own (``"女儿叫小雨"``, ``"has a brother"``)."""
    if lang == "zh":
        return f"{relative}叫{name}" if name else f"家人：{relative}"
    if name and relative.endswith(("s", "ren")) and relative not in ("boss", "spouse"):
        return f"one of the {relative} is named {name}"  # "twins", "kids", "children"
    return f"{relative}'s name is {name}" if name else f"has a {relative}"


# a clause that says why ("because my husband got a job at Dell", "因为老婆在阿里上班"): it
# names the relative, and what it says of them is the reason for the user's fact
_REASON_LED = re.compile(r"\s*(?:(?:because|cause|cuz)\b|因为|由于|为了)", re.I)


def _said_of(relative: str, raw: str, name_only: bool) -> str:
    """``raw``, a clause after one introducing ``relative``, said of them: "在成都读大学" →
    "妹妹在成都读大学", "she's married" → "my sister is married", "her name is Ann" → "my
    sister's name is Ann", "works at Google" → "my brother works at Google", "Mia" → "my
    daughter, Mia"."""
    said = raw.strip()
    if _lang(raw) == "zh":
        return relative + said
    if name_only:
        return f"my {relative}, {said.strip(' ,.!')}"
    led = _PRONOUN_LED.match(said)
    joiner = " is " if led and led["be"] else "'s " if led and led["of"] else " "
    return f"my {relative}{joiner}{said[led.end() if led else 0 :]}"


# the pronoun a clause about a relative just named opens with ("she's married", "he works…")
_PRONOUN_LED = re.compile(
    r"^(?:and\s+)?(?:(?:he|she|they)(?:(?P<be>'s|'re|\s+is|\s+are)\s+|\s+)|(?P<of>his|her|their)\s+)",
    re.I,
)
# a clause that is only a name, after the relative it names ("I have a daughter, Mia, …")
_BARE_NAME = re.compile(r"(?:[A-Z][a-z'-]+)(?:\s+(?:and|&)\s+[A-Z][a-z'-]+)?")


def _about_relative(clause: _Clause, state: _State, relative: str) -> list[ExtractedFact]:
    """A clause about a family member ("my brother works at Tesla", "我女儿对花生过敏"): the
    member (``family.member``: the name given next to the relation, else the relation) and
    the fact about them with no key — never the user's own employer or allergy. The family
    rules ("我女儿叫小雨") still name the member."""
    skip = tuple(r.family for r in RULES if r.family not in _FAMILY_RULES)
    found = _apply(clause, state, skip=skip)
    if found is not None:
        return found[1]
    name = semantic.relative_name(clause.text, relative)
    naming = semantic.is_naming(clause.text)
    # the member is said in words of its own: with the clause's words it would be the same
    # text as the fact about them, which arbitration takes for a duplicate of it
    member = _content(clause) if naming else _member_content(relative, name, clause.lang)
    out = [_fact(state, clause, "family.member", name or relative, member)]
    # "our twins, Ava and Ella": the second name of a pair is a member too
    pair = name and re.search(
        rf"\b{re.escape(name)}\s*(?:,\s*|\s+)(?:and|&)\s+([A-Z][\w'-]+)", clause.text
    )
    if name and pair and pair.group(1).lower() not in semantic.EN_STOP:
        second = pair.group(1)
        content = _member_content(relative, second, clause.lang)
        out.append(_fact(state, clause, "family.member", second, content))
    # "my sister's baby shower is this saturday", "我姐的婚礼是8月9号": a relative's occasion on a
    # day is a date in the user's calendar, not a fact about them (a birthday or a name is)
    if clause.date is not None and _occasion_of(relative, clause):
        value = re.sub(r"^(?:(?:my|our)\s+|我们?的?)", "", clause.text.strip(), flags=re.I)
        return [*out, _fact(state, clause, "event", value, _content(clause), dated=True)]
    # "My wife | and I both work at Microsoft": a clause that only names them says nothing of them
    said = re.sub(rf"(?i)\b(?:my|our)\b|{re.escape(relative)}s?|^我的?", "", clause.text)
    if name:  # "my wife Priya | and I just adopted a cat": their name says nothing more
        said = re.sub(rf"(?i)\b{re.escape(name)}\b", "", said)
    if (
        not naming
        and said.strip(" ,.!，。！")
        and not semantic.is_view(clause.raw)
        and not _a_reason(clause.raw, state.turn.content)
        and not _REASON_LED.match(clause.raw)
        and _standing_about_them(clause)
        and not _ELLIPTIC.search(clause.raw)
        and not _ACTS_ON_USER.match(said.strip(" ,.!，。！~"))
    ):
        out.append(
            ExtractedFact(
                type="profile",  # a standing fact about a person
                content=_with_its_object(clause, relative, state.turn),
                message_ids=[state.turn.message_id],
                metadata={"about": name or relative},
            )
        )
    return out


def _occasion_of(relative: str, clause: _Clause) -> bool:
    """True if ``clause`` names a thing of ``relative``'s by the possessive ("sister's baby
    shower", "我姐的婚礼"), not their birthday, name or age, nor a verb ("my son's been…")."""
    if clause.lang == "zh":
        return bool(
            re.search(
                rf"{re.escape(relative)}的(?!生日|名字|年龄|岁数)[\u4e00-\u9fff]", clause.text
            )
        )
    return bool(
        re.search(
            rf"\b{re.escape(relative)}'s\s+(?!(?:is|was|been|got|gonna|going|birthday|bday|b-day"
            r"|anniversary|name|age)\b)\w",
            clause.text,
            re.I,
        )
    )


def _with_its_object(clause: _Clause, relative: str, turn: Turn) -> str:
    """The content of a fact about a relative: the clause, or, when it is only a verb with no
    object ("还有一缸金鱼，孩子在养", "这家店的菜，我妈很喜欢"), the clause before it in the
    sentence, which holds the object, then the clause: "孩子在养" alone says nothing."""
    own = _content(clause)
    if clause.lang != "zh":
        return own
    rest = re.sub(rf"^我的?|{re.escape(relative)}", "", clause.text)
    rest = re.sub(r"^(?:很|也|都|还|在|正在|一直|最|特别|非常|挺|蛮)+|[着了的呢啊呀]+$", "", rest)
    if not re.fullmatch(r"[\u4e00-\u9fff]{1,2}", rest) or any(
        t in ("ns", "nt", "nr", "nz", "m") for _, t in segment.tag(rest)
    ):
        return own
    for sentence in split_clauses(turn.content):
        at = next((i for i, c in enumerate(sentence) if c.strip() == clause.raw.strip()), None)
        if at:
            return _turn_content("，".join([sentence[at - 1].strip(), clause.raw.strip()]))
    return own


# a Chinese clause that opens with a name and an adverb of what it does ("腾讯又裁员了", "Google
# 又裁员了", "Meta 也在招人"): the name is its subject, the clause says nothing of the user
_NAMED_SUBJECT = re.compile(
    r"\s*(?P<n>[A-Z][A-Za-z0-9.&'-]*(?:\s[A-Z][A-Za-z0-9.&'-]*)*|[\u4e00-\u9fff]{2,6}?)\s*"
    r"(?:又|也|竟然|居然|终于|刚刚?|已经|正在|还在|都在)"
)


def _named_subject(raw: str) -> bool:
    """True if the clause is said of a named company or thing, not of the user: no first
    person in it, and it opens with a Latin name or a Han name (``segment.name_run``,
    ``segment.is_tagged_name``) before an adverb of what that name does."""
    if re.search(r"我|咱|俺|本人|\b(?i:i|my|me)\b", raw):
        return False
    m = _NAMED_SUBJECT.match(raw)
    if m is None:
        return False
    name = m.group("n")
    return name.isascii() or segment.name_run(name) or segment.is_tagged_name(name)


def _semantic(
    leftovers: list[tuple[int, _Clause, bool]], state: _State
) -> list[tuple[int, int, list[ExtractedFact]]]:
    """Facts for the clauses no rule matched: nearest key family (embedding prototypes), then
    the value isolated from the clause, or the clause itself as the content. Returns
    ``(index in leftovers, insert position, facts)`` for each clause that formed any."""
    if not leftovers:
        return []
    # "我是护士，在市一医院": a clause that opens with 在 after one of the user's borrows the
    # user as its subject, so the classifier reads where the user is, not a bare place
    guesses = semantic.classify(
        [
            ("我" if c.borrowed and c.raw.lstrip().startswith("在") else "")
            # "keep in mind I keep kosher when you suggest recipes": I keep kosher
            + _what_changed(_WHEN_YOU_TAIL.sub("", _HEEDED.sub("", c.raw)))
            for _, c, _ in leftovers
        ]
    )
    out: list[tuple[int, int, list[ExtractedFact]]] = []
    for index, ((pos, clause, correction), guess) in enumerate(
        zip(leftovers, guesses, strict=True)
    ):
        sentence = _sentence_of(state.turn, clause.raw)
        family = semantic.reframed(guess.family, clause.raw, sentence)  # a job started: no event
        if family in ("none", "other") and _as_job(clause.raw):
            family = "work"  # "As a teacher, | I get summers off": the user's job
        unsure = not guess.accepted and family == guess.family
        learning = family == "other" and semantic.learning_now(clause.raw)
        if unsure and not (learning or semantic.read_as(family, clause.raw)):
            continue  # (a clause whose structure says what it is is read however unsure)
        if family == "other" and not (semantic.own_subject(clause.raw) or learning):
            continue  # "太折腾": a remark, not a fact about the user
        if semantic.not_mine(clause.raw):
            continue  # "Bruno is my neighbour's dog": someone else's, withdrawn (_withdrawal)
        if semantic.relatives_place(clause.raw):
            continue  # "Leeds is where my parents live": their place, not the user's
        if _named_subject(clause.raw):
            continue  # "腾讯又裁员了": what a company does, not the user's workplace
        if (
            family == "gender"
            and _A_CHILD.search(clause.raw)
            and not semantic.own_subject(clause.raw)
        ):
            continue  # "二胎落地啦！是个男孩": the baby's sex, not the user's
        if family == "residence" and _HOME_GIVEN_UP.search(clause.raw):
            continue  # "深圳的房子已经退了": the home given up, no home of now
        if semantic.not_own_change(clause.raw, family):
            continue  # "帮我妈换成 Android 了", "公司电脑换成 Mac 了": not the user's to change
        if family not in ("plan", "event") and semantic.weighed(clause.raw):
            continue  # "I was thinking about learning Spanish": weighed, not so
        if family in ("decision", "constraint") and standing.refines(clause.raw):
            continue  # "这次用表格列一下": the answer at hand, no decision nor rule
        new: list[ExtractedFact] = []
        content = _content(clause)
        is_change = semantic.has_change_cue(clause.raw)
        quit_values = {q.lower() for q in semantic.quit_objects(clause.raw, tired=False)}
        tired = {q.lower() for q in semantic.quit_objects(clause.raw)} - quit_values
        if _a_reason(clause.raw, state.turn.content):
            continue  # "可乐喝太多了，现在改喝气泡水": why it changed, no fact of its own
        if _past_stay(clause.raw, state.turn.content):
            continue  # "在四川待了两年，现在能吃辣了": where the user was, before what is now
        if family == "avoid" and semantic.craves(clause.raw):
            continue  # "不喝浑身难受": what the user cannot do without, nothing avoided
        for key, value in semantic.isolate(family, _what_changed(clause.text)):
            if not semantic.fits(key, value):
                continue
            if key == "tech.preferred" and value and semantic.is_drink(value):
                key = "preference.drink"  # "switch 到 hojicha 了": a drink switched to
            if key == "work.employer" and value and (office := _AN_OFFICE.match(value)):
                # "transfer 到 Singapore office": where the user works, the firm unchanged
                key, value = "work.location", office.group("place")
            if value is not None:
                value = _LEADING_DE.sub("", value)  # "我的鼻炎好了": 鼻炎, as ``_norm`` has it
                if key in _PERSONS_KEYS:
                    value = _WHOSE_END.sub("", value)  # "Luna's gone crazy": Luna
            if (
                key == "education.school"
                and value
                and _COUNTRY_ZH.fullmatch(value)
                and re.search(
                    rf"(?:去|在|到){re.escape(value)}(?:读|念|上|留学|深造|进修)", clause.raw
                )
            ):
                continue  # "后来去德国读了个硕士": where the user studied, not the school
            if value is not None and any(t in value.lower() for t in tired):
                continue  # "green tea got boring": only given up (see _change_cues)
            if (
                _single(key)
                and semantic.craves(clause.raw)
                and semantic.has_change_cue(state.turn.content)
            ):
                continue  # "switched to rooibos. I miss coffee already": the old one, wished for
            if key == "project.budget" and (
                _public_budget(clause.raw) or _MONEY_NOT_BUDGET.search(clause.raw)
            ):
                continue  # "the city cut the library's budget": a public body's (``budget``);
                # "we have $20 riding on this": money staked, no budget
            if value is not None and key in _TASTE_VALUE_KEYS:
                # "tea all the way", "sushi hands down": how much, not what
                value = _CHEER_TAIL.sub("", value) or value
            if key == "preference.drink" and value is not None:
                if _DRINK_ORDER_ZH.fullmatch(value) or _AMOUNT_ONLY.fullmatch(value):
                    continue  # "三分糖去冰": how a drink is ordered; "一天三杯": how much
                if _DRINK_ASKED.search(clause.raw) or _DRINK_ADDED.search(value):
                    continue  # "给我来一杯美式吧": asked for; "oat milk in my coffee": put in one
                if cup := _A_CUP_ZH.search(value):
                    value = cup.group("d")  # "每天早上都得来一杯美式": the drink had
                # "4 coffees a day", "一天三杯咖啡": the drink, not how much of it (counted, an
                # English drink is said in the plural: "coffees" is coffee)
                if (had := _AMOUNT_AROUND.sub("", value).strip()) and had != value:
                    value = re.sub(r"(?<=[a-z][^s\W])s$", "", had)
                value = re.sub(r"\s*(?:续命|提神)$", "", value)  # "matcha latte 续命": what for
            if key == "schedule.habit" and _WOULD.match(clause.raw):
                continue  # "I could eat fries every day": what the user could do, not does
            if (
                key == "schedule.habit"
                and (_THIS_DAY.search(clause.raw) or _ONE_DAY_AHEAD.search(clause.raw))
                and not (_HABITUAL.search(clause.raw) or _EVERY.search(clause.raw))
            ):
                # "我今天赶时间", "tonight I'm cooking", "改成下周三走": one day, no routine
                continue
            if key in _HEALTH_KEYS and semantic.ends(clause.raw):
                continue  # "my wrist has fully healed": an ending (_ended), no new state
            if value is None and family == "avoid" and len(quit_values) == 1:
                value = next(iter(quit_values))  # "咖啡戒了", "可乐我现在不碰了": the thing first
            inside = [q for q in quit_values if value is not None and q in value.lower()]
            if inside and family in ("drink", "avoid", "likes"):
                value = inside[0]
            if value is not None and (
                _ZH_TAIL.sub("", value).lower() in quit_values
                or (inside and key in MOVABLE_KEYS)  # "跑步先停了": a routine stopped
                or (inside and key in _HEALTH_KEYS)  # "我的鼻炎终于好了": not "鼻炎终于"
            ):
                # what the user gave up is no fact of now: food and drink become avoided,
                # anything else is only withdrawn (see _change_cues)
                if family not in ("drink", "avoid", "likes"):
                    state.pending.setdefault(key, []).append((value, content))
                    continue
                key = "diet.avoid"
            if not key:
                if (
                    not (semantic.says_enough(content) or semantic.takes_medicine(clause.raw))
                    or semantic.passing_state(content)
                    or semantic.one_off(clause.raw, sentence)
                ):
                    continue  # "I gave in", "I'm in": too little to be a fact of its own;
                    # "I'm super tired": how the user feels is no standing fact
                new.append(
                    ExtractedFact(
                        type="profile",  # a standing fact about the user (no key)
                        content=content,
                        message_ids=[state.turn.message_id],
                        metadata={"formed_by": "classifier", "family": family},
                    )
                )
                continue
            if key == "event" and value is None and clause.date is None and not is_change:
                # "another 12hr shift in the ER", "after that it's meetings till 5": a happening
                # with no day or time is no appointment to remember
                continue
            fact = _fact(
                state,
                clause,
                key,
                value,
                content,
                correction=correction or (is_change and _single(key)),
                dated=key in ("event", "plan"),
                metadata={"formed_by": "classifier", "family": family},
            )
            if value is None:
                fact.value = None
            elif not fact.value:
                continue  # nothing left of the slot once normalised ("你也这么叫我")
            # "年会改到杭州了": the gathering moved; what was decided of it before ends
            # (``values._gathering_moved``)
            if (
                key == "task.decision"
                and guess.family == "residence"
                and (
                    said := semantic.gathering_named(clause.raw)
                    or semantic.gathering_named(sentence)
                )
            ):
                fact.metadata["gathering"] = said
            if fact.value and semantic.is_switch(clause.raw) and key in _SWITCHABLE:
                fact.metadata["replaces"] = True  # "改用Go了": Go takes the place of the rest
            new.append(fact)
        if len(new) > 1:  # one clause, several facts: each its own words (and content hash)
            for fact in new:
                if fact.key and fact.value:
                    fact.content = semantic.describe(fact.key, fact.value, clause.lang == "zh")
        if new:
            out.append((index, pos, new))
    return out


# why or what for a change was made ("moved to Denver for my wife's job", "relocated to
# Manchester for uni", "we're in York now because of my partner's work"): not what changed
_WHY_TAIL_EN = re.compile(
    r"\s+(?:because|since|cause|cuz|so that|to be (?:closer|near)|for (?:uni|school|college"
    r"|grad school|work|a job|the job|my job)\b|for (?:my|our|his|her|their) \w+'s)\b.*$",
    re.I,
)
# "可乐喝太多了", "房价太高", "mornings are too cold": an excess complained of; "孩子上学方便",
# "离公司近一点": an ease gained — why a change was made
_REASON = re.compile(
    r"太(?:多|少|高|低|贵|远|累|苦|甜|冷|热|吵|忙|难|辣|咸|油|腻)|\btoo (?:much|many|\w+)$"
    r"|(?:方便|便宜|近|远|舒服|安静)(?:一点|一些|些|点|多了)?[了啊呀]?[。！!]?$",
    re.I,
)


# a clause opened by a word of cause ("because my partner got a job at Amazon", "bc the rent
# went up", "因为女儿送了我一台iPhone", "由于公司搬了"): it says why, in a clause of its own
_REASON_OPEN = re.compile(
    r"^\W*(?:(?:and|just|mostly|mainly|partly|also)\s+)?(?:because|bc|b/c|'?cause|cuz|coz)\s+"
    r"(?!of\b)|^\W*(?:主要|也|就|还)?是?(?:因为|由于)\s*",
    re.I,
)
# the user as the subject of a reason, by a pronoun ("because I got a job at Amazon", "因为我
# 胃不好"); "my partner", "my company" and "我女儿" are someone or something else
_USER_PRONOUN = re.compile(r"^(?:I|I'm|I've|I'd|I'll|im|ive|we|we're|we've)\b|^我(?!的|们的)", re.I)


def _reason_said(raw: str) -> str | None:
    """What a clause opened by a word of cause says, without that word ("because my partner got
    a job" → "my partner got a job"); ``None`` for any other clause. A reason whose subject is
    neither the user nor a relative (a thing, a company, a doctor) is why the user changed, no
    fact of the user's; a reason of the user's own ("because I'm vegan") is read as any clause."""
    m = _REASON_OPEN.match(raw)
    if m is None:
        return None
    rest = raw[m.end() :].strip()
    return rest or None


def _why_of_a_change(clause: str, before: list[str]) -> bool:
    """Whether a relative's clause, said after a clause of its sentence that says by a verb
    what changed (``before``), tells why the user changed: no change of the relative's own
    ("my dad just moved to Vancouver" is news of them), nothing added beside it ("也", "too"),
    no word of cause needed ("去年搬到深圳了，老公在那边找了份工作", "relocated to Nashville,
    my mom's health isn't great")."""
    return (
        any(semantic.has_change_verb(c) for c in before)
        and not semantic.has_change_verb(clause)
        and not semantic.is_additive(clause)  # "我哥也在上海工作": news of them beside it
    )


def _a_reason(raw: str, turn_text: str) -> bool:
    """Whether a clause with no subject of the user's says why the turn's change was made."""
    return bool(
        _REASON.search(raw.strip())
        and not semantic.own_subject(raw)
        and semantic.has_change_cue(turn_text)
    )


# a stay that lasted a while and is over ("在四川待了两年", "大学毕业后在上海待了几年", "spent
# three years in Osaka", "lived in Lyon for a while"): said before a clause of now, it is the
# circumstance of what holds now, not where the user is
_PAST_STAY = re.compile(
    r"(?:待|呆|住|生活|工作|读书|念书)了(?:[一二两三四五六七八九十几半多\d]+)(?:个多?)?(?:年|月|周|星期)"
    r"(?![^，,。]*了$)"
    r"|\b(?:spent|lived|stayed|worked)\b.*\b(?:for (?:a few|a couple of|several|many|\w+)"
    r" (?:years?|months?|weeks?)|for a while|for years)\b"
    r"|\bspent (?:a|an|\w+) (?:years?|months?|weeks?|semesters?) in\b",
    re.I,
)
_NOW_AFTER = re.compile(r"现在|如今|目前|\b(?:now|these days|nowadays)\b", re.I)


# a clause of what the user could or would do ("I could eat French fries every single day",
# "I'd happily run every morning"): no routine of theirs
_WOULD = re.compile(
    r"\s*(?:(?:honestly|seriously|really),?\s+)?(?:I|we)(?:\s+|')(?:could|would|d|might)\b",
    re.I,
)


# a verb said twice, for a try and with no object ("多练练", "去走走", "再看看")
_A_TRY = re.compile(r"(?:多|再|去|出去|来|好好)?([\u4e00-\u9fff])\1(?:看)?[了吧呢啊]?")


def _past_stay(raw: str, turn_text: str) -> bool:
    """Whether a clause tells of a stay that is over, before a clause saying what is now."""
    raw = raw.strip()
    if not _PAST_STAY.search(raw) or _NOW_AFTER.search(raw):
        return False
    at = turn_text.find(raw)
    return at >= 0 and bool(_NOW_AFTER.search(turn_text[at + len(raw) :]))


def _what_changed(text: str) -> str:
    """A clause that says something changed, without why or what for."""
    text = text.strip()
    if not semantic.has_change_cue(text):
        return text
    return _WHY_TAIL_EN.sub("", text) or text


_HEALTH_KEYS = frozenset(("health.condition", "health.allergy"))

# multi-valued keys where "switched to X" means X replaces what the user had
_SWITCHABLE = frozenset(("tech.preferred", "language.preferred", "preference.drink"))


# a value said to be all there is now ("these days it's all Kotlin for me", "I only write Rust
# now", "现在全用飞书了", "只喝美式"): it takes the place of the others of its key
_ALL_NOW = re.compile(
    r"\b(?:it'?s|its|it is)\s+all\s+(?P<a>[A-Za-z][A-Za-z0-9+#.-]*)"
    r"|\bonly\s+(?:use|using|write|writing|code in|coding in|speak|drink|drinking)\s+"
    r"(?P<b>[A-Za-z][A-Za-z0-9+#.-]*)"
    r"|(?:全|都|全都|全部)(?:用|换成|改成|改用|是)了?\s*"
    r"(?P<c>[A-Za-z][A-Za-z0-9+#.-]*|[\u4e00-\u9fff]{2,6})"
    r"|只(?:用|喝|说)\s*(?P<d>[A-Za-z][A-Za-z0-9+#.-]*|[\u4e00-\u9fff]{2,6})",
    re.I,
)
# whose "all" it is when not the user's: a group or someone else ("我们组现在全用Go了",
# "our team only uses Java"), or how to be answered ("以后回答都用英文" gives up no language)
_NOT_MINE_ALL = re.compile(
    r"我们|咱们|组|团队|公司|项目|部门|他|她|回答|回复|\b(?:we|our|team|company|they|he|she)\b",
    re.I,
)


def _all_now(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """``facts`` with the tool or drink the turn says is all the user has now (``_ALL_NOW``)
    marked as replacing the others (``metadata["replaces"]``)."""
    said = [
        (m["a"] or m["b"] or m["c"] or m["d"]).lower()
        for m in _ALL_NOW.finditer(turn.content)
        if not _NOT_MINE_ALL.search(re.split(r"[，,。.!！;；]", turn.content[: m.start()])[-1])
    ]
    for f in facts:
        v = (f.value or "").lower()
        if (
            f.key in ("tech.preferred", "preference.drink")
            and v
            and any(x == v or x.startswith(v) for x in said)
        ):
            f.metadata["replaces"] = True
            f.is_correction = True
    return facts


# numbers, addresses and secrets a new one replaces ("new email is …", "新号码 …")
_RENEWABLE = frozenset(
    ("contact.phone", "contact.email", "finance.card", "identity.document", "account.password")
)


# multi-valued tastes where a changed liking replaces a kind of the same thing
_TASTES = frozenset(("preference.likes", "preference.dislikes"))


def _single(key: str) -> bool:
    spec = key_spec(key)
    return spec is not None and spec.cardinality == "single"


# a routine said with 是, first or after its time ("现在都是六点就起了" → 是六点就起, "每天都是走路
# 上班", "周末都是在家躺着"): the 是 is no part of what the user does
_HABIT_COPULA = re.compile(
    r"^(?P<when>(?:(?:每|平时|周末|工作日|早上|晚上|中午|下午)[^是，,]{0,3}?)?)都?是(?=.{2})"
)


# that it is one more, between a routine's time and its doing ("周末还会游泳", "晚上也跑步"):
# no part of what the user does
_HABIT_ADVERB = re.compile(
    r"^(?P<when>(?:每|平时|周末|工作日|早上|晚上|中午|下午|上午)[^，,]{0,4}?)"
    r"(?:还会|也会|还|也)(?=[\u4e00-\u9fff]{2})"
)


_LATELY_ZH = re.compile(r"最近|近来")

# a value said with what it changed from and to ("预算从5000涨到8000了", "my budget went up from
# 5k to 8k"): the value is where it went, not where it was
_FROM_TO_ZH = re.compile(
    r"从(?P<x>[^，,。从]{1,12}?)(?:改|换|调|变|降|涨|升|提|减|加|挪|推)(?:成|到|为|至)了?"
    r"(?P<y>[^，,。！!？?；;了]{1,12}?)(?=了|[，,。！!？?；;~～]|$)"
)
_FROM_TO_EN = re.compile(
    r"\b(?:went|gone|changed|moved|raised|cut|dropped|increased|decreased|bumped|pushed|jumped"
    r"|rose|fell)\s+(?:up\s+|down\s+)?from\s+(?P<x>[^,.;!?]{1,20}?)\s+to\s+"
    r"(?P<y>[^,.;!?]{1,20}?)(?=\s*(?:[.!?,;]|$))",
    re.I,
)


# what may come before a change said from and to, in its clause: the user's thing by its word
# alone ("预算", "我的预算", "my budget"), not another's or another one ("第二期预算", "the
# marketing budget", "my boss's budget")
_OWN_BEFORE_CHANGE = re.compile(
    r"(?:^|[，,。.!！;；]\s*)(?:把)?(?:我的?|我们的?)?[\u4e00-\u9fff]{1,2}$"
    r"|(?:^|[,.!;]\s*)(?:(?:my|our|the)\s+)?\w+\s+$",
    re.I,
)


def _where_it_went(text: str, facts: list[ExtractedFact]) -> None:
    """Give a fact whose value is what a change went from (``_FROM_TO_ZH``/``_EN``: "预算从5000
    涨到8000了" read as a budget of 5000) the value it went to, its content said of that value,
    when the change is the user's own (``may_put_right``, ``_OWN_BEFORE_CHANGE``)."""
    if not may_put_right(text):
        return
    for pattern in (_FROM_TO_ZH, _FROM_TO_EN):
        for m in pattern.finditer(text):
            x, y = m["x"].strip(), m["y"].strip()
            if not _OWN_BEFORE_CHANGE.search(text[: m.start()]):
                continue  # "客户那边预算从5000改成3000了", "the marketing budget went from…"
            for f in facts:
                if f.value and f.value.strip().lower() == x.lower() and y:
                    f.value = y
                    zh = bool(_HAN.search(text))
                    f.content = semantic.describe(f.key, y, zh) if f.key else f.content


# a Chinese plan's words of intent, which its value leaves out ("打算", "还想顺便", "准备"): the
# plan is the thing to do, at its time
_PLAN_INTENT_ZH = re.compile(
    r"^(?P<when>[^，,把]{0,6}?)(?:(?:还|也|就|都)?(?:打算|准备|计划|想要|决定|想)"
    r"(?:着|要|好)?|顺便)+(?=[\u4e00-\u9fff])"
)


def plan_as_done(value: str) -> str:
    """A Chinese plan's value without its words of intent, its time kept (``_PLAN_INTENT_ZH``):
    "打算明年去日本" → "明年去日本", "明年想去读研" → "明年去读研", "还想顺便去冰岛看极光" →
    "去冰岛看极光". Other values are returned as they are."""
    done = value
    while (cut := _PLAN_INTENT_ZH.sub(r"\g<when>", done)) != done:
        done = cut
    return done if len(done) >= 2 else value


# a tool used now in the place of others: "现在主要用 Figma", "I'm on Apple Music now"
_TOOL_NOW = re.compile(
    r"现在(?:主要|基本|都|只)(?:用|在用)|(?:主要|基本上?|都)改用"
    r"|\b(?:for me now|is where I am now|is what I use now|is my go-to now)\b"
    r"|\b(?:I'?m|I am) (?:on|using) [\w .+-]{1,25} (?:now|these days)\b"
    r"|\b(?:mostly|mainly|only) (?:use|using|on) [\w .+-]{1,25} (?:now|these days)\b",
    re.I,
)
# a tool used for one thing, in one place or for a while, beside the others: "For this one
# client project I'm using Figma now", "At the office I'm on Linux now", "公司的服务器现在都用
# Linux 了", "我现在主要用 Linux 跑服务器上的东西"
_TOOL_SCOPED = re.compile(
    r"\b(?:for (?:this|that|the|one|a|my|our)\b[\w ]{0,24}\b(?:project|client|job|class|course"
    r"|team|gig|app|site)|only for|just for|but only|at (?:the office|work|school)|while I|for now"
    r"|on (?:the|my) (?:server|work laptop))\b"
    r"|服务器|公司的|项目|客户|在公司|上班的时候|暂时|这几天|跑",
    re.I,
)
# a thing taken up beside the others: "最近开始用 Rust 写 side project", "started using Go"
_TAKEN_UP = re.compile(r"开始|開始|\b(?:started|starting|begun|began|picked up)\b", re.I)


def _change_cues(turn: Turn, facts: list[ExtractedFact]) -> None:
    """What the turn says the user gave up ("stopped drinking green tea", "可乐戒了") is
    retracted by the turn's facts, so the memory it came from is frozen; a change cue on a
    single-valued key makes the fact a correction."""
    if semantic.is_switch(turn.content):
        for fact in facts:
            if fact.key in _SWITCHABLE and fact.value and not fact.retracts:
                fact.metadata["replaces"] = True
    renewed = semantic.is_renewed(turn.content)
    for fact in facts:
        if (
            fact.key in _RENEWABLE
            and fact.value
            and (renewed or semantic.used_from_now_on(turn.content, fact.value))
        ):
            fact.metadata["replaces"] = True  # "new number: …": the old one is gone
    if semantic.is_additive(turn.content) and not semantic.has_change_verb(turn.content):
        for fact in facts:
            if fact.key == "preference.drink" and fact.value and not fact.retracts:
                fact.metadata["added_on"] = True  # "也挺爱喝柠檬水的": see values._added_beside
                fact.is_correction = False  # "最近也开始喝茶了": "now" beside "also" adds
    # "最近迷上了推理小说" after "我喜欢看科幻小说": a taste taken up lately, as "gotten into X
    # lately", is one more; "现在更喜欢…", "I prefer aisle seats now" say it changed
    if semantic.has_change_cue(_LATELY_ZH.sub(" ", turn.content)):
        for fact in facts:
            if fact.key in _TASTES and fact.value and not fact.metadata.get("category"):
                fact.metadata["changed"] = True  # see values.py
    if semantic.rule_changed(turn.content):
        for fact in facts:
            if fact.type == "constraint":
                fact.metadata["changed"] = True  # "还是用中文回答吧": see values.py
    if not _TOOL_SCOPED.search(turn.content) and (
        _TOOL_NOW.search(turn.content)
        or (
            semantic.has_change_verb(turn.content)
            and not semantic.is_additive(turn.content)
            and not _TAKEN_UP.search(turn.content)
        )
    ):
        for fact in facts:
            if fact.key == "tech.preferred" and fact.value and tool_kind(fact.value):
                # "现在主要用 Figma", "I'm on Apple Music now": in the place of a tool of its kind
                fact.metadata.setdefault("replaces", SAME_KIND)
    quit_values = semantic.quit_objects(turn.content, lifted=False)
    if not quit_values:
        return
    values = [_as_retracted(v) for v in quit_values]
    for fact in facts:
        if fact.type == "constraint" or (fact.value is None and not fact.retracts):
            continue
        if fact.key == "family.member" or fact.metadata.get("about"):
            continue  # "my son doesn't like broccoli anymore": the son gave it up, not the user
        fact.retracts = list(dict.fromkeys([*fact.retracts, *values]))
        fact.is_correction = True


_LEAD_SUBJECT = re.compile(
    r"^(?:我们|我|(?:I|we)(?:'m| am|'re| are| will|'ll| have|'ve)?\s+)", re.I
)


# "don't call me Rob anymore", "别叫阿强了", "please don't call me that": what not to be called
_NOT_CALLED = re.compile(
    r"^(?:please\s+)?(?:don'?t|do not|never|stop)\s+call(?:ing)?\s+me\s+(?P<en>.+?)"
    r"(?:\s+(?:anymore|any more|again|please))?$"
    r"|^(?:以后)?(?:请)?(?:别|不要)(?:再)?叫(?:我)?(?P<zh>.+?)了?$",
    re.I,
)
_NO_NAME = re.compile(r"^(?:that|this|it|by .*)$|小名|全名|名字|外号|昵称|[这那]", re.I)


def _not_called(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A request not to be called a name, in a turn that says the user's name or takes one
    back ("别叫阿强了，叫我强哥吧", "I'm not Alex, please don't call me that", "don't call me Rob
    anymore"), is the name's change, not a standing rule: no ``assistant.constraint`` is formed,
    and the old name said again beside it ("阿强是小时候的外号") forms nothing either. The name
    itself is withdrawn by :func:`_address_withdrawn`. A term of endearment ("别叫我亲爱的",
    "don't call me sweetie") with no name of the user's in the turn stays a rule."""
    names = [f for f in facts if f.key in _NAME_KEYS]
    asked: list[tuple[ExtractedFact, str | None]] = []
    for f in facts:
        if f.type != "constraint" or not f.value:
            continue
        m = _NOT_CALLED.match(f.value.strip())
        if m is None:
            continue
        said = (m.group("en") or m.group("zh") or "").strip()
        if _NO_NAME.search(said):
            asked.append((f, None))
            continue
        # the name as the user wrote it (the rule's value is lower-cased)
        at = turn.content.lower().find(said.lower())
        name = turn.content[at : at + len(said)] if at >= 0 else said
        if _is_latin(name) and not name[:1].isupper():
            continue  # "don't call me late at night": no name
        asked.append((f, name))
    if not names:
        # with no name of the user's in the turn, only a capitalised name is one ("don't call
        # me Rob anymore")
        asked = [(f, n) for f, n in asked if n and _is_latin(n)]
    gone = {n for _, n in asked if n}
    rules = {id(f) for f, _ in asked}
    return [
        f for f in facts if id(f) not in rules and not (f.key not in _NAME_KEYS and f.value in gone)
    ]


def _switched(f: ExtractedFact, rule_changed: bool, clauses: list[str]) -> bool:
    """Whether a fact states a value the user changed to: the clause that names it says so
    ("mostly read English at work now", "改用中文吧"), or it is the language a changed rule asks
    for ("switch back to English please")."""
    if not f.value:
        return False
    if f.metadata.get("formed_by") == "answer_language":
        return rule_changed or f.is_correction or bool(f.metadata.get("replaces"))
    if not (f.is_correction or f.metadata.get("replaces")):
        return False
    said = next((c for c in clauses if f.value.lower() in c.lower()), f.content)
    return semantic.has_change_cue(said) or semantic.is_switch(said)  # "换 VS Code 了"


def _beside_a_switch(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """In a turn that changes a key to a new value, what else the turn says of that value is no
    fact of its own:

    - another value of the key said in a clause with no change of its own and nothing added
      ("Spanish was just for my trip", "French was for my old job", "中文 is for my parents")
      is what the change left behind, or why; a value added beside it ("I also speak French")
      stays;
    - a routine that only uses the new value ("I use German every day now") says how much it
      is used, not a habit of its own."""
    rule_changed = any(g.type == "constraint" and g.metadata.get("changed") for g in facts)
    clauses = [c for sentence in split_clauses(turn.content) for c in sentence]
    changed: dict[str, set[str]] = {}
    for f in facts:
        if (
            f.key is not None
            and (f.key in _SWITCHABLE or f.key == "preference.drink" or _single(f.key))
            and _switched(f, rule_changed, clauses)
        ):
            changed.setdefault(f.key, set()).add((f.value or "").lower())
    if not changed:
        return facts
    new_values = {v for values in changed.values() for v in values if len(v) >= 2}

    def aside(f: ExtractedFact) -> bool:
        if not f.value or f.retracts or semantic.is_additive(f.content):
            return False
        if f.key == "schedule.habit" and not semantic.has_change_verb(f.content):
            words = f.value.lower()
            return any(
                re.search(rf"(?<![\w]){re.escape(v)}(?![\w])", words) if v.isascii() else v in words
                for v in new_values
            )
        return (
            f.key in changed
            and not _switched(f, rule_changed, clauses)
            and f.value.lower() not in changed[f.key]
        )

    return [f for f in facts if not aside(f)]


def _clauses_of(turn: Turn) -> dict[str, _Clause]:
    """The turn's clauses by the content a fact formed from them alone carries."""
    clauses: dict[str, _Clause] = {}
    for sentence in split_clauses(turn.content):
        for raw in sentence:
            clause = _make_clause(raw, turn)
            clauses.setdefault(_content(clause), clause)
    return clauses


def _dated_as_said(turn: Turn, facts: list[ExtractedFact]) -> None:
    """An appointment or plan with a time keeps, as its value, its clause as said — the time
    in the user's words ("牙医那边改到周五上午十点", "dinner with Priya on Thursday at 7"); its
    content carries the resolved date. A value without its time ("moved dinner to") does not
    say which dinner, and the time is what a moved appointment changes."""
    clauses = _clauses_of(turn)
    for fact in facts:
        clause = clauses.get(fact.content)
        if fact.key not in ("event", "plan") or clause is None or clause.date is None:
            continue
        said = _LEAD_SUBJECT.sub("", clause.text.strip()).strip(" ，,")
        said = _LEADING_DE.sub("", _ZH_TAIL.sub("", said)) if clause.lang == "zh" else said
        if len(said) >= 2:
            fact.value = said


# a doing taken up in place of one the turn ends ("不跑步了，现在改成游泳", "quit running, I swim
# now", "gave up running, cycling instead")
_INSTEAD_DOING_ZH = re.compile(
    r"^(?:现在|最近|目前|后来|之后|以后|那就|所以|就|都|也)*(?:改成|改为|换成|改)了?"
    r"(?P<v>(?:去|做|练|打|玩)?[\u4e00-\u9fff]{2,8}?)(?:了|啦|吧|呢)?$"
)
_INSTEAD_DOING_EN = re.compile(
    r"^(?:(?:and|so|now)\s+)*(?:"
    # "I swim now", "now I do yoga": a verb of the user's, not how they are ("I'm fine now")
    r"i\s+(?:\w+ly\s+)?(?P<v1>(?!\w+ed\b)[a-z]{2,}(?:\s+(?!now\b|instead\b)[a-z]+)?)"
    r"\s+(?:now|instead|these days|nowadays)"
    r"|now\s+i\s+(?P<v5>(?!\w+ed\b)[a-z]{2,}(?:\s+[a-z]+)?)"
    r"|(?:switched|moved|changed|went)\s+(?:over\s+)?to\s+(?P<v2>[a-z]{3,}ing(?:\s+[a-z]+)?)"
    r"|(?P<v3>(?!(?:seeing|dating|feeling|getting|going|doing|being|living|working)\b)"
    r"[a-z]{3,}ing(?:\s+[a-z]+)?)\s+(?:now|instead)"
    r"|(?:.*\band\s+)?(?:took|taken|taking)\s+up\s+(?P<v4>[a-z]{3,}(?:\s+[a-z]+)?)"
    r")[.!]*$",
    re.I,
)
_WORK_ENDED = re.compile(
    r"当|上班|工作|岗|职|\b(?:job|role|team|position|department|title|company|firm)\b", re.I
)
# what follows a change word and is no doing: a time, a drink or food, a tool, a name, a place
# ("改看美剧", "watch comedies now": what is watched, read or listened to is a taste)
_NOT_A_DOING_ZH = re.compile(
    # "改主意了": the mind changed, no doing
    # "改一下哈": a moment's change of the words, no doing
    r"^(?:(?:只|都|也|还|就)?(?:喝|吃)|用|叫|成|到|在|住|搬|看|追|听|读|玩|学|主意|想法|计划|打算|一下"
    r"|周|星期|礼拜|每?(?:周|星期)[一二三四五六日天末]$"
    r"|(?:早上|晚上|下午|上午|中午|凌晨|傍晚)?[零一二两三四五六七八九十\d]+[点:：]|(?:早上|晚上|下午|上午|中午)$)"
)
_NOT_A_DOING_EN = re.compile(
    r"^(?:live|living|work|working|use|using|drink|drinking|eat|eating|go|going|am|have|get"
    r"|feel|feeling|think|know|guess|mean|want|need|do (?:it|that|this|so|nothing|anything|well)"
    r"|doing (?:it|that|this|well|fine|ok|okay|good|great|better)|is|was|be|being|watch|watching"
    r"|read|reading|listen|listening|play|playing|learn|learning|prefer|like|love|enjoy)\b",
    re.I,
)


# a turn of the user's life said without "I": what comes before the verb ("update: got
# promoted to senior", "just moved to Denver", "finally got hired at Stripe")
_LIFE_OPENS_EN = re.compile(
    r"^(?:(?:so|and|update|news|btw|fyi|guess what|omg|finally|officially|just|recently)"
    r"(?:\W+|$))*"
    r"(?=(?:got (?:promoted|hired|laid off|let go|fired|engaged|married|divorced|a (?:new )?job)"
    r"|moved (?:to|back to|out to)|relocated to|started (?:at|working at|a new job)|joined"
    r"|switched (?:jobs|to)|graduated from|transferred to"
    r"|starting (?:at|with) (?=.* as\b))\b)",
    re.I,
)


def _doing_instead(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """The doing a turn takes up in place of one it ends ("膝盖伤了以后我就不跑步了，现在改成游泳",
    "quit running, I swim now", "gave up running, cycling instead"): one ``schedule.habit`` of
    the new doing, when the turn formed no routine itself. The ending is the context that makes
    the words after 改成 or before "now" a doing; the ended one is withdrawn by the turn's own
    record (``_ended``), never by this fact."""
    if not any(f.metadata.get("retraction") for f in facts) or any(
        f.key == "schedule.habit" and f.value for f in facts
    ):
        return []
    if any((f.key or "").startswith("work.") for f in facts) or _WORK_ENDED.search(turn.content):
        return []  # "不当老师了，改做教研", "moved to marketing": a job, not a routine
    values = [f.value.lower() for f in facts if f.key and f.value]
    for sentence in split_clauses(turn.content):
        for clause in sentence:
            bare = clause.strip(" \t.!?。！？~～")
            if any(v in bare.lower() for v in values):
                continue  # "不学日语了，改学韩语": the clause formed its own fact (a language)
            if m := _INSTEAD_DOING_ZH.match(bare):
                doing = m.group("v")
                if _NOT_A_DOING_ZH.match(doing) or re.fullmatch(_LANGS_ZH, doing):
                    continue
                if doing.startswith("去") and segment.is_place(doing[1:]):
                    continue  # "日本的旅行取消了，改成去泰国": a trip in place of a trip
            elif m := _INSTEAD_DOING_EN.match(bare):
                doing = next(g for g in m.group("v1", "v2", "v3", "v4", "v5") if g).lower()
                if _NOT_A_DOING_EN.match(doing):
                    continue
                if (m.group("v1") or m.group("v5")) and " " not in doing:
                    doing = semantic.gerund(doing)  # "I swim now": swimming
            else:
                continue
            return [
                ExtractedFact(
                    type="preference",
                    key="schedule.habit",
                    value=doing,
                    content=_turn_content(bare),
                    is_correction=True,
                    message_ids=[turn.message_id],
                )
            ]
    return []


# "以前七点起，现在六点就起了": the same doing then and now, at another time
_THEN_NOW_ZH = re.compile(
    r"(?:以前|之前|原来|过去)(?P<then>[^，,。；;！!]{2,12})[，,；;]\s*(?:但是?|不过|而)?"
    r"(?:现在|如今|最近)(?P<now>[^，,。；;！!]{2,14})"
)
_WHEN_ZH = re.compile(r"[点早晚午夜周末天]")


def _routine_then_now(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A routine said as it was and as it is ("以前七点起，现在六点就起了", "之前晚上跑，现在早上
    跑"), when the turn formed nothing else: the part said of now is the routine, and the part
    said of then what it moves from (``_moves`` → ``values.moved_from``). Both name a time and
    share a doing (a character that says no time); a part with a negation is no routine."""
    m = _THEN_NOW_ZH.search(turn.content)
    if m is None or facts:
        return []
    then, now = m.group("then"), _ZH_TAIL.sub("", m.group("now"))
    if not (_WHEN_ZH.search(then) and _WHEN_ZH.search(now)) or re.search(r"[不没别]", now):
        return []
    doing = {ch for ch in now if "\u4e00" <= ch <= "\u9fff"} - STOP_HAN
    if not doing & set(then):
        return []
    return [
        ExtractedFact(
            type="preference",
            key="schedule.habit",
            value=now,
            content=_turn_content(turn.content[m.start("now") - 2 : m.end("now")]),
            is_correction=True,
            message_ids=[turn.message_id],
        )
    ]


# a thing said to move to a time, nothing else: "Flight got moved to Sunday", "Yoga moved to
# Thursdays now", "体检挪到下周二了"
_MOVED_TO = re.compile(
    r"^(?:(?:ok|okay|so|update|fyi|heads up|btw|oh)\W+)*(?:the |my |our )?"
    r"(?P<thing>(?!it\b|that\b|this\b|they\b)[a-z][\w'-]*(?: [a-z][\w'-]*){0,3}?)"
    r"(?:'s| is| got| was| has been| 's been| are| were| has| have)?(?: been)?"
    r" (?:moved|pushed(?: back)?|bumped|rescheduled|postponed|shifted|changed|switched)"
    r" (?:to|till|until) (?P<when>.+?)(?: now| instead)?[.!]*$"
    r"|^(?P<thing_zh>(?![我你他她它这那])[\u4e00-\u9fff]{1,8}?)(?:那边|那个|的时间)?"
    rf"(?:{MOVED_TO_ZH})了?(?P<when_zh>[^，,。！!？?]{{1,16}}?)"
    r"(?:了|啦)?[。!！]*$",
    re.I,
)


# a move that names no thing: "they pushed it to Thursday at 6", "airline bumped me", "改期了，
# 挪到十一月十八号", "聚餐改到周日晚上" (a gathering in a word of its kind): the appointment
# spoken of last is what moved (``values.moved_from``)
# the verbs that move a booking to another time
_MOVE_VERBS_EN = r"(?:moved|pushed|bumped|rescheduled|rebooked|postponed|shifted|delayed|changed)"
_MOVED_UNNAMED = re.compile(
    rf"\b(?:{_MOVE_VERBS_EN}|brought)"
    r" (?:it|that|this|them|me|us)\b"
    r"|\b(?:the|my|our) (?:appointment|appt|meeting|booking|reservation)\b"
    # the thing moved named before a verb of being moved, and no time after it ("flight got
    # moved, I'm now going out on the 14th"): ``_THING_BEFORE_IT`` keeps out a thing of the
    # user's that is no appointment ("my car got moved")
    r"|\b(?:got|was|were|has been|have been|'s been|is being|just got)"
    rf" (?:{_MOVE_VERBS_EN}|pushed back|moved up)\b(?!\s+(?:to|till|until|for)\b)"
    # "改期了", and said by whoever moved it ("牙医说要改期", Cantonese "牙醫話要改期")
    r"|(?:^|[，,。.!！:：]\s*|说|話|话|要|又|得)改期"
    # the booking named by its kind, the user's ("把我的预约改到后天下午了", "航班被改签到下周六了")
    r"|(?:^|[，,。.!！:：]\s*)(?:把)?(?:我的)?(?:预约|航班|机票|火车票|高铁票|会议|面试|体检|复查|手术|课"
    rf"|meeting|appointment|flight)\s*(?:被|也|又|就)?(?:{MOVED_TO_ZH})"
    r"|(?:^|[，,。.!！:：]\s*|说|話|话)"
    r"(?:聚餐|饭局|会议|开会|约会|预约|见面|面试|那个|这个|时间)?"
    rf"(?:那边|也|又|就)?(?:{MOVED_TO_ZH})",
    re.I,
)
# a thing of the user's named before "it" ("my package was supposed to arrive today but they
# pushed it to Thursday"): what "it" is, not an appointment
_THING_BEFORE_IT = re.compile(
    r"\b(?:my|our|the|his|her|their)\s+(?!(?:appointment|appt|meeting|booking|reservation"
    r"|dentist|doctor|flight|class|date|time|call|interview|session|lesson|haircut|wedding"
    r"|party|trip|surgery|exam|test|game|concert|show|match|practice|shift|meetup|hearing"
    r"|checkup|check-up|scan|visit|tour|launch|demo|presentation|recital|ceremony"
    # who keeps the booking ("the airline rebooked me", "the clinic moved it")
    r"|airlines?|clinic|salon|office|hospital|hotel|restaurant|agency|studio|gym|venue|vet"
    r"|receptionist|organi[sz]ers?)\b)[a-z]+",
    re.I,
)


# what is delivered or due, not an appointment: what a move names when it names one of these
_DELIVERED = re.compile(
    r"快递|包裹|外卖|订单|货|截止|交付|房租|\b(?:ups|fedex|dhl|usps|amazon|package|parcel"
    r"|delivery|order|shipment|rent|deadline|payment)\b",
    re.I,
)


# a thing of the public's, moved: "那部电影改到周五上映了", "the game got moved to Sunday night"
_PUBLIC_EVENT = re.compile(
    r"上映|发布会?|开售|首映|比赛|球赛|演唱会|\b(?:game|match|launch|release|premiere|concert"
    r"|season|episode|movie|film|show)\b",
    re.I,
)
_OWN_WORD = re.compile(r"\b(?:my|our|I|I'm|we)\b|我", re.I)
# whose a thing is, when it is someone else's: "my boss's flight", "他们的年会" ("Yoga's moved
# to Thursdays" is the user's yoga)
_THEIRS = re.compile(
    r"\b(?!(?:it|that|what|there|here|who|he|she|let)'s)[A-Za-z]+'s\s+(?!(?:been|moved|got"
    r"|gotten|now|pushed|bumped|rescheduled|postponed|delayed|changed|on|at|in|off|back|going"
    r"|being|getting|also|just|finally)\b)[a-z]+|他们的|她们的|他的|她的|人家的|别人的",
    re.I,
)


def _moved_not_mine(fact: ExtractedFact) -> bool:
    """True if ``fact`` is an appointment moved (``metadata["moved"]``) that is someone else's
    ("我老婆的航班改到下周一了", "my boss's flight got moved to the 15th", "客户说他们的年会改到下
    个月了"), a delivery or a due date ("the package delivery got bumped to Thursday"), or a
    public event that is not the user's ("那部电影改到周五上映了"): no appointment of the
    user's. Whoever tells of the move ("客户刚说…", "they called and…") is left out first."""
    if fact.key not in ("event", "plan") or "moved" not in fact.metadata:
        return False
    said = _TELLS_ZH.sub("", _THEY_WHO_BOOK.sub("", fact.value or fact.content))
    return bool(
        _THEIRS.search(said)
        or semantic.family_subject(said) is not None
        or _DELIVERED.search(said)
        or (_PUBLIC_EVENT.search(said) and not _OWN_WORD.search(said))
    )


def _moved_unnamed(text: str) -> bool:
    """True if ``text`` moves an appointment it does not name (``_MOVED_UNNAMED``), with no
    thing of the user's named before it that "it" would be, nothing delivered or due
    (``_DELIVERED``: "快递改期了，挪到周五送", "UPS rescheduled it"), and no one else's."""
    m = _MOVED_UNNAMED.search(text)
    return (
        m is not None
        and not _THING_BEFORE_IT.search(text[: m.start()])
        and not _DELIVERED.search(text)
        and not semantic.is_about_others(_TELLS_ZH.sub("", _THEY_WHO_BOOK.sub("", text)))
        and semantic.family_subject(text) is None
    )


# "they" who keep the user's bookings, calling or moving it ("they called, moved it to
# Thursday 2pm", "they pushed it to Thursday at 6"): the clinic or the salon, not someone the
# turn is about
_THEY_WHO_BOOK = re.compile(
    r"\bthey(?:\s+(?:just\s+)?(?:called|rang|texted|emailed|messaged)\b[\s,.;:!-]*(?:and\s+)?)?"
    rf"(?=\s*(?:just\s+)?{_MOVE_VERBS_EN}\b)",
    re.I,
)


# who tells the user of a move, before what they say ("客户刚说会议改到周五早上了", Cantonese
# "牙醫話要改期"): the teller, not whose the appointment is
_TELLS_ZH = re.compile(
    r"^[^，,。]{1,6}?(?:刚刚?|又|也)?(?:说|讲|話|话|通知|告诉我)(?:了)?[，,:：]?"
)


# the thing moved named only by "it", or the user moved with it: "salon rang, they pushed it
# to Thursday at 6", "they called and bumped me to next tuesday 9am"
_MOVED_IT_TO = re.compile(
    rf"\b{_MOVE_VERBS_EN}"
    r" (?:it|that|this|them|me|us)(?: back)? (?:to|till|until|for) (?P<when>[^,.;!?]+)",
    re.I,
)


def _moved_alone(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A turn that only says a thing moved to a time ("Flight got moved to Sunday", "Yoga moved
    to Thursdays now", "体检挪到下周二了") and formed nothing: the thing at its new time, an
    event (``_moves`` marks it, ``values.moved_from`` finds what it moves and takes its key: a
    routine moved stays a routine)."""
    if facts:
        return []
    text = turn.content.strip()
    if is_question(text):
        # "they moved it to friday 10am, can u remind me the night before?": the move said
        # before a question stands
        text = ", ".join(
            c.strip(" ,，") for s in split_clauses(text) for c in s if not is_question(c)
        )
        if not text:
            return []
    m = _MOVED_TO.match(text)
    if m is None and (it := _MOVED_IT_TO.search(text)) and _moved_unnamed(text):
        text, when = it[0], it["when"]  # "they pushed it to Thursday at 6"
    elif m is None:
        return []
    else:
        when = m["when"] or m["when_zh"] or ""
    if not (time_marks(when) or find_date(when, turn.occurred_at)):
        return []  # "the meeting moved to Zoom": where, not when
    clause = _make_clause(text, turn)
    date = clause.date
    return [
        ExtractedFact(
            type="event",
            key="event",
            value=clause.text,
            content=_content(clause),
            valid_from=date.start if date else None,
            valid_to=date.end if date else None,
            message_ids=[turn.message_id],
        )
    ]


def _moves(turn: Turn, facts: list[ExtractedFact]) -> None:
    """A turn that moves or calls off a plan, an appointment or a routine ("we moved dinner to
    Saturday 8pm", "牙医那边改到周五上午十点了", "switched my workouts to evenings, the 6am thing
    was killing me") marks its facts of those keys ``metadata["moved"]``: the times the turn
    names that are the time of none of its facts (``values.time_marks``) and the words of the
    clauses that formed no fact ("客户那边改时间了，改到周五上午十点" → 客户), with which
    ``values.moved_from`` finds the active memory of the same thing and freezes it."""
    if not semantic.moves(turn.content):
        return
    clauses = _clauses_of(turn)
    said = {f.content for f in facts}
    words: set[str] = set()
    rest: list[str] = []
    for content, each in clauses.items():
        if content not in said:
            words |= activity_words(each.raw)
            rest.append(each.raw)
    # the times the turn gives up: named, but the time of none of its facts ("the 6am thing")
    away = time_marks(turn.content)
    for fact in facts:
        clause = clauses.get(fact.content)
        away -= time_marks(" ".join([fact.content, fact.value or "", clause.raw if clause else ""]))
    for fact in facts:
        if fact.key in MOVABLE_KEYS and fact.type != "constraint":
            fact.metadata["moved"] = {
                "away": sorted(away),
                "words": sorted(words),
                "rest": "，".join(rest),
                "instead": bool(_TURNED_INTO.search(turn.content)),
                "unnamed": _moved_unnamed(turn.content),
            }


# a routine turned into another ("最近改成早上游泳了", "现在周末都改去骑车了"): what it was is
# the one routine the user has, when nothing else names it
_TURNED_INTO = re.compile(
    r"改(?:成|为|去|做|练|打)|换成|变成|计划有变|改计划|换计划"
    r"|\b(?:instead|change of plans?|plans? (?:have |has )?changed)\b",
    re.I,
)


_CONTRAST_CUT = re.compile(
    r"\s+(?:instead of|rather than)\s+|,?\s+not\s+(?!just\b|only\b)|[，,]?\s*(?:而不是|不是)", re.I
)


def _contrasts(turn: Turn, facts: list[ExtractedFact]) -> None:
    """ "His name is Max, not Milo", "我叫小虹，不是小红": each keyed fact of the turn carries
    what it stands instead of (``metadata["instead_of"]``); ``values.resolve`` freezes those of
    the user's active values of the same key only. A turn that says something changed and adds
    nothing ("migrated off Perl, it's all Python now") carries its whole text: a value of the
    same key it names is one the new value replaces."""
    named = semantic.contrast_objects(turn.content)
    whole = [turn.content] if semantic.replaces_mentioned(turn.content) else []
    if not (named or whole):
        return
    # (a favourite replaced is read as said new-first: "Coldplay isn't my favourite anymore,
    # it's Radiohead" denies no thing)
    read = _denied_first(_favourite_swapped(turn.content))
    if not may_put_right(turn.content) or thing_denied(read):
        return  # "This cup isn't oat milk, it's soy milk", "我想把美式換成拿鐵，但還沒決定"
    for fact in facts:
        if fact.key is None or not fact.value or fact.type == "constraint":
            continue
        if named:  # "Postgres instead of MongoDB": the value is what is chosen
            kept = _CONTRAST_CUT.split(fact.value)[0].strip(" ,，")
            fact.value = kept or fact.value
        own = fact.value.lower()
        others = [y for y in named if y.lower() not in own and own not in y.lower()] + whole
        if whole and fact.key == "task.decision":
            # a decision's value holds its verb ("用mysql"), so the turn's text does not name
            # it: the names the turn says beside the new choice do ("MySQL扛不住")
            others += [a for a in semantic.anchors(turn.content) if a.lower() not in own]
        if others:
            fact.metadata["instead_of"] = others


def _diets_taken_up(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """The diets the user took up in another's place, not formed yet ("keto 放弃了，现在改成
    plant-based 了", "went vegan"): ``diet.style`` facts (one diet is held at a time: the new
    one replaces the old), marked ``replaces``; none said of someone else ("my sister went
    vegan")."""
    out: list[ExtractedFact] = []
    held = {(f.value or "").lower() for f in facts if f.key == "diet.style"}
    for sentence in split_clauses(turn.content):
        for i, raw in enumerate(sentence):
            # someone else's, said in the clause or the sentence before it ("我老公 keto 放弃了，
            # 现在改成 plant-based 了")
            if any(
                semantic.is_about_others(c) or semantic.family_subject(c) for c in sentence[: i + 1]
            ):
                continue
            for diet in semantic.diets_taken_up(raw):
                if diet.lower() in held:
                    continue
                held.add(diet.lower())
                out.append(
                    ExtractedFact(
                        type="preference",
                        content=_turn_content(raw.strip()),
                        key="diet.style",
                        value=diet,
                        message_ids=[turn.message_id],
                        metadata={"replaces": True},
                    )
                )
    return out


# a thing of the user's renamed ("旺财改名叫来福了", "我家猫现在改叫团子了"): the new name, with
# the old one it takes the place of (values._renamed gives it the key of the memory holding it)
_RENAMED_ZH = re.compile(
    # "豆豆后来我们给它改名叫阿福了": who renamed it and when, between the old name and the verb
    # "我把汤圆改名叫年糕了": who renamed it, before the old name
    r"(?:(?:我们?|咱们|我家)?把)?"
    r"(?P<old>[\u4e00-\u9fffA-Za-z]{2,10}?)(?:现在|已经|也|后来|我们|我|就|又|给[它他她])*"
    r"(?:改名|更名|改叫)(?:了|字)?[，,]?"
    r"(?:现在)?(?:叫|为|成|叫做)?(?P<new>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:了|啦|呢)?(?:[，,。！!]|$)"
)


# a pet renamed, said of it by a pronoun: "给它改名了，现在叫可乐", "We renamed her Mochi",
# "we changed his name to Max"
_RENAMED_PET_ZH = re.compile(r"^给?[它他她]$")
# a thing named in the turn that a pronoun may stand for, no pet: "新买了个扫地机器人，给它改名
# 了", "my son got a robot toy and we changed his name to Max"
_NOT_A_PET = re.compile(
    r"玩具|机器人|扫地机|车|船|娃娃|熊|公仔|植物|盆栽|文件|项目|账号|群|频道|路由器|电脑|手机|游戏|角色"
    r"|\b(?:toys?|robots?|boat|car|truck|bike|doll|teddy|plant|roomba|vacuum|router|wi-?fi|file"
    r"|project|account|channel|group|band|character|bot|app|repo|server|laptop|computer|phone"
    r"|game|avatar|plush|stuffed)\b",
    re.I,
)
_RENAMED_PET_EN = re.compile(
    r"\b(?:[Ww]e|I)(?: just| finally)? (?:renamed (?:her|him|it|the (?:cat|dog|kitten|puppy|bird"
    r"|rabbit|bunny|hamster))(?: to)?|changed (?:her|his|its) name to) (?P<new>[A-Z][a-z]{1,15})\b"
)


def _pet_renamed_en(text: str) -> re.Match[str] | None:
    """ "We renamed her Mochi", "we changed his name to Max" (``_RENAMED_PET_EN``), unless the
    turn names a thing the pronoun may stand for that is no pet (``_NOT_A_PET``)."""
    m = _RENAMED_PET_EN.search(text)
    return None if m is None or _NOT_A_PET.search(text) else m


def _renamed_fact(turn: Turn, said: str, new: str, old: str) -> ExtractedFact:
    """The new name ``new`` of a thing renamed, said in ``said``, standing for ``old`` (the
    words that named it, or ``RENAMED_PET``): ``values._renamed`` gives it its key."""
    return ExtractedFact(
        type="profile",
        content=_turn_content(said.rstrip("，,。！!")),
        value=new,
        is_correction=True,
        message_ids=[turn.message_id],
        metadata={"renamed_from": old},
    )


def _renamed(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """The new name of a thing the user named before ("旺财改名叫来福了"): a fact with no key
    whose ``metadata["renamed_from"]`` is the words before the verb, or
    ``values.RENAMED_PET`` when a pronoun names the pet ("给它改名了，现在叫可乐", "we renamed
    her Mochi"); the user's own new name ("我改名了，现在叫王若溪") is read by the rules for
    names."""
    if (en := _pet_renamed_en(turn.content)) is not None:
        if any(f.value == en.group("new") for f in facts):
            return []  # marked as renamed by ``extract_turn``
        return [_renamed_fact(turn, en.group(0), en.group("new"), RENAMED_PET)]
    m = _RENAMED_ZH.search(turn.content)
    if m is not None and _RENAMED_PET_ZH.match(m.group("old")):
        if _NOT_A_PET.search(turn.content):
            return []  # "新买了个扫地机器人，给它改名了": the robot's new name
        return [_renamed_fact(turn, m.group(0), m.group("new"), RENAMED_PET)]
    if m is None or m.group("old").startswith(
        ("我", "你", "他", "她", "它", "公司", "老板", "同事")
    ):
        return []
    named = [f for f in facts if f.key and f.value == m.group("new")]
    for f in named:  # "我家狗旺财改名叫来福": the pet's name formed, standing instead of 旺财
        before = f.metadata.get("instead_of")
        f.metadata["instead_of"] = [*(before if isinstance(before, list) else []), m.group("old")]
    if named or any(f.value == m.group("new") for f in facts):
        return []
    return [_renamed_fact(turn, m.group(0), m.group("new"), m.group("old"))]


class RuleExtractor:
    """The offline extractor: deterministic regex + jieba rules for Chinese and English."""

    name = "rules"

    async def extract(self, turns: list[Turn], *, has_task: bool = False) -> list[ExtractedFact]:
        """Return the atomic facts stated by the ``user`` turns, in turn order.

        Each fact has ``source="user_declared"``, ``confidence=None`` (the service fills the
        default) and ``message_ids=[turn.message_id]``. Never raises ``ExtractionError``.
        """
        return await asyncio.to_thread(self._extract, turns, has_task)

    @staticmethod
    def _extract(turns: list[Turn], has_task: bool) -> list[ExtractedFact]:
        from app.ingest.extraction import acts, script

        facts: list[ExtractedFact] = []
        for said in turns:
            turn = script.visible(said)
            # traditional Chinese is read in simplified characters and remembered as written
            read = script.read_as_simplified(turn) or turn
            # a turn a trained classifier reads as saying nothing to store forms nothing (``acts``)
            formed = acts.apply(read, extract_turn(read, has_task=has_task))
            if read is not turn:
                formed = [script.fact_as_written(f, turn.content, read.content) for f in formed]
            facts.extend(formed)
        return facts
