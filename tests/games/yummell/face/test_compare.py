"""Tracks side by side: the ranked rows as data and as the tables ``trackkit compare``
prints, and the rows built from profiles raced with one seed (common random numbers)."""

from __future__ import annotations

import json
import math

import pytest

import trackkit.games.yummell.face.compare as compare
from trackkit.errors import TrackkitError
from trackkit.explore.profile import ProfileSettings, profile_track
from trackkit.games.yummell.core.options import RaceOptions
from trackkit.games.yummell.core.presets import load_preset
from trackkit.games.yummell.face.compare import (
    Solved,
    TrackFigures,
    compare_summary,
    compare_text,
    compare_tracks,
)


def _row(rank: int, name: str, mean: float, balance: float = 0.95) -> TrackFigures:
    return TrackFigures(
        key=name.lower(),
        name=name,
        squares=30,
        mp=45,
        mp_per_square=1.5,
        terrain_mix={"plain": 0.5, "woods": 0.25, "hills": 0.125, "swamp": 0.125},
        exact_solo_rounds=9.876,
        mean_rounds=mean,
        ci95=(mean - 0.1, mean + 0.1),
        unfairness=4.2,
        unfairness_low=3.1,
        unfairness_high=5.0,
        unfairness_character=3.0,
        unfairness_start=2.9,
        balance=balance,
        balance_low=balance - 0.02,
        balance_high=balance + 0.01,
        character_tilt=0.061,
        character_tilt_low=0.032,
        character_tilt_high=0.088,
        tilted_character="Character 5",
        tilted_difference=-0.061,
        tilted_low=-0.088,
        tilted_high=-0.032,
        path_spread=0.55,
        path_rounds={"A": 9.876, "B": 10.426, "C": 10.1},
        character_rounds_spread=math.nan,
        rank=rank,
    )


ROWS = [_row(1, "A very long track name that runs past the column", 14.5), _row(2, "Short", 9.25)]


def test_compare_summary_is_json_with_the_intervals_and_the_fairness_figures() -> None:
    data = json.loads(json.dumps(compare_summary(ROWS)))
    tracks = data["tracks"]
    assert [row["rank"] for row in tracks] == [1, 2]
    assert tracks[1]["ci95"] == [9.15, 9.35]
    assert tracks[0]["terrain_mix"]["plain"] == 0.5
    row = tracks[0]
    assert [row["unfairness_low"], row["unfairness"], row["unfairness_high"]] == [3.1, 4.2, 5.0]
    assert row["tilted_low"] <= row["tilted_difference"] <= row["tilted_high"] < 0  # signed
    assert "paired" not in row
    assert data["orderings"] == []  # rows without races behind them: nothing is claimed
    assert [row["balance_low"], row["balance"], row["balance_high"]] == pytest.approx(
        [0.93, 0.95, 0.96]
    )
    assert row["character_tilt_low"] <= row["character_tilt"] <= row["character_tilt_high"]
    assert row["tilted_character"] == "Character 5" and row["tilted_difference"] == -0.061
    assert row["path_rounds"] == {"A": 9.876, "B": 10.426, "C": 10.1}
    assert row["path_spread"] == 0.55
    assert row["character_rounds_spread"] is None  # not solved: null, not NaN (not JSON)


def test_compare_text_ranks_the_rows_with_their_figures() -> None:
    lines = compare_text(ROWS, players=3, races=10_000, seed=4).splitlines()
    assert (
        lines[0] == "2 tracks, 3 players, 10,000 races each, seed 4; ranked from the longest race"
    )
    assert lines[1].endswith("MP/sq  plain woods hills swamp")
    assert lines[2] == (
        " 1 A very long track name that runs       9.88    14.50 (14.40-14.60)    1.50"
        "    50%   25%   12%   12%"
    )
    assert lines[3].startswith(" 2 Short ") and "9.25 (9.15-9.35)" in lines[3]
    assert lines[5].startswith("Fairness: unfairness in points")
    header, first = lines[6], lines[7]
    assert "unfairness (95% CI)" in header and "most-moved character" in header
    assert first.startswith(" 1 A very long track name that runs ")
    assert "4.2 (3.1-5.0)" in first and "-6.1 (-8.8 to -3.2)" in first  # signed, signed
    # the columns line up under their headings (the not-solved spread is a dash)
    for heading, value in (("unfairness (95% CI)", "5.0)"), ("points (95% CI)", "-3.2)")):
        assert header.index(heading) + len(heading) == first.index(value) + len(value)
    assert lines[-2].startswith("exact solo: the profile's reference racer")


def test_rows_are_the_profiles_of_one_seed_with_the_exact_figures_beside(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tracks = {slug: load_preset(slug) for slug in ("first-run", "forest-run")}
    options = RaceOptions(players=3, start_paths="dealt")
    exact = {"exact_rounds": 7.5, "path_spread": 0.4, "character_rounds_spread": 1.5}
    solved = Solved(30, 45, {"plain": 1.0}, exact, {"path_rounds": {"A": 7.5, "B": 7.9}})
    rows = compare_tracks(tracks, options, races=300, seed=7, solve=lambda t, o: solved)
    assert [r.rank for r in rows] == [1, 2] and rows[0].mean_rounds > rows[1].mean_rounds
    for row in rows:
        profile = profile_track(
            tracks[row.key], ProfileSettings(races=300, seed=7, exact=False), options=options
        )
        v = profile.values
        assert row.mean_rounds == v["rounds_mean"]
        assert row.ci95 == (v["rounds_mean_low"], v["rounds_mean_high"])
        assert (row.balance, row.balance_low, row.balance_high) == (
            v["balance"],
            v["balance_low"],
            v["balance_high"],
        )
        assert row.character_tilt == v["character_tilt"] == abs(row.tilted_difference)
        assert row.unfairness == v["unfairness"]
        assert row.path_rounds == {"A": 7.5, "B": 7.9} and row.path_spread == 0.4
        assert row.exact_solo_rounds == 7.5 and row.character_rounds_spread == 1.5
    # the two tracks share their races: what the comparison claims is beyond noise
    claims = compare_summary(rows)["orderings"]
    assert {c["figure"] for c in claims} <= {"unfairness", "rounds_mean", "skill"}
    assert {"figure": "rounds_mean", "better": "First run", "worse": "Forest run"} in claims


def test_compare_refuses_races_a_profile_cannot_run() -> None:
    with pytest.raises(TrackkitError, match="2 to 1,000,000 races, not 1"):
        compare_tracks({"first-run": load_preset("first-run")}, races=1)


def test_solving_a_track_gives_its_exact_figures_per_path_and_character() -> None:
    solved = compare.solve_track(load_preset("first-run"), RaceOptions(players=3))
    paths = solved.details["path_rounds"]
    assert sorted(paths) == ["A", "B", "C"]
    assert solved.exact["path_spread"] == pytest.approx(max(paths.values()) - min(paths.values()))
    characters = solved.details["character_rounds"]
    assert len(characters) == 8
    spread = max(characters.values()) - min(characters.values())
    assert solved.exact["character_rounds_spread"] == pytest.approx(spread)
    assert solved.squares == 26 and sum(solved.terrain_mix.values()) == pytest.approx(1)
