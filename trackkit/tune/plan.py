"""A tune planned before any candidate is raced: the content it starts from, the values it
may move, the panel of tracks and player counts, the targets, and the search's settings;
everything a tune file or the command line got wrong is said here, in one line, before
anything is written.

>>> TuneSettings(budget=10).workers
1
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trackkit.errors import TrackkitError, TuneFileError, shown
from trackkit.games import DEFAULT_GAME, get_ruleset
from trackkit.games.base import load_track
from trackkit.limits import TUNE_RACES, CostLimitError
from trackkit.tune.content_files import ContentFiles, Parameter, resolve_moves
from trackkit.tune.evaluate import Panel, ShareTarget, Targets, check_reachable
from trackkit.tune.spec import TuneSpec, check_resolution

MAX_PLAYERS_DEFAULT = 8  # a panel's counts by default: 2 to this, within the game's bounds
CONFIRM_FACTOR = 10  # confirmation races by default: this many times the search's
# What a candidate costs beside its races, counted as the races that take as long: asking
# Optuna for it, recording it in the journal (a synced write for each value it moves),
# building and loading its content, and setting up each track and count of the panel.
# Measured on this 2-core machine, one core, with `.venv/bin/python tests/tune/overhead.py`
# (150 candidates on First run at 3 and 5 players, 100 races each, 4 and 32 values moved;
# a race 8.4-18.8 µs with the machine's load): a candidate 14.8-36.3 ms beside its races
# (1,765-1,935 races), a value 1.2-3.4 ms (142-182), a track and count 1.7-4.4 ms
# (200-235). Optuna's proposal grows with the candidates raced (4 ms an ask after 100,
# 11 ms after 1,500, about 800 races more): a candidate is counted as 3,000.
CANDIDATE_RACES = 3_000
PARAMETER_RACES = 200  # for each value a candidate may move
CONFIG_RACES = 250  # for each track and player count of the panel


@dataclass(frozen=True)
class TuneSettings:
    """What the command line or the app changes of a tune file's search (None: the
    file's): the content to start from, the budget of candidates, a time limit in
    seconds, the seed, the races per track and count, the confirmation's races, and the
    worker processes (the same numbers with any number of them)."""

    content: str | None = None
    budget: int | None = None
    seconds: float | None = None
    seed: int | None = None
    races: int | None = None
    confirm_races: int | None = None
    workers: int = 1


@dataclass(frozen=True)
class TunePlan:
    """A tune ready to run: the game, the start folder and its files, the parameters, the
    panel (the search's races and seed), the targets, and how it searches and confirms."""

    spec: TuneSpec
    ruleset: Any
    folder: Path
    files: ContentFiles
    parameters: tuple[Parameter, ...]
    panel: Panel
    labels: tuple[str, ...]
    targets: Targets
    budget: int
    seconds: float | None
    seed: int
    confirm_races: int

    @property
    def start_values(self) -> dict[str, int]:
        return {p.name: p.start for p in self.parameters}

    @property
    def confirmation(self) -> Panel:
        """The panel the start and the best are raced on again: more races, another seed."""
        return self.panel.with_races(self.confirm_races, self.seed + 1)

    @property
    def recheck(self) -> Panel:
        """The panel the search's best candidates are raced on again to choose among them:
        the confirmation's races, a seed of its own (choosing and confirming on one seed
        would report the luck the choice picked)."""
        return self.panel.with_races(self.confirm_races, self.seed + 2)

    @property
    def races_in_all(self) -> int:
        """The races the tune may run: every candidate of the budget on the panel, then the
        search's best and the start raced again to choose among them (``recheck``), and
        the start and the best to confirm."""
        configs = len(self.panel.configs)
        recheck = min(self.spec.recheck, self.budget)
        again = (recheck + 1 if recheck > 1 else 0) + 2
        return self.budget * configs * self.panel.races + again * configs * self.confirm_races

    @property
    def cost(self) -> int:
        """What the tune costs, in races: :attr:`races_in_all`, and what each candidate
        (the search's, the rechecked and the confirmed) costs beside its races (asking,
        recording, building and loading it; setting up each track and count) counted as
        the races that take as long. The ``tune_races`` limit bounds it."""
        configs = len(self.panel.configs)
        recheck = min(self.spec.recheck, self.budget)
        candidates = self.budget + (recheck + 1 if recheck > 1 else 0) + 2
        overhead = CANDIDATE_RACES + PARAMETER_RACES * len(self.parameters)
        return self.races_in_all + candidates * (overhead + CONFIG_RACES * configs)

    def fingerprint(self) -> str:
        """What a resumed tune must share with the one it resumes: the tune file, the
        starting content, the panel's races, seed and group."""
        digest = hashlib.sha256(self.spec.text.encode())
        for name, document in sorted(self.files.documents.items()):
            digest.update(name.encode())
            digest.update(document.as_string().encode())
        digest.update(f"{self.panel.races}/{self.panel.seed}/{self.panel.group}".encode())
        return digest.hexdigest()


def plan_tune(spec: TuneSpec, settings: TuneSettings | None = None) -> TunePlan:
    """``spec`` with ``settings`` checked against its game and its content folder."""
    settings = settings or TuneSettings()
    ruleset = get_ruleset(spec.game or DEFAULT_GAME)
    seed = spec.seed if settings.seed is None else settings.seed
    races = spec.races if settings.races is None else settings.races
    folder = start_folder(spec, settings.content, ruleset)
    content = ruleset.load_content(folder)  # the folder as it is must load
    files = ContentFiles.read(folder)
    parameters = resolve_moves(spec, files)
    panel = build_panel(spec, ruleset, races, seed)
    labels = _labels(spec, panel, content)
    confirm = settings.confirm_races or spec.confirm_races or CONFIRM_FACTOR * races
    check_resolution(spec, panel.players, len(labels), confirm)
    targets = Targets(
        spec.win_share,
        spec.scope,
        _held(spec, spec.labels, labels, "targets.labels"),
        spec.length_change,
        spec.length,
        spec.fewest_changes,
        tuple(
            ShareTarget(
                a.win_share,
                a.scope,
                _held(spec, a.labels, labels, f"targets.also[{i}].labels"),
                a.direction,
            )
            for i, a in enumerate(spec.also)
        ),
        spec.direction,
        spec.hold_others,
    )
    moved = (p.entry for p in parameters)
    check_reachable(spec.path, targets, labels, panel.players, moved, files.documents)
    budget = spec.budget if settings.budget is None else settings.budget
    plan = TunePlan(
        spec, ruleset, folder, files, parameters, panel, labels, targets, budget,
        settings.seconds, seed, confirm,
    )  # fmt: skip
    if not TUNE_RACES.allows(plan.cost):
        raise CostLimitError(
            f"this tune would need {plan.cost:,} races in all ({plan.races_in_all:,} races, "
            f"and {plan.cost - plan.races_in_all:,} for asking, building and loading its "
            "candidates, counted as the races that take as long); the limit is "
            f"{TUNE_RACES.value():,}: {TUNE_RACES.fix}"
        )
    return plan


def start_folder(spec: TuneSpec, content: str | None, ruleset: Any) -> Path:
    """The content folder a tune starts from: ``content`` (the command line's: a folder or
    a bundled content's name), else the tune file's (beside it), else the game's bundled."""
    names = ruleset.contents() if ruleset.contents is not None else ()
    for given, beside in ((content, Path()), (spec.content, spec.folder)):
        if given is None:
            continue
        if given in names and not (beside / given).exists():
            return Path(ruleset.content_folder(given))
        return beside / given
    return Path(ruleset.content_folder())


def build_panel(spec: TuneSpec, ruleset: Any, races: int, seed: int) -> Panel:
    """The tracks and player counts of the tune file (default: the game's presets, 2 to 8
    players within the game's race bounds), checked."""
    tracks = []
    for name in spec.tracks or tuple(ruleset.presets()):
        if name in ruleset.presets():
            tracks.append((name, ruleset.load_preset(name)))
            continue
        try:
            track = load_track(spec.folder / name)
        except TrackkitError as error:
            raise TuneFileError(spec.path, "balance.tracks", str(error)) from None
        if track.game != ruleset.name:
            raise TuneFileError(
                spec.path,
                "balance.tracks",
                f"{shown(name)} is a {get_ruleset(track.game).title} track; this tune "
                f"balances {ruleset.title} content",
            )
        tracks.append((name, track))
    bounds = ruleset.players
    players = spec.players or tuple(
        range(max(2, bounds.race_min), min(MAX_PLAYERS_DEFAULT, bounds.race_max) + 1)
    )
    for count in players:
        if not bounds.race_min <= count <= bounds.race_max:
            raise TuneFileError(
                spec.path,
                "balance.players",
                f"{ruleset.title} races {bounds.race_min} to {bounds.race_max} players, "
                f"not {count}",
            )
    return Panel(ruleset, tuple(tracks), tuple(players), spec.group or "character", races, seed)


def _labels(spec: TuneSpec, panel: Panel, content: Any) -> tuple[str, ...]:
    """The labels of the group balanced (one race tells them)."""
    from trackkit.sim.montecarlo import simulate

    _, track = panel.tracks[0]
    options = panel.ruleset.options(players=max(panel.players), content=content)
    result = simulate(track, options, races=1, seed=panel.seed)
    if panel.group not in result.totals.groups:
        known = ", ".join(result.totals.groups)
        raise TuneFileError(
            spec.path,
            "balance.group",
            f"the races report no group {panel.group!r}; use one of {known}",
        )
    return tuple(result.group(panel.group).labels)


def _held(
    spec: TuneSpec, named: tuple[str, ...] | None, labels: tuple[str, ...], where: str
) -> tuple[int, ...] | None:
    """The indices of the labels a win-share target names (None: all)."""
    if named is None:
        return None
    folded = [label.casefold() for label in labels]
    held = []
    for name in named:
        if name.strip().casefold() not in folded:
            raise TuneFileError(
                spec.path,
                where,
                f"no {shown(name, 60)!r} races; the labels are {shown(', '.join(labels), 200)}",
            )
        held.append(folded.index(name.strip().casefold()))
    return tuple(held)
