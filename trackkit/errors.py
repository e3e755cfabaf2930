"""Errors a user can act on.

Every error raised for bad input is a :class:`TrackkitError`: its message names what
is wrong, where (file and field when there is one) and how to fix it. The CLI and the
app catch it at the edge and show the message without a traceback.
"""

from __future__ import annotations


class TrackkitError(Exception):
    """Bad input: an unreadable or malformed file, an unknown name, an impossible option."""


class LocatedError(TrackkitError):
    """A problem in a file, located by the file and the field."""

    def __init__(self, path: str, field: str | None, problem: str) -> None:
        self.path = path
        self.field = field
        self.problem = problem
        where = f"{path}: {field}" if field else path
        super().__init__(f"{where}: {problem}")


class TileFileError(LocatedError):
    """A tile or tile-set file that cannot be used."""


class TrackFileError(LocatedError):
    """A track file (or a shared link, or an upload) that cannot be read."""
