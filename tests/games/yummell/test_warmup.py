"""Compiling the engine ahead of the first race: detected, started once, reported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from trackkit.games.yummell.core import warmup


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """No warm-up started yet in this process."""
    monkeypatch.setattr(warmup, "_current", None)


def _compiled_in_new_process(cache: Path | None = None) -> str:
    """engine_compiled() in a new process (whose numba cache is ``cache`` if given)."""
    code = (
        "from trackkit.games.yummell.core.warmup import engine_compiled; print(engine_compiled())"
    )
    env = dict(os.environ)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_a_cold_cache_is_reported_as_not_compiled(tmp_path: Path) -> None:
    assert _compiled_in_new_process(tmp_path) == "False"


def test_the_warm_up_compiles_the_engine_once(fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # seen as cold by this process, so the child really runs (compiling if it must)
    compiled = warmup.engine_compiled
    monkeypatch.setattr(warmup, "engine_compiled", lambda: False)
    first = warmup.start_warmup()
    assert warmup.start_warmup() is first  # one warm-up per process, however many callers
    assert first.wait(timeout=900)
    assert first.error is None and first.elapsed > 0
    monkeypatch.setattr(warmup, "engine_compiled", compiled)
    # the compiled engine is in numba's cache: a new process sees it without compiling
    assert _compiled_in_new_process() == "True"
    # compiled, a later warm-up is finished at once
    monkeypatch.setattr(warmup, "_current", None)
    again = warmup.start_warmup()
    assert again.done and again.elapsed == 0


def test_a_failed_warm_up_says_why(fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(warmup, "engine_compiled", lambda: False)
    monkeypatch.setattr(
        warmup, "COMMAND", (sys.executable, "-c", "raise SystemExit('no compiler here')")
    )
    status = warmup.start_warmup()
    assert status.wait(timeout=60)
    assert status.error is not None and "no compiler here" in status.error
    # a failed warm-up is not retried on every race: the race itself compiles then
    assert warmup.start_warmup() is status


def test_the_message_counts_the_seconds(fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    status = warmup.Warmup(started=100.0)
    monkeypatch.setattr(warmup.time, "monotonic", lambda: 137.4)
    assert status.message() == "Compiling the race engine (once per machine): 37 s…"
    status.finished = 112.0
    assert status.elapsed == 12.0
