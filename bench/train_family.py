"""Train the key-family classifier of the offline extractor and write its weights.

The classifier (``app.ingest.extraction.semantic.classify``) is a multinomial logistic
regression over the multilingual-e5-small ``query:`` embedding of a clause (384 floats) ->
one of the key families of ``semantic.PROTOTYPES`` (``none`` = nothing to store). It is
trained on three sources, never on the test split of the extraction corpus:

1. the prototype sentences of ``semantic.PROTOTYPES``;
2. sentences generated here from templates and fillers written for this purpose (statements,
   changes, withdrawals and small talk, Chinese and English; no sentence of the corpus);
3. the turns of ``tests/data/extraction/dev.jsonl`` whose family follows from the label (a
   one-turn case: the family of its first expected key, ``none`` when nothing is expected; a
   multi-turn case: the last turn, by the key of the value it adds, and the first turn by the
   key of the value the last one freezes);
4. ``bench/data/family_sentences.jsonl``: 1,956 clauses written for it, one family each
   (English, Chinese and mixed; statements, changes, withdrawals, other people's doings and
   small talk as ``none``), written without reading the corpus.

5. with ``--with-probes``, the turns of ``bench/probes/*-tune.jsonl`` (labelled as in 3): the
   halves of the probe files that were read while changing rules; their ``*-fresh.jsonl``
   halves stay out, so ``--eval fresh`` measures on turns no rule and no weight was fitted to.

``--eval dev2`` reports the family accuracy of the trained regression on the turns of
``tests/data/extraction/dev2.jsonl`` (labelled as in 3) — a set it was not trained on.

``--cv`` (default 5 folds, grouped by case) reports, on the dev turns of each held-out fold,
the accuracy of the nearest prototype and of the regression trained without that fold, and the
precision/coverage of the regression above each probability threshold. Without ``--cv`` the
regression is trained on everything and written to ``semantic.FAMILY_MODEL`` (float16 weights
with the digest of the training sentences).

    python bench/train_family.py --cv      # measure (about 1 min on 2 cores)
    python bench/train_family.py           # write app/ingest/extraction/family_model.npz

Requires scikit-learn (``pip install -e ".[bench]"``); the service only reads the weights.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.ingest.extraction import semantic  # noqa: E402

DEV = ROOT / "tests" / "data" / "extraction" / "dev.jsonl"
DEV2 = ROOT / "tests" / "data" / "extraction" / "dev2.jsonl"
PROBES = ROOT / "bench" / "probes"
WRITTEN = ROOT / "bench" / "data" / "family_sentences.jsonl"

KEY_FAMILY: dict[str, str] = {
    k: fam for fam, k in semantic.FAMILY_KEY.items() if k is not None and fam != "pets"
} | {
    "work.role": "work",
    "work.location": "work",
    "pets.name": "pets",
    "pets.kind": "pets",
    "birthday": "age",
}

# --- synthetic sentences -------------------------------------------------------------------

FILL: dict[str, tuple[str, ...]] = {
    "city_en": ("Lyon", "Seattle", "Osaka", "Leeds", "Perth", "Nairobi", "Quito", "Tampa"),
    "city_zh": ("苏州", "西安", "青岛", "昆明", "厦门", "长沙", "合肥", "珠海"),
    "org_en": ("Vantage Labs", "Orbit Bank", "Hollis & Co", "Brightway", "Meridian Health",
               "Copperleaf", "Northwind", "Zephyr AI"),
    "org_zh": ("蓝鲸科技", "华信银行", "小红书", "蔚来", "海康威视", "顺丰", "网易", "大疆"),
    "role_en": ("data analyst", "nurse", "backend developer", "product designer", "teacher",
                "sales rep", "QA engineer", "chef"),
    "role_zh": ("数据分析师", "护士", "后端开发", "产品经理", "老师", "销售", "测试", "厨师"),
    "school_en": ("Duke", "McGill", "Imperial College", "Georgia Tech", "Ohio State"),
    "school_zh": ("武汉大学", "同济", "中山大学", "南开大学", "北师大"),
    "drink_en": ("oat milk latte", "black coffee", "matcha", "chai", "cold brew", "oolong"),
    "drink_zh": ("拿铁", "乌龙茶", "冰美式", "豆浆", "柠檬水", "普洱"),
    "like_en": ("jazz", "rock climbing", "board games", "sci-fi novels", "baking", "tennis"),
    "like_zh": ("爬山", "看悬疑剧", "打羽毛球", "做饭", "听相声", "拼乐高"),
    "food_en": ("pork", "shellfish", "dairy", "red meat", "gluten", "sugar", "spicy food"),
    "food_zh": ("猪肉", "海鲜", "牛奶", "香菜", "辣", "甜食", "羊肉"),
    "tech_en": ("Rust", "Kotlin", "Vim", "Neovim", "PyCharm", "Terraform", "Go", "Vue"),
    "tech_zh": ("Rust", "Kotlin", "Vim", "Go", "React", "Flutter", "Python", "IDEA"),
    "lang_en": ("German", "Mandarin", "Spanish", "Arabic", "Hindi", "Swedish"),
    "lang_zh": ("日语", "法语", "粤语", "韩语", "西班牙语", "德语"),
    "cond_en": ("asthma", "migraines", "type 2 diabetes", "high blood pressure", "eczema"),
    "cond_zh": ("高血压", "哮喘", "胃炎", "颈椎病", "失眠", "偏头痛"),
    "pet_en": ("Biscuit", "Pepper", "Milo", "Coco", "Nala", "Ziggy"),
    "pet_zh": ("豆豆", "球球", "大黄", "花卷", "可乐", "年糕"),
    "kind_en": ("cat", "dog", "parrot", "hamster", "corgi", "turtle"),
    "kind_zh": ("猫", "狗", "柯基", "仓鼠", "鹦鹉", "乌龟"),
    "rel_en": ("sister", "son", "husband", "mom", "grandpa", "daughter"),
    "rel_zh": ("妹妹", "儿子", "老公", "妈妈", "爷爷", "女儿"),
    "name_en": ("Priya Shah", "Tom Becker", "Lena Ortiz", "Sam Okafor", "Ivy Chen"),
    "name_zh": ("陈思远", "刘洋", "赵敏", "孙浩", "林小雨"),
    "when_en": ("on Friday at 2", "next Tuesday", "tomorrow morning", "on the 14th"),
    "when_zh": ("周五下午两点", "下周二", "明天上午", "月底"),
}  # fmt: skip

TEMPLATES: dict[str, tuple[str, ...]] = {
    "residence": (
        "I live in {city_en}", "home is {city_en} these days", "we just moved to {city_en}",
        "I've been living in {city_en} for two years", "moved to {city_en} last month",
        "we're in {city_en} now", "relocated to {city_en} for work",
        "我住{city_zh}", "我现在住在{city_zh}", "上个月搬去{city_zh}了", "目前人在{city_zh}",
        "我们家已经搬到{city_zh}了", "我在{city_zh}租房住",
    ),
    "hometown": (
        "I grew up in {city_en}", "originally from {city_en}", "{city_en} is where I was born",
        "我老家是{city_zh}的", "我是在{city_zh}长大的", "我出生在{city_zh}",
    ),
    "work": (
        "I work for {org_en}", "I'm a {role_en}", "I'm at {org_en} now as a {role_en}",
        "just joined {org_en}", "started a new job at {org_en} last week",
        "left my old job, now I'm at {org_en}", "I do {role_en} work at {org_en}",
        "my job title is {role_en}", "I work as a {role_en} these days",
        "我在{org_zh}上班", "我是{role_zh}", "我现在在{org_zh}做{role_zh}", "刚入职{org_zh}",
        "我跳槽去了{org_zh}", "离开老东家了，现在在{org_zh}", "我改行做{role_zh}了",
        "我在{org_zh}负责招聘", "我的工作是{role_zh}", "我做的是{role_zh}",
    ),
    "education": (
        "I went to {school_en}", "graduated from {school_en} in 2016",
        "I did my PhD at {school_en}",
        "我是{school_zh}毕业的", "我在{school_zh}读的研究生", "本科念的{school_zh}",
    ),
    "drink": (
        "I drink {drink_en} every day", "my usual order is a {drink_en}",
        "switched to {drink_en}", "these days it's {drink_en} for me",
        "我每天都喝{drink_zh}", "现在改喝{drink_zh}了", "我一般点{drink_zh}", "早上一杯{drink_zh}",
    ),
    "likes": (
        "I'm really into {like_en}", "I love {like_en}", "{like_en} is my favourite thing",
        "I've gotten into {like_en} lately", "我特别喜欢{like_zh}", "我最近迷上了{like_zh}",
        "我平时爱{like_zh}", "{like_zh}是我最大的爱好",
    ),
    "dislikes": (
        "I really dislike {like_en}", "{like_en} bores me", "I'm not into {like_en} at all",
        "我不喜欢{like_zh}", "我对{like_zh}没兴趣", "{like_zh}我受不了",
    ),
    "avoid": (
        "I don't eat {food_en}", "I stay away from {food_en}", "no {food_en} for me",
        "I cut out {food_en}", "我不吃{food_zh}", "我从来不碰{food_zh}", "{food_zh}我一口都不吃",
        "我戒了{food_zh}",
    ),
    "diet_style": (
        "I've gone vegan", "I follow a paleo diet", "I'm pescatarian", "我现在吃全素",
        "我是素食者", "我在控糖饮食",
    ),
    "language": (
        "I speak {lang_en}", "{lang_en} is my mother tongue", "I'm fluent in {lang_en}",
        "I've been studying {lang_en}", "我会讲{lang_zh}", "我的母语是{lang_zh}", "我在学{lang_zh}",
    ),
    "tech": (
        "I code in {tech_en}", "I use {tech_en} for everything", "{tech_en} is my go-to",
        "I moved our stack to {tech_en}", "we switched to {tech_en}", "I prefer {tech_en}",
        "我平时用{tech_zh}", "我习惯用{tech_zh}写代码", "现在都改用{tech_zh}了",
        "我们全面转{tech_zh}了",
        "我主要写{tech_zh}",
    ),
    "habit": (
        "I swim every Sunday morning", "I usually wake up at 6", "I journal every night",
        "I go to the gym three times a week", "我每天晚上十点睡", "我每周末都去游泳",
        "我每天早上冥想十分钟", "我习惯饭后散步",
    ),
    "allergy": (
        "I'm allergic to {food_en}", "{food_en} makes me break out in hives",
        "我对{food_zh}过敏", "我吃{food_zh}会过敏",
    ),
    "condition": (
        "I have {cond_en}", "I was diagnosed with {cond_en}", "I've been dealing with {cond_en}",
        "我有{cond_zh}", "我查出了{cond_zh}", "我一直有{cond_zh}",
    ),
    "pets": (
        "I have a {kind_en} named {pet_en}", "our {kind_en} is called {pet_en}",
        "{pet_en} is my {kind_en}", "we got a {kind_en}, {pet_en}",
        "我养了一只{kind_zh}叫{pet_zh}", "我家{kind_zh}叫{pet_zh}",
        "我有只{kind_zh}，名字叫{pet_zh}",
    ),
    "family": (
        "my {rel_en} is a doctor", "I have a {rel_en}", "my {rel_en} is called {pet_en}",
        "我有个{rel_zh}", "我{rel_zh}叫{pet_zh}", "我{rel_zh}在上大学",
    ),
    "name": ("my name's {name_en}", "I'm {name_en}", "我叫{name_zh}", "我的名字叫{name_zh}"),
    "plan": (
        "I'm planning to visit {city_en}", "I want to learn {lang_en} next year",
        "I hope to move to {city_en}", "我打算去{city_zh}玩", "我计划明年学{lang_zh}",
        "我准备换个工作",
    ),
    "event": (
        "I have a dentist appointment {when_en}", "flying to {city_en} {when_en}",
        "my interview is {when_en}", "我{when_zh}要去医院复查", "{when_zh}要去{city_zh}出差",
        "{when_zh}有个面试",
    ),
    "constraint": (
        "please keep answers under five sentences", "stop using bullet points",
        "always give me code examples", "answer in {lang_en} from now on", "no emojis, ever",
        "回答别太长", "以后都用{lang_zh}回答", "不要给我列清单", "请直接给结论",
    ),
    "none": (
        "can you recommend a good {like_en} book?", "what time is it in {city_en}?",
        "my neighbour works at {org_en}", "my friend is a {role_en}", "that's hilarious",
        "if I moved to {city_en} would I like it?", "ok sounds good", "nice, thanks!",
        "I wonder if {tech_en} is worth learning", "is {drink_en} healthy?",
        "你知道{city_zh}有什么好玩的吗", "我同事在{org_zh}上班", "好的谢谢", "哈哈哈",
        "如果我去{city_zh}工作会怎样", "{drink_zh}健康吗", "帮我查一下{city_zh}的天气",
        "我朋友是{role_zh}",
    ),
}  # fmt: skip


def synthetic(seed: int = 13, per_template: int = 3) -> list[tuple[str, str]]:
    """(sentence, family) pairs: each template filled with ``per_template`` seeded choices."""
    rng = random.Random(seed)
    out: list[tuple[str, str]] = []
    for fam, templates in TEMPLATES.items():
        for t in templates:
            slots = [s for s in FILL if "{" + s + "}" in t]
            seen: set[str] = set()
            for _ in range(per_template):
                text = t.format(**{s: rng.choice(FILL[s]) for s in slots})
                if text not in seen:
                    seen.add(text)
                    out.append((text, fam))
    return out


def prototypes() -> list[tuple[str, str]]:
    return [(t, fam) for fam, texts in semantic.PROTOTYPES.items() for t in texts]


def _family(spec: dict[str, Any]) -> str | None:
    key = spec.get("key")
    if key is None:
        return "other" if spec.get("type") == "profile" else None
    return KEY_FAMILY.get(key)


def written() -> list[tuple[str, str]]:
    """(sentence, family) pairs of ``bench/data/family_sentences.jsonl``."""
    rows = [json.loads(line) for line in WRITTEN.read_text(encoding="utf-8").splitlines() if line]
    return [(r["text"], r["family"]) for r in rows]


def dev_items(path: Path = DEV) -> list[tuple[str, str, str]]:
    """(case id, turn, family) for the corpus turns whose family follows from the label."""
    out: list[tuple[str, str, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        turns, expected = case["turns"], case["expected"]
        if len(turns) == 1:
            if not expected:
                out.append((case["id"], turns[0], "none"))
            elif (fam := _family(expected[0])) is not None:
                out.append((case["id"], turns[0], fam))
            continue
        still = [json.dumps(s, sort_keys=True) for s in case.get("still_active", [])]
        new = [s for s in expected if json.dumps(s, sort_keys=True) not in still]
        if new and (fam := _family(new[0])) is not None:
            out.append((case["id"], turns[-1], fam))
        if case.get("frozen") and (fam := _family(case["frozen"][0])) is not None:
            out.append((case["id"], turns[0], fam))
    return out


def probe_files(half: str) -> list[Path]:
    """The ``half`` ("tune" or "fresh") of every probe file in ``bench/probes``."""
    return sorted(PROBES.glob(f"*-{half}.jsonl"))


def items_of(
    paths: list[Path], read: Callable[[Path], list[tuple[str, str, str]]] = dev_items
) -> list[tuple[str, str, str]]:
    """``read`` (``dev_items``, or ``train_acts.corpus_items``) of several corpus files, each
    case id prefixed by its file's name."""
    return [(f"{p.stem}:{cid}", t, y) for p in paths for cid, t, y in read(p)]


def eval_files(name: str) -> list[Path]:
    """The corpus files ``--eval`` names: ``dev2``, ``fresh`` (every ``*-fresh.jsonl`` probe
    half) or a path."""
    if name == "fresh":
        return probe_files("fresh")
    return [Path(name)] if name.endswith(".jsonl") else [DEV.with_name(f"{name}.jsonl")]


CACHE = Path("/tmp/memlane-train-family-embeddings.npz")


def embed(texts: list[str]) -> Any:
    """E5 ``query:`` embeddings of ``texts``; kept in a cache file between runs."""
    import numpy as np

    from app.providers.embeddings import encode_local

    cache: dict[str, Any] = {}
    if CACHE.exists():
        with np.load(CACHE) as f:
            cache = dict(zip([str(t) for t in f["texts"]], f["vecs"], strict=True))
    missing = [t for t in dict.fromkeys(texts) if t not in cache]
    if missing:
        vecs = np.asarray(encode_local(missing, is_query=True), dtype="float32")
        cache.update(zip(missing, vecs, strict=True))
        np.savez(CACHE, texts=np.array(list(cache)), vecs=np.stack(list(cache.values())))
    return np.stack([cache[t] for t in texts]).astype("float32")


def fit(x: Any, y: list[str], c: float) -> Any:
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=c, max_iter=2000)
    model.fit(x, y)
    return model


def nearest_prototype(x: Any, px: Any, plabels: list[str]) -> list[str]:
    sims = x @ px.T
    return [plabels[i] for i in sims.argmax(axis=1)]


def training_digest(texts: list[str], labels: list[str], c: float) -> str:
    body = f"C={c}\n" + "\n".join(f"{lab}\t{t}" for t, lab in zip(texts, labels, strict=True))
    return hashlib.sha256(body.encode()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cv", action="store_true", help="measure by cross-validation on dev")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--c", type=float, default=32.0, help="inverse regularisation strength")
    ap.add_argument("--out", type=Path, default=semantic.FAMILY_MODEL)
    ap.add_argument("--no-dev", action="store_true", help="train on prototypes and templates only")
    ap.add_argument(
        "--no-written", action="store_true", help="leave out bench/data/family_sentences.jsonl"
    )
    ap.add_argument(
        "--with-dev2",
        action="store_true",
        help="also train on the turns of tests/data/extraction/dev2.jsonl (as on dev's)",
    )
    ap.add_argument(
        "--with-probes",
        action="store_true",
        help="also train on the turns of bench/probes/*-tune.jsonl (as on dev's)",
    )
    ap.add_argument(
        "--eval",
        help="report the accuracy of the trained regression on these turns: dev2 (trained "
        "without it), fresh (the never-read probe halves) or a corpus file",
    )
    ap.add_argument(
        "--hold-out-half",
        choices=["a", "b"],
        help="train without this half of dev (bench/extraction.py --dev-half measures on it)",
    )
    args = ap.parse_args(argv)

    import numpy as np

    base = prototypes() + synthetic() + ([] if args.no_written else written())
    dev = [] if args.no_dev and not args.cv else dev_items()
    if args.with_dev2 and args.eval != "dev2":
        dev += dev_items(DEV2)
    if args.hold_out_half:
        from bench.extraction import dev_half

        dev = [d for d in dev if dev_half(d[0]) != args.hold_out_half]
    if args.with_probes:
        dev += items_of(probe_files("tune"))
    bx = embed([t for t, _ in base])
    by = [f for _, f in base]
    dx = embed([t for _, t, _ in dev]) if dev else np.zeros((0, bx.shape[1]), "float32")
    dy = [f for _, _, f in dev]
    print(f"{len(base)} prototype and synthetic sentences, {len(dev)} dev turns")

    if args.cv:
        px = bx[: len(prototypes())]
        plabels = by[: len(prototypes())]
        cases = sorted({cid for cid, _, _ in dev})
        rng = random.Random(7)
        rng.shuffle(cases)
        fold_of = {cid: i % args.folds for i, cid in enumerate(cases)}
        folds = np.array([fold_of[cid] for cid, _, _ in dev])
        pred_lr: list[str] = [""] * len(dev)
        prob_lr = np.zeros(len(dev))
        pred_base: list[str] = [""] * len(dev)
        for k in range(args.folds):
            tr, te = folds != k, folds == k
            model = fit(
                np.vstack([bx, dx[tr]]), by + [y for y, t in zip(dy, tr, strict=True) if t], args.c
            )
            probs = model.predict_proba(dx[te])
            idx = np.flatnonzero(te)
            for j, i in enumerate(idx):
                pred_lr[i] = str(model.classes_[probs[j].argmax()])
                prob_lr[i] = float(probs[j].max())
            base_model = fit(bx, by, args.c)
            for i in idx:
                pred_base[i] = str(base_model.predict(dx[i : i + 1])[0])
        near = nearest_prototype(dx, px, plabels)
        sims = dx @ px.T
        accepted = []
        for i, row in enumerate(sims):
            best: dict[str, float] = {}
            for lab, sim in zip(plabels, row.tolist(), strict=True):
                best[lab] = max(best.get(lab, -1.0), sim)
            (f1, s1), (_, s2) = sorted(best.items(), key=lambda kv: -kv[1])[:2]
            if f1 != "none" and s1 >= semantic.MIN_SIMILARITY and s1 - s2 >= semantic.MIN_MARGIN:
                accepted.append(f1 == dy[i])
        print(
            f"nearest prototype as shipped (similarity and margin thresholds): coverage "
            f"{len(accepted) / len(dev):.2f}, precision {sum(accepted) / max(1, len(accepted)):.3f}"
        )
        acc = lambda p: sum(a == b for a, b in zip(p, dy, strict=True)) / len(dy)  # noqa: E731
        print(f"accuracy on held-out dev turns ({args.folds} folds, grouped by case):")
        print(f"  nearest prototype                      {acc(near):.3f}")
        print(f"  regression, prototypes + synthetic     {acc(pred_base):.3f}")
        print(f"  regression, + dev of the other folds   {acc(pred_lr):.3f}")
        print("  threshold  coverage  precision (family != none, regression + dev)")
        for t in (0.2, 0.3, 0.4, 0.5, 0.6, 0.7):
            sel = [i for i in range(len(dev)) if prob_lr[i] >= t and pred_lr[i] != "none"]
            ok = sum(pred_lr[i] == dy[i] for i in sel)
            print(f"  {t:9.1f}  {len(sel) / len(dev):8.2f}  {ok / max(1, len(sel)):9.3f}")
        return 0

    texts = [t for t, _ in base] + [t for _, t, _ in dev]
    labels = by + dy
    model = fit(np.vstack([bx, dx]), labels, args.c)
    if args.eval:
        held = items_of(eval_files(args.eval))
        hx = embed([t for _, t, _ in held])
        probs = model.predict_proba(hx)
        pred = [str(model.classes_[i]) for i in probs.argmax(axis=1)]
        hy = [f for _, _, f in held]
        ok = sum(a == b for a, b in zip(pred, hy, strict=True))
        print(f"{args.eval}: family accuracy {ok / len(held):.3f} on {len(held)} turns")
        for t in (0.3, 0.4, 0.5):
            sel = [i for i in range(len(held)) if probs[i].max() >= t and pred[i] != "none"]
            good = sum(pred[i] == hy[i] for i in sel)
            print(
                f"  p >= {t}: coverage {len(sel) / len(held):.2f}, precision "
                f"{good / max(1, len(sel)):.3f}"
            )
        return 0
    np.savez_compressed(
        args.out,
        digest=np.array(training_digest(texts, labels, args.c)),
        model=np.array(semantic.FAMILY_MODEL_ID),
        classes=np.array([str(c) for c in model.classes_]),
        coef=model.coef_.astype("float16"),
        intercept=model.intercept_.astype("float32"),
    )
    print(f"wrote {args.out} ({len(model.classes_)} families, {len(texts)} sentences)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
