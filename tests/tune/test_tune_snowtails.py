"""``tune`` knows no game: on Snow Tails it moves the deck's counts of each card value
(entries told apart by their ``value``) and balances the start slots, whose labels grow
with the player count."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import numpy as np

from trackkit.games import get_ruleset
from trackkit.tune.plan import TuneSettings
from trackkit.tune.search import tune
from trackkit.tune.spec import parse_tune

SNOW = get_ruleset("snowtails")
TUNE = """
game = "snowtails"
content = "mine"

[balance]
tracks = ["husky-oval"]
players = [3, 4]
group = "slot"
races = 300

[targets]
win_share = 0.25
length_change = 0.5

[search]
budget = 3
confirm_races = 1000

[[move]]
file = "deck.toml"
key = "value"
entries = [1, 3]
field = "count"
low = 2
high = 6
"""


def test_a_snow_tails_deck_is_tuned_for_its_start_slots(tmp_path: Path) -> None:
    shutil.copytree(
        SNOW.content_folder(),
        tmp_path / "mine",
        ignore=shutil.ignore_patterns("*.py", "__pycache__"),
    )
    (tmp_path / "tune.toml").write_text(TUNE)
    spec = parse_tune(TUNE, str(tmp_path / "tune.toml"))
    result = tune(spec, tmp_path / "out", TuneSettings())
    assert [p.name for p in result.parameters] == [
        "deck / value 1 / count",
        "deck / value 3 / count",
    ]
    assert result.evaluated == 1 and result.met  # the bundled deck is within ±25 points
    after = result.confirmed_best
    assert after.labels == ("1", "2", "3", "4")
    # with 3 sleds the fourth slot is never raced: no figure, not a zero
    assert after.entries[0, 3] == 0 and np.isnan(after.deviations()[0, 3])
    assert not np.isnan(after.deviations()[1]).any()
    deck = tomllib.loads((tmp_path / "out/content/deck.toml").read_text())
    assert [v["count"] for v in deck["values"] if v["value"] in (1, 3)] == [4, 4]
    SNOW.load_content(tmp_path / "out/content")
