"""How a robustness run is told (trackkit.report.robust): the combinations counted with
the policies apart, the brackets said to be a range, and no "Holds" over a verdict that
holds only where the tracks are told apart (issue 32 C5)."""

from __future__ import annotations

from trackkit.explore.robust import RobustRun, product_of, verdicts, without_identical
from trackkit.report.robust import HEADINGS, combinations_text, robust_compare_text


def _run(varied: tuple, a: list[float], b: list[float]) -> RobustRun:
    variants = product_of(varied)

    def figures(mean: float) -> dict[str, float]:
        return {
            "rounds_mean": mean,
            "rounds_mean_low": mean - 0.05,
            "rounds_mean_high": mean + 0.05,
        }

    values = tuple({"a": figures(x), "b": figures(y)} for x, y in zip(a, b, strict=True))
    return RobustRun("toy", 3, 1000, 0, variants, ("a", "b"), {"a": "A", "b": "B"}, values)


BONUS = ("bonus", (True, False))
TIE = ("tie", ("inside", "leftmost"))
POLICY = ("policy", ("greedy", "smart", "bold"))


def test_the_policies_are_counted_apart_from_the_readings() -> None:
    run = _run((BONUS, TIE, POLICY), [4.0] * 12, [5.0] * 12)
    assert combinations_text(run) == "12 combinations (4 of the readings × 3 policies)"
    assert combinations_text(_run((POLICY,), [4.0] * 3, [5.0] * 3)) == "3 policies"
    assert combinations_text(_run((BONUS,), [4.0] * 2, [5.0] * 2)) == "2 combinations of readings"
    text = robust_compare_text(run, verdicts(run))
    assert text.startswith("Compare under 12 combinations (4 of the readings × 3 policies)")
    assert "A is shorter than B under all 12 combinations" in text


def test_the_brackets_are_a_range_of_estimates_and_no_heading_of_a_partial_verdict_says_holds() -> (
    None
):
    run = _run((BONUS, TIE), [4.0, 4.0, 5.0, 4.99], [5.0] * 4)
    found = verdicts(run)
    assert [v.kind for v in found] == ["mostly"]
    text = robust_compare_text(run, found)
    assert "(A − B, range of estimates across combinations: -1 to +0 rounds)" in text
    assert "not an interval" in text
    assert not HEADINGS["mostly"].startswith("Holds")
    assert f"\n{HEADINGS['mostly']}:" in text


def test_a_reading_with_identical_races_is_said_and_not_counted() -> None:
    run = without_identical(_run((BONUS, TIE), [4.0, 4.0, 6.0, 6.0], [5.0] * 4))
    text = robust_compare_text(run, verdicts(run))
    assert text.startswith("Compare under 2 combinations of readings")
    assert "tie: its values give identical races on these tracks, so counted once" in text
