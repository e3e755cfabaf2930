"""Snow Tails' pages in the app: its Design page and the hooks it adds to the shared Race
page (where sleds collide, the sample race on the board) and Compare page."""

from __future__ import annotations

from trackkit.app.game_pages import GamePages, Page
from trackkit.app.games.snowtails import compare, design, race
from trackkit.games.snowtails.core.ruleset import RULESET

PAGES = GamePages(
    game=RULESET.name,
    pages=(Page("Snow Tails design", ":material/ac_unit:", "snow-design", design.page),),
    race_view=race.VIEW,
    compare_view=compare.VIEW,
)
