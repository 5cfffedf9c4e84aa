"""Check your own implementation of the course's algorithms, step by step.

Each exercise of the chapter has a documented signature (`template` gives a stub to
start from) and a `check` that runs your function on the course's worked examples and
on seeded random cases, compares it with patrec's reference and, for the algorithms
that proceed in steps, names the first step where your function parts from the rule,
in the course's notation.  Plain numpy in and out; nothing is written anywhere and
nothing needs a network.

>>> from patrec.exercises import check, template
>>> print(template("perceptron"))  # doctest: +ELLIPSIS
import numpy as np
<BLANKLINE>
<BLANKLINE>
def perceptron(X, labels, rho=1.0, max_epochs=100):
...

The exercises, by chapter (``names()`` lists them):

- linear: ``perceptron``, ``linear_machine``, ``kesler``, ``output_codes``;
- discriminant: ``fisher_lda``, ``qda``;
- piecewise: ``minimum_distance``, ``piecewise_linear``;
- neighbors: ``knn``, ``branch_and_bound``, ``wilson_editing``, ``multiedit``,
  ``hart_condensing``.

``grade(folder)`` checks a whole class's files at once (``patrec grade`` on the
command line): a gradebook and a feedback page per student.
"""

import numbers

from . import _grading, _isolation
from ._checking import CheckResult, run_check
from ._isolation import DEFAULT_MEMORY_LIMIT, DEFAULT_TIME_LIMIT
from ._registry import EXERCISES as _EXERCISES

__all__ = ["CheckResult", "check", "describe", "grade", "names", "template"]


def names():
    """The exercises, in the course's order.

    Returns
    -------
    list of str
        The names `check` and `template` take.

    Examples
    --------
    >>> from patrec.exercises import names
    >>> names()[:2]
    ['perceptron', 'linear_machine']
    """
    return list(_EXERCISES)


def _exercise(name):
    if not isinstance(name, str):
        raise TypeError(
            f"name must be a str, one of {names()}; got {type(name).__name__}."
        )
    if name not in _EXERCISES:
        raise ValueError(f"Unknown exercise {name!r}; the exercises are {names()}.")
    return _EXERCISES[name]


def describe(name):
    """The task of exercise ``name``: its title, signature and docstring.

    Parameters
    ----------
    name : str
        One of `names`.

    Returns
    -------
    str
    """
    exercise = _exercise(name)
    return (
        f"{exercise.title}\n\ndef {exercise.name}({exercise.signature}):{exercise.doc}"
    )


def template(name):
    """A stub of your function for exercise ``name``, to start from.

    The stub has the signature and the docstring `check` expects, and a body that
    raises ``NotImplementedError``.

    Parameters
    ----------
    name : str
        One of `names`.

    Returns
    -------
    str
        Python source: print it, or save it into a file of your own.

    Examples
    --------
    >>> from patrec.exercises import template
    >>> source = template("kesler")
    >>> namespace = {}
    >>> exec(source, namespace)
    >>> callable(namespace["kesler"])
    True
    """
    return _exercise(name).template()


def check(
    name,
    function,
    *,
    seed=0,
    time_limit=DEFAULT_TIME_LIMIT,
    memory_limit=DEFAULT_MEMORY_LIMIT,
    isolated=True,
):
    """Run ``function`` on exercise ``name``'s cases and compare it with the rule.

    The cases are the course's worked examples, then fixed cases made to tell the
    rule from its near misses (duplicated samples, equal distances, equal votes,
    unbalanced classes, a query on a training sample, classes in no sorted order:
    the same at every seed), then random ones drawn from ``seed``.  Your function
    gets a copy of each case's inputs, positionally in the order of the exercise's
    signature (see `template`); its answer is compared with patrec's and, for an
    algorithm that proceeds in steps, step by step.  Checking stops at the first
    case that does not agree and reports where your function parted from the
    rule.

    Your function runs in a child process, so that nothing it does takes the
    check (or your script, or your notebook) with it: a case that runs past
    ``time_limit``, asks for more than ``memory_limit``, calls ``sys.exit`` or
    ``os._exit``, raises ``KeyboardInterrupt`` or crashes the process is reported,
    with its line, as a case not passed.  What the function returns is copied
    once into plain numpy arrays and numbers before it is compared, and what it
    prints is printed here.  The child costs 10 to 30 ms a check.  On Linux and
    macOS the child is a fork of this process, so a function defined in a
    notebook, a lambda or a closure runs as it is; on Windows the
    function must be importable from a .py file (or cloudpickle installed),
    otherwise it runs in this process without the limits and the report says so.

    Parameters
    ----------
    name : str
        One of `names`.
    function : callable
        Your implementation, with the signature of `template`.
    seed : int, default=0
        Seeds the random cases (a non-negative integer): the same seed gives the
        same cases and the same report, on any machine.
    time_limit : float or None, default=5.0
        The most seconds your function may take on one case; None: no limit.
    memory_limit : float or None, default=1024
        The most megabytes your function may allocate (enforced on Linux); None:
        no limit.
    isolated : bool, default=True
        False runs your function in this process, without limits: for a
        debugger's breakpoint inside it.

    Returns
    -------
    CheckResult
        True only when every case agreed, so that ``assert check(...)`` works in a
        test; printed, a report (HTML in a notebook).

    Raises
    ------
    ValueError
        When ``name`` is not an exercise, or ``seed`` is negative, or a limit is
        not positive.
    TypeError
        When ``function`` is not callable, ``seed`` is not an integer, or a limit
        is not a number.

    Examples
    --------
    A perceptron that forgets the bias:

    >>> import numpy as np
    >>> from patrec.exercises import check
    >>> def perceptron(X, labels, rho=1.0, max_epochs=100):
    ...     a, steps = np.zeros(X.shape[1]), []
    ...     for epoch in range(max_epochs):
    ...         mistakes = 0
    ...         for x, z in zip(X, labels):
    ...             if z * (a @ x) <= 0:
    ...                 a = a + rho * z * x
    ...                 mistakes += 1
    ...             steps.append(a.copy())
    ...         if mistakes == 0:
    ...             break
    ...     return a, steps
    >>> result = check("perceptron", perceptron)
    >>> bool(result)
    False
    >>> print(result.divergence.hint)
    You forgot the augmented 1: the rule works on y = (x, 1), so that the bias is the last weight.
    """
    exercise = _exercise(name)
    if not callable(function):
        raise TypeError(
            f"function must be your implementation (a callable); got "
            f"{type(function).__name__}."
        )
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an int; got {type(seed).__name__}.")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative int; got {seed}.")
    time_limit = _limit(time_limit, "time_limit", "seconds")
    memory_limit = _limit(memory_limit, "memory_limit", "megabytes")
    if not isinstance(isolated, bool):
        raise TypeError(f"isolated must be True or False; got {isolated!r}.")
    if _isolation.LOADING:  # a file being graded checks itself: it is graded anyway
        return CheckResult(exercise, int(seed), 0, 0, note="Not run while grading.")
    return run_check(
        exercise,
        function,
        int(seed),
        isolated=isolated,
        time_limit=time_limit,
        memory_limit=memory_limit,
    )


def grade(
    submissions,
    out="grades",
    *,
    exercises=None,
    seed=0,
    time_limit=DEFAULT_TIME_LIMIT,
    memory_limit=DEFAULT_MEMORY_LIMIT,
):
    """Grade a class: check every exercise each student's file defines.

    Each ``.py`` file or Jupyter notebook (``.ipynb``) at the top of the folder
    ``submissions`` is a student's, named by the file's name without its suffix.
    The exercises a file defines are the functions named as the templates name
    them (``def knn(...)``, an assignment or an import of that name), read from
    its source without running it.  Each is checked as `check` checks it, in a
    child process that runs the student's file anew (a notebook: its code cells,
    in order, IPython's ``%`` and ``!`` lines left out; no Jupyter needed), with
    the same limits: what one function does (an exception, an exit, an endless
    loop, a crash, memory) is that exercise's report and nothing else's.  The
    ``check(...)`` calls a file makes at its top level return at once, unchecked.

    Two files are written in ``out`` (created if need be):

    - ``gradebook.csv``: the columns student, exercise, passed (1 or 0),
      divergence (the first divergence in one line; empty when passed) and
      seconds, a row per student and exercise, the students in the order of
      their files' names, the exercises in the course's order; a file that cannot
      be read or defines no exercise has one row, exercise "(file)", that says
      why;
    - ``feedback/<student>.md``: a page per student with each exercise's report,
      in Markdown.

    The same folder gives the same gradebook, the seconds aside (and provided the
    students' functions give the same answers each time they run).

    Parameters
    ----------
    submissions : str or path
        The folder of the students' files.
    out : str or path, default="grades"
        Where the gradebook and the feedback pages are written.
    exercises : list of str or None, default=None
        Grade only these exercises (`names`); None: every one.
    seed : int, default=0
        The seed of the random cases, the same for every student.
    time_limit : float or None, default=5.0
        The most seconds a function may take on one case, and a file to run.
    memory_limit : float or None, default=1024
        The most megabytes a function may allocate (enforced on Linux).

    Returns
    -------
    list of Grade
        The gradebook's rows: ``student``, ``exercise``, ``passed``,
        ``divergence``, ``seconds`` and the whole report, ``result`` (a
        `CheckResult`; None for a "(file)" row).

    Raises
    ------
    ValueError
        When ``submissions`` is not a folder or holds no ``.py`` or ``.ipynb``
        file, or an argument is out of range.
    TypeError
        When an argument is of the wrong type.

    See Also
    --------
    check : the check of one function, as a student runs it.

    Notes
    -----
    ``patrec grade SUBMISSIONS`` runs it from the command line.  On Windows the
    files are run in spawned child processes: nothing has to be importable.
    """
    if exercises is not None:
        if isinstance(exercises, str):
            exercises = [exercises]
        for name in exercises:
            _exercise(name)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an int; got {type(seed).__name__}.")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative int; got {seed}.")
    return _grading.grade(
        submissions,
        out,
        exercises=exercises,
        seed=int(seed),
        time_limit=_limit(time_limit, "time_limit", "seconds"),
        memory_limit=_limit(memory_limit, "memory_limit", "megabytes"),
    )


def _limit(value, name, unit):
    """A positive number of ``unit``, or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number of {unit} or None; got {value!r}.")
    if not value > 0 or value == float("inf"):
        raise ValueError(f"{name} must be a positive number of {unit}; got {value!r}.")
    return float(value)
