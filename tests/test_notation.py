"""The user guide keeps the notation of docs/notation.rst: the checks that can be
made mechanically on its formulas."""

import pathlib
import re

import pytest

GUIDE = pathlib.Path(__file__).resolve().parent.parent / "docs" / "user_guide"
PAGES = sorted(GUIDE.glob("*.rst"))

# (pattern, what the notation page says instead)
RULES = [
    (
        r"(?:\\mathbf\{[xy]\}|\bz|N|\\omega|\\mathbf\{m\})_k\b",
        "k is the number of neighbours: a sample is indexed j (t in an iterative "
        "rule), a class i",
    ),
    (
        r"\\mathbf\{w\}_\{?\w+\}?\^T\s*\\mathbf\{y\}",
        "an augmented sample y goes with augmented weights a, not w",
    ),
    (
        r"\\mathbf\{a\}_\{?\w+\}?\^T\s*\\mathbf\{x\}",
        "augmented weights a go with the augmented sample y, not x",
    ),
    (
        r"\\mathbf\{z\}\s*=",
        "z is a label; a projected sample is written \\tilde{\\mathbf{x}}",
    ),
]


def test_the_guide_has_its_pages():
    assert {page.stem for page in PAGES} >= {
        "linear", "discriminant", "piecewise", "neighbors", "editing"
    }  # fmt: skip


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.stem)
def test_formulas_follow_the_notation_page(page):
    text = page.read_text(encoding="utf-8")
    found = [
        f"line {text[: match.start()].count(chr(10)) + 1}: {match.group(0)!r}: {why}"
        for pattern, why in RULES
        for match in re.finditer(pattern, text)
    ]
    assert not found, "\n".join(found)
