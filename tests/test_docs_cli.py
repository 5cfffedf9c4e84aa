"""The command-line page's figure is made by the command printed beside it.

docs/cli_figure.py reads the ``$ patrec compare ... --plot`` command of the code block
above the figure in docs/cli.rst and runs it; here it runs again, and its picture must
be the page's picture and its table the page's table (the times aside: they change
from run to run).
"""

import importlib.util
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
SCRIPT = DOCS / "cli_figure.py"

if not SCRIPT.is_file():  # the tests run from a copy without the docs
    pytest.skip("needs docs/cli_figure.py", allow_module_level=True)

spec = importlib.util.spec_from_file_location("cli_figure", SCRIPT)
cli_figure = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cli_figure)


def _without_times(lines):
    """A table's lines without the fit and predict columns (their last two fields)."""
    return [
        re.sub(r"\s+[\d.]+\s+[\d.]+$", "", line) if "±" in line else line.rstrip()
        for line in lines
    ]


def test_the_figure_follows_its_command():
    command, output = cli_figure.page_run()
    assert command.startswith("patrec compare --data measurements.csv")
    assert "--plot regions.png" in command
    assert output[-1] == "decision regions saved to regions.png"


def test_the_page_figure_is_made_by_the_page_command(tmp_path):
    compare = pytest.importorskip("matplotlib.testing.compare")
    _, page_output = cli_figure.page_run()
    output, figure = cli_figure.run(tmp_path)
    assert _without_times(output.splitlines()) == _without_times(page_output)
    # same size (else an error) and the same pixels up to font rendering
    assert compare.compare_images(str(cli_figure.FIGURE), str(figure), tol=5) is None


# how the figure's description (its alt text) names each classifier
DESCRIBED_AS = {"minimum-distance": "minimum-distance", "knn": "k-NN", "qda": "QDA"}


def test_the_figure_description_names_the_command_s_classifiers():
    command, _ = cli_figure.page_run()
    named = command.split("--classifiers", 1)[1].split("--", 1)[0].split()
    text = (DOCS / "cli.rst").read_text(encoding="utf-8")
    description = text[text.index(f".. image:: {cli_figure.IMAGE}") :].split("\n\n")[0]
    description = " ".join(description.split())
    assert [DESCRIBED_AS[name] in description for name in named] == [True] * len(named)
