"""Snow Tails tracks drawn: the SVG picture, its PNG, and the Plotly figure with its heat map."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from trackkit.games.snowtails.core.course import build_course
from trackkit.games.snowtails.core.presets import PRESET_SLUGS, load_preset
from trackkit.games.snowtails.core.scene import CLOSED, START, TRIGGER
from trackkit.games.snowtails.core.track import Address, SnowTrack, parse_track
from trackkit.games.snowtails.face.lanes import lane_figure, lane_png, lane_svg

SVG = "{http://www.w3.org/2000/svg}"

# A short track with what the demo tracks lack: markers (on the course and closing a
# branch), closed spaces past the run-off, and a tree off the board.
MARKED = {
    "game": "snowtails",
    "name": "Marked test track",
    "start": {"segment": "a", "row": 0},
    "finish": {"segment": "c", "line": 3, "runoff_rows": 3},
    "markers": [["spur", lane, 0] for lane in range(1, 6)] + [["c", 1, 1]],
    "trees": [["a", 3, 3], ["nowhere", 1, 1]],
    "segments": [
        {"id": "a", "rows": 6},
        {"id": "bend", "turn": "right", "spaces_per_lane": [2, 3, 4, 5, 6]},
        {"id": "c", "rows": 8},
        {"id": "spur", "after": "a", "turn": "left", "spaces_per_lane": [2, 3, 4, 5, 6]},
    ],
}


def _marked() -> SnowTrack:
    return parse_track(MARKED, source="marked.toml")


def _svg(track: SnowTrack) -> ET.Element:
    return ET.fromstring(lane_svg(track))


def _with_class(root: ET.Element, name: str, tag: str | None = None) -> list[ET.Element]:
    return [
        e for e in root.iter() if e.get("class") == name and (tag is None or e.tag == SVG + tag)
    ]


def _firs(root: ET.Element) -> int:
    """The firs drawn: each stands on one trunk."""
    return len(_with_class(root, "tree", "rect"))


def _texts(root: ET.Element) -> list[str]:
    return [e.text or "" for e in root.iter(f"{SVG}text")]


# --- the SVG ------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_the_picture_is_svg_naming_the_track_its_buildings_and_lines(slug: str) -> None:
    track = load_preset(slug)
    root = _svg(track)
    assert root.tag == f"{SVG}svg"
    texts = _texts(root)
    assert texts[0] == track.name  # the title comes first
    for building in track.buildings:
        assert building.name in texts
    assert len(_with_class(root, "building")) == len(track.buildings)
    assert "START" in texts and "FINISH" in texts
    assert len(_with_class(root, "travel")) == 1


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_one_tree_mark_per_tree(slug: str) -> None:
    track = load_preset(slug)
    assert track.trees
    assert _firs(_svg(track)) == len(track.trees)


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_trigger_and_start_spaces_are_highlighted(slug: str) -> None:
    track = load_preset(slug)
    course = build_course(track)
    nodes = course.graph.nodes
    triggers = [
        a
        for a in nodes
        if nodes[a]["trigger_of"] and not nodes[a]["is_start"] and not nodes[a]["beyond_finish"]
    ]
    paths = list(_svg(track).iter(f"{SVG}path"))
    assert sum(p.get("fill") == TRIGGER for p in paths) == len(triggers)
    assert sum(p.get("fill") == START for p in paths) == len(course.start_spaces) == 5
    # the start spaces carry their lanes' numbers, as driven
    assert sorted(t for t in _texts(_svg(track)) if t.isdigit()) == ["1", "2", "3", "4", "5"]


def test_markers_closed_spaces_and_a_branch_off_the_course() -> None:
    track = _marked()
    course = build_course(track)
    root = _svg(track)
    assert len(_with_class(root, "marker")) == 6  # five close the branch, one on the course
    assert _firs(root) == 1  # the tree off the board is left out
    closed = sum(p.get("fill") == CLOSED for p in root.iter(f"{SVG}path"))
    assert closed == len(course.closed) == 2 * 5 + 1  # two rows past the run-off, a marker


def test_a_building_in_a_corner_is_not_drawn_but_the_rest_is() -> None:
    data = {
        **MARKED,
        "buildings": [{"kind": "bothy", "segment": "bend", "lanes": [2, 3], "rows": [0, 1]}],
    }
    root = _svg(parse_track(data, source="x.toml"))
    assert not _with_class(root, "building") and "Bothy" not in _texts(root)


def test_the_png_is_a_png() -> None:
    png = lane_png(load_preset("chicane"), zoom=0.5)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000


# --- the figure ---------------------------------------------------------------------------


def _spaces_trace(figure):  # type: ignore[no-untyped-def]
    return next(t for t in figure.data if t.name == "spaces")


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_the_figure_has_one_hover_entry_per_space(slug: str) -> None:
    track = load_preset(slug)
    course = build_course(track)
    figure = lane_figure(track)
    trace = _spaces_trace(figure)
    assert len(trace.hovertext) == len(trace.x) == len(course.spaces)
    firsts = {text.split("<br>")[0] for text in trace.hovertext}
    assert firsts == {f"{a.segment} {a.lane} {a.index}" for a in course.spaces}
    assert not any(t.name == "heat" for t in figure.data)  # no colour bar
    assert {tuple(c) for c in trace.customdata} == {tuple(a) for a in course.spaces}
    assert figure.data[0] is trace  # the first trace: a page reads the spaces from it
    assert figure.layout.title.text == track.name
    assert figure.layout.yaxis.scaleanchor == "x" and figure.layout.yaxis.scaleratio == 1
    paths = [s for s in figure.layout.shapes if s.type == "path"]
    assert len(paths) >= len(course.spaces) + len(course.segments)


def test_values_colour_the_spaces_and_add_a_colour_bar() -> None:
    track = load_preset("long-trail")
    values = {("pines", 3, 0): 12, Address("valley", 1, 5): 3.5}
    figure = lane_figure(track, values=values, title="Collisions")
    trace = _spaces_trace(figure)
    scale = next(t for t in figure.data if t.name == "heat").marker
    assert scale.showscale is True and scale.colorbar.title.text == "value"
    assert (scale.cmin, scale.cmax) == (3.5, 12)
    texts = list(trace.hovertext)
    assert any(t.startswith("pines 3 0") and t.endswith("value: 12") for t in texts)
    assert any(t.startswith("valley 1 5") and t.endswith("value: 3.5") for t in texts)
    assert sum(t.endswith("no value") for t in texts) == len(trace.hovertext) - 2
    assert figure.layout.title.text == "Collisions"
    # the hottest space takes the top of the scale, a space without a value stays white
    fills = [s.fillcolor for s in figure.layout.shapes if s.type == "path"]
    assert "rgb(128, 0, 38)" in fills  # YlOrRd's darkest red


def test_the_figure_shows_trees_and_markers() -> None:
    figure = lane_figure(_marked())
    names = {t.name: t for t in figure.data if t.x[0] is not None}  # not the legend's
    assert len(names["tree"].x) == 1 and len(names["marker"].x) == 6
    hover = _spaces_trace(figure).hovertext
    assert any(t.startswith("c 1 1") and "closed (marker)" in t for t in hover)
