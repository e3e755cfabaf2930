"""The one reader of data files: every way a file or a path can be unusable is a located,
one-line error of the loader's class, and no input makes a loader crash or hang."""

from __future__ import annotations

import errno
import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict

from trackkit.board.datafile import (
    MAX_FILE_BYTES,
    output_path,
    parse_toml,
    read_text,
    read_toml,
    validated,
    write_text,
)
from trackkit.errors import (
    ContentFileError,
    LocatedError,
    OutputFileError,
    TileFileError,
    TrackFileError,
    shown,
)
from trackkit.games import load_tileset
from trackkit.games.tilekit.tiles import TileSet, bundled_tiles_folder
from trackkit.games.tilekit.track import Track, load_track, parse_track_toml
from trackkit.games.yummell.core.content import Content, load_content

CONTENT = Path(__file__).resolve().parents[2] / "trackkit" / "games" / "yummell" / "data"
PRESETS = Path(__file__).resolve().parents[2] / "trackkit" / "games" / "yummell" / "tracks"
DEEP = "x = " + "[" * 1000 + "]" * 1000 + "\n"


def _one_printable_line(error: BaseException) -> str:
    text = str(error)
    assert text.isprintable(), text  # no NUL, newline, escape or other control character
    assert len(text) < 700
    return text


# --- the path and the kind of file -------------------------------------------------------


def test_a_named_pipe_is_refused_without_being_opened(tmp_path: Path) -> None:
    pipe = tmp_path / "tile-11.toml"
    os.mkfifo(pipe)  # nobody writes to it: opening it for reading would block for ever
    with pytest.raises(TileFileError, match="named pipe") as caught:
        read_toml(pipe, TileFileError)
    assert caught.value.path == str(pipe)


def test_a_named_pipe_in_a_tile_folder_does_not_hang_the_set(tile_folder: Path) -> None:
    os.mkfifo(tile_folder / "tile-11.toml")
    with pytest.raises(TileFileError, match=r"tile-11.toml: is a named pipe"):
        load_tileset(tile_folder)


def test_a_folder_called_toml_is_refused(tile_folder: Path) -> None:
    (tile_folder / "x.toml").mkdir()
    with pytest.raises(TileFileError, match=r"x.toml: is a folder"):
        load_tileset(tile_folder)


def test_a_device_is_refused() -> None:
    with pytest.raises(TrackFileError, match="character device"):
        load_track("/dev/zero")  # would otherwise be read without end


def test_a_symlink_loop_is_named(tmp_path: Path) -> None:
    (tmp_path / "a.toml").symlink_to(tmp_path / "b.toml")
    (tmp_path / "b.toml").symlink_to(tmp_path / "a.toml")
    with pytest.raises(TrackFileError, match="loop of symbolic links"):
        load_track(tmp_path / "a.toml")
    with pytest.raises(TileFileError, match="loop of symbolic links"):
        load_tileset(tmp_path / "a.toml")


def test_a_name_of_5000_characters_is_shortened_in_the_message(tmp_path: Path) -> None:
    path = tmp_path / ("x" * 5000 + ".toml")
    with pytest.raises(TrackFileError, match="too long") as caught:
        load_track(path)
    assert caught.value.path == str(path)  # kept whole for a program
    text = _one_printable_line(caught.value)
    assert "…" in text and text.count("x") < 200


def test_a_nul_byte_is_refused_and_escaped(tmp_path: Path) -> None:
    for loader, error in (
        (load_track, TrackFileError),
        (load_tileset, TileFileError),
        (load_content, ContentFileError),
    ):
        with pytest.raises(error, match="NUL") as caught:
            loader(f"{tmp_path}/sets\x00mine.toml")
        assert "\\x00" in _one_printable_line(caught.value)


def test_an_unreadable_file_says_permission_denied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "t.toml"
    path.write_text('name = "x"\n')

    def refuse(*_: Any, **__: Any) -> int:
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    # the tests run as root, which chmod cannot lock out: refuse the open itself
    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(TrackFileError, match="permission denied"):
        load_track(path)


def test_an_unreadable_tile_folder_says_permission_denied(
    tile_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(path: Any) -> Any:
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    # pathlib's glob would quietly find no tiles in a folder it may not list
    monkeypatch.setattr(os, "scandir", refuse)
    with pytest.raises(TileFileError, match="tiles: permission denied"):
        load_tileset(tile_folder)


def test_a_missing_tile_set_header_says_what_a_set_holds(tmp_path: Path) -> None:
    with pytest.raises(TileFileError, match="tileset.toml .*one TOML file per tile"):
        load_tileset(tmp_path)


# --- the bytes and the TOML ------------------------------------------------------------


def test_a_latin1_file_names_the_first_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_bytes('name = "x"\ndescription = "Forêt"\n'.encode("latin-1"))
    with pytest.raises(TrackFileError) as caught:
        load_track(path)
    assert "is not UTF-8 text (line 2, column 19 holds the byte 0xea)" in _one_printable_line(
        caught.value
    )


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_bytes(b'\xef\xbb\xbfname = "x"\n')
    assert load_track(path).name == "x"


def test_an_oversized_file_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"# " + b"x" * MAX_FILE_BYTES + b"\n")
    with pytest.raises(TrackFileError, match="at most 1,000,000 bytes"):
        read_text(path, TrackFileError)
    with pytest.raises(TrackFileError, match="at most 1,000,000 bytes"):
        parse_track_toml(path.read_text(), source="upload.toml")


def test_nesting_1000_deep_is_a_located_error_from_every_loader(
    tmp_path: Path, tile_folder: Path
) -> None:
    with pytest.raises(TrackFileError, match="upload.toml: nests arrays"):
        parse_track_toml(DEEP, source="upload.toml")
    track = tmp_path / "t.toml"
    track.write_text(DEEP)
    with pytest.raises(TrackFileError, match="nests arrays"):
        load_track(track)
    (tile_folder / "tile-05.toml").write_text(DEEP)
    with pytest.raises(TileFileError, match="tile-05.toml: nests arrays"):
        load_tileset(tile_folder)
    content = tmp_path / "box"
    shutil.copytree(CONTENT, content, ignore=shutil.ignore_patterns("*.py", "__*"))
    (content / "characters.toml").write_text(DEEP)
    with pytest.raises(ContentFileError, match="characters.toml: nests arrays"):
        load_content(content)


def test_an_integer_of_thousands_of_digits_is_bad_toml() -> None:
    with pytest.raises(TrackFileError, match="is not valid TOML"):
        parse_toml("x = " + "9" * 5000, "t.toml", TrackFileError)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('name = "a\\u0000b"', "name"),
        ('[[squares]]\nid = "\\u001b[2J"', "squares[0].id"),
        ('"bad\\u0007key" = 1', "bad\u0007key"),
    ],
)
def test_control_characters_in_strings_are_refused_with_their_field(text: str, field: str) -> None:
    with pytest.raises(TileFileError) as caught:
        parse_toml(text, "t.toml", TileFileError)
    assert caught.value.field == field
    _one_printable_line(caught.value)


def test_tabs_and_line_breaks_stay_allowed_in_text() -> None:
    data = parse_toml('d = """two\n\tlines"""', "t.toml", TrackFileError)
    assert data["d"] == "two\n\tlines"


# --- the fields --------------------------------------------------------------------------


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rotation: int
    name: str = ""


def test_a_misspelt_field_is_reported_as_unknown_not_missing() -> None:
    with pytest.raises(TrackFileError) as caught:
        validated(_Spec, {"rotaton": 90}, "mine.toml", TrackFileError, {"extra_forbidden": "?"})
    assert (caught.value.field, caught.value.problem) == ("rotaton", "?")


def test_a_missing_field_and_a_wrong_type_are_located() -> None:
    with pytest.raises(ContentFileError, match=r"^deck.toml: rotation: required field is"):
        validated(_Spec, {}, "deck.toml", ContentFileError)
    with pytest.raises(ContentFileError, match=r"^deck.toml: name: Input should be a valid"):
        validated(_Spec, {"rotation": 1, "name": 3}, "deck.toml", ContentFileError)


def test_content_errors_are_located_like_the_others(tmp_path: Path) -> None:
    folder = tmp_path / "box"
    shutil.copytree(CONTENT, folder, ignore=shutil.ignore_patterns("*.py", "__*"))
    path = folder / "characters.toml"
    path.write_text(path.read_text().replace('name = "The Troll"', 'name = "flamm, SWAMP dragon"'))
    with pytest.raises(ContentFileError) as caught:
        load_content(folder)
    assert caught.value.path == str(path)
    assert caught.value.field == "characters[1].name" and "different name" in caught.value.problem


# --- files to write ----------------------------------------------------------------------


def test_output_paths_refuse_what_must_not_be_written(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.toml")
    (tmp_path / "dir.toml").mkdir()
    (tmp_path / "mine.toml").write_text("precious")
    cases = {
        "pipe.toml": "named pipe",
        "dir.toml": "is a folder",
        "mine.toml": "already exists",
        "no/such/folder/t.toml": "no such file or folder",
        "mine.toml/t.toml": "is a file, not a folder",
        "t\x00.toml": "NUL",
        "x" * 5000 + ".toml": "too long",
        "t.png": "write to a .toml file",
    }
    for name, words in cases.items():
        with pytest.raises(OutputFileError, match=words) as caught:
            output_path(tmp_path / name, overwrite=name != "mine.toml", suffixes=(".toml",))
        _one_printable_line(caught.value)
    assert output_path(tmp_path / "mine.toml", overwrite=True, suffixes=(".toml",))


def test_a_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "mine.toml"
    path.write_text("precious")

    def disk_full(*_: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(OutputFileError, match="cannot be written"):
        write_text(path, "new")
    assert path.read_text() == "precious"
    assert [p.name for p in tmp_path.iterdir()] == ["mine.toml"]  # no temporary left


def test_shown_escapes_and_shortens() -> None:
    assert shown("a\x00b\nc\x1b\u202e") == "a\\x00b\\nc\\x1b\\u202e"
    assert shown("\udcff") == "\\udcff"  # a byte of a file name that is not UTF-8
    long = shown("a" * 1000 + "end", 50)
    assert len(long) == 50 and long.endswith("end")


# --- properties: hostile bytes, text and mutated bundled files ----------------------------

LOADER_ERRORS: dict[str, type[LocatedError]] = {
    "track": TrackFileError,
    "tile": TileFileError,
    "content": ContentFileError,
}

# Values of other types (and hostile ones) to put where a value stood.
_VALUES = st.one_of(
    st.sampled_from(
        [
            '"text"',
            '""',
            "7",
            "-1",
            "0",
            "3.5",
            "inf",
            "nan",
            "true",
            "[]",
            "[1, 2]",
            '["1", "2"]',
            "{ a = 1 }",
            "1979-05-27",
            '"plain"',
            '"swamp"',
            '"\\u0000"',
            "9" * 40,
            "[" * 1200 + "]" * 1200,
            '"' + "x" * 300 + '"',
        ]
    ),
    st.integers(-(2**70), 2**70).map(str),
)
_VALUE = re.compile(rb"=\s*(\"[^\"\n]*\"|[^,}\]\n]+)")


@st.composite
def mutations(draw: st.DrawFn, original: bytes) -> bytes:
    """``original`` with one to four edits: a line deleted or duplicated, a value replaced
    by one of another type, the text cut short, random bytes inserted."""
    data = original
    for _ in range(draw(st.integers(1, 4))):
        lines = data.splitlines(keepends=True) or [b""]
        edit = draw(st.sampled_from(["delete", "duplicate", "retype", "truncate", "bytes"]))
        if edit == "delete":
            del lines[draw(st.integers(0, len(lines) - 1))]
            data = b"".join(lines)
        elif edit == "duplicate":
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i])
            data = b"".join(lines)
        elif edit == "retype":
            spots = list(_VALUE.finditer(data))
            if spots:
                spot = spots[draw(st.integers(0, len(spots) - 1))]
                new = draw(_VALUES).encode()
                data = data[: spot.start(1)] + new + data[spot.end(1) :]
        elif edit == "truncate":
            data = data[: draw(st.integers(0, len(data)))]
        else:
            at = draw(st.integers(0, len(data)))
            data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
    return data


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Copies of the bundled tiles and content, restored file by file between examples."""
    root = tmp_path_factory.mktemp("fuzz")
    shutil.copytree(
        bundled_tiles_folder(), root / "tiles", ignore=shutil.ignore_patterns("*.py", "__*")
    )
    shutil.copytree(CONTENT, root / "content", ignore=shutil.ignore_patterns("*.py", "__*"))
    yield root


def _load_with(
    workspace: Path, kind: str, name: str, data: bytes
) -> tuple[Callable[[], Any], type[LocatedError], Path]:
    if kind == "track":
        path = workspace / name
        path.write_bytes(data)
        return (lambda: load_track(path)), TrackFileError, path
    folder = workspace / ("tiles" if kind == "tile" else "content")
    path = folder / name
    path.write_bytes(data)
    loader = load_tileset if kind == "tile" else load_content
    return (lambda: loader(folder)), LOADER_ERRORS[kind], path


BUNDLED_FILES = [
    *(("tile", p.name, p.read_bytes()) for p in sorted(bundled_tiles_folder().glob("*.toml"))),
    *(("track", p.name, p.read_bytes()) for p in sorted(PRESETS.glob("*.toml"))),
    *(("content", p.name, p.read_bytes()) for p in sorted(CONTENT.glob("*.toml"))),
]
_FUZZ = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _loads_or_fails_cleanly(load: Callable[[], Any], error: type[LocatedError], path: Path) -> None:
    try:
        loaded = load()
    except error as caught:
        assert caught.path.startswith(str(path.parent))
        _one_printable_line(caught)
    else:
        assert isinstance(loaded, Track | TileSet | Content)


@pytest.mark.slow  # the arbitrary-text and -bytes fuzzers stay quick: about 3 s
@_FUZZ
@given(st.data())
def test_a_mutated_bundled_file_loads_or_fails_with_its_loaders_error(
    workspace: Path, data: st.DataObject
) -> None:
    kind, name, original = data.draw(st.sampled_from(BUNDLED_FILES), label="file")
    mutated = data.draw(mutations(original), label="mutated")
    load, error, path = _load_with(workspace, kind, name, mutated)
    try:
        _loads_or_fails_cleanly(load, error, path)
    finally:
        if kind != "track":
            path.write_bytes(original)


@pytest.mark.slow  # 1.0 s with the engines compiled (the quick loop's budget)
@_FUZZ
@given(kind=st.sampled_from(sorted(LOADER_ERRORS)), raw=st.binary(max_size=300))
def test_arbitrary_bytes_load_or_fail_with_the_loaders_error(
    workspace: Path, kind: str, raw: bytes
) -> None:
    name = {"track": "t.toml", "tile": "tile-05.toml", "content": "deck.toml"}[kind]
    folder = workspace / {"track": ".", "tile": "tiles", "content": "content"}[kind]
    original = (folder / name).read_bytes() if kind != "track" else b""
    load, error, path = _load_with(workspace, kind, name, raw)
    try:
        _loads_or_fails_cleanly(load, error, path)
    finally:
        if kind != "track":
            path.write_bytes(original)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(max_size=300))
def test_arbitrary_text_parses_or_fails_with_a_track_file_error(text: str) -> None:
    try:
        parse_track_toml(text, source="upload.toml")
    except TrackFileError as error:
        assert _one_printable_line(error).startswith("upload.toml: ")
