"""The exact solver's chains (:mod:`trackkit.games.yummell.core.exact`): one racer's chain on
each start path (its squares' costs at each curse level, its encounter cards), solved
into shared tables from the finish backwards, and the solutions kept by their inputs."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np

from trackkit.errors import TrackkitError
from trackkit.games.yummell.core.content import (
    ADV_EFFECT,
    CARD_ARROW,
    CARD_EFFECT,
    CARD_TERRAIN,
    TERRAIN_COUNT,
    Content,
    Effect,
)
from trackkit.games.yummell.core.engine import MAX_ROUNDS
from trackkit.games.yummell.core.exact.encounters import Draws, Racer, _encounter_table
from trackkit.games.yummell.core.exact.hands import (
    HANDS4,
    HANDS5,
    _hand_probabilities,
    _refilled,
    _turns,
)
from trackkit.games.yummell.core.exact.solver import (
    MAX_SWEEPS,
    Refill,
    Solution,
    Squares,
    _solve,
    _unsolved,
)
from trackkit.games.yummell.core.rules import is_steady, terrain_cost
from trackkit.games.yummell.core.state import Board

MAX_LEVELS = 64  # curse levels: a curse of +1 on a 1-MP terrain needs 9


def curse_levels(
    board: Board,
    nodes: np.ndarray,
    character: np.ndarray,
    advantage: np.ndarray,
    cursed: int | None,
    highest: int,
) -> int:
    """How many curse levels the chain needs to be exact: one more than the first level at
    which every square of the cursed terrain on the route is dearer than the ``highest``
    card (from there on more curses change nothing); 1 when no curse can bite."""
    on_route = [n for n in nodes if cursed is not None and board.node_terrain[n] == cursed]
    if not on_route:
        return 1
    no_events = np.zeros(TERRAIN_COUNT, dtype=np.int64)
    node = on_route[0]  # squares of one terrain cost the same
    for level in range(MAX_LEVELS):
        curse = np.zeros(TERRAIN_COUNT, dtype=np.int64)
        curse[cursed] = level
        cost = terrain_cost(
            board.node_base[node], board.node_terrain[node], character, advantage, curse, no_events
        )
        if cost > highest:
            return level + 1
    raise TrackkitError(
        f"the exact solver follows curses up to {MAX_LEVELS} levels; this content needs more"
    )


Solved = tuple[float, int, int, float, int]  # rounds, states, sweeps, never finishes, levels


@dataclass(frozen=True)
class _Chain:
    """One racer's chain on one start path: what :func:`_solve` reads, and the key its
    result is kept under (characters and advantages that change nothing in a solo race
    share one)."""

    nodes: np.ndarray  # the route's squares
    cost: np.ndarray  # (squares, curse levels) MP to enter each square
    terrain: np.ndarray  # (squares,)
    stuck: np.ndarray  # (squares + 1, levels) by row: no card pays for the next square
    refill: np.ndarray  # (9,) probability of each number at a Replenishment draw
    cards: Draws  # the encounter cards
    steady: bool
    encounters: bool
    two: bool  # draw-two-keep-one
    key: tuple[Any, ...]
    onto_finish: bool = True  # a challenge won next to the finish finishes

    @property
    def racer(self) -> tuple[Any, ...]:
        """The key's part that is not the route (the racer, the deck, the readings): the
        chains whose solutions can share rows."""
        return self.key[2:]

    @property
    def levels(self) -> int:
        return int(self.cost.shape[1])

    def shared(self, other: _Chain) -> int:
        """How many squares ``self`` and ``other`` (the same racer's) end in that cost the
        same at every curse level and have the same terrain: the rows their solutions
        share (:func:`_solve_routes`)."""
        if other.levels != self.levels:
            return 0
        n = min(len(self.nodes), len(other.nodes))
        alike = (self.cost[-n:] == other.cost[-n:]).all(axis=1)
        alike &= self.terrain[-n:] == other.terrain[-n:]
        differ = np.flatnonzero(~alike[::-1])  # from the finish back
        return int(differ[0]) if differ.size else n


_TABLES: dict[tuple[int, int, int], tuple[Content, Draws]] = {}


def _encounter_table_of(content: Content, character: int, advantage: int) -> Draws:
    """:func:`_encounter_table` of one racer, kept for the content object it was made from
    (a sweep asks for the same racer's on every track)."""
    key = (id(content), character, advantage)
    kept = _TABLES.get(key)
    if kept is None or kept[0] is not content:
        if len(_TABLES) >= KEEP_SOLVED:
            _TABLES.clear()
        table = _encounter_table(
            content, content.characters[character], content.advantages[advantage]
        )
        kept = _TABLES[key] = (content, table)
    return kept[1]


def _chains(
    board: Board,
    routes: list[int],
    content: Content,
    character: int,
    advantage: int,
    encounters: bool,
    onto_finish: bool = True,
) -> list[_Chain]:
    """One racer's chain on each of ``routes`` (``onto_finish``: a challenge won next to
    the finish finishes, SPEC.md §4; else the character stays where it is)."""
    character_row = content.characters[character]
    advantage_row = content.advantages[advantage]
    draws = _encounter_table_of(content, character, advantage)
    kinds, params, chances, wins = draws
    cards = content.cards
    curses = cards[(cards[:, CARD_EFFECT] == Effect.CURSE) & (cards[:, CARD_ARROW] != 0)]
    cursed = [int(terrain) for terrain in curses[:, CARD_TERRAIN]]
    numbers = content.deck_numbers().astype(float)
    refill = numbers / numbers.sum()
    highest = int(np.flatnonzero(refill)[-1])
    two = bool(advantage_row[ADV_EFFECT] == Effect.DRAW_TWO_KEEP_ONE)
    steady = bool(is_steady(character_row, advantage_row))
    no_events = np.zeros(TERRAIN_COUNT, dtype=np.int64)
    chains = []
    for route in routes:
        nodes = board.route_nodes[route, : board.route_len[route]]
        levels = curse_levels(
            board,
            nodes,
            character_row,
            advantage_row,
            cursed[0] if (encounters and cursed) else None,
            highest,
        )
        # a square's cost at each curse level depends on its base MP and terrain alone:
        # each pair that occurs is costed once
        cost = np.zeros((len(nodes), levels), dtype=np.int64)
        costed: dict[tuple[int, int], np.ndarray] = {}
        bases, terrains = board.node_base[nodes].tolist(), board.node_terrain[nodes].tolist()
        for i, pair in enumerate(zip(bases, terrains, strict=True)):
            if pair not in costed:
                column = np.zeros(levels, dtype=np.int64)
                for level in range(levels):
                    curse = np.zeros(TERRAIN_COUNT, dtype=np.int64)
                    if cursed:
                        curse[cursed[0]] = level
                    column[level] = terrain_cost(
                        pair[0], pair[1], character_row, advantage_row, curse, no_events
                    )
                costed[pair] = column
            cost[i] = costed[pair]
        # a character whose next square costs more than any card can never move again
        stuck = np.zeros((len(nodes) + 1, levels), dtype=np.bool_)  # by row: square + 1
        stuck[:-1] = cost > highest
        terrain = board.node_terrain[nodes]
        arrays = (cost, terrain, refill, kinds, params, chances, wins)
        # (a reading that changes nothing, the default, leaves the key as it was)
        key = (*(a.tobytes() for a in arrays), steady, encounters, two)
        if not onto_finish and encounters:
            key = (*key, "challenge stays")
        chains.append(
            _Chain(
                nodes,
                cost,
                terrain,
                stuck,
                refill,
                draws,
                steady,
                encounters,
                two,
                key,
                onto_finish,
            )
        )
    return chains


def _solve_chain(chain: _Chain, solution: Solution, shared: int) -> Solved:
    """Solve ``chain`` into the last rows of ``solution`` (see :func:`_solve`), where the
    rows of its last ``shared`` squares (the finish at least) are given."""
    refill = chain.refill
    below = np.cumsum(refill)
    best_of_two = below**2 - np.concatenate(([0.0], below[:-1])) ** 2
    turns = _turns(refill.tobytes(), best_of_two.tobytes(), chain.two)
    # the route's squares are the last ones of the solution's: the rows before ``start_row``
    # are another path's, neither read nor written
    squares = solution.sweeps.shape[0] - 1
    start_row = squares - len(chain.nodes)
    cost = np.zeros((squares, chain.levels), dtype=np.int64)
    terrain = np.zeros(squares, dtype=np.int64)
    stuck = np.zeros((squares + 1, chain.levels), dtype=np.bool_)
    cost[start_row:], terrain[start_row:], stuck[start_row:] = (
        chain.cost,
        chain.terrain,
        chain.stuck,
    )
    first = squares - 1 - shared
    if shared > 1:
        # the rows of this path's own squares hold nothing yet or another path's values:
        # zeroed, solved anew. The encounter row of the first square shared (``first + 2``)
        # holds the other path's too, but depends on the square behind it, this path's:
        # `_solve` writes it anew once that square is solved.
        for table in solution[:3]:
            table[:, start_row : first + 2] = 0.0
        solution.sweeps[start_row : first + 2] = 0
    chance, finished_rounds, failed = _solve(
        Squares(cost, terrain, stuck),
        turns,
        Refill(refill, _refilled()),
        chain.cards,
        Racer(
            two=chain.two,
            steady=chain.steady,
            encounters=chain.encounters,
            onto_finish=chain.onto_finish,
        ),
        solution,
        first,
        start_row,
    )
    _converged(failed, chain.nodes)
    start_hands = _hand_probabilities(refill)
    # with no state that can get stuck every race finishes: exactly 1, not a sum of
    # starting hands' chances rounded
    finishing = float(start_hands @ chance) if chain.stuck.any() else 1.0
    rounds = float(start_hands @ finished_rounds) + (MAX_ROUNDS + 1) * (1.0 - finishing)
    states = (len(chain.nodes) + 1) * len(HANDS4) * chain.levels
    sweeps = int(solution.sweeps[start_row:].sum())
    return rounds, states, sweeps, 1.0 - finishing, chain.levels


def _solve_routes(
    board: Board,
    content: Content,
    character: int,
    advantage: int,
    encounters: bool,
    routes: list[int],
    onto_finish: bool = True,
) -> list[Solved]:
    """One racer's result on each of ``routes`` (``onto_finish``: :func:`_chains`).

    A square's values depend only on the squares ahead of it, so a route that ends in the
    same squares as one solved before (another start path of the track, or a track solved
    just before: a sweep profiles the tracks that end alike one after another) is solved
    only on its own squares, the rows of the squares it ends in copied from that route's
    solution (:data:`_RECENT`). The longest route not solved before is solved first. The
    values are those of solving each route on its own: the same operations on the same
    numbers.
    """
    chains = _chains(board, routes, content, character, advantage, encounters, onto_finish)
    found = {c.key: _SOLVED[c.key] for c in chains if c.key in _SOLVED}
    for chain in sorted(chains, key=lambda c: -len(c.nodes)):  # the first of equals first
        if chain.key in found:
            continue
        held = len(HANDS5) if chain.two else len(HANDS4)
        shared, given = _most_shared(chain)
        if shared > 1 and given is not None:
            solution = _with_rows(given, len(chain.nodes), shared)
        else:
            solution = _unsolved(chain.levels, len(chain.nodes), held)
            shared = 1  # the finish row, as :func:`_unsolved` wrote it
        found[chain.key] = _solve_chain(chain, solution, shared)
        _RECENT.append((chain, solution))
        if len(_SOLVED) >= KEEP_SOLVED:  # a sweep solves millions of tracks: forget the oldest
            del _SOLVED[next(iter(_SOLVED))]
        _SOLVED[chain.key] = found[chain.key]
    return [found[c.key] for c in chains]


def _with_rows(given: Solution, squares: int, shared: int) -> Solution:
    """Tables for a route of ``squares`` squares whose last ``shared`` rows are ``given``'s
    (a solution of the same racer at the same curse levels); :func:`_solve_chain` zeroes
    the other rows before it solves them (not zeroed twice: a sweep makes millions)."""
    tables = []
    for table in given[:3]:
        mine = np.empty((table.shape[0], squares + 1, *table.shape[2:]))
        mine[:, -shared:] = table[:, -shared:]  # by level, the last rows
        tables.append(mine)
    sweeps = np.empty(squares + 1, dtype=np.int64)
    sweeps[-shared:] = given.sweeps[-shared:]
    return Solution(*tables, sweeps)


def _most_shared(chain: _Chain) -> tuple[int, Solution | None]:
    """The recent solution (:data:`_RECENT`) of the same racer whose route ends in the most
    squares alike with ``chain``'s, and how many."""
    best, given = 0, None
    for other, solution in _RECENT:
        if other.racer == chain.racer:
            shared = chain.shared(other)
            if shared > best:
                best, given = shared, solution
    return best, given


def forget_solved() -> None:
    """Forget every solution kept (:data:`_SOLVED`, :data:`_RECENT`): the next solve
    starts from the finish (a benchmark's timing, a test that solves anew)."""
    _SOLVED.clear()
    _RECENT.clear()


def _converged(failed: int, nodes: np.ndarray) -> None:
    if failed > -2:
        where = "before the start" if failed < 0 else f"on square {failed + 1} of the route"
        raise TrackkitError(
            f"the exact solver did not settle {where} after "
            f"{MAX_SWEEPS:,} sweeps: a character there almost never gets on (a square that "
            "only the rarest card can pay for?); check the content, or use `trackkit simulate`"
        )


# solutions by their inputs: characters and advantages that change nothing in a solo race,
# and the same track asked for again, share one (the latest KEEP_SOLVED, in solving order)
KEEP_SOLVED = 4096
_SOLVED: dict[tuple[Any, ...], Solved] = {}
# the latest chains solved and their solutions, whose rows a route that ends alike reuses
# (each a few MB: a track's three start paths and the track before it)
KEEP_RECENT = 6
_RECENT: deque[tuple[_Chain, Solution]] = deque(maxlen=KEEP_RECENT)
