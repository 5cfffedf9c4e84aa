"""tools/peer_suites.py: the swap of the peers' classes, and how outcomes are judged.

The suites themselves run in CI (`.ci/run`); here, the machinery on small cases.
"""

import importlib.util
import sys
from pathlib import Path

import pytest
import sklearn.discriminant_analysis

import patrec

TOOLS = Path(__file__).resolve().parent.parent / "tools"


def load(name):
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # peer_suites imports the plugin by this name
    spec.loader.exec_module(module)
    return module


plugin = load("peer_suites_plugin")
tool = load("peer_suites")

SWAPS = {"sklearn.discriminant_analysis.LinearDiscriminantAnalysis": patrec.FisherLDA}


def run_with_swaps(source):
    namespace = {"__builtins__": plugin.swapped_builtins(SWAPS)}
    exec(compile(source, "<peer test>", "exec"), namespace)
    return namespace


@pytest.mark.parametrize(
    "source",
    [
        "from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as L",
        "from sklearn import discriminant_analysis\n"
        "L = discriminant_analysis.LinearDiscriminantAnalysis",
        "import sklearn.discriminant_analysis\n"
        "L = sklearn.discriminant_analysis.LinearDiscriminantAnalysis",
        "def later():\n"
        "    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis\n"
        "    return LinearDiscriminantAnalysis\n"
        "L = later()",
    ],
)
def test_each_import_form_sees_patrecs_class(source):
    namespace = run_with_swaps(source)
    assert namespace["L"] is patrec.FisherLDA
    # the peer's own module is untouched, and its other names are its own
    assert (
        sklearn.discriminant_analysis.LinearDiscriminantAnalysis is not patrec.FisherLDA
    )
    other = run_with_swaps(
        "from sklearn import discriminant_analysis as da\n"
        "Q = da.QuadraticDiscriminantAnalysis"
    )["Q"]
    assert other is sklearn.discriminant_analysis.QuadraticDiscriminantAnalysis


def test_a_star_matches_any_text_and_brackets_are_literal():
    assert tool.pattern("a.py::test_x[*-euclidean]").match(
        "a.py::test_x[float64-euclidean]"
    )
    assert not tool.pattern("a.py::test_x[*-l1]").match("a.py::test_x[float64-l2]")
    assert not tool.pattern("a.py::test_x").match("a.py::test_x[1]")


def test_unlisted_failures_passing_entries_and_stale_entries_are_problems():
    suite = plugin.Suite("demo", ("demo/test_a.py",), {})
    records = {
        f"demo/test_a.py::{name}": {"outcome": outcome, "patrec": True, "message": ""}
        for name, outcome in [
            ("test_new_failure", "failed"),
            ("test_listed[1]", "failed"),
            ("test_listed[2]", "failed"),
            ("test_fixed", "passed"),
            ("test_fine", "passed"),
        ]
    }
    entry = {"reason": "why", "doc": "from-sklearn-knn"}
    expected = {
        "demo": {
            "demo/test_a.py::test_listed[*]": entry,
            "demo/test_a.py::test_fixed": entry,
            "demo/test_a.py::test_gone": entry,
        }
    }
    rows, problems = tool.compare(records, expected, [suite])
    assert rows == [
        (
            "demo",
            {
                "collected": 5,
                "calling patrec": 5,
                "passed": 2,
                "expected failures": 2,
                "skipped": 0,
            },
        )
    ]
    assert sorted((kind, node) for kind, node, _ in problems) == [
        ("entry names no failing test", "demo/test_a.py::test_gone"),
        ("expected failure passes", "demo/test_a.py::test_fixed"),
        ("unexpected failure", "demo/test_a.py::test_new_failure"),
    ]


def test_the_expected_file_is_well_formed_and_cites_the_migration_page():
    assert tool.check_expected(tool.load_expected(), plugin.SUITES) == []
