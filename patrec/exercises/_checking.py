"""How a student's function is checked: the exercise contract, the run, the report.

An `Exercise` knows three things: the cases to run (the course's worked examples
first, then the fixed cases that tell the rule from its near misses, then seeded
random ones), patrec's answer to each (`Exercise.reference`), and
how to compare the student's answer with it (`Exercise.compare`), which returns the
first `Divergence` in the course's notation, or None.  `run_check` calls the
student's function on a copy of each case's inputs, so nothing the function does
can change the reference, and stops at the first case where the function raises,
modifies its inputs, or parts from the rule.  The outcome is a `CheckResult`: true
only when every case passed, printed as text in a terminal and as HTML in a notebook.
"""

import html
import signal
import sys
import textwrap
import time
import warnings

import numpy as np

from ._isolation import DEFAULT_MEMORY_LIMIT, DEFAULT_TIME_LIMIT, calls

__all__ = [
    "Case",
    "CheckResult",
    "Divergence",
    "Exercise",
    "run_check",
    "shuffled_classes",
]


class Case:
    """One set of inputs for the student's function.

    Parameters
    ----------
    title : str
        What the case is, as the report names it ("the course's worked example",
        "random case 3: 12 samples, 2 features, 3 classes").
    args : dict
        The arguments, by the names of the exercise's signature, in its order.
    """

    def __init__(self, title, args):
        self.title = title
        self.args = args

    def __repr__(self):
        return f"Case({self.title!r})"


class Divergence:
    """Where the student's function first parts from the rule.

    Parameters
    ----------
    where : str
        The step, in the course's terms ("epoch 2, sample X[5] of class ω₁").
    message : str
        What the rule does there and what the student's function did.
    hint : str or None
        The classic mistake this looks like, when it can be recognised.
    """

    def __init__(self, where, message, hint=None):
        self.where = where
        self.message = message
        self.hint = hint

    def __repr__(self):
        return f"Divergence({self.where!r})"


class Exercise:
    """The contract of one exercise.

    A subclass sets the class attributes and implements `cases`, `reference` and
    `compare`.

    Attributes
    ----------
    name : str
        The name `check` and `template` take.
    title : str
        One line: the algorithm, as the course names it.
    chapter : str
        The chapter of the course (and of the user guide).
    signature : str
        The parameters of the student's function, as in a ``def`` line.
    doc : str
        The docstring of the student's function: the task, its inputs and outputs.
    """

    name = ""
    title = ""
    chapter = ""
    signature = ""
    doc = ""

    def cases(self, rng):
        """The cases, worked examples first; ``rng`` draws the random ones.

        The cases that tell the rule from its near misses (a tie broken the other
        way, a duplicate taken for the sample itself, an off-by-one) are fixed, not
        drawn: every seed must catch those mistakes (tests/exercises/
        test_mutations.py holds them to it).
        """
        raise NotImplementedError

    def reference(self, **args):
        """patrec's answer for these arguments."""
        raise NotImplementedError

    def compare(self, args, expected, got):
        """The first `Divergence` of ``got`` from ``expected``, or None."""
        raise NotImplementedError

    def template(self):
        """A stub of the student's function: its signature, docstring and body."""
        doc = textwrap.indent(textwrap.dedent(self.doc).strip("\n"), "    ").lstrip()
        return (
            f"import numpy as np\n\n\ndef {self.name}({self.signature}):\n"
            f'    """{doc}\n    """\n'
            "    # Your code here.\n"
            "    raise NotImplementedError\n"
        )


class CheckResult:
    """What `patrec.exercises.check` found.

    True (``bool(result)``, ``result.passed``) only when the function agreed with
    the reference on every case, so ``assert check(...)`` works in a test.  Printed,
    it is a report: in a terminal as text, in a notebook as HTML.

    Attributes
    ----------
    name : str
        The exercise.
    passed : bool
        Whether every case agreed.
    n_cases : int
        The cases of the exercise.
    n_passed : int
        The cases that agreed before the first that did not.
    case : Case or None
        The case that did not agree.
    divergence : Divergence or None
        Where it parted from the rule.
    seed : int
        The seed of the random cases: ``check(name, function, seed=seed)``
        reproduces this report exactly.
    note : str or None
        How the function was run, when not as usual (in this process, without
        limits, where it could not be sent to a child process).
    seconds : float
        The time the check took, the child process included.
    """

    def __init__(self, exercise, seed, n_cases, n_passed, case=None, divergence=None,
                 note=None, seconds=0.0):  # fmt: skip
        self.name = exercise.name
        self.title = exercise.title
        self.seed = seed
        self.n_cases = n_cases
        self.n_passed = n_passed
        self.case = case
        self.divergence = divergence
        self.note = note
        self.seconds = seconds

    @property
    def passed(self):
        """Whether every case agreed with the reference."""
        return self.divergence is None

    def __bool__(self):
        return self.passed

    @property
    def summary(self):
        """The report in one line: "passed", or where the function first parted
        from the rule and how (the gradebook's column)."""
        if self.passed:
            return "passed"
        text = (
            f"{self.case.title}: at {self.divergence.where}: {self.divergence.message}"
        )
        return " ".join(text.split())

    def _lines(self):
        """The report as (kind, text) pairs, shared by the text and HTML forms."""
        yield from self._report()
        if self.note:
            yield "text", self.note

    def _report(self):
        if self.passed:
            yield "head", f"{self.title}: passed"
            yield (
                "text",
                (
                    f"Your function agreed with the reference on all {self.n_cases} "
                    "cases (the course's examples, the fixed cases and random ones, "
                    f"seed={self.seed})."
                ),
            )
            return
        yield "head", f"{self.title}: not yet"
        yield (
            "text",
            (
                f"Agreed on {self.n_passed} of {self.n_cases} cases; "
                f"{self.case.title} is the first that does not."
            ),
        )
        yield "where", self.divergence.where
        yield "message", self.divergence.message
        if self.divergence.hint:
            yield "hint", self.divergence.hint
        yield (
            "text",
            (
                f"Reproduce this report: check({self.name!r}, your_function, "
                f"seed={self.seed})."
            ),
        )

    def _markdown(self):
        """The report in Markdown (a grading's feedback page)."""
        parts = []
        for kind, text in self._lines():
            if kind == "head":
                parts.append(f"**{text}**")
            elif kind == "where":
                parts.append(f"At {text}:")
            elif kind == "message":
                parts.append("```text\n" + text + "\n```")
            elif kind == "hint":
                parts.append(f"*Hint:* {text}")
            else:
                parts.append(text)
        return "\n\n".join(parts)

    def __str__(self):
        prefixes = {"head": "", "text": "", "where": "At ", "message": "", "hint": ""}
        parts = []
        for kind, text in self._lines():
            if kind == "hint":
                text = "Hint: " + text
            parts.append(prefixes[kind] + text)
        return "\n".join(parts)

    def __repr__(self):
        status = "passed" if self.passed else "failed"
        return f"<CheckResult {self.name}: {status}>\n{self}"

    def _repr_html_(self):
        colour = "#1a7f37" if self.passed else "#b35900"
        parts = []
        for kind, text in self._lines():
            text = html.escape(text)
            if kind == "head":
                parts.append(f'<p style="font-weight:bold;color:{colour}">{text}</p>')
            elif kind == "where":
                parts.append(f"<p><b>At {text}</b></p>")
            elif kind == "message":
                parts.append(f'<pre style="white-space:pre-wrap">{text}</pre>')
            elif kind == "hint":
                parts.append(f"<p><i>Hint:</i> {text}</p>")
            else:
                parts.append(f"<p>{text}</p>")
        return '<div class="patrec-check">' + "".join(parts) + "</div>"


def shuffled_classes(rng, parts):
    """The samples of ``parts`` (one array of rows per class, class 0 first) in a
    random order drawn from ``rng``, with their class indices: a random case's data."""
    X = np.concatenate(parts).astype(float)
    labels = np.repeat(np.arange(len(parts)), [len(part) for part in parts])
    order = rng.permutation(len(X))
    return X[order], labels[order]


def run_check(exercise, function, seed, *, isolated=True,
              time_limit=DEFAULT_TIME_LIMIT, memory_limit=DEFAULT_MEMORY_LIMIT,
              output=None, job=None):  # fmt: skip
    """Run ``function`` on every case of ``exercise``; the `CheckResult`.

    The function runs in a child process (``isolated``) with ``time_limit``
    seconds per case and ``memory_limit`` megabytes, or in this one; ``job``
    (a student's file, for grading) stands for ``function`` in the child.
    ``output(stream, text)`` receives what the function prints in a child."""
    start = time.perf_counter()
    cases = exercise.cases(np.random.default_rng(seed))
    runner = calls(
        function,
        [case.args for case in cases],
        isolated=isolated,
        time_limit=time_limit,
        memory_limit=memory_limit,
        output=output or _print,
        job=job,
    )
    limits = {"time_limit": time_limit, "memory_limit": memory_limit}
    with runner:
        for number, case in enumerate(cases):
            outcome = runner.outcome(number)
            divergence = _judge(exercise, case, outcome, limits)
            if divergence is not None:
                return CheckResult(
                    exercise, seed, len(cases), number, case, divergence,
                    note=runner.note, seconds=time.perf_counter() - start,
                )  # fmt: skip
    return CheckResult(
        exercise, seed, len(cases), len(cases), note=runner.note,
        seconds=time.perf_counter() - start,
    )  # fmt: skip


def _print(stream, text):
    """What the student's function printed in the child, printed here."""
    print(text, end="", file=sys.stderr if stream == "stderr" else sys.stdout)


_SIGNALS = {
    "SIGSEGV": "a segmentation fault: memory read or written out of bounds",
    "SIGBUS": "a bus error: memory read or written out of bounds",
    "SIGFPE": "an arithmetic fault",
    "SIGABRT": "an abort",
    "SIGILL": "an illegal instruction",
    "SIGKILL": "killed, perhaps by the system for want of memory",
}


def _judge(exercise, case, outcome, limits):
    """The `Divergence` of one call's outcome from the rule, or None."""
    kind, line = outcome.kind, outcome.line
    if kind == "returned":
        return _compare(exercise, case, outcome.got, outcome.given)
    names = ", ".join(case.args)
    if kind == "signature":
        return Divergence(
            "the call",
            f"Your function cannot be called with the exercise's {len(case.args)} "
            f"arguments ({names}): {outcome.text}.",
            f"Keep the template's parameters: def {exercise.name}"
            f"({exercise.signature}).",
        )
    if kind == "raised":
        said = f": {outcome.text}" if outcome.text else ""
        if outcome.name == "NotImplementedError":
            hint = "Your function is not written yet: replace the template's body."
        else:
            hint = (
                "Run it on these inputs yourself (result.case.args holds them): "
                + _describe_args(case.args)
            )
        return Divergence(
            "the call", f"Your function raised {outcome.name}{said}{line}.", hint
        )
    if kind == "exit":
        return Divergence(
            "the call",
            f"Your function called sys.exit({outcome.code!r}){line}: the check "
            "stopped it there and counts the case as not passed.",
            "A function gives its answer with return; sys.exit, exit() and quit() "
            "end a whole program.",
        )
    if kind == "os_exit":
        how = (
            f"called os._exit({outcome.code}){line}"
            if line or outcome.code is None
            else f"ended its process with exit code {outcome.code} before it returned"
        )
        return Divergence(
            "the call",
            f"Your function {how}: the check counts the case as not passed.",
            "A function gives its answer with return; os._exit ends the process "
            "at once.",
        )
    if kind == "timeout":
        limit = limits["time_limit"]
        at = line.strip(" ()")
        running = f"; it was {'in' if at.startswith('the loop') else 'at'} {at}"
        running = running if line else ""
        return Divergence(
            "the call",
            f"Your function did not return within the time limit of {limit:g} s"
            f"{running}.",
            "A loop whose condition never becomes false does this; if your function "
            "only needs more time, check(..., time_limit=seconds) allows more.",
        )
    if kind == "memory":
        return Divergence(
            "the call",
            f"Your function needed more memory than the limit of "
            f"{limits['memory_limit']:g} MB{line}.",
            "The exercise's cases are small: an array far larger than the data "
            "(n_samples² entries or more) is the usual cause; check(..., "
            "memory_limit=megabytes) allows more.",
        )
    if kind == "died":
        name = _signal_name(outcome.code)
        what = _SIGNALS.get(name, "a signal")
        return Divergence(
            "the call",
            f"Your function's process crashed: {name}, {what}{line}.",
            "A crash comes from compiled code given bad input (ctypes, an "
            "extension), or from the system's limits: run the function on these "
            "inputs yourself (result.case.args holds them).",
        )
    if kind == "unreadable":
        cause = {"timeout": "it did not finish within the time limit",
                 "memory": "it needed more than the memory limit"}.get(
            outcome.name, outcome.text or "it could not be copied"
        )  # fmt: skip
        return Divergence(
            "what your function returned",
            f"The check could not read what your function returned: {cause}{line}.",
            "Return exactly what the template's docstring says, under Returns: "
            "numpy arrays, numbers, lists and tuples of them.",
        )
    if kind == "load":
        return _load_divergence(exercise, outcome, limits)
    return Divergence(  # the child ended its cases early: a bug of the checker
        "the call", f"The check lost your function's answer ({kind})."
    )


def _load_divergence(exercise, outcome, limits):
    """Running the student's file (grading) did not give the function."""
    how, _, name = outcome.name.partition(":")
    if how == "missing":
        return Divergence(
            "your file",
            f"Your file defines no function {exercise.name} (the name holds a "
            f"{outcome.text}).",
        )
    text = {
        "raised": f"raised {name}" + (f": {outcome.text}" if outcome.text else ""),
        "exit": f"called sys.exit({outcome.code!r})",
        "os_exit": f"called os._exit({outcome.code})",
        "timeout": f"did not finish within {limits['time_limit']:g} s",
        "memory": f"needed more than {limits['memory_limit']:g} MB",
    }.get(how, how)
    return Divergence(
        "your file",
        f"Running your file {text}{outcome.line}, before {exercise.name} could be "
        "checked.",
        "Your file runs from top to bottom when it is graded: keep only "
        "definitions and quick code at its top level.",
    )


def _signal_name(number):
    try:
        return signal.Signals(number).name
    except (ValueError, TypeError):
        return f"signal {number}"


def _compare(exercise, case, got, given):
    """The divergence of a returned answer: inputs changed, or the rule's."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the reference's convergence warnings
        expected = exercise.reference(**case.args)
    for name, value in case.args.items():
        if not _same(value, given[name]):
            return Divergence(
                "the call",
                f"Your function changed its input {name!r}.",
                "Work on a copy (for example np.array(X, dtype=float)): the caller's "
                "data must stay as they were.",
            )
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return exercise.compare(case.args, expected, got)
    except (TypeError, ValueError, IndexError, OverflowError) as error:
        # what the function returned is of a kind the comparison cannot read
        return Divergence(
            "what your function returned",
            f"The check could not read what your function returned ({_kind(got)}): "
            f"{error}.",
            "Return exactly what the template's docstring says, under Returns.",
        )


def _kind(value):
    """``value``'s type, and its shape or length, in a few words."""
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}"
    if isinstance(value, (list, tuple)):
        return f"a {type(value).__name__} of {len(value)} items"
    return f"a {type(value).__name__}"


def _same(a, b):
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and np.array_equal(a, b, equal_nan=True)
    if isinstance(a, (list, tuple)):
        return (
            type(a) is type(b)
            and len(a) == len(b)
            and all(_same(x, y) for x, y in zip(a, b))
        )
    return a == b


def _describe_args(args):
    parts = []
    for name, value in args.items():
        if isinstance(value, np.ndarray):
            parts.append(f"{name} of shape {value.shape}")
        else:
            parts.append(f"{name}={value!r}")
    return ", ".join(parts) + "."
