"""What ``trackkit generate`` gives: tracks of a design space, by rank, as JSON Lines, as
a short text, or as track files in a folder.

>>> from trackkit.games import get_ruleset
>>> space = get_ruleset().track_space(3)
>>> print(next(generate_lines(space, [1234])))  # doctest: +ELLIPSIS
{"name": "3-player track #1234", "players": 3, "rank": 1234, "placements": [{"tile": 1, ...}
>>> print("\\n".join(generate_text(space, [0, 2675], seed=0)))
2 of the 2,676 legal 3-player tracks (seed 0); rank, then tiles in placing order:
rank     0: 1 3 4 5 2
rank 2,675: 1 10 9 8 2
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trackkit.board.datafile import describe_os_error, output_path, write_text
from trackkit.errors import ExistingFileError, OutputFileError, TrackkitError
from trackkit.explore.sweep import TrackSpace


def generate_lines(space: TrackSpace, ranks: Sequence[int]) -> Iterator[str]:
    """One JSON object per rank: the track's ``name``, ``players``, ``rank`` (and its
    ``tileset`` folder when it is not the game's own) and ``placements``, the design as a
    sweep's row holds it, read back (Yummell: as in a track file's ``[[placements]]``
    tables; Snow Tails: the design's key)."""
    codec = _codec(space)
    for rank in ranks:
        track = space.track(rank)
        line: dict[str, Any] = {"name": track.name, "players": space.players, "rank": rank}
        if space.folder is not None:
            line["tileset"] = space.folder
        line["placements"] = codec.decode(space.design_text(rank, track))
        yield json.dumps(line, ensure_ascii=False)


def generate_text(space: TrackSpace, ranks: Sequence[int], *, seed: int) -> Iterator[str]:
    """A heading, then one line per rank: the rank and the design in a few words."""
    legal, estimate = space.legal_count()
    yield (
        f"{len(ranks):,} of the {'about ' if estimate else ''}{legal:,} legal "
        f"{space.players}-player tracks (seed {seed}); rank, then {space.summary_words}:"
    )
    width = len(f"{len(space) - 1:,}")
    for rank in ranks:
        yield f"rank {rank:>{width},}: {space.summary(rank, space.track(rank))}"


def _codec(space: TrackSpace) -> Any:
    from trackkit.games import get_ruleset  # the registry, not a game

    codec = get_ruleset(space.game).design_codec
    if codec is None:
        raise TrackkitError(f"{space.game} has no design a track file can be written from")
    return codec


@dataclass(frozen=True)
class TrackFiles:
    """Where :func:`write_track_files` put the tracks: the files it wrote, and those that
    were there already holding the same track (a rank drawn twice, a run repeated)."""

    folder: Path
    written: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "folder": str(self.folder),
            "written": [str(p) for p in self.written],
            "kept": [str(p) for p in self.kept],
        }

    def text(self) -> str:
        said = f"Wrote {len(self.written):,} track files to {self.folder}"
        if self.kept:
            said += f" ({len(self.kept):,} already there with the same track, kept)"
        return said


def track_file_name(rank: int) -> str:
    """The file a track of rank ``rank`` is written to.

    >>> track_file_name(1234)
    'track-0001234.toml'
    """
    return f"track-{rank:07d}.toml"


def write_track_files(space: TrackSpace, ranks: Sequence[int], folder: str | Path) -> TrackFiles:
    """Each rank's track as a TOML track file ``track-{rank:07d}.toml`` in ``folder``
    (made if missing). A file of that name holding the same track is kept; one holding
    anything else is refused before any file is written, so no file of the user's is lost.
    """
    folder = Path(folder)
    codec = _codec(space)
    _make_folder(folder)
    files = TrackFiles(folder)
    ranks = list(dict.fromkeys(ranks))  # a rank drawn twice is one file
    there = [rank for rank in ranks if (folder / track_file_name(rank)).exists()]
    for rank in there:  # every clash is found before anything is written
        if not _holds(folder / track_file_name(rank), space, rank, codec):
            raise _clash(folder / track_file_name(rank))
    for rank in ranks:
        path = folder / track_file_name(rank)
        if rank in there:
            files.kept.append(path)
            continue
        try:
            text = codec.file_text(space.track(rank), folder)
            files.written.append(
                write_text(output_path(path, overwrite=False, suffixes=(".toml",)), text)
            )
        except ExistingFileError:  # it appeared meanwhile
            if not _holds(path, space, rank, codec):
                raise _clash(path) from None
            files.kept.append(path)
    return files


def _make_folder(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise OutputFileError(str(folder), None, "is a file; name a folder for the track files")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputFileError(str(folder), None, describe_os_error(exc)) from None


def _holds(path: Path, space: TrackSpace, rank: int, codec: Any) -> bool:
    """Whether ``path`` is a file holding exactly the track file of ``rank``."""
    try:
        return path.is_file() and path.read_text("utf-8") == codec.file_text(
            space.track(rank), path.parent
        )
    except (OSError, UnicodeDecodeError):
        return False


def _clash(path: Path) -> OutputFileError:
    return OutputFileError(
        str(path),
        None,
        "already exists and holds something else; nothing was written. Write to another "
        "folder, or move that file away",
    )
