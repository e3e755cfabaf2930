"""A recorded Snow Tails race as the board replays it."""

from __future__ import annotations

from trackkit.games.base import get_ruleset
from trackkit.games.snowtails.core.options import RaceOptions
from trackkit.games.snowtails.core.presets import load_preset
from trackkit.games.snowtails.core.race import record_race
from trackkit.games.snowtails.face.replay import positions_by_round
from trackkit.render.overlays import race_animation


def test_each_round_places_every_sled_where_its_last_turn_ended() -> None:
    track = load_preset("chicane")
    record = record_race(track, RaceOptions(players=3), seed=5)
    rounds = positions_by_round(record)
    assert len(rounds) == record.rounds + 1 and rounds[0] == (None, None, None)
    for number in range(1, record.rounds + 1):
        for sled in range(3):
            turns = [t for t in record.turns if t.player == sled and t.round <= number]
            assert rounds[number][sled] == turns[-1].end


def test_the_replay_draws_the_sleds_on_the_board_round_by_round() -> None:
    track = load_preset("chicane")
    record = record_race(track, RaceOptions(players=3), seed=5)
    scene = get_ruleset("snowtails").scene(track)
    rounds = positions_by_round(record)
    sleds = ["sled 1", "sled 2", "sled 3"]
    figure = race_animation(scene, rounds, sleds, record.rounds, track.describe)
    assert len(figure.frames) == record.rounds
    pawns = figure.data[-3:]
    assert all(p.x[0] is not None for p in pawns)  # every sled on the board at the end
    assert track.describe(rounds[-1][0]) in pawns[0].hovertext[0]
