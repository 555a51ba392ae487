"""Pick the extractor the settings ask for."""

from __future__ import annotations

from app.config import Settings
from app.ingest.extraction.base import Extractor


def build_extractor(settings: Settings) -> Extractor:
    """The rule-based extractor (offline default) or the LLM one (``MEMLANE_EXTRACTOR=llm``)."""
    if settings.extractor == "llm":
        from app.ingest.extraction.llm import LLMExtractor
        from app.providers.llm import ChatClient

        return LLMExtractor(ChatClient(settings))
    from app.ingest.extraction.rules import RuleExtractor

    return RuleExtractor()
