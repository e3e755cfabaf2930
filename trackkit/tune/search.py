"""``trackkit tune``: search a content folder's movable values for content that meets the
targets, with Optuna, and write the best as a new content folder with its report.

Optuna (a well-kept optimiser for noisy black boxes with integer and categorical
parameters) proposes candidates; each is written as a content folder, loaded by the
game's own loader (a candidate the game refuses counts as refused, with the reason), raced
over the panel with common random numbers (:mod:`trackkit.tune.evaluate`) and scored.

The output folder holds the study as an Optuna journal (``study.journal``): every
candidate is recorded as soon as it is raced, so an interrupted tune loses nothing raced,
and running the same command again goes on from there. Each proposal is seeded from the
tune's seed and its number, so a tune that was interrupted and resumed proposes what an
uninterrupted one would: same seed, same candidates, same result. A candidate a kill
left unfinished (Ctrl-C, or a kill that gave the tune no time to say so) is raced again
under its own number with the values it was given, and a journal's last record cut short
(a kill or a full disk mid-write) is dropped and asked again.

Everything a tune writes stays inside its output folder: a link there where it writes
(``content``, ``report.json``, the journal …) is refused before anything runs, and its
records are replaced whole (written beside, then renamed), never written through.

When the search stops (budget, time, or a candidate meeting every target), the starting
content and the best are raced again with ``confirm_races`` races and another seed
(a figure that does not reproduce ranks luck), and the report says whether the targets
hold there.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import warnings
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

import numpy as np

from trackkit.errors import OutputFileError, TrackkitError, shown
from trackkit.tune.content_files import Parameter
from trackkit.tune.evaluate import Evaluation, Panel, evaluate, score
from trackkit.tune.plan import TunePlan, TuneSettings, plan_tune
from trackkit.tune.result import Candidate, TuneResult
from trackkit.tune.spec import TuneSpec

STUDY = "study.journal"
SPEC_COPY = "tune.toml"
FINGERPRINT = "fingerprint"
CANDIDATE = ".candidate"
CONFIRMED = "confirmation.json"
RECHECKED = "recheck.json"
CONTENT = "content"
REPORTS = ("report.json", "report.md")
# every name a tune writes in its folder: none may be a link (it would write elsewhere)
WRITTEN = (FINGERPRINT, SPEC_COPY, STUDY, CANDIDATE, CONFIRMED, RECHECKED, CONTENT, *REPORTS)
STARTUP_TRIALS = 10  # TPE's random proposals before it models the results
# (done, budget, best loss so far, whether the best meets every target); returning False
# stops the search there (a Cancel button), as an interruption would
TuneProgress = Callable[[int, int, float, bool], bool | None]


def tune(
    spec: TuneSpec,
    out: str | Path,
    settings: TuneSettings | None = None,
    progress: TuneProgress | None = None,
    mark: str | None = None,
) -> TuneResult:
    """Search ``spec``'s moves for content meeting its targets; write the best content
    folder (each value moved marked with ``mark``, the command that made it) and
    ``report.json`` into ``out`` (resumed if ``out`` holds this very tune)."""
    settings = settings or TuneSettings()
    plan = plan_tune(spec, settings)
    out = Path(out)
    _prepare_out(out, plan)
    mark = mark or f"trackkit tune {Path(spec.path).name} --seed {plan.seed}"
    with _workers(settings.workers) as pool:
        study = _Study(out / STUDY, plan)
        stopped = _search(plan, study, out, pool, progress)
        result = _conclude(plan, study, out, pool, stopped, mark)
    _write_outputs(result, plan)
    return result


def _workers(count: int) -> AbstractContextManager[Any]:
    if count <= 1:
        return nullcontext(None)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=count, mp_context=multiprocessing.get_context("spawn"))


class _Study:
    """The Optuna study in its journal, seen as the tune sees it: candidates finished
    (raced or refused; not one interrupted mid-race), the best, and asking for the next."""

    def __init__(self, path: Path, plan: TunePlan) -> None:
        import optuna
        from optuna.storages import JournalStorage
        from optuna.storages.journal import JournalFileBackend

        optuna.logging.set_verbosity(optuna.logging.WARNING)
        self.plan = plan
        _repair_journal(path)
        try:
            self.storage = JournalStorage(JournalFileBackend(str(path)))
            self.study = optuna.create_study(
                study_name="tune", storage=self.storage, direction="minimize", load_if_exists=True
            )
        except (ValueError, KeyError, TypeError) as error:  # a record damaged mid-file
            raise OutputFileError(
                str(path),
                None,
                f"is damaged ({error}); delete the folder's {STUDY} to start afresh, or give "
                "a new folder",
            ) from None
        self.states = optuna.trial.TrialState
        self.distributions = _distributions(plan.parameters, plan.spec.sampler == "cmaes")
        if not self.study.get_trials(deepcopy=False):
            self.study.enqueue_trial(plan.start_values)  # the first candidate: the start

    def finished(self) -> list[Any]:
        return [
            t
            for t in self.study.get_trials(deepcopy=False)
            if t.state in (self.states.COMPLETE, self.states.FAIL)
            and "interrupted" not in t.user_attrs  # Ctrl-C's, as earlier tunes recorded it
        ]

    def raced(self) -> list[Any]:
        return [t for t in self.finished() if "evaluation" in t.user_attrs]

    def best(self) -> Any:
        raced = [t for t in self.raced() if t.state == self.states.COMPLETE]
        return min(raced, key=lambda t: t.value) if raced else None

    def ask(self) -> tuple[Any, dict[str, int]]:
        """The next candidate. A candidate a kill left running is the next one, under its
        own number with the values it was given (any it had not yet been given proposed
        as they would have been), so that the search goes on as if never stopped."""
        import optuna

        number = len(self.finished())
        plan = self.plan
        self.study.sampler = _sampler(plan.spec.sampler, plan.seed, number, plan.start_values)
        left = self.study.get_trials(deepcopy=False, states=(self.states.RUNNING,))
        if left:
            self.study._thread_local.cached_all_trials = None  # as study.ask: read afresh
            trial = optuna.trial.Trial(self.study, left[0]._trial_id)
            given = left[0].params
            for name, distribution in self.distributions.items():
                if name in given and not trial._is_relative_param(name, distribution):
                    # drawn at random before the kill: draw it again (and let it be), so
                    # that the values still to come are drawn as they would have been
                    self.study.sampler.sample_independent(self.study, left[0], name, distribution)
                trial._suggest(name, distribution)  # what study.ask does with them
        else:
            trial = self.study.ask(self.distributions)
        return trial, {p.name: int(trial.params[p.name]) for p in plan.parameters}

    def note(self, trial: Any, key: str, value: Any) -> None:
        self.storage.set_trial_user_attr(trial._trial_id, key, value)

    def fail(self, trial: Any, key: str, value: Any) -> None:
        self.note(trial, key, value)
        self.study.tell(trial, state=self.states.FAIL)


def _repair_journal(path: Path) -> None:
    """Drop the journal's last record when a kill or a full disk cut it short (Optuna
    would read past it, then append the next record to its half and fail on reading that);
    the candidate it recorded is asked again."""
    if not path.exists():
        return
    data = path.read_bytes()
    end = len(data)
    if not data.endswith(b"\n"):
        end = data.rfind(b"\n") + 1
    else:
        last = data.rfind(b"\n", 0, end - 1) + 1
        try:
            json.loads(data[last:end])
        except ValueError:
            end = last
    if end < len(data):
        with open(path, "r+b") as journal:
            journal.truncate(end)


def _search(
    plan: TunePlan, study: _Study, out: Path, pool: Any, progress: TuneProgress | None
) -> str:
    """Race candidates until the budget, the time limit or a candidate meeting every
    target (``stop_when_met``); why it stopped."""
    started = time.monotonic()
    folder = out / CANDIDATE
    try:
        while True:
            done, best = study.finished(), study.best()
            met = bool(best is not None and best.user_attrs.get("met"))
            loss = best.value if best else float("nan")
            if progress is not None and progress(len(done), plan.budget, loss, met) is False:
                return "cancelled"
            if len(done) >= plan.budget:
                return "budget"
            if plan.spec.stop_when_met and met:
                return "met"
            if plan.seconds is not None and time.monotonic() - started >= plan.seconds:
                return "time"
            trial, values = study.ask()
            try:
                _clear(folder)
                plan.files.with_values(plan.parameters, values).write(folder)
                loaded = plan.ruleset.load_content(folder)
            except TrackkitError as refusal:
                study.fail(trial, "refused", str(refusal))
                continue
            evaluation = evaluate(plan.panel, loaded, pool=pool)  # interrupted: asked again
            raced = study.raced()
            start = Evaluation.from_json(raced[0].user_attrs["evaluation"]) if raced else evaluation
            result = score(evaluation, plan.targets, start, _changes(plan, values))
            study.note(trial, "evaluation", evaluation.to_json())
            study.note(trial, "met", result.met)
            study.study.tell(trial, result.loss)
    except KeyboardInterrupt:
        return "interrupted"
    finally:
        _clear(folder)


def _conclude(
    plan: TunePlan, study: _Study, out: Path, pool: Any, stopped: str, mark: str
) -> TuneResult:
    """The start and the best candidate, both confirmed on more races with another seed."""
    raced = study.raced()
    if not raced:
        raise TrackkitError("the tune was interrupted before any candidate was raced; run it again")
    start_raced = Evaluation.from_json(raced[0].user_attrs["evaluation"])

    def candidate(trial: Any) -> Candidate:
        evaluation = Evaluation.from_json(trial.user_attrs["evaluation"])
        values = {p.name: int(trial.params[p.name]) for p in plan.parameters}
        found = score(evaluation, plan.targets, start_raced, _changes(plan, values))
        return Candidate(raced.index(trial), values, found, evaluation)

    start = candidate(raced[0])
    ranked = sorted((t for t in raced if t.state == study.states.COMPLETE), key=lambda t: t.value)
    best = _recheck(
        out, plan, start, [candidate(t) for t in ranked[: plan.spec.recheck or 1]], pool
    )
    refused = [t for t in study.finished() if "refused" in t.user_attrs]
    before, after = _confirm(out, plan, start, best, pool)
    return TuneResult(
        spec=plan.spec,
        game=plan.ruleset.name,
        start_folder=str(plan.folder),
        parameters=plan.parameters,
        start=start,
        best=best,
        confirmed_start=before,
        confirmed_best=after,
        confirmed_start_score=score(before, plan.targets, before, 0),
        confirmed_best_score=score(after, plan.targets, before, _changes(plan, best.values)),
        evaluated=len(raced),
        refused=len(refused),
        refusal=refused[0].user_attrs["refused"] if refused else None,
        stopped=stopped,
        history=[float(h) for h in np.minimum.accumulate([t.value for t in raced])],
        out=out,
        mark=mark,
    )


def _changes(plan: TunePlan, values: dict[str, int]) -> int:
    return sum(values[p.name] != p.start for p in plan.parameters)


def _prepare_out(out: Path, plan: TunePlan) -> None:
    """The output folder: new, empty, or holding this very tune (to resume); never one
    holding anything else, nor one where a name the tune writes is a link."""
    marker = out / FINGERPRINT
    fingerprint = plan.fingerprint()
    if out.is_symlink() and not out.exists():
        raise OutputFileError(str(out), None, "is a link to nothing; give a folder for the tune")
    if out.exists():
        if not out.is_dir():
            raise TrackkitError(f"{shown(out)} is a file; give a folder for the tune's output")
        for name in WRITTEN:
            _inside(out, name)
        if marker.exists():
            if marker.read_text().strip() != fingerprint:
                raise TrackkitError(
                    f"{shown(out)} holds another tune (another tune file, content, races or "
                    "seed); give a new folder, or delete this one to start afresh"
                )
            return
        if any(out.iterdir()):
            raise TrackkitError(
                f"{shown(out)} is a folder with files in it and no tune; give a new or empty "
                "folder (nothing in it is replaced)"
            )
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputFileError(
            str(out), None, f"cannot be made ({error.strerror or error}); give another folder"
        ) from None
    _write(out, FINGERPRINT, fingerprint + "\n")
    _write(out, SPEC_COPY, plan.spec.text)


def _inside(out: Path, name: str) -> Path:
    """``out / name``, refused if it is a link: the tune would write where it points."""
    path = out / name
    if path.is_symlink():
        raise OutputFileError(
            str(path),
            None,
            f"is a link (to {shown(os.readlink(path), 80)}); a tune writes only inside its "
            "folder: remove the link, or give a new folder",
        )
    return path


def _write(out: Path, name: str, text: str) -> None:
    """``text`` as the file ``out / name``, whole: written beside it, then renamed over it
    (a kill leaves the old file or the new one, and a link there is replaced, not
    followed)."""
    path = _inside(out, name)
    partial = out / f".{name}.partial"
    try:
        partial.unlink(missing_ok=True)
        with open(partial, "x", encoding="utf-8") as file:
            file.write(text)
        os.replace(partial, path)
    except OSError as error:
        raise OutputFileError(str(path), None, error.strerror or str(error)) from None


def _read(out: Path, name: str) -> dict[str, Any]:
    """The JSON record ``out / name`` (empty when missing or damaged: raced again)."""
    try:
        found = json.loads(_inside(out, name).read_text())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _clear(path: Path) -> None:
    """A scratch file or folder of the tune's own removed (a link there: the link only)."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def _sampler(kind: str, seed: int, number: int, start: dict[str, int]) -> Any:
    """The proposer of candidate ``number``, seeded from the tune's seed and the number
    (so a resumed tune proposes what an uninterrupted one would). CMA-ES starts from the
    content as it is, keeps whole numbers apart (a margin), and restarts with a larger
    population when it stalls; TPE models the candidates raced so far."""
    import optuna

    trial_seed = int(np.random.SeedSequence([seed, number]).generate_state(1)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        if kind == "cmaes":
            return optuna.samplers.CmaEsSampler(
                x0=start,
                seed=trial_seed,
                n_startup_trials=1,
                with_margin=True,
                restart_strategy="ipop",
            )
        return optuna.samplers.TPESampler(  # one candidate at a time: no liar needed
            seed=trial_seed,
            n_startup_trials=STARTUP_TRIALS,
            multivariate=True,
            constant_liar=False,
        )


def _distributions(parameters: tuple[Parameter, ...], ordinal_choices: bool) -> dict[str, Any]:
    """Optuna's view of the parameters: ranges as whole numbers, choices as categories (as
    indices for CMA-ES, which samples categories at random: ordered, it can learn them)."""
    from optuna.distributions import CategoricalDistribution, IntDistribution

    found: dict[str, Any] = {}
    for p in parameters:
        if p.choices is not None and ordinal_choices:
            found[p.name] = IntDistribution(0, len(p.choices) - 1)
        elif p.choices is not None:
            found[p.name] = CategoricalDistribution(list(range(len(p.choices))))
        else:
            assert p.low is not None and p.high is not None
            found[p.name] = IntDistribution(p.low, p.high, step=p.step)
    return found


def _recheck(
    out: Path, plan: TunePlan, start: Candidate, best: list[Candidate], pool: Any
) -> Candidate:
    """Among the search's best candidates, the one best when raced again, with the start,
    on the recheck panel: a fresh seed, so that the choice is not the luck of the search's
    seed (among 1,500 candidates raced on one seed, the lowest score is partly that seed's
    luck). Kept in the output folder, so that asking again costs nothing."""
    if len(best) == 1:
        return best[0]
    panel = plan.recheck
    kept = _read(out, RECHECKED)

    def raced(candidate: Candidate) -> Evaluation:
        key = f"{candidate.number}/{panel.races}/{panel.seed}"
        found = _evaluation(kept.get(key))
        if found is None:
            found = _race_again(out, plan, panel, candidate, pool)
            kept[key] = found.to_json()
            _write(out, RECHECKED, json.dumps(kept))
        return found

    first = raced(start)
    losses = [score(raced(c), plan.targets, first, _changes(plan, c.values)).loss for c in best]
    return best[int(np.argmin(losses))]


def _confirm(
    out: Path, plan: TunePlan, start: Candidate, best: Candidate, pool: Any
) -> tuple[Evaluation, Evaluation]:
    """The start and the best raced again on the confirmation panel; kept in the output
    folder so that asking again costs nothing."""
    panel = plan.confirmation
    key = {"best": best.number, "races": panel.races, "seed": panel.seed}
    kept = _read(out, CONFIRMED)
    if kept.get("key") == key:
        before, after = _evaluation(kept.get("start")), _evaluation(kept.get("best"))
        if before is not None and after is not None:
            return before, after
    before, after = (_race_again(out, plan, panel, c, pool) for c in (start, best))
    kept = {"key": key, "start": before.to_json(), "best": after.to_json()}
    _write(out, CONFIRMED, json.dumps(kept))
    return before, after


def _race_again(
    out: Path, plan: TunePlan, panel: Panel, candidate: Candidate, pool: Any
) -> Evaluation:
    """``candidate`` built in the folder's scratch folder, loaded and raced on ``panel``."""
    folder = _inside(out, CANDIDATE)
    _clear(folder)
    plan.files.with_values(plan.parameters, candidate.values).write(folder)
    try:
        return evaluate(panel, plan.ruleset.load_content(folder), pool=pool)
    finally:
        _clear(folder)


def _evaluation(kept: Any) -> Evaluation | None:
    """A kept evaluation, or None when it is missing or damaged (it is raced again)."""
    try:
        return Evaluation.from_json(kept)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _write_outputs(result: TuneResult, plan: TunePlan) -> None:
    """The best content folder, its moved values marked, and the report for programs."""
    assert result.out is not None
    for name in REPORTS:  # report.md is the reader's report's (trackkit.report.tune)
        _inside(result.out, name)
    content = _inside(result.out, CONTENT)
    _clear(content)
    plan.files.with_values(result.parameters, result.best.values, mark=result.mark).write(content)
    _write(result.out, "report.json", json.dumps(result.to_json(), indent=1) + "\n")
