"""Sweeping a design space: every legal track (or a uniform sample) profiled on a Dask
cluster, the results in partitioned Parquet, one row per track.

A sweep is what its manifest ``DIR/sweep.json`` records (:class:`SweepPlan`): the game,
the players, the tile set, the races and seed of each profile, the sample (or every track)
and whether the exact solver runs. Its tracks, in rank order (or the sorted sample), are
cut into partitions of ``partition_size`` consecutive tracks; partition ``i`` becomes
``DIR/part-{i:06d}.parquet``, written under a temporary name and renamed into place, so a
sweep that is killed leaves only whole partitions, and starting it again profiles only
the partitions missing. Every track is profiled with the sweep's seed (common random
numbers: race ``r`` is dealt, shuffled and ordered alike on every track, so tracks differ
by what they do rather than by luck, :mod:`trackkit.explore.profile`), so the table is the
same whatever the partitioning, the number of workers or the cluster, and a row is what
``trackkit profile TRACK --seed SEED --races RACES`` gives.

Memory stays flat however large the space: partitions are described lazily, at most a few
per worker are in flight, and each worker streams its partition's tracks from the space.

>>> partition_file(12)
'part-000012.parquet'
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import os
import re
import stat
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields
from importlib import metadata
from itertools import islice
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from trackkit.board.datafile import describe_os_error, first_problem, read_bytes
from trackkit.board.track import DEFAULT_GAME, GAME_NAME, MAX_PATH
from trackkit.errors import LocatedError, TrackkitError, shown
from trackkit.explore.profile import (
    FIGURE_KEYS,
    PROFILE_RACES,
    REFERENCE_TRACKS,
    profile_options,
    profile_track,
)
from trackkit.limits import SWEEP_RACES

MANIFEST = "sweep.json"
MANIFEST_FORMAT = 2  # 2: common random numbers, the reference, precision (issue 21)
PARTITION_SIZE = 500
IN_FLIGHT_PER_WORKER = 3  # partitions queued per worker: enough to keep each one busy
CONNECT_SECONDS = 20  # how long to try to reach a scheduler
PART_NAME = re.compile(r"part-([0-9]{6,})\.parquet")
Progress = Callable[[int, int], None]
# A manifest is some 500 bytes of flat JSON: anything far bigger or nested is not one, and
# is refused before it is parsed (a deep nesting would exhaust the parser's stack).
MANIFEST_MAX_BYTES = 64 * 1024
MANIFEST_MAX_DEPTH = 4
MAX_SPACE = 10**15  # far more tracks than any space holds (8 players: 9,400,320)
MAX_RACES = 1_000_000  # races of one track's profile (the command line's bound)
MAX_PARTITION = 100_000  # tracks of one partition (the command line's bound)
MAX_SEED = 2**64 - 1
REDO = "the sweep's files were changed or damaged: sweep again into a new folder"


class SweepFolderError(LocatedError):
    """A sweep folder's file (its manifest, a partition) that cannot be used: the file,
    the field or column, and what to do. A sweep folder may come from anyone, so every
    value read from it is checked before it is used."""


class TrackSpace(Protocol):
    """Every legal track of a game for a number of players, ranked ``0 .. len - 1`` in one
    canonical order (the game's ruleset gives it: ``ruleset.track_space(players, tileset)``)."""

    players: int
    tileset: Any

    def __len__(self) -> int: ...

    def track(self, rank: int) -> Any: ...

    def tracks(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[int, Any]]: ...

    def sample_ranks(self, count: int, seed: int, *, distinct: bool = False) -> list[int]: ...


def space_of(game: str, players: int, tileset_folder: str | None = None) -> TrackSpace:
    """Every legal track of ``game`` for ``players`` with the tile set in
    ``tileset_folder`` (None: the game's own), from the game's ruleset; a clear error for
    a game that has none. (Dask sends it to the workers with cloudpickle.)"""
    from trackkit.games.base import get_ruleset, load_tileset  # the interface, not a game

    ruleset = get_ruleset(game)
    make = getattr(ruleset, "track_space", None)
    space = make(players, load_tileset(tileset_folder, game=game)) if make is not None else None
    if space is None:
        raise TrackkitError(
            f"{ruleset.title} has no space of legal tracks to sweep (its ruleset gives no "
            "track_space)"
        )
    return space


def partition_file(index: int) -> str:
    """The name of partition ``index``'s Parquet file in a sweep's folder."""
    return f"part-{index:06d}.parquet"


def trackkit_version() -> str:
    try:
        return metadata.version("trackkit")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def tileset_fingerprint(tileset: Any) -> str:
    """A short hash of a tile set's tiles: two folders with the same tiles give the same
    fingerprint, so a sweep resumes wherever the set lies on disk."""
    text = repr((tileset.grid, [(number, tileset[number]) for number in tileset]))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class SweepPlan:
    """What a sweep is, as its manifest records it; two runs into one folder must agree on
    every field (the number of workers and the cluster are not part of it)."""

    game: str
    players: int
    tileset: str
    tileset_fingerprint: str
    tileset_folder: str | None  # None: the game's own tile set
    space_size: int
    races: int
    seed: int
    sample: int | None  # None: every track of the space
    exact: bool
    partition_size: int
    trackkit: str
    precision: float | None = None  # races added until balance is this precise (None: no)
    max_races: int = 0  # the most races of one track with a precision (0: no precision)
    characters: bool = False  # each character's exact solo rounds (costly: 8 solves)
    sample_seed: int | None = None  # draws the sample (None: the seed)

    @property
    def tracks(self) -> int:
        """Tracks the sweep profiles."""
        return self.space_size if self.sample is None else self.sample

    @property
    def partitions(self) -> int:
        return math.ceil(self.tracks / self.partition_size)

    def to_json(self) -> dict[str, Any]:
        return {"format": MANIFEST_FORMAT, **asdict(self)}

    @classmethod
    def from_json(cls, data: Any, source: str) -> SweepPlan:
        """The plan a manifest's JSON records, every field checked (types, ranges, a game
        with a space to sweep); a :class:`SweepFolderError` naming the field otherwise."""
        if not isinstance(data, dict):
            raise SweepFolderError(source, None, f"is not a trackkit sweep manifest: {REDO}")
        if isinstance(data.get("format"), int) and data["format"] < MANIFEST_FORMAT:
            raise SweepFolderError(
                source,
                "format",
                f"is a sweep of an older trackkit (format {data['format']}, before common "
                "random numbers and the reference): sweep again into a new folder",
            )
        try:
            spec = _ManifestSpec.model_validate(data)
        except ValidationError as error:
            field, problem = first_problem(error, _MANIFEST_HINTS)
            raise SweepFolderError(source, field or None, f"{problem}; {REDO}") from None
        return cls(**spec.model_dump(exclude={"format"}))

    def differences(self, other: SweepPlan) -> list[str]:
        """What differs between this plan and ``other``, one ``field: mine vs theirs`` each."""
        return [
            f"{f.name} {getattr(self, f.name)!r} vs {getattr(other, f.name)!r}"
            for f in fields(self)
            if getattr(self, f.name) != getattr(other, f.name)
        ]


class _ManifestSpec(BaseModel):
    """What a manifest may hold: :class:`SweepPlan`'s fields with their types and ranges."""

    model_config = ConfigDict(extra="forbid", strict=True)
    format: StrictInt = Field(ge=MANIFEST_FORMAT, le=MANIFEST_FORMAT)
    game: StrictStr = Field(max_length=40, pattern=GAME_NAME)
    players: StrictInt = Field(ge=1, le=100)
    tileset: StrictStr = Field(max_length=200)
    tileset_fingerprint: StrictStr = Field(pattern=r"^[0-9a-f]{16}$")
    tileset_folder: StrictStr | None = Field(min_length=1, max_length=MAX_PATH)
    space_size: StrictInt = Field(ge=1, le=MAX_SPACE)
    races: StrictInt = Field(ge=2, le=MAX_RACES)
    seed: StrictInt = Field(ge=0, le=MAX_SEED)
    sample: StrictInt | None = Field(ge=1, le=MAX_SPACE)
    exact: StrictBool
    partition_size: StrictInt = Field(ge=1, le=MAX_PARTITION)
    trackkit: StrictStr = Field(max_length=100)
    precision: StrictFloat | None = Field(gt=0, lt=1)
    max_races: StrictInt = Field(ge=0, le=MAX_RACES)
    characters: StrictBool
    sample_seed: StrictInt | None = Field(ge=0, le=MAX_SEED)

    @model_validator(mode="after")
    def _consistent(self) -> _ManifestSpec:
        from trackkit.games.base import get_ruleset, rulesets  # the registry, not a game

        if self.game not in rulesets():
            raise ValueError(
                f"game: {self.game!r} is not a game trackkit knows ({', '.join(rulesets())})"
            )
        ruleset = get_ruleset(self.game)
        if getattr(ruleset, "track_space", None) is None:
            raise ValueError(f"game: {ruleset.title} has no space of tracks to sweep")
        bounds = ruleset.players
        if not bounds.build_min <= self.players <= bounds.build_max:
            raise ValueError(
                f"players: {ruleset.title}'s building rule is for {bounds.build_min} to "
                f"{bounds.build_max} players, not {self.players}"
            )
        if self.sample is not None and self.sample > self.space_size:
            raise ValueError(f"sample: {self.sample:,} tracks of a space of {self.space_size:,}")
        names = ("tileset", self.tileset), ("trackkit", self.trackkit)
        for name, text in (*names, ("tileset_folder", self.tileset_folder or "")):
            if not text.isprintable():
                raise ValueError(f"{name}: holds a control character")
        if self.tileset_folder is not None and not os.path.isabs(self.tileset_folder):
            raise ValueError("tileset_folder: is not an absolute path (a sweep records one)")
        return self


_MANIFEST_HINTS = {"extra_forbidden": "not a field of a sweep manifest"}


def plan_sweep(
    space: TrackSpace,
    *,
    races: int = PROFILE_RACES,
    seed: int = 0,
    sample: int | None = None,
    exact: bool = True,
    partition_size: int = PARTITION_SIZE,
    precision: float | None = None,
    max_races: int | None = None,
    characters: bool = False,
    sample_seed: int | None = None,
) -> SweepPlan:
    """The plan of a sweep of ``space``, its options checked. With ``precision``, each
    track races until its balance is that precise or ``max_races`` (default: 10 × races)
    are run; the sweep's bound on races counts ``max_races`` a track. ``sample_seed`` draws
    the sample (default: ``seed``), so two sweeps of one sample can race other seeds."""
    size = len(space)
    if not 2 <= races <= MAX_RACES:
        raise TrackkitError(f"a profile runs 2 to {MAX_RACES:,} races, not {races:,}")
    if precision is not None and not 0 < precision < 1:
        raise TrackkitError(f"the precision is a half-width between 0 and 1, not {precision}")
    most = 0
    if precision is not None:
        most = max_races if max_races is not None else min(MAX_RACES, 10 * races)
        if not races <= most <= MAX_RACES:
            raise TrackkitError(
                f"the most races of a track is {races:,} (--races) to {MAX_RACES:,}, not {most:,}"
            )
    if not 0 <= seed <= MAX_SEED:
        raise TrackkitError(f"the seed is a whole number from 0 to 2**64 - 1, not {seed}")
    if not 1 <= partition_size <= MAX_PARTITION:
        raise TrackkitError(
            f"a partition holds 1 to {MAX_PARTITION:,} tracks, not {partition_size:,}"
        )
    if size == 0:
        raise TrackkitError(f"there is no legal track for {space.players} players to sweep")
    if sample is not None and not 1 <= sample <= size:
        raise TrackkitError(
            f"a sample is 1 to {size:,} tracks (the {space.players}-player space), not "
            f"{sample:,}; leave out --sample to sweep every track"
        )
    tracks = size if sample is None else sample
    each = max(races, most)
    # the average track every profile is measured against is raced too (once a worker)
    raced = tracks + REFERENCE_TRACKS
    doing = (
        f"this sweep ({tracks:,} tracks and the {REFERENCE_TRACKS} of an average track × "
        f"{each:,} races each)"
    )
    SWEEP_RACES.check(raced * each, doing)
    tileset = space.tileset
    game = getattr(tileset, "game", DEFAULT_GAME)
    from trackkit.games import get_ruleset  # the registry, not a game

    ruleset = get_ruleset(game)
    own = getattr(ruleset, "default_tileset", None)
    bundled = own is not None and tileset_fingerprint(own()) == tileset_fingerprint(tileset)
    return SweepPlan(
        game=game,
        players=space.players,
        tileset=tileset.name,
        tileset_fingerprint=tileset_fingerprint(tileset),
        tileset_folder=None if bundled else str(Path(tileset.folder).resolve()),
        space_size=size,
        races=races,
        seed=seed,
        sample=sample,
        exact=exact,
        partition_size=partition_size,
        trackkit=trackkit_version(),
        precision=precision,
        max_races=most,
        characters=characters and exact,
        sample_seed=sample_seed if sample is not None else None,
    )


@dataclass(frozen=True)
class Partition:
    """Partition ``index`` of a sweep: the ranks ``start .. stop - 1`` of the space, or
    (a sample) the listed ``ranks``."""

    index: int
    start: int
    stop: int
    ranks: tuple[int, ...] | None = None

    @property
    def size(self) -> int:
        return self.stop - self.start if self.ranks is None else len(self.ranks)

    def describe(self) -> str:
        if self.ranks is None:
            return f"partition {self.index} (ranks {self.start}-{self.stop - 1})"
        return f"partition {self.index} ({len(self.ranks)} sampled ranks from {self.ranks[0]})"


def partitions(plan: SweepPlan, sampled: Sequence[int] | None = None) -> Iterator[Partition]:
    """The sweep's partitions, lazily, in order: consecutive ranks of the space, or of
    ``sampled`` (the sorted sample) for a sampled sweep."""
    size = plan.partition_size
    for index in range(plan.partitions):
        first = index * size
        if sampled is None:
            yield Partition(index, first, min(first + size, plan.space_size))
        else:
            ranks = tuple(int(r) for r in sampled[first : first + size])
            yield Partition(index, ranks[0], ranks[-1] + 1, ranks)


def sample_of(space: TrackSpace, plan: SweepPlan) -> np.ndarray | None:
    """The sorted ranks of a sampled sweep (None for a sweep of every track)."""
    if plan.sample is None:
        return None
    drawn_with = plan.seed if plan.sample_seed is None else plan.sample_seed
    ranks = np.unique(np.asarray(space.sample_ranks(plan.sample, drawn_with, distinct=True)))
    if ranks.shape[0] != plan.sample or ranks[0] < 0 or ranks[-1] >= plan.space_size:
        raise TrackkitError(
            f"the space gave {ranks.shape[0]:,} distinct ranks for a sample of {plan.sample:,}"
        )
    return ranks


# --- on a worker ------------------------------------------------------------------------


class SweepTrackError(TrackkitError):
    """A track of a sweep could not be profiled (which partition, which rank, why)."""


def profile_partition(space: TrackSpace, plan: SweepPlan, partition: Partition) -> pa.Table:
    """Profile the tracks of ``partition`` (on a worker): one row per track, in rank order."""
    from trackkit.games import get_ruleset  # the registry, not a game

    options = profile_options(get_ruleset(plan.game), plan.players)
    if partition.ranks is None:
        tracks = space.tracks(partition.start, partition.stop)
    else:
        tracks = ((rank, space.track(rank)) for rank in partition.ranks)
    rows: list[tuple[int, Any, dict[str, float], int]] = []
    rank = partition.start
    try:
        for rank, track in tracks:
            # every track raced with the sweep's seed: the same deals, shuffles and turn
            # orders (common random numbers), so tracks differ by what they do, not by luck
            profile = profile_track(
                track,
                players=plan.players,
                races=plan.races,
                seed=plan.seed,
                exact=plan.exact,
                characters=plan.characters,
                options=options,
                precision=plan.precision,
                max_races=max(plan.races, plan.max_races),
            )
            values = {**profile.values, "races": float(profile.races)}
            rows.append((rank, track, values, plan.seed))
    except TrackkitError as error:
        raise SweepTrackError(f"{partition.describe()}, track rank {rank}: {error}") from None
    except Exception as error:
        raise SweepTrackError(
            f"{partition.describe()}, track rank {rank}: the profile failed "
            f"({shown(error, 200) or 'no detail'})"
        ) from None
    if len(rows) != partition.size:
        raise SweepTrackError(
            f"{partition.describe()}: the space gave {len(rows)} tracks, not {partition.size}"
        )
    return rows_table(plan, rows)


def figure_columns(values: dict[str, float]) -> list[str]:
    """The figure columns of a table, in order: :data:`FIGURES`, then the game's own
    figures (terrain shares…) by name."""
    return [*FIGURE_KEYS, *sorted(set(values) - set(FIGURE_KEYS))]


def placements_text(track: Any) -> str:
    """A track's placements as a sweep's ``placements`` column holds them (the track file's
    list, as compact JSON): equal texts, the same track on the table."""
    return json.dumps(track.to_dict()["placements"], separators=(",", ":"))


def rows_table(plan: SweepPlan, rows: list[tuple[int, Any, dict[str, float], int]]) -> pa.Table:
    """The Parquet table of profiled tracks: ``rank``, ``players``, ``name``, ``seed``
    (of the track's profile: the sweep's), ``placements`` (the track file's list, as JSON) and one
    float64 column per figure (null where it was not measured, e.g. ``--no-exact``)."""
    columns = figure_columns(rows[0][2]) if rows else list(FIGURE_KEYS)
    data: dict[str, pa.Array] = {
        "rank": pa.array([r[0] for r in rows], pa.int64()),
        "players": pa.array([plan.players] * len(rows), pa.int64()),
        "name": pa.array([r[1].name for r in rows], pa.string()),
        "seed": pa.array([r[3] for r in rows], pa.int64()),
        "placements": pa.array([placements_text(r[1]) for r in rows], pa.string()),
    }
    for key in columns:
        values = [r[2].get(key, math.nan) for r in rows]
        data[key] = pa.array([None if math.isnan(v) else float(v) for v in values], pa.float64())
    return pa.table(data)


def warm_worker(track: Any, players: int, exact: bool) -> float:
    """Compile (or load from numba's cache) what a profile runs, on one worker; seconds."""
    start = time.perf_counter()
    profile_track(track, players=players, races=2, seed=0, exact=exact, characters=exact)
    return time.perf_counter() - start


# --- the folder -------------------------------------------------------------------------


def read_manifest(folder: str | Path) -> SweepPlan | None:
    """The plan in ``folder``'s manifest, or None when it holds none. The manifest is
    untrusted: only a regular file of at most :data:`MANIFEST_MAX_BYTES` is read (never
    a pipe, which would block), its nesting is bounded before it is parsed, and every
    field is checked (:meth:`SweepPlan.from_json`)."""
    path = Path(folder) / MANIFEST
    source = str(path)
    try:
        os.lstat(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        problem = describe_os_error(error) if isinstance(error, OSError) else str(error)
        raise SweepFolderError(source, None, problem) from None
    data = read_bytes(path, SweepFolderError)
    if len(data) > MANIFEST_MAX_BYTES:
        raise SweepFolderError(
            source,
            None,
            f"is {len(data):,} bytes; a sweep manifest holds a few hundred (at most "
            f"{MANIFEST_MAX_BYTES:,}): {REDO}",
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SweepFolderError(source, None, f"is not UTF-8 text: {REDO}") from None
    depth = json_depth(text)
    if depth > MANIFEST_MAX_DEPTH:
        raise SweepFolderError(
            source,
            None,
            f"nests [ or {{ {depth:,} deep; a sweep manifest is one flat object: {REDO}",
        )
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError) as error:  # RecursionError: cannot pass the depth
        raise SweepFolderError(source, None, f"is not JSON ({error}): {REDO}") from None
    return SweepPlan.from_json(parsed, source)


def json_depth(text: str) -> int:
    """How deep ``text``'s arrays and objects nest (strings skipped), counted without
    parsing it, so a nesting too deep for the parser is refused before it runs.

    >>> json_depth('{"a": [1, "[[["], "b": {}}')
    2
    """
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def prepare_folder(folder: str | Path, plan: SweepPlan) -> bool:
    """Make ``folder`` ready for ``plan``: a new or empty folder gets the manifest, a
    folder with the same plan is resumed (True), anything else is refused untouched."""
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise SweepFolderError(str(path), None, "is a file, not a folder for a sweep")
    existing = read_manifest(path) if path.is_dir() else None
    if existing is not None:
        differences = existing.differences(plan)
        if differences:
            raise SweepFolderError(
                str(path),
                None,
                f"holds a different sweep (there vs asked: {'; '.join(differences)}): "
                "choose another folder, or ask for the same sweep to resume it",
            )
        _remove_temporaries(path)
        return True
    if path.is_dir() and any(path.iterdir()):
        raise SweepFolderError(
            str(path),
            None,
            f"holds files but no {MANIFEST}: a sweep goes into a new or empty folder",
        )
    try:
        path.mkdir(parents=True, exist_ok=True)
        _write_atomically(path / MANIFEST, json.dumps(plan.to_json(), indent=2).encode())
    except OSError as error:
        raise SweepFolderError(
            str(path), None, f"cannot write the sweep there: {describe_os_error(error)}"
        ) from None
    return False


def _temporary(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def _remove_temporaries(folder: Path) -> None:
    """Remove the half-written partitions a killed sweep left (its own files only)."""
    for leftover in folder.glob(".part-*.parquet.*.tmp"):
        with contextlib.suppress(OSError):
            leftover.unlink()


def _write_atomically(path: Path, data: bytes) -> None:
    temporary = _temporary(path)
    with open(temporary, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def write_partition(folder: Path, index: int, table: pa.Table) -> Path:
    """Write partition ``index`` whole or not at all (a temporary file renamed into place)."""
    path = folder / partition_file(index)
    temporary = _temporary(path)
    try:
        pq.write_table(table, temporary)
        with open(temporary, "rb") as file:
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise SweepFolderError(
            str(path), None, f"cannot be written: {describe_os_error(error)}"
        ) from None
    return path


def finished_partitions(folder: str | Path) -> set[int]:
    """The indexes of the partitions written whole in ``folder`` (a name only counts in
    the very form :func:`partition_file` gives it: ``part-0000001.parquet`` is not
    partition 1)."""
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return set()
    found = (m for m in map(PART_NAME.fullmatch, names) if m)
    return {int(m.group(1)) for m in found if m.group(0) == partition_file(int(m.group(1)))}


@dataclass(frozen=True)
class SweepStatus:
    """How far the sweep in a folder is: partitions and tracks done, of all."""

    plan: SweepPlan
    partitions_done: int
    tracks_done: int

    @property
    def partitions(self) -> int:
        return self.plan.partitions

    @property
    def tracks(self) -> int:
        return self.plan.tracks

    @property
    def complete(self) -> bool:
        return self.partitions_done == self.partitions


def sweep_status(folder: str | Path) -> SweepStatus:
    """The progress of the sweep in ``folder`` (a clear error if it holds none)."""
    plan = _plan_in(folder)
    done = {i for i in finished_partitions(folder) if i < plan.partitions}
    size = plan.partition_size
    last = plan.partitions - 1
    tracks = sum(size if i < last else plan.tracks - last * size for i in done)
    return SweepStatus(plan, len(done), tracks)


def _plan_in(folder: str | Path) -> SweepPlan:
    if not Path(folder).is_dir():
        raise SweepFolderError(str(folder), None, "is not a folder: there is no sweep there")
    plan = read_manifest(folder)
    if plan is None:
        raise SweepFolderError(
            str(folder), None, f"holds no sweep (no {MANIFEST}): run `trackkit sweep --out` first"
        )
    return plan


def partition_paths(folder: str | Path, plan: SweepPlan) -> list[Path]:
    """The files of ``plan``'s finished partitions, in partition order (a stray
    ``part-000999.parquet`` beyond the plan's partitions is no part of the sweep)."""
    done = sorted(i for i in finished_partitions(folder) if i < plan.partitions)
    return [Path(folder) / partition_file(i) for i in done]


# the columns every partition holds (:func:`rows_table`), besides its figures (float64)
ROW_COLUMNS = {
    "rank": pa.int64(),
    "players": pa.int64(),
    "name": pa.string(),
    "seed": pa.int64(),
    "placements": pa.string(),
}
FIGURE_COLUMN = re.compile(r"[a-z_][a-z0-9_]{0,59}")
MAX_COLUMNS = 200


@dataclass(frozen=True)
class SweepParts:
    """A sweep's finished partition files, each checked, and their columns."""

    paths: list[Path]
    schema: pa.Schema


def checked_parts(folder: str | Path, plan: SweepPlan) -> SweepParts:
    """The finished partitions of ``plan`` in ``folder``, each checked before it is
    queried: a regular file (a named pipe would block its reader), a Parquet file with
    the columns of a sweep and their types, as many rows as its partition holds, and the
    ranks it should hold (in order, each once). A :class:`SweepFolderError` naming the
    file otherwise."""
    schemas: list[pa.Schema] = []
    paths = partition_paths(folder, plan)
    previous = -1
    for path in paths:
        index = int(PART_NAME.fullmatch(path.name).group(1))  # type: ignore[union-attr]
        schema, ranks = _read_part(path)
        _check_ranks(path, plan, index, ranks, previous)
        previous = int(ranks[-1])
        schemas.append(schema)
    try:
        schema = pa.unify_schemas(schemas) if schemas else pa.schema([])
    except (pa.ArrowException, ValueError) as error:
        raise SweepFolderError(str(folder), None, f"its parts disagree ({error}): {REDO}") from None
    return SweepParts(paths, schema)


def _read_part(path: Path) -> tuple[pa.Schema, np.ndarray]:
    """A partition file's schema and ranks, read through a handle checked to be a
    regular file (opened without blocking, so a pipe swapped in is refused too)."""
    source = str(path)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise SweepFolderError(source, None, f"is not a regular file: {REDO}")
        fd = os.open(path, flags)
    except OSError as error:
        raise SweepFolderError(source, None, describe_os_error(error)) from None
    with open(fd, "rb", closefd=True) as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise SweepFolderError(source, None, f"is not a regular file: {REDO}")
        try:
            part = pq.ParquetFile(handle)
            schema = part.schema_arrow
            _check_columns(path, schema)
            ranks = part.read(columns=["rank"]).column("rank")
        except (pa.ArrowException, OSError, ValueError) as error:
            problem = f"is not a sweep's Parquet file ({shown(error, 200)}): {REDO}"
            raise SweepFolderError(source, None, problem) from None
    if ranks.null_count:
        raise SweepFolderError(source, "rank", f"has empty cells: {REDO}")
    return schema, ranks.to_numpy()


def _check_columns(path: Path, schema: pa.Schema) -> None:
    if len(schema) > MAX_COLUMNS:
        raise SweepFolderError(str(path), None, f"has {len(schema):,} columns: {REDO}")
    names = schema.names
    for name, kind in ROW_COLUMNS.items():
        if name not in names:
            raise SweepFolderError(str(path), name, f"the column is missing: {REDO}")
        if schema.field(name).type != kind:
            raise SweepFolderError(
                str(path), name, f"is a column of {schema.field(name).type}, not {kind}: {REDO}"
            )
    if len(set(names)) != len(names):
        raise SweepFolderError(str(path), None, f"names a column twice: {REDO}")
    for field in schema:
        if field.name in ROW_COLUMNS:
            continue
        if not FIGURE_COLUMN.fullmatch(field.name):
            raise SweepFolderError(str(path), None, f"has a column of no figure's name: {REDO}")
        if field.type != pa.float64():
            raise SweepFolderError(
                str(path), field.name, f"is a column of {field.type}, not float64: {REDO}"
            )
    missing = [key for key in FIGURE_KEYS if key not in names]
    if missing:
        raise SweepFolderError(str(path), missing[0], f"the column is missing: {REDO}")


def _check_ranks(path: Path, plan: SweepPlan, index: int, ranks: np.ndarray, previous: int) -> None:
    """Partition ``index`` holds its tracks' ranks in order, each once: the plan's
    consecutive ranks, or (a sample) ranks of the space above the last partition's."""
    size = plan.partition_size
    expected = min(size, plan.tracks - index * size)
    if ranks.shape[0] != expected:
        raise SweepFolderError(
            str(path),
            None,
            f"holds {ranks.shape[0]:,} tracks; partition {index} of this sweep holds "
            f"{expected:,}: {REDO}",
        )
    if plan.sample is None:
        start = index * size
        right = bool(np.array_equal(ranks, np.arange(start, start + expected)))
    else:
        right = bool(
            ranks[0] > previous
            and ranks[-1] < plan.space_size
            and (expected == 1 or np.all(np.diff(ranks) > 0))
        )
    if not right:
        raise SweepFolderError(
            str(path), "rank", f"does not hold partition {index}'s ranks in order: {REDO}"
        )


@dataclass(frozen=True)
class SweepTable:
    """The rows of a sweep's finished partitions (sorted by rank) and its status."""

    status: SweepStatus
    table: pa.Table

    @property
    def complete(self) -> bool:
        return self.status.complete

    def to_pandas(self) -> Any:
        return self.table.to_pandas()


def read_sweep(folder: str | Path, columns: Sequence[str] | None = None) -> SweepTable:
    """Every finished row of the sweep in ``folder`` (or only ``columns``), sorted by rank,
    with how complete the sweep is."""
    status = sweep_status(folder)
    parts = checked_parts(folder, status.plan)
    if not parts.paths:
        return SweepTable(status, pa.table({"rank": pa.array([], pa.int64())}))
    wanted = list(columns) if columns is not None else None
    if wanted is not None and "rank" not in wanted:
        wanted.insert(0, "rank")
    try:
        tables = [pq.read_table(p, columns=wanted, schema=parts.schema) for p in parts.paths]
        table = pa.concat_tables(tables)
    except (pa.ArrowException, OSError, ValueError):
        # the error's text may name the server's paths, and the app shows this message
        raise SweepFolderError(str(folder), None, f"its parts cannot be read: {REDO}") from None
    return SweepTable(status, table.sort_by("rank"))


# --- running ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SweepRun:
    """What one run of a sweep did: tracks profiled now (the rest were done before), the
    workers, and the seconds spent starting the cluster, warming the workers and sweeping."""

    folder: str
    plan: SweepPlan
    resumed: bool
    workers: int
    tracks_profiled: int
    partitions_written: int
    status: SweepStatus
    start_seconds: float
    warmup_seconds: float
    sweep_seconds: float

    @property
    def tracks_per_second(self) -> float:
        return self.tracks_profiled / self.sweep_seconds if self.sweep_seconds else math.nan

    def to_json(self) -> dict[str, Any]:
        return {
            "folder": self.folder,
            "sweep": self.plan.to_json(),
            "resumed": self.resumed,
            "workers": self.workers,
            "tracks_profiled": self.tracks_profiled,
            "partitions_written": self.partitions_written,
            "tracks_done": self.status.tracks_done,
            "partitions_done": self.status.partitions_done,
            "partitions": self.status.partitions,
            "complete": self.status.complete,
            "start_seconds": self.start_seconds,
            "warmup_seconds": self.warmup_seconds,
            "sweep_seconds": self.sweep_seconds,
            "tracks_per_second": self.tracks_per_second,
        }


@contextlib.contextmanager
def dask_client(
    workers: int | None = None, scheduler: str | None = None, *, processes: bool = True
) -> Iterator[Any]:
    """A ``distributed.Client``: on the cluster at ``scheduler`` (``tcp://HOST:PORT``), or
    on a local cluster of ``workers`` single-threaded processes (None: one per core).

    ``processes=False``: the local workers are threads of this process, for a small sweep
    from a program that has the engine loaded already (the app), with no processes to
    start."""
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=f"{CONNECT_SECONDS}s")
        except (OSError, TimeoutError, ValueError) as error:
            raise TrackkitError(
                f"cannot reach the Dask scheduler at {shown(scheduler)}: {error}"
            ) from None
        try:
            yield client
        finally:
            client.close()
        return
    count = workers or os.cpu_count() or 1
    if count < 1:
        raise TrackkitError(f"a sweep needs at least 1 worker, not {count}")
    import dask

    # Dask sets MALLOC_TRIM_THRESHOLD_ in its workers to hand memory back early; that also
    # stops glibc from raising its mmap threshold, and the solver's arrays are then mapped
    # and unmapped track after track: a tenth of the time in page faults. A profile's
    # memory is small and bounded, so the workers keep glibc's own behaviour.
    environ = dict(dask.config.get("distributed.nanny.pre-spawn-environ", {}))
    environ.pop("MALLOC_TRIM_THRESHOLD_", None)
    with dask.config.set({"distributed.nanny.pre-spawn-environ": environ}):
        cluster = LocalCluster(
            n_workers=count,
            threads_per_worker=1,
            processes=processes,
            dashboard_address=":0",  # no fixed port: several sweeps may run at once
            silence_logs=logging.CRITICAL,  # a worker's failure is reported here, in one line
        )
    try:
        with Client(cluster) as client:
            yield client
    finally:
        cluster.close()


def run_sweep(
    space: TrackSpace,
    folder: str | Path,
    *,
    races: int = PROFILE_RACES,
    seed: int = 0,
    sample: int | None = None,
    exact: bool = True,
    precision: float | None = None,
    max_races: int | None = None,
    characters: bool = False,
    sample_seed: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    partition_size: int = PARTITION_SIZE,
    progress: Progress | None = None,
    client: Any = None,
) -> SweepRun:
    """Profile every track of ``space`` (or a uniform sample of ``sample``) into
    ``folder``, resuming a sweep there with the same plan.

    Runs on a local Dask cluster of ``workers`` processes (None: one per core), on the
    cluster at ``scheduler``, or through ``client``. ``progress(done, total)`` counts
    tracks as partitions are written.
    """
    plan = plan_sweep(
        space,
        races=races,
        seed=seed,
        sample=sample,
        exact=exact,
        partition_size=partition_size,
        precision=precision,
        max_races=max_races,
        characters=characters,
        sample_seed=sample_seed,
    )
    folder = Path(folder)
    started = time.perf_counter()
    resumed = prepare_folder(folder, plan)
    if client is not None:
        return _sweep_with(client, space, folder, plan, resumed, progress, started)
    with dask_client(workers, scheduler) as own:
        return _sweep_with(own, space, folder, plan, resumed, progress, started)


def _sweep_with(
    client: Any,
    space: TrackSpace,
    folder: Path,
    plan: SweepPlan,
    resumed: bool,
    progress: Progress | None,
    started: float,
) -> SweepRun:
    try:
        client.wait_for_workers(1, timeout=60)
    except TimeoutError:
        raise TrackkitError("the Dask cluster has no worker (waited 60 s)") from None
    workers = max(1, sum(client.nthreads().values()))  # single-threaded workers: one each
    start_seconds = time.perf_counter() - started
    done = {i for i in finished_partitions(folder) if i < plan.partitions}
    todo = (p for p in partitions(plan, sample_of(space, plan)) if p.index not in done)
    tracks_done = sweep_status(folder).tracks_done
    if progress:
        progress(tracks_done, plan.tracks)
    first = next(todo, None)
    warmup_seconds = 0.0
    profiled = written = 0
    sweep_start = time.perf_counter()
    if first is not None:
        warmup_seconds = _warm_workers(client, space.track(first.start), plan)
        sweep_start = time.perf_counter()
        in_flight = IN_FLIGHT_PER_WORKER * workers
        for partition, table in _profiled(client, space, plan, first, todo, in_flight):
            write_partition(folder, partition.index, table)
            written += 1
            profiled += table.num_rows
            tracks_done += table.num_rows
            if progress:
                progress(tracks_done, plan.tracks)
    return SweepRun(
        folder=str(folder),
        plan=plan,
        resumed=resumed,
        workers=workers,
        tracks_profiled=profiled,
        partitions_written=written,
        status=sweep_status(folder),
        start_seconds=start_seconds,
        warmup_seconds=warmup_seconds,
        sweep_seconds=time.perf_counter() - sweep_start,
    )


def _warm_workers(client: Any, track: Any, plan: SweepPlan) -> float:
    """Profile one track on every worker, so the engine is compiled or loaded from numba's
    cache before the sweep is timed; seconds taken."""
    start = time.perf_counter()
    try:
        client.run(warm_worker, track, plan.players, plan.exact)
    except Exception as error:
        raise TrackkitError(
            f"the Dask workers could not profile a track ({shown(error, 200) or 'no detail'})"
        ) from None
    return time.perf_counter() - start


def _profiled(
    client: Any,
    space: TrackSpace,
    plan: SweepPlan,
    first: Partition,
    todo: Iterator[Partition],
    in_flight: int,
) -> Iterator[tuple[Partition, pa.Table]]:
    """Each partition's table as workers finish them, at most ``in_flight`` partitions
    submitted at a time (``first``, then ``todo`` lazily); the space is sent to each
    worker once. An error stops the rest."""
    from distributed import as_completed

    # a key of its own (not the data's hash): a second sweep of the same space on this
    # client must not share the key the first one is releasing (its tasks would wait on it)
    [shared] = client.scatter([space], broadcast=True, hash=False)
    running: dict[str, tuple[Any, Partition]] = {}
    queue = as_completed()

    def submit(partition: Partition) -> None:
        future = client.submit(_partition_task, shared, plan, partition, pure=False)
        running[future.key] = (future, partition)
        queue.add(future)

    for partition in (first, *islice(todo, in_flight - 1)):
        submit(partition)
    try:
        for future in queue:
            _, partition = running.pop(future.key)
            outcome = _result(future, partition)
            future.release()
            if isinstance(outcome, str):
                raise SweepTrackError(outcome)
            yield partition, outcome
            following = next(todo, None)
            if following is not None:
                submit(following)
    finally:
        if running:  # stopped early: cancel the rest, keep what is written
            with contextlib.suppress(Exception):
                client.cancel([future for future, _ in running.values()])
        shared.release()


def _partition_task(space: TrackSpace, plan: SweepPlan, partition: Partition) -> pa.Table | str:
    """:func:`profile_partition` as a Dask task: a track that cannot be profiled comes back
    as its message (a worker would log a raised error with its traceback)."""
    try:
        return profile_partition(space, plan, partition)
    except SweepTrackError as error:
        return str(error)


def _result(future: Any, partition: Partition) -> pa.Table | str:
    """A partition's outcome, or one clear error for what went wrong on the worker."""
    try:
        return future.result()
    except TrackkitError as error:
        raise TrackkitError(f"{partition.describe()}: {error}") from None
    except Exception as error:
        name = type(error).__name__
        if name == "KilledWorker":
            raise TrackkitError(
                f"{partition.describe()}: the Dask workers running it died (out of memory, "
                "or killed); the partitions written so far are kept: run the sweep again to "
                "resume"
            ) from None
        raise TrackkitError(
            f"{partition.describe()}: the Dask workers failed on it "
            f"({shown(error, 200) or 'no detail'})"
        ) from None
