"""What every registered game passes (pgx's api_test, for race games).

Each test runs once per ruleset in :func:`trackkit.games.rulesets`, through the
:class:`~trackkit.games.base.Ruleset` interface only: a new game that joins the registry is
checked here without a line added.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.games.toy import registered
from tests.games.toy.core.ruleset import RULESET as TOY
from trackkit.board.datafile import output_path
from trackkit.errors import LocatedError
from trackkit.games import all_rulesets, get_ruleset, load_tileset, rulesets, tileset_of
from trackkit.games.base import BatchResult, Ruleset, TileRuleset, find_preset, load_track
from trackkit.games.face import get_face
from trackkit.sim.montecarlo import simulate
from trackkit.validate import validate

# the two games trackkit ships, and a toy registered only here: a new game is a folder
RULESETS = [*all_rulesets(), TOY]
IDS = [r.name for r in RULESETS]


@pytest.fixture(autouse=True, scope="module")
def _toy_registered() -> Iterator[None]:
    with registered():
        yield


ROOT = Path(__file__).resolve().parents[2]


def _players(ruleset: Ruleset) -> int:
    return min(3, ruleset.players.race_max)


def _batch(ruleset: Ruleset, seed: int, races: int = 40) -> BatchResult:
    track = ruleset.load_preset(ruleset.presets()[0])
    options = ruleset.options(players=_players(ruleset))
    return ruleset.play_batch(ruleset.prepare(track, options), options, seed, 0, races)


def _as_json(batch: BatchResult) -> dict[str, Any]:
    return {
        "rounds": batch.rounds.tolist(),
        "placing": batch.placing.tolist(),
        "groups": {key: value.tolist() for key, value in batch.groups.items()},
    }


def test_the_registry_lists_and_finds_every_game() -> None:
    assert rulesets() == ("yummell", "snowtails", "toy")
    for name in rulesets():
        assert get_ruleset(name).name == name
        assert isinstance(get_ruleset(name), Ruleset)
    assert isinstance(get_ruleset("yummell"), TileRuleset)
    assert not isinstance(get_ruleset("snowtails"), TileRuleset)


def test_a_game_without_tiles_says_so_when_asked_for_tiles() -> None:
    from trackkit.errors import TrackkitError

    with pytest.raises(TrackkitError, match="Snow Tails 2 has no tiles"):
        load_tileset(game="snowtails")


def test_preset_slugs_differ_across_games() -> None:
    slugs = [slug for ruleset in RULESETS for slug in ruleset.presets()]
    assert len(slugs) == len(set(slugs))
    for ruleset in RULESETS:
        for slug in ruleset.presets():
            assert find_preset(slug) == (ruleset, slug)


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_every_preset_is_a_valid_track_of_its_game(ruleset: Ruleset) -> None:
    assert ruleset.presets()
    for slug in ruleset.presets():
        track = ruleset.load_preset(slug)
        assert track.game == ruleset.name
        if isinstance(ruleset, TileRuleset):
            assert tileset_of(track).game == ruleset.name
        report = validate(track)
        assert report.ok, (slug, [str(p) for p in report.problems])
        assert ruleset.check_track(track).problems == ()


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_the_same_seed_plays_the_same_batch(ruleset: Ruleset) -> None:
    assert _as_json(_batch(ruleset, 7)) == _as_json(_batch(ruleset, 7))
    assert _as_json(_batch(ruleset, 7)) != _as_json(_batch(ruleset, 8))


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_every_race_ends_with_consistent_placings(ruleset: Ruleset) -> None:
    batch = _batch(ruleset, 3, races=200)
    players = _players(ruleset)
    assert batch.placing.shape == (200, players)
    assert ((batch.rounds >= 1) & (batch.rounds <= ruleset.max_rounds)).all()
    for placings in batch.placing:
        ranked = sorted(int(p) for p in placings)
        assert ranked[0] == 1  # somebody won
        for i in range(1, players):  # competition ranking: ties share, then a gap
            assert ranked[i] in (ranked[i - 1], i + 1)
    track = ruleset.load_preset(ruleset.presets()[0])
    options = ruleset.options(players=players)
    prepared = ruleset.prepare(track, options)
    for group in ruleset.groups(prepared, options):
        column = batch.groups[group.key]
        assert column.shape == (200, players)
        assert ((column >= -1) & (column < len(group.labels))).all()
    assert set(batch.node_counts) == {c.key for c in ruleset.node_counts}
    for counts in batch.node_counts.values():
        assert counts.shape == (len(prepared.nodes),) and (counts >= 0).all()
    assert set(batch.tallies) == {t.key for t in ruleset.tallies}
    for tally in batch.tallies.values():
        assert tally.shape == (200,) and (tally >= 0).all()


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_a_simulation_reports_every_group_tally_and_node_count(ruleset: Ruleset) -> None:
    track = ruleset.load_preset(ruleset.presets()[0])
    options = ruleset.options(players=_players(ruleset))
    data = simulate(track, options, races=300, seed=2).to_json()
    assert data["races"] == 300 and data["ci95"][0] <= data["mean_rounds"] <= data["ci95"][1]
    for group in ruleset.groups(ruleset.prepare(track, options), options):
        assert len(data[group.report]) == len(group.labels)
    rows = data[ruleset.node_report]
    assert rows and all(ruleset.node_noun in row for row in rows)
    assert {c.report for c in ruleset.node_counts} <= set(rows[0])
    if ruleset.tallies:
        assert set(data["per_race"]) == {t.key for t in ruleset.tallies}


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_one_two_or_three_workers_give_the_same_numbers(ruleset: Ruleset) -> None:
    track = ruleset.load_preset(ruleset.presets()[0])
    options = ruleset.options(players=_players(ruleset))
    results = [
        simulate(track, options, races=2_000, seed=5, workers=workers).to_json()
        for workers in (1, 2, 3)
    ]
    assert results[0] == results[1] == results[2]


_INTERPRETED = """
import json, sys
from trackkit.games import get_ruleset
if sys.argv[1] == "toy":
    from tests.games.toy import register
    register()
r = get_ruleset(sys.argv[1])
track = r.load_preset(r.presets()[0])
options = r.options(players=int(sys.argv[2]))
b = r.play_batch(r.prepare(track, options), options, 11, 0, 3)
print(json.dumps({"rounds": b.rounds.tolist(), "placing": b.placing.tolist(),
                  "groups": {k: v.tolist() for k, v in b.groups.items()}}))
"""


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_compiled_and_interpreted_play_the_same_races(ruleset: Ruleset) -> None:
    players = _players(ruleset)
    run = subprocess.run(
        [sys.executable, "-c", _INTERPRETED, ruleset.name, str(players)],
        env={**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    interpreted = json.loads(run.stdout.strip().splitlines()[-1])
    track = ruleset.load_preset(ruleset.presets()[0])
    options = ruleset.options(players=players)
    compiled = ruleset.play_batch(ruleset.prepare(track, options), options, 11, 0, 3)
    assert interpreted == _as_json(compiled)


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_a_broken_content_file_is_a_located_error(ruleset: Ruleset, tmp_path: Path) -> None:
    files = sorted(ruleset.content_folder().glob("*.toml"))
    assert files, "a game's content is data files"
    ruleset.load_content(ruleset.content_folder())  # the bundled content loads
    for broken in files:
        for damage in ("this is = = not TOML\n", "surprise_field = 1\n"):
            folder = tmp_path / f"{broken.stem}-{len(damage)}"
            shutil.copytree(ruleset.content_folder(), folder, ignore=shutil.ignore_patterns("_*"))
            target = folder / broken.name
            target.write_text(damage + target.read_text())
            with pytest.raises(LocatedError) as caught:
                ruleset.load_content(folder)
            message = str(caught.value)
            assert message.startswith(str(target)), message
            assert "\n" not in message


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_a_track_file_is_read_by_the_game_it_names(ruleset: Ruleset, tmp_path: Path) -> None:
    from trackkit.errors import TrackkitError

    slug = ruleset.presets()[0]
    text = _preset_text(ruleset, slug)
    path = output_path(tmp_path / "t.toml", overwrite=False, suffixes=(".toml",))
    path.write_text(text)
    track = load_track(path)
    assert track.game == ruleset.name and track.name == ruleset.load_preset(slug).name
    assert validate(track).ok
    path.write_text(text.replace(f'game = "{ruleset.name}"', 'game = "chess"'))
    with pytest.raises(TrackkitError, match="no game called 'chess'.*knows yummell, snowtails"):
        load_track(path)


def _preset_text(ruleset: Ruleset, slug: str) -> str:
    """A preset as its track file's text, naming its game (its face writes it)."""
    return get_face(ruleset.name).track_text(ruleset.load_preset(slug), ROOT)


def test_bounds_are_sensible() -> None:
    for ruleset in RULESETS:
        bounds = ruleset.players
        assert 1 <= bounds.race_min <= bounds.race_max
        assert bounds.build_min <= bounds.build_max
        assert ruleset.policies and ruleset.max_rounds > 0


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_where_one_game_fits_another_games_file_is_refused_by_name(ruleset: Ruleset) -> None:
    from trackkit.errors import TrackFileError
    from trackkit.games.base import parse_game_track_toml

    text = _preset_text(ruleset, ruleset.presets()[0])
    track = parse_game_track_toml(text, source="t.toml", game=ruleset.name)
    assert track.game == ruleset.name
    assert track.name == ruleset.load_preset(ruleset.presets()[0]).name
    for other in RULESETS:
        if other.name != ruleset.name:
            with pytest.raises(TrackFileError, match=f"game: this is a {ruleset.title} track"):
                parse_game_track_toml(text, source="t.toml", game=other.name)


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_optional_members_are_there_or_none(ruleset: Ruleset) -> None:
    for member in (
        "exact_solo", "design_space", "track_space", "exact_rules", "exact_refusal", "scene",
        "contents",
    ):  # fmt: skip
        value = getattr(ruleset, member)
        assert value is None or callable(value), member
    # declared, never looked up by name: what a profile uses of the game
    assert isinstance(dict(ruleset.profile_choices), dict)
    assert ruleset.start_order_group is None or isinstance(ruleset.start_order_group, str)
    assert ruleset.average_track in ("space", "presets")
    assert (ruleset.track_space is None) == (ruleset.design_codec is None)


@pytest.mark.parametrize("ruleset", [r for r in RULESETS if r.track_space], ids=lambda r: r.name)
def test_a_track_space_holds_legal_tracks_that_its_rows_name_again(ruleset: Ruleset) -> None:
    assert ruleset.track_space is not None and ruleset.design_codec is not None
    players = ruleset.players.build_min + 1
    space = ruleset.track_space(players)
    assert space.game == ruleset.name and space.players == players
    legal, estimate = space.legal_count()
    assert 0 < legal <= len(space)
    if space.dense:
        assert legal == len(space) and not estimate
    if ruleset.design_space is not None:
        assert legal == ruleset.design_space(players).legal_tracks
    ranks = space.sample_ranks(3, seed=5, distinct=True)
    assert ranks == space.sample_ranks(3, seed=5, distinct=True) and len(set(ranks)) == 3
    for rank in ranks:
        track = space.track(rank)
        assert track.game == ruleset.name
        assert not ruleset.check_track(track, players=players).problems
        value = ruleset.design_codec.decode(space.design_text(rank, track))
        again = ruleset.design_codec.track(value, track.name, space.folder)
        assert again.to_toml() == track.to_toml()
