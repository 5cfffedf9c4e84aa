"""Grading a class: every student's file checked, a gradebook and feedback pages.

`grade` reads a folder of students' files (``.py``, or ``.ipynb`` notebooks whose
code cells are run as one module, without Jupyter), finds the exercises each file
defines (the functions named as the templates name them, read from its source
without running it), and checks each one as `check` does: in a child process that
runs the student's file anew, with the time and memory limits, so that nothing one
student's code does reaches another's grade or the grading itself.  It writes

- ``gradebook.csv``: one row per student and exercise (student, exercise, passed,
  the first divergence in one line, seconds), and one row with the exercise
  ``(file)`` for a file that cannot be read or defines no exercise;
- ``feedback/<student>.md``: each student's reports, in Markdown.

The same folder gives the same gradebook, the seconds aside.  `command` is
``patrec grade`` (the argument wiring is in `patrec.cli`).
"""

import ast
import csv
import json
import re
import sys
from collections import namedtuple
from pathlib import Path

from .. import __version__
from ._checking import run_check
from ._isolation import DEFAULT_MEMORY_LIMIT, DEFAULT_TIME_LIMIT
from ._registry import EXERCISES

__all__ = ["Grade", "command", "grade", "submission_source"]

Grade = namedtuple("Grade", "student exercise passed divergence seconds result")
Grade.__doc__ = """One row of the gradebook.

Attributes
----------
student : str
    The file's name without its suffix (with it, when two files share a name).
exercise : str
    The exercise, or "(file)" for a file that cannot be read or defines none.
passed : bool
    Whether every case agreed with the rule.
divergence : str
    The first divergence in one line ("" when passed).
seconds : float
    The time the check took.
result : CheckResult or None
    The full report (None for a "(file)" row).
"""

SUFFIXES = (".py", ".ipynb")
FIELDS = ("student", "exercise", "passed", "divergence", "seconds")

# A notebook's IPython lines are not Python: a line magic or a shell escape is
# left out; a cell magic's whole cell too.
_MAGIC = re.compile(r"^\s*[%!]")


def submission_source(path):
    """The Python code of a student's file, as (name, source) parts: a ``.py``
    file whole; a notebook's code cells one by one, named "<file>, cell n"
    (IPython's ``%`` and ``!`` lines left out, a cell that starts with ``%%`` left
    out whole), so that a line number is the line in its cell.

    Raises
    ------
    ValueError
        When the file is not UTF-8 text or not a notebook.
    SyntaxError
        When a part is not Python.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"not UTF-8 text ({error.reason})") from None
    if path.suffix != ".ipynb":
        parts = [(path.name, text)]
    else:
        try:
            cells = json.loads(text)["cells"]
        except (ValueError, KeyError, TypeError):
            raise ValueError("not a Jupyter notebook (no cells in its JSON)") from None
        parts = []
        for number, cell in enumerate(cells, start=1):
            if not isinstance(cell, dict) or cell.get("cell_type") != "code":
                continue
            source = cell.get("source", "")
            source = "".join(source) if isinstance(source, list) else str(source)
            if source.lstrip().startswith("%%"):
                continue
            lines = [
                "# " + line if _MAGIC.match(line) else line
                for line in source.splitlines()
            ]
            parts.append((f"{path.name}, cell {number}", "\n".join(lines) + "\n"))
    for name, source in parts:
        compile(source, name, "exec")  # a SyntaxError names the part and its line
    return parts


def _defined(parts, exercises):
    """The exercises among ``exercises`` whose name a part's top level binds: a
    def, an assignment, an import."""
    bound = set()
    for _, source in parts:
        for node in ast.parse(source).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                bound.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = (
                    node.targets if isinstance(node, ast.Assign) else [node.target]
                )
                bound |= {t.id for t in targets if isinstance(t, ast.Name)}
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return [name for name in exercises if name in bound]


def _students(files):
    """Each file's student name: its stem, or its whole name when two files share
    a stem."""
    stems = [path.stem for path in files]
    return [path.name if stems.count(path.stem) > 1 else path.stem for path in files]


def grade(
    submissions,
    out="grades",
    *,
    exercises=None,
    seed=0,
    time_limit=DEFAULT_TIME_LIMIT,
    memory_limit=DEFAULT_MEMORY_LIMIT,
    progress=None,
):
    """Check every exercise each student's file defines; write the gradebook and
    the feedback pages; the `Grade` rows.  See `patrec.exercises.grade`."""
    names = list(EXERCISES)
    folder = Path(submissions)
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a folder of submissions.")
    files = sorted(
        path
        for path in folder.iterdir()
        if path.suffix in SUFFIXES and path.is_file() and not path.name.startswith(".")
    )
    if not files:
        raise ValueError(
            f"{folder} holds no submission: no .py or .ipynb file at its top level."
        )
    wanted = names if exercises is None else [n for n in names if n in exercises]
    out = Path(out)
    (out / "feedback").mkdir(parents=True, exist_ok=True)
    grades = []
    for student, path in zip(_students(files), files):
        mine = []
        try:
            parts = submission_source(path)
            defined = _defined(parts, wanted)
        except SyntaxError as error:
            where = f"line {error.lineno}"
            if error.filename and error.filename != path.name:
                where += " of " + error.filename.removeprefix(path.name + ", ")
            mine.append(_file_row(student, f"SyntaxError: {error.msg} ({where})"))
        except ValueError as error:
            mine.append(_file_row(student, f"it cannot be read: {error}"))
        else:
            if not defined:
                mine.append(
                    _file_row(
                        student,
                        "it defines none of the exercises' functions ("
                        + ", ".join(wanted)
                        + ")",
                    )
                )
            for name in defined:
                result = run_check(
                    EXERCISES[name],
                    None,
                    seed,
                    time_limit=time_limit,
                    memory_limit=memory_limit,
                    output=_discard,
                    job=("source", parts, name),
                )
                mine.append(
                    Grade(
                        student,
                        name,
                        result.passed,
                        "" if result.passed else result.summary,
                        result.seconds,
                        result,
                    )
                )
        _write_feedback(out / "feedback" / f"{student}.md", student, path, mine, seed,
                        time_limit, memory_limit)  # fmt: skip
        grades.extend(mine)
        if progress is not None:
            progress(student, mine)
    _write_gradebook(out / "gradebook.csv", grades)
    return grades


def _discard(stream, text):
    """What a student's function prints while it is graded: nobody reads it."""


def _file_row(student, text):
    return Grade(student, "(file)", False, text, 0.0, None)


def _write_gradebook(path, grades):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(FIELDS)
        for row in grades:
            writer.writerow(
                [row.student, row.exercise, int(row.passed), row.divergence,
                 f"{row.seconds:.2f}"]
            )  # fmt: skip


def _write_feedback(path, student, source, grades, seed, time_limit, memory_limit):
    limits = (
        f"{'no time limit' if time_limit is None else f'{time_limit:g} s a case'}, "
        f"{'no memory limit' if memory_limit is None else f'{memory_limit:g} MB'}"
    )
    lines = [
        f"# Feedback for {student}",
        "",
        f"Your file `{source.name}`, checked by patrec {__version__} (seed={seed}, "
        f"{limits}).",
        "",
        "| exercise | result |",
        "|---|---|",
    ]
    for row in grades:
        verdict = "passed" if row.passed else "not yet"
        if row.result is None:
            verdict = _escape(row.divergence)
        lines.append(f"| {row.exercise} | {verdict} |")
    for row in grades:
        lines += ["", f"## {row.exercise}", ""]
        if row.result is None:
            lines.append(f"Your file could not be graded: {row.divergence}.")
        else:
            lines.append(row.result._markdown())
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _escape(text):
    return text.replace("|", "\\|")


def command(args, out=None, err=None):
    """``patrec grade``: grade the folder ``args.submissions``; the exit code."""
    out = out or sys.stdout
    err = err or sys.stderr
    names = list(EXERCISES)
    unknown = [name for name in args.exercises or () if name not in names]
    if unknown:
        print(
            f"patrec: error: --exercises: no exercise {', '.join(unknown)}; the "
            f"exercises are {', '.join(names)}",
            file=err,
        )
        return 2

    def progress(student, rows):
        if not args.quiet:
            passed = sum(row.passed for row in rows)
            print(f"{student}: {passed} of {len(rows)} passed", file=err, flush=True)

    try:
        grades = grade(
            args.submissions,
            args.out,
            exercises=args.exercises,
            seed=args.seed,
            time_limit=args.time_limit,
            memory_limit=args.memory_limit,
            progress=progress,
        )
    except (ValueError, OSError) as error:
        print(f"patrec: error: {error}", file=err)
        return 2
    students = sorted({row.student for row in grades})
    passed = sum(row.passed for row in grades)
    print(
        f"{len(students)} students, {len(grades)} rows, {passed} passed: "
        f"{Path(args.out) / 'gradebook.csv'} and {Path(args.out) / 'feedback'}/",
        file=out,
    )
    return 0
