"""What a sweep is: its plan (:class:`SweepPlan`, what the manifest ``sweep.json``
records), checked when it is made and when it is read back, and its partitions: the
tracks of the space (or of a uniform sample), in rank order, cut into runs of
``partition_size`` consecutive tracks."""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, fields
from importlib import metadata
from typing import Any, Protocol

import numpy as np
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

from trackkit.board.datafile import GAME_NAME, MAX_PATH, first_problem
from trackkit.errors import LocatedError, TrackkitError, shown
from trackkit.explore.ladder import check_ladder_races, skill_pairs
from trackkit.explore.profile import REFERENCE_TRACKS, ProfileSettings
from trackkit.limits import SWEEP_RACES

MANIFEST_FORMAT = 2  # 2: common random numbers, the reference, precision (issue 21)
PARTITION_SIZE = 500
MAX_SPACE = 10**15  # far more tracks than any space holds (8 players: 9,400,320)
MAX_RACES = 1_000_000  # races of one track's profile (the command line's bound)
MAX_PARTITION = 100_000  # tracks of one partition (the command line's bound)
MAX_SEED = 2**64 - 1
REDO = "the sweep's files were changed or damaged: sweep again into a new folder"
# a sweep's profiles unless told: each character's exact rounds cost eight solves a track
SWEEP_PROFILE = ProfileSettings(characters=False, skill=True)


class SweepFolderError(LocatedError):
    """A sweep folder's file (its manifest, a partition) that cannot be used: the file,
    the field or column, and what to do. A sweep folder may come from anyone, so every
    value read from it is checked before it is used."""


class TrackSpace(Protocol):
    """A game's space of designs for a number of players, as a sweep, ``find``,
    ``generate`` and the search use it (the game's ruleset gives it:
    ``ruleset.track_space(players)``). A design is named by its rank ``0 .. len - 1`` in
    one canonical order; where every rank is a legal track (``dense``: Yummell's tracks
    under the building rule) a sweep may take them all, otherwise (Snow Tails' boards,
    legal by rejection among raw designs) only a uniform sample of the legal ones."""

    game: str
    players: int
    name: str  # what a sweep's plan records of it (a tile set's name, the space's)
    folder: str | None  # the custom files it was built from (None: the game's own)
    dense: bool

    def __len__(self) -> int: ...

    def fingerprint(self) -> str:
        """A short hash of what the space is made from: a sweep resumes only on the same."""
        ...

    def legal_count(self) -> tuple[int, bool]:
        """The legal designs, and whether that count is an estimate."""
        ...

    def track(self, rank: int) -> Any: ...

    def tracks(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[int, Any]]: ...

    def sample_ranks(self, count: int, seed: int, *, distinct: bool = False) -> list[int]: ...

    def finish_key(self, track: Any) -> tuple[Any, ...]:
        """A sort key that puts tracks ending alike next to each other (a worker profiles a
        batch of its tracks in that order, so a solver can reuse what they share; () when
        it does not matter)."""
        ...

    summary_words: str  # what summary() gives, in words ("tiles in placing order")

    def summary(self, rank: int, track: Any) -> str:
        """The design of ``rank`` in a few words (a line of ``trackkit generate``)."""
        ...

    def mutate(self, rank: int, rng: np.random.Generator) -> int:
        """A legal rank near ``rank`` (the search's mutation), drawn with ``rng``."""
        ...

    def features(self, rank: int) -> dict[str, float]:
        """The design's own numbers a sweep keeps beside its profile (columns a map's axes
        can use; ``{}`` when the profile measures the track already: Yummell's squares and
        terrain)."""
        ...

    def design_text(self, rank: int, track: Any) -> str:
        """What a sweep's row holds of the design (its ``placements`` column): the text
        the game's ``design_codec`` reads back."""
        ...


def space_of(game: str, players: int, tileset_folder: str | None = None) -> TrackSpace:
    """The space of ``game``'s designs for ``players`` (with the tile set in
    ``tileset_folder``, for a tile game; None: the game's own), from the game's ruleset;
    a clear error for a game that has none. (Dask sends it to the workers with
    cloudpickle.)"""
    from trackkit.games.base import get_ruleset, load_tileset, tile_ruleset  # the interface

    ruleset = get_ruleset(game)
    if ruleset.track_space is None:
        raise TrackkitError(
            f"{ruleset.title} has no space of legal tracks to sweep (its ruleset gives no "
            "track_space)"
        )
    if tileset_folder is None:
        return ruleset.track_space(players)
    tile_ruleset(game)  # a game without tiles says so, before the folder is read
    return ruleset.track_space(players, load_tileset(tileset_folder, game=game))


def trackkit_version() -> str:
    try:
        return metadata.version("trackkit")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


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
    content: str | None = None  # the game content raced (a folder or a name; None: bundled)
    skill_races: int = 0  # the skill figure's race pairs a track (0: left out)

    @property
    def tracks(self) -> int:
        """Tracks the sweep profiles."""
        return self.space_size if self.sample is None else self.sample

    @property
    def partitions(self) -> int:
        return math.ceil(self.tracks / self.partition_size)

    @property
    def profile(self) -> ProfileSettings:
        """How the sweep profiles each of its tracks."""
        return ProfileSettings(
            races=self.races,
            seed=self.seed,
            exact=self.exact,
            characters=self.characters,
            precision=self.precision,
            max_races=max(self.races, self.max_races),
            skill=self.skill_races > 0,
            skill_races=self.skill_races or None,
        )

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
    content: StrictStr | None = Field(default=None, min_length=1, max_length=MAX_PATH)
    # a sweep before the skill figure has none
    skill_races: StrictInt = Field(default=0, ge=0, le=MAX_RACES)

    @model_validator(mode="after")
    def _consistent(self) -> _ManifestSpec:
        from trackkit.games.base import TileRuleset, get_ruleset, rulesets  # the registry

        if self.game not in rulesets():
            raise ValueError(
                f"game: {self.game!r} is not a game trackkit knows ({', '.join(rulesets())})"
            )
        ruleset = get_ruleset(self.game)
        if ruleset.track_space is None:
            raise ValueError(f"game: {ruleset.title} has no space of tracks to sweep")
        if not isinstance(ruleset, TileRuleset):
            # a game of no tiles has one space: the manifest names it (its fingerprint)
            space = ruleset.track_space(self.players)
            if (self.tileset, self.tileset_fingerprint) != (space.name, space.fingerprint()):
                raise ValueError(
                    f"game: a sweep of {ruleset.title} names its space {space.name!r}, "
                    f"not {shown(self.tileset, 60)!r}"
                )
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
    profile: ProfileSettings = SWEEP_PROFILE,
    *,
    sample: int | None = None,
    sample_seed: int | None = None,
    partition_size: int = PARTITION_SIZE,
) -> SweepPlan:
    """The plan of a sweep of ``space`` (every track, or a uniform ``sample`` of them),
    each track profiled as ``profile`` says, its options checked. With a precision, each
    track races until its balance is that precise or the settings' ``max_races``
    (default: 10 × races) are run; the sweep's bound on races counts ``max_races`` a track.
    ``sample_seed`` draws the sample (default: the profiles' seed), so two sweeps of one
    sample can race other seeds. The profile's ``content`` (a folder or a bundled
    content's name) is the game content raced (None: the game's bundled)."""
    races, seed, precision = profile.races, profile.seed, profile.precision
    max_races, exact = profile.max_races, profile.exact
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
    legal, estimate = space.legal_count()
    if sample is None and not space.dense:
        about = "about " if estimate else ""
        raise TrackkitError(
            f"the {space.name} are {size:,} designs ({about}{legal:,} legal), found by "
            "rejection, not ranked one by one: sweep a uniform sample of them (--sample K)"
        )
    if sample is not None and not 1 <= sample <= legal:
        tail = "; leave out --sample to sweep every track" if space.dense else ""
        raise TrackkitError(
            f"a sample is 1 to {legal:,} tracks (the {space.players}-player space), not "
            f"{sample:,}{tail}"
        )
    tracks = size if sample is None else sample
    from trackkit.games import get_ruleset  # the registry, not a game

    ruleset = get_ruleset(space.game)
    skill_races = 0
    if profile.skill and len(ruleset.ladder) > 1:
        skill_races = profile.skill_races or skill_pairs(races, ruleset)
    if skill_races:
        check_ladder_races(skill_races)
    each = max(races, most) + 2 * skill_races  # the skill's races: both seatings
    # the average track every profile is measured against is raced too (once a worker)
    raced = tracks + REFERENCE_TRACKS
    doing = (
        f"this sweep ({tracks:,} tracks and the {REFERENCE_TRACKS} of an average track × "
        f"{each:,} races each)"
    )
    SWEEP_RACES.check(raced * each, doing)
    exact = exact and ruleset.exact_solo is not None  # a game with no solver: raced only
    content = profile.content
    if content is not None:
        ruleset.load_content(content)  # a content that does not load is said before any race
    return SweepPlan(
        game=space.game,
        players=space.players,
        tileset=space.name,
        tileset_fingerprint=space.fingerprint(),
        tileset_folder=space.folder,
        space_size=size,
        races=races,
        seed=seed,
        sample=sample,
        exact=exact,
        partition_size=partition_size,
        trackkit=trackkit_version(),
        precision=precision,
        max_races=most,
        characters=profile.characters is True and exact,
        sample_seed=sample_seed if sample is not None else None,
        content=content,
        skill_races=skill_races,
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
