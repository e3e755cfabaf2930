"""The four demo tracks: marked as reconstructions, each showing what it is for, and valid."""

from __future__ import annotations

from itertools import pairwise

import pytest

from trackkit.errors import TrackkitError
from trackkit.games.snowtails.core.check import validate_track
from trackkit.games.snowtails.core.course import build_course
from trackkit.games.snowtails.core.presets import (
    PRESET_SLUGS,
    list_presets,
    load_preset,
    preset_text,
)

# Open spaces of each demo course (the graph's nodes).
SPACES = {"husky-oval": 190, "long-trail": 348, "reversed-ridge": 191, "chicane": 182}


def test_the_four_demo_tracks_ship() -> None:
    assert [p.slug for p in list_presets()] == list(SPACES)


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_each_demo_is_a_marked_reconstruction_that_validates(slug: str) -> None:
    track = load_preset(slug)
    assert track.reconstructed and "not the printed" in track.note
    assert "RECONSTRUCTION" in preset_text(slug)
    course = build_course(track)
    assert course.graph.number_of_nodes() == SPACES[slug]
    result = validate_track(track, course)
    assert result.ok, result.lines()
    assert len(course.start_spaces) == 5 and course.finish_spaces


def test_the_oval_is_a_first_race_with_trees_on_straights_only() -> None:
    track = load_preset("husky-oval")
    result = validate_track(track)
    assert track.beginner and not track.buildings and result.problems == ()
    assert all(not track.segment(t.segment).is_corner for t in track.trees)  # type: ignore[union-attr]


def test_the_long_trail_has_all_four_buildings() -> None:
    track = load_preset("long-trail")
    assert {b.kind for b in track.buildings} == {"kennels", "chapel", "bothy", "tavern"}
    assert [i.code for i in validate_track(track).warnings] == ["building-count"]
    course = build_course(track)
    triggered = set().union(*(kinds for _, kinds in course.graph.nodes(data="trigger_of")))
    assert triggered == {"kennels", "chapel", "bothy", "tavern"}


def test_the_reversed_ridge_is_reversed_with_tight_corners() -> None:
    track = load_preset("reversed-ridge")
    assert track.direction == "reversed"
    assert [s.id for s in track.segments if s.tight] == ["upper-hairpin", "lower-hairpin"]
    assert validate_track(track).problems == ()


def test_the_chicane_turns_one_way_then_straight_back() -> None:
    course = build_course(load_preset("chicane"))
    turns = [s.turn for s in course.segments]
    pairs = [(a, b) for a, b in pairwise(turns) if a and b]
    assert pairs == [("left", "right"), ("right", "left")]


def test_an_unknown_preset_lists_the_slugs() -> None:
    with pytest.raises(TrackkitError, match="husky-oval"):
        load_preset("husky_oval")
