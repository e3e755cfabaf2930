"""Tune: balance a game's content (``trackkit tune``) from the app.

The page starts from a bundled content or the designer's own files, builds a tune file
from a form (what may move, the tracks and player counts, the targets) or takes one
uploaded, checks it with the library (:func:`~trackkit.tune.plan.plan_tune`: one line
for a bad move, a target the races cannot resolve, or a cost over the app's
``tune_races`` limit) before anything runs, and runs it off the script thread with
progress and Cancel (:func:`~trackkit.app.runs.heavy_run`). What a visitor uploads and
what a tune writes go to a folder of the visitor's own in the user's cache
(``~/.cache/trackkit/tunes`` on Linux): never inside the project. Each tune has its own
folder there (named after its fingerprint), so "Go on" with a higher budget resumes it.
The results are read back from that folder (:mod:`trackkit.app.tune_results`).
"""

from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import streamlit as st
import tomlkit

from trackkit.app import tune_results
from trackkit.app.choices import kept
from trackkit.app.explore_page import cache_folder, said
from trackkit.app.runs import Cancelled, Progress, Run, heavy_run, session_id
from trackkit.errors import TrackkitError, TuneFileError
from trackkit.errors import shown as escaped
from trackkit.games import DEFAULT_GAME, get_ruleset
from trackkit.games.face import Game
from trackkit.limits import TUNE_RACES
from trackkit.report.tune import write_tune_report
from trackkit.tune.content_files import ContentFiles
from trackkit.tune.plan import TunePlan, TuneSettings, plan_tune
from trackkit.tune.search import tune
from trackkit.tune.spec import parse_tune

TUNE_SOURCE = "tune.toml"  # the name a tune file of the page goes by (never a server path)
MAX_FILE_BYTES = 1_000_000  # an uploaded content or tune file (Streamlit's upload limit)
SCOPES = {
    "each": "on every track at every player count",
    "players": "at each player count, over the tracks together",
    "all": "over every track and player count together",
}
SHOWN = "tune-shown"  # per game, the output folder of the tune this session last ran of it
WHAT = "the tune"  # what the page's runs do, in the messages of runs.heavy_run
GO_ON = "tune-go-on-wanted"  # the budget "Go on" asked for, until the run starts


def tunable(game: str) -> bool:
    """Whether the page can tune ``game``: its ruleset names bundled contents and races
    with a content it is given (``options(content=…)``)."""
    return _tunable(game)


@cache
def _tunable(game: str) -> bool:
    ruleset = get_ruleset(game)
    if ruleset.contents is None:
        return False
    try:
        content = ruleset.load_content(ruleset.content_folder(ruleset.contents()[0]))
        ruleset.options(players=max(2, ruleset.players.race_min), content=content)
    except (TypeError, TrackkitError):  # options that take no content: nothing to tune
        return False
    return True


def visitor_folder() -> Path:
    """This visitor's folder for tunes: in the user's cache, named by a short digest of
    the session (not the session itself)."""
    visitor = hashlib.sha256(session_id().encode()).hexdigest()[:10]
    return cache_folder() / "tunes" / visitor


@dataclass(frozen=True)
class Start:
    """The content folder a tune starts from, and what the page calls it."""

    folder: Path
    label: str


def page(game: Game) -> None:
    """The Tune page of ``game``."""
    ruleset, look, name = game.ruleset, game.look, game.name
    key = f"{look.address}tune"
    st.title("Tune the content")
    st.write(
        f"Balance {ruleset.title}'s content: name the values that may move (statistics, "
        "abilities, card counts…), the tracks and player counts, and the targets; trackkit "
        "races candidates (Optuna proposes them) until one meets the targets, then races the "
        "start and the best again with more races and another seed to confirm. The same as "
        "`trackkit tune` on the command line."
    )
    if not tunable(name):
        st.info(f"{ruleset.title}'s races take no content to tune yet.")
        return
    start = _start(ruleset, key)
    plan = None
    if start is not None:
        text = _tune_text(name, ruleset, start, key)
        plan = _planned(name, text, start) if text is not None else None
    pressed = st.button(
        "Tune", type="primary", icon=":material/tune:", key=f"{key}-run", disabled=plan is None
    )
    _heavy_work(plan if pressed else None, start.label if start is not None else "")
    shown = st.session_state.get(SHOWN, {}).get(name)
    if shown is not None:
        tune_results.show(Path(shown), key, GO_ON)


# --- the start: a bundled content or the designer's files --------------------------------


def _start(ruleset: Any, key: str) -> Start | None:
    """The content folder chosen, checked by the game's loader; None, with the reason
    shown, when there is none yet."""
    st.subheader("Start from")
    names = ruleset.contents()
    source = kept(
        st.radio,
        "Start from",
        f"{key}-start",
        "bundled",
        options=["bundled", "files"],
        format_func=lambda s: "A bundled content" if s == "bundled" else "Your own files",
        horizontal=True,
        label_visibility="collapsed",
    )
    if source == "bundled":
        name = kept(st.selectbox, "Bundled content", f"{key}-content", names[0], options=names)
        return Start(Path(ruleset.content_folder(name)), name)
    return _uploaded_start(ruleset, key)


def _uploaded_start(ruleset: Any, key: str) -> Start | None:
    bundled = Path(ruleset.content_folder(ruleset.contents()[0]))
    expected = sorted(ContentFiles.read(bundled).documents)
    uploads = st.file_uploader(
        "Your content files (.toml)",
        type=["toml"],
        accept_multiple_files=True,
        key=f"{key}-files",
        help=f"Named as the game's: {', '.join(expected)}. A file you do not give is the "
        f"bundled {ruleset.contents()[0]!r} content's.",
    )
    if not uploads:
        st.info(f"Choose your content files ({', '.join(expected)}).")
        return None
    files: dict[str, bytes] = {}
    for upload in uploads:
        name = str(upload.name)[:100]
        data = upload.getvalue()
        if name not in expected:
            st.error(
                f"{escaped(name)}: not a content file of the game; name it as one of its "
                f"files: {', '.join(expected)}."
            )
            return None
        if len(data) > MAX_FILE_BYTES:
            st.error(f"{escaped(name)}: {len(data):,} bytes is too large for a content file.")
            return None
        files[name] = data
    try:
        folder = start_folder(visitor_folder(), bundled, files)
        ruleset.load_content(folder)
    except TrackkitError as error:
        st.error(said(error))
        return None
    return Start(folder, "your files")


def start_folder(root: Path, bundled: Path, files: dict[str, bytes]) -> Path:
    """A content folder under ``root`` holding ``files`` (by name) and, for every other
    file, the bundled content's; named by a digest of the files, written once (a tune
    running from it never sees it change)."""
    digest = hashlib.sha256()
    for name, data in sorted(files.items()):
        digest.update(name.encode() + b"\0" + data + b"\0")
    folder = root / f"start-{digest.hexdigest()[:12]}"
    if not folder.is_dir():
        ContentFiles.read(bundled).write(folder.with_suffix(".part"))
        for name, data in files.items():
            (folder.with_suffix(".part") / name).write_bytes(data)
        folder.with_suffix(".part").rename(folder)
    return folder


# --- the tune file: from the form, or uploaded -------------------------------------------


def _tune_text(game: str, ruleset: Any, start: Start, key: str) -> str | None:
    """The tune file's text: the one uploaded, else the form's; shown with a download."""
    try:
        files = ContentFiles.read(start.folder)
    except TrackkitError as error:
        st.error(said(error))
        return None
    st.subheader("What may move")
    _moves(files, key)
    st.subheader("Where, and the targets")
    balance, targets, search = _where_and_targets(game, ruleset, start, key)
    uploaded = st.file_uploader(
        "Or a tune file of your own (.toml)",
        type=["toml"],
        key=f"{key}-tune-file",
        help="A trackkit tune file ('Tune files' in docs/formats.md); it replaces the form.",
    )
    if uploaded is not None:
        data = uploaded.getvalue()
        try:
            text = data[:MAX_FILE_BYTES].decode("utf-8")
        except UnicodeDecodeError:
            st.error("The tune file is not a text (TOML) file in UTF-8.")
            return None
        st.info(
            "Your tune file replaces the form above (the start is still the one chosen).",
            icon=":material/upload_file:",
        )
    else:
        moves = st.session_state.get(f"{key}-moves", [])
        if not moves:
            return None  # the page said: add a value that may move
        text = tune_toml(game, balance, targets, search, moves)
    with st.expander("The tune file"):
        st.code(text, language="toml")
        st.download_button(
            "Download the tune file", text, "tune.toml", "application/toml", key=f"{key}-dl-spec"
        )
    return text


def tune_toml(
    game: str,
    balance: dict[str, Any],
    targets: dict[str, Any],
    search: dict[str, Any],
    moves: list[dict[str, Any]],
) -> str:
    """A tune file's text (``trackkit tune`` reads it as the page does)."""
    data = {"game": game, "balance": balance, "targets": targets, "search": search, "move": moves}
    return "# Made on the trackkit app's Tune page.\n\n" + tomlkit.dumps(data)


def _moves(files: ContentFiles, key: str) -> None:
    """The moves kept in the session, with Remove, and the controls that add one."""
    store = f"{key}-moves"
    moves = st.session_state.setdefault(store, [])
    if moves:
        st.dataframe([_move_row(m) for m in moves], hide_index=True)
        left, right = st.columns([3, 1], vertical_alignment="bottom")
        number = left.selectbox(
            "Move to remove",
            range(len(moves)),
            format_func=lambda i: f"{i + 1}. {_move_row(moves[i])['values']}",
            key=f"{key}-remove-which",
        )
        if right.button("Remove", icon=":material/delete:", key=f"{key}-remove"):
            del moves[number]
            st.rerun()
    else:
        st.info("No value may move yet: add one below.")
    adding = _move_form(files, key)
    if adding is not None and st.button("Add", icon=":material/add:", key=f"{key}-add"):
        moves.append(adding)
        st.rerun()


def _move_row(move: dict[str, Any]) -> dict[str, Any]:
    return {
        "file": move["file"],
        "entries": ", ".join(move.get("entries", ["every one"])),
        "values": ", ".join(move["fields"]),
        "low": move["low"],
        "high": move["high"],
    }


def _move_form(files: ContentFiles, key: str) -> dict[str, Any] | None:
    """A move from the content's own files: a file, its list, entries by name, the
    whole-number fields they all have, and a range; None until it names a value."""
    lists = {
        (name, listed): entries
        for name, document in files.documents.items()
        for listed, entries in _lists(document.unwrap())
    }
    if not lists:
        st.info("The content's files hold no list of entries told apart by a field.")
        return None
    left, middle, right = st.columns(3)
    movable = [w for w, entries in lists.items() if _shared(entries)]
    where = left.selectbox(
        "File and list",
        movable + [w for w in lists if w not in movable],
        format_func=lambda w: w[0] if sum(n == w[0] for n, _ in lists) == 1 else f"{w[0]}: {w[1]}",
        key=f"{key}-move-file",
    )
    entries = lists[where]
    naming = _naming(entries)
    names = [str(e[naming]) for e in entries]
    chosen = middle.multiselect(
        f"Entries (by {naming})", names, key=f"{key}-move-entries", help="None chosen: every entry"
    )
    picked = [e for e in entries if str(e[naming]) in chosen] or entries
    fields = [f for f in _shared(picked) if f != naming]
    if not fields:
        right.caption("These entries share no whole-number value: choose others.")
        return None
    moved = right.multiselect("Values", fields, key=f"{key}-move-fields")
    if not moved:
        return None
    present = [int(e[f]) for e in picked for f in moved]
    bounds = f"{key}-move-{where[0]}-{where[1]}-{','.join(moved)}"
    low_default = min(present) - 2 if min(present) < 0 or min(present) >= 2 else 0
    low_column, high_column = st.columns(2)
    low = low_column.number_input("Low", value=low_default, step=1, key=f"{bounds}-low")
    high = high_column.number_input("High", value=max(present) + 2, step=1, key=f"{bounds}-high")
    move: dict[str, Any] = {"file": where[0]}
    if sum(n == where[0] for n, _ in lists) > 1:
        move["list"] = where[1]
    if naming != "name":
        move["key"] = naming
    if chosen:
        move["entries"] = list(chosen)
    move |= {"fields": list(moved), "low": int(low), "high": int(high)}
    return move


def _lists(document: Any) -> list[tuple[str, list[Any]]]:
    """The lists of tables of ``document`` whose entries a field tells apart (:func:`_naming`)."""
    found = []
    for name, value in document.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            if _naming(value):
                found.append((name, list(value)))
    return found


def _naming(entries: list[Any]) -> str:
    """The field that tells ``entries`` apart: ``name`` when every one has one, else the
    first field whose values are all different (a deck's ``value``); "" when none does."""
    candidates = ["name", *(f for f in entries[0] if f != "name")]
    for field in candidates:
        values = [e.get(field) for e in entries]
        plain = all(isinstance(v, str | int) and not isinstance(v, bool) for v in values)
        if plain and len(set(map(str, values))) == len(values):
            return field
    return ""


def _shared(entries: list[Any]) -> list[str]:
    """The whole-number fields every one of ``entries`` has."""
    return [f for f in entries[0] if all(_whole(e.get(f)) for e in entries)]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _where_and_targets(
    game: str, ruleset: Any, start: Start, key: str
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The form's ``[balance]``, ``[targets]`` and ``[search]`` tables."""
    presets = ruleset.presets()
    bounds = ruleset.players
    counts = list(range(max(2, bounds.race_min), bounds.race_max + 1))
    left, right = st.columns(2)
    tracks = kept(
        left.multiselect,
        "Tracks",
        f"{key}-tracks",
        list(presets[:2]),
        options=presets,
        format_func=lambda k: ruleset.load_preset(k).name,
    )
    players = kept(
        right.multiselect, "Player counts", f"{key}-players", counts[1:3], options=counts
    )
    left, middle, right = st.columns(3)
    races = kept(
        left.number_input,
        "Races per candidate",
        f"{key}-races",
        500,
        min_value=100,
        max_value=1_000_000,
        step=100,
        help="On each track at each player count",
    )
    budget = kept(
        middle.number_input,
        "Budget (candidates)",
        f"{key}-budget",
        20,
        min_value=1,
        max_value=100_000,
        step=5,
    )
    seed = kept(right.number_input, "Seed", f"{key}-seed", 0, min_value=0, max_value=2**32 - 1)
    balance: dict[str, Any] = {"tracks": list(tracks), "players": list(players)}
    balance["races"] = int(races)
    groups = _groups(ruleset, start, tracks, players)
    group = "character"
    if groups:
        names = list(groups)
        group = kept(
            st.selectbox,
            "Balance the win shares of",
            f"{key}-group",
            "character" if "character" in groups else names[0],
            options=names,
            format_func=lambda g: groups[g][0],
        )
        group = group if group in groups else names[0]
        balance["group"] = group
    targets = _targets(key, groups.get(group, ("", ()))[1])
    return balance, targets, {"budget": int(budget), "seed": int(seed)}


def _targets(key: str, labels: tuple[str, ...]) -> dict[str, Any]:
    left, right = st.columns(2)
    tolerance = kept(
        left.slider,
        "Win-share tolerance (points)",
        f"{key}-tolerance",
        3,
        min_value=1,
        max_value=15,
        help="Each win share within this many points of the fair share (one win in players)",
    )
    scope = kept(
        right.radio,
        "Where each share is held",
        f"{key}-scope",
        "each",
        options=list(SCOPES),
        format_func=SCOPES.get,
    )
    left, right = st.columns(2)
    length = left.number_input(
        "Length change at most (%, optional)",
        value=None,
        min_value=0.5,
        max_value=99.0,
        step=1.0,
        key=f"{key}-length",
        help="Each mean race length within this much of the starting content's",
    )
    held = right.multiselect(
        "Held to the tolerance (optional)",
        list(labels),
        key=f"{key}-labels",
        help="None chosen: every one",
    )
    targets: dict[str, Any] = {"win_share": tolerance / 100, "scope": scope}
    if held:
        targets["labels"] = [label for label in held if label in labels]
    if length is not None:
        targets["length_change"] = round(float(length) / 100, 6)
    return targets


def _groups(
    ruleset: Any, start: Start, tracks: list[str], players: list[int]
) -> dict[str, tuple[str, tuple[str, ...]]]:
    """The groups whose win shares a tune can balance, by key: each one's title and
    labels, as the races on the first track at the first count report them."""
    if not tracks or not players:
        return {}
    try:
        return _race_groups(ruleset.name, str(start.folder), tracks[0], min(players))
    except TrackkitError:  # the plan says what is wrong
        return {}


@st.cache_data(max_entries=32, show_spinner=False)
def _race_groups(game: str, folder: str, track: str, players: int) -> dict[str, Any]:
    ruleset = get_ruleset(game)
    options = ruleset.options(players=players, content=ruleset.load_content(folder))
    prepared = ruleset.prepare(ruleset.load_preset(track), options)
    return {
        g.key: (g.title, tuple(g.labels)) for g in ruleset.groups(prepared, options) if not g.share
    }


# --- checked before it runs, then run ------------------------------------------------


def _planned(game: str, text: str, start: Start) -> TunePlan | None:
    """The tune checked by the library, its cost shown; None, with the reason in one
    line, when it cannot run."""
    try:
        plan = plan_for(game, text, start.folder)
    except TrackkitError as error:
        st.error(said(error))
        return None
    panel = plan.panel
    again = min(plan.spec.recheck, plan.budget)
    again = again if again > 1 else 0
    rechecked = (
        f"the search's {again} best and the start raced again (seed {plan.seed + 2}) to "
        "choose among them, and "
        if again
        else ""
    )
    st.caption(
        f"{_count(plan.budget, 'candidate')} × {_count(len(panel.tracks), 'track')} × "
        f"{_count(len(panel.players), 'player count')} × {_count(panel.races, 'race')}, "
        f"then {rechecked}the start and the best confirmed, with "
        f"{plan.confirm_races:,} races on each (seed {plan.seed + 1}): "
        f"{plan.races_in_all:,} races in all, within the app's limit of "
        f"{TUNE_RACES.value():,} (`tune_races`)."
    )
    return plan


def _count(number: int, thing: str) -> str:
    return f"{number:,} {thing}{'s' if number != 1 else ''}"


def plan_for(game: str, text: str, folder: Path, budget: int | None = None) -> TunePlan:
    """The tune file ``text`` of ``game``'s page, starting from ``folder``, planned; a
    file naming another game or a track that is no preset is refused (a visitor names
    no file of the server)."""
    spec = parse_tune(text, TUNE_SOURCE)
    if (spec.game or DEFAULT_GAME) != game:
        raise TuneFileError(
            TUNE_SOURCE,
            "game",
            f"this tune file is for {get_ruleset(spec.game or DEFAULT_GAME).title}; this "
            f'page tunes {get_ruleset(game).title} (game = "{game}")',
        )
    presets = get_ruleset(game).presets()
    for track in spec.tracks or ():
        if track not in presets:
            raise TuneFileError(
                TUNE_SOURCE,
                "balance.tracks",
                f"{escaped(track, 60)!r} is no preset; the app races its presets: "
                + ", ".join(presets),
            )
    return _plan(text, str(folder), budget, TUNE_RACES.value())


@st.cache_resource(max_entries=16, show_spinner="Checking the tune…")
def _plan(text: str, folder: str, budget: int | None, limit: int) -> TunePlan:
    # keyed on the ``limit`` in force too: a plan within one limit may be over another
    return plan_tune(parse_tune(text, TUNE_SOURCE), TuneSettings(content=folder, budget=budget))


def _heavy_work(pressed: TunePlan | None, label: str) -> None:
    """The session's one run at a time: the tune just asked for (Tune from the start
    called ``label``, or Go on with a higher budget), else a run still going, followed
    with its progress and Cancel."""
    plan, budget = pressed, None
    wanted = st.session_state.pop(GO_ON, None)
    if plan is None and wanted is not None:
        out, budget = Path(wanted[0]), int(wanted[1])
        try:
            text = tune_results.tune_file(out)
            plan = plan_for(tune_results.game_of(out), text, tune_results.start_of(out), budget)
            label = tune_results.start_label(out)
        except TrackkitError as error:
            st.error(said(error))
            return
    if plan is None:
        _shown(heavy_run("", "candidates", None, False, lambda progress: None))  # one going
        return
    tuned: TunePlan = plan
    out = visitor_folder() / tuned.fingerprint()[:12]
    settings = TuneSettings(content=str(tuned.folder), budget=budget)

    def work(progress: Progress) -> str:
        def follow(done: int, total: int, best: float, met: bool) -> bool:
            try:
                progress(done, total)
            except Cancelled:  # the search stops here; the start and the best are confirmed
                return False
            return True

        mark = f"the trackkit app's Tune page (seed {tuned.seed})"
        result = tune(tuned.spec, out, settings, follow, mark)
        write_tune_report(result)
        tune_results.write_notes(out, label)
        return str(out)

    _shown(heavy_run(WHAT, "candidates", str(out), True, work))


def _shown(run: Run | None) -> None:
    """A tune that ended with its report is the one its game's page (only) shows from now
    on, also when it ended while the visitor was on another page."""
    if run is not None and run.what == WHAT and run.state == "finished":
        with contextlib.suppress(TrackkitError):  # a report gone: nothing to show
            st.session_state.setdefault(SHOWN, {})[tune_results.game_of(Path(run.key))] = run.key
