"""Property tests: a garbled track file or content folder loads or fails with one located
line, never another exception; on any track that loads, the course builds, its geometry
holds, the validator answers without crashing, and a tiny race runs on a valid track and
is refused (a :class:`TrackkitError`) on one the validator rejects; and no board over the
validation limit gets as far as listing its spaces."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from trackkit import limits
from trackkit.errors import TrackkitError
from trackkit.games.snowtails.core import course as course_module
from trackkit.games.snowtails.core.check import validate_track
from trackkit.games.snowtails.core.content import Components, Deck
from trackkit.games.snowtails.core.course import board_spaces, build_course
from trackkit.games.snowtails.core.options import RaceOptions
from trackkit.games.snowtails.core.presets import PRESET_SLUGS, load_preset, preset_text
from trackkit.games.snowtails.core.ruleset import RULESET
from trackkit.games.snowtails.core.track import (
    MAX_LANES,
    MAX_ROWS,
    SnowTrack,
    load_track,
    parse_track,
    parse_track_toml,
)
from trackkit.limits import BOARD_SPACES, CostLimitError
from trackkit.sim.montecarlo import simulate

FUZZ = settings(
    deadline=None,
    derandomize=True,
    max_examples=150,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TEXTS = {slug: preset_text(slug) for slug in PRESET_SLUGS}
TABLES = {slug: tomllib.loads(text) for slug, text in TEXTS.items()}
WORDS = ["left", "right", "forward", "reversed", "kennels", "tavern", "chapel", "home", "back"]
SCALARS = st.one_of(
    st.integers(-3, 70),
    st.integers(),
    st.booleans(),
    st.sampled_from(WORDS),
    st.text(max_size=12),
    st.floats(allow_nan=False),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
TOML_CHARS = st.text(alphabet="[]{}=,\"#\n' .-_abc0123456789", max_size=12)


def _check_loaded(track: SnowTrack, *, race: bool = True) -> None:
    """What must hold of every track that loads: it validates, and a tiny race runs on it
    when it is valid and is refused, in one line, when it is not."""
    course = build_course(track)
    result = validate_track(track, course)
    assert "geometry-inconsistent" not in {i.code for i in result.problems}
    for issue in result.problems:
        assert issue.severity in ("error", "warning")
        assert "\n" not in issue.message and issue.code
    if result.ok:
        assert course.start_spaces and course.finish_spaces
    if race:
        _race_or_refuse(track, RaceOptions(players=2), valid=result.ok)


def _race_or_refuse(track: SnowTrack, options: RaceOptions, *, valid: bool | None) -> None:
    """Two races of ``track``: played to the end when it is ``valid``, refused with one line
    naming the first problem when not (None: either, as the options' content decides)."""
    try:
        result = simulate(track, options, races=2, seed=3)
    except TrackkitError as error:
        event("race refused")
        assert valid is not True, error
        assert "\n" not in str(error) and str(error)
        if valid is False:
            assert "cannot be raced" in str(error)
        return
    event("raced")
    assert valid is not False, "a track the validator rejects was raced"
    assert result.races == 2 and (result.rounds >= 1).all()


def _load_or_one_line(load: Any, *args: Any, **kwargs: Any) -> SnowTrack | None:
    try:
        return load(*args, **kwargs)
    except TrackkitError as error:
        event("refused as it loads")
        message = str(error)
        assert message and "\n" not in message and "Traceback" not in message
        return None


# --- garbled text and bytes ------------------------------------------------------------------


@pytest.mark.slow  # the changed-field and odd-number fuzzers stay quick: about 5 s
@FUZZ
@given(
    slug=st.sampled_from(PRESET_SLUGS),
    where=st.floats(0, 1),
    cut=st.integers(0, 30),
    insert=TOML_CHARS,
)
def test_garbled_text_loads_or_fails_in_one_line(
    slug: str, where: float, cut: int, insert: str
) -> None:
    text = TEXTS[slug]
    at = int(where * len(text))
    garbled = text[:at] + insert + text[at + cut :]
    track = _load_or_one_line(parse_track_toml, garbled, source="garbled.toml")
    if track is not None:
        _check_loaded(track)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("garbled")


@pytest.mark.slow  # the garbled-text test's twin on bytes: about 5 s
@FUZZ
@given(slug=st.sampled_from(PRESET_SLUGS), where=st.floats(0, 1), junk=st.binary(max_size=6))
def test_garbled_bytes_load_or_fail_in_one_line(
    folder: Path, slug: str, where: float, junk: bytes
) -> None:
    data = TEXTS[slug].encode("utf-8")
    at = int(where * len(data))
    path = folder / "garbled.toml"
    path.write_bytes(data[:at] + junk + data[at + len(junk) :])
    track = _load_or_one_line(load_track, path)
    if track is not None:
        _check_loaded(track)


# --- garbled fields ------------------------------------------------------------------------------


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


@FUZZ
@given(
    slug=st.sampled_from(PRESET_SLUGS),
    choice=st.integers(min_value=0),
    delete=st.booleans(),
    value=VALUES,
)
def test_a_changed_field_loads_or_fails_in_one_line(
    slug: str, choice: int, delete: bool, value: Any
) -> None:
    table = copy.deepcopy(TABLES[slug])
    paths = _paths(table)[1:]
    path = paths[choice % len(paths)]
    parent = table
    for step in path[:-1]:
        parent = parent[step]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    track = _load_or_one_line(parse_track, table, source="changed.toml")
    if track is not None:
        _check_loaded(track)


# --- random trees, buildings and markers on loaded tracks ---------------------------------------


def _positions(ids: list[str]) -> st.SearchStrategy[list[Any]]:
    segment = st.sampled_from([*ids, "nowhere"])
    return st.tuples(segment, st.integers(-1, 7), st.integers(-1, 14)).map(list)


def _span(low: int, high: int) -> st.SearchStrategy[list[int]]:
    return st.tuples(st.integers(low, high), st.integers(0, 3)).map(lambda t: [t[0], t[0] + t[1]])


def _building(ids: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    segment = st.sampled_from([*ids, "nowhere"])
    kind = st.sampled_from(["kennels", "chapel", "bothy", "tavern"])
    on_track = st.fixed_dictionaries(
        {"kind": kind, "segment": segment, "lanes": _span(0, 6), "rows": _span(-1, 13)}
    )
    beside = st.fixed_dictionaries(
        {
            "kind": st.just("tavern"),
            "segment": segment,
            "side": st.sampled_from(["left", "right"]),
            "rows": _span(-1, 13),
        }
    )
    return st.one_of(on_track, beside)


@pytest.mark.slow  # 1.3 s with the engines compiled (the quick loop's budget)
@FUZZ
@given(data=st.data(), slug=st.sampled_from(PRESET_SLUGS), reverse=st.booleans())
def test_the_validator_never_crashes_on_random_obstacles(
    data: st.DataObject, slug: str, reverse: bool
) -> None:
    table = copy.deepcopy(TABLES[slug])
    ids = [s["id"] for s in table["segments"]]
    table["trees"] = data.draw(st.lists(_positions(ids), max_size=25))
    table["markers"] = data.draw(st.lists(_positions(ids), max_size=35))
    table["buildings"] = data.draw(st.lists(_building(ids), max_size=5))
    if reverse:
        table["direction"] = "forward" if table["direction"] == "reversed" else "reversed"
    track = _load_or_one_line(parse_track, table, source="random.toml")
    if track is not None:
        _check_loaded(track)


# --- hostile numbers and sizes --------------------------------------------------------------

HUGE = st.one_of(
    st.integers(-(2**63), 2**63 - 1),
    st.sampled_from([-1, 0, MAX_ROWS, MAX_ROWS + 1, 10**8, 2**31, 2**63 - 1, -(2**63)]),
    st.floats(allow_nan=True),
    st.text(max_size=4),
    st.lists(st.integers(-5, 5), max_size=3),
)


def _numbers(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths of every whole number (or pair of them: a span) in a track's table."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _numbers(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _numbers(item, (*prefix, index))
    elif isinstance(value, int) and not isinstance(value, bool):
        found.append(prefix)
    return found


@FUZZ
@given(
    slug=st.sampled_from(PRESET_SLUGS),
    choices=st.lists(st.integers(min_value=0), min_size=1, max_size=3),
    values=st.lists(HUGE, min_size=3, max_size=3),
)
def test_huge_negative_and_mistyped_numbers_load_or_fail_in_one_line(
    slug: str, choices: list[int], values: list[Any]
) -> None:
    """Every number of a preset (lanes, rows, spans, indices, lines) replaced by one far
    off the board, negative or of the wrong type: refused as the file loads, or a track
    that validates and races (or is refused a race) in a moment."""
    table = copy.deepcopy(TABLES[slug])
    table.setdefault("buildings", []).append(
        {"kind": "chapel", "segment": table["segments"][0]["id"], "lanes": [2, 3], "rows": [1, 2]}
    )
    paths = _numbers(table)
    for choice, value in zip(choices, values, strict=False):
        path = paths[choice % len(paths)]
        parent = table
        for step in path[:-1]:
            parent = parent[step]
        parent[path[-1]] = value
    track = _load_or_one_line(parse_track, table, source="huge.toml")
    if track is not None:
        assert board_spaces(track) <= BOARD_SPACES.cli  # the schema's bounds keep it small
        _check_loaded(track)


def _straights(count: int, hostile: bool) -> st.SearchStrategy[list[Any]]:
    """``count`` straights, of 10 to 60 rows of the default lanes; ``hostile``: of any
    number, or none, of rows and lanes."""
    if not hostile:
        return st.lists(
            st.fixed_dictionaries({"rows": st.integers(10, MAX_ROWS)}),
            min_size=count,
            max_size=count,
        )
    lanes = st.one_of(st.integers(1, MAX_LANES + 1), HUGE)
    rows = st.one_of(st.integers(1, MAX_ROWS + 1), HUGE)
    segment = st.fixed_dictionaries({"rows": rows}, optional={"lanes": lanes})
    return st.lists(segment, min_size=count, max_size=count)


@pytest.mark.slow  # hypothesis over boards of up to 70 segments: about 4 s
@settings(FUZZ, max_examples=80)
@given(count=st.integers(1, 70), data=st.data())
def test_many_segments_load_or_fail_and_nothing_over_the_limit_is_listed(
    count: int, data: st.DataObject
) -> None:
    """Boards of up to 70 straights of up to 60+ rows (the schema allows 60 segments): each
    is refused as it loads, refused by the app's limit before a space is listed, or
    composed and validated. (The command line's limit is above the largest board that
    loads: ``test_the_limit_has_margin_over_the_presets_and_the_largest_board``.)"""
    hostile = data.draw(st.sampled_from([False, False, False, True]))
    segments = data.draw(_straights(count, hostile))
    for index, segment in enumerate(segments):
        segment["id"] = f"s{index}"
    last = segments[-1]["rows"]
    table = {
        "game": "snowtails",
        "name": "Many",
        "start": {"segment": "s0", "row": 0},
        "finish": {
            "segment": f"s{count - 1}",
            "line": min(1, last) if isinstance(last, int) else 1,
        },
        "segments": segments,
    }
    track = _load_or_one_line(parse_track, table, source="many.toml")
    if track is None:
        return
    limits.serve_app_limits(True)
    try:
        limit = BOARD_SPACES.value()
        with pytest.MonkeyPatch.context() as patch:
            laid_out: list[int] = []
            original = course_module._lay_out

            def lay_out(*args: Any) -> Any:
                laid_out.append(1)
                return original(*args)

            patch.setattr(course_module, "_lay_out", lay_out)
            try:
                course = build_course(track)
            except CostLimitError as error:
                event("refused by the limit")
                assert board_spaces(track) > limit and not laid_out
                assert f"the limit is {limit:,}" in str(error) and "\n" not in str(error)
                return
        assert board_spaces(track) <= limit and laid_out
        validate_track(track, course)
    finally:
        limits.serve_app_limits(False)


# --- content folders --------------------------------------------------------------------------

DECK_VALUES = st.lists(
    st.fixed_dictionaries({"value": st.integers(-1, 6), "count": st.integers(-1, 12)}),
    min_size=1,
    max_size=7,
)
DECKS = st.fixed_dictionaries(
    {
        "cards_per_colour": st.one_of(st.integers(0, 40), HUGE),
        "hand_size": st.one_of(st.integers(0, 8), HUGE),
        "starting_pair": st.one_of(st.tuples(st.integers(0, 5), st.integers(0, 5)).map(list), HUGE),
        "held_back_value": st.one_of(st.integers(-1, 6), HUGE),
        "values": DECK_VALUES,
    }
)
COMPONENTS = {
    "trees": st.integers(0, 30),
    "markers": st.integers(0, 40),
    "building_spaces": st.integers(1, 6),
    "lanes": st.integers(2, 9),
    "tavern_rows": st.integers(1, 4),
    "runoff_rows": st.integers(1, 4),
}
COMPONENTS_KEYS = tuple(COMPONENTS)


def _deck_near_the_bundled(draw: st.DrawFn) -> dict[str, Any]:
    """The bundled deck with one or two of its numbers changed, mostly a little (so that
    many folders load and race, and a hand of 1 to 4 cards is among them)."""
    deck = tomllib.loads((RULESET.content_folder() / "deck.toml").read_text("utf-8"))
    fields = ["hand_size", "hand_size", "count", "count", "starting_pair", "held_back_value"]
    for _ in range(draw(st.integers(1, 2))):
        field = draw(st.sampled_from(fields))
        if field == "count":
            entry = draw(st.sampled_from(deck["values"]))
            entry["count"] = draw(st.integers(0, 8))
            deck["cards_per_colour"] = sum(v["count"] for v in deck["values"])
        elif field == "starting_pair":
            value = draw(st.integers(0, 5))
            deck[field] = [value, value]
        elif field == "hand_size":
            deck[field] = draw(st.integers(1, 9))
        else:
            deck[field] = draw(st.integers(-1, 6))
    return deck


@st.composite
def _content_tables(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    near = draw(st.sampled_from([True, True, True, False]))
    deck = _deck_near_the_bundled(draw) if near else draw(DECKS)
    parts = tomllib.loads((RULESET.content_folder() / "components.toml").read_text("utf-8"))
    for key in draw(st.lists(st.sampled_from(COMPONENTS_KEYS), max_size=2)):
        parts[key] = draw(COMPONENTS[key] if draw(st.booleans()) else HUGE)
    return deck, parts


@pytest.mark.slow  # a race for each content folder that loads: about 6 s
@FUZZ
@given(tables=_content_tables(), slug=st.sampled_from(PRESET_SLUGS), players=st.integers(2, 4))
def test_a_content_folder_loads_and_races_or_fails_in_one_line(
    folder: Path, tables: tuple[dict[str, Any], dict[str, Any]], slug: str, players: int
) -> None:
    """Random decks (counts, hand sizes, starting pairs, held-back values) and components:
    refused as the folder loads, or two races that run to the end, or a race refused with
    one line (a deck the options cannot play, a track the folder's box cannot furnish);
    never the engine's RuntimeError."""
    content = folder / "content"
    content.mkdir(exist_ok=True)
    deck, parts = tables
    (content / "deck.toml").write_text(tomli_w.dumps(deck), "utf-8")
    (content / "components.toml").write_text(tomli_w.dumps(parts), "utf-8")
    loaded = _load_or_one_line(RULESET.load_content, content)
    if loaded is None:
        return
    assert isinstance(loaded.deck, Deck) and isinstance(loaded.components, Components)
    options = RaceOptions(players=players, deck=loaded.deck, components=loaded.components)
    _race_or_refuse(load_preset(slug), options, valid=None)
