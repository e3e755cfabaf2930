"""Track files: loading with located errors, saving without losing anything."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trackkit.errors import TrackFileError, TrackkitError
from trackkit.games.tilekit.track import Placement, Track, load_track, parse_track_toml, save_track

FIRST_RUN = """
name = "First run"
[[placements]]
tile = 1
x = 2
y = 1
rotation = 0
[[placements]]
tile = 10
x = 2
y = 0
rotation = 270
"""


def test_the_issue_shape_loads() -> None:
    track = parse_track_toml(FIRST_RUN, source="t.toml")
    assert track.name == "First run"
    assert track.placements == (Placement(1, 2, 1, 0), Placement(10, 2, 0, 270))


def test_rotation_defaults_to_zero() -> None:
    track = parse_track_toml('name = "x"\n[[placements]]\ntile = 1\nx = 0\ny = 0\n', source="t")
    assert track.placements[0].rotation == 0


def test_unknown_tiles_and_odd_rotations_load_for_the_validator_to_report() -> None:
    text = 'name = "x"\n[[placements]]\ntile = 42\nx = 0\ny = 0\nrotation = 45\n'
    assert parse_track_toml(text, source="t").placements[0] == Placement(42, 0, 0, 45)


@pytest.mark.parametrize(
    ("text", "field", "words"),
    [
        (
            'name = "x"\n[[placements]]\ntile = "seven"\nx = 0\ny = 0\n',
            "placements[0].tile",
            "whole",
        ),
        ('name = "x"\n[[placements]]\ntile = 7\nx = 0\n', "placements[0].y", "missing"),
        (
            'name = "x"\n[[placements]]\ntile = 7\nx = 0\ny = 0\nrotaton = 90\n',
            "placements[0].rotaton",
            "unknown field",
        ),
        ("[[placements]]\ntile = 7\nx = 0\ny = 0\n", "name", "missing"),
        ('name = "x"\n[[placements]]\ntile = true\nx = 0\ny = 0\n', "placements[0].tile", "whole"),
        ('name = "x"\nplacements = 3\n', "placements", "list"),
    ],
)
def test_a_malformed_track_names_field_and_problem(text: str, field: str, words: str) -> None:
    with pytest.raises(TrackFileError) as caught:
        parse_track_toml(text, source="mine.toml")
    assert caught.value.field == field
    assert words in caught.value.problem
    assert str(caught.value).startswith("mine.toml: ")


def test_bad_toml_is_located_by_line() -> None:
    with pytest.raises(TrackFileError, match=r"mine.toml: is not valid TOML.*line 2"):
        parse_track_toml('name = "x"\ntile = = 3\n', source="mine.toml")


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('name = "x\\u001b[31m"\n', "name"),
        ('name = "x"\ntileset = "sets\\u0000mine"\n', "tileset"),
        ('name = """two\nlines"""\n', "name"),
        ('name = "x"\ntileset = ""\n', "tileset"),
    ],
)
def test_control_characters_and_empty_paths_are_refused(text: str, field: str) -> None:
    with pytest.raises(TrackFileError) as caught:
        parse_track_toml(text, source="mine.toml")
    assert caught.value.field == field
    assert str(caught.value).isprintable()


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(TrackFileError, match="no such file"):
        load_track(tmp_path / "gone.toml")


def test_a_binary_file_is_refused_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "junk.toml"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(TrackFileError):
        load_track(path)


def test_save_never_overwrites_unless_asked(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text("precious")
    track = Track("x", (Placement(1, 0, 0),))
    with pytest.raises(TrackkitError, match="already exists"):
        save_track(track, path)
    assert path.read_text() == "precious"
    save_track(track, path, overwrite=True)
    assert load_track(path) == track


def test_custom_tileset_path_is_relative_to_the_track_file(tmp_path: Path) -> None:
    (tmp_path / "sets" / "mine").mkdir(parents=True)
    track = Track("x", (Placement(1, 0, 0),), tileset=tmp_path / "sets" / "mine")
    (tmp_path / "tracks").mkdir()
    path = save_track(track, tmp_path / "tracks" / "t.toml")
    assert 'tileset = "../sets/mine"' in path.read_text()
    assert load_track(path).tileset.resolve() == (tmp_path / "sets" / "mine").resolve()


_placements = st.builds(
    Placement,
    tile=st.integers(-5, 120),
    x=st.integers(-1000, 1000),
    y=st.integers(-1000, 1000),
    rotation=st.integers(-400, 400),
)


# Control characters are refused in data files (they would reach terminals); a
# description may hold tabs and line breaks, a name is one line.
_printable = st.characters(blacklist_categories=("Cc", "Cs"))


@settings(max_examples=200, deadline=None)
@given(
    name=st.text(_printable, min_size=1, max_size=40),
    description=st.text(st.one_of(_printable, st.sampled_from("\t\n\r")), max_size=40),
    placements=st.lists(_placements, max_size=12),
)
def test_a_track_survives_a_round_trip_through_its_file(
    name: str, description: str, placements: list[Placement]
) -> None:
    track = Track(name, tuple(placements), description=description)
    assert parse_track_toml(track.to_toml(), source="t") == track


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_loads_or_fails_with_a_track_file_error(text: str) -> None:
    try:
        parse_track_toml(text, source="upload.toml")
    except TrackFileError as error:
        assert str(error).startswith("upload.toml")
