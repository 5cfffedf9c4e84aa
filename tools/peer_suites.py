"""Run the peers' own test suites against patrec; fail on any unlisted difference.

Usage: ``python tools/peer_suites.py [--suite NAME ...] [--show] [-- PYTEST-ARGS]``.

SciPy's ``test_kdtree.py``, scikit-learn's ``test_neighbors.py``,
``test_discriminant_analysis.py`` and ``test_perceptron.py``, and imbalanced-learn's
prototype-selection tests run from the installed packages, each with patrec's classes
swapped in for the peer's (``tools/peer_suites_plugin.py`` says how).  Every test that
fails is looked up in ``tools/peer_suites_expected.toml``, which lists each expected
failure with its reason and the section of ``docs/from_sklearn.rst`` that documents the
difference.  The run fails (exit code 1) on a failure the file does not list, on a
listed test that passes, on an entry that names no test, and on a reference to no
section.  A table gives, per suite, the tests collected, those that called patrec (a
class swapped in was instantiated), how many of those passed, and the expected
failures.  ``--show`` prints each failure with its message.
"""

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import tomllib
from peer_suites_plugin import SUITES

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pytest's own TOML reader
    import tomli as tomllib

TOOLS = Path(__file__).resolve().parent
EXPECTED = TOOLS / "peer_suites_expected.toml"
MIGRATION_PAGE = TOOLS.parent / "docs" / "from_sklearn.rst"


def package_root(relative):
    """The folder that holds the installed package a suite's file lives in."""
    return Path(importlib.util.find_spec(relative.split("/")[0]).origin).parent.parent


def run_pytest(suites, pytest_args, save=None):
    """Run the suites' files in one pytest process; the plugin's records (also
    written to ``save`` when given)."""
    files = [package_root(f) / f for suite in suites for f in suite.files]
    missing = [str(f) for f in files if not f.exists()]
    if missing:
        sys.exit(f"Not installed: {', '.join(missing)}")
    root = os.path.commonpath([package_root(f) for s in suites for f in s.files])
    with tempfile.TemporaryDirectory() as folder:
        # An empty configuration of our own, and a working folder outside the
        # source tree, so that patrec is the installed one and no other
        # project's pytest settings apply.
        config = Path(folder) / "pytest.ini"
        config.write_text("[pytest]\n")
        report = Path(folder) / "report.json"
        environment = dict(os.environ)
        environment["PYTHONPATH"] = os.pathsep.join(
            [str(TOOLS)] + environment.get("PYTHONPATH", "").split(os.pathsep)
        ).rstrip(os.pathsep)
        command = [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "peer_suites_plugin",
            "--peer-report",
            str(report),
            "-c",
            str(config),
            "--rootdir",
            root,
            "-p",
            "no:cacheprovider",
            "-q",
            "--tb=no",
            "-rN",
            "--disable-warnings",
            *map(str, files),
            *pytest_args,
        ]
        subprocess.run(command, cwd=folder, env=environment, check=False)
        if not report.exists():
            sys.exit("pytest stopped before it wrote its report")
        if save is not None:
            Path(save).write_text(report.read_text())
        return json.loads(report.read_text())


def pattern(node_id):
    """A node id of the expected file as a regular expression (``*``: any text)."""
    return re.compile(".*".join(map(re.escape, node_id.split("*"))) + r"\Z")


def load_expected(path=EXPECTED):
    """Each suite's expected failures: ``{suite: {node id: entry}}``."""
    with open(path, "rb") as stream:
        return tomllib.load(stream)


def check_expected(expected, suites):
    """The problems of the file itself: unknown suites, fields, files or sections."""
    problems = []
    labels = set(re.findall(r"^\.\. _([\w-]+):", MIGRATION_PAGE.read_text(), re.M))
    by_name = {suite.name: suite for suite in SUITES}
    for name, entries in expected.items():
        if name not in by_name:
            problems.append(f"[{name}]: no such suite")
            continue
        for node_id, entry in entries.items():
            if set(entry) != {"reason", "doc"} or "\n" in entry["reason"]:
                problems.append(f"{node_id}: needs a one-line reason and a doc")
            elif entry["doc"] not in labels:
                problems.append(
                    f"{node_id}: no section '{entry['doc']}' in {MIGRATION_PAGE.name}"
                )
            if not node_id.startswith(tuple(f + "::" for f in by_name[name].files)):
                problems.append(f"{node_id}: not a test of [{name}]")
    return problems


def compare(records, expected, suites):
    """Counts per suite, and the tests whose outcome the expected file does not say."""
    rows, problems = [], []
    for suite in suites:
        entries = {pattern(n): n for n in expected.get(suite.name, {})}
        used = set()
        tests = {
            node_id: record
            for node_id, record in records.items()
            if node_id.startswith(suite.files)
        }
        counts = dict.fromkeys(
            ("collected", "calling patrec", "passed", "expected failures", "skipped"), 0
        )
        for node_id, record in sorted(tests.items()):
            listed = [n for p, n in entries.items() if p.match(node_id)]
            used.update(listed)
            outcome, message = record["outcome"], record["message"]
            counts["collected"] += 1
            counts["calling patrec"] += record["patrec"]
            counts["passed"] += record["patrec"] and outcome in ("passed", "xpassed")
            counts["skipped"] += outcome in ("skipped", "xfailed")
            if outcome == "failed" and listed:
                counts["expected failures"] += 1
            elif outcome == "failed":
                problems.append(("unexpected failure", node_id, message))
            elif listed and outcome in ("passed", "xpassed"):
                problems.append(("expected failure passes", node_id, listed[0]))
        problems += [
            ("entry names no failing test", node_id, "")
            for node_id in expected.get(suite.name, {})
            if node_id not in used
        ]
        rows.append((suite.name, counts))
    return rows, problems


def print_table(rows, unavailable):
    columns = list(rows[0][1]) if rows else []
    width = max([len(name) for name, _ in rows] + [len(n) for n in unavailable] + [5])
    print(f"{'suite':<{width}}  " + "  ".join(columns))
    for name, counts in rows:
        cells = "  ".join(f"{counts[c]:>{len(c)}}" for c in columns)
        print(f"{name:<{width}}  {cells}")
    for name, why in unavailable.items():
        print(f"{name:<{width}}  not available yet: {why}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--suite",
        action="append",
        choices=[suite.name for suite in SUITES],
        help="run only this suite (repeat for more)",
    )
    parser.add_argument(
        "--show", action="store_true", help="print every failure and its message"
    )
    parser.add_argument(
        "--save", metavar="FILE", help="keep every test's record (JSON)"
    )
    parser.add_argument("pytest_args", nargs="*", help="passed on to pytest")
    args = parser.parse_args(argv)
    suites = [s for s in SUITES if args.suite is None or s.name in args.suite]

    start = time.perf_counter()
    expected = load_expected()
    problems = [("expected file", p, "") for p in check_expected(expected, suites)]
    report = run_pytest(suites, args.pytest_args, args.save)
    unavailable = report["unavailable"]
    present = [s for s in suites if s.name not in unavailable]
    rows, differences = compare(report["tests"], expected, present)
    problems += differences
    if args.show:
        for node_id, record in sorted(report["tests"].items()):
            if record["outcome"] == "failed":
                print(f"{node_id}\n    {record['message']}")
    print()
    print_table(rows, unavailable)
    print(f"({time.perf_counter() - start:.0f} s)")
    for kind, node_id, detail in problems:
        print(f"{kind}: {node_id}" + (f"\n    {detail}" if detail else ""))
    if not problems:
        print(f"Every failure is listed in {EXPECTED.relative_to(TOOLS.parent)}.")
    else:
        print(
            f"\n{len(problems)} problem(s): fix patrec, or list the difference in "
            f"{EXPECTED.relative_to(TOOLS.parent)} with its reason and section."
        )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
