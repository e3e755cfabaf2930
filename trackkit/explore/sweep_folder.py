"""A sweep's folder: its manifest ``sweep.json`` and its partitions
``part-NNNNNN.parquet``, each written whole or not at all (under a temporary name, then
renamed into place), so a sweep that is killed leaves only whole partitions. A sweep
folder may come from anyone: every file is checked before it is used, and a
:class:`~trackkit.explore.sweep_plan.SweepFolderError` names the file, the field and
what to do.

>>> partition_file(12)
'part-000012.parquet'
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from trackkit.board.datafile import describe_os_error, read_bytes
from trackkit.errors import shown
from trackkit.explore.profile import FIGURE_KEYS
from trackkit.explore.sweep_plan import REDO, SweepFolderError, SweepPlan
from trackkit.limits import SWEEP_BYTES, CostLimitError

MANIFEST = "sweep.json"
PART_NAME = re.compile(r"part-([0-9]{6,})\.parquet")
# A manifest is some 500 bytes of flat JSON: anything far bigger or nested is not one, and
# is refused before it is parsed (a deep nesting would exhaust the parser's stack).
MANIFEST_MAX_BYTES = 64 * 1024
MANIFEST_MAX_DEPTH = 4


def partition_file(index: int) -> str:
    """The name of partition ``index``'s Parquet file in a sweep's folder."""
    return f"part-{index:06d}.parquet"


def read_manifest(folder: str | Path) -> SweepPlan | None:
    """The plan in ``folder``'s manifest, or None when it holds none. The manifest is
    untrusted: only a regular file of at most :data:`MANIFEST_MAX_BYTES` is read (never
    a pipe, which would block), its nesting is bounded before it is parsed, and every
    field is checked (:meth:`SweepPlan.from_json`)."""
    path = Path(folder) / MANIFEST
    source = str(path)
    try:
        os.lstat(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        problem = describe_os_error(error) if isinstance(error, OSError) else str(error)
        raise SweepFolderError(source, None, problem) from None
    data = read_bytes(path, SweepFolderError)
    if len(data) > MANIFEST_MAX_BYTES:
        raise SweepFolderError(
            source,
            None,
            f"is {len(data):,} bytes; a sweep manifest holds a few hundred (at most "
            f"{MANIFEST_MAX_BYTES:,}): {REDO}",
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SweepFolderError(source, None, f"is not UTF-8 text: {REDO}") from None
    depth = json_depth(text)
    if depth > MANIFEST_MAX_DEPTH:
        raise SweepFolderError(
            source,
            None,
            f"nests [ or {{ {depth:,} deep; a sweep manifest is one flat object: {REDO}",
        )
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError) as error:  # RecursionError: cannot pass the depth
        raise SweepFolderError(source, None, f"is not JSON ({error}): {REDO}") from None
    return SweepPlan.from_json(parsed, source)


def json_depth(text: str) -> int:
    """How deep ``text``'s arrays and objects nest (strings skipped), counted without
    parsing it, so a nesting too deep for the parser is refused before it runs.

    >>> json_depth('{"a": [1, "[[["], "b": {}}')
    2
    """
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def prepare_folder(folder: str | Path, plan: SweepPlan) -> bool:
    """Make ``folder`` ready for ``plan``: a new or empty folder gets the manifest, a
    folder with the same plan is resumed (True), anything else is refused untouched."""
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise SweepFolderError(str(path), None, "is a file, not a folder for a sweep")
    existing = read_manifest(path) if path.is_dir() else None
    if existing is not None:
        differences = existing.differences(plan)
        if differences:
            raise SweepFolderError(
                str(path),
                None,
                f"holds a different sweep (there vs asked: {'; '.join(differences)}): "
                "choose another folder, or ask for the same sweep to resume it",
            )
        _remove_temporaries(path)
        return True
    if path.is_dir() and any(path.iterdir()):
        raise SweepFolderError(
            str(path),
            None,
            f"holds files but no {MANIFEST}: a sweep goes into a new or empty folder",
        )
    try:
        path.mkdir(parents=True, exist_ok=True)
        _write_atomically(path / MANIFEST, json.dumps(plan.to_json(), indent=2).encode())
    except OSError as error:
        raise SweepFolderError(
            str(path), None, f"cannot write the sweep there: {describe_os_error(error)}"
        ) from None
    return False


def _temporary(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def _remove_temporaries(folder: Path) -> None:
    """Remove the half-written partitions a killed sweep left (its own files only)."""
    for leftover in folder.glob(".part-*.parquet.*.tmp"):
        with contextlib.suppress(OSError):
            leftover.unlink()


def _write_atomically(path: Path, data: bytes) -> None:
    temporary = _temporary(path)
    with open(temporary, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def write_partition(folder: Path, index: int, table: pa.Table) -> Path:
    """Write partition ``index`` whole or not at all (a temporary file renamed into place)."""
    path = folder / partition_file(index)
    temporary = _temporary(path)
    try:
        pq.write_table(table, temporary)
        with open(temporary, "rb") as file:
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise SweepFolderError(
            str(path), None, f"cannot be written: {describe_os_error(error)}"
        ) from None
    return path


def finished_partitions(folder: str | Path) -> set[int]:
    """The indexes of the partitions written whole in ``folder`` (a name only counts in
    the very form :func:`partition_file` gives it: ``part-0000001.parquet`` is not
    partition 1)."""
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return set()
    found = (m for m in map(PART_NAME.fullmatch, names) if m)
    return {int(m.group(1)) for m in found if m.group(0) == partition_file(int(m.group(1)))}


@dataclass(frozen=True)
class SweepStatus:
    """How far the sweep in a folder is: partitions and tracks done, of all."""

    plan: SweepPlan
    partitions_done: int
    tracks_done: int

    @property
    def partitions(self) -> int:
        return self.plan.partitions

    @property
    def tracks(self) -> int:
        return self.plan.tracks

    @property
    def complete(self) -> bool:
        return self.partitions_done == self.partitions


def sweep_status(folder: str | Path) -> SweepStatus:
    """The progress of the sweep in ``folder`` (a clear error if it holds none)."""
    plan = _plan_in(folder)
    done = {i for i in finished_partitions(folder) if i < plan.partitions}
    size = plan.partition_size
    last = plan.partitions - 1
    tracks = sum(size if i < last else plan.tracks - last * size for i in done)
    return SweepStatus(plan, len(done), tracks)


def _plan_in(folder: str | Path) -> SweepPlan:
    if not Path(folder).is_dir():
        raise SweepFolderError(str(folder), None, "is not a folder: there is no sweep there")
    plan = read_manifest(folder)
    if plan is None:
        raise SweepFolderError(
            str(folder), None, f"holds no sweep (no {MANIFEST}): run `trackkit sweep --out` first"
        )
    return plan


def partition_paths(folder: str | Path, plan: SweepPlan) -> list[Path]:
    """The files of ``plan``'s finished partitions, in partition order (a stray
    ``part-000999.parquet`` beyond the plan's partitions is no part of the sweep)."""
    done = sorted(i for i in finished_partitions(folder) if i < plan.partitions)
    return [Path(folder) / partition_file(i) for i in done]


# the columns every partition holds (:func:`rows_table`), besides its figures (float64)
ROW_COLUMNS = {
    "rank": pa.int64(),
    "players": pa.int64(),
    "name": pa.string(),
    "seed": pa.int64(),
    "placements": pa.string(),
}
FIGURE_COLUMN = re.compile(r"[a-z_][a-z0-9_]{0,59}")
MAX_COLUMNS = 200


# The most bytes a text cell may hold: a name of at most 200 characters (4 bytes each at
# most in UTF-8) and the placements' JSON (find's row check: 100 placements take some
# 4,500). A part's text columns are measured, still dictionary-encoded, before it is read
# whole: one long text repeated through a dictionary costs a few kilobytes on disk and
# gigabytes decoded.
TEXT_MAX_BYTES = {"name": 800, "placements": 20_000}
TEXT_COLUMNS = list(TEXT_MAX_BYTES)
# A part's pages, uncompressed, as its footer counts them: at most its rows' cells (text at
# its bound, 16 bytes for any other) and some page headers, levels and statistics per
# column chunk (a preset's row: about 45 bytes a row and 100 a chunk).
CHUNK_OVERHEAD_BYTES = 4_096


@dataclass(frozen=True)
class SweepParts:
    """A sweep's finished partition files, each checked, their columns, and what reading
    them whole decodes (text cells' bytes plus 8 for every other cell)."""

    paths: list[Path]
    schema: pa.Schema
    decoded_bytes: int = 0


def checked_parts(folder: str | Path, plan: SweepPlan) -> SweepParts:
    """The finished partitions of ``plan`` in ``folder``, each checked before it is
    queried: a regular file (a named pipe would block its reader), a Parquet file with
    the columns of a sweep and their types, as many rows as its partition holds, pages
    and text cells within their bounds (:data:`TEXT_MAX_BYTES`), and the ranks it should
    hold (in order, each once); what they decode in all is within
    :data:`~trackkit.limits.SWEEP_BYTES`. A :class:`SweepFolderError` naming the file (or
    the folder, for the limit) otherwise."""
    schemas: list[pa.Schema] = []
    paths = partition_paths(folder, plan)
    previous = -1
    decoded = 0
    for path in paths:
        index = int(PART_NAME.fullmatch(path.name).group(1))  # type: ignore[union-attr]
        expected = min(plan.partition_size, plan.tracks - index * plan.partition_size)
        schema, ranks, part_bytes = _read_part(path, index, expected)
        _check_ranks(path, plan, index, ranks, previous)
        previous = int(ranks[-1])
        schemas.append(schema)
        decoded += part_bytes
    try:
        SWEEP_BYTES.check(decoded, f"reading its {len(paths):,} parts")
    except CostLimitError as error:
        raise SweepFolderError(str(folder), None, str(error)) from None
    try:
        schema = pa.unify_schemas(schemas) if schemas else pa.schema([])
    except (pa.ArrowException, ValueError) as error:
        raise SweepFolderError(str(folder), None, f"its parts disagree ({error}): {REDO}") from None
    return SweepParts(paths, schema, decoded)


def _read_part(path: Path, index: int, expected: int) -> tuple[pa.Schema, np.ndarray, int]:
    """A partition file's schema, ranks and decoded bytes, read through a handle checked
    to be a regular file (opened without blocking, so a pipe swapped in is refused too);
    its footer's rows and page sizes are checked before any page is read, and its text
    columns are read dictionary-encoded and measured."""
    source = str(path)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise SweepFolderError(source, None, f"is not a regular file: {REDO}")
        fd = os.open(path, flags)
    except OSError as error:
        raise SweepFolderError(source, None, describe_os_error(error)) from None
    with open(fd, "rb", closefd=True) as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise SweepFolderError(source, None, f"is not a regular file: {REDO}")
        try:
            part = pq.ParquetFile(handle)
            schema = part.schema_arrow
            _check_columns(path, schema)
            _check_footer(path, part.metadata, index, expected)
            # the text columns as their dictionaries and indices: never one text per row
            texts = pq.ParquetFile(handle, metadata=part.metadata, read_dictionary=TEXT_COLUMNS)
            table = texts.read(columns=["rank", *TEXT_COLUMNS])
            text_bytes = sum(_text_bytes(path, name, table.column(name)) for name in TEXT_COLUMNS)
            ranks = table.column("rank")
        except (pa.ArrowException, OSError, ValueError) as error:
            problem = f"is not a sweep's Parquet file ({shown(error, 200)}): {REDO}"
            raise SweepFolderError(source, None, problem) from None
    if ranks.null_count:
        raise SweepFolderError(source, "rank", f"has empty cells: {REDO}")
    other_cells = expected * (len(schema) - len(TEXT_COLUMNS))
    return schema, ranks.to_numpy(), text_bytes + 8 * other_cells


def _check_footer(path: Path, metadata: pq.FileMetaData, index: int, expected: int) -> None:
    """The part's footer: its partition's rows, and pages no larger uncompressed than
    those rows' cells can fill (so no page read to check it holds more)."""
    if metadata.num_rows != expected:
        raise SweepFolderError(
            str(path),
            None,
            f"holds {metadata.num_rows:,} tracks; partition {index} of this sweep holds "
            f"{expected:,}: {REDO}",
        )
    groups, columns = metadata.num_row_groups, metadata.num_columns
    if groups > max(1, expected):
        raise SweepFolderError(str(path), None, f"has {groups:,} row groups: {REDO}")
    chunks = [metadata.row_group(g).column(c) for g in range(groups) for c in range(columns)]
    pages = sum(max(0, chunk.total_uncompressed_size) for chunk in chunks)
    row_bytes = sum(TEXT_MAX_BYTES.values()) + 16 * columns
    bound = expected * row_bytes + CHUNK_OVERHEAD_BYTES * len(chunks)
    if pages > bound:
        raise SweepFolderError(
            str(path),
            None,
            f"its pages hold {pages:,} bytes uncompressed; {expected:,} tracks fill at most "
            f"{bound:,}: {REDO}",
        )


def _text_bytes(path: Path, name: str, column: pa.ChunkedArray) -> int:
    """The bytes of a text column's cells decoded, each checked within
    :data:`TEXT_MAX_BYTES` (measured on the dictionary: a long text repeated is measured
    once and counted as often as it is used)."""
    total = 0
    for chunk in column.chunks:
        if pa.types.is_dictionary(chunk.type):
            lengths = pc.binary_length(chunk.dictionary)
            used = pc.take(lengths, chunk.indices)
        else:
            lengths = used = pc.binary_length(chunk)
        longest = pc.max(lengths).as_py() or 0
        if longest > TEXT_MAX_BYTES[name]:
            raise SweepFolderError(
                str(path),
                name,
                f"holds a text of {longest:,} bytes; a cell holds at most "
                f"{TEXT_MAX_BYTES[name]:,}: {REDO}",
            )
        total += pc.sum(used).as_py() or 0
    return total


def _check_columns(path: Path, schema: pa.Schema) -> None:
    if len(schema) > MAX_COLUMNS:
        raise SweepFolderError(str(path), None, f"has {len(schema):,} columns: {REDO}")
    names = schema.names
    for name, kind in ROW_COLUMNS.items():
        if name not in names:
            raise SweepFolderError(str(path), name, f"the column is missing: {REDO}")
        if schema.field(name).type != kind:
            raise SweepFolderError(
                str(path), name, f"is a column of {schema.field(name).type}, not {kind}: {REDO}"
            )
    if len(set(names)) != len(names):
        raise SweepFolderError(str(path), None, f"names a column twice: {REDO}")
    for field in schema:
        if field.name in ROW_COLUMNS:
            continue
        if not FIGURE_COLUMN.fullmatch(field.name):
            raise SweepFolderError(str(path), None, f"has a column of no figure's name: {REDO}")
        if field.type != pa.float64():
            raise SweepFolderError(
                str(path), field.name, f"is a column of {field.type}, not float64: {REDO}"
            )
    # a sweep before the skill figure, or one that left it out, has no skill columns
    missing = [key for key in FIGURE_KEYS if key not in names and not key.startswith("skill")]
    if missing:
        raise SweepFolderError(str(path), missing[0], f"the column is missing: {REDO}")


def _check_ranks(path: Path, plan: SweepPlan, index: int, ranks: np.ndarray, previous: int) -> None:
    """Partition ``index`` holds its tracks' ranks in order, each once: the plan's
    consecutive ranks, or (a sample) ranks of the space above the last partition's."""
    size = plan.partition_size
    expected = min(size, plan.tracks - index * size)
    if ranks.shape[0] != expected:
        raise SweepFolderError(
            str(path),
            None,
            f"holds {ranks.shape[0]:,} tracks; partition {index} of this sweep holds "
            f"{expected:,}: {REDO}",
        )
    if plan.sample is None:
        start = index * size
        right = bool(np.array_equal(ranks, np.arange(start, start + expected)))
    else:
        right = bool(
            ranks[0] > previous
            and ranks[-1] < plan.space_size
            and (expected == 1 or np.all(np.diff(ranks) > 0))
        )
    if not right:
        raise SweepFolderError(
            str(path), "rank", f"does not hold partition {index}'s ranks in order: {REDO}"
        )


@dataclass(frozen=True)
class SweepTable:
    """The rows of a sweep's finished partitions (sorted by rank) and its status."""

    status: SweepStatus
    table: pa.Table

    @property
    def complete(self) -> bool:
        return self.status.complete

    def to_pandas(self) -> Any:
        return self.table.to_pandas()


def read_sweep(folder: str | Path, columns: Sequence[str] | None = None) -> SweepTable:
    """Every finished row of the sweep in ``folder`` (or only ``columns``), sorted by rank,
    with how complete the sweep is."""
    status = sweep_status(folder)
    parts = checked_parts(folder, status.plan)
    if not parts.paths:
        return SweepTable(status, pa.table({"rank": pa.array([], pa.int64())}))
    wanted = list(columns) if columns is not None else None
    if wanted is not None and "rank" not in wanted:
        wanted.insert(0, "rank")
    try:
        tables = [pq.read_table(p, columns=wanted, schema=parts.schema) for p in parts.paths]
        table = pa.concat_tables(tables)
    except (pa.ArrowException, OSError, ValueError):
        # the error's text may name the server's paths, and the app shows this message
        raise SweepFolderError(str(folder), None, f"its parts cannot be read: {REDO}") from None
    return SweepTable(status, table.sort_by("rank"))
