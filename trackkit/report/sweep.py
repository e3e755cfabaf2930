"""What ``trackkit sweep`` and ``trackkit find`` print: a sweep's run and the tracks a
query chose as a table (their JSON is :meth:`SweepRun.to_json` and
:meth:`FoundTracks.to_json`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from trackkit.errors import shown
from trackkit.explore.find import FoundTracks
from trackkit.explore.sweep import SweepRun, SweepStatus
from trackkit.report.orderings import row_tie_groups

# the columns `trackkit find` shows, with their headings and formats
SHOWN_FIGURES: tuple[tuple[str, str, str], ...] = (
    ("rounds_mean", "rounds", ".1f"),
    ("exact_rounds", "exact", ".1f"),
    ("unfairness", "unfairness", ".1f"),
    ("balance", "balance", ".3f"),
    ("lead_changes", "leads", ".2f"),
    ("last_round", "last rnd", ".2f"),
    ("winner_gap", "gap", ".1f"),
    ("bounces", "bounces", ".2f"),
    ("squares", "squares", ".0f"),
)


def _sweep_line(plan: Any) -> str:
    what = f"a sample of {plan.sample:,}" if plan.sample is not None else "every track"
    space = f"{plan.space_size:,}"
    from trackkit.games import get_ruleset  # the registry, not a game

    ruleset = get_ruleset(plan.game)
    if plan.tileset_folder is None and ruleset.track_space is not None:
        drawn = ruleset.track_space(plan.players)
        if not drawn.dense:  # ranks over raw designs: say how many are legal
            legal, estimate = drawn.legal_count()
            space = f"{'about ' if estimate else ''}{legal:,} legal designs ({space} ranked)"
    exact = ", exact solo length" if plan.exact else ", no exact solver"
    skill = f", skill ({plan.skill_races:,} race pairs)" if plan.skill_races else ", no skill"
    return (
        f"{plan.players}-player tracks: {what} of {space}, {plan.races} races "
        f"each{exact}{skill}, seed {plan.seed}, partitions of {plan.partition_size}"
    )


def status_text(status: SweepStatus) -> str:
    """How far a sweep is, in one line."""
    state = "complete" if status.complete else "incomplete (run the sweep again to resume)"
    return (
        f"{status.tracks_done:,} of {status.tracks:,} tracks in {status.partitions_done:,} "
        f"of {status.partitions:,} partitions: {state}"
    )


def sweep_text(run: SweepRun) -> str:
    """A sweep's run: what was swept, how much this run did and how fast."""
    lines = [
        f"Sweep in {shown(run.folder, 4200)}{' (resumed)' if run.resumed else ''}",
        _sweep_line(run.plan),
        status_text(run.status),
    ]
    if run.tracks_profiled:
        lines.append(
            f"This run: {run.tracks_profiled:,} tracks in {run.sweep_seconds:.1f} s on "
            f"{run.workers} worker{'s' if run.workers != 1 else ''} "
            f"({run.tracks_per_second:,.1f} tracks/s; cluster start {run.start_seconds:.1f} s, "
            f"warm-up {run.warmup_seconds:.1f} s)"
        )
    else:
        lines.append("This run: nothing left to profile")
    return "\n".join(lines)


def _wrapped_groups(groups: list[list[Any]], key: str) -> list[str]:
    """Tie groups in words: which ranks the races cannot tell apart on ``key``."""
    import textwrap

    parts = [
        " = ".join(f"#{rank}" for rank in group) + (" (tied)" if len(group) > 1 else "")
        for group in groups
    ]
    text = (
        f"Tie groups on {key} (told apart at 95% by their intervals, Holm-corrected; "
        "best first): " + "; then ".join(parts)
    )
    return textwrap.wrap(text, 92)


def _cell(value: Any, form: str) -> str:
    return "-" if value is None else format(value, form)


def find_text(found: FoundTracks, exported: list[Path] | None = None) -> str:
    """The chosen tracks as a table, best first, with what was asked."""
    direction = "highest" if found.descending else "lowest"
    filters = ", ".join(f"{key} {bounds}" for key, bounds in found.query.filters)
    lines = [
        f"Sweep {shown(found.folder, 4200)}: {status_text(found.status)}",
        f"{found.matched:,} tracks match{f' ({filters})' if filters else ''}; "
        f"{len(found.rows)} shown, {direction} {found.sort_key} first",
    ]
    if not found.rows:
        return "\n".join(lines)
    # the figures the game measures (a Snow Tails race has no exact solver, no squares)
    columns = [c for c in SHOWN_FIGURES if any(row.get(c[0]) is not None for row in found.rows)]
    extra = [found.sort_key, *(key for key, _ in found.query.filters)]
    for key in extra:
        if key not in {c[0] for c in columns}:
            columns.append((key, key, ".3f"))
    # a design named by a key (Snow Tails) is shown; placements (Yummell) are not
    named = all(isinstance(row.get("placements"), str) for row in found.rows)
    table = [["rank", *(heading for _, heading, _ in columns), *(["design"] if named else [])]]
    for row in found.rows:
        design = [shown(row["placements"], 60)] if named else []
        table.append([str(row["rank"]), *(_cell(row.get(k), f) for k, _, f in columns), *design])
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    lines.append("")
    for line in table:
        lines.append("  ".join(cell.rjust(width) for cell, width in zip(line, widths, strict=True)))
    groups = row_tie_groups(found.rows, found.sort_key, descending=found.descending)
    if groups is not None and len(found.rows) > 1:
        lines.append("")
        lines += _wrapped_groups(groups, found.sort_key)
    if exported is not None:
        lines.append("")
        lines.append(f"Exported {len(exported)} track file{'s' if len(exported) != 1 else ''}:")
        lines += [f"  {shown(path, 4200)}" for path in exported]
    return "\n".join(lines)
