"""Reading a tune file: every field checked, one-line errors naming the field and the fix,
targets no content can meet refused before any race."""

from __future__ import annotations

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from trackkit.errors import TrackkitError, TuneFileError
from trackkit.tune.spec import check_resolution, parse_tune, read_tune, win_share_half_width

MOVE = """
[[move]]
file = "characters.toml"
entry = "Character 5"
fields = ["strength", "agility"]
low = 1
high = 8
"""


def test_a_small_file_takes_the_defaults() -> None:
    spec = parse_tune("[targets]\nwin_share = 0.03\n" + MOVE, "t.toml")
    assert spec.tracks is None and spec.players is None  # the game's presets, 2 to 8
    assert (spec.races, spec.scope, spec.budget, spec.sampler) == (2000, "each", 200, "tpe")
    (move,) = spec.moves
    assert move.entries == ("Character 5",) and move.fields == ("strength", "agility")
    assert (move.low, move.high, move.step) == (1, 8, 1)


@pytest.mark.parametrize(
    ("text", "where", "says"),
    [
        ("[targets]\nwin_share = 0.03\nspeed = 3\n" + MOVE, "targets.speed", "unknown field"),
        ("[targets]\n" + MOVE, "targets", "no target"),
        ("[targets]\nwin_share = 0\n" + MOVE, "targets", "cannot be met"),
        ("[targets]\nwin_share = -0.1\n" + MOVE, "targets", "cannot be met"),
        ("[targets]\nlength = [12, 8]\n" + MOVE, "targets", "0 < low < high"),
        (
            "[balance]\nplayers = [1, 3]\n[targets]\nwin_share = 0.03\n" + MOVE,
            "balance",
            "fair share",
        ),
        ("[balance]\nplayers = [3, 3]\n[targets]\nwin_share = 0.03\n" + MOVE, "balance", "twice"),
        ("[targets]\nwin_share = 0.03\n", "move", "required field is missing"),
        (
            "[targets]\nwin_share = 0.03\n" + MOVE.replace("low = 1", "low = 9"),
            "move[0]",
            "impossible bounds",
        ),
        (
            "[targets]\nwin_share = 0.03\n" + MOVE.replace("low = 1", "low = 1\nstep = 2"),
            "move[0]",
            "multiple of step",
        ),
        (
            "[targets]\nwin_share = 0.03\n" + MOVE.replace("high = 8", ""),
            "move[0]",
            "both `low` and `high`",
        ),
        (
            "[targets]\nwin_share = 0.03\n" + MOVE.replace("low = 1", "low = 1\nchoices = [1, 2]"),
            "move[0]",
            "either",
        ),
        (
            "[targets]\nwin_share = 0.03\n"
            + MOVE.replace('entry = "Character 5"', 'entry = "a"\nentries = ["b"]'),
            "move[0]",
            "not both",
        ),
        (
            "[targets]\nwin_share = 0.03\n" + MOVE.replace('fields = ["strength", "agility"]', ""),
            "move[0]",
            "`field`",
        ),
        (
            "[targets]\nwin_share = 0.03\n[search]\nsampler = 'grid'\n" + MOVE,
            "search.sampler",
            "tpe",
        ),
        (
            "[targets]\nwin_share = 0.03\n[search]\nbudget = 0\n" + MOVE,
            "search.budget",
            "greater than or equal to 1",
        ),
        ("[targets]\nwin_share = 0.03\n[balance]\nraces = 10\n" + MOVE, "balance.races", "100"),
        ("[targets\nwin_share = 0.03\n", None, "not valid TOML"),
    ],
)
def test_a_bad_tune_file_gets_one_line_naming_the_field(
    text: str, where: str | None, says: str
) -> None:
    with pytest.raises(TuneFileError) as raised:
        parse_tune(text, "mine.toml")
    message = str(raised.value)
    assert message.startswith("mine.toml")
    assert "\n" not in message
    assert says in message
    if where is not None:
        assert raised.value.field == where


def test_choices_are_values_or_tables_not_a_mix() -> None:
    text = '[targets]\nwin_share = 0.03\n[[move]]\nfile = "c.toml"\nfield = "ability"\nchoices = ["steady", {ability = "toll"}]\n'
    with pytest.raises(TuneFileError, match="not a mix"):
        parse_tune(text, "t.toml")


def test_a_missing_tune_file_is_said(tmp_path) -> None:
    with pytest.raises(TuneFileError, match="no such file"):
        read_tune(tmp_path / "nothing.toml")


def test_a_tolerance_finer_than_the_races_can_tell_is_refused() -> None:
    spec = parse_tune("[targets]\nwin_share = 0.01\n" + MOVE, "t.toml")
    # 8 characters dealt to 2 players: each enters a quarter of the races
    half = win_share_half_width(10_000, 2, 8)
    assert half == pytest.approx(1.96 * (0.25 / 2500) ** 0.5, rel=1e-3)
    with pytest.raises(
        TuneFileError, match=r"cannot be told from luck in 10,000 races of 2 players.*about 40,000"
    ):
        check_resolution(spec, (2, 4), 8, 10_000)
    check_resolution(spec, (2, 4), 8, 100_000)  # fine enough: no error


_VALUES = st.one_of(
    st.integers(-10, 2_000_000),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=12),
    st.booleans(),
    st.lists(st.integers(-3, 12), max_size=4),
)
_KEYS = st.sampled_from(
    [
        "file",
        "entry",
        "entries",
        "field",
        "fields",
        "low",
        "high",
        "step",
        "number",
        "choices",
        "list",
        "x",
    ]
)


@settings(max_examples=150, deadline=None)
@given(
    targets=st.dictionaries(
        st.sampled_from(["win_share", "scope", "length_change", "length", "fewest_changes", "y"]),
        _VALUES,
        max_size=4,
    ),
    moves=st.lists(st.dictionaries(_KEYS, _VALUES, max_size=7), max_size=3),
    balance=st.dictionaries(
        st.sampled_from(["tracks", "players", "races", "group"]), _VALUES, max_size=3
    ),
)
def test_any_tune_file_reads_or_gets_a_located_one_line_error(
    targets: dict, moves: list, balance: dict
) -> None:
    text = tomli_w.dumps({"balance": balance, "targets": targets, "move": moves})
    try:
        spec = parse_tune(text, "fuzz.toml")
    except TrackkitError as error:
        assert isinstance(error, TuneFileError)
        assert "\n" not in str(error) and str(error).startswith("fuzz.toml")
    else:
        assert spec.moves and (spec.win_share or spec.length or spec.length_change)


def test_more_share_targets_each_with_its_scope_and_labels() -> None:
    text = (
        '[targets]\nwin_share = 0.03\nlabels = ["a"]\n'
        '[[targets.also]]\nwin_share = 0.05\nscope = "all"\nlabels = ["b"]\n' + MOVE
    )
    spec = parse_tune(text, "t.toml")
    assert [(s.win_share, s.scope, s.labels) for s in spec.shares] == [
        (0.03, "each", ("a",)),
        (0.05, "all", ("b",)),
    ]
    with pytest.raises(TuneFileError, match="cannot be met") as raised:
        parse_tune(text.replace("0.05", "0"), "t.toml")
    assert raised.value.field == "targets.also[0]"


@pytest.mark.parametrize("field", ["low", "high", "number"])
def test_a_moved_value_is_bounded_before_any_race(field: str) -> None:
    # a deck count moved to a billion built each candidate for minutes, then MemoryError
    move = '[[move]]\nfile = "deck.toml"\nentry = "Wind"\nfield = "numbers"\n'
    values = {"number": 2, "low": 0, "high": 3} | {field: 1_000_000_000}
    text = (
        "[targets]\nwin_share = 0.03\n" + move + "".join(f"{k} = {v}\n" for k, v in values.items())
    )
    with pytest.raises(TuneFileError) as raised:
        parse_tune(text, "mine.toml")
    assert raised.value.field == f"move[0].{field}"
    assert "less than or equal to 10000" in str(raised.value)
