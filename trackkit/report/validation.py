"""A validation as the ``validate`` command prints it: the problems it found, each on its
own line (its data is :meth:`trackkit.validate.Report.to_json`)."""

from __future__ import annotations

from trackkit.validate import Report


def validate_text(report: Report) -> str:
    """``valid`` (and, for a partial track, whether it can still be completed), or every
    problem on its own line; the building rule's player count when one was given; then
    every guideline the track does not follow (a warning: the track stays legal), as
    ``--json`` gives them."""
    rule = f" under the building rule for {report.players} players" if report.players else ""
    if report.ok:
        text = f"{report.track}: valid{rule}."
        if report.partial:
            text += " It can still be completed." if report.completable else ""
    else:
        text = f"{report.track}: {len(report.problems)} problem(s){rule}:\n"
        text += "\n".join(f"  {problem}" for problem in report.problems)
    if report.warnings:
        count = len(report.warnings)
        text += (
            f"\n{count} guideline{'' if count == 1 else 's'} not followed (legal all the same):\n"
        )
        text += "\n".join(f"  {warning}" for warning in report.warnings)
    return text
