"""The toy game's face: one option of its own (the die), its texts and track files."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tests.games.toy.core.ruleset import PRESETS, RULESET, ToyOptions, ToyTrack
from trackkit.games.face import Argument, Command, Shown
from trackkit.sim.montecarlo import simulate

OPTIONS = (
    Argument("die_sides", "sides of the die (default: the content's, 6)", "int", low=2, high=20),
)


def _odds(values: Mapping[str, Any]) -> Shown:
    """The toy's own command: how likely one roll crosses the lane's first mud."""
    track = values["track"]
    first = min(track.mud, default=track.length)
    share = sum(1 for pips in range(1, values["sides"] + 1) if pips >= first) / values["sides"]
    return Shown({"track": track.name, "first_roll_past_mud": share}, f"{share:.0%}")


class ToyFace:
    sheet = None  # a toy track has no build sheet
    options = OPTIONS
    commands = (
        Command(
            "toy-odds",
            "the chance one roll passes the first mud",
            (
                Argument("track", "a toy track", positional=True),
                Argument("sides", "sides of the die", "int", default=6, low=2, high=20),
            ),
            _odds,
        ),
    )

    def race_options(
        self,
        players: int,
        policies: tuple[str, ...],
        content: str | Path | None,
        chosen: Mapping[str, Any],
    ) -> ToyOptions:
        return ToyOptions(
            players=players,
            policy=policies[0] if len(policies) == 1 else policies,
            sides=chosen.get("die_sides"),
            content=RULESET.load_content(content),
        )

    def presets_table(self) -> Shown:
        rows = [{"slug": slug, "name": data["name"]} for slug, data in PRESETS.items()]
        return Shown(rows, "\n".join(f"{r['slug']}: {r['name']}" for r in rows))

    def show(self, track: ToyTrack) -> Shown:
        data = {"game": "toy", "name": track.name, "length": track.length, "mud": list(track.mud)}
        return Shown(data, f"{track.name}: {track.length} spaces, mud at {list(track.mud)}")

    def race(self, track: ToyTrack, options: ToyOptions, seed: int) -> Shown:
        rounds = int(simulate(track, options, races=1, seed=seed).rounds[0])
        return Shown({"track": track.name, "seed": seed, "rounds": rounds}, f"{rounds} rounds")

    def compare(
        self,
        tracks: Mapping[str, ToyTrack],
        options: ToyOptions,
        *,
        races: int,
        seed: int,
        progress: Callable[[int, int], None] | None = None,
    ) -> Shown:
        rows = [
            {
                "key": key,
                "name": t.name,
                "mean_rounds": simulate(t, options, races=races, seed=seed).mean_rounds,
            }
            for key, t in tracks.items()
        ]
        return Shown(rows, "\n".join(f"{r['name']}: {r['mean_rounds']:.2f}" for r in rows))

    def track_text(self, track: ToyTrack, folder: Path) -> str:
        return track.to_toml()


FACE = ToyFace()
