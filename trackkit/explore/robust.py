"""Conclusions that survive the unknowns: a comparison or a profile repeated under every
combination of a game's readings (:mod:`trackkit.games.readings`) and policies, and what
holds under all of them.

A **variant** is one value for each reading (and policy) varied. Every track is profiled
under every variant with the same seed (common random numbers), so a difference between
two tracks under one variant is not the luck of their draws. For each pair of tracks and
each compared figure, the difference's 95% interval under each variant decides a sign
(+, − or "not told apart"), and the verdict says:

- ``holds``: the same sign under every variant ("husky-oval is shorter than chicane under
  all 16 combinations");
- ``depends``: opposite signs, each sure at 95% jointly over the variants (Bonferroni:
  among many variants, luck alone would flip a sign at 95% each); the reading whose value
  alone decides the sign is named ("which of the two is fairer depends on the first-round
  bonus"), else "the combination";
- ``mostly``: one sign where the two are told apart, sure at 95% jointly over the variants
  (Bonferroni again: among many variants, luck alone would tell two alike tracks apart
  under one of them), and never the other sign;
- ``unclear``: not told apart under any variant (or not surely, jointly), or flipping
  without being sure of it.

"Holds" needs no such correction: it claims a difference under every variant, and each
is tested at 95% (an intersection of tests is as sure as its least sure one).

A reading (or the policy) whose values give identical races on the tracks raced (every
figure of every track the same: Snow Tails' repair draw where no sled repairs) changes
nothing there: the run keeps only its default's variants and names it as ``identical``,
so it is not counted as more combinations.

The difference's interval combines the two tracks' intervals as independent ones (the
square root of the sum of the squared half-widths on each side), which is conservative
with common random numbers: a verdict that holds, holds at least at 95% per variant.

>>> variants = product_of((("bonus", (True, False)), ("policy", ("greedy", "smart"))))
>>> [v.label({"bonus": {True: "allowed", False: "not allowed"}}) for v in variants][1:3]
['bonus allowed, policy smart', 'bonus not allowed, policy greedy']
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from statistics import NormalDist
from types import MappingProxyType
from typing import Any, Literal

from trackkit.errors import TrackkitError
from trackkit.explore.fairness import reference_tracks
from trackkit.explore.profile import PRECISION_RACES, ProfileSettings, profile_track
from trackkit.games import get_ruleset
from trackkit.limits import ROBUST_RACES

Z95 = NormalDist().inv_cdf(0.975)

POLICY = "policy"
"""The name under which a run varies the policy, beside the readings."""

MAX_VARIANTS = 256
"""The most variants one robustness run takes (pick fewer readings beyond)."""

COMPARED = ("rounds_mean", "unfairness", "balance", "start_balance", "start_spread")
"""The figures a robust comparison compares, those a game's profiles have: the length,
and the fairness of the track (its characters', its start group's)."""

RACES_USED = "races_used"
"""The races a track's profile used under a variant (more than asked with a precision)."""

Sign = Literal[1, -1, 0]
Kind = Literal["holds", "depends", "mostly", "unclear"]


Words = Mapping[str, Mapping[Any, str]]
"""How the values of each varied name read (``{"bonus": {True: "allowed"}}``)."""
NO_WORDS: Words = MappingProxyType({})


@dataclass(frozen=True)
class Variant:
    """One value for each reading varied (and the policy, when varied)."""

    values: tuple[tuple[str, Any], ...]

    def get(self, name: str, default: Any = None) -> Any:
        return dict(self.values).get(name, default)

    def label(self, words: Words = NO_WORDS) -> str:
        """The variant in words: ``tie break leftmost, policy smart``."""
        said = [
            f"{name.replace('_', ' ')} {words.get(name, {}).get(value, value)}"
            for name, value in self.values
        ]
        return ", ".join(said) or "the defaults"

    def to_json(self) -> dict[str, Any]:
        return dict(self.values)


def product_of(varied: Sequence[tuple[str, Sequence[Any]]]) -> tuple[Variant, ...]:
    """Every combination of the varied values (name and values), the first of each first;
    more than :data:`MAX_VARIANTS` are refused, counted before any is built."""
    count = math.prod(len(values) for _, values in varied)
    if count > MAX_VARIANTS:
        raise TrackkitError(
            f"{count:,} combinations of readings; the most is {MAX_VARIANTS}: "
            "name fewer readings after --robust"
        )
    names = [name for name, _ in varied]
    return tuple(
        Variant(tuple(zip(names, combo, strict=True)))
        for combo in itertools.product(*(values for _, values in varied))
    )


@dataclass(frozen=True)
class RobustRun:
    """Every track's profile figures under every variant: ``values[v][track]`` is the
    figures (with ``_low``/``_high`` intervals) of ``track`` under ``variants[v]``."""

    game: str
    players: int
    races: int
    seed: int
    variants: tuple[Variant, ...]
    tracks: tuple[str, ...]
    names: dict[str, str]
    values: tuple[dict[str, dict[str, float]], ...]
    starts: str = "start slots"  # the game's start group, in words
    titles: dict[str, str] = field(default_factory=dict)  # each figure's title, as profiled
    words: Words = field(default_factory=dict)  # how each varied value reads
    named: Mapping[str, str] = field(default_factory=dict)  # each varied name in a phrase
    identical: tuple[str, ...] = ()  # varied, their values gave identical races: not counted
    precision: float | None = None  # races added until balance's half-width is this
    max_races: int | None = None  # the most races of a track with the precision

    def title(self, key: str) -> str:
        return self.titles.get(key, key)

    def figures(self) -> tuple[str, ...]:
        """The compared figures every track has under every variant."""
        return tuple(
            key
            for key in COMPARED
            if all(_finite(by_track[t].get(key)) for by_track in self.values for t in self.tracks)
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "races": self.races,
            "seed": self.seed,
            "precision": self.precision,
            "max_races": self.max_races,
            "varied": self.variant_names(),
            "identical": list(self.identical),
            "variants": [
                {
                    "variant": variant.to_json(),
                    "label": variant.label(self.words),
                    "tracks": {t: by_track[t] for t in self.tracks},
                }
                for variant, by_track in zip(self.variants, self.values, strict=True)
            ],
        }

    def variant_names(self) -> list[str]:
        return [name for name, _ in self.variants[0].values] if self.variants else []


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)


def run_robust(
    tracks: Mapping[str, Any],
    game: str,
    *,
    variants: Sequence[Variant],
    options_for: Callable[[Variant], Any],
    settings: ProfileSettings,
    words: Words = NO_WORDS,
    named: Mapping[str, str] = MappingProxyType({}),
    progress: Callable[[int, int], None] | None = None,
) -> RobustRun:
    """Profile every track of ``tracks`` (key → track) under every one of ``variants``,
    raced with ``options_for(variant)`` (the game's options with the variant's readings),
    with ``settings`` (its races, seed, and precision up to its most races; the exact solo
    figures left out: they measure a solo race under the default rules). ``words`` and
    ``named`` say the variants in words. A varied name whose values give identical races
    is kept at its default only (:func:`without_identical`)."""
    if len(variants) > MAX_VARIANTS:
        raise TrackkitError(
            f"{len(variants)} combinations of readings; the most is {MAX_VARIANTS}: "
            "name fewer readings after --robust"
        )
    ruleset = get_ruleset(game)
    players = options_for(variants[0]).players if variants else 0
    raced = len(tracks) + len(reference_tracks(ruleset, players))
    ROBUST_RACES.check(len(variants) * raced * most_races(settings), "this robustness run")
    plain = replace(settings, exact=False, characters=False)
    values: list[dict[str, dict[str, float]]] = []
    titles: dict[str, str] = {}
    total, done = len(variants) * len(tracks), 0
    for variant in variants:
        options = options_for(variant)
        by_track = {}
        for key, track in tracks.items():
            profile = profile_track(track, plain, options=options)
            by_track[key] = {**profile.values, RACES_USED: profile.races}
            titles.update((figure.key, figure.title) for figure in profile.figures)
            done += 1
            if progress is not None:
                progress(done, total)
        values.append(by_track)
    run = RobustRun(
        game,
        players,
        settings.races,
        settings.seed,
        tuple(variants),
        tuple(tracks),
        {key: getattr(track, "name", key) for key, track in tracks.items()},
        tuple(values),
        _starts(ruleset),
        titles,
        words,
        named,
        precision=settings.precision,
        max_races=most_races(settings) if settings.precision is not None else None,
    )
    return without_identical(run)


def most_races(settings: ProfileSettings) -> int:
    """The most races ``settings`` may give one track: its races, or with a precision its
    most races (:data:`~trackkit.explore.profile.PRECISION_RACES` unless told)."""
    if settings.precision is None:
        return settings.races
    return max(settings.races, settings.max_races or PRECISION_RACES)


def _same(a: Mapping[str, float], b: Mapping[str, float]) -> bool:
    """Two tracks' figures alike, value for value (NaN alike NaN)."""
    return a.keys() == b.keys() and all(
        a[k] == b[k] or (math.isnan(a[k]) and math.isnan(b[k])) for k in a
    )


def identical_names(run: RobustRun) -> tuple[str, ...]:
    """The varied names whose values gave identical figures for every track, every other
    name held alike: on these tracks their values play the very same races."""
    found = []
    for name in run.variant_names():
        groups: dict[tuple[tuple[str, Any], ...], list[dict[str, dict[str, float]]]] = {}
        for variant, by_track in zip(run.variants, run.values, strict=True):
            rest = tuple(pair for pair in variant.values if pair[0] != name)
            groups.setdefault(rest, []).append(by_track)
        if all(
            _same(first[track], other[track])
            for first, *others in groups.values()
            for other in others
            for track in run.tracks
        ):
            found.append(name)
    return tuple(found)


def without_identical(run: RobustRun) -> RobustRun:
    """``run`` with each name whose values gave identical races (:func:`identical_names`)
    kept at its default only, and named in ``identical``: the same races under more names
    are not more combinations (nor more tests for a verdict to correct for)."""
    names = identical_names(run)
    if not names or len(run.variants) < 2:
        return run
    defaults = dict(run.variants[0].values)
    kept = [
        (Variant(tuple(p for p in variant.values if p[0] not in names)), by_track)
        for variant, by_track in zip(run.variants, run.values, strict=True)
        if all(variant.get(name) == defaults[name] for name in names)
    ]
    return replace(
        run,
        variants=tuple(variant for variant, _ in kept),
        values=tuple(by_track for _, by_track in kept),
        identical=run.identical + names,
    )


def _starts(ruleset: Any) -> str:
    """What a game calls its start group, plural (``start slots``)."""
    spec = ruleset.profile_spec
    noun = spec.start_noun if spec is not None else "start slot"
    return f"{noun}s"


# --- verdicts ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """``a − b`` of one figure under one variant, with its 95% interval."""

    value: float
    low: float
    high: float

    @property
    def sign(self) -> Sign:
        return 1 if self.low > 0 else -1 if self.high < 0 else 0

    def sure_sign(self, variants: int) -> Sign:
        """The sign where the interval, widened to 95% jointly over ``variants`` (each
        at 1 − 0.05 / variants, Bonferroni), leaves out 0: a sign that flips between
        combinations must be this sure, or luck among many combinations would find one."""
        widen = NormalDist().inv_cdf(1 - 0.025 / max(variants, 1)) / Z95
        if self.value - widen * (self.value - self.low) > 0:
            return 1
        if self.value + widen * (self.high - self.value) < 0:
            return -1
        return 0


def difference(a: Mapping[str, float], b: Mapping[str, float], key: str) -> Difference:
    """``a[key] − b[key]`` and its interval, the two intervals taken as independent."""
    value = a[key] - b[key]
    below = math.hypot(a[key] - a.get(f"{key}_low", a[key]), b.get(f"{key}_high", b[key]) - b[key])
    above = math.hypot(a.get(f"{key}_high", a[key]) - a[key], b[key] - b.get(f"{key}_low", b[key]))
    return Difference(value, value - below, value + above)


@dataclass(frozen=True)
class Verdict:
    """What one figure says of two tracks across the variants (see the module)."""

    figure: str
    a: str
    b: str
    kind: Kind
    text: str
    signs: tuple[int, ...]
    differences: tuple[Difference, ...]
    decided_by: str | None = None
    sides: dict[str, int] = field(default_factory=dict)
    first: str | None = None  # the track the text names first (its differences: it − other)

    def to_json(self) -> dict[str, Any]:
        return {
            "figure": self.figure,
            "a": self.a,
            "b": self.b,
            "kind": self.kind,
            "text": self.text,
            "decided_by": self.decided_by,
            "differences_are": "a - b",
            "differences": [
                {"value": d.value, "ci95": [d.low, d.high], "sign": d.sign}
                for d in self.differences
            ],
        }


# how each compared figure reads: the word for the track with the better value, and whether
# higher is better
WORDS = {
    "rounds_mean": ("shorter", False),
    "unfairness": ("fairer", False),
    "balance": ("fairer to the characters", True),
    "start_balance": ("fairer to the {starts}", True),
    "start_spread": ("more even across its {starts}", False),
}


def deciding_reading(run: RobustRun, signs: Sequence[int]) -> tuple[str, dict[Any, int]] | None:
    """The reading (or policy) whose value alone decides the sign where the two tracks are
    told apart: each of its values gives one sign, and not all the same."""
    names = run.variant_names()
    for name in names:
        side: dict[Any, set[int]] = {}
        for variant, sign in zip(run.variants, signs, strict=True):
            if sign:
                side.setdefault(variant.get(name), set()).add(sign)
        if all(len(s) == 1 for s in side.values()) and len({min(s) for s in side.values()}) > 1:
            return name, {value: next(iter(s)) for value, s in side.items()}
    return None


def leaning_reading(run: RobustRun, signs: Sequence[int]) -> tuple[str, Any, int, int, int] | None:
    """When no reading alone decides the sign, the value of a reading under which one sign
    holds most purely (every sign told apart there the same, as many as possible): its
    name, value, sign, and how many of the variants told apart under it have that sign
    (None when no value has one sign in three of four, at least twice)."""
    best: tuple[str, Any, int, int, int] | None = None
    for name in run.variant_names():
        by_value: dict[Any, list[int]] = {}
        for variant, sign in zip(run.variants, signs, strict=True):
            if sign:
                by_value.setdefault(variant.get(name), []).append(sign)
        for value, found in by_value.items():
            for sign in (1, -1):
                count = found.count(sign)
                key = (count / len(found), count)
                if best is None or key > (best[3] / best[4], best[3]):
                    best = (name, value, sign, count, len(found))
    if best is None or best[3] < 2 or best[3] < 0.75 * best[4]:
        return None  # no value under which one sign holds three times in four
    return best


def verdict(run: RobustRun, key: str, a: str, b: str) -> Verdict:
    """What ``key`` says of tracks ``a`` and ``b`` under every variant of ``run``."""
    diffs = tuple(difference(by_track[a], by_track[b], key) for by_track in run.values)
    word, higher_better = WORDS.get(key, (f"lower in {key}", False))
    word = word.format(starts=run.starts)
    # +1: a is better, -1: b is better; sure: at 95% jointly over the combinations
    turn = 1 if higher_better else -1
    signs = tuple(d.sign * turn for d in diffs)
    n, na, nb = len(signs), run.names[a], run.names[b]
    sure = tuple(d.sure_sign(n) * turn for d in diffs)
    told = [s for s in signs if s]
    under = "under both combinations" if n == 2 else f"under all {n} combinations" if n > 2 else ""
    if not told:
        text = f"{na} and {nb}: not told apart in {run.title(key).lower()} under any combination"
        return Verdict(key, a, b, "unclear", text, signs, diffs)
    if len(set(told)) == 1:
        best, other = (na, nb) if told[0] > 0 else (nb, na)
        first = a if told[0] > 0 else b
        if len(told) == n:
            text = f"{best} is {word} than {other} {under}".rstrip()
            return Verdict(key, a, b, "holds", text, signs, diffs, first=first)
        return _one_way(run, key, (a, b), signs, sure, diffs, (best, other, word), first)
    if len({s for s in sure if s}) < 2:
        text = (
            f"{na} and {nb}: {word} {na} under {told.count(1)}, {nb} under "
            f"{told.count(-1)} of {n} combinations, each at 95%; not sure enough over {n} "
            "combinations to say it flips (it may be luck)"
        )
        return Verdict(key, a, b, "unclear", text, signs, diffs, first=a)
    signs = sure
    told = [s for s in signs if s]
    found = deciding_reading(run, signs)
    if found is None:
        text = (
            f"which of {na} and {nb} is {word} depends on the combination "
            f"({na} under {told.count(1)}, {nb} under {told.count(-1)} of {n})"
        )
        leaning = leaning_reading(run, signs)
        if leaning is not None:
            name, value, sign, count, of = leaning
            said = run.words.get(name, {}).get(value, value)
            text += (
                f"; most with {run.named.get(name, name)}: {na if sign > 0 else nb} "
                f"under {said} in {count} of {of}"
            )
        return Verdict(key, a, b, "depends", text, signs, diffs, first=a)
    name, sides = found
    said = run.words.get(name, {})
    parts = [f"{na if sign > 0 else nb} under {said.get(v, v)}" for v, sign in sides.items()]
    text = f"which of {na} and {nb} is {word} depends on {run.named.get(name, name)}: " + "; ".join(
        parts
    )
    return Verdict(key, a, b, "depends", text, signs, diffs, name, dict(sides), first=a)


def _one_way(
    run: RobustRun,
    key: str,
    pair: tuple[str, str],
    signs: tuple[int, ...],
    sure: tuple[int, ...],
    diffs: tuple[Difference, ...],
    words: tuple[str, str, str],
    first: str,
) -> Verdict:
    """One sign where told apart, never the other, not told apart under some variants: a
    claim that one variant or more tells them apart, so sure at 95% jointly over all of
    them (among many, luck alone tells two alike tracks apart under one), else unclear."""
    (a, b), (best, other, word), n = pair, words, len(signs)
    count = sum(1 for s in sure if s)
    if not count:
        told = sum(1 for s in signs if s)
        text = (
            f"{best} is {word} than {other} under {told} of {n} combinations at 95% each, "
            f"never the other way; not sure enough over {n} combinations to say it is "
            "(it may be luck)"
        )
        return Verdict(key, a, b, "unclear", text, signs, diffs, first=first)
    text = (
        f"{best} is {word} than {other} under {count} of {n} combinations (95% jointly "
        f"over the {n}), never the other way"
    )
    return Verdict(key, a, b, "mostly", text, sure, diffs, first=first)


def verdicts(run: RobustRun) -> list[Verdict]:
    """Every compared figure's verdict on every pair of tracks."""
    found = []
    for key in run.figures():
        for a, b in itertools.combinations(run.tracks, 2):
            found.append(verdict(run, key, a, b))
    return found


# --- one track's figures across the readings ---------------------------------------------------


@dataclass(frozen=True)
class Spread:
    """One figure of one track across the variants: its value under the defaults (the
    first variant), its least and most with their variants, and the reading whose values
    move it most (the largest gap between the means over each of its values)."""

    key: str
    default: float
    default_low: float
    default_high: float
    least: float
    least_at: int
    most: float
    most_at: int
    moved_by: str | None
    moved: float
    same_everywhere: bool

    def to_json(self, run: RobustRun) -> dict[str, Any]:
        return {
            "figure": self.key,
            "default": self.default,
            "default_ci95": [self.default_low, self.default_high],
            "least": self.least,
            "least_under": run.variants[self.least_at].to_json(),
            "most": self.most,
            "most_under": run.variants[self.most_at].to_json(),
            "moved_most_by": self.moved_by,
            "moved_by_it": self.moved,
            "overlap_everywhere": self.same_everywhere,
        }


def spreads(run: RobustRun, track: str) -> list[Spread]:
    """Each sampled figure of ``track`` across the variants of ``run``."""
    rows = [by_track[track] for by_track in run.values]
    found = []
    for key in rows[0]:
        if key.endswith(("_low", "_high")) or f"{key}_low" not in rows[0]:
            continue
        values = [row.get(key, math.nan) for row in rows]
        if not all(_finite(v) for v in values):
            continue
        lows = [row[f"{key}_low"] for row in rows]
        highs = [row[f"{key}_high"] for row in rows]
        least = min(range(len(values)), key=values.__getitem__)
        most = max(range(len(values)), key=values.__getitem__)
        moved_by, moved = None, 0.0
        for name in run.variant_names():
            means: dict[Any, list[float]] = {}
            for variant, value in zip(run.variants, values, strict=True):
                means.setdefault(variant.get(name), []).append(value)
            averages = [sum(v) / len(v) for v in means.values()]
            gap = max(averages) - min(averages)
            if gap > moved:
                moved_by, moved = name, gap
        found.append(
            Spread(
                key,
                values[0],
                lows[0],
                highs[0],
                values[least],
                least,
                values[most],
                most,
                moved_by,
                moved,
                max(lows) <= min(highs),
            )
        )
    return found
