"""What the race tests share: a table to set a race up by hand (sleds on board addresses,
hands, dogs, dice, trees), to play a turn with a given plan, and to read it back.

Board addresses are the track file's (segment, lane, row); on the straight fixtures lane 1
is the left lane in the direction of travel, as in SNOWTAILS.md §3.15.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from snowtails_fixtures import base_data, track_of

from trackkit.games.snowtails.core.board import Board
from trackkit.games.snowtails.core.course import Course, build_course
from trackkit.games.snowtails.core.engine import play_turn, setup_race
from trackkit.games.snowtails.core.options import RaceOptions
from trackkit.games.snowtails.core.race import Engine, prepare
from trackkit.games.snowtails.core.rules import schedule_code
from trackkit.games.snowtails.core.state import (
    PLAN_BONUS,
    PLAN_CODE,
    PLAN_FIELDS,
    PLAN_PLAY,
    PLAN_START,
    PLAN_VALUE,
    PLAY_BOTH,
    PLAY_LEFT,
    PLAY_RIGHT,
    RANDOM_BUFFER,
    ROUND,
    VALUES,
    Race,
    Sleds,
)
from trackkit.games.snowtails.core.track import Address

# A long straight: "a" has 20 rows, the finish line lies after 3 rows of "c" (3 run-off rows).
STRAIGHT: dict[str, Any] = {"segments": [{"id": "a", "rows": 20}, {"id": "c", "rows": 6}]}
PLAYS = {"left": PLAY_LEFT, "right": PLAY_RIGHT, "both": PLAY_BOTH}


def counts(values: Iterable[int]) -> np.ndarray:
    """Cards by value: ``counts([0, 3, 3])`` → [1, 0, 0, 2, 0, 0]."""
    out = np.zeros(VALUES, dtype=np.int64)
    for value in values:
        out[value] += 1
    return out


@dataclass
class Table:
    """A race set up by hand: no cards anywhere until given, the 5s in the box."""

    engine: Engine

    @property
    def board(self) -> Board:
        return self.engine.compiled.board

    @property
    def race(self) -> Race:
        return self.engine.race

    @property
    def sleds(self) -> Sleds:
        return self.engine.sleds

    def node(self, address: Iterable[Any]) -> int:
        return self.engine.compiled.node(address)

    def where(self, p: int) -> Address | None:
        node = int(self.sleds.node[p])
        return None if node < 0 else self.engine.compiled.address(node)

    def put(self, p: int, address: Iterable[Any]) -> None:
        """Put sled ``p`` on ``address``, keeping the count of sleds per space."""
        old = self.sleds.node[p]
        if old >= 0:
            self.race.occupancy[old] -= 1
        node = self.node(address)
        self.sleds.node[p] = node
        self.race.occupancy[node] += 1

    def give(
        self,
        p: int,
        *,
        hand: Iterable[int] | None = None,
        dogs: tuple[int, int] | None = None,
        die: int | None = None,
        collisions: int | None = None,
        deck: Iterable[int] | None = None,
        under: Iterable[int] | None = None,
        boxed: int | None = None,
    ) -> None:
        """Set what sled ``p`` holds; ``deck`` is listed bottom first (the top card last)."""
        sleds = self.sleds
        if hand is not None:
            sleds.hand[p] = counts(hand)
        if dogs is not None:
            sleds.left[p], sleds.right[p] = dogs
        if die is not None:
            sleds.die[p] = die
        if collisions is not None:
            sleds.collisions[p] = collisions
        if deck is not None:
            cards = list(deck)
            sleds.deck[p, : len(cards)] = cards
            sleds.deck_n[p] = len(cards)
        if under is not None:
            sleds.under[p] = counts(under)
        if boxed is not None:
            sleds.boxed[p] = boxed

    def trees(self, *addresses: Iterable[Any]) -> None:
        """Exactly these trees stand."""
        self.race.trees[:] = 0
        for address in addresses:
            self.race.trees[self.node(address)] = 1

    def play(
        self,
        p: int,
        play: str,
        value: int,
        schedule: str,
        bonus: int = 0,
        position: int = 1,
        start: Iterable[Any] | None = None,
    ) -> int:
        """Play sled ``p``'s turn with this plan (engine.play_turn); why the move stopped."""
        plan = np.zeros(PLAN_FIELDS, dtype=np.int64)
        plan[PLAN_START] = -1 if start is None else self.node(start)
        plan[PLAN_PLAY], plan[PLAN_VALUE] = PLAYS[play], value
        plan[PLAN_CODE], plan[PLAN_BONUS] = schedule_code(schedule), bonus
        e = self.engine
        return int(play_turn(self.board, e.setup, self.race, self.sleds, p, plan, position))


def table(
    players: int = 2,
    policy: str | tuple[str, ...] = "greedy",
    rnd: int = 2,
    track: Any = None,
    seed: int = 0,
    **changes: Any,
) -> Table:
    """A race on the base track (with ``changes``) or ``track``, in round ``rnd``, the
    sleds in start order 0, 1, …, off the track, with no cards, the random buffer full.

    The track is composed here and handed to the engine as a course, so a rule's test may
    stand on a board the validator would refuse to race (a Tavern six rows long)."""
    track = track if track is not None else track_of(base_data(**changes))
    course = track if isinstance(track, Course) else build_course(track)
    engine = prepare(course, RaceOptions(players=players, policy=policy))
    sleds, race = engine.sleds, engine.race
    sleds.slot[:] = np.arange(players)
    setup_race(engine.compiled.board, race, sleds)
    race.status[ROUND] = rnd
    sleds.hand[:] = 0
    sleds.under[:] = 0
    sleds.deck_n[:] = 0
    sleds.boxed[:] = 2
    race.stream[:RANDOM_BUFFER] = np.random.default_rng(seed).integers(0, 2**32, size=RANDOM_BUFFER)
    race.stream[RANDOM_BUFFER] = 0
    return Table(engine)


def plain_python(code: str) -> Any:
    """What ``code`` prints as JSON when run in a fresh interpreter with numba's JIT off:
    the engine as plain Python, to compare with the compiled engine's numbers."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)
