"""Building a track in words: validation, next placements, the design space."""

from __future__ import annotations

from pathlib import Path

from trackkit.games.tilekit.track import Placement, Track, load_track
from trackkit.games.yummell.core.check import DesignSpace, NextPlacement, next_placements
from trackkit.games.yummell.core.presets import load_preset
from trackkit.games.yummell.face.building import (
    next_summary,
    next_text,
    space_summary,
    space_text,
)
from trackkit.report.validation import validate_text
from trackkit.validate import validate

PARTIAL = Path(__file__).resolve().parents[1] / "golden" / "partial.toml"


def test_a_valid_track_is_said_valid_under_the_rule_it_was_checked_by() -> None:
    assert validate_text(validate(load_preset("first-run"))) == "First run: valid."
    assert validate_text(validate(load_preset("king-of-toads"), players=5)) == (
        "In honor of the King of Toads: valid under the building rule for 5 players."
    )


def test_every_problem_gets_its_own_line() -> None:
    report = validate(load_preset("first-run"), players=2)
    lines = validate_text(report).splitlines()
    assert lines[0] == (
        f"First run: {len(report.problems)} problem(s) under the building rule for 2 players:"
    )
    assert lines[1:] == [f"  {problem}" for problem in report.problems]
    assert "[tile-count]" in lines[1]


def test_a_partial_track_says_whether_it_can_still_be_completed() -> None:
    report = validate(load_track(PARTIAL), players=4, partial=True)
    assert report.ok and report.completable
    assert validate_text(report).endswith(
        "valid under the building rule for 4 players. It can still be completed."
    )


def test_next_summary_keeps_every_placement_in_order() -> None:
    track = load_track(PARTIAL)
    options = next_placements(track, players=4)
    rows = next_summary(options)
    assert len(rows) == len(options) > 0
    for option, row in zip(options, rows, strict=True):
        assert (row["tile"], row["x"], row["y"], row["rotation"]) == (
            option.placement.tile,
            option.placement.x,
            option.placement.y,
            option.placement.rotation,
        )
        assert (row["legal"], row["problem"], row["completable"]) == (
            option.legal,
            option.problem,
            option.completable,
        )


def test_next_text_gives_each_placement_its_verdict() -> None:
    rows = next_summary(
        [
            NextPlacement(Placement(7, 2, -1, 90), legal=True, completable=True),
            NextPlacement(Placement(8, 2, -1, 0), legal=False, problem="junction-mismatch"),
            NextPlacement(Placement(9, 3, 0, 270), legal=True, completable=False),
        ]
    )
    assert next_text(rows, track_name="Mine").splitlines() == [
        "Mine: next placements",
        "  tile  7 at (2, -1) rotated  90°: legal",
        "  tile  8 at (2, -1) rotated   0°: illegal (junction-mismatch)",
        "  tile  9 at (3, 0) rotated 270°: legal, but the track could not be completed after it",
    ]


def test_next_text_says_when_nothing_can_be_placed() -> None:
    finished = load_preset("first-run")
    rows = next_summary(next_placements(finished))
    assert rows == []
    assert next_text(rows, track_name=finished.name) == (
        "First run: no tile can be placed next (finished, or the path is blocked)."
    )


def test_space_text_writes_the_counts_of_the_summary() -> None:
    data = space_summary(DesignSpace(players=4, legal_tracks=26_640, dead_ends=1_234))
    assert data == {"players": 4, "legal_tracks": 26_640, "dead_ends": 1_234}
    assert space_text(data) == (
        "4 players: 26,640 legal tracks; 1,234 placing sequences obey the rule at every "
        "step and still reach a dead end"
    )


def test_a_track_with_no_tiles_is_not_said_valid() -> None:
    assert "problem(s)" in validate_text(validate(Track("Empty", ())))
