"""The full-text side of recall (app/recall/text.py): what a memory is found by, and a bound
that keeps every memory's terms inside the covering index ix_memories_text."""

from __future__ import annotations

import subprocess
import sys
import uuid
from typing import Any

from sqlalchemy import func, select

from app.db.models import Memory
from app.recall.text import MAX_TSV_BYTES, search_text, terms
from tests.conftest import TenantCtx
from tests.recall.support import ranked

# 2,600 distinct CJK characters, one per term: the densest tsvector a text can make.
DENSE_CJK = " ".join(chr(0x4E00 + i) for i in range(2600))


async def _text_ranked(app: Any, tenant: TenantCtx, terms: list[str]) -> list[str]:
    rows = await ranked(app, tenant, terms, mode="text", top_k=5)
    return [r.memory.content for r in rows]


async def test_a_memory_of_any_length_is_stored_and_found_by_its_first_words(
    tenant: TenantCtx, app: Any
) -> None:
    long_words = " ".join(f"{'x' * 40}{i:04d}" for i in range(150))
    for content in (DENSE_CJK, f"Zanzibar trip notes: {long_words} the very last word is okapi"):
        assert len(content) <= 8000
        await tenant.remember("u", content, type="fact")
    rt = app.state.memlane
    async with rt.scoped(uuid.UUID(tenant.id), "u") as session:
        sizes = (await session.execute(select(func.pg_column_size(Memory.tsv)))).scalars().all()
    assert len(sizes) == 2 and max(sizes) <= MAX_TSV_BYTES
    [found] = await _text_ranked(app, tenant, ["zanzibar"])
    assert found.startswith("Zanzibar trip notes")
    # past the bound, a word is found by the memory's embedding only
    assert await _text_ranked(app, tenant, ["okapi"]) == []
    assert await _text_ranked(app, tenant, [chr(0x4E00)]) == [DENSE_CJK]


def test_search_text_keeps_leading_terms_in_order() -> None:
    assert search_text("I moved to Lisbon in 2021, and I love Lisbon") == (
        "moved lisbon 2021 love lisbon"
    )
    kept = search_text(DENSE_CJK).split()
    assert 0 < len(kept) < 2600 and kept == terms(DENSE_CJK)[: len(kept)]


def test_a_text_is_cut_into_the_same_terms_whatever_ran_first_in_the_process() -> None:
    """One jieba dictionary per process: a memory indexed before the extractor first ran is
    cut as a query after it is ("燕麦拿铁" keeps 拿铁, a word the extractor's tagger adds)."""
    script = (
        "from app.recall.text import terms\n"
        "from app.ingest.extraction import segment\n"
        "before = terms('我每天早上喝燕麦拿铁')\n"
        "segment.tag('我在京东上班')\n"
        "print(before == terms('我每天早上喝燕麦拿铁'), '拿铁' in before)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.split() == ["True", "True"], done.stdout + done.stderr
