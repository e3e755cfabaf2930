"""Errors a user can act on.

Every error raised for bad input is a :class:`TrackkitError`: its message names what
is wrong, where (file and field when there is one) and how to fix it. The CLI and the
app catch it at the edge and show the message without a traceback.

Messages quote what the user gave (a path, a field name, a value), so they pass through
:func:`shown`: a message is always one printable line of sensible length, whatever bytes
a file name or a TOML key holds.
"""

from __future__ import annotations

# A path or a value longer than this is shortened in messages (its head and its tail are
# what a user recognises).
SHOWN_LIMIT = 120
# A whole problem text is capped too: one line a terminal can show.
PROBLEM_LIMIT = 400


def shown(text: object, limit: int = SHOWN_LIMIT) -> str:
    """``text`` made safe for a one-line message: control and other unprintable characters
    (NUL, newline, escape, bidi marks, lone surrogates) escaped as ``\\xNN``/``\\uNNNN``,
    and the middle of an over-long text replaced by ``…``.

    >>> shown("tiles\\x00/x")
    'tiles\\\\x00/x'
    >>> len(shown("a" * 5000, 40)) <= 40
    True
    """
    raw = str(text)
    if raw.isprintable():
        escaped = raw
    else:
        escaped = "".join(c if c.isprintable() else _escape(c) for c in raw)
    if len(escaped) <= limit:
        return escaped
    head = (limit - 1) * 2 // 3
    tail = limit - 1 - head
    return f"{escaped[:head]}…{escaped[-tail:] if tail else ''}"


_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


class TrackkitError(Exception):
    """Bad input: an unreadable or malformed file, an unknown name, an impossible option."""


class LocatedError(TrackkitError):
    """A problem in a file, located by the file and the field.

    ``path``, ``field`` and ``problem`` keep what was given; the message shows them safely.
    """

    def __init__(self, path: str, field: str | None, problem: str) -> None:
        self.path = path
        self.field = field
        self.problem = problem
        where = shown(path)
        if field:
            where += f": {shown(field, 80)}"
        super().__init__(f"{where}: {shown(problem, PROBLEM_LIMIT)}")


class TileFileError(LocatedError):
    """A tile or tile-set file that cannot be used."""


class TrackFileError(LocatedError):
    """A track file (or a shared link, or an upload) that cannot be read."""


class ContentFileError(LocatedError):
    """A game content file (deck, characters, advantages) that cannot be used."""


class TuneFileError(LocatedError):
    """A tune file (what ``trackkit tune`` may move, and its targets) that cannot be used."""


class OutputFileError(LocatedError):
    """A file trackkit was asked to write that cannot be written (or must not be replaced)."""


class ExistingFileError(OutputFileError):
    """A file trackkit was asked to write exists already and was not to be replaced (each
    shell says how to allow it: the command line's ``--force``)."""
