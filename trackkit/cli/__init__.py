"""The ``trackkit`` command line: a thin shell over the library.

Every command takes a preset slug or a track file, prints readable text (JSON with
``--json``) and exits 0 on success, 1 when a validation finds problems and 2 on unusable
input, with a one-line error and no traceback. The commands are the same for every game
(:mod:`.commands`), plus each game's own, built from what its face declares
(:mod:`trackkit.games.face`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from trackkit.cli.arguments import EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE
from trackkit.cli.tracks import resolve_track
from trackkit.errors import ExistingFileError, TrackkitError, shown
from trackkit.games.face import Shown

__all__ = ["EXIT_OK", "EXIT_PROBLEMS", "EXIT_UNUSABLE", "build_parser", "main", "resolve_track"]


def build_parser() -> Any:
    """The whole ``trackkit`` parser (:mod:`.parser`)."""
    from trackkit.cli.parser import build_parser as build

    return build()


def _print(what: Any, as_json: bool) -> None:
    """Data as JSON, text as it is; an iterator line by line as it comes."""
    if isinstance(what, str | dict | list) or what is None:
        print(json.dumps(what, indent=2) if as_json else what)
        return
    for line in what:
        print(line)


def _run(args: Any) -> int:
    outcome = args.handler(args)
    # a Shown is a tuple itself: a command's exit code comes as (Shown, code)
    shown_, code = (outcome, EXIT_OK) if isinstance(outcome, Shown) else outcome
    if args.json:
        _print(shown_.data, True)
    else:
        _print(shown_.text, False)
    return int(code)


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(given)
    args.argv = given  # the command as typed: a tune marks the values it set with it
    try:
        return _run(args)
    except ExistingFileError as error:
        # the library says the file exists; how to replace it is this shell's --force
        print(f"trackkit: error: {shown(f'{error} or pass --force', 2000)}", file=sys.stderr)
        return EXIT_UNUSABLE
    except TrackkitError as error:
        # one line, whatever a path or a name in the message holds
        print(f"trackkit: error: {shown(error, 2000)}", file=sys.stderr)
        return EXIT_UNUSABLE
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        print("trackkit: interrupted", file=sys.stderr)
        return 130
