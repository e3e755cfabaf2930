"""What a piece of work may cost, checked before the work starts.

The app is a web server and the command line reads files from anyone, so a cost that a
visitor, a link or a file can name is bounded here, one limit per kind of work:

- **drawing**: the pixels of a picture's canvas, the points of an interactive chart;
- **validation**: the spaces a track file makes the checks enumerate;
- **simulation**: races × players × a track-size factor;
- **sweeps**: tracks × races;
- **tunes**: candidates × tracks × player counts × races, and the confirmation's.

Each :class:`Limit` has a value for the command line (the person running it pays for what
they ask) and a stricter one for the app, which the operator running the server may set
with an environment variable (``TRACKKIT_APP_…``, read when the app asks). The app says
it serves with :func:`serve_app_limits`; everything else gets the command line's values.
A cost over its limit is refused before any work by :meth:`Limit.check`, with a one-line
:class:`CostLimitError` that names the limit and how to stay within it.

The README's "Limits" section lists every limit with its values; a test keeps the two
alike.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from trackkit.errors import TrackkitError


class CostLimitError(TrackkitError):
    """A piece of work refused before it started: it would cost more than a limit allows."""


_SERVING = {"app": False}


def serve_app_limits(on: bool = True) -> None:
    """From now on, this process checks the app's limits (the stricter ones) instead of the
    command line's. The app calls it once at start; tests switch it back."""
    _SERVING["app"] = on


def serving_app() -> bool:
    """Whether this process checks the app's limits."""
    return _SERVING["app"]


@dataclass(frozen=True)
class Limit:
    """The most a kind of work may cost: ``cli`` for the command line and the library,
    ``app`` for the app unless the operator sets ``env``; ``what`` names the unit in a
    refusal and ``fix`` says how to stay within it."""

    key: str
    what: str
    cli: int
    app: int
    env: str
    fix: str

    def value(self) -> int:
        """The limit in force: the app's (the operator's ``env`` when set to a whole number
        of 1 or more) while serving the app, else the command line's."""
        if not serving_app():
            return self.cli
        raw = os.environ.get(self.env, "").strip().replace("_", "")
        if raw.isdigit() and int(raw) >= 1:
            return int(raw)
        return self.app

    def check(self, cost: int, doing: str) -> None:
        """Refuse ``doing`` (e.g. "this picture") when ``cost`` is over the limit in force."""
        limit = self.value()
        if cost > limit:
            raise CostLimitError(
                f"{doing} would need {cost:,} {self.what}; the limit is {limit:,}: {self.fix}"
            )

    def allows(self, cost: int) -> bool:
        """Whether ``cost`` is within the limit in force."""
        return cost <= self.value()


def registered() -> tuple[Limit, ...]:
    """Every limit trackkit checks, in the order the README lists them."""
    return tuple(v for v in globals().values() if isinstance(v, Limit))


# --- drawing -----------------------------------------------------------------------------

# A picture's canvas, in pixels as it is drawn: a PNG at its zoom, an SVG at its own size.
# The presets need 1.4 to 7.7 million at the PNG's zoom; resvg takes 0.7 s and 140 MB for
# 16 million, 6 s and 0.8 GB for 100 million; a board that asks for billions aborts it.
CANVAS_PIXELS = Limit(
    key="canvas_pixels",
    what="pixels",
    cli=100_000_000,
    app=16_000_000,
    env="TRACKKIT_APP_CANVAS_PIXELS",
    fix="bring the track's tiles or segments closer together (an interactive figure, "
    "the app's board or render -o FILE.html, draws it without a canvas)",
)
# What a Plotly figure draws: its points, shapes and annotations (the browser draws each).
# The presets need 160 to 790 (up to 730 on the Design page with its click layer), the
# longest race's animation about 3,500; a board of 60 segments in a staircase about 20,000
# (2 s to build); the longest legal Snow Tails board 65,000 (6 s, 8 MB of page).
PLOT_POINTS = Limit(
    key="plot_points",
    what="plotted points and shapes",
    cli=250_000,
    app=10_000,
    env="TRACKKIT_APP_PLOT_POINTS",
    fix="draw a smaller track (fewer tiles, segments or spaces), or save it as an SVG picture",
)

# --- validation --------------------------------------------------------------------------

# The spaces a Snow Tails board makes the checks enumerate: every space of its segments
# plus the spaces its buildings cover (trackkit.games.snowtails.geometry.board_spaces),
# counted from the file's numbers before the course is built. The presets need 190 to 372;
# the largest board a track file may describe, 38,880 (60 straights of 9 × 60 spaces and
# 12 buildings of 540), takes the command line about 13 s to validate and compile, so the
# command line never refuses a file that loads; the app refuses beyond 5,000 (about 1 s).
BOARD_SPACES = Limit(
    key="board_spaces",
    what="board spaces",
    cli=50_000,
    app=5_000,
    env="TRACKKIT_APP_BOARD_SPACES",
    fix="make the board smaller (fewer or shorter segments, fewer lanes, smaller buildings)",
)

# --- simulation --------------------------------------------------------------------------

# A race costs about as much per player as the board has nodes (Yummell squares, Snow Tails
# spaces): a race's rounds grow with the board's length and every player moves each round.
# Measured on this project's 2-core machine: 35–130 ns per race × player × node, Yummell
# presets to Snow Tails boards of 15,000 spaces. The command line allows the 10,000,000
# races it documents with 8 sleds on every preset (Long trail, 348 spaces: 27.8 billion);
# the app allows about 10–20 s of one core per run (50,000 races of 8 sleds on Long trail:
# 139 million), and refuses the 7-minute runs a big board allowed.
SIMULATION_COST = Limit(
    key="simulation_cost",
    what="race steps (races × players × squares or spaces of the board)",
    cli=30_000_000_000,
    app=200_000_000,
    env="TRACKKIT_APP_SIMULATION_COST",
    fix="run fewer races or players, or race a smaller board",
)

# --- sweeps ------------------------------------------------------------------------------

# The full 8-player sweep at the defaults (9,400,350 tracks × 2,000 races and the skill's
# 2 × 1,000: 37,601,400,000, the largest the README documents) fits the command line's; the
# Explore page's small sweep ((70 + 30) × 2,000 races, no skill: 200,000) fits the app's.
SWEEP_RACES = Limit(
    key="sweep_races",
    what="races in all",
    cli=40_000_000_000,
    app=200_000,
    env="TRACKKIT_APP_MAX_SWEEP_RACES",
    fix="sweep a sample of the tracks (--sample) or run fewer races per track (--races)",
)

# What reading a sweep's finished parts decodes in memory (`find`, the Explore page,
# read_sweep): every text cell's bytes plus 8 bytes for every other cell, counted from
# each part's footer and its text columns (read still dictionary-encoded) before any part
# is read whole. A preset's row counts 652 bytes (56 columns), so the full 5-player sweep
# needs about 137 million and the full 8-player one about 6.1 billion.
SWEEP_BYTES = Limit(
    key="sweep_bytes",
    what="bytes decoded",
    cli=16_000_000_000,
    app=500_000_000,
    env="TRACKKIT_APP_SWEEP_BYTES",
    fix="read a smaller sweep (sweep a sample of the tracks with --sample)",
)

# --- tunes -------------------------------------------------------------------------------

# A tune's races in all: budget × tracks × player counts × races per candidate, plus the
# best raced again and the start and the best confirmed, and what each candidate costs
# beside its races (asking, recording, building and loading it; setting up each track and
# count: trackkit.tune.plan's CANDIDATE_RACES, PARAMETER_RACES, CONFIG_RACES) counted as
# the races that take as long. Measured on this 2-core machine: 53,000-119,000 Yummell
# races a second on one core with the machine's load (the six presets at 2 to 8 players,
# tests/tune/overhead.py). The bundled roster's calibration (2,000 candidates × 42 × 2,000
# races, 37 values moved, confirmed with 40,000: 181,440,000 races, 223,407,200 counted)
# fits the command line's many times over; the app's Tune page allows about 30 s of one
# core at 100,000 a second (a candidate once counted as its races alone, while 200
# candidates of 200 races, First run at 3 and 5 players, took 41 s: 1,000 races a second).
TUNE_RACES = Limit(
    key="tune_races",
    what="races in all",
    cli=100_000_000_000,
    app=3_000_000,
    env="TRACKKIT_APP_MAX_TUNE_RACES",
    fix="race fewer candidates (budget), tracks, player counts or races per candidate",
)

# The cards a tune's candidate deck may hold, with every `number` move of the tune file at
# its `high` (counted from the starting content before any race). Yummell's deck holds 90;
# measured on this 2-core machine (the hand-made content, one entry's `numbers` padded
# with more 3s, then ContentFiles.write and load_content), a candidate of 2,090 cards takes
# 0.07 s to build and load and 200 races of 5 on First run no longer than with 90, while
# 20,000 cards took 24 s a candidate and a billion ended in MemoryError (issue 32).
TUNE_DECK_CARDS = Limit(
    key="tune_deck_cards",
    what="cards in one deck",
    cli=2_000,
    app=1_000,
    env="TRACKKIT_APP_TUNE_DECK_CARDS",
    fix="lower the `high` of the tune file's `number` moves (tune_deck_cards)",
)

# A robustness run races every track and the average track's under every combination of
# readings: combinations × (tracks + the average track's) × races. The app's default is
# about 30 s of one core at Yummell's pace (and about a minute at Snow Tails' smart pace).
ROBUST_RACES = Limit(
    key="robust_races",
    what="races in all",
    cli=20_000_000_000,
    app=3_000_000,
    env="TRACKKIT_APP_MAX_ROBUST_RACES",
    fix="vary fewer readings, or race fewer tracks or races per track",
)

# A ladder step races its two rungs at mixed tables, each seating on the same seed: race
# pairs a step (every step's simulations are also bounded by SIMULATION_COST). At 4 players
# 4,000 pairs give about ±1 point; the app's default is a few seconds a step on one core.
LADDER_RACES = Limit(
    key="ladder_races",
    what="race pairs",
    cli=100_000,  # the races whose rows a simulation keeps (montecarlo.KEEP_RACES)
    app=20_000,
    env="TRACKKIT_APP_LADDER_RACES",
    fix="race fewer race pairs a step (--races)",
)

# A planning player (a ladder's top rung) plays each decision's options out to the race's
# end, ``budget`` times each: a race costs about budget × options × decisions races more.
PLAN_BUDGET = Limit(
    key="plan_budget",
    what="playouts an option",
    cli=256,
    app=64,
    env="TRACKKIT_APP_PLAN_BUDGET",
    fix="give the planning player a smaller budget (--budget)",
)


def check_budget(budget: object) -> None:
    """Refuse a planning player's budget that is not a whole number from 1 to the limit in
    force (:data:`PLAN_BUDGET`)."""
    if isinstance(budget, bool) or not isinstance(budget, int | np.integer):
        raise TrackkitError(f"the planning player's budget is a whole number, not {budget!r}")
    if budget < 1:
        raise TrackkitError(
            f"the planning player's budget is 1 playout an option or more, not {budget}"
        )
    PLAN_BUDGET.check(int(budget), "a planning player's budget")
