"""``tune``: a broken roster repaired, the same seed giving the same search, an interrupted
tune losing nothing raced and going on where it stopped, and the output folder guarded."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import optuna
import pytest
from optuna.storages import JournalStorage
from optuna.storages.journal import JournalFileBackend

from trackkit.errors import OutputFileError, TrackkitError
from trackkit.games import get_ruleset
from trackkit.report.tune import write_tune_report
from trackkit.tune import search as search_module
from trackkit.tune.plan import TuneSettings
from trackkit.tune.search import tune
from trackkit.tune.spec import parse_tune

YUMMELL = get_ruleset("yummell")
BROKEN = "Character 8"
TUNE = f"""
content = "broken"

[balance]
tracks = ["first-run"]
players = [3, 5]
races = 400

[targets]
win_share = 0.06
scope = "players"
labels = ["character 8"]
hold_others = false  # the others pay for its repair

[search]
budget = 30
seed = 7
confirm_races = 2000

[[move]]
file = "characters.toml"
entry = "{BROKEN}"
fields = ["strength", "agility", "sympathy", "magic"]
low = 1
high = 10
"""


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    """A small custom content folder whose Character 8 has every statistic at 1 (it loses
    every challenge: about 16-19 points under its fair share on First run), and a tune
    file beside it that may move only that character's statistics."""
    folder = tmp_path / "broken"
    shutil.copytree(YUMMELL.content_folder("hand-made"), folder)
    path = folder / "characters.toml"
    text = path.read_text()
    start = text.index(f'name = "{BROKEN}"')
    block = text[start:]
    for stat, value in (("strength", 3), ("agility", 5), ("sympathy", 3), ("magic", 3)):
        block = block.replace(f"{stat} = {value}\n", f"{stat} = 1\n", 1)
    path.write_text(text[:start] + block)
    (tmp_path / "tune.toml").write_text(TUNE)
    return tmp_path / "tune.toml"


def _spec(path: Path, **changes: str):
    text = path.read_text()
    for old, new in changes.items():
        text = text.replace(old, new)
    path.write_text(text)
    return parse_tune(text, str(path))


@pytest.mark.slow  # 0.9 s with the engines compiled (the quick loop's budget)
def test_a_broken_roster_is_repaired(broken: Path) -> None:
    result = tune(_spec(broken), broken.parent / "out")
    assert not result.confirmed_start_score.met  # broken before …
    assert result.confirmed_start_score.worst_share > 0.1  # worst: the character held
    assert result.met, result.confirmed_best_score.misses  # … within ±6 points after
    assert result.confirmed_best_score.worst_share <= 0.06
    # 400 races cannot tell ±6 points surely (an interval of about ±7.5): the search
    # never stops at a candidate only its estimate says is within
    assert result.stopped == "budget" and result.evaluated == 30
    moved = {p.field: new for p, _, new in result.changes}
    assert sum(moved.values()) > 4 + 4  # the character was made stronger
    # the new content folder: the tuned character marked, every other one untouched
    written = tomllib.loads((broken.parent / "out/content/characters.toml").read_text())
    before = tomllib.loads((broken.parent / "broken/characters.toml").read_text())
    assert [c for c in written["characters"] if c["name"] != BROKEN] == [
        c for c in before["characters"] if c["name"] != BROKEN
    ]
    assert "# tuned (" in (broken.parent / "out/content/characters.toml").read_text()
    YUMMELL.load_content(broken.parent / "out/content")
    report = json.loads((broken.parent / "out/report.json").read_text())
    assert report["met"] is True and report["changes"]
    assert "Every target met" in write_tune_report(result)
    assert (broken.parent / "out/report.md").read_text().startswith("# Tune: ")


def _run(spec, out: Path, **settings):
    """What a tune tried, in order (every candidate's values), and what it found."""
    result = tune(spec, out, TuneSettings(**settings))
    storage = JournalStorage(JournalFileBackend(str(out / "study.journal")))
    study = optuna.load_study(study_name="tune", storage=storage)
    tried = [t.params for t in study.get_trials() if "evaluation" in t.user_attrs]
    return tried, result.history, result.best.values, result.best.number


@pytest.mark.slow
def test_an_interrupted_tune_loses_nothing_and_goes_on_as_if_never_stopped(
    broken: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _spec(broken, **{"budget = 30": "budget = 14", "win_share = 0.06": "win_share = 0.03"})
    whole = _run(spec, broken.parent / "whole", confirm_races=4000)

    calls = []
    evaluate = search_module.evaluate

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 6:
            raise KeyboardInterrupt
        return evaluate(*args, **kwargs)

    monkeypatch.setattr(search_module, "evaluate", interrupted)
    stopped = tune(spec, broken.parent / "again", TuneSettings(confirm_races=4000))
    assert stopped.stopped == "interrupted" and stopped.evaluated == 5  # five raced, kept
    monkeypatch.setattr(search_module, "evaluate", evaluate)
    resumed = _run(spec, broken.parent / "again", confirm_races=4000)
    assert len(whole[0]) == 14 and resumed == whole  # the same candidates, the same best


@pytest.mark.slow
def test_the_same_seed_gives_the_same_search_and_another_another(broken: Path) -> None:
    spec = _spec(broken, **{"budget = 30": "budget = 12", "win_share = 0.06": "win_share = 0.03"})
    one = _run(spec, broken.parent / "one", confirm_races=4000)
    assert _run(spec, broken.parent / "two", confirm_races=4000) == one
    assert _run(spec, broken.parent / "three", confirm_races=4000, seed=8) != one


def test_a_folder_holding_other_things_is_never_written_into(broken: Path) -> None:
    out = broken.parent / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(TrackkitError, match="files in it and no tune"):
        tune(_spec(broken), out)
    assert [p.name for p in out.iterdir()] == ["notes.txt"]


def test_a_folder_holding_another_tune_is_not_resumed(broken: Path) -> None:
    spec = _spec(broken, **{"budget = 30": "budget = 1"})
    tune(spec, broken.parent / "out", TuneSettings(confirm_races=2000))
    other = _spec(broken, **{"races = 400": "races = 500"})
    with pytest.raises(TrackkitError, match="holds another tune"):
        tune(other, broken.parent / "out")


def test_a_candidate_the_game_refuses_is_counted_with_its_reason(broken: Path) -> None:
    # every creature's cards may go: a deck left with too few cards is refused by the game
    moves = "".join(
        f'\n[[move]]\nfile = "deck.toml"\nentry = "{name}"\nfield = "numbers"\nnumber = {n}\nlow = 0\nhigh = 2\n'
        for name, n in [("Salamander of Mount Ohrk", 3), ("Horrgrup the Evil", 4)]
    )
    spec = _spec(broken, **{"budget = 30": "budget = 3"})
    spec = parse_tune(spec.text + moves, spec.path)
    result = tune(spec, broken.parent / "out", TuneSettings(confirm_races=2000))
    assert result.refused == 0  # these moves leave a deck the game takes
    assert result.evaluated == 3


def test_a_group_the_races_do_not_report_is_refused(broken: Path) -> None:
    spec = _spec(broken, **{"races = 400": 'races = 400\ngroup = "hats"'})
    with pytest.raises(TrackkitError, match="no group 'hats'; use one of character"):
        tune(spec, broken.parent / "out")


def test_players_outside_the_game_are_refused(broken: Path) -> None:
    spec = _spec(broken, **{"players = [3, 5]": "players = [3, 12]"})
    with pytest.raises(TrackkitError, match="races 1 to 8 players, not 12"):
        tune(spec, broken.parent / "out")


def test_a_label_the_races_do_not_have_is_refused(broken: Path) -> None:
    spec = _spec(broken, **{'labels = ["character 8"]': 'labels = ["Character 9"]'})
    with pytest.raises(TrackkitError, match="no 'Character 9' races; the labels are Flamm"):
        tune(spec, broken.parent / "out")


def test_a_progress_that_says_stop_stops_the_search_and_keeps_what_was_raced(
    broken: Path,
) -> None:
    spec = _spec(broken, **{"win_share = 0.06": "win_share = 0.03"})
    seen = []

    def progress(done: int, budget: int, best: float, met: bool) -> bool:
        seen.append((done, budget))
        return done < 3

    result = tune(spec, broken.parent / "out", TuneSettings(confirm_races=4000), progress)
    assert result.stopped == "cancelled" and result.evaluated == 3
    assert seen == [(0, 30), (1, 30), (2, 30), (3, 30)]


def test_the_best_is_chosen_among_the_search_s_best_on_a_fresh_seed(broken: Path) -> None:
    spec = _spec(
        broken,
        **{"budget = 30": "budget = 12\nrecheck = 3", "win_share = 0.06": "win_share = 0.03"},
    )
    result = tune(spec, broken.parent / "out", TuneSettings(confirm_races=4000))
    storage = JournalStorage(JournalFileBackend(str(broken.parent / "out/study.journal")))
    trials = [
        t
        for t in optuna.load_study(study_name="tune", storage=storage).get_trials()
        if t.value is not None
    ]
    top = sorted(trials, key=lambda t: t.value)[:3]
    assert result.best.values in [
        {p.name: t.params[p.name] for p in result.parameters} for t in top
    ]
    rechecked = json.loads((broken.parent / "out/recheck.json").read_text())
    # the start and the three, each on the recheck's seed (the search's + 2)
    assert len(rechecked) == 4 and all(k.endswith("/4000/9") for k in rechecked)
    assert {e["seed"] for e in rechecked.values()} == {9}


def _small(broken: Path, budget: int = 1, **changes: str):
    """The broken roster's tune made cheap: ``budget`` candidates, 2,000 races to confirm."""
    spec = _spec(broken, **{"budget = 30": f"budget = {budget}", **changes})
    return spec, TuneSettings(confirm_races=2000)


@pytest.mark.parametrize("name", ["content", "report.json", "report.md", "study.journal"])
def test_a_link_where_a_tune_writes_is_refused_and_nothing_written_through(
    broken: Path, name: str
) -> None:
    spec, settings = _small(broken)
    out = broken.parent / "out"
    tune(spec, out, settings)
    elsewhere = broken.parent / "elsewhere"
    if name == "content":  # a folder of someone else's, where the tuned content would go
        elsewhere.mkdir()
        (elsewhere / "characters.toml").write_text("mine")
        shutil.rmtree(out / name)
    else:
        elsewhere.write_text("mine")
        (out / name).unlink(missing_ok=True)  # report.md: the reader's report writes it
    (out / name).symlink_to(elsewhere)
    with pytest.raises(OutputFileError) as raised:
        tune(spec, out, settings)
    assert f"{name}: is a link (to {elsewhere}); a tune writes only inside its folder" in str(
        raised.value
    )
    assert "\n" not in str(raised.value)
    if name == "content":
        assert [p.name for p in elsewhere.iterdir()] == ["characters.toml"]
        assert (elsewhere / "characters.toml").read_text() == "mine"
    else:
        assert elsewhere.read_text() == "mine"


def test_a_link_made_while_the_tune_runs_is_not_written_through(
    broken: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, settings = _small(broken)
    out = broken.parent / "out"
    elsewhere = broken.parent / "elsewhere.json"
    elsewhere.write_text("{}")
    search = search_module._search

    def linked(*args, **kwargs):  # after the folder was checked, before the confirmation
        (out / "confirmation.json").symlink_to(elsewhere)
        return search(*args, **kwargs)

    monkeypatch.setattr(search_module, "_search", linked)
    with pytest.raises(OutputFileError, match="confirmation.json: is a link"):
        tune(spec, out, settings)
    assert elsewhere.read_text() == "{}"


@pytest.mark.parametrize("where", ["a-file/sub", "dangling", "/proc/x"])
def test_an_output_folder_that_cannot_be_made_gets_one_line(broken: Path, where: str) -> None:
    spec, settings = _small(broken)
    (broken.parent / "a-file").write_text("mine")
    (broken.parent / "dangling").symlink_to(broken.parent / "nowhere")
    out = Path(where) if where.startswith("/") else broken.parent / where
    with pytest.raises(TrackkitError) as raised:
        tune(spec, out, settings)
    assert str(out) in str(raised.value) and "\n" not in str(raised.value)
    assert (broken.parent / "a-file").read_text() == "mine"
    assert not (broken.parent / "nowhere").exists()


def test_records_cut_short_are_raced_again_and_the_tune_resumes(broken: Path) -> None:
    # what a kill mid-write or a full disk leaves: each record's end missing
    spec, settings = _small(broken, 3, **{"seed = 7": "seed = 7\nrecheck = 2"})
    out = broken.parent / "out"
    first = tune(spec, out, settings)
    for name in ("recheck.json", "confirmation.json", "study.journal"):
        data = (out / name).read_bytes()
        (out / name).write_bytes(data[: len(data) - 20])
    again = tune(spec, out, settings)
    assert again.evaluated == first.evaluated == 3
    assert again.best.values == first.best.values
    assert again.confirmed_best.to_json() == first.confirmed_best.to_json()
    assert json.loads((out / "recheck.json").read_text())  # whole again
    assert json.loads((out / "confirmation.json").read_text())["key"]["best"] == first.best.number


class _Killed(BaseException):
    """A kill the tune has no time to record (SIGKILL): nothing of it is caught."""


@pytest.mark.parametrize("sampler", ["tpe", pytest.param("cmaes", marks=pytest.mark.slow)])
@pytest.mark.parametrize("killed_at", [1, 4])
def test_a_killed_tune_goes_on_as_if_never_stopped(
    broken: Path, monkeypatch: pytest.MonkeyPatch, sampler: str, killed_at: int
) -> None:
    # a kill mid-race leaves its candidate running in the journal; resumed, it is raced
    # again under its number, and the search proposes what an uninterrupted one would
    spec = _spec(
        broken,
        **{
            "budget = 30": f'budget = 6\nsampler = "{sampler}"\nstop_when_met = false',
            "races = 400": "races = 100",
            "win_share = 0.06": "win_share = 0.3",
        },
    )
    monkeypatch.setattr(search_module, "STARTUP_TRIALS", 2)  # TPE models from the third
    whole = _run(spec, broken.parent / "whole", confirm_races=2000)
    calls = []
    evaluate = search_module.evaluate

    def killed(*args, **kwargs):
        calls.append(1)
        if len(calls) == killed_at:
            raise _Killed
        return evaluate(*args, **kwargs)

    monkeypatch.setattr(search_module, "evaluate", killed)
    with pytest.raises(_Killed):
        tune(spec, broken.parent / "again", TuneSettings(confirm_races=2000))
    storage = JournalStorage(JournalFileBackend(str(broken.parent / "again/study.journal")))
    states = [t.state for t in optuna.load_study(study_name="tune", storage=storage).trials]
    assert states[-1] == optuna.trial.TrialState.RUNNING and len(states) == killed_at
    monkeypatch.setattr(search_module, "evaluate", evaluate)
    assert _run(spec, broken.parent / "again", confirm_races=2000) == whole


@pytest.mark.parametrize("killed_at", [7, 11])
def test_a_tune_killed_while_recording_a_candidate_s_values_goes_on_as_if_never_stopped(
    broken: Path, monkeypatch: pytest.MonkeyPatch, killed_at: int
) -> None:
    # four values a candidate, each its own write: the 7th write is the 2nd candidate's
    # third value (drawn at random), the 11th the 3rd candidate's (TPE's model, from the 3rd)
    monkeypatch.setattr(search_module, "STARTUP_TRIALS", 2)
    spec = _spec(
        broken,
        **{
            "budget = 30": "budget = 5\nstop_when_met = false",
            "races = 400": "races = 100",
            "win_share = 0.06": "win_share = 0.3",
        },
    )
    whole = _run(spec, broken.parent / "whole", confirm_races=2000)
    writes = []
    write = JournalStorage.set_trial_param

    def killed(self, *args, **kwargs):
        writes.append(1)
        if len(writes) == killed_at:
            raise _Killed
        return write(self, *args, **kwargs)

    monkeypatch.setattr(JournalStorage, "set_trial_param", killed)
    with pytest.raises(_Killed):
        tune(spec, broken.parent / "again", TuneSettings(confirm_races=2000))
    monkeypatch.setattr(JournalStorage, "set_trial_param", write)
    storage = JournalStorage(JournalFileBackend(str(broken.parent / "again/study.journal")))
    (left,) = optuna.load_study(study_name="tune", storage=storage).get_trials(
        states=(optuna.trial.TrialState.RUNNING,)
    )
    assert len(left.params) == 2  # two of its four values recorded
    assert _run(spec, broken.parent / "again", confirm_races=2000) == whole
