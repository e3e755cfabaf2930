"""Snow Tails' face: its race options, texts, track files and the tournament command, as
the shared command line and app read them (:class:`trackkit.games.face.Face`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from trackkit.errors import TrackkitError, shown
from trackkit.games.base import get_ruleset
from trackkit.games.face import BUDGET, Argument, Command, Look, Sheet, Shown
from trackkit.games.readings import reading_options
from trackkit.games.snowtails.core.options import RaceOptions
from trackkit.games.snowtails.core.track import SnowTrack
from trackkit.games.snowtails.face.readings import (
    FIRST_ROUND_BONUS,
    READINGS,
    REPAIR_DRAW,
    TIGHT_CORNERS_READING,
)


def starting_dogs(text: str) -> int | tuple[int, ...]:
    """``--starting-dogs`` as typed: one value (``2``) for every sled, or one per sled in
    start order (``2,3,1,4,2``), each 1 to 4 (rulebook A.5); ``ValueError`` says why not.

    >>> starting_dogs("3"), starting_dogs("2, 3,1")
    (3, (2, 3, 1))
    """
    values = []
    for part in text.split(","):
        word = part.strip()
        if not word.isdigit() or not 1 <= int(word) <= 4:
            raise ValueError(
                f"the starting dogs are valued 1 to 4, one value or one per sled separated "
                f"by commas (rulebook A.5), not {text!r}"
            )
        values.append(int(word))
    return values[0] if len(values) == 1 else tuple(values)


STARTING_DOGS = Argument(
    "starting_dogs",
    "the value of both starting dogs, 1-4 (default: the deck's, 2): one for every sled "
    "(rulebook A.5's expert rule, every player choosing alike), or one per sled in start "
    "order, the sled that starts first first (2,3,1,4,2: a designer's what-if, not the "
    "rulebook's rule, where each player chooses before the start order is drawn, A.6)",
    "text",
    parse=starting_dogs,
    metavar="1-4[,…]",
    offered=(2, 1, 3, 4),
    label="Starting dogs",
    app_help="2 + 2 in the rulebook; its expert rule lets each player choose the value of "
    "their two starting dogs (A.5), before the start order is drawn (A.6). One value here is "
    "that rule with every player choosing alike; one value per start slot (2,3,1,4,2, the "
    "sled that starts first first) is a designer's what-if, not the rulebook's rule: a "
    "player cannot know their slot when choosing",
)
OPTIONS = (STARTING_DOGS, BUDGET)
LOOK = Look(
    address="snow-",
    name="Snow Tails",
    racers="Sleds",
    summary="Dog-sled races on a lane track of straights and corners: choose a demo board, "
    "place trees, markers and the four buildings by clicking its spaces with every rule "
    "checked, race it with the full rules for 2 to 8 sleds (how long, how fair the start "
    "slots, where sleds collide), and compare it with the other boards.",
    caveat="The boards are reconstructions: the printed ones are not published.",
    policy_help="greedy: the reference musher, fixed so results compare: the move that ends "
    "furthest ahead, each collision card or hit counted against it; smart: plays as a good "
    "musher would; bold: takes risks on purpose; planner: plays each option of its turn out to "
    "the race's end, Budget times (stronger, and tens of times slower)",
)


def tournament_warnings(tracks: Sequence[SnowTrack], options: RaceOptions) -> list[dict[str, Any]]:
    """The guidelines each track of a tournament goes against for its race (the Kennels'
    differ by race, rulebook F), as ``{"race", "track", **problem}``; a track with an error
    is refused with a :class:`TrackkitError` naming it and its first problem."""
    from trackkit.games.snowtails.core.check import validate_track

    found = []
    components = options.content.components
    for race, track in enumerate(tracks, start=1):
        validation = validate_track(track, components=components, race=race)
        if validation.errors:
            raise TrackkitError(f"{shown(track.name)}: {validation.errors[0]}")
        found += [
            {"race": race, "track": track.name, **problem.to_json()}
            for problem in validation.warnings
        ]
    return found


def _tournament(values: Mapping[str, Any]) -> Shown:
    from trackkit.games.snowtails.core.race import play_tournaments
    from trackkit.games.snowtails.face.texts import tournament_summary, tournament_text

    tracks = values["track"]  # each of Snow Tails (the command line read them for this game)
    options = values["options"]
    warnings = tournament_warnings(tracks, options)  # they do not stop the tournament
    batch = play_tournaments(tracks, options, values["tournaments"], seed=values["seed"])
    data = tournament_summary(
        batch, [t.name for t in tracks], players=options.players, seed=values["seed"]
    )
    data["warnings"] = warnings
    return Shown(data, tournament_text(data))


COMMANDS = (
    Command(
        "tournament",
        "Snow Tails: tournaments of three races (rulebook E)",
        (
            Argument("track", "the three tracks, in race order", positional=True, count=3),
            Argument(
                "tournaments",
                "tournaments played (default 2,000)",
                "int",
                default=2_000,
                low=1,
                high=200_000,
                rule="tournaments run from {low} to {high}",
            ),
        ),
        _tournament,
        races=True,
    ),
)


class SnowTailsFace:
    """What Snow Tails shows (see :class:`trackkit.games.face.Face`)."""

    options = OPTIONS + reading_options(READINGS)
    readings = READINGS
    commands = COMMANDS
    look = LOOK

    def race_options(
        self,
        players: int,
        policies: tuple[str, ...],
        content: str | Path | None,
        chosen: Mapping[str, Any],
    ) -> RaceOptions:
        loaded = get_ruleset("snowtails").load_content(content)
        return RaceOptions(
            players=players,
            policy=policies[0] if len(policies) == 1 else policies,
            starting_value=chosen.get("starting_dogs"),
            tight_corners=chosen.get("tight_corners", TIGHT_CORNERS_READING.default),
            bonus_first_round=chosen.get("first_round_bonus", FIRST_ROUND_BONUS.default),
            tie_break=chosen.get("tie_break"),  # none chosen: the track file's own
            repair_draw=chosen.get("repair_draw", REPAIR_DRAW.default),
            deck=loaded.deck,
            components=loaded.components,
            **({"budget": chosen["budget"]} if chosen.get("budget") is not None else {}),
        )

    def presets_table(self) -> Shown:
        from trackkit.games.snowtails.face.texts import presets_summary, presets_text

        rows = presets_summary()
        return Shown(rows, presets_text(rows))

    def show(self, track: SnowTrack) -> Shown:
        from trackkit.games.snowtails.face.texts import show_summary, show_text

        data = show_summary(track)
        return Shown(data, show_text(data))

    def race(self, track: SnowTrack, options: RaceOptions, seed: int) -> Shown:
        from trackkit.games.snowtails.core.race import record_race
        from trackkit.games.snowtails.face.texts import race_text

        sleds = record_race(track, options, seed=seed)
        data = {"track": track.name, "seed": seed, **sleds.to_json()}
        return Shown(data, race_text(sleds, track=track.name, seed=seed))

    def compare(
        self,
        tracks: Mapping[str, SnowTrack],
        options: RaceOptions,
        *,
        races: int,
        seed: int,
        progress: Callable[[int, int], None] | None = None,
    ) -> Shown:
        from trackkit.games.snowtails.face.texts import (
            compare_summary,
            compare_text,
            compare_tracks,
        )

        rows = compare_tracks(dict(tracks), options, races=races, seed=seed, progress=progress)
        text = compare_text(rows, players=options.players, races=races, seed=seed)
        return Shown(compare_summary(rows), text)

    def track_text(self, track: SnowTrack, folder: Path) -> str:
        return track.to_toml()

    def sheet(self, track: SnowTrack) -> Sheet:
        from trackkit.games.snowtails.face.sheet import track_sheet

        return track_sheet(track)


FACE = SnowTailsFace()
