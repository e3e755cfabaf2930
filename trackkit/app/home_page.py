"""The opening page and the navigation: the opening page and the glossary, then each game
of the registry under its name, with its own pages (:mod:`trackkit.app.games`) and the
shared ones (Race and Compare for every game; Explore for a game with a space of legal
tracks; Tune for a game whose content can be tuned)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

import streamlit as st

from trackkit.app import common, compare_page, explore_page, glossary, race_page, tune_page
from trackkit.app.games import pages_of
from trackkit.errors import TrackkitError
from trackkit.games.base import KNOWN, get_ruleset
from trackkit.games.face import Look, game_of, look_of

DEFAULT_GAME = next(iter(KNOWN))


def _titled(look: Look, title: str) -> str:
    """A shared page's title in a game's section: ``Race``, or ``Snow Tails race``."""
    return f"{look.name} {title.lower()}" if look.name else title


class Entry(NamedTuple):
    """A page of the navigation before Streamlit wraps it: what draws it and where."""

    draw: Callable[[], None]
    title: str
    icon: str
    path: str


def game_entries(game: str) -> list[Entry]:
    """``game``'s pages in the navigation: its first own page (the editor), Race, Compare,
    the rest of its own, Explore when it has a space of legal tracks, Tune when its
    content can be tuned, then those declared ``last``."""
    look, added = look_of(game), pages_of(game)
    own = [(Entry(p.draw, p.title, p.icon, p.path), p.last) for p in added.pages]
    firsts = [entry for entry, last in own if not last]
    lasts = [entry for entry, last in own if last]
    race = Entry(
        partial(race_page.page, game_of(game), added.race_view),
        _titled(look, "Race"),
        ":material/casino:",
        f"{look.address}race",
    )
    compare = Entry(
        partial(compare_page.page, game_of(game), added.compare_view),
        _titled(look, "Compare"),
        ":material/leaderboard:",
        f"{look.address}compare",
    )
    after = []  # the shared pages some games have
    if get_ruleset(game).track_space is not None:
        after.append(
            Entry(
                partial(explore_page.page, game_of(game)),
                _titled(look, "Explore"),
                ":material/scatter_plot:",
                f"{look.address}explore",
            )
        )
    if tune_page.tunable(game):
        after.append(
            Entry(
                partial(tune_page.page, game_of(game)),
                _titled(look, "Tune"),
                ":material/tune:",
                f"{look.address}tune",
            )
        )
    return [*firsts[:1], race, compare, *firsts[1:], *after, *lasts]


def game_pages(game: str) -> list[st.Page]:
    """``game``'s pages as the navigation lists them (:func:`game_entries`)."""
    return [
        st.Page(e.draw, title=e.title, icon=e.icon, url_path=e.path) for e in game_entries(game)
    ]


def page_function(path: str) -> Callable[[], None]:
    """What draws the page whose address is ``path`` (run on its own, as the tests do)."""
    if path in ("", "start"):
        return page
    if path == "glossary":
        return glossary.page
    entries = [e for game in KNOWN for e in game_entries(game)]
    return next(e.draw for e in entries if e.path == path)


def start_page() -> st.Page:
    return st.Page(page, title="Start", icon=":material/home:", url_path="start", default=True)


def glossary_page() -> st.Page:
    return st.Page(
        glossary.page, title="Glossary", icon=":material/menu_book:", url_path="glossary"
    )


def app_sections() -> dict[str, list[st.Page]]:
    """The navigation: the opening page, then each game's pages under its name (the
    sidebar is the game selector)."""
    paths = ["start", "glossary", *(e.path for game in KNOWN for e in game_entries(game))]
    twice = sorted({p for p in paths if paths.count(p) > 1})
    if twice:  # Streamlit would show one of them and hide the other
        raise TrackkitError(
            f"two pages of the app have the address {', '.join(twice)}: give each game's "
            "pages their own beginning (Look.address)"
        )
    sections = {"": [start_page(), glossary_page()]}
    for game in KNOWN:
        sections[get_ruleset(game).title] = game_pages(game)
    common.navigates({p.url_path: p for pages in sections.values() for p in pages})
    return sections


def show_navigation(sections: dict[str, list[st.Page]], where: Any) -> None:
    """The sidebar's links to every page, under each game's name, in ``where`` (a slot
    drawn again once the page has run: the links carry the design as the page left it).

    Streamlit's own navigation is hidden: its links drop the address's designs, and
    putting them back after the switch made each switch two steps of the browser's
    history, so Back stopped on the same page."""
    with where.container():
        for title, pages in sections.items():
            if title:
                st.caption(title)
            for shown in pages:
                common.page_link(shown)


def app_pages() -> list[st.Page]:
    """The opening page, then every page of the first game."""
    return [start_page(), *game_pages(DEFAULT_GAME)]


def page() -> None:
    first = get_ruleset(DEFAULT_GAME)
    st.title(f"trackkit: race tracks for {first.title}")
    _steps(DEFAULT_GAME)
    with st.expander("Glossary: round, MP, seat, start path, balance… in plain words"):
        glossary.show_glossary()
        common.page_link(glossary_page(), label="The glossary on a page of its own")
    for game in list(KNOWN)[1:]:
        st.divider()
        st.subheader(f"And another game: {get_ruleset(game).title}")
        look = look_of(game)
        if look.summary:
            st.write(look.summary)
        if look.caveat:
            st.caption(look.caveat)
        pages = game_pages(game)
        row = st.columns(len(pages))
        for column, shown in zip(row, pages, strict=True):
            common.page_link(shown, where=column)
    st.caption(
        "The same analyses run from the command line (`trackkit --help`) and from Python; "
        "see the docs (the README links to them)."
    )


def _steps(game: str) -> None:
    """What the first game's pages do, each with its link, and its caveat."""
    look = look_of(game)
    if look.summary:
        st.write(look.summary)
    links = {p.url_path: p for p in game_pages(game)}
    steps = look.steps
    shown = [step for step in steps if f"{look.address}{step[0]}" in links]
    for column, (path, heading, text, label) in zip(st.columns(3), shown, strict=False):
        with column:
            st.subheader(heading)
            st.write(text)
            target = links[f"{look.address}{path}"]
            common.page_link(target, label=label)
    explore = links.get(f"{look.address}explore")
    if explore is not None:
        st.write(
            "Or let trackkit find tracks for you: the Explore page maps thousands of legal "
            "tracks by length and balance (sweeps, `trackkit sweep`), and opens the one you "
            "pick in Design."
        )
        common.page_link(explore, label="Explore legal tracks")
    if look.caveat:
        st.info(look.caveat, icon=":material/info:")
