"""What the app says to its users: nothing they cannot look up, and a glossary of the
words its tables use."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_app_text_cites_the_spec_files_users_do_not_have() -> None:
    sources = [ROOT / "app.py", *sorted((ROOT / "trackkit" / "app").glob("*.py"))]
    cited = [
        f"{path.name}:{n}"
        for path in sources
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"SPEC\b|SPEC\.md|SNOWTAILS\.md", line)
    ]
    assert cited == []


def test_sweeps_written_in_the_project_are_ignored_by_git() -> None:
    lines = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert "sweeps/" in lines


def test_the_start_page_and_a_page_of_its_own_explain_the_words_of_the_tables() -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    assert not at.exception
    glossary = next(e for e in at.expander if "Glossary" in e.label)
    text = " ".join(m.value for m in glossary.markdown)
    for term in ("round", "MP", "seat", "start path", "encounter", "curse", "building rule"):
        assert f"**{term}**:" in text
    for term in ("balance", "tilt", "95% interval", "average track"):
        assert f"**{term}**:" in text
    assert "glossary" in [link.proto.page for link in at.main.get("page_link")]
    page = AppTest.from_string(
        "from trackkit.app import glossary\nglossary.page()\n", default_timeout=60
    ).run()
    assert page.title[0].value == "Glossary" and any("**seat**:" in m.value for m in page.markdown)


def test_the_columns_of_the_tables_explain_their_words() -> None:
    from trackkit.app.glossary import GLOSSARY, column_help

    rows = [{"Start path": "A", "Racers started": 10, "Win rate": "20%", "Fair share": "25%"}]
    config = column_help(rows)
    assert set(config) == set(rows[0])
    assert GLOSSARY["start path"] in config["Racers started"]["help"]
    assert column_help([]) == {}


def test_the_start_slots_table_explains_its_words() -> None:
    from trackkit.app.glossary import GLOSSARY, column_help

    rows = [{"Start slot (race 1 turn order)": "1", "Sleds started": 10, "Win rate": "20%"}]
    config = column_help(rows)
    assert set(config) == set(rows[0])
    assert GLOSSARY["start slot"] in config["Sleds started"]["help"]
