"""A Snow Tails course's scene: what its picture and figure show, as shapes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from trackkit.games import get_ruleset
from trackkit.games.shapes import Circle, Polygon, Spot, Text
from trackkit.games.snowtails.core.course import build_course
from trackkit.games.snowtails.core.editing import edited
from trackkit.games.snowtails.core.presets import PRESET_SLUGS, load_preset
from trackkit.games.snowtails.core.scene import BUILDING, START, course_scene
from trackkit.games.snowtails.core.track import Address


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_every_space_is_a_polygon_and_a_spot_keyed_by_its_address(slug: str) -> None:
    track = load_preset(slug)
    course = build_course(track)
    scene = get_ruleset("snowtails").scene(track)
    spots = [s for s in scene.shapes if isinstance(s, Spot) and s.group == "spaces"]
    spaces_keys = {tuple(a) for a in course.spaces}
    assert {s.key for s in spots} == spaces_keys
    assert all(s.hover.startswith(" ".join(map(str, s.key))) for s in spots)
    spaces = [s for s in scene.shapes if isinstance(s, Polygon) and s.group == "space"]
    assert len(spaces) == len(course.spaces)
    assert sum(s.fill == START for s in spaces) == len(course.start_spaces)
    assert set(scene.places) == set(course.spaces)
    # every key is a space's: a click on what stands on a space means that space
    assert all(s.key is None or s.key in spaces_keys for s in scene.shapes)


def test_a_tree_a_marker_and_a_building_are_keyed_by_their_space() -> None:
    track = load_preset("long-trail")
    track = replace(track, markers=(Address("pines", 1, 5),))
    scene = course_scene(track)
    trees = [s.key for s in scene.shapes if isinstance(s, Spot) and s.group == "tree"]
    assert sorted(trees) == sorted(tuple(a) for a in track.trees)
    assert [s.key for s in scene.shapes if isinstance(s, Circle)] == [("pines", 1, 5)]
    roofs = {s.hover.split(":")[0]: s.key for s in scene.shapes if s.group == "building"}
    for building in track.buildings:
        segment, lane, row = roofs[building.name]
        assert (segment, row) == (building.segment, building.rows[0])
        assert edited(track, "remove", Address(segment, lane, row)).buildings == tuple(
            b for b in track.buildings if b != building
        )


def test_the_scene_has_the_tracks_words_buildings_trees_and_arrow() -> None:
    track = load_preset("long-trail")
    scene = course_scene(track)
    words = [s.text for s in scene.shapes if isinstance(s, Text)]
    assert {"START", "FINISH"} <= set(words)
    assert all(b.name in words for b in track.buildings)
    roofs = [s for s in scene.shapes if isinstance(s, Polygon) and s.fill == BUILDING]
    assert len(roofs) == len(track.buildings)
    trees = [s for s in scene.shapes if isinstance(s, Spot) and s.group == "tree"]
    assert len(trees) == len(track.trees)
    assert sum(getattr(s, "arrow", 0) > 0 for s in scene.shapes) == 1
    assert scene.note and scene.pan and [e.label for e in scene.legend][-2:] == ["tree", "marker"]
    assert not any(isinstance(s, Circle) for s in scene.shapes)  # no markers on this track


def test_the_page_grows_downwards_with_the_layout_turned_over() -> None:
    scene = course_scene(load_preset("chicane"))
    left, top, right, bottom = scene.bounds
    assert left < right and top < bottom
    # the layout's space (grid, 1, 0) is centred at (0.5, 0.5), y up: on the page y is -0.5
    assert scene.places[("grid", 1, 0)] == (0.5, -0.5)
