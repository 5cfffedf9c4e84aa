"""No compiled function takes more than ten parameters (docs/maintainers.rst, "Hand
down one validated object"): a kernel that needs more takes an object that holds
them (`EpochState`, the condensing `Store`, `SearchTree`).

Every ``def``, ``cdef`` and ``cpdef`` function of patrec's ``.pyx`` and ``.pxd``
files is read from the source and its parameters counted (``self`` and a bare
``*`` are not parameters).  The exceptions are listed below, each with its reason;
an exception that no longer needs its place fails the test too, so the list only
shrinks.
"""

import pathlib
import re

import patrec

PACKAGE_DIR = pathlib.Path(patrec.__file__).parent
MOST = 10
# a def/cdef/cpdef line up to the name of the function and its "(" (a declaration
# of variables has no "(" before an "=")
DEFINITION = re.compile(r"^[ \t]*(?:cpdef|cdef|def)\b[^=(\n:]*?\b(\w+)[ \t]*\(", re.M)

# "module path:function" -> why it takes more than MOST parameters (none now: the
# softmax's BLAS shim derives the leading dimensions from the shapes)
EXCEPTIONS = {}


def parameters(text, opening):
    """The parameters of the definition whose "(" is at ``opening``."""
    depth, found, current = 0, [], ""
    for char in text[opening:]:
        if char in "([":
            depth += 1
            if depth == 1:
                continue
        elif char in ")]":
            depth -= 1
            if depth == 0:
                break
        elif char == "," and depth == 1:
            found.append(current)
            current = ""
            continue
        current += char
    found.append(current)
    found = (re.sub(r"#.*", "", parameter).strip() for parameter in found)
    return [p for p in found if p and p not in ("self", "*", "/")]


def compiled_functions():
    """``{"module path:function": number of parameters}`` over every .pyx/.pxd."""
    counts = {}
    for path in sorted([*PACKAGE_DIR.rglob("*.pyx"), *PACKAGE_DIR.rglob("*.pxd")]):
        text = path.read_text()
        for match in DEFINITION.finditer(text):
            name = f"{path.relative_to(PACKAGE_DIR).as_posix()}:{match.group(1)}"
            counts[name] = max(
                counts.get(name, 0), len(parameters(text, match.end() - 1))
            )
    return counts


COUNTS = compiled_functions()


def test_the_reader_counts_what_it_should():
    assert COUNTS["_epoch_state.pyx:row_storage"] == 1
    assert COUNTS["linear/_perceptron.pyx:linear_machine_epoch"] == 6
    assert COUNTS["_training.pxd:class_move"] == 10
    assert COUNTS["neighbors/search/_bnb_tree.pyx:make_search_tree"] == 1
    assert COUNTS["linear/_softmax.pyx:_gemm"] == 9
    assert len(COUNTS) > 100


def test_no_compiled_function_takes_more_than_ten_parameters():
    over = {
        name: count
        for name, count in COUNTS.items()
        if count > MOST and name not in EXCEPTIONS
    }
    assert not over, f"more than {MOST} parameters (hand down an object): {over}"


def test_every_exception_still_needs_its_place():
    for name in EXCEPTIONS:
        assert COUNTS.get(name, 0) > MOST, f"{name} is no exception any more: unlist it"
