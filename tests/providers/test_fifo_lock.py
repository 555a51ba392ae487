"""The local embedder's call lock serves waiting calls in arrival order: a thread that releases
it and asks again at once (a long batch) does not get it back before the others."""

from __future__ import annotations

import threading
import time

from app.providers.embeddings import FifoLock


def wait_for(predicate: object, limit_s: float = 10.0) -> None:
    # A guard against a hang, not a timing claim.
    deadline = time.monotonic() + limit_s
    while not predicate():  # type: ignore[operator]
        assert time.monotonic() < deadline, "threads did not reach the lock"
        time.sleep(0.001)


def test_a_batch_releasing_and_asking_again_waits_behind_the_others() -> None:
    lock = FifoLock()
    order: list[str] = []
    lock.__enter__()  # the batch's first call holds the lock

    def call(name: str) -> None:
        with lock:
            order.append(name)

    others = [threading.Thread(target=call, args=(n,)) for n in ("write-1", "write-2")]
    for i, t in enumerate(others):
        t.start()
        wait_for(lambda i=i: lock.waiting == i + 2)
    # The batch ends its call and asks at once for the next one.
    batch = threading.Thread(target=call, args=("batch-next",))
    lock.__exit__(None, None, None)
    batch.start()
    for t in [*others, batch]:
        t.join(10)
    assert order == ["write-1", "write-2", "batch-next"]
