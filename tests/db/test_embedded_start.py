"""Waiting for a slow embedded server: ready is what its postmaster.pid says, line 8."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.db.embedded import _ready

LINES = ["4242", "/data/pgdata", "1733467200", "5432", "/tmp", "", "  5432001    65536"]


@pytest.mark.parametrize(("status", "ready"), [("ready", True), ("starting", False)])
def test_ready_is_the_status_line_of_postmaster_pid(
    tmp_path: Path, status: str, ready: bool
) -> None:
    (tmp_path / "postmaster.pid").write_text("\n".join([*LINES, status]) + "\n")
    assert _ready(tmp_path) is ready


def test_no_postmaster_pid_or_a_short_one_is_not_ready(tmp_path: Path) -> None:
    assert _ready(tmp_path) is False
    (tmp_path / "postmaster.pid").write_text("4242\n")
    assert _ready(tmp_path) is False
