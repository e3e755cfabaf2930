"""Yummell's readings of its open rules (face/readings.py, SPEC.md §4): each one played on a
constructed position where the readings differ, in a batch whose figures it changes at
one seed, from the command line, and where it can change a solo race, by the exact solver.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import advantage, character, race_state, stand, straight_board

from trackkit.explore.profile import exact_figures
from trackkit.games import get_ruleset
from trackkit.games.face import get_face
from trackkit.games.readings import readings_of
from trackkit.games.yummell.core.content import ADV_EFFECT, ARTEFACT, CREATURE, Effect, load_content
from trackkit.games.yummell.core.course import race_board
from trackkit.games.yummell.core.exact import SoloRules, exact_paths, exact_solo
from trackkit.games.yummell.core.movement import furthest
from trackkit.games.yummell.core.options import RULE_READINGS, RaceOptions
from trackkit.games.yummell.core.policies import GREEDY
from trackkit.games.yummell.core.presets import load_preset
from trackkit.games.yummell.core.state import (
    RULE_CHALLENGE_FINISH,
    RULE_CROWDING,
    RULE_DRAW_TWO,
    RULE_ENCOUNTER,
    RULE_FLUTTER_END,
    RULE_TOLL,
    RULES,
    Tables,
    start_race,
)
from trackkit.games.yummell.core.turn import encounter, prepare, take_turn
from trackkit.games.yummell.face.readings import DRAW_TWO, READINGS
from trackkit.sim.montecarlo import simulate

ROOT = Path(__file__).resolve().parents[3]


def _card(number: int, kind: int, challenge: int = 99) -> list[int]:
    """A row of the cards table: number, type, Strength, challenge, no effect."""
    return [number, kind, 0, challenge, int(Effect.NONE), -1, 0, 0]


# cards 0..7: numbers 1..8, creatures no one beats (played for their numbers); 8: an
# artefact (an encounter that leaves a mark); 9: a Strength-6 creature
CARDS = np.array(
    [_card(n, CREATURE) for n in range(1, 9)] + [_card(1, ARTEFACT), _card(2, CREATURE, 6)],
    dtype=np.int64,
)
FOUND, OGRE = 8, 9
NEUTRAL_CHARACTER = character(ability=Effect.CHALLENGE_BONUS, param=0)  # Strength 5
NEUTRAL_ADVANTAGE = advantage(Effect.CHALLENGE_BONUS, param=0)


def number(n: int) -> int:
    return n - 1


def rules(**chosen: str) -> np.ndarray:
    """The engine's ``Tables.rules`` for readings chosen by name (the rest: defaults)."""
    return RaceOptions(players=1, **chosen).rule_codes()


def _state(squares: str, n: int):  # type: ignore[no-untyped-def]
    board = straight_board(squares)
    players, deck, tally = race_state(board, n)
    players.policy[:] = GREEDY
    characters = np.array([NEUTRAL_CHARACTER] * n)
    advantages = np.array([NEUTRAL_ADVANTAGE] * n)
    return board, players, deck, tally, characters, advantages


def _pile(deck, *cards: int) -> None:  # type: ignore[no-untyped-def]
    """A finite draw pile whose next draws are ``cards``, in this order."""
    deck.counts[2] = 0
    deck.pile[: len(cards)] = cards[::-1]
    deck.counts[0], deck.counts[1] = len(cards), 0


# --- the declarations ----------------------------------------------------------------


def test_every_reading_is_an_option_of_the_face_once_with_its_default_first() -> None:
    face = get_face("yummell")
    names = [option.name for option in face.options]
    assert readings_of("yummell") == READINGS
    for reading in READINGS:
        assert names.count(reading.name) == 1
        option = reading.option
        assert option.kind == "choice" and option.label and option.app_help
        assert tuple(option.choices) == tuple(option.offered) == reading.values
        assert getattr(RaceOptions(), reading.name) == reading.default
        assert reading.passage and reading.why and reading.question and reading.effect
        assert reading.status in ("R", "D", "U")


def test_the_engine_codes_follow_the_rule_columns() -> None:
    columns = (
        RULE_CROWDING,
        RULE_ENCOUNTER,
        RULE_CHALLENGE_FINISH,
        RULE_TOLL,
        RULE_DRAW_TWO,
        RULE_FLUTTER_END,
    )
    assert list(RULE_READINGS) == [
        "crowding",
        "encounter_when",
        "challenge_finish",
        "troll_toll",
        "draw_two",
        "flutter_end",
    ]
    assert columns == tuple(range(RULES))
    assert rules().tolist() == [0] * RULES
    assert rules(crowding="end", challenge_finish="stays").tolist() == [1, 0, 1, 0, 0, 0]
    assert rules(troll_toll="entering", draw_two="instead").tolist() == [0, 0, 0, 1, 1, 0]
    assert rules(flutter_end="pays").tolist() == [0, 0, 0, 0, 0, 1]


def test_the_crowding_at_the_end_and_the_infinite_deck_are_what_ifs() -> None:
    # issue 32 C1: the rulebook's example charges the square passed through, and the
    # infinite deck is the exact solver's model: neither is a reading of the text
    asked = {reading.name for reading in READINGS if reading.what_if}
    assert asked == {"crowding", "deck"}
    assert all("what-if" in r.option.app_help for r in READINGS if r.what_if)


def test_the_draw_two_reading_quotes_the_card_not_the_spec() -> None:
    assert "draws 2 cards…, choose one and discard the other immediately" in DRAW_TWO.passage
    assert "SPEC.md" not in DRAW_TWO.passage


def test_a_reading_the_game_does_not_have_is_refused() -> None:
    with pytest.raises(Exception, match="crowding is one of every, end"):
        RaceOptions(players=2, crowding="nowhere")


# --- crowding: squares passed through, or only where the move ends ----------------------


def test_crowding_on_squares_passed_through_is_paid_only_under_every() -> None:
    # p. 6: D to F through E, a hill holding one character, costs 2 + 1 + 2
    board, players, _, tally, characters, advantages = _state("PHHPPP", 2)
    stand(board, players, tally, 0, 0)  # D
    stand(board, players, tally, 1, 1)  # E

    def reach(mp: int, **chosen: str) -> int:
        tables = Tables(CARDS, characters, advantages, rules(**chosen))
        return furthest(board, players, tally, tables, 0, 0, 0, mp)

    assert reach(4) == 1 and reach(5) == 2  # the rulebook's example
    assert reach(4, crowding="end") == 2  # E passed through costs its hill alone
    # ending on E still pays for the character there
    assert reach(2, crowding="end") == 0 and reach(3, crowding="end") == 1


def test_crowding_at_the_end_stops_short_of_a_square_it_cannot_pay_for() -> None:
    board, players, _, tally, characters, advantages = _state("PPPPPP", 3)
    stand(board, players, tally, 0, 0)
    stand(board, players, tally, 1, 2)
    stand(board, players, tally, 2, 2)

    def reach(mp: int, **chosen: str) -> int:
        tables = Tables(CARDS, characters, advantages, rules(**chosen))
        return furthest(board, players, tally, tables, 0, 0, 0, mp)

    # 2 MP enter square 2 but cannot pay for its two characters: it stops on square 1
    assert reach(2, crowding="end") == 1
    # 3 MP carry it past them (1 + 1 + 1), where passing them costs 1 + 3 under every
    assert reach(3, crowding="end") == 3 and reach(3) == 1
    assert reach(4) == 2 and reach(5) == 3


# --- flutter_end: does Flamm pay for the company where its move ends? -------------------


def test_fluttering_pays_for_company_only_where_the_move_ends_under_pays() -> None:
    # Flamm (fluttering) from off the board along plains; one character on square 1, two
    # on square 2
    board, players, _, tally, _, advantages = _state("PPPPPP", 4)
    characters = np.array([character(ability=Effect.FLUTTERING)] + [NEUTRAL_CHARACTER] * 3)
    stand(board, players, tally, 1, 1)
    stand(board, players, tally, 2, 2)
    stand(board, players, tally, 3, 2)

    def reach(mp: int, **chosen: str) -> int:
        tables = Tables(CARDS, characters, advantages, rules(**chosen))
        return furthest(board, players, tally, tables, 0, 0, -1, mp)

    # free: company costs it nothing anywhere, 1 MP a plain square
    assert [reach(mp) for mp in (1, 2, 3, 4)] == [0, 1, 2, 3]
    # pays: ending on square 1 costs its character's +1 (3 MP in all), ending on square 2
    # its two's +2; squares it moves through stay free: 4 MP carry it past both to square 3
    assert [reach(mp, flutter_end="pays") for mp in (1, 2, 3, 4)] == [0, 0, 1, 3]
    assert reach(4, flutter_end="pays", crowding="end") == 3
    # a character that does not flutter is not concerned
    tables = Tables(CARDS, np.array([NEUTRAL_CHARACTER] * 4), advantages, rules(flutter_end="pays"))
    assert furthest(board, players, tally, tables, 0, 0, -1, 4) == 1


# --- encounter_when: what "advanced at least one square" asks --------------------------


@pytest.mark.parametrize(("reading", "encountered"), [("ended-ahead", 0), ("entered", 1)])
def test_a_move_that_falls_back_to_where_it_began_has_an_encounter_only_if_entered(
    reading: str, encountered: int
) -> None:
    # squares 1 and 2 hold two each: a 6 carries the mover onto square 2 (3 + 3 MP), where
    # it cannot stay, nor on square 1: it falls back to square 0, where it began
    board, players, deck, tally, characters, advantages = _state("PPPPPPP", 5)
    stand(board, players, tally, 0, 0)
    for q, index in ((1, 1), (2, 1), (3, 2), (4, 2)):
        stand(board, players, tally, q, index)
    players.hand[0, :4] = [number(6), number(1), number(1), number(1)]
    players.hand_n[0] = 4
    players.active_n[:] = 0
    _pile(deck, number(1), FOUND, number(1), number(1))  # preparation, encounter, refill
    start_race(tally.dice, np.uint64(0))
    tables = Tables(CARDS, characters, advantages, rules(encounter_when=reading))
    take_turn(0, board, players, deck, tally, tables, True, 1)
    assert players.pos[0] == 0
    assert players.active_n[0] == encountered  # the artefact drawn as its encounter


# --- challenge_finish: a challenge won next to the finish --------------------------------


@pytest.mark.parametrize(("reading", "where"), [("finishes", 3), ("stays", 2)])
def test_a_challenge_won_next_to_the_finish(reading: str, where: int) -> None:
    board, players, deck, tally, characters, advantages = _state("PPPP", 1)
    stand(board, players, tally, 0, 2)  # the square before the finish (square 3)
    players.hand[0, 0], players.hand_n[0] = number(8), 1  # 5 + 8 > 6: won
    _pile(deck, OGRE)
    start_race(tally.dice, np.uint64(0))
    tables = Tables(CARDS, characters, advantages, rules(challenge_finish=reading))
    encounter(0, board, players, deck, tally, tables, 1)
    assert players.pos[0] == where
    assert players.arrival[0] == (1 if reading == "finishes" else 0)


def test_a_challenge_won_elsewhere_advances_under_either_reading() -> None:
    for reading in RULE_READINGS["challenge_finish"]:
        board, players, deck, tally, characters, advantages = _state("PPPPP", 1)
        stand(board, players, tally, 0, 1)
        players.hand[0, 0], players.hand_n[0] = number(8), 1
        _pile(deck, OGRE)
        start_race(tally.dice, np.uint64(0))
        tables = Tables(CARDS, characters, advantages, rules(challenge_finish=reading))
        encounter(0, board, players, deck, tally, tables, 1)
        assert players.pos[0] == 2


# --- troll_toll: when getting past the Troll costs its extra MP ---------------------------


def test_the_trolls_toll_is_paid_on_leaving_or_on_entering_its_square() -> None:
    board, players, _, tally, characters, advantages = _state("PPPPPP", 2)
    players.toll[1] = 1  # character 1 is a Troll
    stand(board, players, tally, 0, 0)
    stand(board, players, tally, 1, 1)

    def reach(mp: int, **chosen: str) -> int:
        tables = Tables(CARDS, characters, advantages, rules(**chosen))
        return furthest(board, players, tally, tables, 0, 0, 0, mp)

    # stopping beside the Troll: 1 + 1 for company, and the toll only when entering
    assert reach(2) == 1 and reach(2, troll_toll="entering") == 0
    assert reach(3, troll_toll="entering") == 1
    # getting past it costs the toll once under either reading
    assert reach(4) == 2 and reach(4, troll_toll="entering") == 2
    assert reach(3) == 1


# --- draw_two: draw-two-keep-one and the Preparation draw --------------------------------


@pytest.mark.parametrize(("reading", "drawn"), [("extra", 2), ("instead", 1)])
def test_draw_two_keep_one_on_top_of_or_instead_of_the_preparation_draw(
    reading: str, drawn: int
) -> None:
    _, players, deck, tally, characters, advantages = _state("PPPPPP", 2)
    advantages[0] = advantage(Effect.DRAW_TWO_KEEP_ONE)
    players.hand[0, :2], players.hand_n[0] = [number(1), number(1)], 2
    players.hand[1, :2], players.hand_n[1] = [number(1), number(1)], 2
    _pile(deck, *(number(n) for n in (3, 5, 7, 2, 4, 6)))
    start_race(tally.dice, np.uint64(0))
    tables = Tables(CARDS, characters, advantages, rules(draw_two=reading))
    prepare(0, players, deck, tally, tables)
    assert players.hand_n[0] == 2 + drawn
    kept = sorted(CARDS[players.hand[0, : players.hand_n[0]], 0].tolist())
    assert kept == ([1, 1, 3, 7] if reading == "extra" else [1, 1, 5])
    prepare(1, players, deck, tally, tables)  # another advantage: one card either way
    assert players.hand_n[1] == 3


# --- batches: every reading changes the figures at one seed; the defaults do not -------


def _batch(**chosen: str):  # type: ignore[no-untyped-def]
    return simulate(load_preset("forest-run"), RaceOptions(players=4, **chosen), races=600, seed=3)


@pytest.fixture(scope="module")
def default_batch():  # type: ignore[no-untyped-def]
    return _batch()


def test_the_default_readings_are_the_races_as_they_were(default_batch) -> None:  # type: ignore[no-untyped-def]
    given = _batch(
        crowding="every",
        encounter_when="ended-ahead",
        challenge_finish="finishes",
        troll_toll="leaving",
        draw_two="extra",
        flutter_end="free",
    )
    assert given.mean_rounds == default_batch.mean_rounds
    assert given.to_json() == default_batch.to_json()
    assert "crowding" not in default_batch.to_json()  # a default report reads as before


@pytest.mark.parametrize(
    "chosen",
    [
        {"crowding": "end"},
        {"encounter_when": "entered"},
        {"challenge_finish": "stays"},
        {"troll_toll": "entering"},
        {"draw_two": "instead"},
        {"flutter_end": "pays"},
    ],
    ids=lambda chosen: "-".join(*chosen.items()),
)
def test_each_reading_changes_a_batch_at_the_same_seed(default_batch, chosen) -> None:  # type: ignore[no-untyped-def]
    result = _batch(**chosen)
    assert result.to_json()["mean_rounds"] != default_batch.to_json()["mean_rounds"]
    ((name, value),) = chosen.items()
    assert result.to_json()[name] == value  # the report names the reading
    assert f"{name.replace('_', ' ')} {value}" in result.options.describe()


def test_crowding_at_the_end_shortens_races_and_sends_fewer_back(default_batch) -> None:  # type: ignore[no-untyped-def]
    result = _batch(crowding="end")
    assert result.ci95[1] < default_batch.ci95[0]
    assert result.tally("bounces")["mean"] < default_batch.tally("bounces")["mean"]


# --- the command line --------------------------------------------------------------------


def _cli(*args: str) -> dict:  # type: ignore[type-arg]
    done = subprocess.run(
        [sys.executable, "-m", "trackkit.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.mark.slow  # a command-line run each (2 s); the options' own tests stay quick
@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("--crowding", "end"),
        ("--encounter-when", "entered"),
        ("--challenge-finish", "stays"),
        ("--troll-toll", "entering"),
        ("--draw-two", "instead"),
        ("--flutter-end", "pays"),
    ],
)
def test_the_flag_reaches_the_engine(flag: str, value: str) -> None:
    common = ("simulate", "forest-run", "--players", "4", "--races", "400", "--json")
    default = _cli(*common)
    chosen = _cli(*common, flag, value)
    assert chosen[flag[2:].replace("-", "_")] == value
    assert chosen["mean_rounds"] != default["mean_rounds"]


@pytest.mark.slow
def test_the_exact_command_takes_the_challenge_reading() -> None:
    common = ("exact", "first-run", "--character", "Flamm", "--advantage", "Heroism", "--json")
    default = _cli(*common)
    stays = _cli(*common, "--challenge-finish", "stays")
    assert "challenge_finish" not in default and stays["challenge_finish"] == "stays"
    assert stays["expected_rounds"] > default["expected_rounds"]


# --- the exact solver ------------------------------------------------------------------


def test_the_exact_solver_agrees_with_the_simulator_when_a_challenge_stays() -> None:
    track = load_preset("first-run")
    exact = exact_solo(track, character="Flamm", advantage="Heroism", rules=SoloRules("stays"))
    options = RaceOptions(
        players=1,
        deck="infinite",
        characters=("Flamm",),
        advantages=("Heroism",),
        challenge_finish="stays",
    )
    result = simulate(track, options, races=60_000, seed=43)
    assert abs(result.mean_rounds - exact.expected_rounds) < 4 * result.std_error
    default = exact_solo(track, character="Flamm", advantage="Heroism")
    # the two readings differ by more than the simulator's noise
    assert exact.expected_rounds - default.expected_rounds > 8 * result.std_error
    assert "leaves the racer where it is" in exact.covers


INSTEAD = SoloRules(draw_two="instead")


def _draw_two_advantage() -> int:
    effects = load_content().advantages[:, ADV_EFFECT]
    return int(np.flatnonzero(effects == Effect.DRAW_TWO_KEEP_ONE)[0])


def test_the_exact_solver_refuses_draw_two_instead_only_for_a_racer_with_it() -> None:
    track = load_preset("first-run")
    with pytest.raises(Exception, match="on top of the Preparation draw only"):
        exact_solo(track, character=0, advantage=_draw_two_advantage(), rules=INSTEAD)
    with pytest.raises(Exception, match="on top of the Preparation draw only"):
        exact_solo(track, character=0, rules=INSTEAD)  # advantages dealt: it is one
    other = exact_solo(track, character=0, advantage="Heroism", rules=INSTEAD)
    assert other == exact_solo(track, character=0, advantage="Heroism")


def test_a_profile_leaves_the_exact_figures_out_when_its_racer_cannot_be_solved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ruleset = get_ruleset("yummell")
    instead = RaceOptions(players=4, draw_two="instead")
    # the bundled reference racer's advantage does nothing in a solo race: solved as ever
    assert ruleset.exact_refusal(instead) is None
    assert ruleset.exact_refusal(RaceOptions(players=4)) is None
    # content whose reference racer draws two: the figures are left out, said why
    racer = {"character": 0, "advantage": _draw_two_advantage()}
    monkeypatch.setattr(type(ruleset), "exact_reference", lambda self, content=None: racer)
    assert "no exact figures under --draw-two instead" in ruleset.exact_refusal(instead)
    assert ruleset.exact_refusal(RaceOptions(players=4)) is None


def test_the_exact_solver_refuses_a_reading_it_does_not_know() -> None:
    with pytest.raises(Exception, match="challenge finish is one of finishes, stays"):
        exact_solo(load_preset("first-run"), character=0, advantage=0, rules=SoloRules("maybe"))


def test_a_profile_solves_under_the_races_reading() -> None:
    # the profile's exact figures (and the Compare page's) are the reference racer's under
    # the reading the races are played with, never the default's
    ruleset = get_ruleset("yummell")
    track = load_preset("first-run")
    board = race_board(track)
    racer = ruleset.exact_reference()
    for reading in RULE_READINGS["challenge_finish"]:
        options = RaceOptions(players=4, challenge_finish=reading)
        values = exact_figures(ruleset, track, board, False, {}, options.content, options)
        paths = exact_paths(track, **racer, rules=SoloRules(reading))
        assert values["exact_rounds"] == paths[ruleset.greedy_path(board)]
    # the readings that cannot change a solo race are not the solver's
    assert ruleset.exact_rules(RaceOptions(players=4, crowding="end", troll_toll="entering")) == {
        "rules": SoloRules("finishes", "extra")
    }
