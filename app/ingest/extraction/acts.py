"""What a user's turn does, read by a trained classifier: states a fact, changes one, ends one,
or says nothing to store (docs/formation.md, "What a turn does").

A multinomial logistic regression over the multilingual-e5-small ``query:`` embedding of the
turn (the model the family classifier reads, ``semantic.FAMILY_MODEL_ID``), trained by
``bench/train_acts.py`` and shipped as ``acts_model.npz``. The rule extractor forms the facts;
this reads the turn whole and only

- **vetoes**: a turn it is confident says nothing to store (``none``: a question, someone
  else's doings, a hypothetical, small talk) forms no fact;
- **lets a change replace**: the facts of a turn it is confident *changes* the user's situation
  take back the other values of their key that the user's previous turn formed
  (``metadata["takes_back"]``, as "说错了，…" does), though no change cue matched;
- **lets an ending withdraw**: a turn it is confident *ends* or denies something, which formed
  no withdrawal of its own, becomes the take-back of what the previous turn formed that it
  names (else of all of it, as "I take that back").

Without the file, or with weights made for another embedder, nothing changes.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.arbitration.values import KEY_TOPIC
from app.ingest.extraction import semantic
from app.ingest.extraction.base import ExtractedFact, Turn
from app.ingest.extraction.semantic import CLASSIFY_MAX_CHARS, FAMILY_MODEL_ID

ACTS_MODEL = Path(__file__).with_name("acts_model.npz")
ACTS = ("states", "changes", "ends", "none")

# Probabilities a turn's act must reach to act on it; chosen on the dev split only
# (``bench/train_acts.py --cv``, ``bench/extraction.py --split dev``).
VETO_NONE = 0.7
CHANGE_MIN = 0.7
END_MIN = 0.7


@dataclass(frozen=True, slots=True)
class Act:
    act: str
    probability: float


class _Weights:
    """``acts_model.npz``, read once; ``None`` when absent or made for another embedder."""

    def __init__(self, path: Path = ACTS_MODEL) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._loaded = False
        self.weights: tuple[Any, Any, list[str]] | None = None

    def get(self) -> tuple[Any, Any, list[str]] | None:
        if not self._loaded:
            with self._lock:
                if not self._loaded:
                    import numpy as np

                    if self.path.exists():
                        with np.load(self.path) as f:
                            if str(f["model"]) == FAMILY_MODEL_ID:
                                self.weights = (
                                    f["coef"].astype("float32"),
                                    f["intercept"].astype("float32"),
                                    [str(c) for c in f["classes"]],
                                )
                    self._loaded = True
        return self.weights


_WEIGHTS = _Weights()


def classify(texts: list[str]) -> list[Act] | None:
    """The act of each text (blocking), or ``None`` when no weights are shipped."""
    weights = _WEIGHTS.get()
    if weights is None or not texts:
        return None if weights is None else []
    import numpy as np

    from app.providers.embeddings import encode_local

    coef, intercept, classes = weights
    vecs = np.asarray(
        encode_local([t[:CLASSIFY_MAX_CHARS] for t in texts], is_query=True), dtype="float32"
    )
    logits = vecs @ coef.T + intercept
    logits -= logits.max(axis=1, keepdims=True)
    probs = np.exp(logits)
    probs /= probs.sum(axis=1, keepdims=True)
    return [Act(classes[int(row.argmax())], float(row.max())) for row in probs]


def _withdraws(f: ExtractedFact) -> bool:
    return bool(f.retracts or f.metadata.get("takes_back") or f.metadata.get("retraction"))


# keys a change or an ending never takes back by the turn's family: a person named, a name or
# a contact said in place of another is a value of its own
_KEPT = ("family.member", "name.full", "name.nickname", "contact.email", "contact.phone")
# the keys of a family a take-back covers ("work." every work key)
_FAMILY_KEYS = {"pets": "pets."}
# what an ending states rather than ends: a dislike or an avoidance is the denial itself
# ("其实我不喜欢榴莲"), and a person, a name or a contact is a value of its own
_STATED = (*_KEPT, "preference.dislikes", "diet.avoid")
# keys whose value says no new value of the user's (a keyless fact, a remark to the assistant
# such as "I prefer it now")
_NO_VALUE_SAID = (None, "assistant.constraint")


def _topic(text: str) -> str:
    """``values.KEY_TOPIC`` with the key the turn is about by the family classifier, or with
    none (then only what the turn names is taken back)."""
    guess = semantic.classify([text])[0]
    key = _FAMILY_KEYS.get(guess.family) or semantic.FAMILY_KEY.get(guess.family)
    if not guess.accepted or key is None or key in _KEPT:
        return KEY_TOPIC
    return f"{KEY_TOPIC}{key}"


def _take_back_record(turn: Turn, text: str) -> ExtractedFact:
    return ExtractedFact(
        type="fact",
        content=text[:CLASSIFY_MAX_CHARS],
        is_correction=True,
        message_ids=[turn.message_id],
        metadata={"retraction": True, "takes_back": True, "takes_back_topic": _topic(text)},
    )


def apply(turn: Turn, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """``facts`` of ``turn`` as the turn's act allows (see the module's docstring)."""
    text = turn.content.strip()
    if turn.role != "user" or not text:
        return facts
    acts = classify([text])
    if not acts:
        return facts
    act = acts[0]
    if act.act == "none" and act.probability >= VETO_NONE:
        # what withdraws is kept: a denial read as chatter still takes nothing new in
        return [f for f in facts if _withdraws(f)]
    if act.act == "changes" and act.probability >= CHANGE_MIN:
        if any(
            _withdraws(f) or f.metadata.get("moved") or (f.key is not None and f.is_correction)
            for f in facts
        ):
            return facts  # the rules read the change: they say what it replaces
        for f in facts:
            if f.key is not None and f.value:
                f.metadata["takes_back"] = True
        if any(f.key not in _NO_VALUE_SAID and f.value for f in facts):
            return facts
        # the new value was not read: what the previous turn said of the turn's family ends
        return [*facts, _take_back_record(turn, text)]
    if act.act == "ends" and act.probability >= END_MIN:
        for f in facts:
            if f.key is not None and f.key not in _STATED and f.value and not _withdraws(f):
                # "I was vegan for a year, not anymore": what it names ended, it is not stated
                f.retracts, f.value = [f.value.lower() if f.value.isascii() else f.value], None
                f.is_correction = True
                f.metadata = {"retraction": True}
        if not any(f.retracts or f.metadata.get("takes_back") for f in facts):
            return [*facts, _take_back_record(turn, text)]
    return facts
