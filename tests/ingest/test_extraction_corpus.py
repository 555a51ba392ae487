"""The extraction corpus (tests/data/extraction) is well-formed: every case has the fields of
its README, names only catalogue keys, has a unique id, and sits in the split its seeded hash
assigns. A test about the data, not about extraction quality (that is bench/extraction.py)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from app.arbitration.keys import CATALOGUE

CORPUS = Path(__file__).resolve().parents[1] / "data" / "extraction"
SEED = "memlane-extraction-corpus-1"  # tests/data/extraction/README.md
LANGS = {"en", "zh", "mixed"}
KINDS = {"single", "change", "addon", "negation", "nostore"}
TYPES = {"profile", "preference", "fact", "event", "constraint"}
FAMILY_KEYS = {
    "identity": {"name.full", "name.nickname", "identity.gender", "birthday", "age"},
    "secret": {"identity.document", "finance.card", "account.password"},
    "place": {"hometown", "residence.city"},
    "work": {"work.employer", "work.role", "work.location"},
    "education": {"education.school"},
    "taste": {"preference.drink", "preference.likes", "preference.dislikes"},
    "diet": {"diet.avoid", "diet.style"},
    "language": {"language.preferred"},
    "tech": {"tech.preferred"},
    "routine": {"schedule.habit"},
    "health": {"health.allergy", "health.condition"},
    "pets": {"pets.name", "pets.kind"},
    "family": {"family.member"},
    "contact": {"contact.email", "contact.phone"},
    "project": {"project.budget", "task.decision"},
    "plan": {"plan", "event"},
    "assistant": {"assistant.constraint"},
    "other": set(),
    "nostore": set(),
}
SPEC_LISTS = ("expected", "optional", "frozen", "still_active")


def load(split: str) -> list[dict[str, Any]]:
    lines = (CORPUS / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def in_test(case_id: str) -> bool:
    return int(hashlib.sha256((SEED + case_id).encode("utf-8")).hexdigest(), 16) % 100 < 50


@pytest.fixture(scope="module")
def splits() -> dict[str, list[dict[str, Any]]]:
    return {"dev": load("dev"), "test": load("test"), "dev2": load("dev2")}


def check_spec(spec: dict[str, Any], where: str) -> None:
    assert set(spec) <= {"type", "key", "value", "value_aliases"}, where
    assert spec["type"] in TYPES, where
    key = spec["key"]
    if key is not None:
        assert key in CATALOGUE, f"{where}: {key} is not in the key catalogue"
        assert spec["type"] == CATALOGUE[key].type, where
    assert isinstance(spec["value"], str) and spec["value"].strip(), where
    aliases = spec.get("value_aliases", [])
    assert isinstance(aliases, list) and all(isinstance(a, str) and a.strip() for a in aliases)


def test_every_case_has_the_documented_fields(splits: dict[str, list[dict[str, Any]]]) -> None:
    for split, cases in splits.items():
        for case in cases:
            where = f"{split}:{case.get('id')}"
            assert set(case) == {"id", "lang", "family", "kind", "turns", *SPEC_LISTS}, where
            assert case["lang"] in LANGS, where
            assert case["kind"] in KINDS, where
            assert case["family"] in FAMILY_KEYS, where
            turns = case["turns"]
            assert turns and all(isinstance(t, str) and t.strip() for t in turns), where
            assert len(turns) <= 3, where
            if case["kind"] == "single":
                assert len(turns) == 1, where
            if case["kind"] in ("change", "addon"):
                assert len(turns) >= 2, where
            if len(turns) == 1:
                assert not case["frozen"] and not case["still_active"], where
            for name in SPEC_LISTS:
                for spec in case[name]:
                    check_spec(spec, f"{where}.{name}")
            for spec in case["still_active"]:
                assert spec in case["expected"], f"{where}: still_active not in expected"
            if case["kind"] == "nostore" and len(turns) == 1:
                assert not case["expected"], where
            keys = {s["key"] for s in case["expected"] + case["frozen"] if s["key"]}
            if case["family"] not in ("other", "nostore") and case["kind"] not in (
                "nostore",
                "negation",
            ):
                assert keys, f"{where}: labels nothing"


def test_ids_are_unique_and_derived_from_the_turns(
    splits: dict[str, list[dict[str, Any]]],
) -> None:
    cases = splits["dev"] + splits["test"] + splits["dev2"]
    ids = Counter(c["id"] for c in cases)
    assert [i for i, n in ids.items() if n > 1] == []
    for c in cases:
        digest = hashlib.sha1("\n".join(c["turns"]).encode("utf-8")).hexdigest()[:8]
        assert c["id"] == f"{c['lang']}-{c['kind']}-{c['family']}-{digest}"


def test_split_assignment_is_reproducible_from_the_seeded_hash(
    splits: dict[str, list[dict[str, Any]]],
) -> None:
    assert [c["id"] for c in splits["dev"] if in_test(c["id"])] == []
    assert [c["id"] for c in splits["test"] if not in_test(c["id"])] == []


def test_both_splits_hold_every_language_and_family(
    splits: dict[str, list[dict[str, Any]]],
) -> None:
    for split, cases in splits.items():
        assert len(cases) >= 200, split
        assert {c["lang"] for c in cases} == LANGS, split
        assert {c["family"] for c in cases} == set(FAMILY_KEYS), split
        assert {c["kind"] for c in cases} == KINDS, split
    everything = splits["dev"] + splits["test"]
    assert len(everything) >= 440
    assert sum(len(c["turns"]) > 1 for c in everything) >= 130
    langs = Counter(c["lang"] for c in everything)
    assert abs(langs["en"] - langs["zh"]) <= 0.1 * len(everything)


def test_every_catalogue_key_is_labelled_somewhere(
    splits: dict[str, list[dict[str, Any]]],
) -> None:
    labelled = {
        s["key"]
        for c in splits["dev"] + splits["test"]
        for name in ("expected", "frozen")
        for s in c[name]
        if s["key"]
    }
    assert set(CATALOGUE) - labelled == set()
