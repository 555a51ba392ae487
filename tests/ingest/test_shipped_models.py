"""The classifier files shipped beside the extractor are those of its current code: a process
never re-embeds the prototypes at its first turn (seconds of CPU under load)."""

from __future__ import annotations

import numpy as np

from app.ingest.extraction import semantic


def test_the_prototype_cache_was_made_from_the_current_prototypes() -> None:
    with np.load(semantic.PROTOTYPE_CACHE) as cached:
        digest = str(cached["digest"])
        rows = cached["matrix"].shape[0]
    assert digest == semantic.prototype_digest(), (
        "app/ingest/extraction/prototypes.npz is stale: run "
        "`python -m app.ingest.extraction.semantic` and commit the file"
    )
    assert rows == sum(len(texts) for texts in semantic.PROTOTYPES.values())


def test_the_trained_family_model_is_read_for_the_shipped_embedder() -> None:
    assert semantic._TRAINED.get() is not None


def test_the_act_model_is_read_for_the_shipped_embedder() -> None:
    from app.ingest.extraction import acts

    weights = acts._WEIGHTS.get()
    assert weights is not None, (
        "app/ingest/extraction/acts_model.npz is missing or made for another embedder: run "
        "`python bench/train_acts.py --with-dev2` and commit the file"
    )
    assert sorted(weights[2]) == sorted(acts.ACTS)


def test_the_act_model_was_trained_on_the_current_sentences() -> None:
    import sys
    from pathlib import Path

    bench = Path(__file__).resolve().parents[2] / "bench"
    sys.path.insert(0, str(bench))
    try:
        import train_acts
    finally:
        sys.path.remove(str(bench))
    with np.load(train_acts.acts.ACTS_MODEL) as shipped:
        digest, c = str(shipped["digest"]), float(shipped["c"])
    items = train_acts.training_set(with_dev2=True)
    now = train_acts.training_digest([t for _, t, _ in items], [a for _, _, a in items], c)
    assert digest == now, (
        "app/ingest/extraction/acts_model.npz is stale (its training sentences changed): run "
        "`python bench/train_acts.py --with-dev2` and commit the file"
    )
