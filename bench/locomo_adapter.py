"""The LoCoMo harness' ``add`` / ``search`` pair, over Memlane's real HTTP API.

Used by ``bench/locomo.py`` (see docs/benchmarks.md). One LoCoMo conversation is one Memlane
user. Two ways to ingest a turn:

- ``raw`` — the turn as it is: ``POST …/memories`` with ``infer=false``, ``type=fact``,
  ``occurred_at`` = the session's time, the harness' metadata (``dia_id``, ``sample_id``, …)
  as the memory's metadata.
- ``infer`` — the turn as a conversation message: ``POST …/sessions/session-<n>/messages``,
  role ``user``, the speaker as the message's ``name`` (the ``"<speaker>: "`` prefix kept in
  the text), the harness' metadata as the message's metadata. Every turn that is not only
  questions and small talk is kept as an ``episode`` memory carrying its message's metadata:
  an episode hit answers its own ``dia_id``. An extracted fact cites its turns in
  ``origin.message_ids``; the adapter maps those message ids back to ``dia_id``s (one turn
  per request, so each job names one turn; see ``_map_infer``).
  Both answer ``{"dia_ids": [...]}``, which the harness accepts.

Both post without ``?wait=true`` (one request per turn, answered 202 at once) and wait for all
of a user's jobs before the user's first search (``GET /v1/jobs/{id}``).

LoCoMo's session times carry no timezone; the adapter reads them as **UTC**. ``search`` asks
with ``at`` = the conversation's last session time: the questions are asked once the
conversation is over, so that is when an agent would recall — and it is the only moment for
which every turn is in the past. With ``at`` = now (years later) every turn would sit at its
type's floor and the decay would not be measured at all.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

import httpx

Ingest = Literal["raw", "infer"]
JOB_POLL_S = 0.25
JOB_TIMEOUT_S = 1800.0


def utc_iso(naive_iso: str) -> str:
    """``2023-05-08T13:56:00`` (LoCoMo, no timezone) -> ``2023-05-08T13:56:00+00:00``."""
    return datetime.fromisoformat(naive_iso).replace(tzinfo=UTC).isoformat()


@dataclass
class UserState:
    """What the adapter knows of one LoCoMo conversation (= one Memlane user)."""

    turns_sent: int = 0
    last_at: str | None = None
    pending: list[tuple[str, str]] = field(default_factory=list)  # (job id, dia_id)
    jobs: dict[str, str] = field(default_factory=dict)  # job id -> dia_id, done
    memory_dia_ids: dict[str, list[str]] = field(default_factory=dict)  # infer only
    ready: bool = False


class MemlaneLoCoMo:
    """``add`` and ``search`` for ``locomo_recall.evaluate`` against one tenant of a running
    Memlane. ``replay=True`` skips writes (the data dir already holds the turns, ingested by an
    earlier run with the same ``ingest``) and only searches; ``state`` then comes from that run.
    """

    def __init__(
        self,
        base_url: str,
        tenant_id: str,
        api_key: str,
        *,
        ingest: Ingest,
        expect_mode: str,
        state: dict[str, UserState] | None = None,
        replay: bool = False,
        log: Callable[[str], None] = print,
    ) -> None:
        self.http = httpx.Client(
            base_url=base_url, headers={"Authorization": f"Bearer {api_key}"}, timeout=120
        )
        self.tenant_id = tenant_id
        self.ingest = ingest
        self.expect_mode = expect_mode
        self.users: dict[str, UserState] = state if state is not None else defaultdict(UserState)
        self.replay = replay
        self.log = log
        self.stats: dict[str, Any] = defaultdict(int)
        self.mode_seen: dict[str, int] = defaultdict(int)

    def close(self) -> None:
        self.http.close()

    def _user(self, user_id: str) -> str:
        return f"/v1/tenants/{self.tenant_id}/users/{user_id}"

    # ------------------------------------------------------------------------------ write
    def add(self, user_id: str, text: str, metadata: dict[str, Any]) -> None:
        st = self.users[user_id]
        at = utc_iso(metadata["timestamp"])
        if st.last_at is None or at > st.last_at:
            st.last_at = at
        if self.replay:
            return
        dia_id = str(metadata["dia_id"])
        key = f"locomo-{self.ingest}-{metadata['sample_id']}-{dia_id}"
        if self.ingest == "raw":
            url = f"{self._user(user_id)}/memories"
            body: dict[str, Any] = {
                "content": text,
                "type": "fact",
                "occurred_at": at,
                "metadata": metadata,
                "infer": False,
            }
        else:
            url = f"{self._user(user_id)}/sessions/session-{metadata['session']}/messages"
            body = {
                "messages": [
                    {
                        "role": "user",
                        "name": metadata["speaker"],
                        "content": text,
                        "occurred_at": at,
                        "metadata": metadata,
                    }
                ]
            }
        r = self.http.post(url, json=body, headers={"Idempotency-Key": key})
        if r.status_code not in (201, 202):
            raise RuntimeError(f"POST {url} -> {r.status_code}: {r.text[:300]}")
        st.pending.append((r.json()["job_id"], dia_id))
        st.turns_sent += 1

    def flush(self, user_id: str) -> None:
        """Wait until every job of ``user_id`` is done (raise if one failed); for ``infer``,
        map the extracted memories to the turns they came from."""
        st = self.users[user_id]
        if st.ready:
            return
        started = time.monotonic()
        deadline = started + JOB_TIMEOUT_S
        results: dict[str, dict[str, Any]] = {}
        for job_id, dia_id in st.pending:
            while True:
                r = self.http.get(f"/v1/jobs/{job_id}")
                r.raise_for_status()
                job = r.json()
                if job["status"] == "done":
                    results[job_id] = job.get("result") or {}
                    st.jobs[job_id] = dia_id
                    break
                if job["status"] == "failed":
                    raise RuntimeError(f"job {job_id} ({dia_id}) failed: {job.get('error')}")
                if time.monotonic() > deadline:
                    raise TimeoutError(f"job {job_id} still {job['status']}")
                time.sleep(JOB_POLL_S)
        waited = time.monotonic() - started
        self.stats["job_wait_s"] += waited
        self.log(f"[{user_id}] {len(st.pending)} jobs done after {waited:.1f}s more")
        st.pending = []
        if self.ingest == "infer":
            self._map_infer(user_id, st, results)
        st.ready = True

    def _map_infer(self, user_id: str, st: UserState, results: dict[str, dict[str, Any]]) -> None:
        """memory id -> dia_ids of the turns it came from.

        Primary: the memory's ``origin.message_ids``. The API does not return the ids of the
        messages a request stored, so they are learnt from the memories themselves: a memory
        created by job J has ``origin.job_id`` = J and cites J's message first (refreshes by
        later turns append theirs). Any message id still unknown falls back to the turn of every
        job whose result lists the memory (each job carries exactly one turn)."""
        listed: dict[str, list[str]] = defaultdict(list)
        for job_id, res in results.items():
            for mid in res.get("memory_ids", []):
                listed[mid].append(st.jobs[job_id])
            self.stats["infer_episodes"] += len(res.get("episode_ids", []))
        memories = {}
        for mid in listed:
            r = self.http.get(f"{self._user(user_id)}/memories/{mid}")
            r.raise_for_status()
            memories[mid] = r.json()
        msg_dia: dict[str, str] = {}
        for m in memories.values():
            origin = m.get("origin") or {}
            ids = origin.get("message_ids") or []
            if ids and origin.get("job_id") in st.jobs:
                msg_dia[ids[0]] = st.jobs[origin["job_id"]]
        for mid, m in memories.items():
            ids = (m.get("origin") or {}).get("message_ids") or []
            known = [msg_dia[i] for i in ids if i in msg_dia]
            if ids and len(known) == len(ids):
                self.stats["infer_memories_mapped_by_origin"] += 1
                dias = known
            else:
                self.stats["infer_memories_mapped_by_job"] += 1
                dias = known + listed[mid]
            st.memory_dia_ids[mid] = list(dict.fromkeys(dias))
            self.stats[f"infer_memories_{m['status']}"] += 1
            self.stats[f"infer_type_{m['type']}"] += 1
        self.stats["infer_turns_yielding_memories"] += len(
            {d for dias in st.memory_dia_ids.values() for d in dias}
        )

    # ------------------------------------------------------------------------------ read
    def search(self, user_id: str, query: str, k: int) -> list[dict[str, Any]]:
        st = self.users[user_id]
        self.flush(user_id)
        body = {"query": query, "top_k": k, "at": st.last_at}
        r = self.http.post(f"{self._user(user_id)}/recall", json=body)
        if r.status_code != 200:
            raise RuntimeError(f"recall -> {r.status_code}: {r.text[:300]}")
        answer = r.json()
        self.mode_seen[answer["mode"]] += 1
        if answer["mode"] != self.expect_mode:
            # hybrid ranks by vector alone when the query has no full-text terms
            self.stats[f"recall_mode_{answer['mode']}_not_{self.expect_mode}"] += 1
        hits = answer["memories"]
        if self.ingest == "raw":
            return [h["metadata"] for h in hits]
        sample_id = user_id.removeprefix("locomo-")
        out = []
        for h in hits:
            if h["type"] == "episode":
                # An episode carries its message's metadata: its own turn.
                self.stats["infer_hits_episode"] += 1
                dias = [h["metadata"]["dia_id"]] if "dia_id" in h["metadata"] else []
            else:
                self.stats["infer_hits_fact"] += 1
                dias = st.memory_dia_ids.get(h["id"], [])
            out.append({"dia_ids": dias, "sample_id": h["metadata"].get("sample_id", sample_id)})
        return out
