"""The kinds of queued jobs. Each domain registers the handler of its kinds
(``app.jobs.worker.handler``); the ones that enqueue a kind owned by another domain name it from
here, so no domain imports another to find a job name."""

from __future__ import annotations

WRITE = "memory.write"  # app/memories/tasks.py: one explicit write (infer=false)
WRITE_BATCH = "memory.write_batch"  # app/memories/tasks.py: a batch of explicit writes
INFER = "memory.infer"  # app/ingest/tasks.py: an explicit write with infer=true
INGEST = "messages.ingest"  # app/ingest/tasks.py: conversation turns through extraction
COMPRESS = "session.compress"  # app/ingest/window.py: fold old turns into the summary
