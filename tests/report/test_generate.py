"""Drawn tracks as JSON Lines, as text, and as track files in a folder."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from trackkit.errors import OutputFileError
from trackkit.games import load_tileset
from trackkit.games.tilekit.track import load_track, parse_track
from trackkit.games.yummell.core.space import TrackSpace
from trackkit.report.generate import (
    generate_lines,
    generate_text,
    track_file_name,
    write_track_files,
)
from trackkit.validate import validate


def test_each_line_is_a_json_object_with_the_track_file_placements() -> None:
    space = TrackSpace(5)
    ranks = space.sample_ranks(8, seed=3)
    lines = list(generate_lines(space, ranks))
    assert len(lines) == 8
    for rank, line in zip(ranks, lines, strict=True):
        data = json.loads(line)
        assert list(data) == ["name", "players", "rank", "placements"]
        assert data["rank"] == rank and data["players"] == 5
        track = space.track(rank)
        assert data["name"] == track.name
        assert data["placements"] == track.to_dict()["placements"]
        rebuilt = parse_track({"name": data["name"], "placements": data["placements"]}, source="x")
        assert rebuilt == track


def test_the_text_gives_the_rank_and_the_tiles_of_each_track() -> None:
    space = TrackSpace(4)
    ranks = [0, 26_639, 77]
    lines = list(generate_text(space, ranks, seed=5))
    assert lines[0].startswith("3 of the 26,640 legal 4-player tracks (seed 5)")
    assert len(lines) == 4
    for rank, line in zip(ranks, lines[1:], strict=True):
        assert line == f"rank {rank:>6,}: " + " ".join(map(str, space.track(rank).tiles))


def test_track_files_are_written_once_per_rank_and_load_as_valid_tracks(tmp_path: Path) -> None:
    space = TrackSpace(6)
    folder = tmp_path / "new" / "tracks"  # made if missing
    files = write_track_files(space, [9, 400_000, 9], folder)
    assert files.written == [folder / track_file_name(9), folder / track_file_name(400_000)]
    assert files.kept == [] and sorted(os.listdir(folder)) == [
        "track-0000009.toml",
        "track-0400000.toml",
    ]
    track = load_track(folder / "track-0400000.toml")
    assert track.placements == space.track(400_000).placements
    assert validate(track, players=6).ok and space.rank(track) == 400_000
    again = write_track_files(space, [400_000, 10], folder)  # the same file is kept
    assert again.kept == [folder / "track-0400000.toml"]
    assert again.written == [folder / "track-0000010.toml"]
    assert "Wrote 1 track files" in again.text() and "1 already there" in again.text()


def test_a_different_file_of_the_same_name_is_never_replaced(tmp_path: Path) -> None:
    space = TrackSpace(3)
    mine = tmp_path / track_file_name(20)
    mine.write_text("my notes\n")
    with pytest.raises(OutputFileError, match="holds something else; nothing was written"):
        write_track_files(space, [5, 20], tmp_path)
    assert mine.read_text() == "my notes\n"
    assert sorted(os.listdir(tmp_path)) == [track_file_name(20)]  # not even rank 5 written
    (tmp_path / track_file_name(30)).mkdir()  # a folder in the way is refused as well
    with pytest.raises(OutputFileError, match="holds something else"):
        write_track_files(space, [30], tmp_path)


def test_a_file_where_the_folder_should_be_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x").write_text("")
    with pytest.raises(OutputFileError, match="is a file; name a folder"):
        write_track_files(TrackSpace(3), [1], tmp_path / "x")


def test_tracks_of_a_custom_tile_set_name_their_tiles(tmp_path: Path, tile_folder: Path) -> None:
    space = TrackSpace(3, load_tileset(tile_folder))
    [line] = generate_lines(space, [7])
    assert json.loads(line)["tileset"] == tile_folder.as_posix()
    files = write_track_files(space, [7], tmp_path / "out")
    track = load_track(files.written[0])
    assert track.tileset is not None and track.tileset.resolve() == tile_folder.resolve()
    assert validate(track, players=3).ok
