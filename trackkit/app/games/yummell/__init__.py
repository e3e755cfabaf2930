"""Yummell's pages in the app: its own (Design, Tiles) and the hooks it adds to the shared
Race page (the verdict, fairness tables, heat map and replay) and Compare page."""

from __future__ import annotations

from trackkit.app.game_pages import GamePages, Page
from trackkit.app.games.yummell import compare, design, race, tiles
from trackkit.games.yummell.core.ruleset import RULESET

PAGES = GamePages(
    game=RULESET.name,
    pages=(
        Page("Design", ":material/extension:", "design", design.page),
        Page("Tiles", ":material/grid_view:", "tiles", tiles.page, last=True),
    ),
    race_view=race.VIEW,
    compare_view=compare.VIEW,
)
