"""The opening page: what trackkit is, three steps to start, and what is reconstructed."""

from __future__ import annotations

import streamlit as st

from trackkit.app import (
    compare_page,
    design_page,
    explore_page,
    glossary,
    race_page,
    snow_compare_page,
    snow_design_page,
    snow_race_page,
    tiles_page,
)
from trackkit.app.snow_common import GAME_TITLE as SNOW_TAILS

RECONSTRUCTED = (
    "**Reconstructed data.** The rulebook and its six preset tracks fix how many tiles there "
    "are, which is the start and which the finish, and which path tiles are straights or "
    "curves. The physical tiles and cards are not published, so **the square layout and "
    "terrain of every tile, and the numbers on the cards, are reconstructions**: race "
    "lengths and win rates compare tracks with each other, they do not predict the boxed "
    "game exactly. If you own the box, correct the tile files (see the Tiles page) without "
    "touching any code."
)


def snow_pages() -> list[st.Page]:
    """The Snow Tails pages (their addresses start with ``snow-``)."""
    return [
        st.Page(
            snow_design_page.page,
            title="Snow Tails design",
            icon=":material/ac_unit:",
            url_path="snow-design",
        ),
        st.Page(
            snow_race_page.page,
            title="Snow Tails race",
            icon=":material/sledding:",
            url_path="snow-race",
        ),
        st.Page(
            snow_compare_page.page,
            title="Snow Tails compare",
            icon=":material/leaderboard:",
            url_path="snow-compare",
        ),
    ]


def app_sections() -> dict[str, list[st.Page]]:
    """The navigation: the opening page, then each game's pages under its name (the
    sidebar is the game selector)."""
    start, *yummell = app_pages()
    return {"": [start, glossary_page()], "Yummell": yummell, SNOW_TAILS: snow_pages()}


def glossary_page() -> st.Page:
    return st.Page(
        glossary.page, title="Glossary", icon=":material/menu_book:", url_path="glossary"
    )


def app_pages() -> list[st.Page]:
    """Every Yummell page of the app, the opening page first (the default)."""
    return [
        st.Page(page, title="Start", icon=":material/home:", url_path="start", default=True),
        st.Page(design_page.page, title="Design", icon=":material/extension:", url_path="design"),
        st.Page(race_page.page, title="Race", icon=":material/casino:", url_path="race"),
        st.Page(
            compare_page.page, title="Compare", icon=":material/leaderboard:", url_path="compare"
        ),
        st.Page(
            explore_page.page, title="Explore", icon=":material/scatter_plot:", url_path="explore"
        ),
        st.Page(tiles_page.page, title="Tiles", icon=":material/grid_view:", url_path="tiles"),
    ]


def page() -> None:
    st.title("trackkit: race tracks for Yummell")
    st.write(
        "Yummell is a fantasy racing board game for 2 to 8 players whose track is laid from "
        "ten square tiles. trackkit lets you lay a track tile by tile with the rulebook's "
        "rules checked as you go, race it thousands of times with the full base rules, and "
        "compare it with the six tracks printed in the rulebook."
    )
    links = {p.title: p for p in app_pages()}
    design, race, compare = st.columns(3)
    with design:
        st.subheader("1. Design a track")
        st.write(
            "Start from an empty table, a preset or a track file; place tiles by clicking "
            "the table. Every change can be undone, and the address bar keeps a link to "
            "your design."
        )
        st.page_link(links["Design"], label="Design a track", icon=":material/extension:")
    with race:
        st.subheader("2. Race it")
        st.write(
            "Choose players, characters and advantages and simulate many races: the verdict "
            "in words (how long, and how fair against an average track), who wins, where "
            "characters pile up, and one race to replay."
        )
        st.page_link(links["Race"], label="Race a track", icon=":material/casino:")
    with compare:
        st.subheader("3. Compare it")
        st.write(
            "Set your design beside the rulebook's presets: length and balance with their "
            "intervals, exact solo length and start-path spread, MP per square and terrain mix."
        )
        st.page_link(links["Compare"], label="Compare tracks", icon=":material/leaderboard:")
    st.write(
        "Or let trackkit find tracks for you: the Explore page maps thousands of legal tracks "
        "by length and balance (sweeps, `trackkit sweep`), and opens the one you pick in "
        "Design."
    )
    st.page_link(links["Explore"], label="Explore legal tracks", icon=":material/scatter_plot:")
    st.info(RECONSTRUCTED, icon=":material/info:")
    with st.expander("Glossary: round, MP, seat, start path, balance… in plain words"):
        glossary.show_glossary()
        st.page_link(glossary_page(), label="The glossary on a page of its own")
    st.divider()
    st.subheader(f"And a second game: {SNOW_TAILS}")
    st.write(
        "Dog-sled races on a lane track of straights and corners: choose a demo board, "
        "place trees, markers and the four buildings by clicking its spaces with every rule "
        "checked, race it with the full rules for 2 to 8 sleds (how long, how fair the start "
        "slots, where sleds collide), and compare it with the other boards. The boards are "
        "reconstructions: the printed ones are not published."
    )
    design, race, compare = snow_pages()
    row = st.columns(3)
    row[0].page_link(design, label="Design a Snow Tails track", icon=":material/ac_unit:")
    row[1].page_link(race, label="Race a Snow Tails track", icon=":material/sledding:")
    row[2].page_link(compare, label="Compare Snow Tails tracks", icon=":material/leaderboard:")
    st.caption(
        "The same analyses run from the command line (`trackkit --help`) and from Python; "
        "see the docs (the README links to them)."
    )
