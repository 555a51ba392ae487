"""Meaning-level comparison of values within one key, before the arbitration rules run.

Two checks the rules of ``ArbitrationService.apply`` cannot make from strings alone:

- **Same value, other spelling.** "ORG1" and "ORG1 in 2015", "Pied Piper" and "pied piper.",
  "the Ocean" and "ocean" are one value: the candidate takes the stored spelling, so rule 1
  (duplicate) refreshes the memory instead of storing a second one.
- **A switch replaces.** A fact marked ``metadata["replaces"]`` by the extractor ("我改用Go了",
  "switched to Svelte", for keys such as ``tech.preferred``) retracts the key's other active
  values: the new one took their place.
- **One favourite per category.** "my favourite football player is X" then "… is Y": a
  favourite (``metadata["category"]``, set by the extractor) replaces the earlier favourite of
  the same category, although ``preference.likes`` holds many values: the earlier value is
  retracted, so rule 2 (user correction) freezes it.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.arbitration.service import Candidate, MemoryStore

_DATE_TAIL = re.compile(
    r"(?:\s*,?\s*(?:in|since|back in|class of|from)\s+(?:19|20)\d\d\b.*"
    r"|\s*[，,]?\s*(?:19|20)?\d\d(?:年|届).*)$",
    re.I,
)
_ARTICLE = re.compile(r"^(?:the|a|an|my|our)\s+", re.I)
_PUNCT = re.compile(r"[\s\"'“”‘’「」《》()（）.,，。!！?？~～:：;；-]+")


def normalize_value(value: str) -> str:
    """The comparable form of a value: NFKC, lower case, a trailing date ("in 2015", "2012届")
    and a leading article dropped, punctuation and white space removed. ``""`` for nothing."""
    text = unicodedata.normalize("NFKC", value).strip()
    text = _DATE_TAIL.sub("", text)
    text = _ARTICLE.sub("", text)
    return _PUNCT.sub("", text).lower()


async def resolve(repo: MemoryStore, cand: Candidate) -> None:
    """Align ``cand`` with the user's active memories of its key, in place.

    - an active memory of the same key whose value is the same after ``normalize_value``
      lends its spelling to ``cand.value`` (the duplicate rule then refreshes it);
    - a switch (``cand.metadata["replaces"]``) retracts every other active value of the key,
      and a favourite (``cand.metadata["category"]``) the active favourites of the same
      category; either becomes a correction.

    Reads with ``repo.active_with_keys`` (rows locked for update, as arbitration does next).
    """
    if cand.key is None or cand.value is None or cand.type == "constraint":
        return
    olds = await repo.active_with_keys([cand.key], cand.scope, cand.scope_id)
    mine = normalize_value(cand.value)
    for old in olds:
        if old.value is not None and normalize_value(old.value) == mine and mine:
            cand.value = old.value
            return
    if (cand.metadata or {}).get("replaces"):
        stale = [old.value for old in olds if old.value is not None]
    else:
        category = (cand.metadata or {}).get("category")
        if not category:
            return
        stale = [
            old.value
            for old in olds
            if old.value is not None and (old.metadata_ or {}).get("category") == category
        ]
    if stale:
        cand.is_correction = True
        cand.retracts = list(dict.fromkeys([*cand.retracts, *stale]))
