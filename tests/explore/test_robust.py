"""Robustness verdicts on constructed runs whose answer is known, and the variants a run
takes (trackkit.explore.robust)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.games.toy import registered
from trackkit.errors import TrackkitError
from trackkit.explore.robust import (
    MAX_VARIANTS,
    POLICY,
    RobustRun,
    Variant,
    difference,
    product_of,
    spreads,
    verdict,
    verdicts,
    without_identical,
)
from trackkit.games import readings
from trackkit.games.face import Argument, get_face
from trackkit.games.readings import Reading, varied

BONUS = Reading(
    Argument("bonus", "", "switch", default=True),
    (True, False),
    ("the bonus die may be used in round 1", "not in round 1"),
    "May the bonus die be used in round 1?",
    "not forbidden",
    "B.4",
    labels=("allowed", "not allowed"),
)
TIE = Reading(
    Argument("tie", "", "choice", choices=("inside", "leftmost")),
    ("inside", "leftmost"),
    ("the inside lane leads", "the leftmost lane leads"),
    "Who leads when level?",
    "the base game",
    "page 6",
)
VARIANTS = product_of(((BONUS.name, BONUS.values), (TIE.name, TIE.values)))
WORDS = {"bonus": {True: "allowed", False: "not allowed"}}


def _figures(mean: float, half: float = 0.05) -> dict[str, float]:
    return {"rounds_mean": mean, "rounds_mean_low": mean - half, "rounds_mean_high": mean + half}


def _run(a: list[float], b: list[float], half: float = 0.05) -> RobustRun:
    """Two tracks' mean rounds under the four variants (bonus × tie)."""
    values = tuple(
        {"a": _figures(x, half), "b": _figures(y, half)} for x, y in zip(a, b, strict=True)
    )
    named = {"bonus": "bonus (--no-bonus)"}
    return RobustRun(
        "toy",
        3,
        1000,
        0,
        VARIANTS,
        ("a", "b"),
        {"a": "A", "b": "B"},
        values,
        words=WORDS,
        named=named,
    )


def test_the_variants_are_every_combination_with_the_defaults_first() -> None:
    assert [v.values for v in VARIANTS] == [
        (("bonus", True), ("tie", "inside")),
        (("bonus", True), ("tie", "leftmost")),
        (("bonus", False), ("tie", "inside")),
        (("bonus", False), ("tie", "leftmost")),
    ]
    assert VARIANTS[3].label(WORDS) == "bonus not allowed, tie leftmost"


def test_a_track_shorter_under_every_reading_holds() -> None:
    found = verdict(_run([4.0, 4.1, 4.2, 4.0], [5.0, 5.2, 5.1, 4.9]), "rounds_mean", "a", "b")
    assert found.kind == "holds"
    assert found.text == "A is shorter than B under all 4 combinations"
    assert found.first == "a"


def test_the_reading_that_alone_decides_which_is_shorter_is_named() -> None:
    # A is shorter when the bonus is allowed, B when it is not, whatever the tie-break
    found = verdict(_run([4.0, 4.0, 6.0, 6.0], [5.0, 5.0, 5.0, 5.0]), "rounds_mean", "a", "b")
    assert found.kind == "depends"
    assert found.decided_by == "bonus"
    assert "depends on bonus (--no-bonus)" in found.text
    assert "A under allowed" in found.text and "B under not allowed" in found.text


def test_a_flip_no_single_reading_explains_is_put_down_to_the_combination() -> None:
    # A shorter exactly when the two readings agree (an interaction, no main effect)
    found = verdict(_run([4.0, 6.0, 6.0, 4.0], [5.0, 5.0, 5.0, 5.0]), "rounds_mean", "a", "b")
    assert found.kind == "depends" and found.decided_by is None
    assert "depends on the combination (A under 2, B under 2 of 4)" in found.text


def test_a_difference_inside_the_noise_under_some_readings_is_not_called_a_hold() -> None:
    found = verdict(_run([4.0, 4.0, 5.02, 5.0], [5.0, 5.0, 5.0, 5.0]), "rounds_mean", "a", "b")
    assert found.kind == "mostly"
    assert found.text.startswith("A is shorter than B under 2 of 4 combinations (95% jointly")


def test_two_tracks_alike_under_every_reading_are_not_told_apart() -> None:
    found = verdict(_run([5.0] * 4, [5.01] * 4), "rounds_mean", "a", "b")
    assert found.kind == "unclear"
    assert [v.kind for v in verdicts(_run([5.0] * 4, [5.01] * 4))] == ["unclear"]


def test_wide_intervals_tell_nothing_apart() -> None:
    assert verdict(_run([4.0] * 4, [5.0] * 4, half=1.0), "rounds_mean", "a", "b").kind == "unclear"


def test_a_difference_combines_both_intervals() -> None:
    got = difference(_figures(4.0, 0.3), _figures(5.0, 0.4), "rounds_mean")
    assert got.value == pytest.approx(-1.0)
    assert (got.low, got.high) == (pytest.approx(-1.5), pytest.approx(-0.5))
    assert got.sign == -1


def test_a_figure_across_the_readings_gives_its_range_and_the_reading_moving_it() -> None:
    run = _run([4.0, 4.1, 6.0, 6.1], [5.0] * 4)
    (spread,) = spreads(run, "a")
    assert (spread.default, spread.least, spread.most) == (4.0, 4.0, 6.1)
    assert run.variants[spread.most_at] == Variant((("bonus", False), ("tie", "leftmost")))
    assert spread.moved_by == "bonus" and spread.moved == pytest.approx(2.0)
    assert not spread.same_everywhere


@pytest.fixture
def toy_with_readings(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    with registered():
        monkeypatch.setattr(get_face("toy"), "readings", (BONUS, TIE), raising=False)
        yield "toy"


def test_a_run_varies_every_reading_the_user_did_not_fix(toy_with_readings: str) -> None:
    assert varied("toy", None) == (("bonus", (True, False)), ("tie", ("inside", "leftmost")))
    # (the toy has one policy: not varied)
    assert [name for name, _ in varied("toy", None, fixed={"tie": "inside"})] == ["bonus"]
    assert readings.value_words("toy")["bonus"] == {True: "allowed", False: "not allowed"}
    assert readings.reading_phrases("toy")["bonus"] == "bonus (--no-bonus)"


def test_a_run_varies_the_readings_named_and_refuses_a_fixed_one(toy_with_readings: str) -> None:
    assert [name for name, _ in varied("toy", ["tie", POLICY])] == ["tie", POLICY]
    with pytest.raises(TrackkitError, match="--robust names tie twice"):  # issue 32 A6
        varied("toy", ["tie", "bonus", "tie"])
    with pytest.raises(TrackkitError, match="--robust names policy twice"):
        varied("toy", [POLICY, "policy "])
    with pytest.raises(TrackkitError, match="--tie fixes the reading tie"):
        varied("toy", ["tie"], fixed={"tie": "leftmost"})
    with pytest.raises(TrackkitError, match="not a reading of this game .its readings: bonus, tie"):
        varied("toy", ["mud"])
    with pytest.raises(TrackkitError, match="--policy fixes the policy"):
        varied("toy", [POLICY], policy_fixed=True)


def test_a_flip_sure_at_95_percent_alone_is_not_called_a_dependence() -> None:
    # under each combination the difference just leaves out 0 (±0.08 against ±0.071), but
    # not at 95% jointly over the four: luck among four combinations could give such flips
    found = verdict(_run([4.92, 5.08, 4.92, 5.08], [5.0] * 4), "rounds_mean", "a", "b")
    assert found.kind == "unclear"
    assert "it may be luck" in found.text
    # twice the gap is sure over the four, and the tie-break decides it
    found = verdict(_run([4.84, 5.16, 4.84, 5.16], [5.0] * 4), "rounds_mean", "a", "b")
    assert found.kind == "depends" and found.decided_by == "tie"


def test_a_flip_decided_mostly_by_one_reading_names_it() -> None:
    # A is shorter under every "bonus allowed" combination; under "not allowed" the tie
    # decides: no reading alone, but one value of one reading leans all one way
    found = verdict(_run([4.0, 4.0, 4.0, 6.0], [5.0] * 4), "rounds_mean", "a", "b")
    assert found.kind == "depends" and found.decided_by is None
    assert "most with bonus (--no-bonus): A under allowed in 2 of 2" in found.text


def test_a_difference_told_apart_under_one_combination_by_luck_is_not_called_one_way() -> None:
    # issue 32 C5: told apart under one of four combinations at 95% (±0.08 against
    # ±0.071), alike elsewhere: among four combinations luck alone could do that
    found = verdict(_run([4.92, 5.0, 5.0, 5.0], [5.0] * 4), "rounds_mean", "a", "b")
    assert found.kind == "unclear" and "it may be luck" in found.text
    # twice the gap is sure jointly over the four
    found = verdict(_run([4.84, 5.0, 5.0, 5.0], [5.0] * 4), "rounds_mean", "a", "b")
    assert found.kind == "mostly"
    assert found.text.startswith("A is shorter than B under 1 of 4 combinations")


def test_too_many_combinations_are_refused_before_any_is_built() -> None:
    # issue 32 A6: 2^40 combinations would exhaust the memory if built (the first check
    # fails, rather than hangs, where they are built before the cap)
    many = tuple((f"reading_{i}", (True, False)) for i in range(40))
    with pytest.raises(TrackkitError, match="512 combinations of readings"):
        product_of(many[:9])
    with pytest.raises(TrackkitError, match="1,099,511,627,776 combinations of readings"):
        product_of(many)
    assert len(product_of(many[:8])) == 256 == MAX_VARIANTS
    assert readings.combinations(many) == 2**40


def test_a_reading_whose_values_give_identical_races_is_counted_once() -> None:
    # issue 32 C5: the tie-break changes nothing on these tracks (its two values, the
    # bonus held alike, give the very same figures): two combinations, not four
    run = _run([4.0, 4.0, 6.0, 6.0], [5.0] * 4)
    kept = without_identical(run)
    assert kept.identical == ("tie",)
    assert [v.values for v in kept.variants] == [(("bonus", True),), (("bonus", False),)]
    assert kept.values == (run.values[0], run.values[2])
    found = verdict(kept, "rounds_mean", "a", "b")
    assert found.decided_by == "bonus" and len(found.differences) == 2
    # a reading that moves a figure at all is kept
    moved = _run([4.0, 4.1, 6.0, 6.0], [5.0] * 4)
    assert without_identical(moved) == moved
