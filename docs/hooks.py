"""MkDocs hook: the ``>>>`` examples of trackkit's docstrings shown as Python sessions.

The docstrings hold doctest examples without a Markdown fence (``tests/test_docstrings.py``
runs them). Left as they are, Markdown reads ``>>>`` as nested quotes and ``[a, b]`` in an
output line as a link; this wraps each example, up to its first blank line, in a ``pycon``
fence before anything else reads the page.
"""

from __future__ import annotations

from typing import Any

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor
from mkdocs.plugins import event_priority


class DoctestBlocks(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        shown: list[str] = []
        in_fence = False
        indent: str | None = None  # the example's indent while inside one
        for line in lines:
            stripped = line.lstrip()
            if indent is None and stripped.startswith(("```", "~~~")):
                in_fence = not in_fence
            elif indent is None and not in_fence and stripped.startswith(">>> "):
                indent = line[: len(line) - len(stripped)]
                shown.append(indent + "```pycon")
            elif indent is not None and not stripped:
                shown.append(indent + "```")
                indent = None
            shown.append(line)
        if indent is not None:
            shown.append(indent + "```")
        return shown


class DoctestExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # Markdown's name for the hook
        # before the fenced-code preprocessors (priority 25), after whitespace's (30)
        md.preprocessors.register(DoctestBlocks(md), "doctest_blocks", 29)


@event_priority(100)  # before mkdocstrings hands the extensions to its docstring renderer
def on_config(config: Any) -> Any:
    config.markdown_extensions.append(DoctestExtension())
    return config
