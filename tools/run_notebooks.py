"""Run every Jupyter notebook of the built gallery top to bottom; fail on any error.

Usage: ``python tools/run_notebooks.py [DIR ...]`` (default: the notebooks that
``sphinx-build`` wrote into docs/auto_examples and docs/auto_exercises).  Each notebook
runs in a fresh kernel, in an empty temporary folder, as a reader would run it after
downloading it.  Finding no notebook is an error too, so a broken build cannot pass
for a clean run.
"""

import argparse
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

DOCS = Path(__file__).resolve().parent.parent / "docs"
DEFAULT_DIRS = [DOCS / "auto_examples", DOCS / "auto_exercises"]


def run(path, timeout):
    """Run one notebook; None, or the error it raised."""
    notebook = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory() as folder:
        client = NotebookClient(
            notebook,
            timeout=timeout,
            kernel_name="python3",
            resources={"metadata": {"path": folder}},
        )
        try:
            client.execute()
        except CellExecutionError as error:
            return str(error).strip().splitlines()[-1]
        except Exception as error:  # the kernel did not start, a timeout ...
            return f"{type(error).__name__}: {error}"
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", type=Path, default=DEFAULT_DIRS)
    parser.add_argument("--timeout", type=int, default=600, help="seconds per cell")
    parser.add_argument("--jobs", type=int, default=2, help="notebooks at once")
    args = parser.parse_args(argv)
    notebooks = sorted(p for d in args.dirs for p in d.rglob("*.ipynb"))
    if not notebooks:
        print(
            f"No notebook under {', '.join(map(str, args.dirs))}: build the docs first."
        )
        return 1
    start = time.perf_counter()
    with ThreadPoolExecutor(args.jobs) as pool:
        errors = list(pool.map(lambda p: run(p, args.timeout), notebooks))
    failed = [(p, e) for p, e in zip(notebooks, errors) if e is not None]
    for path, error in failed:
        print(f"FAILED {path.relative_to(DOCS.parent)}: {error}")
    took = time.perf_counter() - start
    print(
        f"{len(notebooks) - len(failed)} of {len(notebooks)} notebooks ran ({took:.0f} s)."
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
