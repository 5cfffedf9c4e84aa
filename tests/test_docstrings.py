"""The documentation's promises, checked: the Examples of every docstring run, the type
stubs of the compiled modules match them, and the API reference names every public
object.

- One doctest per module of patrec, found by walking the package (private modules
  too: a public class may be defined in one, like ``datasets.Bunch``), so a new module
  is tested without being listed anywhere.
- ``mypy.stubtest`` compares each ``.pyi`` stub with its compiled module (names,
  arguments); every compiled module must have a stub.
- ``docs/api.rst`` must mention every name the public modules export.
"""

import doctest
import importlib
import importlib.machinery
import inspect
import os
import pathlib
import pkgutil
import subprocess
import sys

import pytest

import patrec

PACKAGE_DIR = pathlib.Path(patrec.__file__).parent
API_PAGE = pathlib.Path(__file__).parents[1] / "docs" / "api.rst"


def _all_modules():
    names = ["patrec"]
    for info in pkgutil.walk_packages(patrec.__path__, "patrec."):
        if info.name.rsplit(".", 1)[-1] != "__main__":
            names.append(info.name)
    return sorted(names)


MODULES = _all_modules()
PUBLIC_MODULES = [
    name
    for name in MODULES
    if not any(part.startswith("_") for part in name.split("."))
]

# Public modules whose names are plumbing rather than algorithms: their docstrings
# need no Examples section (everything else public must show one).
NO_EXAMPLES_NEEDED = {
    "patrec",
    "patrec.base",
    "patrec.cli",
    "patrec.exceptions",
    "patrec.registry",
    "patrec.datasets",
    "patrec.discriminant",
    "patrec.linear",
    "patrec.neighbors",
    "patrec.piecewise",
    "patrec.neighbors.search",
    "patrec.neighbors.editing",
    "patrec.plotting",
}


def _import(name):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:  # an optional extra (dask, ...) not installed
        if exc.name and not exc.name.startswith("patrec"):
            pytest.skip(f"{name} needs the optional package {exc.name!r}")
        raise


def test_the_walk_finds_the_chapters():
    assert {
        "patrec.linear.perceptron",
        "patrec.neighbors.search.tree",
        "patrec.piecewise.minimum_distance",
        "patrec.model_selection",
        "patrec.plotting",
        "patrec.discriminant.quadratic",
        "patrec.datasets._base",
    } <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    module = _import(name)
    try:
        result = doctest.testmod(
            module, optionflags=doctest.NORMALIZE_WHITESPACE, report=True, verbose=False
        )
    finally:
        plt.close("all")
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed"
    if (
        name in PUBLIC_MODULES
        and name not in NO_EXAMPLES_NEEDED
        and getattr(module, "__all__", None)
    ):
        assert result.attempted > 0, (
            f"{name} exports {module.__all__} but shows no Examples"
        )


def _compiled_modules():
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = []
    for path in PACKAGE_DIR.rglob("*"):
        if path.name.endswith(suffixes):
            relative = path.relative_to(PACKAGE_DIR.parent)
            stem = path.name.split(".", 1)[0]
            found.append(".".join(relative.parent.parts + (stem,)))
    return sorted(found)


def test_every_compiled_module_has_a_stub():
    compiled = _compiled_modules()
    assert compiled, f"no compiled modules found under {PACKAGE_DIR}"
    missing = [
        name
        for name in compiled
        if not (PACKAGE_DIR.parent / (name.replace(".", "/") + ".pyi")).is_file()
    ]
    assert not missing, f"compiled modules without a .pyi stub: {missing}"


def test_stubs_match_the_compiled_modules(tmp_path):
    pytest.importorskip("mypy")
    # Cython adds __test__ (its doctest dict) and __pyx_capi__ (the cimport table)
    allowlist = tmp_path / "allowlist.txt"
    allowlist.write_text("patrec\\..*\\.__test__\npatrec\\..*\\.__pyx_capi__\n")
    env = dict(os.environ, PYTHONPATH=str(PACKAGE_DIR.parent), MYPYPATH="")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy.stubtest",
            "--allowlist",
            str(allowlist),
            *_compiled_modules(),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr[-2000:]


def _exported_names():
    """Every name in the ``__all__`` of a public module."""
    names = set()
    for name in PUBLIC_MODULES:
        module = _import(name)
        for exported in getattr(module, "__all__", ()):
            if exported.startswith("__"):
                continue
            names.add(exported)
    return sorted(names)


def test_the_api_reference_names_every_public_object():
    text = API_PAGE.read_text(encoding="utf-8")
    listed = {
        line.strip().rsplit(".", 1)[-1]
        for line in text.splitlines()
        if line.startswith("   ") and line.strip() and not line.strip().startswith(":")
    }
    missing = [name for name in _exported_names() if name not in listed]
    assert not missing, f"docs/api.rst does not list {missing}"


# The hand-written pages only (not what a docs build generates beside them).
BUILT = {"_build", "generated", "auto_examples", "gen_modules", "_templates"}
DOC_PAGES = sorted(
    page
    for page in API_PAGE.parent.rglob("*.rst")
    if not BUILT & set(page.relative_to(API_PAGE.parent).parts)
)


@pytest.mark.parametrize(
    "page",
    [p for p in DOC_PAGES if ">>> " in p.read_text("utf-8")],
    ids=lambda p: str(p.relative_to(API_PAGE.parent)),
)
def test_the_guide_examples_run(page):
    result = doctest.testfile(
        str(page), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE
    )
    assert result.failed == 0, f"{result.failed} example(s) of {page.name} failed"


# -- a parameter that means the same in several places is documented in the same words

# (parameter, the objects that share it).  Where the words differ on purpose (the
# multiclass SVM's "updates", its fixed number of epochs), the object is left out.
SHARED_PARAMETERS = [
    ("shuffle", ["Perceptron", "LinearMachine", "MulticlassSVM", "PiecewiseLinearClassifier"]),
    ("max_epochs", ["Perceptron", "LinearMachine", "PiecewiseLinearClassifier"]),
    ("record_history", ["Perceptron", "LinearMachine", "PiecewiseLinearClassifier"]),
    ("averaged", ["LinearMachine", "PiecewiseLinearClassifier"]),
    *[
        (name, ["edit", "multiedit", "condense", "edit_condense"])
        for name in ("X", "y")
    ],
    *[
        (name, ["edit", "multiedit", "condense", "edit_condense", "Editing",
                "MultiEditing", "Condensing", "EditCondensing"])
        for name in ("metric", "p", "metric_params", "n_jobs")
    ],
]  # fmt: skip


def _parameter_entries(obj):
    """``{name: "type description"}`` of the Parameters section of ``obj``'s
    docstring (numpydoc layout), whitespace collapsed."""
    lines = inspect.cleandoc(obj.__doc__ or "").splitlines()
    heads = [i for i, line in enumerate(lines[:-1])
             if line.strip() == "Parameters" and set(lines[i + 1].strip()) == {"-"}]  # fmt: skip
    entries, name = {}, None
    for i in range(heads[0] + 2, len(lines)) if heads else ():
        line = lines[i]
        if line.strip() and i + 1 < len(lines) and set(lines[i + 1].strip()) == {"-"}:
            break  # the next section
        if line and not line.startswith(" "):
            name, _, kind = line.partition(" : ")
            entries[name] = [kind]
        elif name is not None and line.strip():
            entries[name].append(line.strip())
    return {name: " ".join(words) for name, words in entries.items()}


def test_the_entry_reader_reads_numpydoc():
    def example():
        """Do.

        Parameters
        ----------
        a : int, default=1
            The first
            one.
        b : str

        Returns
        -------
        c : int
        """

    assert _parameter_entries(example) == {
        "a": "int, default=1 The first one.",
        "b": "str",
    }


@pytest.mark.parametrize(
    "name, owners", SHARED_PARAMETERS, ids=[p for p, _ in SHARED_PARAMETERS]
)
def test_a_shared_parameter_is_documented_once_in_the_same_words(name, owners):
    texts = {
        owner: _parameter_entries(getattr(patrec, owner)).get(name) for owner in owners
    }
    assert None not in texts.values(), f"{name} is not documented in {texts}"
    assert len(set(texts.values())) == 1, f"{name} is documented differently: {texts}"
