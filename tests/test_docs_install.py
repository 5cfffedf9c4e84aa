"""The install instructions are true on a fresh machine, the same on every page.

- Nothing is published on PyPI: every ``pip install`` a page shows installs from a
  checkout (``.``, ``".[extra]"``, ``-e .``), never ``patrec`` by name, and names an
  extra that ``pyproject.toml`` defines.
- CI runs the README's test command, character for character.
- The README's documentation build runs every gallery example: the ``docs`` extra
  installs every package the examples import (Dask included, so that the sharded k-NN
  page is not a placeholder).
"""

import ast
import importlib.metadata
import pathlib
import re
import sys

import pytest
from packaging.requirements import Requirement

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CI = ROOT / ".ci" / "run"
PYPROJECT = ROOT / "pyproject.toml"

tomllib = pytest.importorskip("tomllib", reason="tomllib is new in Python 3.11")

if not CI.is_file():  # the tests run from a copy (against an installed wheel)
    pytest.skip("needs a checkout of patrec", allow_module_level=True)

PROJECT = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
EXTRAS = PROJECT["optional-dependencies"]

PAGES = sorted(
    [
        README,
        ROOT / "CONTRIBUTING.md",
        *(ROOT / "docs").glob("*.rst"),
        *(ROOT / "docs" / "user_guide").glob("*.rst"),
        *(ROOT / "examples").rglob("*.py"),
        *(ROOT / "exercises").glob("*.py"),
    ]
)

PIP_INSTALL = re.compile(r"pip install ([^`\n;&|()]*)")


def _installs(page):
    """The arguments of every ``pip install`` on the page, quotes removed."""
    text = page.read_text(encoding="utf-8")
    for match in PIP_INSTALL.finditer(text):
        line = text[: match.start()].count("\n") + 1
        arguments = match.group(1).split("#")[0].replace('"', "").replace("'", "")
        yield line, arguments.split()


def test_the_pages_are_found():
    assert {README.name, "getting_started.rst", "distributed.rst"} <= {
        page.name for page in PAGES
    }


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_install_is_from_a_checkout(page):
    wrong = []
    for line, arguments in _installs(page):
        for argument in arguments:
            if argument.startswith("-"):
                continue
            name = re.split(r"[\[=<>~!]", argument, maxsplit=1)[0]
            if name.lower() == "patrec":
                wrong.append(f"line {line}: {argument!r} (patrec is not on PyPI yet)")
            elif name == ".":
                extras = re.findall(r"\[([^\]]*)\]", argument)
                for extra in ",".join(extras).split(","):
                    if extra and extra not in EXTRAS:
                        wrong.append(
                            f"line {line}: no extra {extra!r} in pyproject.toml"
                        )
    assert not wrong, "\n".join(wrong)


def test_the_readme_shows_the_checkout_commands():
    text = README.read_text(encoding="utf-8")
    assert "pip install . && patrec compare" in text
    assert 'pip install ".[test]" && pytest' in text


def test_ci_runs_the_readme_test_command():
    readme_commands = re.findall(
        r"^pip install [^\n]*pytest$", README.read_text(), re.M
    )
    assert readme_commands == ['pip install ".[test]" && pytest']
    ci_lines = [line.strip() for line in CI.read_text().splitlines()]
    assert readme_commands[0] in ci_lines


# -- the docs extra runs every example ---------------------------------------------

# import name -> distribution, where they differ
DISTRIBUTIONS = {"sklearn": "scikit-learn"}


def _imported_packages(path):
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - {"patrec"}


def _names(requirements):
    return {Requirement(text).name.lower() for text in requirements}


def _with_their_dependencies(names):
    """``names`` and what their installed distributions require (one level)."""
    found = set(names)
    for name in names:
        try:
            requires = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        found |= {
            Requirement(text).name.lower()
            for text in requires
            if "extra ==" not in text
        }
    return found


@pytest.mark.parametrize(
    "script",
    sorted(
        [*(ROOT / "examples").rglob("plot_*.py"), *(ROOT / "exercises").glob("*.py")]
    ),
    ids=lambda path: path.name,
)
def test_the_docs_extra_installs_what_each_example_imports(script):
    available = _with_their_dependencies(
        _names(PROJECT["dependencies"]) | _names(EXTRAS["docs"])
    )
    missing = {
        DISTRIBUTIONS.get(module, module)
        for module in _imported_packages(script)
        if DISTRIBUTIONS.get(module, module).lower() not in available
    }
    assert not missing, f"add {sorted(missing)} to the docs extra of pyproject.toml"


def test_the_docs_extra_has_the_dask_extra():
    assert _names(EXTRAS["dask"]) <= _names(EXTRAS["docs"])
