"""What a tune found: the candidates raced, the start and the best confirmed with more
races and another seed, and the report for other programs (``report.json``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from trackkit.tune.content_files import Parameter
from trackkit.tune.evaluate import Evaluation, Score
from trackkit.tune.spec import Scope, TuneSpec


@dataclass(frozen=True)
class Candidate:
    """A candidate raced in the search: its number (0: the start, then in the order
    raced), its values (by parameter name), its score and its figures."""

    number: int
    values: dict[str, int]
    score: Score
    evaluation: Evaluation


@dataclass
class TuneResult:
    """What a tune found: the start and the best candidate, both confirmed with more races
    and another seed; how the search went and why it stopped; where it wrote."""

    spec: TuneSpec
    game: str
    start_folder: str
    parameters: tuple[Parameter, ...]
    start: Candidate
    best: Candidate
    confirmed_start: Evaluation
    confirmed_best: Evaluation
    confirmed_start_score: Score
    confirmed_best_score: Score
    evaluated: int
    refused: int
    refusal: str | None
    stopped: str
    history: list[float] = field(default_factory=list)
    out: Path | None = None
    mark: str = ""

    @property
    def changes(self) -> list[tuple[Parameter, int, int]]:
        return [
            (p, p.start, self.best.values[p.name])
            for p in self.parameters
            if self.best.values[p.name] != p.start
        ]

    @property
    def met(self) -> bool:
        """Every target surely met in the confirmation (each 95% interval inside it)."""
        return self.confirmed_best_score.met

    @property
    def status(self) -> str:
        """``met``, ``not sure`` (every estimate inside its target, not every interval) or
        ``missed``, in the confirmation."""
        return self.confirmed_best_score.status

    @property
    def others(self) -> tuple[int, ...]:
        """The labels (by index) no win-share target names."""
        shares = self.spec.shares
        if not shares or any(share.labels is None for share in shares):
            return ()
        named = {name.strip().casefold() for share in shares for name in share.labels or ()}
        labels = self.confirmed_best.labels
        return tuple(i for i, label in enumerate(labels) if label.casefold() not in named)

    @property
    def others_scope(self) -> Scope:
        """The scope the labels no target names are held at (the first target's)."""
        return self.spec.shares[0].scope if self.spec.shares else "each"

    def to_json(self) -> dict[str, Any]:
        """The report for other programs (written as ``report.json``)."""
        result = self
        spec = result.spec
        before, after = result.confirmed_start, result.confirmed_best
        return {
            "game": result.game,
            "tune_file": spec.path,
            "start_content": result.start_folder,
            "out": str(result.out) if result.out else None,
            "content": str(result.out / "content") if result.out else None,
            "met": result.met,
            "status": result.status,
            "verdicts": [v.to_json() for v in result.confirmed_best_score.verdicts],
            "misses": list(result.confirmed_best_score.misses),
            "stopped": result.stopped,
            "evaluated": result.evaluated,
            "refused": result.refused,
            "first_refusal": result.refusal,
            "best_candidate": result.best.number,
            "search": {
                "races": result.start.evaluation.races,
                "seed": result.start.evaluation.seed,
            },
            "confirmation": {"races": after.races, "seed": after.seed},
            "targets": {
                "win_share": spec.win_share,
                "scope": spec.scope,
                "labels": list(spec.labels) if spec.labels else None,
                "direction": spec.direction,
                "also": [
                    {
                        "win_share": a.win_share,
                        "scope": a.scope,
                        "labels": list(a.labels) if a.labels else None,
                        "direction": a.direction,
                    }
                    for a in spec.also
                ],
                "hold_others": spec.hold_others,
                "length_change": spec.length_change,
                "length": list(spec.length) if spec.length else None,
                "fewest_changes": spec.fewest_changes,
            },
            "changes": [
                {
                    "parameter": p.name,
                    "file": p.file,
                    "entry": p.entry,
                    "field": p.field,
                    "number": p.number,
                    "before": p.describe(old),
                    "after": p.describe(new),
                }
                for p, old, new in result.changes
            ],
            "worst_share": {
                "before": result.confirmed_start_score.worst_share,
                "after": result.confirmed_best_score.worst_share,
            },
            "worst_length_change": result.confirmed_best_score.worst_length,
            "shares": _share_rows(before, after, "each"),
            "average": _share_rows(before, after, "all"),
            "others": other_rows(result),
            "lengths": _length_rows(before, after),
            "history": result.history,
            "mark": result.mark,
        }


def _share_rows(before: Evaluation, after: Evaluation, scope: Any) -> list[dict[str, Any]]:
    rows = []
    for old, new in zip(before.scoped(scope), after.scoped(scope), strict=True):
        for i, label in enumerate(after.labels):
            if np.isnan(new.deviation[i]):
                continue
            rows.append(
                {
                    "where": new.name,
                    "players": new.players,
                    "label": label,
                    "before": float(old.deviation[i]),
                    "before_ci95": list(old.interval(i)),
                    "after": float(new.deviation[i]),
                    "after_ci95": list(new.interval(i)),
                }
            )
    return rows


def other_rows(result: TuneResult) -> list[dict[str, Any]]:
    """Each label no target names, where it moved most from the start at the scope of the
    targets, before and after with intervals, and whether it was held there."""
    before, after = result.confirmed_start, result.confirmed_best
    held = {
        cell.label: cell.status
        for verdict in result.confirmed_best_score.verdicts
        if verdict.kind == "hold"
        for cell in verdict.cells
    }
    rows = []
    pairs = list(
        zip(before.scoped(result.others_scope), after.scoped(result.others_scope), strict=True)
    )
    for i in result.others:
        moves = [
            (abs(new.deviation[i] - old.deviation[i]), old, new)
            for old, new in pairs
            if not np.isnan(new.deviation[i]) and not np.isnan(old.deviation[i])
        ]
        if not moves:
            continue
        _, old, new = max(moves, key=lambda m: m[0])
        rows.append(
            {
                "label": after.labels[i],
                "where": new.name,
                "before": float(old.deviation[i]),
                "before_ci95": list(old.interval(i)),
                "after": float(new.deviation[i]),
                "after_ci95": list(new.interval(i)),
                "held": held.get(after.labels[i]),
            }
        )
    return rows


def _length_rows(before: Evaluation, after: Evaluation) -> list[dict[str, Any]]:
    return [
        {
            "track": track,
            "players": count,
            "before": float(before.lengths[i]),
            "before_ci95": _ci(before, i),
            "after": float(after.lengths[i]),
            "after_ci95": _ci(after, i),
            "change": float(after.lengths[i] / before.lengths[i] - 1),
        }
        for i, (track, count) in enumerate(after.configs)
    ]


def _ci(evaluation: Evaluation, i: int) -> list[float]:
    half = 1.96 * float(evaluation.length_errors[i])
    return [float(evaluation.lengths[i]) - half, float(evaluation.lengths[i]) + half]
