"""Replaying a recorded race: positions after each round, square names a player reads."""

from __future__ import annotations

from trackkit.games.yummell.core.options import RaceOptions
from trackkit.games.yummell.core.presets import load_preset
from trackkit.games.yummell.core.record import record_race
from trackkit.games.yummell.face.replay import OFF_BOARD, positions_by_round, readable, square_name


def test_positions_follow_every_move_of_the_record() -> None:
    record = record_race(load_preset("first-run"), RaceOptions(players=3), seed=1)
    positions = positions_by_round(record)
    assert len(positions) == record.rounds + 1
    assert positions[0] == (OFF_BOARD,) * 3
    for number in range(1, record.rounds + 1):
        for player in range(3):
            moves = [
                s.square_to
                for s in record.steps
                if s.round <= number and s.player == player and s.square_to != s.square_from
            ]
            assert positions[number][player] == (moves[-1] if moves else OFF_BOARD)
    # the winner ends on the finish square
    finish = load_preset("first-run").placements[-1].tile
    winner = record.placings.index(1)
    assert positions[-1][winner].startswith(f"{finish}:")


def test_a_theft_moves_no_one() -> None:
    # the record gives a theft no square: it must not send the thief back to the start
    record = record_race(load_preset("first-run"), RaceOptions(players=3), seed=10)
    thefts = [s for s in record.steps if s.action == "steal"]
    assert thefts, "seed 10 should hold a theft (Fulmergh's cleptomania): pick another seed"
    positions = positions_by_round(record)
    for step in thefts:
        assert positions[step.round][step.player] != OFF_BOARD


def test_square_ids_are_spelt_out() -> None:
    assert square_name("10:3") == "tile 10 square 3"
    assert square_name(OFF_BOARD) == "the start"
    assert readable("Flamm plays Wind (7) for 7 MP: start → 1:m1") == (
        "Flamm plays Wind (7) for 7 MP: the start → tile 1 square m1"
    )
    assert readable("The Troll takes start path A") == "The Troll takes start path A"
