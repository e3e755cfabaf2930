"""Race files: one CSV row per race with who sat where, and names that carry track and seed."""

from __future__ import annotations

import csv
import io

import pytest

from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.options import RaceOptions
from trackkit.games.yummell.core.presets import load_preset
from trackkit.report.export import download_name, races_csv, track_slug
from trackkit.sim import montecarlo
from trackkit.sim.montecarlo import simulate


def test_file_names_carry_the_track_and_the_seed() -> None:
    assert download_name(load_preset("king-of-toads"), 0, "races", "csv") == (
        "king-of-toads-seed-0-races.csv"
    )
    mine = Track("My Swampy Loop!", load_preset("first-run").placements)
    assert download_name(mine, 12, "results", "json") == "my-swampy-loop-seed-12-results.json"
    assert track_slug(Track("???", load_preset("first-run").placements)) == "track"


def test_the_csv_names_the_character_in_every_seat() -> None:
    options = RaceOptions(players=3, characters=("The Troll", "Character 4", "Character 5"))
    result = simulate(load_preset("first-run"), options, races=300, seed=5)
    rows = list(csv.DictReader(io.StringIO(races_csv(result))))
    assert len(rows) == 300
    assert [rows[0][f"seat {s} character"] for s in (1, 2, 3)] == list(options.characters)
    for i, row in enumerate(rows):
        assert int(row["rounds"]) == result.rounds[i]
        placings = [int(row[f"seat {s} placing"]) for s in (1, 2, 3)]
        assert placings == list(result.placing[i])
        assert {row[f"seat {s} start path"] for s in (1, 2, 3)} <= {"A", "B", "C", ""}


def test_dealt_characters_and_advantages_are_named_as_dealt() -> None:
    result = simulate(load_preset("first-run"), RaceOptions(players=2), races=50, seed=9)
    rows = list(csv.DictReader(io.StringIO(races_csv(result))))
    names = result.options.content.character_names
    advantages = result.options.content.advantage_names
    for i, row in enumerate(rows):
        assert row["seat 2 character"] == names[result.column("character")[i, 1]]
        assert row["seat 1 advantage"] == advantages[result.column("advantage")[i, 0]]


def test_a_long_run_writes_the_rows_it_keeps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(montecarlo, "KEEP_RACES", 250)  # one batch of rows, as for huge runs
    result = simulate(load_preset("first-run"), RaceOptions(players=2), races=600, seed=4)
    rows = list(csv.DictReader(io.StringIO(races_csv(result))))
    assert result.races == 600
    assert len(rows) == result.rounds.shape[0] < 600
    assert [int(r["race"]) for r in rows] == list(range(len(rows)))
