"""A game's own pages in the app, and the hooks it adds to the shared Race and Compare pages.

Each game that has pages of its own keeps them in a package of its own under
``trackkit/app/games/`` (the game's folder under ``trackkit/games/`` holds its rules and its
face), whose ``PAGES`` is a :class:`GamePages`; :mod:`trackkit.app.games` lists them,
imported as any module is. A game without such a package gets the shared pages alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from trackkit.app.compare_page import CompareView
from trackkit.app.race_page import RaceView


@dataclass(frozen=True)
class Page:
    """A page of a game's own (its track editor, a gallery): its ``title`` in the
    navigation, an ``icon`` (``:material/NAME:``), its address ``path`` and ``draw``, the
    function that draws it. A ``last`` page comes after the shared pages (a reference)."""

    title: str
    icon: str
    path: str
    draw: Callable[[], None]
    last: bool = False


@dataclass(frozen=True)
class GamePages:
    """What ``game`` adds to the app: its own ``pages``, and the hooks its Race and
    Compare pages take (``race_view``, ``compare_view``; the defaults add none)."""

    game: str
    pages: tuple[Page, ...] = ()
    race_view: RaceView = field(default_factory=RaceView)
    compare_view: CompareView = field(default_factory=CompareView)
