"""Each game's own pages in the app, a package per game (:mod:`trackkit.app.game_pages`).

A new game with pages of its own adds its package here; a game without gets the shared
pages alone.
"""

from __future__ import annotations

from trackkit.app.game_pages import GamePages
from trackkit.app.games import snowtails, yummell

GAME_PAGES: dict[str, GamePages] = {p.game: p for p in (yummell.PAGES, snowtails.PAGES)}


def pages_of(game: str) -> GamePages:
    """What ``game`` adds to the app (nothing, for a game without pages of its own)."""
    return GAME_PAGES.get(game) or GamePages(game)
