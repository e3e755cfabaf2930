"""The command line's argument types, and the flags built from a game's declared
:class:`~trackkit.games.face.Argument` values."""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from typing import Any, NoReturn

from trackkit.errors import shown
from trackkit.games.face import Argument

EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE = 0, 1, 2
MAX_SEED = 2**64  # seeds feed numpy's SeedSequence; 64 bits is more than enough
MAX_WORKERS = 64
_WHOLE = re.compile(r"[+-]?[0-9]+")


class Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake in one line."""

    def error(self, message: str) -> NoReturn:
        # argparse quotes what was typed: escape it, it may hold control characters
        self.exit(
            EXIT_UNUSABLE,
            f"trackkit: error: {shown(message, 500)} (see {shown(self.prog)} --help)\n",
        )


def whole(text: str) -> int:
    """A whole number in ASCII digits (``int`` would also take "١٢" and "1_000")."""
    stripped = text.strip()
    if not _WHOLE.fullmatch(stripped):
        raise argparse.ArgumentTypeError(f"{shown(text, 40)!r} is not a whole number")
    if len(stripped) > 4000:  # int() refuses 4,300 digits
        raise argparse.ArgumentTypeError(f"{shown(text, 40)} is far too large")
    return int(stripped)


def bounded(low: int, high: int, rule: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``; ``rule`` says the range
    in words, with ``{low}`` and ``{high}``."""

    def parse(text: str) -> int:
        value = whole(text)
        if not low <= value <= high:
            said = rule.format(low=f"{low:,}", high=f"{high:,}")
            raise argparse.ArgumentTypeError(f"{said}, not {shown(f'{value:,}', 60)}")
        return value

    return parse


def number(what: str, low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a number from ``low`` to ``high`` (``what`` names it)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{what} is a number from {low:g} to {high:g}, not {text!r}"
            )
        return value

    return parse


def precision(text: str) -> float:
    """``--precision``: a number strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the precision is a number, not {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"the precision is between 0 and 1, not {text}")
    return value


def names(text: str) -> tuple[str, ...]:
    """A comma-separated list, as typed (the library resolves names, prefixes, numbers)."""
    return tuple(name.strip() for name in text.split(","))


def _read_by(argument: Argument) -> Callable[[str], Any]:
    """The argparse type of a declared argument: its own ``parse``'s ``ValueError`` is a
    usage mistake said in one line."""
    read = argument.parse
    assert read is not None

    def parse(text: str) -> Any:
        try:
            return read(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


def _type(argument: Argument) -> Callable[[str], Any] | None:
    words = argument.name.replace("_", " ")
    if argument.parse is not None:
        return _read_by(argument)
    if argument.kind == "int":
        low, high = int(argument.low or 0), int(argument.high if argument.high is not None else 0)
        return bounded(low, high, argument.rule or f"{words} is {{low}} to {{high}}")
    if argument.kind == "float":
        return number(words, argument.low or 0.0, argument.high or math.inf)
    if argument.kind == "names":
        return names
    return None


def add_argument(parser: argparse.ArgumentParser, argument: Argument) -> None:
    """``argument`` as a flag (or a positional argument) of ``parser``: a value given lands
    under its name; one not given is its default for a number, else None (a switch: None
    unless turned over), so a caller tells the user's choices from the game's defaults."""
    if argument.positional:
        parser.add_argument(argument.name, nargs=argument.count, help=argument.help)
        return
    flags = [argument.flag] + ([argument.short] if argument.short else [])
    if argument.kind == "switch":
        parser.add_argument(
            *flags,
            dest=argument.name,
            action="store_const",
            const=not argument.default,
            default=None,
            help=argument.help,
        )
        return
    extra: dict[str, Any] = {"choices": argument.choices} if argument.choices else {}
    if argument.count is not None:
        extra["nargs"] = argument.count
    if argument.kind in ("int", "float") or argument.required:
        extra["default"] = argument.default  # a number's default is printed in its help
    parser.add_argument(
        *flags,
        dest=argument.name,
        type=_type(argument),
        metavar=argument.metavar,
        required=argument.required,
        help=argument.help,
        **extra,
    )
