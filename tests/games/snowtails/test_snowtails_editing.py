"""Editing a Snow Tails track: tools, refusals with the rule, and undo and redo."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trackkit.errors import TrackkitError
from trackkit.games.snowtails.core.check import validate_track
from trackkit.games.snowtails.core.course import build_course
from trackkit.games.snowtails.core.editing import TOOLS, EditHistory, edited, try_edit
from trackkit.games.snowtails.core.presets import PRESET_SLUGS, load_preset
from trackkit.games.snowtails.core.track import Address, Building

OVAL = load_preset("husky-oval")


def test_a_tree_or_a_marker_is_toggled() -> None:
    here = Address("back", 3, 6)
    once = edited(OVAL, "tree", here)
    assert once.trees == (*OVAL.trees, here)
    assert edited(once, "tree", here) == OVAL
    marked = edited(OVAL, "marker", here)
    assert marked.markers == (here,) and edited(marked, "remove", here) == OVAL


def test_a_building_covers_two_lanes_and_two_rows_from_the_click_and_moves() -> None:
    chapel = edited(OVAL, "chapel", Address("back", 3, 3)).buildings
    assert chapel == (Building("chapel", "back", (3, 4), (3, 4)),)
    # a click on the last lane or row puts the far edge there
    last = edited(OVAL, "bothy", Address("back", 5, 11)).buildings
    assert last == (Building("bothy", "back", (10, 11), (4, 5)),)
    moved = edited(edited(OVAL, "chapel", Address("back", 3, 3)), "chapel", Address("back", 2, 6))
    assert moved.buildings == (Building("chapel", "back", (6, 7), (2, 3)),)
    tavern = edited(OVAL, "tavern", Address("back", 5, 2)).buildings
    assert tavern == (Building("tavern", "back", (2, 3), None, "right"),)
    assert edited(OVAL, "tavern", Address("back", 1, 2)).buildings[0].side == "left"


def test_remove_takes_a_building_off_by_any_of_its_spaces() -> None:
    placed = edited(OVAL, "kennels", Address("back", 2, 4))
    assert edited(placed, "remove", Address("back", 3, 5)) == OVAL
    tavern = edited(OVAL, "tavern", Address("back", 5, 2))
    assert edited(tavern, "remove", Address("back", 5, 3)) == OVAL  # its side's lane
    assert edited(tavern, "remove", Address("back", 1, 3)) == tavern  # the other side


def test_an_illegal_edit_is_refused_with_the_rule_and_changes_nothing() -> None:
    outcome = try_edit(OVAL, "chapel", Address("back", 1, 3))
    assert outcome.track == OVAL
    assert {i.code for i in outcome.refused} >= {"building-on-edge-lane"}
    corner = try_edit(OVAL, "kennels", Address("far-bend", 2, 1))
    assert [i.code for i in corner.refused] == ["building-in-corner"]


def test_a_guideline_warns_but_does_not_refuse() -> None:
    outcome = try_edit(OVAL, "chapel", Address("back", 3, 3))
    assert not outcome.refused and outcome.track != OVAL
    assert "beginner-buildings" in {w.code for w in outcome.warnings}


def test_an_unknown_tool_is_refused_by_name() -> None:
    with pytest.raises(TrackkitError, match="unknown tool 'axe'"):
        edited(OVAL, "axe", Address("back", 1, 1))  # type: ignore[arg-type]


def test_undo_and_redo() -> None:
    one = edited(OVAL, "tree", Address("back", 3, 6))
    two = edited(one, "marker", Address("back", 2, 2))
    history = EditHistory.of(OVAL).then(one).then(two)
    assert history.track == two and history.can_undo and not history.can_redo
    back = history.undo().undo()
    assert back.track == OVAL and not back.can_undo and back.redo().track == one
    assert back.undo().track == OVAL  # nothing before the first
    assert back.redo().then(two).tracks == (OVAL, one, two)  # a new edit drops the redo
    assert history.then(two) is history  # no change, no step


@st.composite
def edits(draw: st.DrawFn) -> tuple[str, list[tuple[str, Address]]]:
    slug = draw(st.sampled_from(PRESET_SLUGS))
    spaces = sorted(build_course(load_preset(slug)).spaces)
    steps = draw(st.lists(st.tuples(st.sampled_from(TOOLS), st.sampled_from(spaces)), max_size=12))
    return slug, steps


@pytest.mark.slow  # hypothesis over edit sequences: about 6 s
@settings(max_examples=40, deadline=None)
@given(edits())
def test_no_sequence_of_edits_makes_a_legal_track_illegal(
    case: tuple[str, list[tuple[str, Address]]],
) -> None:
    slug, steps = case
    track = load_preset(slug)
    for tool, address in steps:
        outcome = try_edit(track, tool, address)  # type: ignore[arg-type]
        assert outcome.refused or outcome.track == edited(track, tool, address)  # type: ignore[arg-type]
        track = outcome.track
        assert validate_track(track).ok
