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
