"""Snow Tails' readings (issue 24): each is declared once, reaches the course or the engine
through the race options, and changes what it says it changes; the per-sled starting
dogs of the expert rule (rulebook A.5)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from snowtails_fixtures import BASE, base_data, track_of
from snowtails_race_fixtures import STRAIGHT, Table, table

from trackkit.errors import TrackkitError
from trackkit.games.base import get_ruleset
from trackkit.games.face import get_face
from trackkit.games.readings import reading_named, readings_of
from trackkit.games.snowtails.core.board import AHEAD, EDGE
from trackkit.games.snowtails.core.content import load_deck
from trackkit.games.snowtails.core.course import Course, CourseReadings, build_course
from trackkit.games.snowtails.core.movement import STOP_REPAIR
from trackkit.games.snowtails.core.options import RaceOptions
from trackkit.games.snowtails.core.presets import load_preset
from trackkit.games.snowtails.core.race import make_setup, prepare, record_race, simulate
from trackkit.games.snowtails.core.state import STAT_REPAIRS
from trackkit.games.snowtails.core.track import Address
from trackkit.games.snowtails.face import starting_dogs
from trackkit.games.snowtails.face.readings import READINGS

Cli = Callable[..., tuple[int, str, str]]  # the ``cli`` fixture of tests/conftest.py

# A tight corner turning left: lane 5 is its outermost lane, lane 1 its innermost.
TIGHT_LEFT = [
    BASE["segments"][0],
    {**BASE["segments"][1], "tight": True},
    BASE["segments"][2],
]
INNER_LAST = ("bend", 1, 1)  # the last of the inner lane's 2 spaces
OUTER_LAST = ("bend", 5, 5)  # the last of the outer lane's 6 spaces


def _options(**changes: Any) -> RaceOptions:
    return RaceOptions(players=5, **changes)


def _ahead(options: RaceOptions, address: tuple[str, int, int], **track: Any) -> int:
    """Where ``ahead`` leads from ``address`` in the engine's arrays (a node, or < 0)."""
    compiled = prepare(track_of(base_data(**track)), options).compiled
    return int(compiled.board.move[compiled.node(address), AHEAD])


# --- the declarations ---------------------------------------------------------------------------


def test_every_reading_is_a_race_option_with_its_default_first_and_its_passage() -> None:
    face = get_face("snowtails")
    assert readings_of("snowtails") == READINGS == face.readings
    names = [option.name for option in face.options]
    assert names[0] == "starting_dogs"  # a plain option, not a reading
    for reading in READINGS:
        assert reading.name in names
        assert reading.option.kind in ("choice", "switch")
        assert reading.question and reading.why and reading.effect and reading.status
        assert "rulebook" in reading.passage and "SNOWTAILS.md" in reading.passage
        assert len(reading.means) == len(reading.values)
        if reading.option.kind == "choice":
            assert reading.values == reading.option.choices
            # the app offers the values; the tie-break first offers the track file's own
            offered = tuple(v for v in reading.option.offered if v is not None)
            assert offered == reading.values
    assert reading_named("snowtails", "tie-break").default == "inside"
    bonus = reading_named("snowtails", "first_round_bonus")
    assert bonus.option.flag == "--no-first-round-bonus"
    assert bonus.values == (True, False) and bonus.labels == ("allowed", "not allowed")


def test_no_option_chosen_is_every_reading_at_its_default() -> None:
    options = get_face("snowtails").race_options(5, ("greedy",), None, {})
    assert (options.tight_corners, options.bonus_first_round) == ("every-lane", True)
    assert (options.tie_break, options.repair_draw) == (None, "keep")  # None: the track's own
    chosen = {"tight_corners": "outer-lane", "tie_break": "leftmost", "repair_draw": "fresh"}
    options = get_face("snowtails").race_options(5, ("greedy",), None, chosen)
    assert (options.tight_corners, options.tie_break, options.repair_draw) == (
        "outer-lane",
        "leftmost",
        "fresh",
    )


def test_the_summary_and_the_description_name_every_reading() -> None:
    options = _options(tight_corners="outer-lane", tie_break="leftmost", repair_draw="fresh")
    summary = options.summary()
    assert summary["tight_corners"] == "outer-lane" and summary["tie_break"] == "leftmost"
    assert summary["repair_draw"] == "fresh" and summary["bonus_first_round"] is True
    text = options.describe()
    for words in ("tight corners outer-lane", "leftmost lane", "repair draw fresh", "round 1"):
        assert words in text
    assert "the track's own" in _options().describe()


def test_a_reading_that_is_not_one_is_refused() -> None:
    for wrong in ({"tight_corners": "none"}, {"tie_break": "right"}, {"repair_draw": "all"}):
        with pytest.raises(TrackkitError, match="is one of"):
            _options(**wrong).check(load_deck())


# --- tight corners: every lane, or the outer lane only -----------------------------------------


def test_tight_corners_every_lane_sends_the_inner_lane_into_the_side() -> None:
    assert _ahead(_options(), INNER_LAST, segments=TIGHT_LEFT) == EDGE
    assert _ahead(_options(), OUTER_LAST, segments=TIGHT_LEFT) == EDGE


def test_tight_corners_outer_lane_lets_the_inner_lanes_go_ahead() -> None:
    options = _options(tight_corners="outer-lane")
    compiled = prepare(track_of(base_data(segments=TIGHT_LEFT)), options).compiled
    inner = int(compiled.board.move[compiled.node(INNER_LAST), AHEAD])
    assert inner >= 0 and compiled.address(inner) == ("c", 1, 0)  # on into the straight
    assert _ahead(options, OUTER_LAST, segments=TIGHT_LEFT) == EDGE  # only the outer lane
    for lane in (2, 3, 4):  # every lane further in goes on (lane L has L + 1 spaces)
        assert _ahead(options, ("bend", lane, lane), segments=TIGHT_LEFT) >= 0


def test_the_outer_lane_of_a_corner_driven_reversed_is_its_other_side() -> None:
    """Driven reversed the corner turns right: board lane 1 is then its outermost lane."""
    course = build_course(load_preset("reversed-ridge"), CourseReadings("outer-lane"))
    hairpin = [s for s in course.spaces.values() if s.segment.tight and s.last_in_segment]
    edges = {s.address.lane for s in hairpin if course.move(s.address, "ahead") == "edge"}
    assert len(edges) == 2  # one outer lane per hairpin
    every = build_course(load_preset("reversed-ridge"))
    assert all(every.move(s.address, "ahead") == "edge" for s in hairpin)


def test_a_course_composed_under_other_readings_is_composed_again() -> None:
    course = build_course(track_of(base_data(segments=TIGHT_LEFT)))  # the defaults
    engine = prepare(course, _options(tight_corners="outer-lane"))
    assert engine.compiled.course.readings.tight_corners == "outer-lane"
    assert prepare(course, _options()).compiled.course is course


def test_a_course_prepared_under_other_readings_counts_collisions_on_the_right_spaces() -> None:
    """A prepared course kept from other options is raced under the options' readings,
    and its collisions per space are named as that course names its spaces."""
    ruleset, track = get_ruleset("snowtails"), load_preset("chicane")
    leftmost = _options(tie_break="leftmost")
    kept, fresh = ruleset.prepare(track, _options()), ruleset.prepare(track, leftmost)
    assert kept.compiled.addresses != fresh.compiled.addresses  # numbered by rank
    a = ruleset.play_batch(kept, leftmost, 1, 0, 60)
    b = ruleset.play_batch(fresh, leftmost, 1, 0, 60)
    assert np.array_equal(a.rounds, b.rounds) and np.array_equal(a.placing, b.placing)
    for kind in ("side", "tree", "sled"):
        assert dict(zip(kept.nodes, a.node_counts[kind], strict=True)) == dict(
            zip(fresh.nodes, b.node_counts[kind], strict=True)
        )


# --- the tie-break: the inside lane, or the leftmost -------------------------------------------


def _rank(options: RaceOptions, address: tuple[str, int, int], **track: Any) -> int:
    compiled = prepare(track_of(base_data(**track)), options).compiled
    return int(compiled.board.rank[compiled.node(address)])


RIGHT_BEND = [
    BASE["segments"][0],
    {**BASE["segments"][1], "turn": "right"},
    BASE["segments"][2],
]


def test_tie_break_inside_puts_the_inside_of_the_next_corner_first() -> None:
    left, right = ("a", 1, 3), ("a", 5, 3)  # level: the same row, the next corner turns right
    assert _rank(_options(), right, segments=RIGHT_BEND) > _rank(
        _options(), left, segments=RIGHT_BEND
    )


def test_tie_break_leftmost_ranks_the_same_two_spaces_the_other_way() -> None:
    options = _options(tie_break="leftmost")
    left, right = ("a", 1, 3), ("a", 5, 3)
    assert _rank(options, left, segments=RIGHT_BEND) > _rank(options, right, segments=RIGHT_BEND)


def test_with_no_tie_break_chosen_the_track_file_decides_and_a_choice_overrides_it() -> None:
    left, right = ("a", 1, 3), ("a", 5, 3)
    track = {"segments": RIGHT_BEND, "tiebreak": "left"}
    assert _rank(_options(), left, **track) > _rank(_options(), right, **track)
    inside = _options(tie_break="inside")
    assert _rank(inside, right, **track) > _rank(inside, left, **track)


# --- the repair draw: keep the dog cards in hand, or draw 5 fresh ------------------------------


def _repair_table(**options: Any) -> Table:
    """Sled 0 on a straight with 3 collision cards and a 2 and a 4 in hand: it plays the 2
    and runs through two trees, the second its 5th collision card."""
    t = table(players=3, **STRAIGHT)
    setup = make_setup(RaceOptions(players=3, **options), load_deck())
    t.engine = replace(t.engine, setup=setup)
    t.trees(("a", 3, 1), ("a", 3, 2))
    t.put(0, ("a", 3, 0))
    t.give(0, hand=[2, 4], dogs=(2, 2), collisions=3, deck=[0, 1, 1, 3, 3, 3])
    assert t.play(0, "left", 2, "SSSS") == STOP_REPAIR
    assert t.sleds.collisions[0] == 0 and t.sleds.repairing[0] == 1
    return t


def test_repair_draw_keep_keeps_the_dog_card_in_hand() -> None:
    t = _repair_table()
    assert list(t.sleds.hand[0]) == [0, 1, 0, 3, 1, 0]  # the 4 kept; 3, 3, 3, 1 drawn
    assert list(t.sleds.under[0]) == [0, 0, 1, 0, 0, 0]  # only the covered left dog


def test_repair_draw_fresh_discards_it_under_the_dogs_and_draws_5() -> None:
    t = _repair_table(repair_draw="fresh")
    assert list(t.sleds.hand[0]) == [0, 2, 0, 3, 0, 0]  # 3, 3, 3, 1, 1: the top five
    assert list(t.sleds.under[0]) == [0, 0, 1, 0, 1, 0]  # the 4 went under, as a discard
    assert t.sleds.deck_n[0] == 1


# --- the bonus die in round 1 -------------------------------------------------------------------


def _round_one_bonus(**options: Any) -> Address | None:
    t = table(players=3, rnd=1, **STRAIGHT)
    t.engine = replace(t.engine, setup=make_setup(RaceOptions(players=3, **options), load_deck()))
    t.give(0, hand=[1, 1], dogs=(2, 2), die=2, deck=[0, 1, 1, 3, 3, 3])
    t.play(0, "both", 1, "SS", bonus=2, start=("a", 3, 0))
    return t.where(0)


def test_a_round_1_bonus_move_happens_only_when_allowed() -> None:
    assert _round_one_bonus() == ("a", 3, 4)  # 2 steps, then 2 with the die
    assert _round_one_bonus(bonus_first_round=False) == ("a", 3, 2)


def test_recorded_races_use_the_bonus_in_round_1_only_when_allowed() -> None:
    def round_one_bonuses(allowed: bool) -> int:
        options = RaceOptions(players=5, bonus_first_round=allowed)
        races = [record_race(load_preset("husky-oval"), options, seed=s) for s in range(6)]
        return sum(t.bonus > 0 for r in races for t in r.turns if t.round == 1)

    assert round_one_bonuses(True) > 0
    assert round_one_bonuses(False) == 0


# --- each reading changes a batch's numbers -----------------------------------------------------


def _crowded_course() -> Course:
    """A straight with a tree on nearly every space: sleds take their 5th collision card
    (composed here, as the validator would refuse so many trees)."""
    trees = [["a", lane, row] for lane in range(1, 6) for row in range(1, 20)]
    return build_course(track_of(base_data(**STRAIGHT, trees=trees)))


@pytest.mark.parametrize(
    ("track", "changes"),
    [
        ("reversed-ridge", {"tight_corners": "outer-lane"}),
        ("reversed-ridge", {"bonus_first_round": False}),
        ("reversed-ridge", {"tie_break": "leftmost"}),
        ("crowded", {"repair_draw": "fresh"}),
    ],
    ids=["tight_corners", "first_round_bonus", "tie_break", "repair_draw"],
)
def test_each_reading_changes_a_batchs_numbers(track: str, changes: dict[str, Any]) -> None:
    board = _crowded_course() if track == "crowded" else load_preset(track)
    default = simulate(board, _options(), races=120, seed=1)
    other = simulate(board, _options(**changes), races=120, seed=1)
    again = simulate(board, _options(), races=120, seed=1)
    assert np.array_equal(default.placing, again.placing)  # the same seed, the same races
    assert not (
        np.array_equal(default.rounds, other.rounds)
        and np.array_equal(default.placing, other.placing)
    )
    if track == "crowded":
        assert default.stats[..., STAT_REPAIRS].sum() > 0


def test_the_tie_break_flag_reaches_the_engine(cli: Cli) -> None:
    """On chicane, whose corners turn both ways (on husky-oval, all to the left, the inside
    lane is the leftmost: the two readings agree)."""
    argv = ("simulate", "chicane", "--players", "5", "--races", "400", "--seed", "2", "--json")
    code, out, _ = cli(*argv)
    default = json.loads(out)
    code_2, out, _ = cli(*argv, "--tie-break", "leftmost")
    leftmost = json.loads(out)
    assert code == code_2 == 0
    assert default["tie_break"] is None and leftmost["tie_break"] == "leftmost"
    assert (default["mean_rounds"], default["start_slots"]) != (
        leftmost["mean_rounds"],
        leftmost["start_slots"],
    )


def test_every_reading_flag_is_shown_in_the_options(cli: Cli) -> None:
    argv = ("simulate", "reversed-ridge", "--races", "40", "--json")
    flags = ("--tight-corners", "outer-lane", "--no-first-round-bonus", "--repair-draw", "fresh")
    code, out, _ = cli(*argv, *flags)
    data = json.loads(out)
    assert code == 0 and data["tight_corners"] == "outer-lane"
    assert data["bonus_first_round"] is False and data["repair_draw"] == "fresh"
    code, out, _ = cli(*argv[:-1], *flags)
    assert "tight corners outer-lane" in out and "repair draw fresh" in out


# --- the starting dogs, one value or one per sled (rulebook A.5) -------------------------------


def test_the_starting_dogs_are_two_equal_cards_not_0_from_1_to_4() -> None:
    assert starting_dogs("3") == 3 and starting_dogs("2,3,1,4,2") == (2, 3, 1, 4, 2)
    for wrong in ("0", "5", "2,0", "x", "", "2,,3", "-1"):
        with pytest.raises(ValueError, match="valued 1 to 4"):
            starting_dogs(wrong)
    deck = load_deck()
    RaceOptions(players=3, starting_value=(1, 4, 3)).check(deck)
    for wrong_value in ((1, 5, 3), (0, 2, 2)):
        with pytest.raises(TrackkitError, match="1 to 4"):
            RaceOptions(players=3, starting_value=wrong_value).check(deck)


def test_one_starting_value_per_sled_needs_as_many_values_as_sleds() -> None:
    with pytest.raises(TrackkitError, match="5 sleds, 3 values"):
        RaceOptions(players=5, starting_value=(2, 3, 4)).check(load_deck())


def test_each_start_slot_gets_its_own_starting_dogs() -> None:
    options = RaceOptions(players=5, starting_value=(2, 3, 1, 4, 2))
    setup = make_setup(options, load_deck())
    assert list(setup.start_values[:5]) == [2, 3, 1, 4, 2]
    assert options.summary()["starting_value"] == [2, 3, 1, 4, 2]
    assert "by start slot 2+2, 3+3, 1+1, 4+4, 2+2" in options.describe()


def test_a_recorded_race_starts_each_sled_with_its_slots_dogs() -> None:
    values = (1, 4, 3, 2)
    for seed in range(3):
        record = record_race(
            load_preset("husky-oval"), RaceOptions(players=4, starting_value=values), seed=seed
        )
        first = [turn for turn in record.turns if turn.round == 1]
        assert len(first) == 4
        for turn in first:  # a card on one dog: the other is still the slot's starting dog
            start = values[record.slots[turn.player]]
            speed = 2 * turn.value if turn.play == "both" else start + turn.value
            assert len(turn.schedule) == speed


def test_the_starting_dogs_flag_takes_one_value_per_sled(cli: Cli) -> None:
    argv = ("simulate", "husky-oval", "--players", "3", "--races", "40", "--json")
    code, out, _ = cli(*argv, "--starting-dogs", "1,4,3")
    assert code == 0 and json.loads(out)["starting_value"] == [1, 4, 3]
    code, _, err = cli(*argv, "--starting-dogs", "1,4")
    assert code != 0 and "3 sleds, 2 values" in err and "Traceback" not in err
