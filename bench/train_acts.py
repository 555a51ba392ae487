"""Train the classifier of what a user's turn does (``app.ingest.extraction.acts``) and write
its weights, or measure it.

A multinomial logistic regression over the multilingual-e5-small ``query:`` embedding of a
turn -> ``states`` / ``changes`` / ``ends`` / ``none``. Trained on, never the test split:

1. ``bench/data/act_sentences.jsonl``: sentences written for it, one act each (English,
   Chinese and mixed), written before reading the rule extractor;
2. the turns of ``tests/data/extraction/dev.jsonl`` (and ``dev2.jsonl`` with ``--with-dev2``)
   whose act follows from the label (``corpus_items``);
3. with ``--with-probes``, the turns of ``bench/probes/*-tune.jsonl`` (as 2); their
   ``*-fresh.jsonl`` halves stay out, and ``--eval fresh`` scores on them.

    python bench/train_acts.py --cv          # 5 folds grouped by case, with baselines
    python bench/train_acts.py --eval dev2   # trained without dev2, scored on its turns
    python bench/train_acts.py --eval fresh --with-dev2 --with-probes   # the never-read halves
    python bench/train_acts.py --with-dev2   # write acts_model.npz, as shipped

Requires scikit-learn (``pip install -e ".[bench]"``); the service only reads the weights.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from train_family import embed, eval_files, items_of, probe_files, training_digest  # noqa: E402

from app.ingest.extraction import acts, semantic  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "extraction"
WRITTEN = ROOT / "bench" / "data" / "act_sentences.jsonl"


def written() -> list[tuple[str, str, str]]:
    """(group, sentence, act) of ``bench/data/act_sentences.jsonl``."""
    rows = [json.loads(line) for line in WRITTEN.read_text(encoding="utf-8").splitlines() if line]
    return [(f"written:{i}", r["text"], r["act"]) for i, r in enumerate(rows)]


def _spec(s: dict[str, Any]) -> str:
    return json.dumps(s, sort_keys=True)


def corpus_items(path: Path) -> list[tuple[str, str, str]]:
    """(case id, turn, act) for the corpus turns whose act follows from the label:

    - a one-turn case: ``none`` when it is small talk (kind ``nostore``), ``states`` when it
      expects a fact (a bare denial that expects nothing is left out: it states nothing, yet
      it is no chatter);
    - the first turn of a case of several: ``states`` (what a later turn changes or keeps);
    - the last turn: ``none`` after small talk, ``states`` for an add-on; for a change or a
      negation that freezes something, ``changes`` when a new value takes the key of a frozen
      one, else ``ends`` (a withdrawal, or a denial with a fact of another key beside it).
    """
    out: list[tuple[str, str, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        cid, turns, kind = case["id"], case["turns"], case["kind"]
        if len(turns) == 1:
            if kind == "nostore" and not case["expected"]:
                out.append((cid, turns[0], "none"))
            elif case["expected"] and kind in ("single", "addon"):
                out.append((cid, turns[0], "states"))
            continue
        out.append((cid, turns[0], "states"))
        still = {_spec(s) for s in case.get("still_active", [])}
        new = [s for s in case["expected"] if _spec(s) not in still]
        frozen = case.get("frozen", [])
        if kind == "nostore":
            out.append((cid, turns[-1], "none"))
        elif kind == "addon":
            out.append((cid, turns[-1], "states"))
        elif frozen and kind in ("change", "negation"):
            same_key = {s["key"] for s in frozen} & {s["key"] for s in new}
            out.append((cid, turns[-1], "changes" if same_key else "ends"))
    return out


def fit(x: Any, y: list[str], c: float) -> Any:
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=c, max_iter=3000).fit(x, y)


def centroid(x: Any, y: list[str], q: Any) -> list[str]:
    import numpy as np

    labels = sorted(set(y))
    cents = np.stack([x[[i for i, v in enumerate(y) if v == lab]].mean(axis=0) for lab in labels])
    return [labels[i] for i in (q @ cents.T).argmax(axis=1)]


def report(name: str, truth: list[str], pred: list[str], prob: Any = None) -> None:
    acc = sum(a == b for a, b in zip(truth, pred, strict=True)) / len(truth)
    print(f"  {name:44s} accuracy {acc:.3f}")
    if prob is None:
        return
    for act in ("none", "changes", "ends"):
        for t in (0.5, 0.6, 0.7, 0.8, 0.9):
            sel = [i for i in range(len(truth)) if pred[i] == act and prob[i] >= t]
            ok = sum(truth[i] == act for i in sel)
            n = sum(v == act for v in truth)
            print(
                f"    {act:8s} p>={t}: said {len(sel):4d}, right {ok:4d} "
                f"(precision {ok / max(1, len(sel)):.3f}, recall {ok / max(1, n):.3f})"
            )


def training_set(with_dev2: bool, with_probes: bool = False) -> list[tuple[str, str, str]]:
    """(group, turn, act) the regression is fitted to; the shipped model uses ``with_dev2``
    only (trained on the probes too it formed no more on fresh text: docs/formation.md)."""
    items = written() + corpus_items(CORPUS / "dev.jsonl")
    if with_dev2:
        items += corpus_items(CORPUS / "dev2.jsonl")
    if with_probes:
        items += items_of(probe_files("tune"), corpus_items)
    return items


def main(argv: list[str] | None = None) -> int:
    import numpy as np

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cv", action="store_true", help="cross-validate on the corpus turns")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--c", type=float, default=32.0, help="inverse regularisation strength")
    ap.add_argument(
        "--eval", help="score on these turns: dev2, fresh (the never-read probe halves) or a path"
    )
    ap.add_argument("--with-dev2", action="store_true", help="train on dev2's turns too")
    ap.add_argument(
        "--with-probes", action="store_true", help="train on bench/probes/*-tune.jsonl too"
    )
    ap.add_argument("--out", type=Path, default=acts.ACTS_MODEL)
    args = ap.parse_args(argv)

    items = training_set(args.with_dev2 and args.eval != "dev2", args.with_probes)
    texts = [t for _, t, _ in items]
    y = [a for _, _, a in items]
    x = embed(texts)
    print(f"{len(items)} training turns: {dict(Counter(y))}")
    if args.cv:
        groups = sorted({g for g, _, _ in items})
        fold_of = {g: int(hashlib.sha1(g.encode()).hexdigest(), 16) % args.folds for g in groups}
        corpus = [i for i, (g, _, _) in enumerate(items) if not g.startswith("written:")]
        pred: dict[int, str] = {}
        prob: dict[int, float] = {}
        pred_w: dict[int, str] = {}
        pred_c: dict[int, str] = {}
        for k in range(args.folds):
            train = [i for i, (g, _, _) in enumerate(items) if fold_of[g] != k]
            test = [i for i in corpus if fold_of[items[i][0]] == k]
            model = fit(x[train], [y[i] for i in train], args.c)
            p = model.predict_proba(x[test])
            for i, row in zip(test, p, strict=True):
                pred[i], prob[i] = str(model.classes_[row.argmax()]), float(row.max())
            written_only = [i for i in train if items[i][0].startswith("written:")]
            mw = fit(x[written_only], [y[i] for i in written_only], args.c)
            for i, lab in zip(test, mw.predict(x[test]), strict=True):
                pred_w[i] = str(lab)
            for i, lab in zip(
                test, centroid(x[train], [y[i] for i in train], x[test]), strict=True
            ):
                pred_c[i] = lab
        truth = [y[i] for i in corpus]
        major = Counter(y[i] for i in corpus).most_common(1)[0][0]
        print(f"held-out corpus turns ({args.folds} folds grouped by case): {len(corpus)}")
        report(f"majority class ({major})", truth, [major] * len(corpus))
        report("nearest class centroid", truth, [pred_c[i] for i in corpus])
        report("regression, written sentences only", truth, [pred_w[i] for i in corpus])
        report(
            "regression, + corpus turns of other folds",
            truth,
            [pred[i] for i in corpus],
            [prob[i] for i in corpus],
        )
        return 0
    model = fit(x, y, args.c)
    if args.eval:
        held = items_of(eval_files(args.eval), corpus_items)
        hx = embed([t for _, t, _ in held])
        p = model.predict_proba(hx)
        truth = [a for _, _, a in held]
        print(f"{args.eval}: {len(held)} turns {dict(Counter(truth))}")
        major = Counter(y).most_common(1)[0][0]
        report(f"majority class of training ({major})", truth, [major] * len(held))
        report("nearest class centroid", truth, centroid(x, y, hx))
        report(
            "regression",
            truth,
            [str(model.classes_[r.argmax()]) for r in p],
            [float(r.max()) for r in p],
        )
        return 0
    np.savez_compressed(
        args.out,
        digest=np.array(training_digest(texts, y, args.c)),
        c=np.array(args.c),
        model=np.array(semantic.FAMILY_MODEL_ID),
        classes=np.array([str(c) for c in model.classes_]),
        coef=model.coef_.astype("float16"),
        intercept=model.intercept_.astype("float32"),
    )
    print(f"wrote {args.out} ({len(model.classes_)} acts, {len(texts)} turns)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
