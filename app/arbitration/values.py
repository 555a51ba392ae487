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
- **Instead of.** A fact stated "instead of" another value ("his name is Max, not Milo", "我叫
  小虹，不是小红", ``metadata["instead_of"]`` set by the extractor) retracts the active values of
  its own key that the other value names; never a value of another key, so "my wife works at
  Microsoft, not Google" leaves the user's own employer alone.
- **Taken back.** "I take that back", "说错了，我说的是我妈" with nothing of the user's in its place
  (``metadata["takes_back_message"]``, the user's previous turn, named by the ingest job):
  the memories formed from that turn are withdrawn.
- **A changed taste of the same thing.** A liking stated with a change cue ("I prefer aisle
  seats now" after "window seats", "现在喜欢靠过道的座位", marked ``metadata["changed"]`` by
  the extractor) replaces the active values of its key that name the same thing — the same
  head word (Latin: the last word; Chinese: the last two characters) with other modifiers.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.arbitration.service import Candidate, MemoryStore
    from app.db.models import Memory

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
    taken = (cand.metadata or {}).pop("takes_back_message", None)
    topic = (cand.metadata or {}).pop("takes_back_topic", None)
    if taken:
        # "I take that back": what the user's previous turn formed is withdrawn
        formed = await repo.active_formed_from(str(taken), first=True, for_update=True)
        cand.retract_ids += [m.id for m in _taken_back(formed, cand.content, topic)]
        cand.is_correction = True
    if cand.is_correction and cand.retracts and cand.type != "constraint":
        await _widen_retracts(repo, cand)
    await _duty_beside_role(repo, cand)
    if cand.key is None or cand.value is None or cand.type == "constraint":
        return
    olds = await repo.active_with_keys([cand.key], cand.scope, cand.scope_id)
    mine = normalize_value(cand.value)
    for old in olds:
        if old.value is not None and normalize_value(old.value) == mine and mine:
            cand.value = old.value
            return
    # what the fact stands instead of: read here, never stored with it
    instead = (cand.metadata or {}).pop("instead_of", None) or []
    said_now = set((cand.origin or {}).get("message_ids") or [])
    replaced = [
        old.value
        for old in olds
        if old.value is not None
        and not said_now & set((old.origin or {}).get("message_ids") or [])  # this very turn
        and any(_mentions(y, old.value) or _mentions(old.value, y) for y in instead)
    ]
    if replaced:
        cand.is_correction = True
        cand.retracts = list(dict.fromkeys([*cand.retracts, *replaced]))
    if (cand.metadata or {}).get("replaces"):
        stale = [old.value for old in olds if old.value is not None]
    elif (cand.metadata or {}).get("changed"):
        stale = [
            old.value for old in olds if old.value is not None and same_head(old.value, cand.value)
        ]
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


# what "forget what I said about my job" names, by the keys it covers
_TOPIC_KEYS = {
    "job": "work.", "work": "work.", "career": "work.", "name": "name.", "number": "contact.",
    "phone": "contact.", "email": "contact.", "diet": "diet.", "pet": "pets.", "pets": "pets.",
    "dog": "pets.", "cat": "pets.", "age": "age", "birthday": "birthday", "school": "education.",
    "family": "family.", "allergy": "health.", "health": "health.", "drink": "preference.drink",
}  # fmt: skip


def _taken_back(formed: list[Memory], said: str, topic: str | None) -> list[Memory]:
    """Which of the memories the previous turn ``formed`` a take-back withdraws: those whose
    value it names ("说错了，我妈是老师" → 老师); else those of the topic it names ("forget
    what I said about my job" → the work keys, or the memories whose words hold it); else all
    of them ("I take that back")."""
    named = [m for m in formed if m.value and _mentions(m.value, said)]
    if named:
        return named
    if topic:
        prefix = _TOPIC_KEYS.get(topic.split()[-1])
        return [
            m
            for m in formed
            if (prefix and (m.key or "").startswith(prefix)) or _names(topic, m.content)
        ]
    return formed


def _head(value: str) -> str:
    text = unicodedata.normalize("NFKC", value).lower().strip()
    if text.isascii():
        words = _WORD.findall(text)
        return re.sub(r"(?<=[a-z]{3})s$", "", words[-1]) if words else ""
    han = re.sub(r"[^\u4e00-\u9fff]", "", text)
    return han[-2:] if len(han) >= 3 else ""


def same_head(a: str, b: str) -> bool:
    """True if ``a`` and ``b`` are two kinds of one thing: different values with the same head
    ("window seats" / "aisle seats", "靠窗的座位" / "靠过道的座位"). A one-word value has no
    modifier to differ by, so it names no kind ("jazz" / "jazz" is a duplicate, not a kind)."""
    if normalize_value(a) == normalize_value(b):
        return False
    ha, hb = _head(a), _head(b)
    if not ha or ha != hb:
        return False
    return len(normalize_value(a)) > len(ha) and len(normalize_value(b)) > len(hb)


# keys whose value is a thing the user can give up: a retraction may name it in fewer words
# than it was stored with ("不用 Windows 了" withdraws "Windows 开发", "quit cola" withdraws
# "每天都喝可乐", "对综艺没兴趣了" withdraws "看综艺")
_GIVEN_UP_KEYS = (
    "preference.likes", "preference.drink", "preference.dislikes", "diet.avoid", "diet.style",
    "tech.preferred", "schedule.habit", "health.condition", "work.employer", "work.role",
)  # fmt: skip
# ... and the keys whose values such a statement may name in fewer words ("the Japan trip is
# off" names the plan "Japan in April"); a plan or an event itself widens nothing ("we had to
# put Biscuit down" freezes the dog, not "loves biscuits with tea")
_NAMED_BY_RETRACTION = (
    *_GIVEN_UP_KEYS, "plan", "event", "task.decision", "pets.name", "language.preferred",
)  # fmt: skip
# words that only say what kind of thing ended ("the Japan trip is off", "MongoDB 的方案"):
# the rest of the words name it
_KIND_WORDS = frozenset(("trip", "plan", "plans", "thing", "idea", "one", "stuff", "project"))
_WORD = re.compile(r"[a-z0-9]+")


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _names(part: str, whole: str) -> bool:
    """True if normalised ``part`` is a word of ``whole`` (Latin: whole words; Chinese: a
    substring of at least two characters)."""
    p, w = normalize_value(part), normalize_value(whole)
    if not p or p == w:
        return False
    if p.isascii():
        words = _WORD.findall(unicodedata.normalize("NFKC", whole).lower())
        stems = {_stem(w) for w in words}
        # a plural names the thing too: "thrillers" is a word of "thriller novels"
        if len(p) >= 3 and (p in words or _stem(p) in stems):
            return True
        # "Japan trip" names "Japan in April": its words but the kind of thing (only then: "New
        # York" given up is not "New York pizza")
        words_of_part = _WORD.findall(part.lower())
        named = [x for x in words_of_part if x not in _KIND_WORDS]
        return (
            0 < len(named) < len(words_of_part)
            and len("".join(named)) >= 3
            and {_stem(x) for x in named} <= stems
        )
    return len(p) >= 2 and p in w


async def _duty_beside_role(repo: MemoryStore, cand: Candidate) -> None:
    """A duty the extractor read as a role (``metadata["duty"]``: "I look after the payroll
    there", "我在单位负责招人") is the role only while the user has none: beside an active role
    of another value, and with nothing said to have changed, it is kept as a fact with no key,
    so the role (single-valued) is not replaced by it."""
    if cand.key != "work.role" or not (cand.metadata or {}).pop("duty", None):
        return
    if cand.is_correction or cand.value is None:
        return
    olds = await repo.active_with_keys(["work.role"], cand.scope, cand.scope_id)
    mine = normalize_value(cand.value)
    if any(o.value is not None and normalize_value(o.value) != mine for o in olds):
        cand.key, cand.value = None, None
        cand.metadata["added_duty"] = True


def _doer(word: str) -> str:
    """The stem shared by a work's activity and its doer: "teaching"/"teacher" → "teach",
    "nursing"/"nurse" → "nurs", "bartending"/"bartender" → "bartend"."""
    for suffix in ("ing", "er", "or", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def names_work(activity: str, role: str) -> bool:
    """True if a work given up by its activity names a role: "teaching" names "5th grade
    teacher", "nursing" names "nurse" (Latin, one word ending in -ing; the role's last word)."""
    act = activity.strip().lower()
    words = _WORD.findall(unicodedata.normalize("NFKC", role).lower())
    if not re.fullmatch(r"[a-z]{4,}ing", act) or not words:
        return False
    return _doer(act) == _doer(words[-1])


def _mentions(part: str, whole: str) -> bool:
    """True if ``part`` names ``whole`` or a run of its words ("window seats" in "window seats on
    flights", plurals folded; Chinese: a substring of at least two characters)."""
    p, w = normalize_value(part), normalize_value(whole)
    if not p:
        return False
    if p == w:
        return True
    if not p.isascii():
        return len(p) >= 2 and p in w
    pw = [_stem(x) for x in _WORD.findall(unicodedata.normalize("NFKC", part).lower())]
    ww = [_stem(x) for x in _WORD.findall(unicodedata.normalize("NFKC", whole).lower())]
    n = len(pw)
    return n > 0 and any(ww[i : i + n] == pw for i in range(len(ww) - n + 1)) and len(p) >= 3


async def _widen_retracts(repo: MemoryStore, cand: Candidate) -> None:
    """Add to ``cand.retracts`` the active values of the given-up keys that a retracted value
    names in fewer words, so arbitration's exact-value match freezes them too — when the
    candidate itself states something given up (its key, if any, is one of them, or it has
    none): a move "from Leeds to York" retracts the place, not every value that names Leeds
    ("teacher in Leeds")."""
    if cand.key is not None and cand.key not in _GIVEN_UP_KEYS:
        return
    olds = await repo.active_with_keys(list(_NAMED_BY_RETRACTION), cand.scope, cand.scope_id)
    more = [
        old.value
        for old in olds
        if old.value is not None
        and old.value != cand.value
        and any(
            r and (_names(r, old.value) or (old.key == "work.role" and names_work(r, old.value)))
            for r in cand.retracts
        )
    ]
    if more:
        cand.retracts = list(dict.fromkeys([*cand.retracts, *more]))
    # a fact with no key has no value to match: its words name it ("drives a 2012 Honda Civic")
    cand.retract_ids += [
        old.id
        for old in await repo.active_keyless(cand.scope, cand.scope_id)
        if any(r and _names(r, old.content) for r in cand.retracts)
    ]
