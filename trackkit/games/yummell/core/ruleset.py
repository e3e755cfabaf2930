"""Yummell behind the ruleset interface (:class:`trackkit.games.base.Ruleset`).

Everything here delegates to the module named after the rule or the tool: the square
schema to :mod:`~trackkit.games.yummell.core.terrain`, the track rules to
:mod:`~trackkit.games.yummell.core.check`, races to :mod:`~trackkit.games.yummell.core.course` and
:mod:`~trackkit.games.yummell.core.engine`, the exact solver to
:mod:`~trackkit.games.yummell.core.exact`.

>>> RULESET.name, RULESET.players.race_max
('yummell', 8)
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from trackkit.board.problems import Problem
from trackkit.games.base import (
    BatchResult,
    Group,
    NodeCount,
    Tally,
    TrackCheck,
    batch_stream,
    tileset_of,
)
from trackkit.games.tilekit.graph import TrackGraph, compose, start_path_label
from trackkit.games.tilekit.structure import check_structure
from trackkit.games.tilekit.tiles import TileSet
from trackkit.games.yummell import GAME, PLAYERS
from trackkit.games.yummell.core import check, presets
from trackkit.games.yummell.core.content import (
    ADV_EFFECT,
    CHAR_ABILITY,
    CONTENTS,
    E_CLEPTOMANIA,
    E_DRAW_TWO_KEEP_ONE,
    E_FLUTTERING,
    E_STEAL_ARTEFACT,
    E_TOLL,
    TERRAINS,
    Content,
    content_folder,
    load_content,
)
from trackkit.games.yummell.core.course import RaceBoard, new_state, race_board
from trackkit.games.yummell.core.options import RaceOptions
from trackkit.games.yummell.core.policies import LADDER, PLANNER, PLANS, POLICIES
from trackkit.games.yummell.core.space import PlacementsCodec, TrackSpace
from trackkit.games.yummell.core.state import RACE_STATS, BatchOut, Setup, Tables
from trackkit.games.yummell.core.track import Track, YummellSquare, bundled_tileset, parse_track

# what a race counts, in the engine's STAT_* columns' order
TALLIES = (
    Tally("lead_changes", "Lead changes (at the end of a round)"),
    Tally("last_round", "Decided in the last round"),
    Tally("winner_gap", "Winner's lead on the runner-up (squares)"),
    Tally("bounces", "Sent back off a full square"),
    Tally("challenges_lost", "Challenges lost"),
)


def play_batch(
    board: RaceBoard,
    options: RaceOptions,
    seed: int,
    batch: int,
    races: int,
    *,
    log_rows: int = 0,
    planned: bool | None = None,
) -> BatchResult:
    """Play ``races`` races of batch ``batch`` (recording up to ``log_rows`` steps), turn by
    turn with planning when a planner is seated (or ``planned`` says so)."""
    from trackkit.games.yummell.core.engine import play_batch as play  # numba loads on first race

    players, deck, tally = new_state(board.board, options, log_rows=log_rows)
    content = options.content

    def ints(*shape: int) -> np.ndarray:
        return np.zeros(shape, dtype=np.int64)

    n = options.players
    out = BatchOut(
        rounds=ints(races),
        placing=ints(races, n),
        route=ints(races, n),
        character=ints(races, n),
        advantage=ints(races, n),
        order_pos=ints(races, n),
        first_move=ints(races, n),
        stats=ints(races, RACE_STATS),
    )
    arguments = (
        board.board,
        players,
        deck,
        tally,
        Tables(content.cards, content.characters, content.advantages, options.rule_codes()),
        Setup(
            characters=options.character_indices(),
            advantages=options.advantage_indices(),
            routes=options.route_codes(len(board.routes)),
            encounters=options.encounters,
        ),
        # one key per race, the same on every track: common random numbers
        batch_stream(seed, batch).integers(0, 2**64, size=races, dtype=np.uint64),
        out,
    )
    if planned or (planned is None and PLANNER in players.policy):
        from trackkit.games.yummell.core.planning import Planned, new_scratch, play_planned_batch

        scratch = new_scratch(players, deck, tally, options.budget)
        play_planned_batch(*arguments[:-1], Planned(out, scratch))
    else:
        play(*arguments)
    return BatchResult(
        rounds=out.rounds,
        placing=out.placing,
        groups={
            "character": out.character,
            "advantage": out.advantage,
            "route": out.route,
            "order_pos": out.order_pos,
            "first_move": out.first_move,
        },
        node_counts={"time": tally.node_time, "bounce": tally.node_bounce},
        tallies={t.key: out.stats[:, column] for column, t in enumerate(TALLIES)},
        log=tally.log,
        log_n=tally.log_n,
    )


SQUARES_A_ROUND = 5  # squares a racer covers a round, about (the presets: 5.5 at 4 players)


class Yummell:
    """The ruleset of Yummell (see :mod:`trackkit.games.base` for what each member does)."""

    name = GAME
    title = "Yummell"
    players = PLAYERS
    policies = tuple(POLICIES)
    ladder = LADDER
    # half the races: a 4-player sweep with the skill costs 1.99× one without (2026-11-29)
    skill_share = 0.5

    def planning_cost(self, board: RaceBoard, options: RaceOptions) -> int:
        """What the planners seated add to a race's cost (``montecarlo.race_cost``'s units:
        a player over a square): each planner's turn plays its :data:`PLANS` options out
        ``budget`` times, each playout about half a race, and a race lasts about a round for
        :data:`SQUARES_A_ROUND` squares. An upper bound: with one planner (budget 32) at
        3 players it counts 871 and 1,665 plain races where the time measured was 449 and
        1,319 (first-run, king-of-toads; medians of 3 ``simulate`` runs)."""
        planners = int((options.policy_codes() == PLANNER).sum())
        squares = len(board.nodes)
        playouts = planners * options.budget * PLANS * squares // SQUARES_A_ROUND
        return playouts * options.players * squares // 2

    square_schema = YummellSquare
    tallies = TALLIES
    node_counts = (
        NodeCount("time", "turns_per_race", "Turns ended per race"),
        NodeCount("bounce", "bounces", "Sent back off a full square", per_race=False),
    )
    node_report = "congestion"
    node_noun = "square"
    node_heading = "Most crowded squares (turns ended there per race, fall-backs)"

    @property
    def max_rounds(self) -> int:
        from trackkit.games.yummell.core.engine import MAX_ROUNDS

        return MAX_ROUNDS

    def default_tileset(self) -> TileSet:
        return bundled_tileset()

    def presets(self) -> tuple[str, ...]:
        return presets.PRESET_SLUGS

    def load_preset(self, slug: str) -> Track:
        return presets.load_preset(slug)

    def parse_track(self, data: dict[str, Any], *, source: str, base: Path | None) -> Track:
        return parse_track(data, source=source, base=base)

    def check_track(
        self,
        track: Track,
        *,
        tileset: TileSet | None = None,
        players: int | None = None,
        partial: bool = False,
        content: Any = None,
    ) -> TrackCheck:
        """The structure every tile game shares, then the building rule (with ``players``);
        for a ``partial`` track, whether it can still be completed (no rule depends on the
        ``content``)."""
        tileset = tileset if tileset is not None else tileset_of(track)
        composed = compose(track, tileset)
        problems = check_structure(track, tileset, composed, partial=partial)
        problems += self.track_problems(
            track, tileset, composed, players=players, partial=partial, broken=bool(problems)
        )
        completable = self.completable(track, tileset, players, composed) if partial else None
        return TrackCheck(tuple(problems), (), completable, composed)

    def content_folder(self, name: str | None = None) -> Path:
        return content_folder(name)

    def contents(self) -> tuple[str, ...]:
        """The bundled contents' names, the default first."""
        return tuple(CONTENTS)

    def load_content(self, folder: str | Path | None = None) -> Content:
        return load_content(folder)

    def track_problems(
        self,
        track: Track,
        tileset: TileSet,
        composed: TrackGraph,
        *,
        players: int | None,
        partial: bool,
        broken: bool,
    ) -> list[Problem]:
        return check.track_problems(
            track, tileset, composed, players=players, partial=partial, broken=broken
        )

    def completable(
        self,
        track: Track,
        tileset: TileSet,
        players: int | None,
        composed: TrackGraph | None = None,
    ) -> bool:
        return check.can_complete(track, tileset, players, composed)

    def options(self, **choices: Any) -> RaceOptions:
        return RaceOptions(**choices)

    def with_policies(self, options: Any, policies: tuple[str, ...]) -> Any:
        return replace(options, policies=tuple(policies))

    def prepare(
        self, track: Track, options: RaceOptions, *, composed: TrackGraph | None = None
    ) -> RaceBoard:
        return race_board(track, composed)

    def groups(self, prepared: RaceBoard, options: RaceOptions) -> tuple[Group, ...]:
        content = options.content
        labels = tuple(start_path_label(i) for i in range(len(prepared.routes)))
        return (
            Group("character", "Character", "characters", content.character_names),
            Group("advantage", "Advantage", "advantages", content.advantage_names),
            Group(
                "route",
                "Start path",
                "start_paths",
                labels,
                extras=tuple({"first_square": route[0]} for route in prepared.routes),
                share=True,
            ),
            Group(
                "order_pos",
                "Turn order (last round)",
                "turn_order",
                tuple(str(k + 1) for k in range(options.players)),
            ),
            Group(
                "first_move",
                "Order of first moves",
                "first_moves",
                tuple(str(k + 1) for k in range(options.players)),
            ),
        )

    play_batch = staticmethod(play_batch)

    def exact_solo(self, track: Track, **choices: Any) -> Any:
        from trackkit.games.yummell.core.exact import exact_solo

        return exact_solo(track, **choices)

    def exact_paths(self, track: Track, **choices: Any) -> dict[str, float]:
        """The exact solo rounds of one racer forced onto each start path, by letter."""
        from trackkit.games.yummell.core.exact import exact_paths

        return exact_paths(track, **choices)

    def exact_rules(self, options: RaceOptions | None) -> dict[str, Any]:
        """The readings of ``options`` the exact solver is given: those that can change a
        solo race (a challenge won next to the finish, draw-two-keep-one, and whether
        encounters are drawn at all; the crowding,
        what "advanced" asks of a move and the Troll's toll cannot, and the deck is the
        solver's own, the infinite one)."""
        from trackkit.games.yummell.core.exact import SoloRules

        if options is None:
            return {}
        return {"rules": SoloRules(options.challenge_finish, options.draw_two, options.encounters)}

    def exact_refusal(self, options: RaceOptions | None) -> str | None:
        """Why a profile's exact figures are left out under ``options``' readings, or None:
        the solver plays draw-two-keep-one on top of the Preparation draw only, and the
        profile's reference racer has that advantage when the content has no advantage
        that does nothing in a solo race."""
        if options is None or options.draw_two == "extra":
            return None
        reference = self.exact_reference(options.content)["advantage"]
        if options.content.advantages[reference, ADV_EFFECT] != E_DRAW_TWO_KEEP_ONE:
            return None
        return (
            "the exact solver plays draw-two-keep-one on top of the Preparation draw only, "
            "and the reference racer has that advantage: no exact figures under --draw-two "
            "instead"
        )

    def greedy_path(self, prepared: RaceBoard) -> str:
        """The start path a greedy racer takes (the lowest total MP): ``exact_solo``'s."""
        from trackkit.games.yummell.core.policies import greedy_route

        return start_path_label(greedy_route(prepared.board))

    def exact_characters(self, track: Track, **choices: Any) -> dict[str, float]:
        """The exact solo rounds of each character (one advantage), by name."""
        from trackkit.games.yummell.core.exact import exact_characters

        return exact_characters(track, **choices)

    # a profile's races: the rulebook's free choice of start path at the first move (dealt
    # paths are a what-if; greedy racers would all take the cheapest; README § Fairness)
    profile_choices = {"start_paths": "free"}  # noqa: RUF012 (read only)
    # the start part of a profile's unfairness: the order in which the racers make their
    # first move, and so commit to a start path (against the fair share)
    start_order_group = "first_move"

    def exact_reference(self, content: Content | None = None) -> dict[str, int]:
        """The racer a profile's exact solo length is for: the first character and the first
        advantage whose ability does nothing in a solo race (bundled: Flamm, with the
        advantage that takes artefacts from rivals), so the figure measures the track, not a
        terrain bonus; the first of each when none is inert."""
        content = content or load_content()
        return {
            "character": _first(content.characters[:, CHAR_ABILITY], SOLO_INERT_ABILITIES),
            "advantage": _first(content.advantages[:, ADV_EFFECT], SOLO_INERT_ADVANTAGES),
        }

    def track_figures(self, prepared: RaceBoard) -> dict[str, float]:
        """The track itself: its squares, the mean MP to enter one, and the share of each
        terrain (``terrain_plain`` …)."""
        base = prepared.board.node_base
        terrain = prepared.board.node_terrain
        figures = {"squares": float(base.shape[0]), "mp_per_square": float(base.mean())}
        for code, name in enumerate(TERRAINS):
            figures[f"terrain_{name}"] = float(np.mean(terrain == code))
        return figures

    def design_space(self, players: int, tileset: TileSet | None = None) -> Any:
        return check.explore_design_space(players, tileset or self.default_tileset())

    def scene(self, track: Track, **options: Any) -> Any:
        """``track`` drawn as shapes (:func:`trackkit.games.yummell.core.scene.track_scene`)."""
        from trackkit.games.yummell.core.scene import track_scene

        return track_scene(track, **options)

    def track_space(self, players: int, tileset: TileSet | None = None) -> TrackSpace:
        return TrackSpace(players, tileset if tileset is not None else self.default_tileset())

    average_track = "space"
    profile_spec = None  # a tile game's profile: its track_figures
    design_codec = PlacementsCodec()


def _first(codes: np.ndarray, wanted: tuple[int, ...]) -> int:
    found = np.flatnonzero(np.isin(codes, wanted))
    return int(found[0]) if found.size else 0


# abilities and advantages that act only on or through rivals: nothing happens in a solo race
SOLO_INERT_ABILITIES = (E_FLUTTERING, E_TOLL, E_CLEPTOMANIA)
SOLO_INERT_ADVANTAGES = (E_STEAL_ARTEFACT,)

RULESET = Yummell()
