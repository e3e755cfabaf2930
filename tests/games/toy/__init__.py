"""A toy third game, registered only in the tests (:func:`registered`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

PACKAGE = "tests.games.toy"


def register() -> None:
    """Put the toy game in trackkit's registry (a game's one entry in ``KNOWN``)."""
    from trackkit.games import base

    base.KNOWN["toy"] = PACKAGE


@contextmanager
def registered() -> Iterator[None]:
    """The toy game in trackkit's registry while the block runs."""
    from trackkit.games import base, face

    register()
    try:
        yield
    finally:
        del base.KNOWN["toy"]
        base._LOADED.pop("toy", None)
        face._FACES.pop("toy", None)
