"""The versions pyproject.toml declares are the ones tested.

``tools/oldest-constraints.txt`` pins every runtime and test dependency to its floor;
the oldest-versions runs (``tools/matrix.py``, ``.ci/run``) install with it.  The
classifiers name the Pythons that ``tools/matrix.py`` runs the suite on.
"""

import importlib.util
import pathlib

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = pathlib.Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
CONSTRAINTS = ROOT / "tools" / "oldest-constraints.txt"


def _project():
    tomllib = pytest.importorskip("tomllib", reason="tomllib is new in Python 3.11")
    with PYPROJECT.open("rb") as stream:
        return tomllib.load(stream)["project"]


def _matrix():
    spec = importlib.util.spec_from_file_location(
        "matrix", ROOT / "tools" / "matrix.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _declared_requirements():
    project = _project()
    return [
        Requirement(text)
        for text in project["dependencies"] + project["optional-dependencies"]["test"]
    ]


def _floor(requirement):
    floors = [
        Version(spec.version) for spec in requirement.specifier if spec.operator == ">="
    ]
    assert len(floors) == 1, f"{requirement} declares no single floor (>=)"
    return floors[0]


def _pinned():
    pins = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            requirement = Requirement(line)
            (spec,) = requirement.specifier
            assert spec.operator == "==", line
            pins[canonicalize_name(requirement.name)] = Version(spec.version)
    return pins


def test_oldest_constraints_are_the_declared_floors():
    declared = {
        canonicalize_name(requirement.name): _floor(requirement)
        for requirement in _declared_requirements()
    }
    assert _pinned() == declared


def test_classifiers_name_the_pythons_the_matrix_tests():
    project = _project()
    pythons = _matrix().PYTHONS
    prefix = "Programming Language :: Python :: 3."
    listed = [
        c.removeprefix("Programming Language :: Python :: ")
        for c in project["classifiers"]
        if c.startswith(prefix)
    ]
    assert listed == list(pythons)
    assert project["requires-python"] == f">={pythons[0]}"
