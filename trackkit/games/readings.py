"""Readings: the rules a rulebook leaves open, and the values it does not give, each with
the readings a designer could defend, as options of the game.

A game's face declares its readings (``readings``, a tuple of :class:`Reading`). Each is
chosen like any race option: its :attr:`Reading.option` is one of the face's ``options``,
so the command line has a flag for it and the app a widget, and the face's
``race_options`` reads its value. The first of its ``values`` is the default, and ``why``
says why. ``passage`` names the rulebook passage the question depends on, so that a
player who owns the game can settle it.

A **what-if** (``what_if``, saying why) is declared like a reading but is not a reading of
the text: a designer's question (what if the rule were otherwise?) or a model a tool
needs. It is listed apart from the readings and left out of ``--robust``'s default
combinations; naming it varies it like any reading.

``trackkit readings`` lists them; ``compare --robust`` and ``profile --robust`` repeat a
comparison under every combination of them (:mod:`trackkit.explore.robust`).

>>> reading = Reading(
...     Argument("level", "who leads when two racers are level", "choice",
...              choices=("inside", "leftmost")),
...     values=("inside", "leftmost"),
...     means=("the inside lane of the next corner", "the leftmost lane"),
...     question="Who leads when two racers are level?",
...     why="the base game's rule",
...     passage="section D",
... )
>>> reading.name, reading.default, reading.label("leftmost")
('level', 'inside', 'leftmost')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trackkit.errors import TrackkitError
from trackkit.games.base import get_ruleset
from trackkit.games.face import Argument, get_face

POLICY = "policy"
"""The name under which a robustness run varies the policy, beside the readings (the same
as :data:`trackkit.explore.robust.POLICY`, which the games may not import)."""


@dataclass(frozen=True)
class Reading:
    """One open question of a rulebook and its defensible answers.

    ``option``: how a user chooses it (a ``choice`` or ``switch`` :class:`Argument`, whose
    name the face's ``race_options`` reads); ``values``: the answers as that option takes
    them, the default first; ``means``: each answer in a sentence; ``question``: what the
    rulebook leaves open; ``why``: why the default is the default; ``passage``: the
    rulebook passage it depends on (and the spec's section); ``labels``: a short word per
    value where the value itself does not read well (``True`` → ``allowed``);
    ``status``: how it is known, as the specs mark it (``R`` reconstructed, ``D``
    deduced, ``U`` unknown); ``effect``: a sentence on what changing it was measured to
    change, or empty; ``what_if``: why this is not a reading of the text but a what-if
    (empty for a reading of the text).
    """

    option: Argument
    values: tuple[Any, ...]
    means: tuple[str, ...]
    question: str
    why: str
    passage: str
    labels: tuple[str, ...] = ()
    status: str = "R"
    effect: str = ""
    what_if: str = ""

    def __post_init__(self) -> None:
        if len(self.values) < 2:
            raise ValueError(f"reading {self.name!r} needs at least two values")
        if len(self.means) != len(self.values):
            raise ValueError(f"reading {self.name!r}: one meaning per value")
        if self.labels and len(self.labels) != len(self.values):
            raise ValueError(f"reading {self.name!r}: one label per value")

    @property
    def name(self) -> str:
        return self.option.name

    @property
    def default(self) -> Any:
        return self.values[0]

    @property
    def cited(self) -> str:
        """The passage's reference without its quotation (``p. 7, Challenge``)."""
        return self.passage.split(': "')[0].strip()

    def label(self, value: Any) -> str:
        """``value`` in a word (its label, or the value itself)."""
        if self.labels and value in self.values:
            return self.labels[self.values.index(value)]
        return str(value)

    def parse(self, text: str) -> Any:
        """A value as a user types it (its label or the value), or :class:`TrackkitError`."""
        for value in self.values:
            if text in (str(value), self.label(value)):
                return value
        words = ", ".join(self.label(value) for value in self.values)
        raise TrackkitError(f"{self.name} is one of {words} (not {text!r})")

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "flag": self.option.flag,
            "question": self.question,
            "values": [
                {"value": value, "label": self.label(value), "means": means}
                for value, means in zip(self.values, self.means, strict=True)
            ],
            "default": self.default,
            "why": self.why,
            "passage": self.passage,
            "status": self.status,
            "effect": self.effect,
            "what_if": self.what_if or None,
        }


def readings_of(game: str | None = None) -> tuple[Reading, ...]:
    """The readings ``game``'s face declares, what-ifs among them (none when it declares
    none)."""
    return tuple(getattr(get_face(game), "readings", ()))


def text_readings(game: str | None = None) -> tuple[Reading, ...]:
    """``game``'s readings of the text: its readings but the what-ifs."""
    return tuple(r for r in readings_of(game) if not r.what_if)


def what_ifs(game: str | None = None) -> tuple[Reading, ...]:
    """``game``'s what-ifs: declared as readings, not readings of the text."""
    return tuple(r for r in readings_of(game) if r.what_if)


def reading_named(game: str | None, name: str) -> Reading:
    """One reading of ``game`` by its name (dashes or underscores), or
    :class:`TrackkitError` naming the readings it has."""
    wanted = name.strip().replace("-", "_")
    for reading in readings_of(game):
        if reading.name == wanted:
            return reading
    known = ", ".join(r.name for r in readings_of(game)) or "none"
    raise TrackkitError(f"{name!r} is not a reading of this game (its readings: {known})")


def reading_options(readings: Sequence[Reading]) -> tuple[Argument, ...]:
    """The options through which ``readings`` are chosen, for a face's ``options``."""
    return tuple(reading.option for reading in readings)


def each_reading(game: str | None = None) -> Iterator[tuple[Reading, Any]]:
    """Every (reading, value) pair of ``game``, defaults first."""
    for reading in readings_of(game):
        for value in reading.values:
            yield reading, value


# --- what a robustness run varies, and how it races each combination ---------------------------


def varied_policies(game: str) -> tuple[str, ...]:
    """The policies a robustness run varies: the game's, but those of a ladder rung that
    plans (``Rung.plans``: a planning race costs hundreds of plain ones; the ladder is
    where planning is measured)."""
    ruleset = get_ruleset(game)
    planning = {rung.policy for rung in ruleset.ladder if rung.plans}
    return tuple(p for p in ruleset.policies if p not in planning)


def varied(
    game: str,
    picked: Sequence[str] | None,
    *,
    fixed: Mapping[str, Any] = {},
    policy_fixed: bool = False,
) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """What a robustness run of ``game`` varies, each name with its values (the default
    first): the readings, what-ifs and ``policy`` named in ``picked``, or (None) every
    reading of the text not ``fixed`` by the user (no what-if) and the policy unless
    ``policy_fixed``. A name picked twice, both picked and fixed, or one the game does not
    know is refused."""
    policies = varied_policies(game)
    if picked is None:
        chosen = [(r.name, r.values) for r in text_readings(game) if r.name not in fixed]
        if not policy_fixed and len(policies) > 1:
            chosen.append((POLICY, policies))
        return tuple(chosen)
    chosen = []
    for name in picked:
        if name.strip().replace("-", "_") == POLICY:
            if policy_fixed:
                raise TrackkitError("--policy fixes the policy that --robust would vary")
            found: tuple[str, tuple[Any, ...]] = (POLICY, policies)
        else:
            reading = reading_named(game, name)
            if reading.name in fixed:
                raise TrackkitError(
                    f"{reading.option.flag} fixes the reading {reading.name} that --robust "
                    "would vary: give one or the other"
                )
            found = (reading.name, reading.values)
        if any(found[0] == name for name, _ in chosen):
            raise TrackkitError(f"--robust names {found[0]} twice: name each reading once")
        chosen.append(found)
    return tuple(chosen)


def combinations(varies: Sequence[tuple[str, Sequence[Any]]]) -> int:
    """How many combinations ``varies`` (names and values) makes, counted, not built."""
    return math.prod(len(values) for _, values in varies)


def value_words(game: str) -> dict[str, dict[Any, str]]:
    """How each reading's values read (``{"first_round_bonus": {True: "allowed"…}}``)."""
    return {r.name: {value: r.label(value) for value in r.values} for r in readings_of(game)}


def reading_phrases(game: str) -> dict[str, str]:
    """Each reading (and the policy) as a verdict names it: ``bonus die in round 1
    (--no-first-round-bonus)``."""
    named = {r.name: f"{r.option.title.lower()} ({r.option.flag})" for r in readings_of(game)}
    return {**named, POLICY: "the policy (--policy)"}


def options_for(
    game: str,
    players: int,
    policies: tuple[str, ...] | None,
    content: str | Path | None,
    chosen: Mapping[str, Any],
) -> Callable[[Any], Any]:
    """The race options of a combination of readings (anything with ``values``, pairs of
    name and value): ``chosen`` with the combination's readings, its policy if it has one
    (else ``policies``, else the game's first)."""
    face, first = get_face(game), tuple(get_ruleset(game).policies[:1])

    def options(variant: Any) -> Any:
        values = dict(variant.values)
        policy = values.pop(POLICY, None)
        return face.race_options(
            players=players,
            policies=(policy,) if policy else (policies or first),
            content=content,
            chosen={**chosen, **values},
        )

    return options
