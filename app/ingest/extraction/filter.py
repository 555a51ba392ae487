"""The write filter: is a clause worth remembering, or small talk?

A clause is worth remembering when it states something about the user or the work (a fact,
preference, constraint or plan) and is none of: a question, a greeting, thanks or an
acknowledgement, weather chatter, or one-off conversational filler ("let's keep chatting…").
The rule extractor asks this per clause; a clause may also borrow the subject of an earlier
clause of the same sentence ("我叫李明，是广东人"), see ``has_memory_signal``.
"""

from __future__ import annotations

import re

from app.kit.chinese import simplified

_TRAILING = " \t\r\n\"'”’」』)）~～…"

_QUESTION_EN = re.compile(
    # a word that only leads into the question may stand before it ("anyway how do i …",
    # "ok so what's …")
    r"^(?:(?:anyway|anyways|so|ok|okay|well|also|and|but|btw|oh|um+|uh+|hmm+|ugh|quick q"
    r"|quick question|one more thing|random question)\b[\s,:.!-]*)*"
    r"(?:what|how|where|when|who|whom|whose|why|which|can (?:you|u)|could (?:you|u)"
    r"|would (?:you|u)|will (?:you|u)|do (?:you|u)|did (?:you|u)|does|is it|is that|is there"
    r"|are (?:you|u)|are there|should i|shall|may i|can i|could i|do i|am i|any idea"
    r"|have (?:you|u)|is this)\b",
    re.I,
)
_QUESTION_ZH = re.compile(
    # "不怎么/没怎么" is a degree ("我不怎么爱看综艺"), not a question
    r"(?<![不没])怎么|怎样|如何|为什么|为啥|干嘛|哪里|哪儿|哪个|哪家|哪些|哪位|什么时候|什么样|"
    r"是什么|叫什么|"
    r"多少|几点|几个|几号|是不是|有没有|能不能|可不可以|要不要|会不会|对不对|好不好|行不行|"
    r"吗[\s。！!.~～]*$|么[\s。！!.~～]*$|"
    # "有啥好去处", "推荐不", "行不": what or yes-or-no asked the spoken way
    r"有啥|啥时候|干啥|做啥|吃啥|买啥|选啥|(?:推荐|可以|行|好|对|有|能|要|是)不[\s。！!.~～😭🤔]*$"
)
_GREETING = re.compile(
    r"^(?:hi|hello|hey|yo|hiya|howdy|good (?:morning|afternoon|evening|night)|bye|goodbye|"
    r"see you|see ya|你好|您好|大家好|嗨|哈喽|哈啰|早上好|上午好|下午好|晚上好|早安|午安|晚安|"
    r"早晨好|早晨|早|在吗|"
    r"再见|拜拜|回见)[\s,，!！.。~～]*(?:there|everyone|all|呀|啊|哦)?[\s!！.。~～]*$",
    re.I,
)
# how-are-you said as a greeting, often with no question mark: "hey hows it going lol",
# "what's up", "你最近怎么样" is a question already
_HOW_ARE_YOU = re.compile(
    r"^(?:(?:hi|hello|hey|yo|hiya)(?: there)?[\s,!.]*)?(?:how'?s it going|how is it going"
    r"|how(?:'?re| are) (?:you|ya|u)(?: doing)?(?: today)?|what'?s up|wh?at'?s good|sup|wass?up"
    r"|how(?:'?ve| have) (?:you|ya|u) been|how'?s (?:your|ur) (?:day|week)(?: going)?)"
    r"(?:[\s,!.~]*(?:lol|haha+|man|dude|mate|buddy|friend))?[\s!.~]*$",
    re.I,
)
_THANKS = re.compile(
    r"\b(?:thank(?:s| you)|thx|ty|cheers|3q)\b|谢谢|多谢|感谢|谢啦|谢了|辛苦了|麻烦你了|唔该", re.I
)
_ACK = re.compile(
    # "哈哈好喔", "嗯嗯好": a laugh or a hum before it
    r"^(?:(?:哈)+|(?:嗯)+)?[\s,，]*"
    r"(?:ok(?:ay)?|sure|yes|no|yeah|yep|nope|cool|great|nice|got it|sounds good|lol|haha+|"
    r"hmm+|fine|alright|right|好的?|嗯+|哦+|噢|行|可以|没问题|收到|明白了?|了解|知道了|哈+|呵呵|"
    r"是的|对|对的|好吧|好嘅|冇问题)[喔哦啊呀啦嘅]*[\s!！.。~～,，]*(?:冇问题|没问题)?"
    r"[\s!！.。~～]*$",
    re.I,
)
_CHATTER = re.compile(
    r"^message\s*\d+\s*:|\blet'?s (?:keep|just|continue|go on)?\s*(?:chat|talk)|"
    r"\b(?:just|keep) (?:chatting|talking)\b|\bnever ?mind\b|\bno worries\b|\bdon'?t worry\b|"
    r"随便聊聊|聊聊天|闲聊|继续聊|接着聊|没事了?$|算了$|帮我记(?:一下|住)|记一下|记住(?:啊|哦)?$|"
    # how the user takes the conversation in: "I'm all ears", "I'll think about it", "我再想想"
    r"^(?:ok(?:ay)?,?\s+|well,?\s+)?(?:i'?m|i am|i'll|i will|let me) (?:all ears|listening"
    r"|(?:just )?(?:kidding|joking)|(?:still |gonna |going to )?think(?:ing)?"
    r" (?:about it|it over|on it))"
    r"(?: (?:now|lol|haha|tho|though|for now))?[\s!.,~]*$|"
    r"^我?(?:再)?(?:想想|考虑一下|琢磨一下|想一下)[吧啊哈]*$|"
    # an aside on the user's own words, no rule: "don't ask why lol", "don't judge me", "别笑我"
    r"^(?:and |but |pls |please )?(?:don'?t|do not) (?:ask (?:me )?why|judge(?: me)?|laugh"
    r"|hate me|@ me)(?: (?:lol|haha|lmao|tho|though))?[\s!.,~]*$|"
    r"^(?:别|不要)(?:问(?:我)?为(?:什么|啥)|笑(?:我)?|骂我|喷我)[了啊哈吧]*$|"
    # pleasantries about the talk or the assistant: "hope you're doing well", "haha that's
    # funny", "希望你一切都好", "哈哈太好笑了"
    r"^(?:and |i )?hope (?:you'?re|you are) (?:doing )?(?:well|good|ok(?:ay)?|great)\b[\s!.,~]*$|"
    r"^(?:(?:ha){2,}|lol|lmao|hehe)?[\s,!]*(?:that'?s|that is|so|how) (?:so |really |very )?"
    r"(?:funny|hilarious|cute|sweet|cool|awesome|interesting|nice of you|helpful|useful"
    r"|perfect|great|exactly what i needed)[\s!.,~]*$|"
    r"^希望你(?:一切)?(?:都)?(?:好|顺利)[吧呀啊哦]*$|"
    # the courtesies of an introduction: "以后多指教", "请多多关照", "nice to meet you"
    r"^(?:以后|今后|往后|还望|还请)?(?:也)?(?:请)?(?:多多|多)(?:指教|关照|包涵|担待|指点)"
    r"[了啊呀哈吧哦啦～~]*$|^(?:(?:it'?s |so )?(?:nice|good|great|pleased) to meet (?:you|u)"
    r"|looking forward to (?:working|chatting|talking) with (?:you|u))(?: all)?[\s!.,~]*$|"
    r"^(?:哈哈+)?[，,\s]*(?:太|真|好)?(?:好笑|搞笑|有意思|可爱)了?[啊呀哈]*$",
    re.I,
)
_WEATHER = re.compile(
    r"天气|好热|有点热|太热了|真热|热死|好冷|有点冷|太冷了|真冷|冷死|下雨|下雪|刮风|雾霾|"
    r"\bweather\b|\b(?:so|very|really|pretty) (?:hot|cold|humid|rainy)\b|\bit'?s (?:hot|cold"
    r"|raining"
    r"|snowing|sunny)\b",
    re.I,
)
# the units a rule for the answers asks for: "Use Celsius when we talk weather" is no chatter
_UNITS = re.compile(r"摄氏|华氏|公制|英制|\b(?:celsius|fahrenheit|metric|imperial)\b", re.I)
# "我讨厌下雨天" / "I love rainy days" state a taste; "今天好热" / "it's so hot" is chatter.
_OWN_TASTE = re.compile(
    r"我(?:很|最|特别|不太|不)?(?:喜欢|讨厌|怕|受不了|爱)|\bI (?:really )?(?:love|like|hate"
    r"|enjoy|can't stand)\b",
    re.I,
)
_FIRST_PERSON = re.compile(
    r"我|咱|俺|本人|\b(?:i|i'm|im|i've|i'll|i'd|my|me|mine|we|we're|our|us)\b", re.I
)
_DIRECTIVE = re.compile(
    r"以后|今后|从现在|不要|别|请|不许|不准|禁止|记得|务必|控制在|限制在|"
    r"\b(?:please|always|never|don'?t|do not|stop|avoid|from now on|make sure)\b",
    re.I,
)
# a North American phone number: "628-555-0199", "(415) 555-0101" (read by ``rules`` too)
NANP_PHONE = r"(?:\(\d{3}\)\s?|\d{3}[\s.-])\d{3}[\s.-]\d{4}"
_DOMAIN = re.compile(
    r"预算|生日|出生|邮箱|电话|手机|微信|地址|身份证|护照|银行卡|卡号|密码|决定|定了|截止|项目|号码|驾照|"
    r"最(?:喜欢|爱)的|"
    r"\b(?:budget|birthday|email|e-mail|phone|deadline|decided|decision|project|passport"
    r"|password|passcode|passphrase|pin|pwd|pw|login|card number|card|number|mobile|cell"
    r"|license|licence|bday|b-day|born|seed phrase|recovery phrase)\b|助记词"
    r"|^\s*(?:u|user(?:name)?)\s*[:=]"  # "u: anna p: hunter2"
    r"|^\s*\d{2}\s?[mf]\b"  # "36f here": an age and a sex, the forums' self-introduction
    r"|(?<![\d-])1[3-9]\d{9}(?![\d-])"
    rf"|(?<![\d-]){NANP_PHONE}(?![\d-])"  # "628-555-0199"
    r"|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z]",
    re.I,
)


def _core(text: str) -> str:
    return text.strip().rstrip(_TRAILING).strip()


# a statement hedged with a question mark, asking nothing ("so pescatarian I guess?", "I'm
# vegan now, I think?", "算是素食者吧？")
_HEDGE_ASKED = re.compile(
    r"(?<!\byou )(?<!\bdo )\b(?:I guess|I think|I suppose|kinda|sort of|lol|haha)\s*[?？]+$"
    r"|^(?!.*[吗么呢])(?=.*我).*(?:算是|应该算)[^？?]{1,12}吧\s*[?？]+$",
    re.I,
)


def hedged(text: str) -> bool:
    """True if ``text`` is a statement hedged with a question mark ("so pescatarian I guess?",
    "我算是素食者吧？"): it asks nothing."""
    return bool(_HEDGE_ASKED.search(_core(text)))


def is_question(text: str) -> bool:
    """True if ``text`` asks something (ends in ?/？, ends in 吗/么, has 怎么/哪里/多少…, or opens
    with what/how/where/can you…); a question never yields a fact."""
    core = _core(text)
    if core.endswith(("?", "？")) and not hedged(core):
        return True
    if core.endswith(("呢", "呢。")) and re.search(r"你|什么|怎|哪|谁", core):
        return True
    return bool(_QUESTION_EN.search(core) or _QUESTION_ZH.search(core))


def is_small_talk(text: str) -> bool:
    """True if ``text`` is a greeting, thanks, an acknowledgement, weather talk or filler
    ("let's keep chatting…", "Message 7: …", "帮我记一下")."""
    core = _core(text).rstrip("。.!！,，")
    if not core:
        return True
    return bool(
        _GREETING.match(core)
        or _HOW_ARE_YOU.match(core)
        or _ACK.match(core)
        or _THANKS.search(core)
        or _CHATTER.search(core)
        or (_WEATHER.search(core) and not _OWN_TASTE.search(core) and not _UNITS.search(core))
    )


def is_noise(text: str) -> bool:
    """True if ``text`` is a question or small talk: it must never yield a fact. Traditional
    Chinese is read in simplified characters (``kit.chinese.simplified``)."""
    text = simplified(text)
    return is_question(text) or is_small_talk(text)


# "Work has been brutal at Novartis lately", "Work's crazy": work with no owner named, as the
# subject of what the speaker says, is the speaker's
_OWN_WORK = re.compile(
    r"^\W*(?:(?:honestly|ugh|man|and|but|so|anyway),?\s+)*work(?:'s|\s+(?:has|had|is|was|keeps"
    r"|gets|got))\b"
    # "公司在深圳，不过我住东莞", "单位就在楼下": the workplace, no owner named, is the speaker's
    r"|^\W*(?:而且|不过|但是?|其实)?(?:公司|单位)(?:(?:就|总部|现在)?在|(?:是(?:一家|个|一个)"
    r"[^，,。]{0,12}?)?(?:叫|名叫))"
    # "base 在 Singapore": where the speaker's work is based
    r"|^\W*based?\s*在",
    re.I,
)

# a home said by the word home, the whole clause (the extractor's residence rules read the same
# words): "home is Denver for me", "Chicago is home now", "Austin's been home for 4 years" —
# not "home to the Bulls" or "home now to my brother"
PLACE_NAME = r"(?-i:[A-Z])[\w.'-]*(?: (?-i:[A-Z])[\w.'-]*)*"
HOME_IS = r"(?:my )?home(?: base)?(?: (?:these days|nowadays|now))? is (?:now )?"
IS_HOME = r"(?: is|'s| has been|'s been) (?:(?:now|still|officially|finally) )?(?:my |our )?home"
HOME_TAIL = (
    r"(?: (?:for me|for us|now|these days|for now|for (?:about |almost |over |nearly )?"
    r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|\d+) (?:years?|months?"
    r"|decades?)(?: now)?|since (?:\d{4}|last year|(?:college|uni|university|grad school"
    r"|the pandemic|covid)\b)))*"
)
_OWN_HOME = re.compile(
    rf"^\W*{HOME_IS}{PLACE_NAME}{HOME_TAIL}\W*$|^\W*{PLACE_NAME}{IS_HOME}{HOME_TAIL}\W*$", re.I
)


# a trip planned or a job started with the subject left unsaid, as Chinese does ("五一想去成都
# 玩", "明年打算去冰岛", "下周一去 Microsoft 报到"): the speaker's own; a time of a few
# characters may come first, no one else does
_SUBJECTLESS_TRIP_ZH = re.compile(
    r"^(?![他她它你])[\u4e00-\u9fff\d]{0,4}?(?:(?:打算|准备|计划|想)去[\u4e00-\u9fffA-Za-z]{2}"
    r"|(?:就|要)?去\s*[\u4e00-\u9fffA-Za-z][^，,。]{1,20}?(?:报到|入职))"
)

# a taste judged with the subject left unsaid, as Chinese does ("火锅yyds", "螺蛳粉绝绝子",
# "苦瓜真的吃不惯"): the speaker's own verdict on a thing (the rules check it is a taste); not
# "别的茶都喝不惯", nor a thing not done ("再也不用上夜班了 yyds"), nor "真香", said of anything
_OWN_VERDICT_ZH = re.compile(
    r"^(?![他她它你]|别的|其他|其它|任何|所有)(?:(?![不没])[^，,。！!？?]){1,12}?"
    r"(?:(?i:yyds)|永远的神|绝绝子|爱了爱了|吃不了|吃不惯|喝不了|喝不惯|接受不了|欣赏不来|(?i:get)不到)"
)


def has_memory_signal(text: str) -> bool:
    """True if ``text`` talks about the user (我/I/my/we…, or their work or home as the
    subject: "Work has been insane at Pfizer", "Chicago is home now"), instructs the assistant
    (以后/不要/别/always/don't…) or names a remembered attribute (预算/budget/邮箱/email…)."""
    return bool(
        _FIRST_PERSON.search(text)
        or _OWN_WORK.search(text)
        or _OWN_HOME.search(text)
        or _DIRECTIVE.search(text)
        or _DOMAIN.search(text)
        or _SUBJECTLESS_TRIP_ZH.search(text)
        or _OWN_VERDICT_ZH.search(text)
    )


def is_worth_remembering(text: str) -> bool:
    """Decide whether a clause states a fact, preference, constraint or plan.

    Returns ``False`` for questions, greetings, thanks, acknowledgements, weather chatter and
    one-off filler, and for text that neither talks about the user nor instructs the
    assistant; ``True`` otherwise. Traditional Chinese is read in simplified characters.
    """
    text = simplified(text)
    return not is_noise(text) and has_memory_signal(text)
