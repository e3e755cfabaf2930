"""The exact expected length of a solo race: a Markov chain, solved.

With one character, the infinite deck (every draw independent) and the greedy policy, a
race is a Markov chain over (square along the route of one start path, the greedy route
unless another is named; hand as a multiset of four card numbers; curse level). A turn
only ever ends at or ahead of the square it began on (going back follows advancing), so
the chain is solved square by square from the finish backwards. On a square, at a curse
level, only the turns that come back to it couple its hands: no card paid for the next
square, or one square ahead and sent back by an encounter. A hand's chance of coming back
as itself is solved for, not iterated, and the rest settles in a few Gauss-Seidel sweeps
(:func:`~.solver._equations`). The result is the exact expected number of rounds, free of sampling
noise, and the simulator's oracle.

A square's values depend only on the squares ahead of it, so the start paths, which
differ only in their first few squares, share the rest of their solution: a racer's three
paths on the presets take about 40% of the time of three solves on their own
(:func:`exact_paths`, :mod:`.chains`).

The rules come from :mod:`trackkit.games.yummell.core.rules` and the choices from
:mod:`trackkit.games.yummell.core.policies` (the same compiled functions the engine plays with).

Curses, without truncation. A greedy character never rests, so curses only pile up. Once
a curse makes every square of its terrain dearer than the highest card, more curses
change nothing, so the curse level is exact up to that level (:func:`~.chains.curse_levels`). At
such a level a character whose next square it cannot pay for is stuck for good (it cannot
move, so it has no encounter that could carry it past): the race never ends. Such races
exist with a tiny probability on tracks with hills and the Mushroom Curse; the simulator
stops them at its round limit and counts them as ``MAX_ROUNDS + 1`` rounds. The solver
computes the probability ``q`` of finishing and ``m = E[rounds; finished]`` from the same
chain, together (a state's ``q`` first, then its ``m`` with reward ``q`` per turn, since
``m(s) = q(s) + E[m(s')]``) and reports ``m + (MAX_ROUNDS + 1)(1 - q)``: the simulator's
measure, exact but for races that could finish yet take more than ``MAX_ROUNDS`` rounds
(with a mean of a few dozen rounds, a vanishing share), and the probability that a race
never ends.

Covered: movement with terrain costs and modifiers, the hand of four, draw-two-keep-one
(a sixth card before moving, :func:`trackkit.games.yummell.core.turn.draw_two_keep_one`), encounters
(challenges won and lost, artefacts, the arrow events: push-backs, curses, discarding one
card). Refused with a message: curses on more than one terrain, curses that make terrain
cheaper, discards of more than one card.

The readings of open rules (:mod:`trackkit.games.yummell.face.readings`): a challenge won
next to the finish finishes or leaves the character where it is (``challenge_finish``,
solved under either); draw-two-keep-one instead of the Preparation draw (``draw_two``) is
refused with a message for a racer with that advantage (the solver's hands draw on top of
it); the crowding, what "advanced at least one square" asks of a move and when the
Troll's toll is paid change nothing in a solo race (no other character stands anywhere),
and the deck is this solver's model, the infinite one.

The package by topic: :mod:`.hands` (hands of cards and how a turn's cards go),
:mod:`.encounters` (the encounter cards and the values of drawing one), :mod:`.solver` (a
square's equations and the chain solved backwards, compiled), :mod:`.chains` (a racer's
chain on each start path, solved together and kept); here, the results.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from trackkit.errors import TrackkitError, shown
from trackkit.games.base import get_ruleset
from trackkit.games.tilekit.graph import start_path_label
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.content import ADV_EFFECT, Content, Effect, load_content
from trackkit.games.yummell.core.course import RaceBoard, race_board
from trackkit.games.yummell.core.engine import MAX_ROUNDS
from trackkit.games.yummell.core.exact.chains import (
    KEEP_SOLVED,
    MAX_LEVELS,
    Solved,
    _solve_routes,
    curse_levels,
    forget_solved,
)
from trackkit.games.yummell.core.exact.hands import HAND
from trackkit.games.yummell.core.exact.solver import MAX_SWEEPS, TOLERANCE
from trackkit.games.yummell.core.exact.solver import _solve as _solve  # the warm-up checks it
from trackkit.games.yummell.core.options import RULE_READINGS, RaceOptions
from trackkit.games.yummell.core.policies import greedy_route
from trackkit.games.yummell.core.state import Board

__all__ = [
    "COVERS",
    "HAND",
    "KEEP_SOLVED",
    "MAX_LEVELS",
    "MAX_SWEEPS",
    "TOLERANCE",
    "ExactResult",
    "curse_levels",
    "exact_characters",
    "exact_paths",
    "exact_solo",
    "forget_solved",
]

COVERS = (
    "solo race, infinite deck, greedy policy: movement with terrain costs and modifiers, "
    "the hand of four, draw-two-keep-one, and with encounters challenges, artefacts and "
    "the arrow events (push-backs, curses without a cap, discarding one card); a race that "
    f"can never end counts {MAX_ROUNDS + 1} rounds, as the simulator counts it"
)


@dataclass(frozen=True)
class ExactResult:
    """The exact expected solo race length.

    ``never_finishes`` is the probability that the race can never end (a curse has made
    the next square dearer than any card, and greedy never rests); such a race counts
    ``MAX_ROUNDS + 1`` rounds in ``expected_rounds``, as in the simulator. ``path`` is the
    start path raced ("A"…).
    """

    track: str
    expected_rounds: float
    character: str
    advantage: str
    path: str
    encounters: bool
    states: int
    sweeps: int
    covers: str = ""
    never_finishes: float = 0.0
    curse_levels: int = 1
    challenge_finish: str = "finishes"

    def to_json(self) -> dict[str, Any]:
        # a reading only when it is not the default: the default's output is as it was
        stays = self.challenge_finish != "finishes"
        readings = {"challenge_finish": self.challenge_finish} if stays else {}
        return {
            "track": self.track,
            "expected_rounds": self.expected_rounds,
            "never_finishes": self.never_finishes,
            "character": self.character,
            "advantage": self.advantage,
            "path": self.path,
            "encounters": self.encounters,
            "states": self.states,
            "sweeps": self.sweeps,
            "curse_levels": self.curse_levels,
            "covers": self.covers,
            **readings,
        }


def _solve_pairs(
    board: Board,
    content: Content,
    pairs: list[tuple[int, int]],
    encounters: bool,
    route: int,
    onto_finish: bool = True,
) -> list[Solved]:
    return [
        _solve_routes(board, content, c, a, encounters, [route], onto_finish)[0] for c, a in pairs
    ]


class SoloRules(NamedTuple):
    """The readings that can change a solo race, as the solver plays them:
    ``challenge_finish``, a challenge won next to the finish (``finishes``, the default, or
    ``stays``); ``draw_two``, draw-two-keep-one on top of the Preparation draw (``extra``,
    the default; ``instead`` is refused for a racer with that advantage); ``encounters``,
    whether encounter cards are drawn (``--no-encounters``: none)."""

    challenge_finish: str = "finishes"
    draw_two: str = "extra"
    encounters: bool = True


DEFAULT_RULES = SoloRules()


def _draw_two_refused(content: Content, advantages: list[int], draw_two: str) -> None:
    """Refuse the ``draw_two`` reading ``instead`` for a racer with that advantage (the
    solver plays it on top of the Preparation draw), and a value the reading lacks."""
    values = RULE_READINGS["draw_two"]
    if draw_two not in values:
        raise TrackkitError(
            f"draw two is one of {', '.join(values)}, not {shown(str(draw_two), 40)!r}"
        )
    effects = content.advantages[advantages, ADV_EFFECT]
    if draw_two != values[0] and (effects == Effect.DRAW_TWO_KEEP_ONE).any():
        raise TrackkitError(
            "the exact solver plays draw-two-keep-one on top of the Preparation draw only; "
            "for --draw-two instead name another advantage, or use `trackkit simulate`"
        )


def _onto_finish(challenge_finish: str) -> bool:
    """Whether a challenge won next to the finish finishes (the ``challenge_finish``
    reading, ``finishes`` or ``stays``), or :class:`TrackkitError`."""
    values = RULE_READINGS["challenge_finish"]
    if challenge_finish not in values:
        raise TrackkitError(
            f"challenge finish is one of {', '.join(values)}, not "
            f"{shown(str(challenge_finish), 40)!r}"
        )
    return challenge_finish == values[0]


def _route(board: Board, path: str | None) -> int:
    """The index of start path ``path`` ("A"…), or the greedy route's when it is None."""
    if path is None:
        return greedy_route(board)
    labels = [start_path_label(r) for r in range(len(board.route_len))]
    if path not in labels:
        raise TrackkitError(
            f"the track's start tile has paths {', '.join(labels)}; there is no start path "
            f"{shown(str(path), 40)!r}"
        )
    return labels.index(path)


def _racer(
    content: Content, character: str | int | None, advantage: str | int | None
) -> tuple[list[int], list[int]]:
    """The characters and advantages (indices) a solo race is solved for: the one named,
    or every one when it is None (dealt at random)."""
    options = RaceOptions(
        players=1,
        characters=(character,) if character is not None else (),
        advantages=(advantage,) if advantage is not None else (),
        deck="infinite",  # the solver's model: the finite deck's own checks do not apply
        content=content,
    )
    characters = (
        [int(options.character_indices()[0])]
        if character is not None
        else list(range(len(content.character_names)))
    )
    advantages = (
        [int(options.advantage_indices()[0])]
        if advantage is not None
        else list(range(len(content.advantage_names)))
    )
    return characters, advantages


def exact_solo(
    track: Track,
    *,
    character: str | int | None = None,
    advantage: str | int | None = None,
    path: str | None = None,
    content: Content | None = None,
    workers: int = 2,
    prepared: RaceBoard | None = None,
    rules: SoloRules = DEFAULT_RULES,
) -> ExactResult:
    """The exact expected rounds of a solo greedy race with the infinite deck.

    ``character`` and ``advantage`` (names or indices) fix who races; left out, the result
    is the average over every character and advantage dealt at random, as a simulation
    that deals them would estimate (the pairs are solved on ``workers`` processes).
    ``path`` is the start path raced ("A"…), or None for the greedy route (the start path
    with the lowest total MP, the one greedy takes). ``prepared`` is ``track``'s race board
    when the caller has it already (a profile, after its simulation), so the track is not
    composed again. ``rules``: the readings that can change a solo race (:class:`SoloRules`).
    """
    encounters = rules.encounters
    onto_finish = _onto_finish(rules.challenge_finish)
    content = content or load_content()
    characters, advantages = _racer(content, character, advantage)
    _draw_two_refused(content, advantages, rules.draw_two)
    board = (prepared or race_board(track)).board
    route = _route(board, path)
    pairs = [(c, a) for c in characters for a in advantages]
    if workers > 1 and len(pairs) > 8:
        chunks = [pairs[i::workers] for i in range(workers)]
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            futures = [
                pool.submit(_solve_pairs, board, content, chunk, encounters, route, onto_finish)
                for chunk in chunks
            ]
            solved = dict(
                zip(
                    [p for chunk in chunks for p in chunk],
                    [r for future in futures for r in future.result()],
                    strict=True,
                )
            )
    else:
        solved = dict(
            zip(
                pairs,
                _solve_pairs(board, content, pairs, encounters, route, onto_finish),
                strict=True,
            )
        )
    values = [solved[pair][0] for pair in pairs]
    states = max(r[1] for r in solved.values())
    sweeps = max(r[2] for r in solved.values())
    return ExactResult(
        track=track.name,
        expected_rounds=float(np.mean(values)),
        character=content.character_names[characters[0]] if character is not None else "random",
        advantage=content.advantage_names[advantages[0]] if advantage is not None else "random",
        path=start_path_label(route),
        encounters=encounters,
        states=states,
        sweeps=sweeps,
        covers=_covers(encounters, onto_finish),
        never_finishes=float(np.mean([solved[pair][3] for pair in pairs])),
        curse_levels=max(r[4] for r in solved.values()),
        challenge_finish=rules.challenge_finish,
    )


def _covers(encounters: bool, onto_finish: bool) -> str:
    """What the solution covers, in words (:data:`COVERS`, and the readings it took)."""
    if not encounters:
        return COVERS.split(", and with")[0] + " (encounters off)"
    if onto_finish:
        return COVERS
    return COVERS + "; a challenge won next to the finish leaves the racer where it is"


def exact_paths(
    track: Track,
    *,
    character: str | int,
    advantage: str | int,
    content: Content | None = None,
    prepared: RaceBoard | None = None,
    rules: SoloRules = DEFAULT_RULES,
) -> dict[str, float]:
    """The exact expected rounds of one racer's solo race on each start path, by the
    path's letter: each as :func:`exact_solo` with that ``path`` gives it, solved together
    (the paths share every square after their first few, solved once).

    >>> from trackkit.games.yummell.core.presets import load_preset
    >>> paths = exact_paths(load_preset("first-run"), character=0, advantage=0)
    >>> sorted(paths), min(paths, key=paths.get)
    (['A', 'B', 'C'], 'A')
    """
    encounters = rules.encounters
    onto_finish = _onto_finish(rules.challenge_finish)
    content = content or load_content()
    (who,), (what,) = _racer(content, character, advantage)
    _draw_two_refused(content, [what], rules.draw_two)
    board = (prepared or race_board(track)).board
    routes = list(range(len(board.route_len)))
    solved = _solve_routes(board, content, who, what, encounters, routes, onto_finish)
    return {start_path_label(r): result[0] for r, result in zip(routes, solved, strict=True)}


def exact_characters(
    track: Track,
    *,
    advantage: str | int | None = None,
    path: str | None = None,
    content: Content | None = None,
    prepared: RaceBoard | None = None,
    rules: SoloRules = DEFAULT_RULES,
) -> dict[str, float]:
    """The exact expected rounds of each character's solo race with ``advantage`` (by
    default the ruleset's reference advantage, one that does nothing in a solo race), by
    the character's name, on start path ``path`` (None: the greedy route). Characters
    whose ability changes nothing here share one solution.
    """
    encounters = rules.encounters
    onto_finish = _onto_finish(rules.challenge_finish)
    content = content or load_content()
    if advantage is None:
        advantage = get_ruleset("yummell").exact_reference(content)["advantage"]
    characters, (what,) = _racer(content, None, advantage)
    _draw_two_refused(content, [what], rules.draw_two)
    board = (prepared or race_board(track)).board
    route = _route(board, path)
    return {
        content.character_names[c]: _solve_routes(
            board, content, c, what, encounters, [route], onto_finish
        )[0][0]
        for c in characters
    }
