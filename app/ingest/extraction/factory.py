"""Pick the extractor the settings ask for."""

from __future__ import annotations

from app.config import Settings
from app.ingest.extraction.base import Extractor


def build_extractor(settings: Settings) -> Extractor:
    """The rule-based extractor (offline default), the LLM one (``MEMLANE_EXTRACTOR=llm``) or
    the rules with the LLM for the turns they cannot read (``cascade``)."""
    from app.ingest.extraction.rules import RuleExtractor

    if settings.extractor == "rules":
        return RuleExtractor()
    from app.ingest.extraction.llm import LLMExtractor
    from app.providers.llm import ChatClient

    llm = LLMExtractor(ChatClient(settings))
    if settings.extractor == "llm":
        return llm
    from app.ingest.extraction.cascade import CascadeExtractor

    return CascadeExtractor(RuleExtractor(), llm)
