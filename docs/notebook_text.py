"""The reST that sphinx-gallery leaves in a notebook's Markdown cells, as Markdown.

sphinx-gallery converts a gallery page's headings and math for its notebook; the
rest of its reST stays as typed.  Here a dropdown (the exercise pages' hints) becomes
an HTML ``<details>`` block, hidden until clicked as on the page, and a
cross-reference (``:ref:``, ``:func:``, ``:example:`` ...) its text.  ``docs/conf.py``
rewrites every notebook of the gallery with `notebook_markdown` once sphinx-gallery
has written it, before Sphinx copies it to the downloads.
"""

import re
import textwrap
from pathlib import Path

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "examples"

DROPDOWN = re.compile(
    r"^\.\. dropdown:: *(?P<title>.*)\n(?P<body>(?:\n|   .*\n?)*)", re.M
)
EXAMPLE_ROLE = re.compile(r":example:`(?P<target>[^`]+)`")
REF_ROLE = re.compile(
    r":(?:ref|doc|func|class|meth|mod|obj):`~?(?P<text>[^`<]+?)(?: *<[^`]+>)?`"
)


def example_title(target):
    """The title of the example ``target`` ("linear/plot_update_rules"): the first
    line of its docstring that is not a rule of "=" signs."""
    path = EXAMPLES_DIR / f"{target.strip().removesuffix('.py')}.py"
    if not path.is_file():
        return f"examples/{target}.py"
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith(('"""', 'r"""', "..")) and set(line) != {"="}:
            return line
    return target


def notebook_markdown(text):
    """``text``, a notebook's Markdown cell, with the reST left in it converted."""

    def details(match):
        body = textwrap.dedent(match.group("body")).strip("\n")
        return f"<details><summary>{match.group('title')}</summary>\n\n{body}\n\n</details>\n"

    text = DROPDOWN.sub(details, text)
    text = EXAMPLE_ROLE.sub(lambda m: f"*{example_title(m.group('target'))}*", text)
    return REF_ROLE.sub(lambda m: m.group("text").strip(), text)
