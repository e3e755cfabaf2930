"""How the pages show a profile (trackkit/app/fairness.py): figures with their intervals,
the characters' and start paths' tables, win-rate bars with their intervals."""

from __future__ import annotations

import math

from trackkit.app.fairness import (
    characters_table,
    figure_text,
    figures_table,
    plain,
    rate_interval,
    start_paths_table,
    win_rates_figure,
    with_interval,
)
from trackkit.explore.profile import TrackProfile, wilson

VALUES = {
    "balance": 0.9621,
    "balance_low": 0.95,
    "balance_high": 0.975,
    "path_spread": 0.547,
    "squares": 34.0,
    "exact_rounds": math.nan,
}
DETAILS = {
    "characters": [
        {
            "name": "Flamm",
            "entries": 400,
            "win_rate": 0.3,
            "reference_win_rate": 0.25,
            "difference": 0.05,
            "difference_low": 0.01,
            "difference_high": 0.09,
        },
        {
            "name": "Troll",
            "entries": 0,
            "win_rate": None,
            "reference_win_rate": 0.2,
            "difference": None,
            "difference_low": None,
            "difference_high": None,
        },
    ],
    "start_paths": [
        {
            "name": "A",
            "entries": 400,
            "win_rate": 0.2,
            "win_rate_low": 0.16,
            "win_rate_high": 0.24,
            "fair_share": 0.25,
        }
    ],
    "path_rounds": {"A": 7.65, "B": 8.19},
    "character_rounds": {"Flamm": 7.646},
}
PROFILE = TrackProfile("Demo", 4, 400, 0, VALUES, DETAILS)


def test_a_sampled_figure_shows_its_interval_an_exact_one_says_so() -> None:
    assert figure_text(VALUES, "balance") == "0.962 (0.950 – 0.975)"
    assert figure_text(VALUES, "path_spread") == "0.547 (exact)"
    assert figure_text(VALUES, "squares") == "34"  # the track's own: no interval
    assert figure_text(VALUES, "exact_rounds") == "–"  # not measured
    assert figure_text(VALUES, "lead_changes") == "–"
    assert with_interval(12.0, math.nan, 13.0, "{:.1f}") == "12.0"


def test_figures_table_puts_two_profiles_side_by_side() -> None:
    again = {"balance": 0.96, "balance_low": 0.955, "balance_high": 0.965}
    rows = figures_table({"sweep": VALUES, "again": again}, ["balance"], {"balance": "Balance"})
    assert rows == [
        {"Figure": "Balance", "sweep": "0.962 (0.950 – 0.975)", "again": "0.960 (0.955 – 0.965)"}
    ]


def test_the_characters_table_shows_only_characters_raced() -> None:
    (row,) = characters_table(PROFILE)
    low, high = wilson(0.3, 400)
    assert row == {
        "Character": "Flamm",
        "Races entered": 400,
        "Win rate": "30.0%",
        "95% interval": f"{100 * low:.1f}% – {100 * high:.1f}%",
        "On an average track": "25.0%",
        "Difference (points)": "+5.0",
        "Difference, 95%": "+1.0 to +9.0",
        "Exact solo rounds": "7.65",
    }


def test_the_start_paths_table_lists_every_solved_path_raced_or_not() -> None:
    rows = start_paths_table(PROFILE)
    assert [r["Start path"] for r in rows] == ["A", "B"]
    assert rows[0]["Exact solo rounds"] == "7.65" and rows[0]["95% interval"] == "16.0% – 24.0%"
    assert rows[1]["Racers started"] == 0 and rows[1]["Win rate"] == "–"
    assert {r["Fair share"] for r in rows} == {"25.0%"}


def test_win_rate_bars_carry_their_intervals_and_the_average_track() -> None:
    rows = [{"name": "Flamm", "entries": 400, "win_rate": 0.3, "reference_win_rate": 0.25}]
    figure = win_rates_figure(rows, "Win rate by character", 4)
    bars, average = figure.data
    low, high = wilson(0.3, 400)
    assert bars.error_x.array[0] == high - 0.3 and bars.error_x.arrayminus[0] == 0.3 - low
    assert average.x == (0.25,) and average.name == "on an average track"
    assert rate_interval({"name": "x", "entries": 0, "win_rate": None}) is None


def test_every_bar_is_labelled_even_when_the_labels_are_numbers() -> None:
    rows = [{"name": str(slot), "entries": 100, "win_rate": 0.2} for slot in range(1, 6)]
    figure = win_rates_figure(rows, "Win rate by start slot", 5)
    assert figure.layout.yaxis.type == "category"  # not a scale labelling 2 and 4 only


def test_markdown_in_a_name_is_shown_as_written() -> None:
    assert plain("My *fast* $5 [track]") == r"My \*fast\* \$5 \[track\]"
