"""Snow Tails behind the ruleset interface (:class:`trackkit.games.base.Ruleset`).

Everything here delegates to the module named after the rule or the tool: track files to
:mod:`.track`, the validator to :mod:`.validation`, the course to :mod:`.geometry` and
:mod:`.board`, races to :mod:`.race` and :mod:`.engine`, the data files to :mod:`.content`.

A Snow Tails track is no set of tiles: it describes its own board (lanes, straights,
corners), so this ruleset is not a :class:`~trackkit.games.base.TileRuleset`.

>>> RULESET.name, RULESET.players.race_max, [t.key for t in RULESET.tallies][:3]
('snowtails', 8, ['collisions', 'side', 'trees'])
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from trackkit.errors import ContentFileError
from trackkit.games.base import (
    BatchResult,
    Group,
    NodeCount,
    PlayerBounds,
    ProfileSpec,
    Tally,
    TrackCheck,
)
from trackkit.games.snowtails.core import presets
from trackkit.games.snowtails.core.board import BUILDING_FLAGS, CompiledCourse, compile_course
from trackkit.games.snowtails.core.check import validate_track
from trackkit.games.snowtails.core.content import SnowContent, load_components, load_deck
from trackkit.games.snowtails.core.course import Course, build_course
from trackkit.games.snowtails.core.options import RaceOptions
from trackkit.games.snowtails.core.policies import LADDER, POLICIES
from trackkit.games.snowtails.core.track import Address, SnowTrack, parse_track
from trackkit.games.tilekit.tiles import TileSet

PLAYERS = PlayerBounds(race_min=2, race_max=8, build_min=2, build_max=8)
BUILDINGS = tuple(BUILDING_FLAGS)  # kennels, chapel, bothy, tavern


def space_name(address: Address) -> str:
    """A space as reports name it: ``segment:lane:index``, as the track file numbers it.

    >>> space_name(Address("back", 3, 4))
    'back:3:4'
    """
    return f"{address.segment}:{address.lane}:{address.index}"


@dataclass(frozen=True)
class PreparedCourse:
    """A checked course as the engine sees it, with the name of each node (a space)."""

    compiled: CompiledCourse
    nodes: tuple[str, ...]

    @property
    def composed(self) -> Course:
        return self.compiled.course


def play_batch(
    prepared: PreparedCourse,
    options: RaceOptions,
    seed: int,
    batch: int,
    races: int,
    *,
    log_rows: int = 0,
) -> BatchResult:
    """Play ``races`` races of batch ``batch`` (a recorded race is :func:`.race.record_race`,
    so ``log_rows`` records nothing here)."""
    from trackkit.games.snowtails.core.options import STAT_NAMES
    from trackkit.games.snowtails.core.race import simulate  # numba loads on first race
    from trackkit.games.snowtails.core.state import HIT_SIDE, HIT_SLED, HIT_TREE

    result = simulate(prepared.compiled, options, races, seed, batch)
    hits = result.node_hits
    if result.addresses != prepared.compiled.addresses:
        # raced on the course composed again under the options' readings (a course kept
        # from other options): its spaces numbered as ``prepared`` names them
        number = {address: i for i, address in enumerate(result.addresses)}
        hits = hits[[number[address] for address in prepared.compiled.addresses]]
    stat = result.stats
    used = stat[..., STAT_NAMES["buildings"]]
    tallies = {
        key: stat[..., STAT_NAMES[key]].sum(axis=1)
        for key in ("cards", "side", "trees", "sleds", "repairs")
    }
    tallies["collisions"] = tallies.pop("cards")
    for name, flag in BUILDING_FLAGS.items():
        tallies[name] = ((used & flag) != 0).sum(axis=1)
    tallies["decided_last_round"] = result.decided_last_round.astype(np.int64)
    policy = np.broadcast_to(
        np.array([POLICIES[name] for name in options.policies()], dtype=np.int64),
        result.placing.shape,
    ).copy()
    # the policy codes are the indices of POLICIES' names
    return BatchResult(
        rounds=result.rounds,
        placing=result.placing,
        groups={"slot": result.slot, "policy": policy},
        node_counts={
            "side": hits[:, HIT_SIDE].copy(),
            "tree": hits[:, HIT_TREE].copy(),
            "sled": hits[:, HIT_SLED].copy(),
        },
        tallies=tallies,
    )


SPACES_A_ROUND = 35  # spaces a sled covers a round, about (husky-oval: 190 in 4.75 rounds)


class SnowTails:
    """The ruleset of Mush! Mush! Snow Tails 2 (see :mod:`trackkit.games.base`)."""

    name = "snowtails"
    title = "Mush! Mush! Snow Tails 2"
    players = PLAYERS
    policies = tuple(POLICIES)
    ladder = LADDER
    # a quarter of the races: smart's races cost about 2.6 greedy ones, and at half the
    # races a 4-player sweep with the skill cost 2.6× one without (300 drawn boards, 45.5
    # and 47.3 s against 17.7 and 17.6 s, one worker; 2026-11-29)
    skill_share = 0.25

    def planning_cost(self, course: PreparedCourse, options: RaceOptions) -> int:
        """What the planners seated add to a race's cost (``montecarlo.race_cost``'s units:
        a sled over a space): each planner's turn plays an option or two out ``budget``
        times (none when the policies agree), each playout about half a race, and a race
        lasts about a round for :data:`SPACES_A_ROUND` spaces; counted as one option a
        turn. An upper bound: with one planner (budget 16) at 3 sleds it counts 44 and 80
        plain races where the time measured was 12 and 46 (husky-oval, long-trail; medians
        of 3 ``simulate`` runs)."""
        planners = options.policies().count("planner")
        spaces = len(course.nodes)
        playouts = planners * options.budget * spaces // SPACES_A_ROUND
        return playouts * options.players * spaces // 2

    tallies = (
        Tally("collisions", "Collision cards taken"),
        Tally("side", "Side collisions (edge, marker, building)"),
        Tally("trees", "Trees hit"),
        Tally("sleds", "Collisions with a sled"),
        Tally("repairs", "Sleds sent to repair"),
        *(Tally(b, f"Sleds that used the {b.capitalize()}") for b in BUILDINGS),
        Tally("decided_last_round", "Decided in the last round (share of races)"),
    )
    node_counts = (
        NodeCount("side", "side_per_race", "Side collisions per race"),
        NodeCount("tree", "trees_per_race", "Trees hit per race"),
        NodeCount("sled", "sleds_per_race", "Sled collisions per race"),
    )
    node_report = "collisions"
    node_noun = "space"
    node_heading = "Where sleds collide (per race: side, trees, sleds)"
    exact_solo = None
    design_space = None
    track_figures = None
    # the average track a profile measures against stays the four demo boards (the figures
    # do not move with the design space; docs/snowtails.md)
    average_track = "presets"
    profile_choices: Mapping[str, Any] = MappingProxyType({})
    start_order_group = None  # its start is the slots (profile_spec), not an order
    exact_rules = None
    exact_refusal = None

    def track_space(self, players: int) -> Any:
        """The design space of lane tracks for ``players`` sleds (:mod:`.space`)."""
        from trackkit.games.snowtails.core.space import SnowTrackSpace

        return SnowTrackSpace(players)

    @property
    def design_codec(self) -> Any:
        from trackkit.games.snowtails.core.space import SnowDesignCodec

        return SnowDesignCodec()

    # a profile: the start slots (the same on every track, so an average track has them
    # too) and every tally; a race has no characters and no exact solver
    profile_spec = ProfileSpec(
        start_group="slot",
        start_noun="start slot",
        racers="sleds",
        tallies=(
            ("decided_last_round", "drama"),
            *((key, "friction") for key in ("collisions", "side", "trees", "sleds", "repairs")),
            *((b, "buildings") for b in BUILDINGS),
        ),
    )

    def scene(self, track: SnowTrack, **options: Any) -> Any:
        """``track`` drawn as shapes (:func:`trackkit.games.snowtails.core.scene.course_scene`)."""
        from trackkit.games.snowtails.core.scene import course_scene

        return course_scene(track, **options)

    @property
    def max_rounds(self) -> int:
        from trackkit.games.snowtails.core.engine import MAX_ROUNDS

        return MAX_ROUNDS

    def presets(self) -> tuple[str, ...]:
        return presets.PRESET_SLUGS

    def load_preset(self, slug: str) -> SnowTrack:
        return presets.load_preset(slug)

    def parse_track(
        self, data: dict[str, Any], *, source: str, base: Path | None = None
    ) -> SnowTrack:
        return parse_track(data, source=source)

    def check_track(
        self,
        track: SnowTrack,
        *,
        tileset: TileSet | None = None,
        players: int | None = None,
        partial: bool = False,
        content: SnowContent | None = None,
    ) -> TrackCheck:
        """Every error and guideline of SNOWTAILS.md §2.5 (no rule depends on the players,
        and a printed board is never partial), counting trees, markers and buildings
        against ``content``'s components (None: the bundled ``components.toml``)."""
        course = build_course(track)
        components = content.components if content is not None else None
        validation = validate_track(track, course, components)
        return TrackCheck(validation.errors, validation.warnings, None, course)

    def content_folder(self, name: str | None = None) -> Path:
        if name not in (None, "bundled"):
            raise ContentFileError(name, None, "is no bundled content; the bundled is bundled")
        return Path(str(resources.files("trackkit.games.snowtails.data")))

    def contents(self) -> tuple[str, ...]:
        return ("bundled",)

    def load_content(self, folder: str | Path | None = None) -> SnowContent:
        if folder is None or (folder == "bundled" and not os.path.lexists(folder)):
            return SnowContent(load_deck(), load_components())
        folder = Path(folder)
        return SnowContent(
            load_deck(folder / "deck.toml"), load_components(folder / "components.toml")
        )

    def options(self, **choices: Any) -> RaceOptions:
        """Race options; ``content`` (a loaded :class:`SnowContent`, as every game takes
        it) gives the deck and the components, ``policies`` one policy per sled (as every
        game takes them)."""
        content = choices.pop("content", None)
        policies = choices.pop("policies", None)
        if policies:
            choices["policy"] = policies[0] if len(policies) == 1 else tuple(policies)
        if content is not None:
            choices.setdefault("deck", content.deck)
            choices.setdefault("components", content.components)
        return RaceOptions(**choices)

    def with_policies(self, options: Any, policies: tuple[str, ...]) -> Any:
        return replace(options, policy=tuple(policies))

    def prepare(
        self, track: SnowTrack, options: RaceOptions, *, composed: Course | None = None
    ) -> PreparedCourse:
        # the check composed the course under the default readings: composed again under
        # the options' own when they differ (compile_course tells)
        readings = options.course_readings(track)
        compiled = compile_course(composed if composed is not None else track, readings)
        return PreparedCourse(compiled, tuple(space_name(a) for a in compiled.addresses))

    def groups(self, prepared: PreparedCourse, options: RaceOptions) -> tuple[Group, ...]:
        """Start slots (the random order of round 1); the policies, when they differ."""
        slots = Group(
            "slot",
            "Start slot (race 1 turn order)",
            "start_slots",
            tuple(str(k + 1) for k in range(options.players)),
        )
        if len(set(options.policies())) == 1:
            return (slots,)
        return (slots, Group("policy", "Policy", "policies", tuple(POLICIES), share=True))

    play_batch = staticmethod(play_batch)


RULESET = SnowTails()
