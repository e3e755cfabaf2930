"""What a tune found: the candidates raced, the start and the best confirmed with more
races and another seed, and the report for other programs (``report.json``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from trackkit.tune.content_files import Parameter
from trackkit.tune.evaluate import Evaluation, Score
from trackkit.tune.spec import TuneSpec


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
        return self.confirmed_best_score.met

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
                "also": [
                    {
                        "win_share": a.win_share,
                        "scope": a.scope,
                        "labels": list(a.labels) if a.labels else None,
                    }
                    for a in spec.also
                ],
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
