"""A time limit for a test step that could hang (a read of a named pipe, a run that never
ends): the step fails instead of stalling the suite."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from typing import Any


class Hung(BaseException):
    """Raised in a step that ran too long. Not an Exception: the code under test must not be
    able to catch it and pass for a clean refusal."""


@contextlib.contextmanager
def within(seconds: int) -> Iterator[None]:
    """Fail with :class:`Hung` once the block has run ``seconds`` (main thread only)."""

    def stop(*_: Any) -> None:
        raise Hung(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
