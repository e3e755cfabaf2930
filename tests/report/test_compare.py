"""Tracks side by side: the ranked rows as data and as the table ``trackkit compare`` prints."""

from __future__ import annotations

import json

from trackkit.report.compare import TrackFigures, compare_summary, compare_text


def _row(rank: int, name: str, mean: float) -> TrackFigures:
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
        rank=rank,
    )


ROWS = [_row(1, "A very long track name that runs past the column", 14.5), _row(2, "Short", 9.25)]


def test_compare_summary_is_json_with_the_interval_as_a_list() -> None:
    data = json.loads(json.dumps(compare_summary(ROWS)))
    assert [row["rank"] for row in data] == [1, 2]
    assert data[1]["ci95"] == [9.15, 9.35]
    assert data[0]["terrain_mix"]["plain"] == 0.5


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
    assert lines[-1].startswith("exact solo: one character dealt at random")
