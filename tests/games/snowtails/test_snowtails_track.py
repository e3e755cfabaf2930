"""The Snow Tails track file: what loads, and the one-line error naming the file, the field
and the fix for what does not."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from snowtails_fixtures import base_data, track_of

from trackkit.errors import TrackFileError, TrackkitError
from trackkit.games.snowtails.core.presets import PRESET_SLUGS, load_preset, preset_text
from trackkit.games.snowtails.core.track import Address, Building, load_track, parse_track_toml


def test_a_file_loads_into_an_immutable_track(tmp_path: Path) -> None:
    path = tmp_path / "oval.toml"
    path.write_text(preset_text("husky-oval"), "utf-8")
    track = load_track(path)
    assert track.source == str(path) and track.game == "snowtails"
    assert track.reconstructed and "not the printed" in track.note
    assert [s.id for s in track.segments] == ["home", "far-bend", "back", "near-bend", "run-in"]
    assert track.segments[1].spaces_per_lane == (3, 5, 7, 9, 11)
    assert track.trees[0] == Address("home", 2, 3)
    with pytest.raises(AttributeError):
        track.name = "other"  # type: ignore[misc]


def test_defaults_come_from_the_components_file() -> None:
    track = track_of(base_data(finish={"segment": "c", "line": 3}))
    assert track.finish.runoff_rows == 3
    assert {s.lanes for s in track.segments} == {5}
    assert track.direction == "forward" and track.tiebreak == "inside" and not track.beginner


def test_corner_lanes_map_inside_to_outside() -> None:
    data = base_data()
    data["segments"][1]["turn"] = "right"
    corner = track_of(data).segments[1]
    assert [corner.spaces_in_lane(lane) for lane in range(1, 6)] == [6, 5, 4, 3, 2]
    assert corner.spaces_in_lane(0) == 0 and corner.spaces_in_lane(6) == 0


def test_building_footprint() -> None:
    chapel = Building("chapel", "a", rows=(4, 5), lanes=(2, 3))
    assert set(chapel.footprint()) == {("a", 2, 4), ("a", 2, 5), ("a", 3, 4), ("a", 3, 5)}
    assert Building("tavern", "a", rows=(1, 2), side="left").footprint() == ()


# Broken files: (what to change, the field named, a phrase of the fix).
BROKEN: list[tuple[dict[str, Any], str, str]] = [
    ({"game": "yummell"}, "game", 'game = "snowtails"'),
    ({"name": None}, "name", "required field is missing"),
    ({"lanes": 12}, "lanes", "less than or equal to 9"),
    ({"direction": "backwards"}, "direction", "'forward' or 'reversed'"),
    ({"colour": "red"}, "colour", "unknown field"),
    ({"start": {"segment": "a"}}, "start.row", "required field is missing"),
    ({"finish": {"segment": "c", "line": "3"}}, "finish.line", "whole number"),
    ({"trees": [["a", 1]]}, "trees[0]", "a list of 3 items"),
    ({"trees": [["a", 1, 2, 3]]}, "trees[0]", "(segment, lane, index)"),
    ({"trees": [["a", "1", 2]]}, "trees[0][1]", "whole number"),
    (
        {"buildings": [{"kind": "chapel", "segment": "a", "lanes": [2], "rows": [1, 2]}]},
        "buildings[0].lanes",
        "a list of 2 items",
    ),
    ({"trees": "a"}, "trees", "list"),
    ({"segments": []}, "segments", "too few"),
    ({"segments": [{"id": "a"}]}, "segments[0]", "give rows for a straight"),
    ({"segments": [{"id": "a", "rows": 3, "turn": "left"}]}, "segments[0]", "not both"),
    ({"segments": [{"id": "a", "turn": "left"}]}, "segments[0]", "spaces_per_lane"),
    ({"segments": [{"id": "a", "rows": 3, "tight": True}]}, "segments[0]", "only a corner"),
    (
        {"segments": [{"id": "a", "turn": "left", "spaces_per_lane": [2, 3], "lanes": 2}]},
        "segments[0]",
        "drop lanes",
    ),
    ({"segments": [{"id": "a", "rows": 0}]}, "segments[0].rows", "greater than or equal to 1"),
    ({"segments": [{"id": "a b", "rows": 3}]}, "segments[0].id", "segment id"),
    (
        {"segments": [{"id": "a", "rows": 3}, {"id": "a", "rows": 3}]},
        "segments[1].id",
        "its own id",
    ),
    (
        {"segments": [{"id": "a", "rows": 3}, {"id": "b", "rows": 3, "after": "z"}]},
        "segments[1].after",
        "listed before",
    ),
    ({"segments": [{"id": "a", "rows": 3, "after": "a"}]}, "segments[0].after", "listed before"),
    (
        {"buildings": [{"kind": "inn", "segment": "a", "rows": [1, 2]}]},
        "buildings[0].kind",
        "kennels",
    ),
    (
        {"buildings": [{"kind": "tavern", "segment": "a", "lanes": [2, 3], "rows": [1, 2]}]},
        "buildings[0]",
        "side",
    ),
    (
        {"buildings": [{"kind": "chapel", "segment": "a", "rows": [1, 2]}]},
        "buildings[0]",
        "give lanes and rows",
    ),
    (
        {"buildings": [{"kind": "chapel", "segment": "a", "lanes": [3, 2], "rows": [1, 2]}]},
        "buildings[0]",
        "first ≤ last",
    ),
]


@pytest.mark.parametrize(("changes", "field", "fix"), BROKEN, ids=[b[1] for b in BROKEN])
def test_a_broken_file_names_its_field_and_the_fix(
    changes: dict[str, Any], field: str, fix: str
) -> None:
    data = base_data(**{k: v for k, v in changes.items() if v is not None})
    for key in [k for k, v in changes.items() if v is None]:
        del data[key]
    with pytest.raises(TrackFileError) as caught:
        track_of(data)
    message = str(caught.value)
    assert message.startswith(f"test.toml: {field}: "), message
    assert fix in message and "\n" not in message


def test_toml_and_file_errors_are_located(tmp_path: Path) -> None:
    with pytest.raises(TrackFileError, match=r"^bad\.toml: is not valid TOML"):
        parse_track_toml("name = ", source="bad.toml")
    with pytest.raises(TrackFileError, match="no such file"):
        load_track(tmp_path / "missing.toml")
    with pytest.raises(TrackFileError, match="a folder"):
        load_track(tmp_path)
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'name = "caf\xe9"\n')
    with pytest.raises(TrackkitError, match="not UTF-8"):
        load_track(latin)


@settings(max_examples=60, deadline=None)
@given(
    slug=st.sampled_from(PRESET_SLUGS),
    name=st.text(
        alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40
    ),
    keep=st.lists(st.booleans(), min_size=8, max_size=8),
)
def test_a_track_written_to_toml_reads_back_as_itself(
    slug: str, name: str, keep: list[bool]
) -> None:
    track = load_preset(slug)
    trees = tuple(t for t, k in zip(track.trees, keep, strict=False) if k)
    edited = replace(track, name=name, trees=trees, source="")
    back = parse_track_toml(edited.to_toml(), source="")
    assert back == edited


def test_a_corner_turns_90_unless_its_file_says_180() -> None:
    data = base_data()
    corner = next(s for s in data["segments"] if "turn" in s)
    assert track_of(data).segment(corner["id"]).angle == 90
    corner["angle"] = 180
    assert track_of(data).segment(corner["id"]).angle == 180
    corner["angle"] = 45
    with pytest.raises(TrackFileError, match=r"angle.*90 or 180"):
        track_of(data)
    straight = next(s for s in data["segments"] if "rows" in s)
    del corner["angle"]
    straight["angle"] = 90
    with pytest.raises(TrackFileError, match="only a corner turns through an angle"):
        track_of(data)
