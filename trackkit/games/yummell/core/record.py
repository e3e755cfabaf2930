"""One race recorded turn by turn, for replay and debugging.

The recorded race is race 0 of ``simulate(track, options, seed=seed)``: the same random
stream, with the engine writing a row for everything that happens.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from trackkit.games.base import race_ready
from trackkit.games.tilekit.graph import start_path_label
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.course import RaceBoard
from trackkit.games.yummell.core.options import RaceOptions
from trackkit.games.yummell.core.ruleset import play_batch
from trackkit.games.yummell.core.state import (
    LOG_ACTIVATE,
    LOG_ARTEFACT,
    LOG_BOUNCE,
    LOG_CHALLENGE,
    LOG_EVENT,
    LOG_FINISH,
    LOG_MOVE,
    LOG_PLAY_EVENT,
    LOG_REST,
    LOG_ROUTE,
    LOG_STEAL,
    LOG_USE_ARTEFACT,
    LOG_USE_ON_RIVAL,
)

LOG_ROWS = 20_000
ACTIONS = {
    LOG_MOVE: "move",
    LOG_REST: "rest",
    LOG_BOUNCE: "fall-back",
    LOG_CHALLENGE: "challenge",
    LOG_ARTEFACT: "artefact",
    LOG_EVENT: "event",
    LOG_PLAY_EVENT: "play-event",
    LOG_ACTIVATE: "activate",
    LOG_STEAL: "steal",
    LOG_FINISH: "finish",
    LOG_USE_ARTEFACT: "use-artefact",
    LOG_ROUTE: "start-path",
    LOG_USE_ON_RIVAL: "use-on-rival",
}


@dataclass(frozen=True)
class Step:
    """One thing that happened, in order."""

    round: int
    player: int
    character: str
    action: str
    text: str
    card: str | None
    square_from: str | None
    square_to: str | None
    target: int | None = None  # the other player concerned (an event's target, a theft's victim)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class RaceRecord:
    track: str
    seed: int
    rounds: int
    characters: tuple[str, ...]
    advantages: tuple[str, ...]
    placings: tuple[int, ...]
    steps: tuple[Step, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "track": self.track,
            "seed": self.seed,
            "rounds": self.rounds,
            "characters": list(self.characters),
            "advantages": list(self.advantages),
            "placings": list(self.placings),
            "steps": [s.to_json() for s in self.steps],
        }


def record_race(track: Track, options: RaceOptions | None = None, *, seed: int = 0) -> RaceRecord:
    """Play race 0 of ``simulate(track, options, seed=seed)`` and record every step."""
    options = options or RaceOptions()
    board = race_ready(track, options)  # the check every game's races pass
    result = play_batch(board, options, seed, 0, 1, log_rows=LOG_ROWS)
    content = options.content
    character, route = result.groups["character"], result.groups["route"]
    names = [content.character_names[c] for c in character[0]]
    steps = tuple(
        _describe(row, board, options, names, route[0]) for row in result.log[: result.log_n[0]]
    )
    return RaceRecord(
        track=track.name,
        seed=seed,
        rounds=int(result.rounds[0]),
        characters=tuple(names),
        advantages=tuple(content.advantage_names[a] for a in result.groups["advantage"][0]),
        placings=tuple(int(p) for p in result.placing[0]),
        steps=steps,
    )


def _square(board: RaceBoard, route: int, index: int) -> str:
    if index < 0 or route < 0:
        return "start"
    return board.routes[route][index]


def _describe(
    row: np.ndarray, board: RaceBoard, options: RaceOptions, names: list[str], routes: np.ndarray
) -> Step:
    rnd, player, action, card, value, start, end, other = (int(v) for v in row[:8])
    who = names[player]
    route = int(routes[player])
    deck = options.content.deck
    card_name = f"{deck[card].name} ({deck[card].number})" if card >= 0 else None
    if action in (LOG_PLAY_EVENT, LOG_USE_ON_RIVAL) and 0 <= other < len(names):
        route = int(routes[other])  # the squares are the target's
    a, b = _square(board, route, start), _square(board, route, end)
    kind = ACTIONS[action]
    if action == LOG_MOVE:
        text = f"{who} plays {card_name} for {value} MP: {a} → {b}"
    elif action == LOG_ROUTE:
        text = f"{who} takes start path {start_path_label(value)}"
    elif action == LOG_REST:
        text = f"{who} rests on {a}" + (f", lifting curses worth {value} MP" if value else "")
    elif action == LOG_BOUNCE:
        text = f"{who} cannot stay on the full square {a} and falls back to {b}"
    elif action == LOG_CHALLENGE:
        creature = deck[card]
        played = f"plays {deck[other].name} ({deck[other].number})" if other >= 0 else "has no card"
        stat = (creature.characteristic or "").capitalize()
        outcome = "wins" if value else "loses"
        label = creature.name
        if f"{stat} {creature.challenge}" not in label:
            label += f" ({stat} {creature.challenge})"
        text = f"{who} meets {label}, {played} and {outcome}: {a} → {b}"
    elif action == LOG_ARTEFACT:
        text = f"{who} finds {card_name}; it is active"
    elif action == LOG_EVENT:
        text = f"{who} draws the event {card_name}: {a} → {b}"
    elif action == LOG_PLAY_EVENT:
        target = names[other] if 0 <= other < len(names) else "nobody"
        text = f"{who} plays the event {card_name} on {target}" + (
            f", sending it back from {a} to {b}" if end < start else ""
        )
    elif action == LOG_USE_ON_RIVAL:
        target = names[other] if 0 <= other < len(names) else "nobody"
        text = f"{who} uses the artefact {card_name} on {target}" + (
            f", sending it back from {a} to {b}" if end < start else ""
        )
    elif action == LOG_ACTIVATE:
        text = f"{who} starts activating {card_name}"
    elif action == LOG_STEAL:
        text = f"{who} takes {card_name} from {names[other]}"
    elif action == LOG_USE_ARTEFACT:
        text = (
            f"{who} uses a ward against {card_name}"
            if value == 0
            else (f"{who} uses an artefact: {value} more")
        )
    else:  # finish
        text = f"{who} reaches the finish, arriving {value}."
        a, b = _square(board, route, end), _square(board, route, end)
    targeted = action in (LOG_PLAY_EVENT, LOG_STEAL, LOG_USE_ON_RIVAL)
    target = other if targeted and other >= 0 else None
    return Step(rnd, player, who, kind, text, card_name, a, b, target)
