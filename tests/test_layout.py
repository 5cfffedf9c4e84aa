"""The package's layout: no import circle anywhere inside patrec.

Every import that patrec's own modules make of each other is read from the source
(Python ``import`` statements, function-level ones included, and the ``cimport``s
of ``.pyx`` / ``.pxd`` files), giving a graph of modules; the graph must have no
cycle.  Within a folder this means the imports run one way, from the modules that
use to the modules they use.  The import of a module's parent packages that Python
makes implicitly is not an edge: only what the code names.
"""

import ast
import pathlib
import re

import patrec

PACKAGE_DIR = pathlib.Path(patrec.__file__).parent
SOURCES = (".py", ".pyx", ".pxd")
CIMPORT = re.compile(
    r"^\s*(?:from\s+([\w.]+)\s+cimport\s+(.+)|cimport\s+([\w.]+))", re.MULTILINE
)


def _module_name(path):
    parts = ["patrec", *path.relative_to(PACKAGE_DIR).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules():
    modules = {}
    for path in sorted(PACKAGE_DIR.rglob("*")):
        if path.suffix in SOURCES and "__pycache__" not in path.parts:
            modules.setdefault(_module_name(path), []).append(path)
    return modules


MODULES = _modules()


def _package_of(name, path):
    return name if path.stem == "__init__" else name.rsplit(".", 1)[0]


def _resolve(base, names):
    """The modules of patrec that ``from base import names`` names: a submodule
    where one of the names is a module, else ``base`` itself."""
    targets = {f"{base}.{name}" for name in names if f"{base}.{name}" in MODULES}
    if len(targets) < len(names) and base in MODULES:
        targets.add(base)
    return targets


def _imports_of_python(name, path):
    package = _package_of(name, path)
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = (
                    package.rsplit(".", node.level - 1)[0]
                    if node.level > 1
                    else package
                )
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module
            targets |= _resolve(base, [alias.name for alias in node.names])
    return targets


def _imports_of_cython(path):
    targets = set()
    for match in CIMPORT.finditer(path.read_text(encoding="utf-8")):
        base, names, module = match.groups()
        if module:
            targets.add(module)
        else:
            names = [part.split(" as ")[0].strip(" ()\\") for part in names.split(",")]
            targets |= _resolve(base, [name for name in names if name])
    return targets


def _import_graph():
    graph = {}
    for name, paths in MODULES.items():
        edges = set()
        for path in paths:
            edges |= (
                _imports_of_python(name, path)
                if path.suffix == ".py"
                else _imports_of_cython(path)
            )
        graph[name] = {
            target for target in edges if target in MODULES and target != name
        }
    return graph


def _cycle(graph):
    """A list of modules forming a cycle, or None (depth-first search)."""
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == "open":
                return stack[stack.index(target) :] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        state[node] = "done"
        stack.pop()
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_graph_sees_the_imports():
    graph = _import_graph()
    assert "patrec.neighbors.search._index" in graph["patrec.neighbors.search.tree"]
    assert (
        "patrec.neighbors.search._distances"
        in graph["patrec.neighbors.editing._condense"]
    )
    assert "patrec.neighbors.search._heap" in graph["patrec.neighbors.search._bnb_tree"]
    assert (
        "patrec.linear" in graph["patrec.plotting.regions"]
    )  # a function-level import


def test_no_import_circle():
    cycle = _cycle(_import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_the_check_finds_a_circle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_chapters_use_no_private_module_of_another():
    """A chapter (linear, discriminant, piecewise, neighbors) imports another
    chapter's public names only; what two chapters share lives in a neutral module."""
    chapters = ("linear", "discriminant", "piecewise", "neighbors")
    for name, targets in _import_graph().items():
        parts = name.split(".")
        if len(parts) < 2 or parts[1] not in chapters:
            continue
        for target in targets:
            other = target.split(".")
            if len(other) > 2 and other[1] in chapters and other[1] != parts[1]:
                assert not any(part.startswith("_") for part in other[2:]), (
                    f"{name} imports {target}, a private module of another chapter"
                )


def test_the_layers_above_the_chapters_use_no_private_module_of_theirs():
    """`distributed`, `plotting`, `cli` and `spatial` sit on top of the chapters and
    use their public names only (what patrec as a whole shares, such as
    ``patrec._validation``, is theirs too)."""
    chapters = ("linear", "discriminant", "piecewise", "neighbors")
    above = ("distributed", "plotting", "cli", "spatial")
    for name, targets in _import_graph().items():
        parts = name.split(".")
        if len(parts) < 2 or parts[1] not in above:
            continue
        for target in targets:
            other = target.split(".")
            if len(other) > 2 and other[1] in chapters:
                assert not any(part.startswith("_") for part in other[2:]), (
                    f"{name} imports {target}, a private module of a chapter"
                )


def test_the_exercises_use_only_public_names():
    """`patrec.exercises` checks a student's code against patrec as a user calls it:
    through the chapters' public names and recorded histories, never a private
    module (which could change without the exercises noticing)."""
    for name, targets in _import_graph().items():
        if not name.startswith("patrec.exercises"):
            continue
        for target in targets:
            if target.startswith("patrec.exercises"):
                continue
            parts = target.split(".")
            assert not any(part.startswith("_") for part in parts[1:]), (
                f"{name} imports {target}, a private module"
            )
