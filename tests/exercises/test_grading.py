"""Grading a class: `patrec.exercises.grade` and ``patrec grade`` on a folder of
every kind of submission (docs/grading/submissions: passing, failing, crashing,
exiting, looping, memory-hungry, not Python, a notebook), the gradebook checked row
by row, and the docs' worked example equal to what grading it gives."""

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from patrec import __version__
from patrec.exercises import _isolation, grade
from patrec.exercises._grading import submission_source

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "grading"
SUBMISSIONS = EXAMPLE / "submissions"

if not SUBMISSIONS.is_dir():  # the tests run from a copy without the docs
    pytest.skip("needs docs/grading", allow_module_level=True)

# the worked example's command: patrec grade submissions --time-limit 2
LIMITS = {"time_limit": 2.0}


def rows(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def without_seconds(table):
    return [{k: v for k, v in row.items() if k != "seconds"} for row in table]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    out = tmp_path_factory.mktemp("grades")
    return grade(SUBMISSIONS, out, **LIMITS), out


def test_the_gradebook_has_a_row_per_student_and_exercise(graded):
    grades, out = graded
    table = {
        (row["student"], row["exercise"]): row for row in rows(out / "gradebook.csv")
    }
    assert list(table) == [
        ("ada", "kesler"),
        ("ada", "knn"),
        ("ada", "wilson_editing"),
        ("ben", "knn"),
        ("ben", "wilson_editing"),
        ("cleo", "knn"),
        ("dora", "kesler"),
        ("eve", "hart_condensing"),
        ("finn", "wilson_editing"),
        ("gus", "(file)"),
    ]
    passed = {key for key, row in table.items() if row["passed"] == "1"}
    assert passed == {("ada", "kesler"), ("ada", "knn"), ("ada", "wilson_editing"),
                      ("ben", "knn")}  # fmt: skip
    said = {key: row["divergence"] for key, row in table.items()}
    assert all(said[key] == "" for key in passed)
    assert "equal votes with k = 2: at sample X[8]" in said["ben", "wilson_editing"]
    assert "crashed: SIGSEGV" in said["cleo", "knn"]
    assert "(line 12 of knn)" in said["cleo", "knn"]
    assert "called sys.exit(0) (line 15 of kesler)" in said["dora", "kesler"]
    assert (
        "time limit of 2 s; it was in the loop at line 9 of hart_condensing"
        in (said["eve", "hart_condensing"])
    )
    assert float(table["eve", "hart_condensing"]["seconds"]) < 4
    if sys.platform.startswith("linux"):
        assert "more memory than the limit of 1024 MB" in said["finn", "wilson_editing"]
    assert said["gus", "(file)"] == "SyntaxError: expected ':' (line 6)"
    assert all("\n" not in text for text in said.values())
    assert [g.passed for g in grades] == [
        row["passed"] == "1" for row in table.values()
    ]


def test_a_feedback_page_per_student(graded):
    _, out = graded
    pages = sorted(path.name for path in (out / "feedback").iterdir())
    assert pages == [f"{name}.md" for name in "ada ben cleo dora eve finn gus".split()]
    ben = (out / "feedback" / "ben.md").read_text(encoding="utf-8")
    assert ben.startswith("# Feedback for ben\n")
    assert "| knn | passed |" in ben and "| wilson_editing | not yet |" in ben
    assert "*Hint:* You left each sample out by dropping the first column" in ben
    assert "check('wilson_editing', your_function, seed=0)" in ben


def test_the_docs_worked_example_is_what_grading_gives(graded):
    """docs/grading.rst shows the gradebook and Ben's page of its folder."""
    _, out = graded
    shown = EXAMPLE / "grades"
    assert without_seconds(rows(out / "gradebook.csv")) == without_seconds(
        rows(shown / "gradebook.csv")
    )
    for page in (shown / "feedback").iterdir():
        written = (out / "feedback" / page.name).read_text(encoding="utf-8")
        expected = page.read_text(encoding="utf-8").replace("0.1.0", __version__)
        assert written == expected, page.name


def test_the_same_folder_gives_the_same_gradebook(graded, tmp_path):
    """The whole gradebook but the seconds: the looping function's report too."""
    _, out = graded
    grade(SUBMISSIONS, tmp_path, **LIMITS)
    again = rows(tmp_path / "gradebook.csv")
    assert without_seconds(again) == without_seconds(rows(out / "gradebook.csv"))


def write(folder, name, text):
    (folder / name).write_text(text, encoding="utf-8")


KESLER = """
import numpy as np

def kesler(X, labels, n_classes):
    n, d = X.shape
    psi = np.zeros((n, n_classes * (d + 1)))
    for j, i in enumerate(labels):
        psi[j, i * (d + 1) : (i + 1) * (d + 1)] = np.append(X[j], 1.0)
    return psi
"""


def test_a_file_whose_top_level_fails_says_so_for_each_exercise(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    write(folder, "exits.py", KESLER + "\nimport sys\nsys.exit(3)\n")
    write(folder, "loops.py", KESLER + "\nwhile True:\n    pass\n")
    write(folder, "raises.py", KESLER + "\nknn = 1 / 0\n")
    write(folder, "none.py", "x = 1\n")
    write(folder, "checks.py", KESLER + "\nfrom patrec.exercises import check\n"
          "assert check('kesler', kesler)\nassert check('knn', kesler)\n")  # fmt: skip
    grades = grade(folder, tmp_path / "out", time_limit=1)
    said = {(g.student, g.exercise): g for g in grades}
    assert "Running your file called sys.exit(3)" in said["exits", "kesler"].divergence
    assert (
        "Running your file did not finish within 1 s"
        in said["loops", "kesler"].divergence
    )
    assert "raised ZeroDivisionError: division by zero (line 11 of raises.py)" in (
        said["raises", "kesler"].divergence
    )
    assert said["raises", "knn"].passed is False
    assert (
        "it defines none of the exercises' functions"
        in said["none", "(file)"].divergence
    )
    # its own check() calls are not run while it is graded, whatever they assert
    assert said["checks", "kesler"].passed and said["checks", "kesler"].seconds < 2


def test_notebooks_are_read_cell_by_cell_without_jupyter(tmp_path):
    notebook = {
        "cells": [
            {"cell_type": "markdown", "source": ["# Title"]},
            {"cell_type": "code", "source": ["%matplotlib inline\n", "import numpy as np"]},
            {"cell_type": "code", "source": "%%bash\necho hi"},
            {"cell_type": "code", "source": "def kesler(X, labels, n_classes):\n"
             "    psi = X.copy()\n    raise ValueError('late')\n"},
        ],
        "nbformat": 4,
        "nbformat_minor": 5,
    }  # fmt: skip
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    parts = submission_source(path)
    assert [name for name, _ in parts] == ["nb.ipynb, cell 2", "nb.ipynb, cell 4"]
    assert parts[0][1].startswith("# %matplotlib inline\n")
    grades = grade(tmp_path, tmp_path / "out")
    (only,) = grades
    assert "raised ValueError: late (line 3 of kesler, cell 4)" in only.divergence


def test_two_files_of_one_student_name_keep_their_suffix(tmp_path):
    write(tmp_path, "sam.py", KESLER)
    (tmp_path / "sam.ipynb").write_text(
        json.dumps({"cells": [{"cell_type": "code", "source": KESLER}]}),
        encoding="utf-8",
    )
    grades = grade(tmp_path, tmp_path / "out")
    assert [(g.student, g.passed) for g in grades] == [
        ("sam.ipynb", True),
        ("sam.py", True),
    ]


def test_grade_refuses_what_it_cannot_grade(tmp_path):
    with pytest.raises(ValueError, match="is not a folder"):
        grade(tmp_path / "nowhere")
    with pytest.raises(ValueError, match="holds no submission"):
        grade(tmp_path)
    write(tmp_path, "a.py", KESLER)
    with pytest.raises(ValueError, match="Unknown exercise 'kessler'"):
        grade(tmp_path, exercises=["kessler"])
    with pytest.raises(ValueError, match="time_limit must be a positive number"):
        grade(tmp_path, time_limit=-1)


def test_spawned_children_grade_the_same(monkeypatch, tmp_path):
    """Where there is no fork (Windows), each child runs the student's file."""
    monkeypatch.setattr(_isolation, "_START_METHOD", "spawn")
    grades = grade(SUBMISSIONS, tmp_path, exercises=["kesler"], **LIMITS)
    said = {g.student: g for g in grades}
    assert said["ada"].passed
    assert "called sys.exit(0) (line 15 of kesler)" in said["dora"].divergence


def run(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "patrec", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def test_the_command_line_grades_a_folder(tmp_path):
    done = run("grade", str(SUBMISSIONS), "--exercises", "kesler", "knn", "-q",
               cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    # eve's and finn's files define neither: a "(file)" row each, as gus's
    assert "7 students, 8 rows, 3 passed: grades/gradebook.csv" in done.stdout
    table = rows(tmp_path / "grades" / "gradebook.csv")
    assert {row["exercise"] for row in table} == {"kesler", "knn", "(file)"}
    assert (tmp_path / "grades" / "feedback" / "dora.md").is_file()


def test_the_command_line_says_what_is_wrong(tmp_path):
    done = run("grade", str(tmp_path / "nowhere"), cwd=tmp_path)
    assert done.returncode == 2 and "is not a folder of submissions" in done.stderr
    done = run("grade", str(SUBMISSIONS), "--exercises", "knnn", cwd=tmp_path)
    assert done.returncode == 2 and "no exercise knnn" in done.stderr
    done = run("grade", str(SUBMISSIONS), "--time-limit", "0", cwd=tmp_path)
    assert done.returncode == 2 and "must be positive" in done.stderr
