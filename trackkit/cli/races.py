"""Race options from the command line: the shared ones (players, policy, content, seed)
and each game's own, declared by its face, with a game's flag refused on another game."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from trackkit.cli.arguments import MAX_SEED, add_argument, bounded
from trackkit.errors import TrackkitError
from trackkit.games import get_ruleset, rulesets
from trackkit.games.face import Argument, Game, chosen_values, get_face, policies_of

seed_type = bounded(0, MAX_SEED - 1, "the seed is a whole number from {low} to {high} (2**64 - 1)")


def _bounds(low: str, high: str, games: Sequence[str] | None = None) -> tuple[int, int]:
    counts = [get_ruleset(name).players for name in games or rulesets()]
    return min(getattr(g, low) for g in counts), max(getattr(g, high) for g in counts)


def _per_game(low: str, high: str, games: Sequence[str] | None = None) -> str:
    return ", ".join(
        f"{get_ruleset(name).title} {getattr(get_ruleset(name).players, low)}-"
        f"{getattr(get_ruleset(name).players, high)}"
        for name in games or rulesets()
    )


def race_players(default: int | None = 5, games: Sequence[str] | None = None) -> Argument:
    """``--players`` of a race, within the bounds of ``games`` (None: every game's; each
    game's options refuse a count it does not take)."""
    low, high = _bounds("race_min", "race_max", games)
    said = f"default {default}" if default is not None else "required"
    return Argument(
        "players",
        f"{_per_game('race_min', 'race_max', games)} ({said})",
        "int",
        default=default,
        low=low,
        high=high,
        required=default is None,
        rule="a race has {low} to {high} players",
    )


def build_players(required: bool = False) -> Argument:
    """``--players`` of the track-building rule, within every game's bounds."""
    low, high = _bounds("build_min", "build_max")
    return Argument(
        "players",
        f"apply the track-building rule ({_per_game('build_min', 'build_max')})",
        "int",
        low=low,
        high=high,
        required=required,
        rule="the building rule is for {low} to {high} players",
    )


def game_options(games: Sequence[str] | None = None) -> dict[str, tuple[str, Argument]]:
    """The own race options of ``games`` (None: every game's) by name, with the game
    declaring each."""
    found: dict[str, tuple[str, Argument]] = {}
    for name in games or rulesets():
        for option in get_face(name).options:
            found.setdefault(option.name, (name, option))
    return found


def add_race_arguments(
    parser: argparse.ArgumentParser, players: int | None = 5, game: str | None = None
) -> None:
    """The race options of every game (a game's own marked with its title), or of ``game``
    alone for a command of that game's (it lists no flag it would refuse)."""
    games = [game] if game is not None else list(rulesets())
    if players is not None:
        add_argument(parser, race_players(players, games))
    known = "; ".join(
        f"{get_ruleset(name).title}: {', '.join(get_ruleset(name).policies)}" for name in games
    )
    parser.add_argument(
        "--policy",
        help="how racers play: one policy for all, or one per racer separated by commas "
        f"(default: the game's first) — {known}",
    )
    everyone = {o.name for o in get_face(games[0]).options}
    for name in games[1:]:
        everyone &= {o.name for o in get_face(name).options}
    for owner, option in game_options(games).values():
        if option.name in everyone and len(games) > 1:  # every game's: no game named
            add_argument(parser, option)
        else:
            add_argument(parser, replace(option, help=f"{get_ruleset(owner).title}: {option.help}"))
    parser.add_argument("--content", metavar="DIR", help="your own content folder (deck…)")
    parser.add_argument("--seed", type=seed_type, default=0, help="0 to 2**64 - 1")


def race_options(
    game: Game, args: argparse.Namespace, defaults: Mapping[str, Any] | None = None
) -> Any:
    """The race options of ``game`` from the command line: another game's option given is
    refused by its flag; ``defaults`` (a profile's choices) stand where the user chose
    nothing."""
    values = vars(args)
    own = {option.name for option in game.face.options}
    for name, (_, option) in game_options().items():
        if name not in own and values.get(name) is not None:
            raise TrackkitError(f"{option.flag} is not an option of {game.title} races")
    chosen = {**(defaults or {}), **chosen_values(game.face.options, values)}
    return game.face.race_options(
        players=args.players,
        policies=policies_of(args.policy) if args.policy else game.ruleset.policies[:1],
        content=args.content,
        chosen=chosen,
    )


@contextmanager
def progress_bar(
    args: argparse.Namespace, total: int | None, unit: str = "race"
) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on a terminal (stderr), closed however the work ends; yields the
    callback to give the work (``None``, no bar, for ``--json`` or when not a terminal)."""
    import sys

    if args.json or not sys.stderr.isatty():
        yield None
        return
    from tqdm import tqdm

    bar = tqdm(total=total, unit=unit, file=sys.stderr, leave=False)

    def update(done: int, total_now: int) -> None:
        bar.total = total_now
        bar.update(done - bar.n)

    try:
        yield update
    finally:
        bar.close()
