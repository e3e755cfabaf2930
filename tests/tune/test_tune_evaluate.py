"""Racing a content over a panel with common random numbers, and scoring it against the
targets at each scope."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

import numpy as np
import pytest

from trackkit.games import get_ruleset
from trackkit.tune.evaluate import (
    Evaluation,
    Panel,
    ShareTarget,
    Targets,
    evaluate,
    fair_deviation,
    score,
)

YUMMELL = get_ruleset("yummell")


def _evaluation(wins: list[list[int]], entries: list[list[int]], players: list[int]) -> Evaluation:
    configs = tuple((f"t{i}", p) for i, p in enumerate(players))
    return Evaluation(
        labels=("a", "b"),
        configs=configs,
        entries=np.array(entries),
        wins=np.array(wins),
        lengths=np.full(len(players), 10.0),
        length_errors=np.full(len(players), 0.1),
        races=100,
        seed=0,
    )


def test_a_label_never_raced_has_no_deviation() -> None:
    dev = fair_deviation(np.array([[100, 0]]), np.array([[30, 0]]), (4,))
    assert dev[0, 0] == pytest.approx(0.05) and np.isnan(dev[0, 1])


def test_scopes_average_over_tracks_and_counts_with_equal_weight() -> None:
    # 2 players: a wins 60% on t0 and 40% on t1 (±10 points), balanced on average
    evaluation = _evaluation([[6000, 4000], [4000, 6000]], [[10**4] * 2] * 2, [2, 2])
    rows = evaluation.scoped("each")
    assert [r.deviation.round(3).tolist() for r in rows] == [[0.1, -0.1], [-0.1, 0.1]]
    (every,) = evaluation.scoped("all")
    assert every.deviation.tolist() == [0.0, 0.0]
    low, high = every.interval(0)
    assert low < 0 < high
    assert score(evaluation, Targets(win_share=0.05, scope="all")).met
    each = score(evaluation, Targets(win_share=0.05, scope="each"))
    assert not each.met and each.worst_share == pytest.approx(0.1)
    # 5 points beyond the tolerance, for each label on each track: 4 × 5²; a tenth of the
    # squared points each interval reaches beyond it; a hundredth of the mean squared deviation
    beyond = [
        max(-5 - 100 * r.interval(i)[0], 100 * r.interval(i)[1] - 5) for r in rows for i in (0, 1)
    ]
    assert each.loss == pytest.approx(4 * 25 + 0.1 * sum(b**2 for b in beyond) + 0.01 * 100)


def test_only_the_labels_held_count() -> None:
    evaluation = _evaluation([[8000, 2000]], [[10**4, 10**4]], [2])
    assert not score(evaluation, Targets(win_share=0.05)).met
    held = score(evaluation, Targets(win_share=0.05, labels=(1,)))
    assert not held.met and held.worst_share == pytest.approx(0.3)
    fine = _evaluation([[5200, 4800]], [[10**4, 10**4]], [2])
    assert score(fine, Targets(win_share=0.05, labels=(1,))).met


def test_lengths_against_the_start_and_a_range() -> None:
    evaluation = _evaluation([[50, 50]], [[100, 100]], [2])
    start = replace(evaluation, lengths=np.array([9.0]))  # 10 rounds is 11% longer
    missed = score(evaluation, Targets(length_change=0.05), start)
    assert not missed.met and missed.worst_length == pytest.approx(1 / 9)
    assert missed.misses == ("length on t0, 2 players",)
    assert missed.status == "missed"
    assert score(evaluation, Targets(length_change=0.2), start).met
    assert score(evaluation, Targets(length=(8, 12))).met
    assert not score(evaluation, Targets(length=(11, 12))).met
    # 10 ± 0.2 rounds against at most 10.1: the estimate is inside, its interval is not
    unsure = score(evaluation, Targets(length=(8, 10.1)))
    assert unsure.status == "not sure" and not unsure.met and not unsure.misses


def test_fewest_changes_costs_each_value_changed() -> None:
    evaluation = _evaluation([[50, 50]], [[100, 100]], [2])
    targets = Targets(win_share=0.05, fewest_changes=True)
    assert score(evaluation, targets, changes=3).loss - score(
        evaluation, targets
    ).loss == pytest.approx(1.5)


@pytest.mark.slow
def test_a_panel_raced_in_worker_processes_gives_the_same_numbers() -> None:
    track = YUMMELL.load_preset("first-run")
    panel = Panel(YUMMELL, (("first-run", track),), (2, 4), "character", 300, 11)
    content = YUMMELL.load_content()
    alone = evaluate(panel, content)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        side_by_side = evaluate(panel, content, pool=pool)
    assert alone.to_json() == side_by_side.to_json()
    assert alone.entries.sum(axis=1).tolist() == [600, 1200]  # every racer is a character
    assert Evaluation.from_json(alone.to_json()).to_json() == alone.to_json()


def test_several_share_targets_each_hold_their_labels_at_their_scope() -> None:
    # a swings ±10 points between the tracks but is fair on average; b is fair on t0, +10 on t1
    evaluation = _evaluation([[6000, 5000], [4000, 6000]], [[10**4] * 2] * 2, [2, 2])
    both = Targets(
        win_share=0.05, scope="each", labels=(1,), also=(ShareTarget(0.05, "all", (0,)),)
    )
    found = score(evaluation, both)
    assert not found.met and found.misses == ("t1, 2 players (b)",)
    assert [v.status for v in found.verdicts] == ["missed", "met"]
    assert score(evaluation, replace(both, win_share=0.12)).met
