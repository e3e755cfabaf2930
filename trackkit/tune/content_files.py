"""A content folder's TOML files as a designer wrote them, and the values a tune moves.

The files are parsed with tomlkit, so that a tuned folder keeps every comment, every
field's order and every value the tune did not move; each value it moved carries a
``# tuned`` comment saying how and what it was before. A tune file's ``[[move]]`` names
a file, entries of its list by name, and fields; :func:`resolve_moves` turns each into
:class:`Parameter` s, one per entry and field, checked against the folder: an unknown
file, entry or field, or a value outside its bounds, is a one-line
:class:`~trackkit.errors.TuneFileError`.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.items import AoT, Table

from trackkit.board.datafile import read_text
from trackkit.errors import ContentFileError, OutputFileError, TuneFileError, shown
from trackkit.limits import TUNE_DECK_CARDS
from trackkit.tune.spec import MoveSpec, TuneSpec

MARK = "tuned"  # the comment that marks a value a tune moved


@dataclass(frozen=True)
class Parameter:
    """One value a tune may move: ``field`` of the entry named ``entry`` in the list
    ``list_name`` of ``file`` (or, with ``number``, how many of that entry's cards carry
    that number).

    A range parameter takes whole numbers ``low``, ``low + step`` … ``high``; a choice
    parameter the index of one of ``choices`` (values, or tables of fields set together).
    ``start`` is its value in the folder the tune starts from.
    """

    name: str
    file: str
    list_name: str
    key: str
    entry: str
    field: str
    number: int | None
    low: int | None
    high: int | None
    step: int
    choices: tuple[Any, ...] | None
    start: int

    def describe(self, value: int) -> str:
        """``value`` as a reader sees it (a choice by its fields)."""
        if self.choices is None:
            return str(value)
        choice = self.choices[value]
        if isinstance(choice, dict):
            return ", ".join(f"{k} = {v}" for k, v in choice.items())
        return str(choice)

    @property
    def labels(self) -> list[str]:
        """The choices as the optimiser's categories (each choice's description)."""
        return [self.describe(i) for i in range(len(self.choices or ()))]


class ContentFiles:
    """The TOML files of a content folder, parsed with their comments."""

    def __init__(self, folder: Path, documents: dict[str, tomlkit.TOMLDocument]) -> None:
        self.folder = folder
        self.documents = documents

    @classmethod
    def read(cls, folder: str | Path) -> ContentFiles:
        """Every ``*.toml`` file of ``folder``."""
        folder = Path(folder)
        documents = {}
        for path in sorted(folder.glob("*.toml")):
            text = read_text(path, ContentFileError)
            try:
                documents[path.name] = tomlkit.parse(text)
            except Exception as error:  # tomlkit's parse errors share no base class
                raise ContentFileError(str(path), None, f"is not valid TOML: {error}") from None
        return cls(folder, documents)

    def copy(self, names: set[str] | None = None) -> ContentFiles:
        """A copy whose files ``names`` (default: all) may be changed; the others are
        shared, unchanged (parsing every file again cost each candidate about 90 ms)."""
        return ContentFiles(
            self.folder,
            {
                name: tomlkit.parse(tomlkit.dumps(doc)) if names is None or name in names else doc
                for name, doc in self.documents.items()
            },
        )

    def value(self, parameter: Parameter) -> int:
        """``parameter``'s value in these files."""
        entry = self._entry(parameter)
        if parameter.choices is not None:
            return _matching_choice(parameter.choices, entry, parameter.field)
        current = entry[parameter.field]
        if parameter.number is not None:
            return [int(n) for n in current].count(parameter.number)
        return int(current)

    def with_values(
        self,
        parameters: Sequence[Parameter],
        values: Mapping[str, int],
        mark: str | None = None,
    ) -> ContentFiles:
        """A copy with each parameter set to its value in ``values`` (by name); with
        ``mark``, each value that changed carries a ``# tuned`` comment (``mark`` says how)."""
        files = self.copy({p.file for p in parameters})
        changed: set[str] = set()
        for parameter in parameters:
            value = values[parameter.name]
            if files.value(parameter) == value:
                continue
            comment = (
                f"{MARK} ({mark}); was {parameter.describe(parameter.start)}" if mark else None
            )
            files._set(parameter, value, comment)
            changed.add(parameter.file)
        if mark:
            for name in changed:
                files._note_provenance(name, mark)
        return files

    def write(self, folder: Path) -> Path:
        """These files into ``folder`` (a new or empty folder), with every other file of
        the folder they came from."""
        folder.mkdir(parents=True, exist_ok=True)
        for path in sorted(self.folder.iterdir()):
            if path.is_file() and path.name not in self.documents and path.suffix != ".py":
                shutil.copyfile(path, folder / path.name)
        for name, document in self.documents.items():
            try:
                (folder / name).write_text(tomlkit.dumps(document), encoding="utf-8")
            except OSError as error:
                raise OutputFileError(str(folder / name), None, str(error)) from None
        return folder

    def _entry(self, parameter: Parameter) -> Table:
        return self.documents[parameter.file][parameter.list_name][_index(self, parameter)]

    def _set(self, parameter: Parameter, value: int, comment: str | None) -> None:
        entry = self._entry(parameter)
        if parameter.choices is not None:
            choice = parameter.choices[value]
            if isinstance(choice, dict):
                others = {k for c in parameter.choices for k in c} - set(choice)
                for key in others:
                    if key in entry:
                        del entry[key]
                for i, (key, field_value) in enumerate(choice.items()):
                    entry[key] = _item(field_value, comment if i == 0 else None)
            else:
                entry[parameter.field] = _item(choice, comment)
            return
        if parameter.number is not None:
            numbers = [int(n) for n in entry[parameter.field] if int(n) != parameter.number]
            numbers += [parameter.number] * value
            entry[parameter.field] = _item(sorted(numbers), comment)
            return
        entry[parameter.field] = _item(value, comment)

    def _note_provenance(self, name: str, mark: str) -> None:
        document = self.documents[name]
        note = f" Values marked '# {MARK}' were set by {mark}."
        if isinstance(document.get("provenance"), str) and note not in document["provenance"]:
            document["provenance"] = str(document["provenance"]) + note


def _item(value: Any, comment: str | None) -> Any:
    item = tomlkit.item(value)
    if comment:
        item.comment(comment)
    return item


def _index(files: ContentFiles, parameter: Parameter) -> int:
    entries = files.documents[parameter.file][parameter.list_name]
    for i, entry in enumerate(entries):
        if str(_plain(entry.get(parameter.key, ""))) == parameter.entry:
            return i
    raise KeyError(parameter.entry)  # resolve_moves found it: the files were changed since


def _matching_choice(choices: tuple[Any, ...], entry: Table, field: str) -> int:
    for i, choice in enumerate(choices):
        if isinstance(choice, dict):
            if all(k in entry and _plain(entry[k]) == v for k, v in choice.items()):
                return i
        elif field in entry and _plain(entry[field]) == choice:
            return i
    return -1


def _plain(value: Any) -> Any:
    return value.unwrap() if hasattr(value, "unwrap") else value


def resolve_moves(spec: TuneSpec, files: ContentFiles) -> tuple[Parameter, ...]:
    """Every parameter the tune file's moves name, checked against ``files``."""
    parameters: dict[str, Parameter] = {}
    for index, move in enumerate(spec.moves):
        for parameter in _parameters(spec, files, move, f"move[{index}]"):
            if parameter.name in parameters:
                raise TuneFileError(
                    spec.path, f"move[{index}]", f"{parameter.name} is moved twice; move it once"
                )
            parameters[parameter.name] = parameter
    found = tuple(parameters.values())
    _check_overlaps(spec, files, found)
    _check_decks(files, found)
    return found


def _writes(parameter: Parameter) -> list[str]:
    """The fields a parameter sets (a choice of tables: every field any choice sets, the
    others removed), in the order the tune file names them."""
    if parameter.choices is not None and isinstance(parameter.choices[0], dict):
        return list(dict.fromkeys(key for choice in parameter.choices for key in choice))
    return [parameter.field]


def _check_overlaps(spec: TuneSpec, files: ContentFiles, parameters: tuple[Parameter, ...]) -> None:
    """Refuse two moves setting one field of one entry (the second would find it renamed or
    removed by the first), and a move setting the field by which a move finds its entry."""
    written: dict[tuple[str, str, int, str], Parameter] = {}
    keys = {(p.file, p.list_name, p.key) for p in parameters}
    for parameter in parameters:
        index = _index(files, parameter)
        for field in _writes(parameter):
            if (parameter.file, parameter.list_name, field) in keys:
                raise TuneFileError(
                    spec.path,
                    "move",
                    f"{parameter.name} sets {field!r}, the field a move finds its entries by: "
                    "a candidate would rename an entry; move another field",
                )
            place = (parameter.file, parameter.list_name, index, field)
            other = written.get(place)
            # moves counting different numbers of one list of cards leave each other's be
            counts = other is not None and None not in (other.number, parameter.number)
            if other is not None and not counts:
                raise TuneFileError(
                    spec.path,
                    "move",
                    f"{other.name} and {parameter.name} both set {parameter.entry!r}'s {field!r}; "
                    "move each field of an entry in one move",
                )
            written[place] = parameter


def _check_decks(files: ContentFiles, parameters: tuple[Parameter, ...]) -> None:
    """Refuse `number` moves that could build a deck over the ``tune_deck_cards`` limit:
    each list of cards counted with every number moved at its ``high``."""
    decks: dict[tuple[str, str, str], int] = {}
    moved: dict[tuple[str, str, str], int] = {}
    for parameter in parameters:
        if parameter.number is None:
            continue
        deck = (parameter.file, parameter.list_name, parameter.field)
        if deck not in decks:
            entries = files.documents[parameter.file][parameter.list_name]
            decks[deck] = sum(
                len(e[parameter.field]) for e in entries if isinstance(e.get(parameter.field), list)
            )
        assert parameter.high is not None
        moved[deck] = moved.get(deck, 0) + parameter.high - parameter.start
    for (file, list_name, field), cards in decks.items():
        TUNE_DECK_CARDS.check(
            cards + moved[(file, list_name, field)],
            f"{file}'s {list_name} with every `number` move at its `high`",
        )


def _parameters(spec: TuneSpec, files: ContentFiles, move: MoveSpec, where: str) -> list[Parameter]:
    def refuse(problem: str) -> TuneFileError:
        return TuneFileError(spec.path, where, problem)

    if move.file not in files.documents:
        known = ", ".join(files.documents) or "none"
        raise refuse(f"the content folder has no file {move.file!r} (it has: {known})")
    document = files.documents[move.file]
    listed = _list_name(document, move, refuse)
    entries = document[listed]
    names = [str(_plain(e.get(move.key, ""))) for e in entries]
    if not any(names):
        raise refuse(
            f"the entries of {move.file}'s {listed} have no {move.key!r}; name the field "
            "that tells them apart with `key`"
        )
    chosen = (
        names
        if move.entries is None
        else [_entry_name(name, names, move, refuse) for name in move.entries]
    )
    found = []
    for name in chosen:
        entry = entries[names.index(name)]
        for field in move.fields:
            named = name if move.key == "name" else f"{move.key} {name}"
            label = f"{move.file.removesuffix('.toml')} / {named} / {field}"
            if move.number is not None:
                label += f" (cards numbered {move.number})"
            parameter = Parameter(
                name=label,
                file=move.file,
                list_name=listed,
                key=move.key,
                entry=name,
                field=field,
                number=move.number,
                low=move.low,
                high=move.high,
                step=move.step,
                choices=move.choices,
                start=0,
            )
            start = _start(parameter, entry, refuse)
            found.append(replace(parameter, start=start))
    return found


def _list_name(document: Any, move: MoveSpec, refuse: Any) -> str:
    lists = [
        key
        for key, value in document.items()
        if isinstance(value, AoT | list)
        and value
        and all(isinstance(v, Table | dict) for v in value)
    ]
    if move.list_name is not None:
        if move.list_name not in lists:
            raise refuse(f"{move.file} has no list {move.list_name!r} (it has: {', '.join(lists)})")
        return move.list_name
    if len(lists) != 1:
        raise refuse(
            f"{move.file} holds the lists {', '.join(lists) or 'none'}; name one with `list`"
        )
    return lists[0]


def _entry_name(name: str, names: list[str], move: MoveSpec, refuse: Any) -> str:
    if name in names:
        return name
    folded = [n for n in names if n.strip().casefold() == name.strip().casefold()]
    if folded:
        return folded[0]
    raise refuse(
        f"{move.file} has no entry with {move.key} {shown(name, 60)!r}; its entries: "
        + shown(", ".join(names), 200)
    )


def _start(parameter: Parameter, entry: Table, refuse: Any) -> int:
    field = parameter.field
    where = f"{parameter.entry!r}"
    if parameter.choices is not None:
        index = _matching_choice(parameter.choices, entry, field)
        if index < 0:
            raise refuse(
                f"{where}'s {field} is none of the choices; add its present value to `choices` "
                "(a tune starts from the folder as it is)"
            )
        return index
    if field not in entry:
        raise refuse(f"{where} has no field {field!r}; a move changes a value the file has")
    current = _plain(entry[field])
    if parameter.number is not None:
        if not isinstance(current, list) or not all(
            isinstance(n, int) and not isinstance(n, bool) for n in current
        ):
            raise refuse(f"{where}'s {field} is not a list of numbers; `number` counts in one")
        value = current.count(parameter.number)
    elif isinstance(current, bool) or not isinstance(current, int):
        raise refuse(
            f"{where}'s {field} is {shown(current, 40)!r}, not a whole number; "
            "move it with `choices`"
        )
    else:
        value = current
    assert parameter.low is not None and parameter.high is not None
    if not parameter.low <= value <= parameter.high or (value - parameter.low) % parameter.step:
        raise refuse(
            f"{where}'s {field} is {value}, outside low {parameter.low} … high "
            f"{parameter.high} (step {parameter.step}); widen the bounds so the tune can "
            "start from the folder as it is"
        )
    return value
