"""pytest plugin: the peers' own test files, with patrec's classes swapped in.

``tools/peer_suites.py`` loads it (``-p peer_suites_plugin``) and runs the test files
of SciPy, scikit-learn and imbalanced-learn from their installed packages.  When one of
those files is imported, its ``import`` statements see patrec's class under the peer's
name: ``from sklearn.discriminant_analysis import LinearDiscriminantAnalysis`` binds
:class:`patrec.FisherLDA`, and ``from sklearn import neighbors`` binds a proxy module
whose ``KNeighborsClassifier`` is patrec's (the rest is scikit-learn's).  Only the test
file's own statements are redirected, at import and inside its functions, so the
parametrize lists built at import hold patrec's classes while the peers' packages
themselves stay untouched.

Each test is recorded with its outcome and whether it *called patrec*: whether a class
swapped in was instantiated (or refused its parameters) while the test ran.  The
records go to the JSON file named by ``--peer-report``.
"""

import builtins
import functools
import importlib
import importlib.abc
import importlib.util
import json
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Suite:
    """A peer's test files and the classes swapped in for the peer's names.

    ``files`` are paths inside the installed packages (from their parent folder);
    ``swaps`` maps the peer's name of a class to patrec's, both as dotted paths.
    """

    name: str
    files: tuple
    swaps: dict = field(hash=False)
    needs: str = "patrec"


SUITES = (
    Suite(
        "scipy test_kdtree",
        ("scipy/spatial/tests/test_kdtree.py",),
        {
            "scipy.spatial.KDTree": "patrec.spatial.KDTree",
            "scipy.spatial.cKDTree": "patrec.spatial.cKDTree",
            "scipy.spatial._ckdtree.cKDTreeNode": "patrec.spatial.cKDTreeNode",
        },
        needs="patrec.spatial",
    ),
    Suite(
        "sklearn test_neighbors",
        ("sklearn/neighbors/tests/test_neighbors.py",),
        {
            "sklearn.neighbors.KNeighborsClassifier": "patrec.KNeighborsClassifier",
            "sklearn.neighbors.NearestNeighbors": "patrec.NearestNeighbors",
        },
    ),
    Suite(
        "sklearn test_discriminant_analysis",
        ("sklearn/tests/test_discriminant_analysis.py",),
        {
            "sklearn.discriminant_analysis.LinearDiscriminantAnalysis": (
                "patrec.FisherLDA"
            ),
            "sklearn.discriminant_analysis.QuadraticDiscriminantAnalysis": (
                "patrec.QDA"
            ),
        },
    ),
    Suite(
        "sklearn test_perceptron",
        ("sklearn/linear_model/tests/test_perceptron.py",),
        {"sklearn.linear_model.Perceptron": "patrec.Perceptron"},
    ),
    Suite(
        "imblearn prototype selection",
        tuple(
            f"imblearn/under_sampling/_prototype_selection/tests/test_{name}.py"
            for name in (
                "edited_nearest_neighbours",
                "repeated_edited_nearest_neighbours",
                "condensed_nearest_neighbour",
            )
        ),
        {
            "imblearn.under_sampling.EditedNearestNeighbours": (
                "patrec.neighbors.Editing"
            ),
            "imblearn.under_sampling.RepeatedEditedNearestNeighbours": (
                "patrec.neighbors.Editing"
            ),
            "imblearn.under_sampling.CondensedNearestNeighbour": (
                "patrec.neighbors.Condensing"
            ),
        },
    ),
)


def resolve(dotted):
    """The object a dotted path names (a module, or an attribute of one)."""
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def available(suite):
    """None when the suite's patrec module imports, else why it does not."""
    try:
        importlib.import_module(suite.needs)
    except ImportError as error:
        return f"{suite.needs} does not import ({error})"
    return None


class ProxyModule(types.ModuleType):
    """A module that answers with its own attributes first, then the real module's."""

    def __init__(self, real, overrides):
        super().__init__(real.__name__, real.__doc__)
        self.__dict__.update(overrides)
        self.__dict__["_real_module"] = real

    def __getattr__(self, name):
        return getattr(self.__dict__["_real_module"], name)


def swapped_builtins(swaps):
    """Builtins whose ``__import__`` hands out proxies for the modules in ``swaps``.

    ``swaps`` maps ``"package.module.Name"`` to the class to see under that name; every
    package on the way to the module is proxied too, so that ``from package import
    module`` and ``import package.module`` both reach the swapped class.
    """
    overrides = {}
    for dotted, new in swaps.items():
        module, _, name = dotted.rpartition(".")
        overrides.setdefault(module, {})[name] = new
        while "." in module:
            parent, _, child = module.rpartition(".")
            overrides.setdefault(parent, {}).setdefault(child, None)
            module = parent

    proxies = {}

    def proxy(module_name):
        if module_name not in proxies:
            real = sys.modules[module_name]
            own = {
                name: proxy(f"{module_name}.{name}") if value is None else value
                for name, value in overrides[module_name].items()
            }
            proxies[module_name] = ProxyModule(real, own)
        return proxies[module_name]

    real_import = builtins.__import__

    def swapping_import(name, globals=None, locals=None, fromlist=(), level=0):
        module = real_import(name, globals, locals, fromlist, level)
        if getattr(module, "__name__", None) in overrides:
            return proxy(module.__name__)
        return module

    namespace = dict(builtins.__dict__)
    namespace["__import__"] = swapping_import
    return namespace


class SwappingFinder(importlib.abc.MetaPathFinder):
    """Finds the peers' test files through the finders after it, and has their
    modules executed with :func:`swapped_builtins`."""

    def __init__(self, swaps_by_path):
        self.swaps_by_path = swaps_by_path

    def find_spec(self, fullname, path, target=None):
        if not fullname.rpartition(".")[2].startswith("test_"):
            return None
        finders = sys.meta_path[sys.meta_path.index(self) + 1 :]
        for finder in finders:
            spec = getattr(finder, "find_spec", lambda *a: None)(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        swaps = self.swaps_by_path.get(str(Path(spec.origin or "").resolve()))
        if swaps is None:
            return None
        spec.loader = SwappingLoader(spec.loader, swaps)
        return spec


class SwappingLoader(importlib.abc.Loader):
    """Another loader's module, executed with the swapped builtins."""

    def __init__(self, loader, swaps):
        self.loader = loader
        self.swaps = swaps

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        module.__builtins__ = swapped_builtins(self.swaps)
        self.loader.exec_module(module)


class Recorder:
    """Swaps the classes in, and records every test's outcome and contact with patrec."""

    def __init__(self, config, report_path, roots):
        self.report_path = report_path
        self.touched = False
        self.records = {}
        self.suite_of = {}
        swaps_by_path = {}
        self.unavailable = {}
        for suite in SUITES:
            why = available(suite)
            if why is not None:
                self.unavailable[suite.name] = why
                continue
            swaps = {peer: resolve(ours) for peer, ours in suite.swaps.items()}
            for cls in set(swaps.values()):
                self.instrument(cls)
            for relative in suite.files:
                path = str((roots[relative] / relative).resolve())
                swaps_by_path[path] = swaps
                self.suite_of[path] = suite.name
        sys.meta_path.insert(0, SwappingFinder(swaps_by_path))

    def instrument(self, cls):
        """Note the test as calling patrec when ``cls`` is instantiated (or refuses
        its parameters before ``__init__``)."""
        if getattr(cls, "_peer_suites_instrumented", False):
            return
        for name in ("__init__", "_unknown_parameters_message"):
            owner = next((k for k in cls.__mro__ if name in k.__dict__), object)
            original = owner.__dict__.get(name)
            if original is None or original is object.__init__:
                continue
            function = getattr(original, "__func__", original)

            @functools.wraps(function)
            def noting(*args, _function=function, **kwargs):
                self.touched = True
                return _function(*args, **kwargs)

            setattr(
                cls,
                name,
                classmethod(noting) if isinstance(original, classmethod) else noting,
            )
        cls._peer_suites_instrumented = True

    def suite(self, path):
        return self.suite_of.get(str(Path(path).resolve()))

    def pytest_collectreport(self, report):
        if report.failed:
            self.records[report.nodeid] = {
                "suite": self.suite(report.fspath),
                "outcome": "failed",
                "patrec": False,
                "message": _message(report),
            }

    def pytest_runtest_logstart(self, nodeid, location):
        self.touched = False

    def pytest_runtest_logreport(self, report):
        record = self.records.setdefault(
            report.nodeid,
            {
                "suite": self.suite(report.fspath),
                "outcome": "passed",
                "patrec": False,
                "message": "",
            },
        )
        if hasattr(report, "wasxfail"):
            record["outcome"] = "xpassed" if report.passed else "xfailed"
        elif report.failed:
            record["outcome"] = "failed"
            record["message"] = record["message"] or _message(report)
        elif report.skipped and record["outcome"] == "passed":
            record["outcome"] = "skipped"
            record["message"] = _message(report)
        record["patrec"] = record["patrec"] or self.touched

    def pytest_sessionfinish(self, session):
        with open(self.report_path, "w") as stream:
            json.dump(
                {"unavailable": self.unavailable, "tests": self.records},
                stream,
                indent=1,
            )


def _message(report):
    """The last line of a report's error: the exception and its message."""
    if isinstance(report.longrepr, tuple):
        return str(report.longrepr[2])
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        return crash.message.splitlines()[0] if crash.message else ""
    lines = str(report.longrepr or "").strip().splitlines()
    return lines[-1] if lines else ""


def pytest_addoption(parser):
    parser.addoption(
        "--peer-report",
        help="write each test's outcome, and whether it called patrec, to this file",
    )


def pytest_configure(config):
    path = config.getoption("peer_report")
    if path:
        roots = {
            relative: Path(
                importlib.util.find_spec(relative.split("/")[0]).origin
            ).parent.parent
            for suite in SUITES
            for relative in suite.files
        }
        config.pluginmanager.register(Recorder(config, path, roots), "peer-recorder")
