"""Queries over a sweep: filters, the sort's direction, the number shown, JSON rows and
track files written from them; bad ranges and unknown figures are one clear error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sweep_spaces import PresetSpace

from trackkit.errors import TrackkitError
from trackkit.explore.find import (
    Range,
    TrackQuery,
    export_tracks,
    find_tracks,
    parse_filter,
    parse_range,
)
from trackkit.explore.profile import ProfileSettings
from trackkit.explore.sweep import Cluster, read_sweep, run_sweep
from trackkit.games.tilekit.track import load_track


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory, dask_client: Any) -> Path:
    folder = tmp_path_factory.mktemp("find") / "sweep"
    run_sweep(
        PresetSpace(size=30),
        folder,
        ProfileSettings(races=20),
        partition_size=8,
        cluster=Cluster(client=dask_client),
    )
    return folder


def _column(folder: Path, key: str) -> list[float]:
    return read_sweep(folder).table[key].to_pylist()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8..12", Range(8.0, 12.0)),
        ("8..", Range(8.0, None)),
        ("..12", Range(None, 12.0)),
        (" 0.5 .. 1e1 ", Range(0.5, 10.0)),
        ("-1..-0.5", Range(-1.0, -0.5)),
        ("3..3", Range(3.0, 3.0)),
    ],
)
def test_ranges_read_as_written(text: str, expected: Range) -> None:
    assert parse_range(text) == expected


@pytest.mark.parametrize(
    "text", ["", "..", "8", "8-12", "a..b", "12..8", "nan..1", "1..inf", "1...2"]
)
def test_bad_ranges_are_one_clear_error(text: str) -> None:
    with pytest.raises(TrackkitError, match=r"is A\.\.B, A\.\. or \.\.B"):
        parse_range(text, "--length")


def test_a_filter_names_a_figure_and_a_range() -> None:
    assert parse_filter("balance=0.8..") == ("balance", Range(0.8, None))
    with pytest.raises(TrackkitError, match="a filter is KEY=A..B"):
        parse_filter("balance")


@pytest.mark.slow  # the module's sweep on a Dask cluster: about 15 s for the four
def test_the_sort_follows_which_way_is_better(swept: Path) -> None:
    balance = find_tracks(swept, TrackQuery(sort="balance", top=30))
    assert balance.descending and balance.matched == 30
    values = [r["balance"] for r in balance.rows]
    assert values == sorted(values, reverse=True)
    length = find_tracks(swept, TrackQuery(sort="length", top=5))
    assert length.sort_key == "rounds_mean" and not length.descending
    assert [r["rounds_mean"] for r in length.rows] == sorted(_column(swept, "rounds_mean"))[:5]
    drama = find_tracks(swept, TrackQuery(sort="drama", descending=False, top=3))
    assert drama.sort_key == "lead_changes" and not drama.descending
    assert [r["lead_changes"] for r in drama.rows] == sorted(_column(swept, "lead_changes"))[:3]
    assert find_tracks(swept, TrackQuery(sort="friction")).sort_key == "bounces"
    assert len(find_tracks(swept).rows) == 10  # unfairness, ten, by default
    fairest = find_tracks(swept, TrackQuery(sort="fairness", top=30))
    assert fairest.sort_key == "unfairness" and not fairest.descending
    unfair = [r["unfairness"] for r in fairest.rows]
    assert unfair == sorted(unfair)


@pytest.mark.slow  # the module's sweep on a Dask cluster: about 15 s for the four
def test_filters_keep_the_tracks_within_every_range(swept: Path) -> None:
    rounds = _column(swept, "rounds_mean")
    low, high = sorted(rounds)[5], sorted(rounds)[20]
    swamp = 0.1
    query = TrackQuery(
        filters=(("rounds_mean", Range(low, high)), ("terrain_swamp", Range(swamp, None))),
        top=30,
    )
    found = find_tracks(swept, query)
    table = read_sweep(swept).table.to_pylist()
    expected = {
        r["rank"] for r in table if low <= r["rounds_mean"] <= high and r["terrain_swamp"] >= swamp
    }
    assert {r["rank"] for r in found.rows} == expected and found.matched == len(expected)
    nothing = find_tracks(swept, TrackQuery(filters=(("rounds_mean", Range(None, 0.0)),)))
    assert nothing.matched == 0 and nothing.rows == []


@pytest.mark.slow  # the module's sweep on a Dask cluster: about 15 s for the four
@pytest.mark.parametrize("name", ["nope", "rank", "name", 'balance" DESC; DROP TABLE x; --'])
def test_only_the_sweeps_figures_can_be_named(swept: Path, name: str) -> None:
    with pytest.raises(TrackkitError, match=r"not a figure of this sweep; use one of exact_rounds"):
        find_tracks(swept, TrackQuery(sort=name))
    with pytest.raises(TrackkitError, match="not a figure"):
        find_tracks(swept, TrackQuery(filters=((name, Range(0, 1)),)))


@pytest.mark.slow  # the module's sweep on a Dask cluster: about 15 s for the four
def test_exported_tracks_load_back_and_never_replace_another_file(
    swept: Path, tmp_path: Path
) -> None:
    found = find_tracks(swept, TrackQuery(top=3))
    paths = export_tracks(found, tmp_path / "best")
    assert [p.name for p in paths] == [f"4-player-{r['rank']}.toml" for r in found.rows]
    for path, row in zip(paths, found.rows, strict=True):
        track = load_track(path)
        assert track.name == row["name"]
        assert [p.tile for p in track.placements] == [p["tile"] for p in row["placements"]]
        assert track.placements == PresetSpace(size=30).track(row["rank"]).placements
    assert export_tracks(found, tmp_path / "best") == paths  # the same tracks: left alone
    paths[1].write_text("mine")
    more = find_tracks(swept, TrackQuery(top=5))
    with pytest.raises(TrackkitError, match="exists and holds something else"):
        export_tracks(more, tmp_path / "best")
    assert paths[1].read_text() == "mine"
    assert len(list((tmp_path / "best").iterdir())) == 3  # nothing written


def test_no_sweep_in_the_folder_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(TrackkitError, match="holds no sweep"):
        find_tracks(tmp_path)
    with pytest.raises(TrackkitError, match="is not a folder"):
        find_tracks(tmp_path / "missing")
