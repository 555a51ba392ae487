"""Standing rules for the assistant, however they are worded.

A user tells the assistant how to answer in many short ways — "Keep it short.", "Bullet
points please, always.", "代码示例请加上注释", "回复别超过三句话", "以后给我推荐餐厅的时候，价格都标
一下人均". This module decides, by the shape of a sentence rather than by its wording, whether
its clauses are such a rule, and which words are the rule.

A run of clauses of one sentence is a standing rule (``assistant.constraint``) when it is

1. **a request to the assistant**: an imperative or a polite request (please / 请 / 麻烦 /
   记得 / 别 / 不要 / 以后 …, "I want you to …", "could you always …"), not a statement with
   a subject of its own ("我同事总是让AI回答得很简短", "I like short stories");
2. **about how to answer**: it names a dimension of an answer (``_STYLE``: length, tone,
   format, language, emoji, code and examples, units and prices, detail, what to include or
   leave out) or says it stands (``_STANDING``: always / from now on / every time / 以后 / 每次
   / 一律 / 都 / "when you answer …");
3. **standing, not one-off**: a request with a concrete object of its own ("this", "the
   following", "这句", "下面", a colon followed by the text) is a task, and so is a task verb
   ("translate", "summarise", "write me a …", "帮我把", "给我写一首") unless the request says it
   stands ("always translate technical terms", "以后帮我订酒店的时候…").

A question is no rule unless it asks for something standing ("could you always format
answers as bullet points?"). A clause that only sets the occasion ("以后给我推荐餐厅的时候",
"when you recommend restaurants") belongs to the rule that follows it: the value is the
occasion shortened ("推荐餐厅时") and the rule ("价格都标一下人均"), never the occasion alone.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from app.ingest.extraction import semantic
from app.ingest.extraction.filter import is_question, is_small_talk

_HAN = re.compile(r"[\u4e00-\u9fff]")

# what an answer is made of: a rule about one of these is about how to answer
_STYLE_EN = re.compile(
    r"\b(?:short(?:er)?|brief(?:ly)?|concise(?:ly)?|succinct|long(?:er)?|length|detail(?:s|ed)?"
    r"|verbose|wordy|ramble|rambling|waffle|essays?|walls? of text|novels?|to the point|tl;?dr"
    r"|one[- ]liners?"
    r"|\d+(?:\s*-\s*\d+)?\s+(?:sentences?|words|lines|paragraphs|bullets?|points)"
    r"|(?:one|two|three|four|five|a few) (?:sentences?|lines|paragraphs|bullets?|points)"
    r"|sentences?|paragraphs?|bullets?|bullet points?|numbered|lists?|tables?|markdown|headings?"
    r"|headers?|bold|format(?:ted|ting)?|plain text|prose|include|mention|specify|label|note"
    r"|tone|casual(?:ly)?|formal(?:ly)?|formalit(?:y|ies)|informal|friendly|relaxed|warm|chatty|serious"
    r"|professional|polite(?:ly)?|blunt(?:ly)?|honest(?:ly)?"
    r"|direct(?:ly)?|sugar-?coat\w*|soften\w*|gentle|gently|sarcas\w*|jokes?|humou?r|slang"
    r"|jargon|simple|simply|plain(?:ly)?|technical|layman'?s?|emojis?|emoticons?|exclamation"
    r"|english|chinese|mandarin|cantonese|spanish|french|german|japanese|korean|italian"
    r"|portuguese|russian|arabic|hindi|language|code|snippets?|examples?|comments?|pseudocode"
    r"|units?|metric|imperial|celsius|fahrenheit|kilomet(?:er|re)s?|miles|km|kg|cm|grams|pounds|ounces"
    r"|cups|feet|inches|currency|prices?|bring(?:ing)? up|acronyms?|abbreviations?|apologi[sz]\w*"
    r"|sources?|citations?|links?|references?|summar(?:y|ies)|recap|disclaimers?|caveats?|warnings?"
    r"|pleasantries|small talk|preamble|intro(?:duction)?s?|conclusions?|step[- ]by[- ]step"
    r"|fluff|filler|padding|hedg(?:e|es|ing)|waffling"
    r"|answers?|repl(?:y|ies)|responses?|explanations?|explain|translations?"
    r"|(?:talk|speak|write|answer|reply|respond)(?: to me)? like|spelling|date format|dates in"
    r"|word (?:limit|count)|character (?:limit|count)"
    r"|dd/mm|mm/dd|yyyy|24[- ]hour|12[- ]hour|am/pm)\b"
    r"|\b(?:stop|quit|don'?t|do not|never|no more)\s+(?:\w+\s+)?call(?:ing)? me\b",
    re.I,
)
_STYLE_ZH = re.compile(
    r"简短|简洁|简单|精简|短一点|短点|长一点|详细|具体|啰嗦|啰嗦|废话|长篇大论|大段|字以内|\d+字|"
    r"[二两三四五六七八九十几\d]+(?:句话?|段|条|行|点(?:以内|之内|以下))|一(?:句话?|段|条|行)|段落|分点|要点|列表|列出|表格|格式|加粗|标题|"
    r"markdown|语气|口吻|正式|随意|口语|客气|官腔|套话|直接|直说|绕弯子|拐弯抹角|委婉|直白|婉转|幽默|玩笑|术语|通俗|"
    r"白话|比喻|类比|表情|emoji|中文|英文|英语|日语|韩语|法语|德语|繁体|简体|粤语|代码|示例|例子|举例|注释|"
    r"伪代码|单位|公制|英制|公里|英里|摄氏|华氏|公斤|厘米|价格|人均|价钱|预算|来源|出处|链接|引用|总结|结论|原因|步骤|"
    r"感叹号|标点|[12]?\d小时制|日期格式|拼写|"
    r"回答|回复|答案|解释|翻译|重点|拼音|公式|开场白|寒暄|客套|道歉|抱歉|"
    r"标上?|注明|备注|写上|加上|附上|带上|列出|说明|标注|注上|"
    r"(?:别|不要|不许|别再|不要再)(?:叫|喊|称呼)我|(?:叫|喊|称呼)我的?时候?|称呼|用您|"
    r"(?:别|不要|不许|少|不用)(?:跟我|和我|对我|再|老)?(?:提|说起|聊起)",
    re.I,
)

# a request that says it stands
_STANDING_EN = re.compile(
    r"\b(?:always|never|ever|from now on|going forward|from here on(?: out)?|in (?:the )?future"
    r"|every time|each time|whenever|by default|at all times|in (?:all )?(?:your|the) "
    r"(?:answers?|repl(?:y|ies)|responses?|explanations?)"
    # "when you compare things", "whenever you write SQL": an occasion of the assistant's doing,
    # whatever the verb — not one of the user's time ("when you have a minute")
    r"|when(?:ever)? you (?!(?:have|get|are|can|could|finish|see|think|know|find|feel|want|need"
    r"|like|re|ve|ll|d)\b)[a-z]+|with me|to me|anymore|any more|no more|stop"
    # an end asked of a habit: "enough with the disclaimers", "knock it off with the emojis"
    r"|(?:quit|enough|done) with|knock (?:it )?off|cut it out|lay off|ease up on)\b",
    re.I,
)
_STANDING_ZH = re.compile(
    r"以后|今后|往后|之后都|从现在起|从现在开始|从今以后|从今往后|(?:从)?今天起|接下来|每次|每回|一律|永远|总是|始终|"
    r"一直|凡是|任何时候|都|跟我说话|跟我聊天|和我说话|回答我|回复我|给我回答|给我回复|的时候|时候|"
    r"再也|不要再|别再|(?:别|不要|不许)(?:再)?(?:老|总|动不动)"
)

# a request of its own: imperative or polite
_REQUEST_EN = re.compile(
    r"^(?:(?:ok(?:ay)?|oh|so|and|also|btw|one more thing|just|pls|please|kindly|from now on"
    r"|actually|hmm+|well|honestly|anyway|"
    r"going forward|from here on(?: out)?|in (?:the )?future|always|never|for (?:every|each|all)"
    r" \w+)[,:]?\s+)*"
    # "never looking back", "always running late": a participle after it is no order
    # nor a modal, an auxiliary or a past ("never could stomach it", "always had a cat")
    r"(?:(?:don'?t|do not|(?:never|always)(?!\s+(?:\w+ing|\w+ed|could|can|would|will|did|does"
    r"|do|have|had|has|was|were|been|am|is|are)\b)|no(?=\s+(?!longer\b)\w)|stop|avoid"
    r"|quit|skip|drop|cut|scrap"
    r"|enough with|knock (?:it )?off|lay off|ease up on"
    r"|keep|use|be"
    r"|write|answer|reply|respond|give|show|put|add|include|leave|stick|format|list|explain|talk|speak"
    r"|mention|cite|label|mark|convert|round|quote|sign|end|begin|start|tell|let|make|default"
    r"|go|limit|lead|open|number|spell|lose|ditch|less|more|only|assume|switch|prefer"
    r"|forget(?= (?:about )?(?:the|all the|your|those|these)\b)|never ?mind(?= the\b)"
    r"|feel free|remember to|make sure|try to|please)\b"
    r"|i (?:want|need|'d like|would like|prefer|'d prefer|would prefer) (?:you|your|it|answers)"
    r"|(?:could|can|would|will) you (?:please )?(?:always|never|from now on|stop|keep|start"
    r"|make sure)\b"
    r"|you (?:don'?t|do not) (?:need|have) to \w+"
    # any verb but one of seeing or knowing ("you can see the code in my repo" says a fact)
    r"|you (?:should|must|need to|have to|can|could) (?!(?:see|tell|find|imagine|guess|look"
    r"|read|hear|know|understand|probably|also|still)\b)[a-z]+\b)",
    re.I,
)
# a noun phrase asked for: "Bullet points please", "Short answers only", "No emojis, ever"
_ASKED_EN = re.compile(
    r"\b(?:please|pls|only|ever|always|every time|thanks|from now on|going forward"
    r"|from here on|in (?:the )?future|by default|for me|with me)\b",
    re.I,
)
# the verbs of a dislike said by the user ("I hate", "I'm not a fan of")
_DISLIKE_VERB_EN = r"(?:hate|dislike|can'?t stand|don'?t like|(?:not|no) (?:a )?(?:big )?fan of)"
# the user's "I" asking something of the assistant: "I want you to …", "I want short answers
# from you"
_WANTS_OF_YOU_EN = re.compile(
    r"^i(?: want| need|'d like|’d like| would like|'d prefer|’d prefer| would prefer| expect)"
    r" (?:you\b|your\b|[^,;]{1,40}\bfrom you\b)"
    # "I'd rather you didn't bring up my divorce", "I'd appreciate it if you …"
    r"|^i(?:'d| would) (?:rather (?:you|not)|(?:appreciate|prefer|like) it if you)\b"
    # a wish of the answers themselves: "I want detailed answers", "I prefer short replies"
    r"|^i (?:want|need|prefer|like|'d like|would like|'d prefer|would prefer)"
    r" (?:[\w-]+[ ,]+){0,3}(?:answers|replies|responses|explanations)\b"
    # a dislike of a kind of answer, said to the one who answers: "I hate long answers", "I'm
    # not a fan of bullet points"
    rf"|^i(?:'m| am)? {_DISLIKE_VERB_EN}"
    r" (?:[\w-]+[ ,]+){0,3}(?:answers|replies|responses|explanations|bullet points|walls? of"
    r" text|markdown|emojis?|tables)\b"
    r"(?=\s*$|\s*[,.;!—-]|\s+(?:from you|in your|when|please|pls)\b)",
    re.I,
)
# a subject after its auxiliary: "Never again will I eat there", "never have I ever"
_INVERTED_EN = re.compile(r"\b(?:will|would|shall|do|did|can|could|have|had) (?:i|we)\b", re.I)
# a verb in the past after "never"/"always": a statement with its "I" left out ("Never went
# to UCLA", "always hated olives"), not an imperative
_PAST_EN = re.compile(
    r"^(?:never|always|just|also|only|ever)\s+(?:\w+ed|went|was|were|had|did|said|got|made|took"
    r"|came|saw|knew|thought|ate|drank|ran|wrote|spoke|left|felt|kept|told|gave|found|been)\b",
    re.I,
)
# what the user has not, said without "I": "no pets here", "no car, never had one"
_HAS_NONE_EN = re.compile(
    r"^\W*no \w+(?: \w+)? (?:here|at home|at the moment|right now|yet)\b"
    r"|\bnever (?:had|owned) (?:one|any|a|an)\b",
    re.I,
)
_OWN_SUBJECT_EN = re.compile(
    r"^(?:i|i'm|i've|i'll|i'd|my|we|we're|our|he|she|they|his|her|their|it's|this|that|there"
    r"|the \w+ (?:is|are|was|were))\b",
    re.I,
)
_REQUEST_ZH = re.compile(
    r"请|麻烦|记得|务必|千万|一定要|别|不要|不用|不需要|不必|无需|不许|不准|禁止|避免|尽量|控制在|限制在|"
    r"保持在|(?:就行|就好|即可|就可以)$|(?:一点|一些|(?<![\d一二两三四五六七八九十几半])点儿?)[吧啊哈呀]*$|"
    # a thing of the answers asked back the other way ("比喻还是少用吧", "注释还是改成中文吧")
    r"^(?:比喻|类比|表情|emoji|表格|列表|段落|翻译|总结|例子|示例|注释|繁体|简体) ?还是"
    r"(?:改成|改回|换回|改用|用|少|多|别|不要|不用|加)|"
    r"^(?:(?:以后|今后|往后|接下来|每次|每回|一律|都|你|我们|咱们|还有|另外|还是|那就|那|就|算了)[，,]?)*"
    # "直接给代码", not "直接工作" (what the user goes on to do): straight to something the
    # assistant does
    r"(?:用|加|给|把|先|直接(?=给|写|说|回答|回复|告诉|列|用|讲|发|贴|上|出|翻译|总结)|"
    # "只会几句", "只懂一点": what the user can do, no request
    r"保持|控制|限制|写|回答|回复|说|讲|标|注明|附上|列|带上?|附|改用|换成|多|少|只(?![会懂]))"
    # a part of an answer as the topic, then what to do with it: "代码里变量名用英文，注释用中文"
    r"|^(?:(?:代码|注释|示例|例子|回答|回复|答案|变量名?|函数名?|标题|单位|价格|日期|金额|温度|气温|距离"
    r"|路程|重量|体重|身高|长度|尺寸|高度|速度|时间|货币|数字|面积|容量|体积)[里中的]?)"
    r"{1,2}(?:都|也|一律|统一|全部?)?(?:用|写成?|加上?|标上?|带上?|附上?|要|保持|尽量)"
)
# a subjectless clause of a sentence said to stand ("以后…，价格都标一下人均") is a request too
_STANDING_LEAD_ZH = re.compile(
    r"(?:^|[，,]\s*)(?:那|那就|还有|另外|对了)?[，,]?"
    r"(?:以后|今后|往后|从现在起|从现在开始|从今以后|从今往后|(?:从)?今天起|接下来|每次|每回|一律)"
)
_OWN_SUBJECT_ZH = re.compile(
    r"^(?:我(?!希望你|要你|需要你|想让你|想要你|请你|们)"
    r"|我们(?!(?:以后|今后|往后|接下来|从现在起|从现在开始)(?:都|就|还是)?用)|他|她|它|他们|她们|大家|别人|这[个些是]|那[个些是]|"
    # a subject before its habit ("他老是…"), not a request of one ("别老是道歉")
    r"(?!别|不要|请|千万)[\u4e00-\u9fff]{1,3}(?:觉得|认为|总是|老是|喜欢|讨厌))"
)

# a one-off task: a concrete object of its own, or a task verb
_CONCRETE_EN = re.compile(
    r"\b(?:this(?!\s+(?:year|month|week|weekend|morning|afternoon|evening|time|summer|winter"
    r"|spring|fall|autumn|semester|term|season|quarter)\b)|these(?! days)|those|that one"
    r"|the following|following|above|below|attached|here's|here is)\b",
    re.I,
)
# a thing named with "the": one of its own in a one-off request ("proofread the email"), the
# kind of thing in a rule said to stand ("always give me the code first, then explain")
_DEFINITE_EN = re.compile(
    r"\bthe (?:article|text|email|paragraph|essay|document|doc|code|file|message|link"
    r"|sentence|story|summary|list|draft|poem|letter|report)\b(?! you)",
    re.I,
)
# an order of an answer's parts ("Lead with the code, explanation after"): "the code" is the
# part of every answer that comes first, not a text of its own
_ORDERS_EN = re.compile(
    r"\b(?:lead|start|begin|open|end|finish) with the\b"
    r"|\bat the (?:top|start|beginning|end|bottom)\b",
    re.I,
)

# a request about the answer just given, not about answers to come: "Make it shorter", "can
# u make that a table", "try again in Spanish", "这次简短点", "再详细一点", "用英文再说一遍"
_REFINES_EN = re.compile(
    r"\b(?:this time|for now|once more|one more time|try again|again in|redo|re-?do it"
    r"|(?:for |on |to )?this (?:one|question)"
    r"|(?:make|turn|put|rewrite|change|convert|format|shorten|expand|simplify)\s+(?:it|that"
    r"|them|those)\b)"
    # a comparative alone, with no answers named: "shorter pls", "a bit more detail"
    r"|^(?:(?:a bit|a little|much|way|even)\s+)?(?:more \w+|less \w+|(?:short|long|brief|simpl"
    r"|clear|eas|quick|tight|plain|friendli|funni|nic|gentl|deep|broad|bigg|small)er)"
    r"(?:\s+(?:please|pls|plz|thanks))?$",
    re.I,
)
_REFINES_ZH = re.compile(
    r"这次|这回|这一次|这一回|重新|重来|(?:再|重)(?:说|讲|写|来|解释|翻译|发|给我?)(?:一|1)?[遍次下]"
    r"|这个问题|这道题|这一?题"
    r"|(?:^|[，,])(?:那|那就|你)?再[^，,]{1,4}(?:一点|点儿?|些)[吧啊哈呀]*$"
    # a degree asked and nothing else ("口语一点", "语气 softer 一点"): of the answer at hand, as
    # "shorter pls" is; "回答简短一点" names the answers to come
    r"|^(?!.*(?:回答|回复|答案|说话|聊天|讲话|解释|时候|时|跟我|对我|和我))[^，,]{1,10}?\s*(?:一点|一些|点儿)"
    r"[吧啊哈呀]*$"
)


def _refines_said(core: str) -> bool:
    """A word of the answer at hand in either language: a Chinese sentence may say it in
    English ("this time 不用给 sources") and the other way round."""
    return bool(_REFINES_ZH.search(core) or _REFINES_EN.search(core))


# the text at hand reshaped, said alone ("换成列表形式", "改成markdown格式", "写成一段话"): into
# what, with no answers named and nothing that says it stands — the answer just given
_RESHAPES_ZH = re.compile(
    r"^(?:那|那就|就|你|请|麻烦|直接|帮我|给我)*(?:换成|改成|转成|变成|弄成|整理成|做成|写成|翻成|译成|转换成)"
    r"(?!.*(?:回答|回复|答案|跟我|和我|对我|说话|聊天))(?!.*了[吧啊呀哈]*$)"  # "换成拿铁了": done
)
_TASK_EN = re.compile(
    r"\b(?:translate|summari[sz]e|explain|describe|draft|compose|check|fix|debug|review|proofread|rewrite"
    r"|rephrase|edit|look up|search|find|book|calculate|compute|compare|plan|help me|write me"
    r"|write (?:a|an|me|some|the)|make me|create|generate|give me (?:a|an|some|one|two|three"
    r"|\d+|ideas|examples of|a list)|tell me (?:a|about|what|how|why)|recommend (?:a|an|some|me)"
    r"|suggest (?:a|an|some)|name (?:a|some|three)|come up with|brainstorm)\b",
    re.I,
)
_CONCRETE_ZH = re.compile(
    r"这句|这段|这篇|这封|这份|这首|这个(?![月周星礼学季])|这些|这张|这几(?![天年个月周])|这道|这里|那句|"
    r"那段|那篇|那个(?![月周星礼学季])|下面|以下|"
    r"上面|上述|刚才|刚刚|如下"
)
_TASK_ZH = re.compile(
    r"帮我|替我|给我(?:写|做|翻|找|查|算|订|列|出|讲个|来)|写一|翻译一下|总结一下|检查一下|查一下|"
    r"算一下|改一下|看一下|看看|推荐[一几]|找[一几]|讲一?个|来一?[首个段篇]|一下"
)

# a request to write a text or do an errand for the user ("write me an email to my landlord…",
# "translate this into Spanish: …", "send a reminder to the team that…", "帮我写一封邮件给房东，
# 说…", "帮我翻译一下：…"): the words that follow are the text's, not the user's statements
_COMPOSE_EN = re.compile(
    r"^(?:(?:can|could|would|will)\s+(?:you\s+)?|please\s+|pls\s+|help me\s+)*"
    r"(?:write|draft|compose|translate|reply|respond|rewrite|rephrase|proofread|polish|send"
    r"|forward|email|book|order|schedule|cancel|look up|search|find|check)\b",
    re.I,
)
_COMPOSE_ZH = re.compile(  # asked of the assistant: "下午写代码" is the user's doing
    r"^(?:帮我|替我|给我|请你?帮?我?|麻烦你?帮?我?|我(?:想|要)(?:你|请你)?帮我)[^，,：:]{0,8}?"
    r"(?:写|翻译|回复|回一?[封条]|起草|拟一?[份封个]|改写|润色|译成|订|发一?[条封个]|预约|取消"
    r"|查|搜|找)"
)
# the user's own particulars given for such a text ("落款写我的名字王磊", "sign it with my name")
_OWN_PARTICULARS_ZH = r"|我的(?:名字|姓名|电话|手机|邮箱)"
_OWN_PARTICULARS_EN = r"|\bmy (?:name|number|phone|email)\b"
# what the text is to say, after the request: "…，说下个月的房租晚几天交", "saying the sink leaks"
_SAYS = re.compile(
    r"^(?:就说|说|跟他说|告诉他|告诉她|内容是)|^(?:saying|asking|telling|to say)\b", re.I
)


def composes(text: str) -> bool:
    """True if ``text`` (one clause) asks the assistant to write, translate or answer a text,
    or to do an errand, for the user ("Write me an email to my landlord…", "Send a reminder to
    the team that…", "帮我写一个 cover letter"); what follows in its sentence is its material."""
    core = _core(text)
    if _zh(core):
        return bool(_COMPOSE_ZH.match(core)) and not _standing(core)
    return bool(_COMPOSE_EN.match(_LEAD_EN.sub("", core))) and not _standing(core)


def material_start(text: str) -> int | None:
    """Where the material of a one-off task begins in a turn: after the colon of "translate
    this into Spanish: I live near the river…", "Reply to this for me: 'Hi Tom, I'll be
    there…'", "帮我翻译一下：我住在北京" — when the words before the colon, since the last
    sentence end, ask for a task rather than state something ("My favourites: sushi" does not).
    ``None`` when the turn has no such colon."""
    for m in re.finditer(r"[:：]", text):
        head = re.split(r"(?<=[.!?。！？\n])\s*", text[: m.start()])[-1].strip()
        if not head or not text[m.end() :].strip():
            continue
        zh = _zh(head)
        lead = _LEAD_ZH.sub("", _core(head)) if zh else _LEAD_EN.sub("", _core(head))
        task = _TASK_ZH if zh else _TASK_EN
        if composes(head) or (
            (task.match(lead) or bool(re.match(r"^reply\b", lead, re.I))) and not _standing(head)
        ):
            return m.end()
    return None


# a span in quotation marks: "…", “…”, 「…」, 『…』, and '…' when it opens after a space
_QUOTED = re.compile(
    r'"[^"\n]{3,}"|“[^”\n]{3,}”|「[^」\n]{2,}」|『[^』\n]{2,}』|(?<![\w])\'[^\'\n]{3,}\'(?!\w)'
)
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|my|me|we|our)\b|我", re.I)
# asking how something is said or is right: "How do you say 'I'm a nurse' in German?",
# "Is 'I has a dog' correct?", "这句话英文怎么说"
_ABOUT_WORDING = re.compile(
    r"\bhow (?:do|would|can) (?:you|i|one) (?:say|write|spell|pronounce)\b|\b(?:correct|fix)\b"
    r"|\bgrammar\b|怎么说|怎么写|什么意思|对不对|改一?下|纠正|语法|翻译",
    re.I,
)


def without_quoted_material(text: str) -> str:
    """``text`` with the quoted spans of its task sentences replaced by "this" ("这段话"): in
    'Translate "I live in Paris" into Spanish', 'Correct my grammar: "I has a dog named Bo."',
    '帮我把「我在腾讯工作」翻成英文' the quoted words are the text to work on, not the user's
    statements. A quote's sentence (from the end of the sentence before the quote to the end
    of the one it closes in) is a task when, its quotes left out, it asks for one
    (``composes``, the task verbs of ``material_start``, or a question about wording). Other
    quotes stay ("My motto is 'never give up'")."""
    # only a statement of the user's in quotes is material ("I live in Paris", "我在腾讯工作");
    # a name in quotes is the user's ('our dog is named "Bruno"', 'my daughter\'s name is
    # "Lily" — how do you say that in Chinese?')
    spans = [m for m in _QUOTED.finditer(text) if _FIRST_PERSON.search(m.group(0))]
    if not spans:
        return text
    ends = [m.end() for m in re.finditer(r"[.!?。！？\n]+", text)]
    out, at = [], 0
    for span in spans:
        if span.start() < at:
            continue
        begin = max([e for e in ends if e <= span.start()], default=0)
        stop = min([e for e in ends if e > span.end()], default=len(text))
        bare = _QUOTED.sub(" … ", text[begin:stop])
        zh = _zh(bare)
        lead = _LEAD_ZH.sub("", _core(bare)) if zh else _LEAD_EN.sub("", _core(bare))
        if (
            composes(bare)
            or (_TASK_ZH if zh else _TASK_EN).search(lead)
            or _ABOUT_WORDING.search(bare)
        ):
            # a word that points at a text, as the request would say without the quote
            out.append(text[at : span.start()] + ("这段话" if zh else "this"))
            at = span.end()
    return "".join(out) + text[at:]


# a short name in Chinese quotation marks: "我家橘猫叫“大黄”"
_QUOTED_NAME = re.compile(r"[“「『](?P<n>[\u4e00-\u9fffA-Za-z0-9·]{1,8})[”」』]")


def unquoted_names(text: str) -> str:
    """``text`` with the quotation marks around short names taken off ("我家橘猫叫“大黄”" →
    "我家橘猫叫大黄"): the name is read as if said plainly."""
    return _QUOTED_NAME.sub(lambda m: m["n"], text)


# the occasion a rule holds for: "以后给我推荐餐厅的时候", "when you recommend restaurants"
_OCCASION_ZH = re.compile(r"^(?P<lead>.*?)(?P<what>[^，,]*?)(?:的时候|时候|时)$")
_OCCASION_EN = re.compile(r"^(?:when(?:ever)?|each time|every time)\s+you\s+\S.*$", re.I)

_LEAD_EN = re.compile(
    r"^(?:(?:ok(?:ay)?|oh|so|and|but|also|btw|one more thing|pls|please|kindly|from now on"
    r"|actually|hmm+|well|honestly|anyway"
    r"|going forward|from here on(?: out)?|in (?:the )?future|(?:would|do) you mind|could you"
    r"|can you|would you|will you"
    r"|i(?: want| need|'d like|’d like| would like) you to)[,:]?\s+)+",
    re.I,
)
_TAIL_EN = re.compile(
    r"[\s,.!~]*(?:\b(?:please|pls|thanks|thank you|ok|okay|from now on|going forward|every time"
    r"|always|ever|in (?:the )?future)\b[\s,.!?~]*)*$",
    re.I,
)
_LEAD_ZH = re.compile(
    r"^(?:算了|还有|另外|然后|对了|哦对|所以|但是|不过|那就|那|可以|能不能|能否|可不可以|以后|今后|往后|从现在起|从现在开始|从今以后|从今往后|(?:从)?今天起|接下来|请你?|麻烦你?|"
    r"记得|你)+[，,]?"
)
# a time from which on something holds, before its clause ("从今天开始", "今天起", "从下周起")
_FROM_NOW_ZH = re.compile(rf"^从?(?:{semantic.FROM_DAY_ZH})(?:开始|起)[，,\s]*")
# the user's own eating, drinking or quitting ("改喝茶", "戒酒了", "开始吃素"): no request
_OWN_DOING_ZH = re.compile(r"^(?:都|就|也)?(?:改|开始|不再|只|要)?(?:喝|吃|戒|抽)")
_TAIL_ZH = re.compile(r"[了啊呀呢吧哦啦哈嘛喔咯吗么~～\s。！!，,？?]+$")


@dataclass(frozen=True, slots=True)
class Rule:
    """A standing rule found in a sentence: ``value`` the rule in the user's words (occasion
    shortened, lead-ins such as "please" / "以后" dropped; English lower-cased), ``text`` the
    same in the user's casing, ``clauses`` the indices of the
    sentence's clauses it was read from."""

    value: str
    text: str  # the rule as said (the value before English is lower-cased)
    clauses: tuple[int, ...]


def _zh(text: str) -> bool:
    return bool(_HAN.search(text))


# a lead that only marks what follows as worth keeping: "Remember: no spoilers …", "FYI, …"
_NOTE_LEAD = re.compile(
    r"^(?:remember|note|n\.?b\.?|fyi|reminder|ps|p\.s\.|important|heads up|just so you know"
    r"|记住|记好了|提醒一下|提醒你一下|注意)\s*[:：,，-]\s*(?=\S)"
    # "keep in mind I keep kosher when you suggest recipes": a fact of the user's to heed
    r"|^(?:please |pls )?(?:(?:keep|bear) in mind|remember|note)(?: that)?\s+"
    r"(?=(?:i|i'm|im|i've|my|we|we're)\b)",
    re.I,
)


def _core(text: str) -> str:
    core = text.strip().strip(" \t\"'“”‘’「」").rstrip("。.!！~～…").strip()
    return _NOTE_LEAD.sub("", core)


# an occasion opening a clause ("解释的时候都写全称吧"): the request is what follows it
_OCCASION_HEAD_ZH = re.compile(
    r"^[^，,]{1,16}?(?:的时候|时候)|^(?:跟|和|对)我(?:说话|聊天|讲话)|^(?:回答|回复)我"
)

# what a request is made of besides what it asks for: leads and courtesies, negation, a verb
# that needs an object to say anything ("use", "call", "用", "叫"), words that point back at
# what was just said or done, pronouns, particles and adverbs of repetition
_FURNITURE_EN = re.compile(
    r"\b(?:ugh|oh|eh|hey|ok(?:ay)?|so|and|but|then|also|just|please|pls|kindly|really|ever"
    r"|from now on|going forward|in (?:the )?future|don'?t|do not|never|stop|quit|no more"
    r"|not|avoid|i'?d rather you didn'?t|use|using|call(?:ing)?|say(?:ing)?|do(?:ing)?|write"
    r"|writing|go(?:ing)? by|mention(?:ing)?|bring(?:ing)? up|it|that|this|those|these|them"
    r"|one|me|to me|with me|like that|that way|again|anymore|any more|either|thing)\b",
    re.I,
)
_FURNITURE_ZH = re.compile(
    r"以后|今后|往后|从现在起|从现在开始|还是|算了|请你?|麻烦你?|别再?|不要再?|不用|不许|不准|不想|少|"
    r"这么|这样|那么|那样|这个|那个|这些|那些|它们?|我|你|再|又|老是?|总是?|都|也|就|"
    r"用|叫|喊|称呼|说|提|干|做|弄|搞|写|发|了|吧|啊|呀|哦|啦|嘛|呢"
)
_BACK_EN = re.compile(r"\b(?:it|that|this|those|these|them|again|like that|that way)\b", re.I)


def points_back(text: str) -> bool:
    """True if a request asks for nothing it names: past its courtesies, its negation and a
    verb that needs an object, all it has are words pointing back at what was just said or
    done ("don't use it", "never do that again", "don't call me that", "别用了", "别这么叫我了",
    "以后别这样了"). Such a request is about that thing, not a rule of its own; "keep it short",
    "别啰嗦了", "别用 emoji" name what they ask."""
    core = _core(text).strip(" ,.!?，。！？")
    if not core:
        return False
    if _zh(core):
        rest = _FURNITURE_ZH.sub("", core)
        return not re.sub(r"[\s，,。.!！?？~～]", "", rest)
    if not re.search(r"\b(?:don'?t|do not|never|stop|quit|no more|not)\b", core, re.I) and not (
        _BACK_EN.search(core)
    ):
        return False
    return not re.sub(r"[\W_]", "", _FURNITURE_EN.sub(" ", core))


_BUDGET = re.compile(r"预算|\bbudget\b", re.I)
# what the user can do: a verb of ability with a verb of language or a degree ("日语也会说一点点",
# "法语只会一点点", "粤语说得还行")
_ABLE_ZH = re.compile(
    r"(?:^|[我也还都])(?:只)?(?:会|能)(?:说|讲|听|写|看)(?!一下)"
    r"|(?:^|[\u4e00-\u9fff])(?:只|也|还|都)?(?:会|懂)(?:一点|一些|点|一丢丢|几句)"
    r"|(?:说|讲)得(?:还|很|挺|不太|一般|特别|非常)?(?:行|可以|不错|流利|好|溜|一般)"
)


# a feeling or a thought said, and the words that ask something of the assistant beside one
_FEELS_ZH = re.compile(r"觉得|感觉|心里|认为|担心|害怕|没底|踏实")
_ASKED_OF_YOU_ZH = re.compile(r"请|麻烦|别|不要|以后|今后|每次|你|时候|的话|就|直接")


# what the user will use from now on, with the 了 of a new situation ("以后就用 macOS 了")
_OWN_CHANGE_ZH = re.compile(r"^(?:就|都|也)?(?:用|改用|换成|换)\s*[^，,]{1,15}?了[吧啊呀哈]*$")


def _uses_from_now_on(core: str) -> bool:
    """A Chinese clause that says what the user uses from now on, with the 了 of a new situation
    ("以后就用 macOS 了"), and nothing of the answers."""
    return bool(_OWN_CHANGE_ZH.match(_LEAD_ZH.sub("", core))) and not _style(core)


def own_change(text: str, rule: str) -> bool:
    """True if the clause of ``text`` that holds ``rule`` says what the user uses from now on
    (``_uses_from_now_on``)."""
    return any(
        rule in clause and _uses_from_now_on(clause.strip())
        for clause in re.split(r"[，,。！!；;]", text)
    )


# the user's own language named as such ("main language for me is Russian", "my first
# language is Dutch", "母语是粤语")
_OWN_LANGUAGE = re.compile(
    r"^\W*(?:my\s+)?(?:main|first|native|primary|mother|home)\s+(?:language|tongue)"
    r"(?:\s+for\s+me)?\s*(?:is|'s|=|:)|^\W*我的?(?:母语|第一语言)是",
    re.I,
)


def _is_request(text: str, whole: str = "") -> bool:
    """An imperative or a polite request, not a statement with a subject of its own;
    ``whole`` is the sentence the clause is part of."""
    core = _core(text)
    if semantic.is_about_others(core) or semantic.family_subject(core) is not None:
        return False
    if _BUDGET.search(core):
        return False  # "装修预算控制在15万以内": a limit on the project's money, not on answers
    if _OWN_LANGUAGE.search(core):
        return False  # "main language for me is Russian": the user's language, not the answers'
    if _permits(_LEAD_ZH.sub("", core) if _zh(core) else _LEAD_EN.sub("", core)):
        return True  # "emoji可以用了", "longer answers are fine now"
    if _complaint(core):
        return True  # "你回答总是太长了": asks for the other way from now on
    if _ABLE_ZH.search(core):
        return False  # "日语也会说一点点": what the user can do, not what the assistant must
    if _zh(core):
        bare = _LEAD_ZH.sub("", _FROM_NOW_ZH.sub("", core))
        if _OWN_SUBJECT_ZH.match(core) or _OWN_SUBJECT_ZH.match(bare):
            return False  # "从今天起我吃素": the user's own from now on
        if _OWN_DOING_ZH.match(bare):
            return False  # "今天起改喝茶了", "以后戒酒了": what the user eats, drinks or quits
        if _FEELS_ZH.search(core) and not _ASKED_OF_YOU_ZH.search(core):
            return False  # "写 plain JS 总觉得心里没底": how the user feels about it
        if _uses_from_now_on(core):
            return False  # "以后就用 macOS 了": what the user uses from now on
        return bool(
            _REQUEST_ZH.search(core)
            or _topic_first(_LEAD_ZH.sub("", core))  # "表格还是算了吧"
            or _REQUEST_ZH.search(_OCCASION_HEAD_ZH.sub("", core))
            or _STANDING_LEAD_ZH.search(whole)
            or re.search(r"\b(?:please|pls)\b", core, re.I)  # "回答我的时候 please use …"
        )
    if _WANTS_OF_YOU_EN.match(core):
        return True
    if _OWN_SUBJECT_EN.match(core) or _INVERTED_EN.search(core) or _PAST_EN.match(core):
        return False
    if _HAS_NONE_EN.search(core) or _HAS_NONE_EN.search(whole):
        return False  # "no pets here, never had one": what the user has not, not an order
    if _REQUEST_EN.match(core):
        return True
    # "Bullet points please, always", "Short answers only": a noun phrase asked for
    return bool(_ASKED_EN.search(core)) and bool(_STYLE_EN.search(core))


def is_request(text: str) -> bool:
    """True if ``text`` (one clause, or a rule as stored) is worded as a request to the
    assistant: an imperative, a polite request or a question asking for something standing
    — not a statement ("24hr shifts so sometimes I'll be slow to reply", "每次买东西搬上去累死")."""
    core = _core(text)
    return _is_request(core) or (_asks(core) and _asks_for_standing(core))


def _is_occasion(text: str) -> bool:
    """A clause that only sets when a rule holds ("以后给我推荐餐厅的时候", "when you write
    code")."""
    core = _core(text)
    if _zh(core):
        return bool(re.search(r"(?:的时候|时候|时)$", core)) and len(core) <= 20
    return bool(_OCCASION_EN.match(core))


def _one_off(text: str, standing: bool) -> bool:
    """A task with a concrete object of its own, or a task verb not said to stand."""
    core = _core(text)
    zh = _zh(core)
    if re.search(r"[:：]\s*\S", core):
        return True  # "帮我把这句翻译成英文：…": the text to work on follows
    # a word quoted, then pointed at ("别出现'亲'这个字"): the quote, not a text of its own
    quoted = re.sub(
        r"['\"‘“「][^'\"’”」]{1,12}['\"’”」]\s*(?:这|那)[个种](?:字|词|说法|话|称呼)?", "", core
    )
    if (_CONCRETE_ZH if zh else _CONCRETE_EN).search(quoted):
        return True
    if standing:
        return False
    if _refines_said(core) or (
        not zh and _DEFINITE_EN.search(core) and not _ORDERS_EN.search(core)
    ):
        return True
    if not zh and not _ORDERS_EN.search(core):  # "Make the title shorter": a thing of its own
        # the noun phrase after "the", up to a comparative that says what to do with it
        things = re.findall(r"\bthe\s+(\w+(?:\s+(?!\w+er\b)\w+)?)", core, re.I)
        if any(not _STYLE_EN.search(t) for t in things):
            return True
    return bool((_TASK_ZH if zh else _TASK_EN).search(core))


def is_one_off(text: str) -> bool:
    """True if ``text`` asks for a one-off task rather than a standing rule ("translate this
    into French: …", "帮我写一封请假邮件"): a concrete object of its own, or a task verb with
    no word that says it stands."""
    return _one_off(text, _standing(text))


def _standing(text: str) -> bool:
    return bool((_STANDING_ZH if _zh(text) else _STANDING_EN).search(text))


# a request said to stand, or said for an occasion of the assistant's doing, is a rule about
# anything it names ("whenever you write SQL, use uppercase keywords", "Don't ever recommend
# Starbucks to me", "以后别再问我要不要继续了", "给我讲东西的时候别太学术")
_STANDS_EN = re.compile(
    r"\b(?:always|never(?! mind)|ever|from now on|going forward|from here on|in (?:the )?future"
    r"|every time|each time|whenever|by default|at all times|when (?:you|we)|unless i ask"
    # stopping something the assistant does in its answers ("Stop saying 'great question'"), not
    # a courtesy ("stop worrying")
    r"|(?:stop|quit) (?:saying|using|adding|calling|putting|writing|giving|asking|apologi[sz]ing"
    r"|mentioning|recommending|suggesting|telling|repeating|including|starting|ending|bringing"
    r"|ending|opening|explaining|correcting|reminding)"
    r"|(?:stop|quit|enough|done) with|knock (?:it )?off|cut it out|lay off|ease up on)\b",
    re.I,
)
_STANDS_ZH = re.compile(
    r"以后(?!再)|今后|往后|从现在起|从现在开始|从今以后|从今往后|(?:从)?今天起|接下来|每次|每回|一律|永远|始终|任何时候|"
    r"(?:你|给我|跟我|和我|帮我|替我)[^，,]{0,12}(?:的时候|时候)"
    # a habit asked to end: "别老给我列清单", "不要老是道歉"
    r"|(?:别|不要|不许)(?:再)?(?:老是?|总是?|动不动就?)"
)
# a request to keep a fact of the user's in mind is the fact, not a rule ("always remember my
# birthday is …", "以后记得我不吃辣"), and so is a name to call the user by or an address to use
# ("你以后叫我阿斌就好", "以后用我私人邮箱 …": ``name.nickname``, ``contact.email``)
_KEEPS_FACT = re.compile(
    r"\bremember (?:that )?(?:my|i)\b|\bmy \w+ (?:is|are)\b|记得我(?!的时候)"
    r"|(?<!别)(?<!不要)(?<!不许)(?:叫|喊|称呼)我(?!的时候|时)"
    r"|(?<!don't )(?<!never )(?<!not )\bcall me\b(?! that)"
    r"|我的?(?:私人|工作|新的?)?(?:邮箱|电话|手机|号码|地址)"
    r"|\bmy (?:\w+ )?(?:email|phone|number|address)\b"
    r"|\S+@\S+\.\w+",
    re.I,
)


_LEAD_ONLY = re.compile(
    r"^(?:\W|ok(?:ay)?|so|and|also|one more thing|from now on|going forward|in (?:the )?future"
    r"|以后|今后|往后|从现在起|从现在开始|从今以后|从今往后|(?:从)?今天起|接下来|还有|另外|对了)+$",
    re.I,
)


def _stands(text: str) -> bool:
    """``text`` (a request with its occasion) says it stands, and asks for something besides
    ("Never." alone asks for nothing)."""
    words = _STANDS_ZH if _zh(text) else _STANDS_EN
    # a habit only pointed at ("你别老这样") asks for nothing named
    rest = re.sub(r"[这那](?:样|么做|么干|个)", " ", words.sub(" ", _clean(text)))
    return bool(words.search(text)) and len(re.findall(r"[A-Za-z]{2,}|[\u4e00-\u9fff]", rest)) >= 2


def _style(text: str) -> bool:
    # mixed Chinese and English ("examples 用 JS 就行"): the words of either language; a
    # name of several capitalised words is no style word ("换成 VS Code")
    latin = re.sub(r"(?<=\S\s)\b[A-Z][\w.+-]*(?:\s+[A-Z][\w.+-]*)+", " ", text)
    latin = re.sub(r"\S+@\S+|\bhttps?://\S+|\b[\w-]+\.(?:com|org|net|io)\b", " ", latin)
    return bool(_STYLE_EN.search(latin) or (_zh(text) and _STYLE_ZH.search(text)))


_ASKS_ZH = re.compile(
    r"[吗嘛么呢？?]$|什么|怎么|为什么|为啥|哪|谁|是不是|能不能|可不可以|要不要|有没有|会不会"
)


def _asks(core: str) -> bool:
    """A question (narrower than ``filter.is_question`` in Chinese, where "几个" counts
    things in a request: "多举几个例子")."""
    if not _zh(core):
        return is_question(core)
    m = _ASKS_ZH.search(core)
    if m is None or m.group(0) in "吗嘛么呢？?":
        return m is not None
    # a question that is the object of a verb ("别再问我要不要继续", "不管是不是…") asks nothing
    return not re.search(r"问|知道|告诉|决定|确认|不管|无论|不论", core[: m.start()])


def _asks_for_standing(text: str) -> bool:
    """A question that asks for something standing ("could you always …", "以后能不能都…")."""
    core = _core(text)
    if _zh(core):  # "你回答能不能别这么长", "能不能不要每句话都加感叹号"
        if _WONDERS_ZH.search(core) and not _ASKS_OF_YOU_ZH.search(core):
            return False  # "会不会影响以后找工作": wonders what will be, asks nothing of you
        return bool(_ASKS_STANDING_ZH.search(core))
    core = re.sub(r"^(?:but|and|so|ok(?:ay)?|also|actually)[\s,]+", "", core, flags=re.I)
    if _ASKS_STANDING_EN.match(core):
        return True
    # "Would you mind keeping your answers brief in future?"
    return bool(
        re.match(r"^(?:could|can|would|will) you\b", core, re.I) and _STANDS_EN.search(core)
    )


# a question of what is or will be, and one that asks the assistant to do something
_WONDERS_ZH = re.compile(
    r"会不会|是不是|有没有|什么|怎么|为什么|为啥|哪|谁|(?:你|您)(?:觉得|认为|说|看)|真的"
)
_ASKS_OF_YOU_ZH = re.compile(
    r"能不能|可不可以|能否|可以|好吗|行吗|好不好|行不行"
    r"|(?:你|您)(?:能|会|要|就)?(?:帮|给|用|回答|回复|写|别|不要|少)"
)
_ASKS_STANDING_ZH = re.compile(
    r"以后|今后|每次|一律|从现在|(?:能不能|可不可以|能否|可以|能)(?:别|不要|不用|少)"
)
_ASKS_STANDING_EN = re.compile(
    r"^(?:could|can|would|will) you (?:please )?(?:always|never|from now on|stop|start|keep"
    r"|make sure)\b",
    re.I,
)


# a part of the answers named first, then that it is not wanted, or wanted less or more
# ("翻译就别加了", "例子少举点吧", "比喻还是少用", "英文翻译还是不要了", "表格还是算了吧"): the
# topic-comment order of a Chinese request about one thing of the answers
_TOPIC_FIRST_ZH = re.compile(
    r"^(?P<x>[^，,。！!？?我你]{1,10}?)\s*(?:就|还是|也|都|那个|这个)?\s*"
    r"(?P<ask>别再?|不用再?|不要再?|不需要|不必|少|多|算了?|免了?)"
    r"(?P<v>加|用|举|写|放|给|带|标|附|列|说|发|打|来|搞)?(?:点儿?|一点|些)?"
    r"[了吧啊呀哈啦嘛\s。！!~～]*$"
)
# a request that only calls off what it names: "X不要了", "X算了", "X别加了", "forget the X",
# "never mind the X", "skip the X", "scrap the X" ("no need for X", "enough with X", "stop with
# X" ask for answers without it: rules of their own)
_CANCELS_ZH = re.compile(r"(?:不要|不用|不需要|不必|别)[\u4e00-\u9fff]?了|算了|免了")
_CANCELS_EN = re.compile(
    r"^\W*(?:\w+\W+)?(?:(?:you )?(?:can|could|may) )?"
    r"(?:(?:forget|never ?mind|skip|drop|ditch|lose|scrap)(?: about)?"
    # leave to the assistant, not forbid: "you can stop with the emojis now", "no need for the
    # translations anymore" (but "stop giving me code examples" asks for none from now on)
    r"|(?<=can )(?:stop|quit)(?: with| using| adding| including| doing| giving me)?"
    r"|no (?:more )?need (?:for|of)|(?:i )?(?:don'?t|do not|no longer) need)"
    r" (?:the|all the|your|those|these|any)\b"
    r"|^\W*(?:the|those|these|your) [\w -]{1,24}? (?:is|are)(?: not|n't) (?:needed|necessary)",
    re.I,
)


# "不用再用英文回我了", "以后不需要再加总结了": a way of answering asked before, not needed now
# ("别再…了", "不要再…了" forbid it: rules of their own)
_NO_NEED_AGAIN_ZH = re.compile(
    r"^(?:以后|现在|今后)?(?:就|也|都)?(?:不用|不需要|不必)再[^，,]{1,16}了"
)


def _topic_first(core: str) -> re.Match[str] | None:
    """The topic-comment order of a request about one thing of the answers (``_TOPIC_FIRST_ZH``)
    when that thing is a part of an answer (``_STYLE_ZH``), else None."""
    m = _TOPIC_FIRST_ZH.match(core)
    if m is None or not _STYLE_ZH.search(m["x"]):
        return None
    # "例子少举点", "比喻少用"; not "平时讲粤语多" (how often the user speaks it)
    return None if m["ask"] in ("多", "少") and not m["v"] else m


# what says a request is for the answers to come, not only that an earlier one is off
_GOING_FORWARD = re.compile(
    r"\b(?:from now on|going forward|from here on(?: out)?|in (?:the )?future|always|never"
    r"|every time|by default)\b|以后|今后|往后|从现在(?:起|开始)|每次|一律",
    re.I,
)


def verb_first(rule: str) -> str:
    """A Chinese rule said topic first, in the order of a request: "翻译就别加" → "别加翻译",
    "例子少举点" → "少举例子", "表格算了" → "不要表格"; any other rule as it is."""
    m = _topic_first(rule)
    if m is None:
        return rule
    ask = "不要" if m["ask"][0] in "算免" else m["ask"]
    return f"{ask}{m['v'] or ''}{m['x'].strip()}"


# what says a clause after a rule called off wants something in its place ("You can drop the
# bullet points, normal paragraphs are better")
_INSTEAD = re.compile(r"\b(?:better|instead|fine|prefer|rather)\b|更好|就行|就好|就可以|即可", re.I)


def cancels(clauses: list[str], sentence: list[str]) -> bool:
    """True if a rule read from ``clauses`` of ``sentence`` only calls off what it names ("英文
    翻译还是不要了", "表格还是算了吧", "scrap the British spelling"): after a rule it ends,
    nothing of its own is asked (``values._replaced_rules``). Not when the clauses after the
    first ask for something in its place ("drop the bullet points, plain paragraphs are fine"),
    nor when the sentence says it stands ("going forward, skip the pleasantries")."""
    first, *rest = clauses
    if not rest and _NO_NEED_AGAIN_ZH.match(_core(first)):
        return True  # "以后不用再用英文回我了": what was asked is not needed now
    if _GOING_FORWARD.search(" ".join(sentence)) or any(
        is_request(r) or _INSTEAD.search(r) for r in rest
    ):
        return False
    core = _core(first)
    if _zh(core):
        m = _topic_first(_LEAD_ZH.sub("", core))
        return m is not None and bool(_CANCELS_ZH.search(core))
    return bool(_CANCELS_EN.search(core))


def _clean(text: str) -> str:
    core = _core(text)
    if _complaint(core):  # its "you" says who answers so: "你老是用英文回我"
        return (_TAIL_ZH if _zh(core) else _TAIL_EN).sub("", core).strip(" ,.?!")
    if _zh(core):
        core = _LEAD_ZH.sub("", core)
        # "比喻还是少用", "还是用普通段落": what is asked, without the word that asks it back
        core = re.sub(r"还是(?=改|换|用|少|多|别|不|加|全部|全都|都)", "", core).strip()
        core = re.sub(r"^(?:给我|帮我|替我)(?=.{2,}(?:的时候|时候|时)$)", "", core)
        core = re.sub(r"(?:的时候|时候)$", "时", core)
        return _TAIL_ZH.sub("", core).strip()
    core = _LEAD_EN.sub("", core)
    core = _TAIL_EN.sub("", core)
    return core.strip(" ,.?!")


def _formula(core: str) -> bool:
    """A courtesy, not a rule: "别客气", "不要紧", "别担心" — a request marker and a word or
    two (Chinese); the English ones are small talk already ("no worries")."""
    if not _zh(core):
        return False
    rest = re.sub(r"请|麻烦|记得|务必|千万|别|不要|不用|不必|无需|了|啦|哈|啊|呀|吧|～|~", "", core)
    # "别啰嗦" asks for shorter answers: a courtesy says nothing of the answer's length or form
    return len(rest) <= 2 and not _aspects(rest) - {"tone"}


def _continues(text: str, whole: str) -> bool:
    """A clause that goes on with the request before it rather than saying something of its
    own ("Use a relaxed, | friendly tone …", "Numbered lists please, | every time"): English,
    no subject of its own, not a request or question, not an occasion."""
    core = _core(text)
    if _zh(core):
        return False  # a Chinese clause after a comma says its own thing ("…，英文看着太累")
    own = _OWN_SUBJECT_EN
    mine = re.search(r"\b(?:I|I'm|I've|my)\b", core)
    return bool(core) and not (
        own.match(core) or mine or _asks(core) or _is_occasion(core) or _is_request(core, "")
    )


# a rule that ends one before it ("stop with the bullet points", "别再用英文了", "no more emojis")
_ENDS_RULE = re.compile(
    r"\b(?:stop|quit|no more|no longer|anymore|any more|instead|enough with|drop the|ditch the"
    r"|never ?mind|actually|switch(?:ed)?|go back|back to|change it|make it|scrap)\b"
    r"|别再|不要再|不用再|不需要再?|不再|不用了|改成|改为|换成|改用|改回|换回|恢复|算了|还是"
    # "翻译就别加了", "表格不要了", "总结就免了": what was asked is not wanted now
    r"|别(?!忘)[\u4e00-\u9fff]{0,3}了|不要了|免了"
    # "bullet points 不用了" is read as "bullet points 不用": a thing said not needed
    r"|(?:不用|不需要|不必)$"
    # "以后不用那么简短了", "可以讲详细点了": the way asked before is not needed now
    r"|(?:不用|不必|不需要|没必要)(?:那么|这么|那样|这样)"
    r"|可以[\u4e00-\u9fff]{0,3}(?:详细|长|短|简单|随意|正式)[一点些]*了",
    re.I,
)

# a kind of answer allowed (again): "longer answers are fine now", "Markdown's fine again",
# "emoji可以用了", "英文也行" — a rule that lifts or turns round an earlier one
_PERMITS_EN = re.compile(
    r"^(?!(?:my|our|his|her|their|its?|this|that|these|those|the|i|you|he|she|they|we)\b)"
    r"(?P<what>[\w' -]{1,40}?)\s*(?:'s|'re|\bis|\bare)\s+(?:totally |perfectly |also |now "
    r"|actually |really )?(?:fine|ok(?:ay)?|allowed|welcome|good|cool)\b"
    r"(?:\s+(?:now|again|too|with me|by me|from now on))*$",
    re.I,
)
_PERMITS_ZH = re.compile(
    r"^(?![我你他她它这那])(?P<what>[^，,]{1,12}?)(?:现在|又|也|都)?"
    r"(?:可以用|能用|可以|也行|没关系|没问题|随便用|无所谓|用吧)了?[吧啊呀哈]*$"
)


# a thing the assistant may do again ("ok you can suggest Starbucks again", "可以再推荐星巴克
# 了"): a rule against it lifted, whatever it is about
_AGAIN_ALLOWED = re.compile(
    r"^(?:(?:ok(?:ay)?|so|and|actually|well|alright)[\s,]+)*(?:you can|you may|feel free to"
    r"|it'?s (?:ok|okay|fine) to)\s+(?:now\s+)?"
    # "you can say that again", "you can ask me again later": no rule lifted
    r"(?!(?:say|ask|try|call|text|remind|send|tell)\b)[a-z]+\b.*\bagain\b(?! later)"
    r"|^(?:你)?(?:现在)?(?:又)?可以(?:再|重新)(?:给我|跟我|帮我)?[\u4e00-\u9fff]",
    re.I,
)


def _permits(core: str) -> bool:
    if _AGAIN_ALLOWED.match(core):
        return True
    m = (_PERMITS_ZH if _zh(core) else _PERMITS_EN).match(core)
    return m is not None and _style(m.group("what"))


# a way of answering the user says they are tired of: "the bullet points are getting
# annoying", "I'm sick of the emojis", "表格看腻了"
_TIRED_OF = re.compile(
    r"\b(?:(?:is|are|'s|'re) (?:(?:getting|becoming|kinda|kind of|a bit|pretty|really|so|super"
    r"|actually) )*(?:annoying|old|tiring|too much|a bit much)"
    r"|(?:tired|sick) of|over (?:the|all the)\b)"
    r"|看腻了|看烦了|烦死了|受不了了?|太烦了|有点烦",
    re.I,
)


def tired_of(text: str) -> bool:
    """True if ``text`` says the user is tired of a way of answering ("ok the bullet points
    are getting annoying", "我看腻了那些表格"): said beside a rule of the same kind, that rule
    replaces the one they tired of."""
    return bool(_TIRED_OF.search(text)) and bool(_aspects(text))


def ends_rule(text: str) -> bool:
    """True if a rule says it ends or replaces an earlier one of the same kind ("stop with
    the bullet points, just write paragraphs", "别再用英文了", "longer answers are fine now");
    ``values._replaced_rules`` then freezes the user's active rules that share an aspect with
    it."""
    core = _core(text)
    return bool(_ENDS_RULE.search(text)) or _permits(core) or _complaint(core)


# what a rule is about: two requests of one sentence about the same thing are one rule
# said twice ("no bullet points, just normal paragraphs", "不用客气，直接说重点"); about
# different things, two rules ("不要用比喻，控制在三句话以内")
_ASPECTS = {
    "format": re.compile(
        r"bullets?|lists?|numbered|tables?|markdown|headings?|paragraphs?|prose|plain text|列表|"
        # "just use normal sentences": prose, not a count of sentences
        r"(?:normal|full|complete|whole|regular|proper)\s+sentences|"
        r"分点|要点|表格|大段|段落|标题|加粗",
        re.I,
    ),
    "length": re.compile(
        r"short|brief|concise|succinct|long|length|detail|verbose|wordy|ramble|words"
        r"|(?<!normal )(?<!full )(?<!complete )(?<!whole )(?<!regular )(?<!proper )sentences?"
        r"|word (?:limit|count)"
        r"|essays?|walls? of text"
        r"|简短|简洁|精简|详细|啰嗦|废话|长篇|句话|字以内|\d+字|短一点|长一点",
        re.I,
    ),
    "tone": re.compile(
        r"tone|casual|formal|friendly|relaxed|polite|blunt|honest|direct|sugar-?coat|soften"
        r"|gentle|pleasantries|slang|jargon|客气|官腔|套话|直接|直说|绕弯子|委婉|直白|语气|口吻|正式|随意|客套|寒暄|夸",
        re.I,
    ),
    # what comes first in an answer ("先给结论，再解释原因", "bottom line first, then why")
    "order": re.compile(
        r"^先|^再|^然后|结论|\b(?:first|then|conclusion|bottom line|tl;?dr)\b", re.I
    ),
    "emoji": re.compile(r"emojis?|emoticons?|表情", re.I),
    "code": re.compile(r"code|snippets?|examples?|comments?|代码|示例|例子|注释", re.I),
    "units": re.compile(
        r"units?|metric|imperial|celsius|fahrenheit|miles|kilomet|grams|pounds|单位|公制|英制|摄氏|华氏"
        r"|公里|英里|公斤",
        re.I,
    ),
}
# a request that restates the one before it from the other side ("…, just write paragraphs")
_RESTATES = re.compile(
    r"^(?:just|only|instead|rather|simply|直接|而是|就|只)|(?:就行|就好|即可|就可以)$", re.I
)


# how the answers have been, said after a rule: "…，每次都一大堆", "…，老是一两句就打发我"
_HABITUAL_ZH = re.compile(r"每次|每回|总是|老是|一直|动不动|回回")


# a complaint about how the assistant answers, which asks for the opposite from now on: the
# assistant or its answers as the subject, a habit ("keep …ing", 老是, 总是) or an excess ("too
# long", "so many emojis", 太长) — "You keep calling me buddy", "Too many emojis in your replies",
# "你回答总是太长了", "你老是用英文回我" — not praise ("you always know what to say",
# "你总是很耐心")
_COMPLAINT_EN = re.compile(
    r"^(?:ugh,?\s+|honestly,?\s+|seriously,?\s+)?"
    # the user's dislike of it: "I hate it when you keep apologizing"
    r"(?:i (?:really )?(?:hate|dislike|can'?t stand|don'?t like|do not like) (?:it )?when )?"
    r"(?:(?:you(?:'re| are)?|your (?:answers|replies"
    r"|responses|explanations) are)\b(?![^,;]{0,30}\b(?:this time|just now|there|here)\b)"
    r"[^,;]{0,30}?\b(?:keep \w+ing|always \w+ing"
    r"|constantly|(?:way |far |much )?too (?:\w+)|so (?:many|much|long|formal|wordy)\b)"
    r"|(?:way |far )?too (?:many|much) [^,;]{1,30}\b(?:in |from )?your (?:answers?|repl(?:y|ies)"
    r"|responses?|explanations?)"
    # a habit of the answers the user dislikes: "I don't like it when you use so many emojis"
    r"|(?<=when )you (?:\w+ ){0,2}?(?:use|add|put|start|end|give|write|say|call))",
    re.I,
)
_DISLIKES_YOU = re.compile(
    r"^i (?:really )?(?:hate|dislike|can'?t stand|don'?t like|do not like) (?:it )?when you\b"
    r"|^我(?:很|真的|实在)?(?:不太?喜欢|讨厌|受不了|烦|不想看到?)你",
    re.I,
)
_COMPLAINT_ZH = re.compile(
    # the user's dislike of the assistant's habit: "我不喜欢你每次都先总结一遍"
    r"^(?:我(?:很|真的|实在)?(?:不太?喜欢|讨厌|受不了|烦|不想看到?)(?=你))?"
    r"你(?!.*(?:刚才|刚刚|这次|这个|这段|上面))(?:的)?(?:回答|回复|说话|写的|讲的?)?[^，,]{0,8}?"
    r"(?:老是|总爱|动不动就?|每次都|总是[^，,]{0,6}太"
    r"|太|这么|那么)"
)


_ADDRESSING = re.compile(r"\bcall(?:ing|s)? me\b|叫我|喊我|称呼我", re.I)


def _complaint(core: str) -> bool:
    """How the assistant keeps answering, said as a complaint (``_COMPLAINT_EN/_ZH``) about
    the answers' style or how it addresses the user ("you're too kind" is none)."""
    core = _NOTE_LEAD.sub("", core)
    # the user's dislike of a habit of the assistant's needs no word of style ("I can't stand
    # it when you keep asking follow-up questions", "我很烦你老是问我还有什么需要")
    if not (_style(core) or _ADDRESSING.search(core) or _DISLIKES_YOU.match(core)):
        return False
    if _zh(core):  # "你太客气了" is thanks, not a complaint of the tone
        polite = re.fullmatch(r"你(?:也|真是?)?太客气[了啦啊呀吧]*", core)
        return bool(_COMPLAINT_ZH.match(core)) and not _asks(core) and not polite
    return bool(_COMPLAINT_EN.match(core)) and not is_question(core)


_DISLIKE_EN = re.compile(rf"^i(?:'m| am)? (?:really |just )?{_DISLIKE_VERB_EN}\b", re.I)


def gives_reason(text: str) -> bool:
    """True if ``text`` (a rule as read) is a dislike or a complaint ("i hate scrolling thru
    walls of text", "你老是用英文回我"): said after a request of the same kind in one turn, it
    is the request's reason, not a rule of its own."""
    return bool(_DISLIKE_EN.match(_core(text))) or complains(text)


def complains(text: str) -> bool:
    """True if ``text`` (one clause) complains of how the assistant answers ("你老是用英文回我",
    "your answers are always way too long"): it asks for the other way, so what it names
    ("英文") is no wish of the user's."""
    return _complaint(_core(text))


def _complains(core: str) -> bool:
    """A Chinese clause with no subject of its own (or the assistant as its subject) that says
    how the answers have always been, not a request of its own."""
    if not _zh(core) or _OWN_SUBJECT_ZH.match(core):
        return False
    return bool(_HABITUAL_ZH.search(core)) and len(core) <= 16


def _aspects(text: str) -> set[str]:
    return {name for name, words in _ASPECTS.items() if words.search(text)}


def joins(before: str, rule: str) -> bool:
    """True if ``rule``, said in the sentence after the rule ``before``, goes on with it as a
    request of one sentence does (``standing_rules``): it restates it ("No disclaimers. Just
    answer.", "直接说重点") or asks of the same aspect ("Keep it short. No fluff.")."""
    core = _core(rule)
    return bool(_RESTATES.search(_clean(core) or core) or _aspects(before) & _aspects(rule))


def aspects(text: str) -> set[str]:
    """What a rule for the assistant is about (format, length, tone, emoji, code, units)."""
    return _aspects(text)


def _addresses(core: str) -> bool:
    """A clause after one about someone else that turns to the user or the assistant ("…, so
    never use them with me", "…，所以你别推荐了") rather than going on about them ("…，每次都加
    双份")."""
    rest = re.sub(r"^(?:so|but|and|所以|但是?|不过|那)[\s,，]*", "", core, flags=re.I)
    if _zh(rest):
        return bool(re.match(r"我|你|请|麻烦|别|不要|千万", rest))
    return bool(re.match(r"(?:i|you|please|pls)\b", rest, re.I) or _REQUEST_EN.match(rest))


def standing_rules(sentence: list[str], *, about_others: bool = False) -> list[Rule]:
    """The standing rules for the assistant the clauses of ``sentence`` state (``[]`` for
    none), in order.

    ``sentence`` is one sentence split into clauses (``rules.split_clauses``). A rule is
    read from a request clause, the clauses that go on with it, and an occasion clause in
    front of it; a request that restates the one before it (same aspect, or "just …" /
    "直接…") joins that rule. Clauses that state something else ("I can't do feet and
    inches") are left for the other stages. A sentence about someone else
    (``about_others``), a one-off task or a question that asks for nothing standing gives
    ``[]``.
    """
    if about_others or not sentence or _reshapes(sentence):
        return []
    # the sentence as said, without its small talk: "算了，以后全部用英文回答我吧" opens with 以后
    whole = " ".join(c for c in sentence if (k := _core(c)) and not is_small_talk(k))
    said_to_stand = _standing(whole)
    groups: list[list[int]] = []
    occasion: list[int] = []
    taken: set[int] = set()
    someone = False  # a clause before was about someone else
    pointed = False  # a clause before pointed at a text of its own ("这个回答太长了")
    for i, raw in enumerate(sentence):
        if i in taken:
            continue
        core = _core(raw)
        if not core or is_small_talk(core):
            continue
        if pointed and not said_to_stand and _is_request(core, whole):
            return []  # "这个回答太长了，缩短一点": about that answer only
        if semantic.is_about_others(core) or semantic.family_subject(core) is not None:
            someone = True  # "我同事特别爱吃葱，每次都加双份": what follows is still theirs
            continue
        if someone and not _addresses(core):
            continue
        someone = False
        if _is_occasion(core):
            occasion.append(i)
            continue
        if _asks(core) and not _asks_for_standing(core):
            return []
        asked = _asks(core) and _asks_for_standing(core)  # "可以以后都用中文回答我吗"
        if not (_is_request(core, whole) or asked) or _formula(core):
            if groups and _complains(core):
                groups[-1].append(i)  # "…，每次都一大堆": how the answers were, said of the rule
                taken.add(i)
            pointed = pointed or bool((_CONCRETE_ZH if _zh(core) else _CONCRETE_EN).search(core))
            continue
        if _one_off(core, said_to_stand):
            return []
        # clauses that go on with the request ("Use a relaxed, friendly tone …"): no subject
        # of their own, no request of their own
        more = list(
            itertools.takewhile(
                lambda j: _continues(sentence[j], whole), range(i + 1, len(sentence))
            )
        )
        span = " ".join([core, *[sentence[j] for j in more]])
        # what says the request stands: its own words, its occasion, or a lead-in said alone
        # just before it ("ok so going forward, | assume I'm on a Mac …")
        said = [sentence[o] for o in occasion if o < i]
        if i and _LEAD_ONLY.match(_core(sentence[i - 1])):
            said.append(sentence[i - 1])
        if _KEEPS_FACT.search(span):
            continue  # "你以后叫我阿斌就好": the user's name, not a rule
        if not (
            _style(span)
            or (occasion and _style(whole))
            or _stands(" ".join([*said, span]))
            or _complaint(core)
            or _AGAIN_ALLOWED.match(core)  # a rule against it lifted stands as long
        ):
            continue
        taken.update([i, *more])
        group = [i, *more]
        if groups and (
            _RESTATES.search(_clean(core) or core)
            or _aspects(" ".join(sentence[j] for j in groups[-1])) & _aspects(span)
        ):
            groups[-1] += group
            continue
        # an occasion in front of the rule belongs to it
        lead = [o for o in occasion if o < i and not any(o in g for g in groups)]
        groups.append([*lead, *group])
    zh = _zh(whole)
    out: list[Rule] = []
    for group in groups:
        parts = [p for p in (_clean(sentence[i]) for i in sorted(group)) if p]
        value = ("，" if zh else ", ").join(parts)
        if zh:
            value = re.sub(r"时，", "时", value)
        if len(value) >= 2:
            out.append(Rule(value if zh else value.lower(), value, tuple(sorted(group))))
    return out


def _reshapes(sentence: list[str]) -> bool:
    """The sentence says only how to reshape the text at hand (``_RESHAPES_ZH``); beside
    another request ("不要表格了，换成列表") it says what replaces a rule instead."""
    said = [c for c in (_core(r) for r in sentence) if c and not is_small_talk(c)]
    return len(said) == 1 and bool(_RESHAPES_ZH.search(said[0])) and not _standing(said[0])


def _refines(core: str) -> bool:
    """A request about the answer just given ("Try again, but in German", "再详细一点", "这次
    简短点回答就好"), not a statement that names an occasion ("这次年会的预算一共8万块")."""
    zh = _zh(core)
    if not _refines_said(core) or _standing(core):
        return False
    lead = _LEAD_ZH.sub("", core) if zh else _LEAD_EN.sub("", core)
    opens = r"再|重新|重来|换个" if zh else r"try again|redo|once more|one more time"
    return _is_request(core) or bool(re.match(opens, lead, re.I))


def refines(text: str) -> bool:
    """True if ``text`` asks to change the answer just given ("Can you answer in Spanish this
    time?", "用英文再说一遍"), not answers to come: a word of the answer just given and none
    that says it stands."""
    core = _core(text)
    return _refines_said(core) and not _standing(core)


def task_clauses(sentence: list[str]) -> set[int]:
    """The clauses of ``sentence`` that ask for a one-off task on a concrete object of its own
    ("Summarize the meeting notes below in three bullets", "把下面这段改成更正式的语气", "can
    you check this code?"): a request or a task verb with "this" / "below" / "这段" / "下面"
    or the text after a colon, and no statement of the user's in it ("keep this in mind:
    I'm vegan" is not one). Nothing is formed from them."""
    if _reshapes(sentence):
        return set(range(len(sentence)))  # "换成列表形式": the answer just given, reshaped
    out: set[int] = set()
    composed = False  # the task asks for a text to be written
    for i, raw in enumerate(sentence):
        core = _core(raw)
        zh = _zh(core)
        mine = r"(?<![帮给替跟和对让])我(?!的)" if zh else r"\b(?:I|I'm|I've|we|we're)\b"
        if composed:  # the user's own particulars, given for the text ("sign it: my name…")
            mine += _OWN_PARTICULARS_ZH if zh else _OWN_PARTICULARS_EN
        if out and _SAYS.match(core):
            out.add(i)  # "…，就说我发烧了": what the text is to say
            continue
        if not core or re.search(mine, core):
            continue
        if out:
            out.add(i)  # what follows the task in its sentence is its material
            continue
        if composes(core):
            out.add(i)  # "帮我写一封邮件给房东": the text asked for is its own object
            composed = True
            continue
        if _refines(core):
            out.add(i)  # "Try again, but in German": about the answer just given
            continue
        if not (
            (_CONCRETE_ZH if zh else _CONCRETE_EN).search(core)
            or (not zh and _DEFINITE_EN.search(core))
            or re.search(r"[:：]\s*\S", core)
            or _refines(core)
        ):
            continue
        lead = _LEAD_ZH.sub("", core) if zh else _LEAD_EN.sub("", core)
        task = _TASK_ZH if zh else _TASK_EN
        # a judgement of that text, then what to do with it ("这个回答太长了，缩短一点")
        judged = (
            i + 1 < len(sentence)
            and bool((_CONCRETE_ZH if zh else _CONCRETE_EN).search(core))
            and not re.search(r"[:：\d]", core)
            and not _BUDGET.search(core)  # "这个小程序的预算最多八万，千万别超": a fact, kept to
            and _is_request(_core(sentence[i + 1]))
            and not _standing(" ".join(sentence))
        )
        asked = (task.match(lead) or task.search(core) or _is_request(core)) and (
            zh or re.match(r"^(?:(?:please|pls|can|could|would|will)\s+(?:you\s+)?)?\w+", lead)
        )
        if judged or asked:
            out.add(i)
    return out
