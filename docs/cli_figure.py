"""Draw docs/_static/compare_regions.png, the figure of the command-line page, by running
the command the page shows beside it.

The command is read from docs/cli.rst: the ``$ patrec compare ... --plot FILE.png``
of the code block just above the figure.  It runs as printed, with the installed
``patrec`` command, in a scratch folder that holds the wine data as
``measurements.csv`` (the page says so); its picture becomes the page's figure, and
its output is printed, to be pasted under the command when it changed (the times
differ from run to run).  tests/test_docs_cli.py runs it again and compares the
picture and the table with the page's.

Run from the repository root: ``python docs/cli_figure.py``.
"""

import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

DOCS = Path(__file__).resolve().parent
PAGE = DOCS / "cli.rst"
IMAGE = "_static/compare_regions.png"
FIGURE = DOCS / IMAGE
DATA_NAME = "measurements.csv"


def page_run():
    """``(command, output)`` of the code block above the page's figure: the command
    without its ``$`` (continuation lines joined) and the output lines under it."""
    text = PAGE.read_text(encoding="utf-8")
    above = text[: text.index(f".. image:: {IMAGE}")]
    block = above[above.rindex(".. code-block:: text") :].splitlines()[1:]
    lines = [line[3:] for line in block if line.startswith("   ")]
    if not lines or not lines[0].startswith("$ "):
        raise ValueError(f"no command in the code block above {IMAGE} in {PAGE}")
    command = lines[0][2:]
    rest = lines[1:]
    while command.endswith("\\"):
        command = command[:-1].rstrip() + " " + rest.pop(0).strip()
    return command, rest


def run(workdir):
    """Run the page's command in ``workdir``, on the wine data saved under the name
    the command reads; return its standard output and the path of its figure."""
    from patrec.datasets import load_wine

    command, _ = page_run()
    argv = shlex.split(command)
    if argv[:2] != ["patrec", "compare"] or "--plot" not in argv:
        raise ValueError(f"not a `patrec compare ... --plot FILE` command: {command}")
    if argv[argv.index("--data") + 1] != DATA_NAME:
        raise ValueError(f"the command does not read {DATA_NAME}: {command}")
    workdir = Path(workdir)
    shutil.copyfile(load_wine().filename, workdir / DATA_NAME)
    script = shutil.which("patrec", path=str(Path(sys.executable).parent))
    program = [script] if script else [sys.executable, "-m", "patrec"]
    result = subprocess.run(
        program + argv[1:], cwd=workdir, capture_output=True, text=True, check=True
    )
    return result.stdout, workdir / argv[argv.index("--plot") + 1]


def main():
    with tempfile.TemporaryDirectory() as workdir:
        output, figure = run(workdir)
        shutil.copyfile(figure, FIGURE)
    print(f"$ {page_run()[0]}")
    print(output, end="")
    print(f"-> {FIGURE}")


if __name__ == "__main__":
    main()
