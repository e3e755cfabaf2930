"""The words the app's pages and tables use, each said once in plain words: the Glossary
page and the start page's expander show them all, and a table's column explains itself
with the entry of its word (:func:`column_help`).

>>> "MP" in GLOSSARY and "seat" in GLOSSARY
True
"""

from __future__ import annotations

from typing import Any

import streamlit as st

# term -> what it means; in the order a new user meets them
GLOSSARY: dict[str, str] = {
    "round": "Every racer takes one turn, in an order drawn at random each round. A race's "
    "length is counted in rounds: the round in which the first racer reaches the finish.",
    "MP": "Movement points. A played card gives as many MP as its number; entering a square "
    "costs its terrain's MP (plain 1, woods 2, hills 2, swamp 3), 1 more per racer already "
    "on it. MP per square: a track's squares' MP on average.",
    "seat": "A player's place in the list of a race's players (the sample race lists each "
    "seat's character and advantage). It is not the turn order, which is drawn again every "
    "round.",
    "start path": "The start tile holds several paths (A, B, C) that merge before its exit. "
    "Each racer begins on one: dealt in turn (every path starts as many racers) or chosen by "
    "its policy. A start path's win rate is the share of the racers started on it that won.",
    "start slot": "Snow Tails 2: a sled's place in the start order, drawn at random: the "
    "order in which the sleds choose their start space and move in round 1, which also sets "
    "each sled's first bonus die (slots 1-2: 1, 3-4: 2, 5-6: 3, 7-8: 4). Sleds started: "
    "the sleds that began a race in that slot (one each race).",
    "encounter": "After moving at least one square, a racer draws a card: a creature to "
    "challenge (win: one square on; lose: back to the first free square behind), an "
    "artefact to keep, or an event played against it.",
    "curse": "An event that makes squares dearer for the racer it hits (Mushroom Curse: "
    "hills cost 1 MP more) until that racer rests.",
    "building rule": "The rulebook's optional rule for laying a track: the player count sets "
    "how many path tiles go between the start and the finish (2 each with 2 players, 1 each "
    "with 3 or more), and each tile must leave room for another after it. On by default for "
    "the player count of the Design, Race, Compare and Explore pages.",
    "character": "One of the eight racers of the box, each with its strengths and one "
    "ability. Races entered: the races it took part in (at most one racer per character).",
    "advantage": "A card dealt to each player for the whole race (Climbing: hills cost 1 MP "
    "less; Heroism: +4 in challenges…).",
    "policy": "How the simulated racers play. greedy: the reference player, fixed so results "
    "compare (the cheapest start path, its highest card as far as it goes, never rests). "
    "smart: plays as a good player would.",
    "win rate": "The share of the races (or of the racers) that won; a tie for first counts "
    "as a win for each in it. The fair share is 1 ÷ players: what each would win in a "
    "perfectly fair race.",
    "95% interval": "Where the true figure lies, 95 times in 100, given the races run: more "
    "races, a narrower interval. Two figures whose intervals overlap may not differ at all.",
    "exact": "Solved, not sampled: one racer alone on the track, an endless deck, the greedy "
    "policy; an exact Markov chain, so no interval.",
    "average track": "What a track is measured against: 30 tracks drawn once at random from "
    "every legal track for that player count, raced with the same options and seed (a "
    "game without such a space, as Snow Tails 2, or a count the building rule does not "
    "cover: its preset tracks).",
    "skill": "How much more often a player of the game's strongest policy wins than a player "
    "of its own (Yummell and Snow Tails: smart over greedy), in points of win rate, each "
    "raced against the other at mixed tables (each seat played by both, on the same deals). "
    "Near 0, or below 5 points: skill pays little on the track; below 0, the careful play "
    "loses to the simple one there.",
    "unfairness": "How far the track moves a racer's chance of winning from fair, in points "
    "of win share (3: by about 3 points, say from 25% to 22% or 28%): its characters against "
    "an average track, and its start (Yummell: the order in which the racers make their first "
    "move and so choose their start path; Snow Tails: the start slots) against the fair "
    "share. Each move's noise is taken out, so 0 is a track the races cannot tell from fair.",
    "tied": "Two tracks (or characters) whose difference the races cannot tell from luck at "
    "95%, corrected for the number of pairs compared (Holm): trackkit says neither is fairer "
    "or shorter, and groups them.",
    "dead choice": "A start path slower than another for everyone, which a racer free to "
    "choose almost never takes: a design flaw, not an unfairness between players.",
    "balance": "1 minus the share of all wins the track moves between characters compared "
    "with an average track, beyond noise. 1: it treats every character as an average track "
    "does; 0.9: it moves one win in ten.",
    "tilt": "How far the track moves the win rate of the character it moves most, up or "
    "down, compared with an average track (6 points: from 20% to 26%, say).",
    "start path spread": "The exact solo rounds of the slowest start path minus the fastest: "
    "0 when every path is as quick.",
    "character spread": "The exact solo rounds of the slowest character minus the fastest, "
    "each with the same advantage on the cheapest path.",
    "mean placing": "The average finishing place: 1 is first every time.",
    "sweep": "Many legal tracks, each raced and profiled alike (`trackkit sweep`): the "
    "Explore page maps them.",
    "reading": "One way to read a rule the rulebook leaves open, or a value it does not give "
    "(may the bonus die be used in round 1? who leads when two sleds are level?). Each game's "
    "readings are options with a default; `trackkit readings` lists them with the rulebook "
    "passage each depends on.",
    "under every reading": "A comparison repeated under every combination of the readings "
    "(and policies) chosen, with the same seed: a conclusion that holds under all of them "
    "does not depend on how the open rules are read.",
    "what-if": "An option declared like a reading that is not a reading of the text: a "
    "designer's question (what if the rule were otherwise?) or a model a tool needs. "
    "Yummell's crowding only where a move ends and its infinite deck are what-ifs, and so "
    "are Snow Tails' starting dogs given per start slot; `trackkit readings` lists them "
    "apart, and a comparison under every reading varies them only when picked.",
}

# a table's column -> the glossary word that explains it
COLUMN_TERMS: dict[str, str] = {
    "Races entered": "character",
    "Racers started": "start path",
    "Start slot (race 1 turn order)": "start slot",
    "Sleds started": "start slot",
    "Start path": "start path",
    "Started": "start path",
    "Win rate": "win rate",
    "Fair share": "win rate",
    "95% interval": "95% interval",
    "Mean placing": "mean placing",
    "On an average track": "average track",
    "Exact solo rounds": "exact",
    "Exact solo (rounds)": "exact",
    "Simulated (rounds)": "round",
    "Balance": "balance",
    "Balance, 95%": "balance",
    "Unfairness": "unfairness",
    "Unfairness, 95%": "unfairness",
    "Unfairness (points)": "unfairness",
    "Skill (points)": "skill",
    "Skill, 95%": "skill",
    "From the characters": "unfairness",
    "From the start": "unfairness",
    "Its move, 95%": "tilt",
    "Most-moved character": "tilt",
    "Its win rate, here minus average": "tilt",
    "Tilt, 95%": "tilt",
    "Start path spread (exact rounds)": "start path spread",
    "Character spread (exact rounds)": "character spread",
    "MP per square": "MP",
    "Advantage": "advantage",
    "Character": "character",
}


def column_help(table: Any) -> dict[str, Any]:
    """``st.dataframe``'s ``column_config`` for ``table`` (a DataFrame or a list of rows):
    each column whose word the glossary explains shows the explanation when the pointer
    rests on its heading."""
    columns = table.columns if hasattr(table, "columns") else (table[0] if table else {})
    return {
        name: st.column_config.Column(help=f"{term}: {GLOSSARY[term]}")
        for name in columns
        if (term := COLUMN_TERMS.get(name)) is not None
    }


def show_glossary() -> None:
    """Every word of the glossary, in bold, with what it means."""
    st.markdown("\n".join(f"- **{term}**: {meaning}" for term, meaning in GLOSSARY.items()))


def page() -> None:
    st.title("Glossary")
    st.write("The words the pages and their tables use, in plain words.")
    show_glossary()
