"""Reading the data files a user gives: the one place tile, track and content files are read.

Every way a file can be unusable becomes a one-line :class:`~trackkit.errors.LocatedError`
of the caller's class (:class:`~trackkit.errors.TileFileError`, ...) naming the file, the
field and the fix, never a traceback and never a hang:

- the path: a NUL byte, a name too long for the file system, a loop of symbolic links, no
  permission, nothing there (the path is shown escaped and shortened);
- the kind of file: a folder, a named pipe, a device or a socket is refused *before* it
  is opened (a pipe with no writer would block the read forever), and a file over
  :data:`MAX_FILE_BYTES` is refused unread;
- the bytes: text that is not UTF-8 (the first bad byte is named), a UTF-8 byte-order
  mark is accepted;
- the TOML: a syntax error (with its line and column), nesting too deep for the parser,
  a number too long to convert, and strings holding control characters (they would
  reach terminals and error lines);
- the fields: a pydantic model checks them, and the first problem is reported with its
  field (``placements[2].rotation``) and a hint how to fix it.

>>> from trackkit.errors import TrackFileError
>>> parse_toml("x = [[[1]]]", "mine.toml", TrackFileError)
{'x': [[[1]]]}
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from trackkit.errors import ExistingFileError, LocatedError, OutputFileError

# Far more than any tile, track or content file needs (the bundled deck is 12 kB); keeps a
# wrong file (a video called deck.toml) from being read into memory.
MAX_FILE_BYTES = 1_000_000
MAX_PATH = 4096  # the longest path Linux accepts
# What a game's name may be (in a track, tile-set or sweep file).
GAME_NAME = r"^[a-z][a-z0-9-]{0,39}$"

Model = TypeVar("Model", bound=BaseModel)
PathLike = str | os.PathLike[str]

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)

# Control characters a data file's strings may hold: tab and line breaks (descriptions).
_ALLOWED_CONTROLS = frozenset("\t\n\r")


def describe_os_error(exc: OSError) -> str:
    """What an OSError means for a path the user gave, and what to do about it."""
    code = exc.errno
    if code == errno.ENOENT:
        return "no such file or folder"
    if code == errno.ENAMETOOLONG:
        return "the name is too long for the file system; use a shorter path"
    if code == errno.ELOOP:
        return "the path runs into a loop of symbolic links; fix or remove the link"
    if code in (errno.EACCES, errno.EPERM):
        return "permission denied; check the permissions of the file and its folders"
    if code == errno.ENOTDIR:
        return "a part of the path is a file, not a folder"
    if code == errno.EISDIR:
        return "is a folder, not a file"
    return f"cannot be used ({exc.strerror or exc})"


def _name(path: PathLike, error: type[LocatedError]) -> str:
    try:
        name = os.fspath(path)
    except TypeError:
        raise error(repr(path), None, "is not a path") from None
    if "\x00" in name:
        raise error(name, None, "the path holds a NUL byte (\\x00), which no file name can hold")
    if not name:
        raise error("''", None, "the path is empty; name a file or a folder")
    return name


def _stat(name: str, error: type[LocatedError], missing: str) -> os.stat_result:
    try:
        return os.stat(name)
    except FileNotFoundError:
        raise error(name, None, missing) from None
    except OSError as exc:
        raise error(name, None, describe_os_error(exc)) from None
    except ValueError as exc:  # a name the OS cannot encode (a lone surrogate)
        raise error(name, None, f"cannot be used as a file name ({exc})") from None


def _kind(mode: int) -> str | None:
    """'a folder', 'a named pipe', ... for anything that is not a regular file."""
    return next((kind for test, kind in _KINDS if test(mode)), None)


def _require_regular(info: os.stat_result, name: str, error: type[LocatedError]) -> None:
    kind = _kind(info.st_mode)
    if kind is not None or not stat.S_ISREG(info.st_mode):
        raise error(
            name, None, f"is {kind or 'not a regular file'}, not a data file; name a .toml file"
        )
    if info.st_size > MAX_FILE_BYTES:
        raise error(name, None, _too_big(info.st_size))


def _too_big(size: int) -> str:
    return (
        f"is {size:,} bytes; a data file holds at most {MAX_FILE_BYTES:,} bytes (1 MB): "
        "is this the right file?"
    )


def read_bytes(
    path: PathLike, error: type[LocatedError], *, missing: str = "no such file"
) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_FILE_BYTES`.

    ``missing`` is the problem reported when nothing is at ``path``.
    """
    name = _name(path, error)
    _require_regular(_stat(name, error, missing), name, error)
    # Non-blocking: if the file was swapped for a pipe since the stat, opening returns
    # at once and the fstat below refuses it.
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(name, flags)
    except OSError as exc:
        raise error(name, None, describe_os_error(exc)) from None
    try:
        with open(fd, "rb", closefd=True) as handle:
            _require_regular(os.fstat(handle.fileno()), name, error)
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise error(name, None, describe_os_error(exc)) from None
    if len(data) > MAX_FILE_BYTES:
        raise error(name, None, _too_big(len(data)))
    return data


def decode(data: bytes, source: str, error: type[LocatedError]) -> str:
    """``data`` as UTF-8 text (a leading byte-order mark dropped)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        column = len(data[line_start : exc.start].decode("utf-8", "replace")) + 1
        raise error(
            source,
            None,
            f"is not UTF-8 text (line {line}, column {column} holds the byte "
            f"0x{data[exc.start]:02x}); save it as UTF-8",
        ) from None
    return text.removeprefix("\ufeff")


def read_text(path: PathLike, error: type[LocatedError], *, missing: str = "no such file") -> str:
    """The UTF-8 text of a data file (see :func:`read_bytes`)."""
    return decode(read_bytes(path, error, missing=missing), os.fspath(path), error)


def parse_toml(text: str, source: str, error: type[LocatedError]) -> dict[str, Any]:
    """TOML text (a file's, an upload's, a link's) as a table, every failure located."""
    if len(text) > MAX_FILE_BYTES:
        raise error(source, None, _too_big(len(text.encode("utf-8", "surrogatepass"))))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(source, None, f"is not valid TOML: {exc}") from None
    except RecursionError:
        raise error(
            source,
            None,
            "nests arrays or inline tables too deeply for a data file (hundreds of levels of "
            "[ or {); a trackkit file needs at most three",
        ) from None
    except ValueError as exc:  # e.g. an integer of thousands of digits
        raise error(source, None, f"is not valid TOML: {exc}") from None
    _check_strings(data, source, error)
    return data


def _check_strings(data: dict[str, Any], source: str, error: type[LocatedError]) -> None:
    """Refuse control characters (escape sequences such as ``\\u001b``) in keys and strings."""
    # Iterative: the parser already bounded the depth, but a walk should not spend stack.
    pending: list[tuple[str, Any]] = [("", data)]
    while pending:
        where, value = pending.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                field = f"{where}.{key}" if where else key
                if _bad_control(key):
                    raise error(source, field, "a key holds a control character; remove it")
                pending.append((field, item))
        elif isinstance(value, list):
            pending.extend((f"{where}[{i}]", item) for i, item in enumerate(value))
        elif isinstance(value, str) and _bad_control(value):
            raise error(
                source,
                where,
                "holds a control character (an escape such as \\u0000 or \\u001b); "
                "a data file holds printable text",
            )


def _bad_control(text: str) -> bool:
    return not text.isprintable() and any(
        (ord(c) < 32 or 127 <= ord(c) < 160) and c not in _ALLOWED_CONTROLS for c in text
    )


def read_toml(
    path: PathLike, error: type[LocatedError], *, missing: str = "no such file"
) -> dict[str, Any]:
    """Read and parse a TOML data file (see :func:`read_bytes` and :func:`parse_toml`)."""
    return parse_toml(read_text(path, error, missing=missing), os.fspath(path), error)


# --- fields ----------------------------------------------------------------------------


def field_name(loc: tuple[Any, ...]) -> str:
    """pydantic's location ('squares', 2, 'terrain') as 'squares[2].terrain'."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def first_problem(exc: ValidationError, hints: Mapping[str, str]) -> tuple[str, str]:
    """The field and the problem to report from a validation error.

    A misspelt field shows up as one unknown field and one missing field: the unknown one
    is reported, since it names the misspelling. ``hints`` replaces pydantic's message for
    an error type (``extra_forbidden``, ``int_type``, ...) with the file format's advice.
    """
    details = exc.errors(include_url=False, include_input=False)
    detail = min(details, key=lambda e: e["type"] != "extra_forbidden")
    kind = detail["type"]
    problem = hints.get(kind) or (
        "required field is missing" if kind == "missing" else detail["msg"]
    )
    return field_name(tuple(detail["loc"])), problem.removeprefix("Value error, ")


def validated(
    model: type[Model],
    data: Any,
    source: str,
    error: type[LocatedError],
    hints: Mapping[str, str] | None = None,
) -> Model:
    """``data`` checked by ``model``; the first problem raised as ``error`` with its field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        field, problem = first_problem(exc, hints or {})
        raise error(source, field or None, problem) from None


# --- folders and output files ----------------------------------------------------------


def check_folder(path: PathLike, error: type[LocatedError], holding: str) -> Path:
    """``path`` as a folder that exists; ``holding`` says what it should hold."""
    name = _name(path, error)
    info = _stat(name, error, f"is not a folder holding {holding} (nothing is there)")
    if not stat.S_ISDIR(info.st_mode):
        kind = _kind(info.st_mode) or "a file"
        raise error(name, None, f"is not a folder holding {holding} (it is {kind})")
    return Path(name)


def files_in(folder: Path, suffix: str, error: type[LocatedError]) -> list[Path]:
    """The entries of ``folder`` whose names end in ``suffix``, sorted by name.

    Entries are only listed here: each is refused when read if it is not a regular file.
    """
    try:
        names = sorted(entry.name for entry in os.scandir(folder) if entry.name.endswith(suffix))
    except OSError as exc:
        raise error(str(folder), None, describe_os_error(exc)) from None
    return [folder / name for name in names]


def output_path(
    path: PathLike,
    *,
    overwrite: bool,
    suffixes: tuple[str, ...],
    error: type[LocatedError] = OutputFileError,
) -> Path:
    """Check a file to be written: its suffix, its folder, and what is there already.

    Only a regular file is ever replaced, and only with ``overwrite``; a folder, a pipe or
    a device is refused (writing to a pipe with no reader would block for ever).
    """
    name = _name(path, error)
    target = Path(name)
    if target.suffix.lower() not in suffixes:
        kinds = " or ".join(filter(None, (", ".join(suffixes[:-1]), suffixes[-1])))
        raise error(name, None, f"write to a {kinds} file, not {target.suffix or 'none'!r}")
    try:
        info: os.stat_result | None = os.stat(name)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise error(name, None, describe_os_error(exc)) from None
    except ValueError as exc:
        raise error(name, None, f"cannot be used as a file name ({exc})") from None
    if info is None:
        folder = target.parent
        try:
            folder_info = os.stat(folder)
        except OSError as exc:
            problem = describe_os_error(exc)
            raise error(name, None, f"its folder cannot be used: {problem}") from None
        if not stat.S_ISDIR(folder_info.st_mode):
            raise error(name, None, "a part of the path is a file, not a folder")
        return target
    kind = _kind(info.st_mode)
    if kind is not None or not stat.S_ISREG(info.st_mode):
        raise error(name, None, f"is {kind or 'not a regular file'}; name a file to write")
    if not overwrite:
        raise ExistingFileError(name, None, "already exists; choose another name")
    return target


def write_text(path: Path, text: str, error: type[LocatedError] = OutputFileError) -> Path:
    """Write ``text`` to ``path`` through a temporary file, so a failed write (a full
    disk) leaves the old file whole."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate, which no file can hold
        raise error(str(path), None, f"cannot be written: {exc}") from None
    return write_bytes(path, data, error)


def write_bytes(path: Path, data: bytes, error: type[LocatedError] = OutputFileError) -> Path:
    """Write ``data`` to ``path`` as :func:`write_text` writes a text (a PDF, a picture)."""
    # a short name: the file's own name may already be as long as the system allows
    temporary = path.with_name(f".trackkit-{os.getpid()}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except (OSError, ValueError) as exc:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        problem = describe_os_error(exc) if isinstance(exc, OSError) else str(exc)
        raise error(str(path), None, f"cannot be written: {problem}") from None
    return path
