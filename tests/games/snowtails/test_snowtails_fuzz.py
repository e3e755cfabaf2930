"""Property tests: a garbled track file loads or fails with one located line, never another
exception; and on any track that loads, the course builds, its geometry holds and the
validator answers without crashing."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trackkit.errors import TrackkitError
from trackkit.games.snowtails.geometry import build_course
from trackkit.games.snowtails.presets import PRESET_SLUGS, preset_text
from trackkit.games.snowtails.track import SnowTrack, load_track, parse_track, parse_track_toml
from trackkit.games.snowtails.validation import validate_track

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


def _check_loaded(track: SnowTrack) -> None:
    """What must hold of every track that loads."""
    course = build_course(track)
    result = validate_track(track, course)
    assert "geometry-inconsistent" not in {i.code for i in result.issues}
    for issue in result.issues:
        assert issue.level in ("error", "warning")
        assert "\n" not in issue.message and issue.code
    if result.ok:
        assert course.start_spaces and course.finish_spaces


def _load_or_one_line(load: Any, *args: Any, **kwargs: Any) -> SnowTrack | None:
    try:
        return load(*args, **kwargs)
    except TrackkitError as error:
        message = str(error)
        assert message and "\n" not in message and "Traceback" not in message
        return None


# --- garbled text and bytes ------------------------------------------------------------------


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
