"""Querying a sweep: the tracks whose figures fall in given ranges, best first, read with
DuckDB straight from the sweep's Parquet partitions, and written out as track files.

Figures are named by their keys (:data:`trackkit.explore.profile.FIGURES`, and the game's
own such as ``terrain_swamp``) or by an alias (:data:`SORT_ALIASES`). Sorting follows
what is better for the figure (``better == "high"``: highest first; otherwise lowest
first) unless told otherwise. User values reach DuckDB only as parameters; column names
only once checked against the sweep's figures.

>>> parse_range("8..12")
Range(low=8.0, high=12.0)
>>> parse_range("..9.5")
Range(low=None, high=9.5)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trackkit.board.datafile import output_path, write_text
from trackkit.errors import TrackkitError, shown
from trackkit.explore.profile import FIGURES
from trackkit.explore.sweep_folder import SweepStatus, checked_parts, sweep_status
from trackkit.explore.sweep_plan import REDO, SweepFolderError, SweepPlan

# a word a designer sorts by, and the figure it means
SORT_ALIASES: dict[str, str] = {
    "fairness": "unfairness",
    "balance": "balance",
    "drama": "lead_changes",
    "length": "rounds_mean",
    "exact": "exact_rounds",
    "friction": "bounces",
}
BETTER = {f.key: f.better for f in FIGURES}
DEFAULT_TOP = 10
MAX_TOP = 1_000_000
_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")
_COLUMN = re.compile(r"[a-z_][a-z0-9_]*")


@dataclass(frozen=True)
class Range:
    """Figures from ``low`` to ``high`` inclusive (None: no bound on that side)."""

    low: float | None
    high: float | None

    def __str__(self) -> str:
        def side(value: float | None) -> str:
            return "" if value is None else f"{value:g}"

        return f"{side(self.low)}..{side(self.high)}"


def parse_range(text: str, what: str = "a range") -> Range:
    """``A..B``, ``A..`` or ``..B`` as a :class:`Range`; a clear error for anything else."""
    usage = f"{what} is A..B, A.. or ..B with numbers A <= B (e.g. 8..12), not {shown(text, 60)!r}"
    low_text, dots, high_text = text.strip().partition("..")
    if not dots or (not low_text.strip() and not high_text.strip()):
        raise TrackkitError(usage)

    def number(part: str) -> float | None:
        part = part.strip()
        if not part:
            return None
        if not _NUMBER.fullmatch(part):
            raise TrackkitError(usage)
        return float(part)

    low, high = number(low_text), number(high_text)
    if low is not None and high is not None and low > high:
        raise TrackkitError(usage)
    return Range(low, high)


def parse_filter(text: str) -> tuple[str, Range]:
    """``KEY=A..B`` as the figure's key and its range (the key checked when queried)."""
    key, equals, bounds = text.partition("=")
    if not equals or not key.strip():
        raise TrackkitError(f"a filter is KEY=A..B (e.g. balance=0.8..), not {shown(text, 60)!r}")
    return key.strip(), parse_range(bounds, f"the range of {shown(key.strip(), 40)}")


@dataclass(frozen=True)
class TrackQuery:
    """Which tracks of a sweep to show: each filter's figure within its range, sorted by
    ``sort`` (a figure or an alias; ``descending`` None: the figure's better way first),
    the first ``top``."""

    filters: tuple[tuple[str, Range], ...] = ()
    sort: str = "unfairness"
    descending: bool | None = None
    top: int = DEFAULT_TOP


@dataclass(frozen=True)
class FoundTracks:
    """The tracks a query chose, best first: each row every column of the sweep (the
    placements as a list), and how many tracks matched in all."""

    folder: str
    plan: SweepPlan
    status: SweepStatus
    query: TrackQuery
    sort_key: str
    descending: bool
    matched: int
    rows: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {
            "folder": self.folder,
            "players": self.plan.players,
            "tracks_swept": self.status.tracks_done,
            "complete": self.status.complete,
            "sort": self.sort_key,
            "descending": self.descending,
            "filters": {key: str(bounds) for key, bounds in self.query.filters},
            "matched": self.matched,
            "rows": self.rows,
        }


def figure_key(name: str, valid: list[str]) -> str:
    """The column ``name`` means (an alias resolved), or an error listing valid names."""
    key = SORT_ALIASES.get(name, name)
    if key not in valid or not _COLUMN.fullmatch(key):
        raise TrackkitError(
            f"{shown(name, 60)!r} is not a figure of this sweep; use one of "
            f"{', '.join(valid)} or an alias ({', '.join(SORT_ALIASES)})"
        )
    return key


def row_design(value: Any, plan: SweepPlan, folder: str | Path, rank: Any) -> Any:
    """A row's ``placements`` cell (the design, as the game's space wrote it) checked by
    the game's ``design_codec`` (Yummell: a list of at most
    :data:`~trackkit.games.tilekit.track.MAX_PLACEMENTS` placements of whole numbers in range;
    Snow Tails: a design key); a :class:`SweepFolderError` naming the row otherwise."""
    from trackkit.games import get_ruleset  # the registry, not a game

    codec = get_ruleset(plan.game).design_codec
    where = f"rank {shown(rank, 30)}: placements"
    if codec is None:
        raise SweepFolderError(str(folder), where, f"is of a game with no design space: {REDO}")
    try:
        return codec.decode(value)
    except ValueError as error:
        raise SweepFolderError(str(folder), where, f"{error}: {REDO}") from None


def find_tracks(folder: str | Path, query: TrackQuery | None = None) -> FoundTracks:
    """The tracks of the sweep in ``folder`` that ``query`` chooses, best first."""
    import duckdb

    query = query or TrackQuery()
    if not 1 <= query.top <= MAX_TOP:
        raise TrackkitError(f"--top is 1 to {MAX_TOP:,}, not {query.top}")
    status = sweep_status(folder)
    parts = checked_parts(folder, status.plan)
    if not parts.paths:
        raise SweepFolderError(
            str(folder),
            None,
            "holds a sweep with no finished partition yet: run or resume `trackkit sweep` first",
        )
    import pyarrow as pa
    import pyarrow.dataset as ds

    valid = [f.name for f in parts.schema if f.type == pa.float64()]
    sort_key = figure_key(query.sort, valid)
    descending = (
        query.descending if query.descending is not None else BETTER.get(sort_key) == "high"
    )
    conditions, parameters = [], []
    for name, bounds in query.filters:
        key = figure_key(name, valid)
        if bounds.low is not None:
            conditions.append(f'"{key}" >= ?')
            parameters.append(bounds.low)
        if bounds.high is not None:
            conditions.append(f'"{key}" <= ?')
            parameters.append(bounds.high)
    where = f"WHERE {' AND '.join(conditions)}" if conditions else ""
    order = "DESC" if descending else "ASC"
    sql = (
        "SELECT *, count(*) OVER () AS matched FROM sweep_rows "
        f'{where} ORDER BY "{sort_key}" {order} NULLS LAST, rank LIMIT ?'
    )
    connection = duckdb.connect()
    try:
        # the checked files by name, through pyarrow: DuckDB's read_parquet would expand a
        # path holding * ? or [ as a pattern, and open whatever it matched
        rows = ds.dataset([str(p) for p in parts.paths], schema=parts.schema, format="parquet")
        connection.register("sweep_rows", rows)
        result = connection.execute(sql, [*parameters, query.top])
        names = [d[0] for d in result.description]
        records = [dict(zip(names, values, strict=True)) for values in result.fetchall()]
    except (duckdb.Error, pa.ArrowException, OSError) as error:
        raise SweepFolderError(
            str(folder), None, f"the sweep cannot be read ({shown(error, 200)}): {REDO}"
        ) from None
    finally:
        connection.close()
    matched = int(records[0].pop("matched")) if records else 0
    for record in records[1:]:
        record.pop("matched")
    for record in records:
        record["placements"] = row_design(record["placements"], status.plan, folder, record["rank"])
        for key, value in record.items():
            if isinstance(value, float) and math.isnan(value):
                record[key] = None
    return FoundTracks(
        str(folder), status.plan, status, query, sort_key, descending, matched, records
    )


def row_track(row: dict[str, Any], plan: SweepPlan) -> Any:
    """The track of a sweep's row, as the space gave it (its tile set from the plan, for a
    game of tiles); its design checked (:func:`row_design`)."""
    from trackkit.games import get_ruleset  # the registry, not a game

    value = row_design(row["placements"], plan, "this sweep", row.get("rank"))
    name = row.get("name")
    if not isinstance(name, str) or not name or len(name) > 200 or not name.isprintable():
        raise SweepFolderError(
            "this sweep", f"rank {shown(row.get('rank'), 30)}: name", f"is not a name: {REDO}"
        )
    codec = get_ruleset(plan.game).design_codec
    assert codec is not None  # row_design refused a game without one
    return codec.track(value, name, plan.tileset_folder)


def export_file(row: dict[str, Any], plan: SweepPlan) -> str:
    """The file name of a row's track, from checked whole numbers only: the players and
    the rank (``4-player-1976.toml``)."""
    rank, players = row["rank"], plan.players
    if type(rank) is not int or type(players) is not int or rank < 0 or players < 1:
        raise SweepFolderError(
            "this sweep", "rank", f"a row's rank {shown(rank, 30)} is not a rank: {REDO}"
        )
    return f"{players}-player-{rank}.toml"


def export_tracks(found: FoundTracks, folder: str | Path) -> list[Path]:
    """Write each chosen track to ``folder`` as a track file named from its rank; the
    files' paths. A file already there with the same track is left as it is; one holding
    anything else stops the export before a file is written. Every file lands inside
    ``folder`` (its resolved path checked) and reads back as the track it holds."""
    from trackkit.games.base import parse_track_toml  # the interface, not a game

    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise TrackkitError(f"{shown(target)} is a file: export into a folder")
    try:
        inside = target.resolve()
    except (OSError, RuntimeError):
        raise TrackkitError(f"{shown(target)}: the folder's path cannot be resolved") from None
    from trackkit.games import get_ruleset  # the registry, not a game

    codec = get_ruleset(found.plan.game).design_codec
    planned, paths = [], []
    for row in found.rows:
        track = row_track(row, found.plan)
        path = target / export_file(row, found.plan)
        try:
            escapes = path.resolve().parent != inside
        except (OSError, RuntimeError):  # a loop of links
            escapes = True
        if escapes:
            raise TrackkitError(
                f"{shown(path)} leads out of the export folder (a link?): export into "
                "another folder (nothing was written)"
            )
        paths.append(path)
        text = codec.file_text(track, target)
        try:
            parse_track_toml(text, source=path.name, base=target)
        except TrackkitError as error:
            raise SweepFolderError(
                found.folder,
                f"rank {row['rank']}",
                f"the track would not read back from a file ({error}): {REDO}",
            ) from None
        if path.exists():
            try:
                same = path.is_file() and path.read_text("utf-8") == text
            except (OSError, UnicodeDecodeError):
                same = False
            if not same:
                raise TrackkitError(
                    f"{shown(path)} exists and holds something else: export into another "
                    "folder (nothing was written)"
                )
            continue
        planned.append((text, path))
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise TrackkitError(f"{shown(target)}: cannot make the folder: {error}") from None
    for text, path in planned:
        write_text(output_path(path, overwrite=False, suffixes=(".toml",)), text)
    return paths
