"""A toy third game, registered only in the tests: the proof that a new game is a new
folder and no change to shared code (issue 22).

One lane of ``length`` spaces, some of them mud. Each round every racer in seat order
rolls the die and moves that many spaces; entering a mud space costs two pips. The first
round in which racers reach the end decides the race: those racers share first place,
the others are placed by how far they got.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from trackkit.board.datafile import read_toml
from trackkit.board.problems import Problem
from trackkit.errors import ContentFileError, TrackFileError
from trackkit.games.base import (
    BatchResult,
    Group,
    NodeCount,
    PlayerBounds,
    ProfileSpec,
    Tally,
    TrackCheck,
    batch_stream,
)

HERE = Path(__file__).resolve().parent.parent
MAX_ROUNDS = 200
PRESETS = {
    "puddle-dash": {"game": "toy", "name": "Puddle dash", "length": 20, "mud": [4, 9, 15]},
    "bog-run": {"game": "toy", "name": "Bog run", "length": 30, "mud": [3, 4, 5, 20, 21]},
}


@dataclass(frozen=True)
class ToyTrack:
    """A lane of ``length`` spaces (0 the start) and the mud spaces on it."""

    name: str
    length: int
    mud: tuple[int, ...] = ()
    game: str = "toy"

    def to_toml(self) -> str:
        mud = ", ".join(str(m) for m in self.mud)
        return f'game = "toy"\nname = "{self.name}"\nlength = {self.length}\nmud = [{mud}]\n'


@dataclass(frozen=True)
class ToyContent:
    sides: int = 6


@dataclass(frozen=True)
class ToyOptions:
    players: int = 3
    policy: str | tuple[str, ...] = "roll"
    sides: int | None = None
    content: ToyContent = field(default_factory=ToyContent)

    def __post_init__(self) -> None:
        from trackkit.errors import TrackkitError

        if not 1 <= self.players <= 6:
            raise TrackkitError(f"a toy race has 1 to 6 racers, not {self.players}")
        policies = (self.policy,) if isinstance(self.policy, str) else self.policy
        for name in policies:
            if name != "roll":
                raise TrackkitError(f"unknown policy {name!r}; the toy game knows roll")

    @property
    def ruleset(self) -> Toy:
        return RULESET

    def die(self) -> int:
        return self.sides if self.sides is not None else self.content.sides

    def summary(self) -> dict[str, Any]:
        return {"players": self.players, "die": self.die()}

    def describe(self) -> str:
        return f"a d{self.die()}"


@dataclass(frozen=True)
class PreparedLane:
    track: ToyTrack
    nodes: tuple[str, ...]

    @property
    def composed(self) -> ToyTrack:
        return self.track


def parse(data: dict[str, Any], source: str) -> ToyTrack:
    try:
        return ToyTrack(str(data["name"]), int(data["length"]), tuple(int(m) for m in data["mud"]))
    except (KeyError, TypeError, ValueError) as error:
        raise TrackFileError(
            source, "length", f"a toy track needs name, length, mud ({error})"
        ) from None


class Toy:
    """The toy game's ruleset."""

    name = "toy"
    title = "Toy lane"
    players = PlayerBounds(race_min=1, race_max=6, build_min=2, build_max=6)
    policies = ("roll",)
    max_rounds = MAX_ROUNDS
    tallies = (Tally("mud", "Mud spaces entered"),)
    node_counts = (NodeCount("landed", "landed_per_race", "Landed"),)
    node_report = "spaces"
    node_noun = "space"
    node_heading = "Busiest spaces"
    exact_solo = None
    design_space = None
    track_figures = None
    average_track = "presets"  # its two presets: what a profile measures a lane against
    profile_choices: Mapping[str, Any] = MappingProxyType({})
    # a profile: the seats against the fair share and the presets, and the mud entered
    profile_spec = ProfileSpec(
        start_group="seat", start_noun="seat", racers="racers", tallies=(("mud", "friction"),)
    )
    start_order_group = None
    exact_rules = None
    exact_refusal = None
    scene = None
    contents = None
    ladder = ()  # one way to play: nothing to race against
    skill_share = 0.5  # (no skill figure without a ladder)

    def track_space(self, players: int) -> Any:
        """Every lane of the toy's design space (:mod:`tests.games.toy.core.space`)."""
        from tests.games.toy.core.space import ToySpace

        return ToySpace(players)

    @property
    def design_codec(self) -> Any:
        from tests.games.toy.core.space import ToyCodec

        return ToyCodec()

    def presets(self) -> tuple[str, ...]:
        return tuple(PRESETS)

    def load_preset(self, slug: str) -> ToyTrack:
        return parse(PRESETS[slug], slug)

    def parse_track(self, data: dict[str, Any], *, source: str, base: Path | None) -> ToyTrack:
        return parse(data, source)

    def check_track(self, track: ToyTrack, **_: Any) -> TrackCheck:
        problems = []
        if not 3 <= track.length <= 200:
            problems.append(Problem("bad-length", "a lane has 3 to 200 spaces", field="length"))
        if any(not 0 < m < track.length for m in track.mud):
            problems.append(Problem("mud-off-lane", "mud lies off the lane", field="mud"))
        return TrackCheck(tuple(problems), composed=track)

    def content_folder(self) -> Path:
        return HERE / "data"

    def load_content(self, folder: str | Path | None = None) -> ToyContent:
        path = Path(folder or self.content_folder()) / "die.toml"
        data = read_toml(path, ContentFileError)
        extra = set(data) - {"sides"}
        if extra:
            raise ContentFileError(str(path), sorted(extra)[0], "not a field of die.toml")
        return ToyContent(int(data.get("sides", 6)))

    def options(self, **choices: Any) -> ToyOptions:
        return ToyOptions(**choices)

    def with_policies(self, options: Any, policies: tuple[str, ...]) -> Any:
        return replace(options, policy=tuple(policies))

    def prepare(
        self, track: ToyTrack, options: ToyOptions, *, composed: ToyTrack | None = None
    ) -> PreparedLane:
        return PreparedLane(track, tuple(f"space {i}" for i in range(track.length + 1)))

    def groups(self, prepared: PreparedLane, options: ToyOptions) -> tuple[Group, ...]:
        seats = tuple(f"seat {i + 1}" for i in range(options.players))
        return (Group("seat", "Seat", "seats", seats),)

    def play_batch(
        self,
        prepared: PreparedLane,
        options: ToyOptions,
        seed: int,
        batch: int,
        races: int,
        *,
        log_rows: int = 0,
    ) -> BatchResult:
        dice = batch_stream(seed, batch)
        lane = prepared.track
        mud = np.zeros(lane.length + 1, dtype=bool)
        mud[list(lane.mud)] = True
        n = options.players
        rounds = np.zeros(races, dtype=np.int64)
        placing = np.zeros((races, n), dtype=np.int64)
        landed = np.zeros(lane.length + 1, dtype=np.int64)
        muddy = np.zeros(races, dtype=np.int64)
        for race in range(races):
            at = np.zeros(n, dtype=np.int64)
            for round_ in range(1, MAX_ROUNDS + 1):
                for seat in range(n):
                    pips = int(dice.integers(1, options.die() + 1))
                    while pips > 0 and at[seat] < lane.length:
                        step = 2 if mud[at[seat] + 1] else 1
                        if step > pips:
                            break
                        pips -= step
                        at[seat] += 1
                        muddy[race] += int(step == 2)
                    landed[at[seat]] += 1
                if (at >= lane.length).any() or round_ == MAX_ROUNDS:
                    break
            rounds[race] = round_
            placing[race] = [1 + int((at > a).sum()) for a in at]
        return BatchResult(
            rounds=rounds,
            placing=placing,
            groups={"seat": np.tile(np.arange(n), (races, 1))},
            node_counts={"landed": landed},
            tallies={"mud": muddy},
        )


RULESET = Toy()
