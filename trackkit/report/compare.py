"""Tracks side by side: exact solo length, simulated length, MP per square, terrain mix;
the ranked table as data and as the text ``trackkit compare`` prints."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from trackkit.board.track import Track
from trackkit.games.base import race_ready
from trackkit.games.yummell.exact import exact_solo
from trackkit.games.yummell.policies import greedy_route
from trackkit.games.yummell.setup import RaceOptions
from trackkit.games.yummell.terrain import Terrain, route_cost
from trackkit.sim.montecarlo import simulate

MIX_COLUMNS = ("plain", "woods", "hills", "swamp")  # the terrain mix's columns, in order


@dataclass(frozen=True)
class TrackFigures:
    """One track's row of the comparison."""

    key: str
    name: str
    squares: int  # along the greedy start path
    mp: int
    mp_per_square: float
    terrain_mix: dict[str, float]  # share of squares per terrain along that path
    exact_solo_rounds: float
    mean_rounds: float
    ci95: tuple[float, float]
    rank: int = 0

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["ci95"] = list(self.ci95)
        return data


def track_figures(
    key: str, track: Track, options: RaceOptions, races: int, seed: int
) -> TrackFigures:
    board = race_ready(track, options)  # refuses a track its rules reject
    route = board.routes[greedy_route(board.board)]
    graph = board.composed.graph
    mp = route_cost(board.composed, list(route))
    terrains = [graph.nodes[s]["terrain"] for s in route]
    mix = {t.value: terrains.count(t.value) / len(route) for t in Terrain}
    result = simulate(track, options, races=races, seed=seed)
    exact = exact_solo(track, encounters=options.encounters, content=options.content)
    return TrackFigures(
        key=key,
        name=track.name,
        squares=len(route),
        mp=mp,
        mp_per_square=mp / len(route),
        terrain_mix=mix,
        exact_solo_rounds=exact.expected_rounds,
        mean_rounds=result.mean_rounds,
        ci95=result.ci95,
    )


def compare_tracks(
    tracks: dict[str, Track],
    options: RaceOptions | None = None,
    *,
    races: int = 10_000,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> list[TrackFigures]:
    """Figures for every track, ranked from the longest simulated race to the shortest."""
    options = options or RaceOptions()
    rows = []
    for done, (key, track) in enumerate(tracks.items(), 1):
        rows.append(track_figures(key, track, options, races, seed))
        if progress:
            progress(done, len(tracks))
    ranked = sorted(rows, key=lambda row: -row.mean_rounds)
    return [
        TrackFigures(**{**asdict(row), "ci95": row.ci95, "rank": rank})
        for rank, row in enumerate(ranked, 1)
    ]


def compare_summary(rows: list[TrackFigures]) -> list[dict[str, Any]]:
    """The ranked rows as JSON-able data, one dict per track."""
    return [row.to_json() for row in rows]


def compare_text(rows: list[TrackFigures], *, players: int, races: int, seed: int) -> str:
    """A ranked table: exact solo length, simulated length with its 95% interval, MP per
    square and terrain mix along the greedy start path; ``players``, ``races`` and ``seed``
    are those the rows were simulated with."""
    lines = [
        f"{len(rows)} tracks, {players} players, {races:,} races each, seed "
        f"{seed}; ranked from the longest race",
        f"{'#':>2} {'track':<32} {'exact solo':>10} {'simulated (95% CI)':>24} {'MP/sq':>6}  "
        + " ".join(MIX_COLUMNS),
    ]
    for row in rows:
        mix = " ".join(f"{100 * row.terrain_mix[t]:4.0f}%" for t in MIX_COLUMNS)
        lines.append(
            f"{row.rank:>2} {row.name[:32]:<32} {row.exact_solo_rounds:>10.2f} "
            f"{row.mean_rounds:>8.2f} ({row.ci95[0]:.2f}-{row.ci95[1]:.2f})  "
            f"{row.mp_per_square:>6.2f}  {mix}"
        )
    lines.append(
        "exact solo: one character dealt at random, infinite deck, greedy (trackkit exact)"
    )
    return "\n".join(lines)
