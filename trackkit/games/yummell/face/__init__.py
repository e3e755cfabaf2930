"""Yummell's face: its race options, texts, track files and commands of its own, as the
shared command line and app read them (:class:`trackkit.games.face.Face`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from trackkit.games.base import tileset_of
from trackkit.games.face import BUDGET, Argument, Look, Sheet, Shown, Step
from trackkit.games.readings import reading_options
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.content import load_content
from trackkit.games.yummell.core.options import START_PATHS, RaceOptions
from trackkit.games.yummell.face.commands import COMMANDS
from trackkit.games.yummell.face.readings import DECK, READINGS


def _start_paths(text: str) -> str:
    """``--start-paths`` as typed: free, chosen, dealt or a path's letter (any case)."""
    if text in START_PATHS or (len(text) == 1 and "A" <= text.upper() <= "Z"):
        return text if text in START_PATHS else text.upper()
    raise ValueError(
        f"start paths are free, chosen, dealt or a path's letter (A, B, C), not {text!r}"
    )


OPTIONS = (
    Argument(
        "characters",
        "comma-separated names or numbers, one per player",
        kind="names",
        among="character_names",
        app_help="The characters in the race, one per player; none: dealt at random",
    ),
    Argument(
        "advantages",
        "comma-separated names or numbers, one per player",
        kind="names",
        among="advantage_names",
        app_help="The advantages in the race, one per player; none: dealt at random",
    ),
    DECK,  # a reading (face/readings.py), kept here in its place among the options
    Argument(
        "encounters",
        "skip encounters",
        "switch",
        default=True,
        app_help="The encounters of the rulebook's base game; off: none",
    ),
    Argument(
        "start_paths",
        "free (the rulebook: each racer takes the path most advantageous at its first "
        "move), chosen (by each racer's policy), dealt (every path as often: a what-if) or "
        "a path's letter (every racer on it); default chosen, for profiles free",
        parse=_start_paths,
        offered=("free", "chosen", "dealt"),
        words=(
            ("free", "free choice at the first move (the rulebook)"),
            ("chosen", "chosen by each racer's policy"),
            ("dealt", "dealt in turn (every path as often: a what-if)"),
        ),
        app_help="Free: the rulebook's free choice; at its first move each racer takes the "
        "path that leaves it the fewest MP to the finish after that move, crowding included "
        "(the analysis's choice). Chosen: each racer's policy picks (greedy: the cheapest "
        "path, whoever is on it). Dealt, a what-if: the paths are dealt in turn from a "
        "random first path, so each path starts as many racers.",
    ),
    BUDGET,
)


RECONSTRUCTED = (
    "**Reconstructed data.** The rulebook and its six preset tracks fix how many tiles there "
    "are, which is the start and which the finish, and which path tiles are straights or "
    "curves. The physical tiles and cards are not published, so **the square layout and "
    "terrain of every tile, and the numbers on the cards, are reconstructions**, and the "
    "characters' statistics are reconstructions calibrated by `trackkit tune` so that each "
    "wins near its fair share (the Tune page): race lengths and win rates compare tracks "
    "with each other, they do not predict the boxed game exactly. If you own the box, "
    "correct the tile files (see the Tiles page) without touching any code."
)
LOOK = Look(
    players_help="How many race. One count for the Design, Race, Compare and Explore pages: "
    "set here, it holds on the others. The building rule for it decides which tracks are "
    "legal.",
    summary="Yummell is a fantasy racing board game for 2 to 8 players whose track is laid "
    "from ten square tiles. trackkit lets you lay a track tile by tile with the rulebook's "
    "rules checked as you go, race it thousands of times with the full base rules, and "
    "compare it with the six tracks printed in the rulebook.",
    caveat=RECONSTRUCTED,
    steps=(
        Step(
            "design",
            "1. Design a track",
            "Start from an empty table, a preset or a track file; place tiles by clicking "
            "the table. Every change can be undone, and the address bar keeps a link to "
            "your design.",
            "Design a track",
        ),
        Step(
            "race",
            "2. Race it",
            "Choose players, characters and advantages and simulate many races: the verdict "
            "in words (how long, and how fair against an average track), who wins, where "
            "characters pile up, and one race to replay.",
            "Race a track",
        ),
        Step(
            "compare",
            "3. Compare it",
            "Set your design beside the rulebook's presets: length and balance with their "
            "intervals, exact solo length and start-path spread, MP per square and terrain mix.",
            "Compare tracks",
        ),
    ),
    policy_help="greedy: the reference player, fixed so results compare: the cheapest start "
    "path, its highest card as far as it goes, no rests, no events; smart: plays as a good "
    "player would; planner: plays each option of its turn out to the race's end, Budget times "
    "(hundreds of times slower)",
)


class YummellFace:
    """What Yummell shows (see :class:`trackkit.games.face.Face`)."""

    readings = READINGS
    options = OPTIONS + tuple(o for o in reading_options(READINGS) if o not in OPTIONS)
    commands = COMMANDS
    look = LOOK

    def race_options(
        self,
        players: int,
        policies: tuple[str, ...],
        content: str | Path | None,
        chosen: Mapping[str, Any],
    ) -> RaceOptions:
        one = len(policies) == 1
        return RaceOptions(
            players=players,
            characters=tuple(chosen.get("characters", ())),
            advantages=tuple(chosen.get("advantages", ())),
            deck=chosen.get("deck", "finite"),
            encounters=chosen.get("encounters", True),
            start_paths=chosen.get("start_paths", "chosen"),
            **{r.name: chosen.get(r.name, r.default) for r in READINGS if r.option is not DECK},
            policy=policies[0] if one else "greedy",
            policies=() if one else policies,
            content=load_content(content),
            **({"budget": chosen["budget"]} if chosen.get("budget") is not None else {}),
        )

    def presets_table(self) -> Shown:
        from trackkit.games.yummell.face.texts import presets_summary, presets_text

        rows = presets_summary()
        return Shown(rows, presets_text(rows))

    def show(self, track: Track) -> Shown:
        from trackkit.games.yummell.face.texts import show_summary, show_text

        tileset = tileset_of(track)
        data = show_summary(track, tileset)
        return Shown(data, show_text(data, tileset_name=tileset.name))

    def race(self, track: Track, options: RaceOptions, seed: int) -> Shown:
        from trackkit.games.yummell.core.record import record_race
        from trackkit.games.yummell.face.races import race_text

        record = record_race(track, options, seed=seed)
        return Shown(record.to_json(), race_text(record))

    def compare(
        self,
        tracks: Mapping[str, Track],
        options: RaceOptions,
        *,
        races: int,
        seed: int,
        progress: Callable[[int, int], None] | None = None,
    ) -> Shown:
        from trackkit.games.yummell.face.compare import (
            compare_summary,
            compare_text,
            compare_tracks,
        )

        # every track profiled with the same seed: common random numbers
        rows = compare_tracks(tracks, options, races=races, seed=seed, progress=progress)
        text = compare_text(rows, players=options.players, races=races, seed=seed)
        return Shown(compare_summary(rows), text)

    def track_text(self, track: Track, folder: Path) -> str:
        return track.to_toml(relative_to=folder)

    def sheet(self, track: Track) -> Sheet:
        from trackkit.games.yummell.face.sheet import track_sheet

        return track_sheet(track)


FACE = YummellFace()
