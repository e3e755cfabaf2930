"""One race recorded turn by turn: it is race 0 of the simulation, told in order."""

from __future__ import annotations

import json

import pytest

from trackkit.games.tilekit.graph import start_path_label
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.options import RaceOptions
from trackkit.games.yummell.core.presets import load_preset
from trackkit.games.yummell.core.record import RaceRecord, Step, record_race
from trackkit.sim.montecarlo import simulate

RACES = [
    ("horrgrups-path", RaceOptions(players=4, policy="smart", deck="infinite"), 3),
    ("swamps-of-the-king", RaceOptions(players=6), 8),
    ("first-run", RaceOptions(players=1, policy="smart"), 2),
]


@pytest.fixture(scope="module", params=RACES, ids=[slug for slug, _, _ in RACES])
def race(request: pytest.FixtureRequest) -> tuple[RaceRecord, RaceOptions, Track]:
    slug, options, seed = request.param
    track = load_preset(slug)
    return record_race(track, options, seed=seed), options, track


def test_the_record_is_race_zero_of_the_simulation(
    race: tuple[RaceRecord, RaceOptions, Track],
) -> None:
    record, options, track = race
    result = simulate(track, options, races=2, seed=record.seed)
    assert record.track == track.name
    assert record.rounds == result.rounds[0]
    assert record.placings == tuple(int(p) for p in result.placing[0])
    names = options.content.character_names
    assert record.characters == tuple(names[c] for c in result.column("character")[0])
    edges = options.content.advantage_names
    assert record.advantages == tuple(edges[a] for a in result.column("advantage")[0])
    for p, route in enumerate(result.column("route")[0]):
        taken = [s.text for s in record.steps if s.player == p and s.action == "start-path"]
        assert taken == [f"{record.characters[p]} takes start path {start_path_label(route)}"]


def test_steps_run_through_the_rounds_in_order(race: tuple[RaceRecord, RaceOptions, Track]) -> None:
    record, _, _ = race
    rounds = [step.round for step in record.steps]
    assert rounds[0] == 1 and rounds[-1] == record.rounds
    assert rounds == sorted(rounds)
    finishes = [step.round for step in record.steps if step.action == "finish"]
    assert finishes[0] == record.rounds  # the race ends with the round of the first arrival


def test_a_start_path_is_taken_before_the_first_move(
    race: tuple[RaceRecord, RaceOptions, Track],
) -> None:
    record, options, _ = race
    for p in range(options.players):
        actions = [step.action for step in record.steps if step.player == p]
        first = actions.index("start-path")
        assert "move" not in actions[:first]
        assert actions[first + 1] in ("move", "fall-back")  # a fall-back is told first
        if options.policy == "greedy":  # nothing to do before its first move
            assert first == 0


def test_the_record_round_trips_through_json(race: tuple[RaceRecord, RaceOptions, Track]) -> None:
    record, _, _ = race
    data = json.loads(json.dumps(record.to_json()))
    assert data == record.to_json()
    again = RaceRecord(
        track=data["track"],
        seed=data["seed"],
        rounds=data["rounds"],
        characters=tuple(data["characters"]),
        advantages=tuple(data["advantages"]),
        placings=tuple(data["placings"]),
        steps=tuple(Step(**step) for step in data["steps"]),
    )
    assert again == record


def test_placings_rank_every_player_and_the_finishers_by_arrival(
    race: tuple[RaceRecord, RaceOptions, Track],
) -> None:
    record, options, _ = race
    assert len(record.placings) == options.players
    assert all(type(p) is int for p in record.placings)
    arrivals = [step.player for step in record.steps if step.action == "finish"]
    assert [record.placings[p] for p in arrivals] == list(range(1, len(arrivals) + 1))
    assert all(
        record.placings[p] > len(arrivals) for p in range(options.players) if p not in arrivals
    )
