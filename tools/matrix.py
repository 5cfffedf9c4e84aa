"""Run the whole test suite on every supported Python and dependency set, for a release.

    python tools/matrix.py [--only RUN ...] [--venvs DIR] [--wheels] [-- PYTEST-ARGS]

Each run builds patrec from a clean copy of the checkout (its tracked and new files, no
build products) into a fresh virtual environment, installs it with its test extra and
runs pytest from the checkout (the suite imports the installed package).  The runs:

* ``py310-oldest``: the oldest Python with every dependency at the floor
  pyproject.toml declares (``tools/oldest-constraints.txt``, checked by
  tests/test_versions.py);
* ``py310-newest`` ... ``py313-newest``: every supported Python with the newest
  versions pip finds.

The Pythons come from pyenv (the newest installed patch of each minor version), else
from ``pythonX.Y`` on the PATH.  A table of the runs is printed at the end; the exit
code is non-zero if any run could not install or had a failing test (pytest's exit code
5, no test collected, counts as a failure).  ``--wheels`` then runs
``tools/wheels.py`` (the wheels of every Python, each tested where nothing can
compile).
Only one build or test run at a time: the machine has two cores.
"""

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONSTRAINTS = ROOT / "tools" / "oldest-constraints.txt"
WHEELS = ROOT / "tools" / "wheels.py"
# requires-python and the classifiers of pyproject.toml name these (tests/test_versions.py).
PYTHONS = ("3.10", "3.11", "3.12", "3.13")
SHOWN = ("numpy", "scipy", "scikit-learn")


@dataclass
class Run:
    """One cell of the matrix: a Python, a set of versions, and what it gave."""

    python: str
    versions: str  # "oldest" or "newest"
    installed: dict = field(default_factory=dict)
    counts: dict = field(default_factory=dict)
    seconds: float = 0.0
    error: str = ""

    @property
    def name(self):
        return f"py{self.python.replace('.', '')}-{self.versions}"

    @property
    def ok(self):
        return not self.error and self.counts.get("failed", 1) == 0


def runs():
    """The matrix: the oldest versions on the oldest Python, the newest on each."""
    return [Run(PYTHONS[0], "oldest")] + [Run(python, "newest") for python in PYTHONS]


def find_python(minor):
    """The interpreter of Python ``minor`` ("3.10"): pyenv's newest patch, else PATH."""
    pyenv = shutil.which("pyenv")
    if pyenv:
        latest = subprocess.run(
            [pyenv, "latest", minor], capture_output=True, text=True
        ).stdout.strip()
        root = subprocess.run(
            [pyenv, "root"], capture_output=True, text=True
        ).stdout.strip()
        candidate = Path(root, "versions", latest, "bin", "python")
        if latest and candidate.is_file():
            return str(candidate)
    return shutil.which(f"python{minor}")


def clean_source(destination):
    """Copy the checkout's tracked and new (not ignored) files to ``destination``."""
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, files):
        source = ROOT / name.decode()
        if source.is_file():
            target = destination / name.decode()
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def installed_versions(python):
    code = (
        "import importlib.metadata as m, sys\n"
        f"for name in {SHOWN!r}: print(name, m.version(name))\n"
    )
    out = subprocess.run([python, "-c", code], capture_output=True, text=True)
    return dict(line.split() for line in out.stdout.splitlines())


def tail(path, n_lines=40):
    """The last ``n_lines`` lines of a log that are not blank."""
    lines = path.read_text(errors="replace").splitlines()
    return "\n".join([line for line in lines if line.strip()][-n_lines:])


def junit_counts(report):
    """passed / failed / skipped of pytest's JUnit XML report (errors count as
    failures, expected failures as skipped, as the JUnit format has them)."""
    suite = ElementTree.parse(report).getroot()
    if suite.tag == "testsuites":
        suite = suite[0]
    total, failed, errors, skipped = (
        int(suite.get(key, 0)) for key in ("tests", "failures", "errors", "skipped")
    )
    return {
        "passed": total - failed - errors - skipped,
        "failed": failed + errors,
        "skipped": skipped,
    }


def install(run, python, log):
    """Install patrec from a clean copy of the checkout, with its test extra (at the
    declared floors for the oldest-versions run); True if every step succeeded."""
    constraints = ["-c", str(CONSTRAINTS)] if run.versions == "oldest" else []
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch, "patrec")
        clean_source(source)
        for step in (
            ["install", "--upgrade", "pip"],
            ["install", *constraints, f"{source}[test]"],
        ):
            command = [python, "-m", "pip", *step]
            if subprocess.run(command, stdout=log, stderr=subprocess.STDOUT).returncode:
                return False
    return True


def execute(run, interpreter, venvs, pytest_args):
    """Build, install and test one run and fill in ``run``; its folder in ``venvs``
    keeps the virtual environment and the logs."""
    venv = venvs / run.name
    shutil.rmtree(venv, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([interpreter, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    install_log, test_log, report = (
        venv / name for name in ("install.log", "pytest.log", "pytest.xml")
    )
    with install_log.open("w") as log:
        installed = install(run, python, log)
    if not installed:
        print(tail(install_log))
        run.error = f"install failed: see {install_log}"
        run.seconds = time.perf_counter() - start
        return
    run.installed = installed_versions(python)
    with test_log.open("w") as log:
        # the pytest script, as the README runs it: `python -m pytest` would put the
        # checkout's uncompiled patrec folder first on sys.path
        pytest = str(venv / "bin" / "pytest")
        command = [pytest, "-q", f"--junitxml={report}", *pytest_args]
        result = subprocess.run(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    run.seconds = time.perf_counter() - start
    if result.returncode:
        print(tail(test_log))
    print(f"{run.name}: {tail(test_log, 1)}", flush=True)
    if result.returncode == 5 or not report.is_file():
        run.error = f"no test ran (pytest exit code {result.returncode})"
        return
    run.counts = junit_counts(report)
    if result.returncode and not run.counts["failed"]:
        run.error = f"pytest exit code {result.returncode}: see {test_log}"


def table(runs):
    header = ["Python", "versions", *SHOWN, "passed", "failed", "skipped", "time"]
    rows = [header]
    for run in runs:
        counts = [str(run.counts.get(key, "-")) for key in header[5:8]]
        minutes, seconds = divmod(round(run.seconds), 60)
        rows.append(
            [
                run.python,
                run.versions,
                *(run.installed.get(name, "-") for name in SHOWN),
                *counts,
                f"{minutes}:{seconds:02d}",
            ]
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [" | ".join(cell.ljust(w) for cell, w in zip(row, widths)) for row in rows]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    lines += [f"{run.name}: {run.error}" for run in runs if run.error]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Arguments after -- go to pytest.",
    )
    parser.add_argument(
        "--only",
        nargs="+",
        choices=[run.name for run in runs()],
        help="the runs to make (default: all of them)",
    )
    parser.add_argument(
        "--venvs",
        type=Path,
        default=Path(tempfile.gettempdir(), "patrec-matrix"),
        help="folder of the runs' virtual environments and logs (each is made anew)",
    )
    parser.add_argument(
        "--wheels",
        action="store_true",
        help="then build and test the wheels with tools/wheels.py",
    )
    argv = sys.argv[1:] if argv is None else list(argv)
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    pytest_args = argv[split + 1 :]

    chosen = [run for run in runs() if not args.only or run.name in args.only]
    args.venvs.mkdir(parents=True, exist_ok=True)
    for run in chosen:
        interpreter = find_python(run.python)
        if interpreter is None:
            run.error = f"no Python {run.python} found (pyenv or PATH)"
            continue
        print(f"{run.name}: building and testing ...", flush=True)
        execute(run, interpreter, args.venvs, pytest_args)
    print(table(chosen))
    ok = all(run.ok for run in chosen)
    if args.wheels:
        ok &= subprocess.run([sys.executable, str(WHEELS)], cwd=ROOT).returncode == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
