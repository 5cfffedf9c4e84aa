"""The oldest versions tested are the floors pyproject.toml declares.

``tools/oldest-constraints.txt`` pins every runtime and test dependency to its floor;
the oldest-versions runs (``tools/matrix.py``, ``.ci/run``) install with it.
"""

import pathlib

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = pathlib.Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
CONSTRAINTS = ROOT / "tools" / "oldest-constraints.txt"


def _declared_requirements():
    tomllib = pytest.importorskip("tomllib", reason="tomllib is new in Python 3.11")
    with PYPROJECT.open("rb") as stream:
        project = tomllib.load(stream)["project"]
    return [
        Requirement(text)
        for text in project["dependencies"] + project["optional-dependencies"]["test"]
    ]


def _floor(requirement):
    floors = [spec.version for spec in requirement.specifier if spec.operator == ">="]
    assert len(floors) == 1, f"{requirement} declares no single floor (>=)"
    return floors[0]


def _pinned():
    pins = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            requirement = Requirement(line)
            (spec,) = requirement.specifier
            assert spec.operator == "==", line
            pins[canonicalize_name(requirement.name)] = spec.version
    return pins


def test_oldest_constraints_are_the_declared_floors():
    declared = {
        canonicalize_name(requirement.name): _floor(requirement)
        for requirement in _declared_requirements()
    }
    assert _pinned() == declared
