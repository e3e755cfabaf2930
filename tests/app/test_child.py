"""The small sweep in a process of its own (trackkit/app/child.py): its progress comes back,
a refusal comes back in one line, and a cancel stops the child."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from trackkit.app.child import run_small_sweep
from trackkit.errors import TrackkitError
from trackkit.explore.sweep import read_sweep, sweep_status


class Stop(Exception):
    pass


@pytest.mark.slow  # a sweep in a child process: about 3 s
def test_the_sweep_runs_in_a_child_and_reports_its_progress(tmp_path: Path) -> None:
    reports: list[tuple[int, int]] = []
    run_small_sweep(tmp_path / "s", 3, 20, 20, lambda done, total: reports.append((done, total)))
    assert read_sweep(tmp_path / "s").status.tracks_done == 20
    assert reports[-1] == (20, 20)
    assert [d for d, _ in reports] == sorted(d for d, _ in reports)


@pytest.mark.slow  # 1.2 s with the engines compiled (the quick loop's budget)
def test_a_refusal_in_the_child_comes_back_in_one_line(tmp_path: Path) -> None:
    taken = tmp_path / "a-file"
    taken.write_text("not a folder", "utf-8")
    with pytest.raises(TrackkitError) as refused:
        run_small_sweep(taken, 3, 20, 20, lambda done, total: None)
    message = str(refused.value)
    assert message and "\n" not in message and "Traceback" not in message


@pytest.mark.slow  # a sweep in a child process: about 3 s
def test_a_cancel_stops_the_child(tmp_path: Path) -> None:
    calls: list[float] = []

    def cancel_soon(done: int, total: int) -> None:
        calls.append(time.perf_counter())
        if len(calls) > 4:  # a second or so in: before a 300-track sweep ends
            raise Stop

    started = time.perf_counter()
    with pytest.raises(Stop):
        run_small_sweep(tmp_path / "s", 4, 300, 100, cancel_soon)
    assert time.perf_counter() - started < 30
    written = sweep_status(tmp_path / "s").tracks_done if (tmp_path / "s").exists() else 0
    time.sleep(2)  # a child still running would write more parts meanwhile
    after = sweep_status(tmp_path / "s").tracks_done if (tmp_path / "s").exists() else 0
    assert after == written < 300
