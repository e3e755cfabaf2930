"""Snow Tails tracks and races in words, as ``presets --game snowtails``, ``show``,
``race``, ``compare`` and ``tournament`` print them for Snow Tails tracks.

Each ``*_summary`` returns the JSON-able data (what ``--json`` prints); each ``*_text``
turns it into the lines a player reads. A space is written ``segment:lane:index`` as the
track file numbers it (lanes from 1 on the left in board order).

>>> rows = presets_summary()
>>> rows[0]["slug"], rows[0]["reconstructed"]
('husky-oval', True)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from trackkit.errors import shown
from trackkit.games.snowtails.core.board import compile_course
from trackkit.games.snowtails.core.course import build_course
from trackkit.games.snowtails.core.options import RaceOptions
from trackkit.games.snowtails.core.presets import list_presets
from trackkit.games.snowtails.core.race import RaceRecord, TournamentBatch
from trackkit.games.snowtails.core.ruleset import space_name
from trackkit.games.snowtails.core.track import SnowTrack
from trackkit.report.ladder import skill_table, step_words_of
from trackkit.report.orderings import orderings, orderings_text


def _segment_text(segment: Any) -> str:
    if segment.is_corner:
        tight = " tight" if segment.tight else ""
        spaces = ", ".join(str(n) for n in segment.spaces_per_lane)
        return f"{segment.turn}{tight} corner, spaces per lane {spaces} (inside → outside)"
    return f"straight, {segment.lanes} lanes × {segment.rows} rows"


def show_summary(track: SnowTrack) -> dict[str, Any]:
    """``track`` composed: its segments as raced, spaces open and closed, the start row,
    the finish, the fewest steps from the start to cross the line, trees, markers and
    buildings (with the spaces that trigger each)."""
    course = build_course(track)
    compiled = compile_course(course)
    board = compiled.board
    starts = [int(n) for n in board.start]
    triggers: dict[str, list[str]] = {}
    for address in compiled.addresses:
        for kind in course.graph.nodes[address]["trigger_of"]:
            triggers.setdefault(kind, []).append(space_name(address))
    return {
        "game": track.game,
        "name": track.name,
        "description": track.description,
        "reconstructed": track.reconstructed,
        "note": track.note,
        "direction": track.direction,
        "segments": [
            {"id": s.id, "raced": s in course.segments, "shape": _segment_text(s)}
            for s in track.segments
        ],
        "spaces": compiled.nodes,
        "closed_spaces": len(course.closed),
        "start": [space_name(compiled.address(n)) for n in starts],
        "finish": {
            "segment": track.finish.segment,
            "line": track.finish.line,
            "runoff_rows": track.finish.runoff_rows,
        },
        "steps_to_finish": min((int(board.togo[n]) for n in starts), default=None),
        "trees": [space_name(t) for t in track.trees],
        "markers": [space_name(m) for m in track.markers],
        "buildings": [
            {"kind": b.kind, "name": b.name, "segment": b.segment, "triggers": triggers.get(b.kind)}
            for b in track.buildings
        ],
    }


def show_text(data: dict[str, Any]) -> str:
    """:func:`show_summary` in words."""
    lines = [f"{shown(data['name'])}: Snow Tails track, driven {data['direction']}"]
    if data["reconstructed"]:
        lines.append(f"Reconstruction: {shown(data['note'])}")
    lines.append("Segments in board order:")
    for s in data["segments"]:
        raced = "" if s["raced"] else "  (not raced)"
        lines.append(f"  {shown(s['id']):<12} {s['shape']}{raced}")
    lines.append(
        f"{data['spaces']} open spaces ({data['closed_spaces']} closed); start row "
        + " ".join(data["start"])
    )
    finish = data["finish"]
    lines.append(
        f"Finish line after row {finish['line']} of {shown(finish['segment'])}, "
        f"{finish['runoff_rows']} run-off rows; {data['steps_to_finish']} steps from the "
        "start to cross it"
    )
    lines.append(f"Trees ({len(data['trees'])}): " + (" ".join(data["trees"]) or "none"))
    if data["markers"]:
        lines.append(f"Markers ({len(data['markers'])}): " + " ".join(data["markers"]))
    for b in data["buildings"]:
        where = " ".join(b["triggers"] or []) or "no space"
        lines.append(f"{b['name']} on {shown(b['segment'])}, triggered from {where}")
    if not data["buildings"]:
        lines.append("No buildings")
    lines.append("(spaces written segment:lane:index as the track file numbers them)")
    return "\n".join(lines)


def presets_summary() -> list[dict[str, Any]]:
    """The demo tracks: slug, name, open spaces, trees, buildings, whether reconstructed."""
    rows = []
    for preset in list_presets():
        track = preset.track
        rows.append(
            {
                "slug": preset.slug,
                "name": track.name,
                "segments": len(track.segments),
                "spaces": compile_course(track).nodes,
                "trees": len(track.trees),
                "buildings": [b.kind for b in track.buildings],
                "direction": track.direction,
                "reconstructed": track.reconstructed,
                "description": track.description,
            }
        )
    return rows


def presets_text(rows: list[dict[str, Any]]) -> str:
    """A table of :func:`presets_summary`."""
    lines = [f"{'slug':<16} {'spaces':>6} {'trees':>5}  {'buildings':<31} name"]
    for r in rows:
        buildings = ", ".join(r["buildings"]) or "-"
        lines.append(
            f"{r['slug']:<16} {r['spaces']:>6} {r['trees']:>5}  {buildings:<31} {r['name']}"
        )
    lines.append("(demo boards: reconstructions, not the printed Mush! Mush! tracks)")
    return "\n".join(lines)


def race_text(record: RaceRecord, *, track: str, seed: int) -> str:
    """Every turn round by round (card play, drift schedule, bonus, where it stopped), and
    the placings by start slot."""
    lines = [f"{shown(track)}, seed {seed}: {record.rounds} rounds"]
    current = 0
    for turn in record.turns:
        if turn.round != current:
            current = turn.round
            lines.append(f"Round {current}")
        start = "the start" if turn.start is None else space_name(turn.start)
        bonus = f", bonus {turn.bonus}" if turn.bonus else ""
        stop = "" if turn.stop == "none" else f", stopped: {turn.stop}"
        lines.append(
            f"  sled {turn.player + 1}: plays {turn.play} {turn.value}, "
            f"{turn.schedule}{bonus}: {start} → {space_name(turn.end)}{stop} "
            f"(die {turn.die}, {turn.cards} collision card(s))"
        )
    placed = sorted(zip(record.placings, range(len(record.placings)), strict=True))
    lines.append("Placings: " + ", ".join(f"{p}. sled {who + 1}" for p, who in placed))
    return "\n".join(lines)


# --- compare -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SnowFigures:
    """One Snow Tails track's row of a comparison."""

    key: str
    name: str
    spaces: int
    steps_to_finish: int | None
    trees: int
    buildings: int
    mean_rounds: float
    ci95: tuple[float, float]
    collisions: float  # collision cards taken per race, all sleds
    trees_hit: float
    unfairness: float  # points a sled's win chance is moved from fair by its start slot
    unfairness_low: float
    unfairness_high: float
    slot_spread: float  # best start slot's win rate minus the worst's
    slot_spread_low: float  # its 95% interval (simultaneous intervals of the slots)
    slot_spread_high: float
    last_round: float  # share of races decided in the last round
    skill: float = math.nan  # the top policy's win rate minus greedy's, points (mixed tables)
    skill_low: float = math.nan
    skill_high: float = math.nan
    skill_step: str = ""  # "smart over greedy"
    rank: int = 0
    # the profile's figures to order tracks by (not in the JSON)
    paired: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        data = asdict(replace(self, paired={}))
        del data["paired"]
        data["ci95"] = list(self.ci95)
        return {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in data.items()}


def compare_tracks(
    tracks: dict[str, SnowTrack],
    options: RaceOptions,
    *,
    races: int = 10_000,
    seed: int = 0,
    reference_races: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[SnowFigures]:
    """Figures for every track, each profiled with the same options, races and seed
    (common random numbers: race ``r`` draws the same start order and cards on every
    track) beside ``reference_races`` of each demo board (default: as many), ranked from
    the longest simulated race to the shortest."""
    from trackkit.explore.profile import ProfileSettings, profile_track

    rows = []
    settings = ProfileSettings(races=races, seed=seed, exact=False, max_races=races, skill=True)
    for done, (key, track) in enumerate(tracks.items(), 1):
        shown_data = show_summary(track)
        profile = profile_track(track, settings, options=options, reference_races=reference_races)
        v = profile.values
        rows.append(
            SnowFigures(
                key=key,
                name=track.name,
                spaces=shown_data["spaces"],
                steps_to_finish=shown_data["steps_to_finish"],
                trees=len(track.trees),
                buildings=len(track.buildings),
                mean_rounds=v["rounds_mean"],
                ci95=(v["rounds_mean_low"], v["rounds_mean_high"]),
                collisions=v["collisions"],
                trees_hit=v["trees"],
                unfairness=v["unfairness"],
                unfairness_low=v["unfairness_low"],
                unfairness_high=v["unfairness_high"],
                slot_spread=v["start_spread"],
                slot_spread_low=v["start_spread_low"],
                slot_spread_high=v["start_spread_high"],
                last_round=v["decided_last_round"],
                skill=v.get("skill", math.nan),
                skill_low=v.get("skill_low", math.nan),
                skill_high=v.get("skill_high", math.nan),
                skill_step=step_words_of(profile.details.get("skill")),
                paired=profile.paired,
            )
        )
        if progress:
            progress(done, len(tracks))
    ranked = sorted(rows, key=lambda row: -row.mean_rounds)
    return [replace(row, rank=rank) for rank, row in enumerate(ranked, 1)]


def compare_summary(rows: list[SnowFigures]) -> dict[str, Any]:
    """The ranked rows (``tracks``) and the orderings stated beyond noise."""
    found = orderings({row.name: row.paired for row in rows})
    return {"tracks": [row.to_json() for row in rows], **found.to_json()}


def compare_text(rows: list[SnowFigures], *, players: int, races: int, seed: int) -> str:
    """A ranked table: simulated length with its 95% interval, collisions and trees hit per
    race, unfairness (the start slots against the fair share) and the start-slot spread of
    win rates with their intervals, the share decided in the last round; then the
    orderings told apart beyond noise."""
    lines = [
        f"{len(rows)} Snow Tails tracks, {players} sleds, {races:,} races each, seed {seed}; "
        "ranked from the longest race",
        f"{'#':>2} {'track':<24} {'steps':>5} {'rounds (95% CI)':>22} {'cards':>6} "
        f"{'trees':>6} {'unfairness (95% CI)':>20} {'slot spread (95% CI)':>21} "
        f"{'last round':>10}",
    ]
    for row in rows:
        steps = "-" if row.steps_to_finish is None else str(row.steps_to_finish)
        unfair = f"{row.unfairness:.1f} ({row.unfairness_low:.1f}-{row.unfairness_high:.1f})"
        spread = (
            f"{100 * row.slot_spread:.1f} ({100 * row.slot_spread_low:.1f}-"
            f"{100 * row.slot_spread_high:.1f})"
        )
        lines.append(
            f"{row.rank:>2} {shown(row.name)[:24]:<24} {steps:>5} "
            f"{row.mean_rounds:>7.2f} ({row.ci95[0]:.2f}-{row.ci95[1]:.2f}) "
            f"{row.collisions:>6.2f} {row.trees_hit:>6.2f} {unfair:>20} {spread:>21} "
            f"{100 * row.last_round:>9.1f}%"
        )
    lines += skill_table(rows)
    lines += ["", *orderings_text(orderings({row.name: row.paired for row in rows}))]
    lines.append(
        "steps: fewest steps from the start to cross the line; cards and trees: per race, "
        "all sleds; unfairness: points by which a sled's chance of winning is moved from "
        "fair by its start slot (root mean square); slot spread: best start slot's win "
        "rate minus the worst's, in points"
    )
    return "\n".join(lines)


# --- tournaments ---------------------------------------------------------------------------


def tournament_summary(
    batch: TournamentBatch, tracks: list[str], *, players: int, seed: int
) -> dict[str, Any]:
    """Tournaments of three races (rulebook E): each race's mean length, and per start slot
    of the first race the share of championships won and the mean points."""
    count = int(batch.champion.shape[0])
    first_slot = batch.slot[:, 0, :]  # (T, P): each sled's start slot in race 1
    champion_slot = first_slot[np.arange(count), batch.champion]
    slots = []
    for s in range(players):
        points = batch.points[first_slot == s]
        slots.append(
            {
                "slot": s + 1,
                "champion_share": float((champion_slot == s).mean()),
                "mean_points": float(points.mean()),
            }
        )
    return {
        "tracks": tracks,
        "tournaments": count,
        "players": players,
        "seed": seed,
        "mean_rounds": [float(r) for r in batch.rounds.mean(axis=0)],
        "mean_winning_points": float(batch.points.max(axis=1).mean()),
        "first_race_slots": slots,
    }


def tournament_text(data: dict[str, Any]) -> str:
    """:func:`tournament_summary` as a table."""
    lines = [
        f"{data['tournaments']:,} tournaments of 3 races, {data['players']} sleds, seed "
        f"{data['seed']}: " + ", then ".join(shown(t) for t in data["tracks"]),
        "Mean rounds per race: " + ", ".join(f"{r:.2f}" for r in data["mean_rounds"]),
        f"The champion scores {data['mean_winning_points']:.1f} points on average "
        "(10-7-5-4-3-2-1-0 per race)",
        f"{'start slot in race 1':<22} {'champion':>9} {'mean points':>12}",
    ]
    for row in data["first_race_slots"]:
        lines.append(
            f"  {row['slot']:<20} {100 * row['champion_share']:>8.1f}% {row['mean_points']:>12.2f}"
        )
    warnings = data.get("warnings", ())
    if warnings:
        lines.append("Guidelines (warnings, the tournament was played):")
        lines += [
            f"  race {w['race']} ({shown(w['track'])}): [{w['code']}] {w['message']}"
            for w in warnings
        ]
    return "\n".join(lines)
