"""The ``patrec`` command line.

``patrec compare`` cross-validates every registered classifier on one data set and
prints a table of error rates and fit / predict times::

    patrec compare                                  # iris, 5 folds, all classifiers
    patrec compare --data wine --cv 10
    patrec compare --data measurements.csv --target species --plot regions.png
    patrec compare --data iris.data --no-header --target 5
    patrec compare --classifiers minimum-distance knn --seed 3

``patrec grade SUBMISSIONS`` checks a class's exercises (`patrec.exercises.grade`).

The table goes to standard output.  While it runs, a one-line progress report is shown
on standard error when that is a terminal (never in a pipe or a log file; ``--quiet``
turns it off).  Bad input (a missing file or column, non-numeric features, a target
that holds measurements instead of classes, too few samples of a class, a ``--param``
value its classifier refuses) ends the command with a one-line message and exit code
2, before the comparison starts.  So does a ``--data`` path that is not a regular
file (/dev/zero, a pipe), a file larger than 100 MB, a line longer than a million
characters, or a file that does not fit in memory once parsed.

A CSV file may or may not start with a header row.  The first row is read as a header
unless every one of its fields looks like data of its column (a number in a numeric
column, one of the column's values in a text column, or a missing value such as "NA",
which is then reported); ``--no-header`` and ``--header`` override that guess.  Without
a header the columns are named ``x1``, ``x2``, ...; a column may always be given to
``--target`` by its number, counting from 1.  A feature column that looks like a row
number (n consecutive integers, such as 1 to n, each once) is used like any other,
with a note that says how to leave it out.
"""

import argparse
import ast
import codecs
import contextlib
import csv
import difflib
import io
import itertools
import os
import re
import stat
import sys
import textwrap
import warnings
from collections import namedtuple
from decimal import Decimal

import numpy as np

from . import __version__, registry
from ._validation import plain
from .exceptions import ConvergenceWarning
from .model_selection import (
    confusion_matrix,
    cross_validate,
    error_rates,
    sensitivity_specificity,
    standardize,
    stratified_kfold,
)

__all__ = ["main"]

BUNDLED = ("iris", "wine", "breast_cancer")

# A numeric target column with fractions is a measurement; say so instead of treating
# each value as a class.  Columns of text or of at most this many distinct integers
# are suggested as the class column.
_FEW_CLASSES = 20

# Spellings of a missing value, upper-cased.
_MISSING = ("NA", "N/A", "NAN", "NULL", "NONE", "?", "-")

# ... of which these also name classes in real data ("+" and "-", a disease of
# severity "none"): in the target column they are classes, not missing values.
_ALSO_CLASSES = ("-", "NONE")

# --plot names the classes in a legend up to this many (the colour map's colours).
_LEGEND_CLASSES = 10

# The field separators the CSV reader recognises, and how a message names them.
_SEPARATORS = {",": "commas", ";": "semicolons", "\t": "tabs"}

# The most --data reads: a larger file is refused before it is read, and a longer
# line (line break included) as soon as it is met.  The parsed text of a CSV file
# takes 15 to 50 times the file's size in memory (more for shorter fields).
_MAX_FILE_BYTES = 100_000_000
_MAX_LINE_CHARS = 1_000_000

_TOO_LARGE_ADVICE = (
    "compare on a sample of its rows, or load it in Python (numpy.loadtxt, "
    "pandas.read_csv) and cross-validate with patrec.model_selection.cross_validate"
)

# A numeric feature column holding each of the integers a, a + 1, ..., a + n - 1
# once, over at least this many rows, is noted as a likely row number.
_ROW_NUMBERS_MIN_ROWS = 10

# --param values are tried on the first fold's training samples and this many of
# its test samples before the comparison starts.
_TRIAL_QUERIES = 10

# What a classifier may raise on data it cannot handle: its row says why, and the
# other classifiers still run.
_CLASSIFIER_ERRORS = (ValueError, TypeError, ArithmeticError, np.linalg.LinAlgError)

Dataset = namedtuple("Dataset", "X y name feature_names target")


class UsageError(Exception):
    """Bad input given on the command line: reported in one line, exit code 2."""


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's layout, but lines are never broken inside a hyphenated name
    (``linear-machine`` stays whole)."""

    def _split_lines(self, text, width):
        text = self._whitespace_matcher.sub(" ", text).strip()
        return textwrap.wrap(text, width, break_on_hyphens=False)

    def _fill_text(self, text, width, indent):
        text = self._whitespace_matcher.sub(" ", text).strip()
        return textwrap.fill(
            text,
            width,
            initial_indent=indent,
            subsequent_indent=indent,
            break_on_hyphens=False,
        )


def build_parser():
    parser = argparse.ArgumentParser(
        prog="patrec",
        formatter_class=_HelpFormatter,
        description="Classic pattern-recognition classifiers, compared side by side.",
    )
    parser.add_argument("--version", action="version", version=f"patrec {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    compare = commands.add_parser(
        "compare",
        formatter_class=_HelpFormatter,
        help="cross-validate the classifiers on a data set",
        description="Stratified K-fold cross-validation of every registered classifier "
        "(or those named with --classifiers) on one data set.",
    )
    compare.add_argument(
        "--data",
        default="iris",
        metavar="NAME|PATH.csv",
        help=f"a bundled data set ({', '.join(BUNDLED)}) or a CSV file, with or without "
        "a header row (default: iris)",
    )
    compare.add_argument(
        "--target",
        default=None,
        metavar="COLUMN",
        help="the label column of a CSV file, by name or by number counting from 1 "
        "(default: 'target' if present, else the last column)",
    )
    header = compare.add_mutually_exclusive_group()
    header.add_argument(
        "--no-header",
        dest="header",
        action="store_const",
        const=False,
        default=None,
        help="the CSV file has no header row: its first row is data "
        "(default: guessed from the first row)",
    )
    header.add_argument(
        "--header",
        dest="header",
        action="store_const",
        const=True,
        help="the first row of the CSV file holds the column names, "
        "even if they look like numbers",
    )
    columns = compare.add_mutually_exclusive_group()
    columns.add_argument(
        "--features",
        nargs="+",
        default=None,
        metavar="COLUMN",
        help="use only these feature columns, by name or by number counting from 1 "
        "(default: every column but the target)",
    )
    columns.add_argument(
        "--drop",
        nargs="+",
        default=None,
        metavar="COLUMN",
        help="leave these columns out (an identifier, a column with missing values)",
    )
    compare.add_argument(
        "--cv",
        type=int,
        default=5,
        metavar="K",
        help="number of stratified folds (default: 5)",
    )
    compare.add_argument(
        "--classifiers",
        nargs="+",
        default=None,
        metavar="NAME",
        help=f"classifiers to run (default: all): {', '.join(registry.classifier_names())}",
    )
    compare.add_argument(
        "--plot",
        default=None,
        metavar="FILE.png",
        help="save the decision regions of each classifier to this file: "
        "on the two features of 2-feature data, else on the first "
        "two principal components",
    )
    compare.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="CLASSIFIER.NAME=VALUE",
        help="set a parameter of one classifier, for example qda.reg_param=0.1 or "
        "knn.metric=cityblock (repeat for more; a value is read as a Python number, "
        "True, False or None when it is one, else as text)",
    )
    compare.add_argument(
        "--report",
        action="store_true",
        help="after the table, each classifier's confusion matrix over the test "
        "folds and its error per class; for two classes also its sensitivity and "
        "specificity",
    )
    compare.add_argument(
        "--positive",
        default=None,
        metavar="CLASS",
        help="with --report on two classes: the positive class of the sensitivity "
        "(the disease, say; default: the second class in sorted order)",
    )
    compare.add_argument(
        "--seed",
        type=_non_negative_int,
        default=0,
        help="seed of the folds and of randomised classifiers (default: 0)",
    )
    compare.add_argument(
        "--no-scale",
        action="store_true",
        help="do not standardize the features (each fold uses its "
        "training statistics by default)",
    )
    compare.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no progress line and no notes on standard error",
    )
    _add_grade(commands)
    return parser


def _add_grade(commands):
    """``patrec grade``'s arguments; the command is patrec.exercises' grade."""
    grade = commands.add_parser(
        "grade",
        formatter_class=_HelpFormatter,
        help="check a class's exercises: a gradebook and a feedback page per student",
        description="Check every exercise each student's file defines (.py files "
        "and .ipynb notebooks in SUBMISSIONS), each in a child process with a time "
        "and a memory limit; write OUT/gradebook.csv and OUT/feedback/STUDENT.md.",
    )
    grade.add_argument("submissions", metavar="SUBMISSIONS", help="the folder of files")
    grade.add_argument(
        "--out",
        default="grades",
        metavar="OUT",
        help="where the gradebook and the feedback pages go (default: grades)",
    )
    grade.add_argument(
        "--exercises",
        nargs="+",
        default=None,
        metavar="NAME",
        help="grade only these exercises (default: every one a file defines)",
    )
    grade.add_argument(
        "--seed",
        type=_non_negative_int,
        default=0,
        help="seed of the random cases, the same for every student (default: 0)",
    )
    grade.add_argument(
        "--time-limit",
        type=_positive_number,
        default=5.0,
        metavar="SECONDS",
        help="the most a function may take on one case (default: 5)",
    )
    grade.add_argument(
        "--memory-limit",
        type=_positive_number,
        default=1024.0,
        metavar="MB",
        help="the most memory a function may allocate, enforced on Linux "
        "(default: 1024)",
    )
    grade.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no line per student on standard error",
    )


def _positive_number(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def _non_negative_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be non-negative, got {value}")
    return value


# -- reading the data ------------------------------------------------------------------


def load_data(source, target=None, header=None, note=None, features=None, drop=None):
    """A `Dataset` from a bundled data set's name or a CSV file's path, with only
    the feature columns ``features`` or without those of ``drop`` (names or
    numbers counting from 1, as --target)."""
    if source in BUNDLED:
        if target is not None:
            raise UsageError("--target applies to CSV files, not to bundled data sets")
        from . import datasets

        bunch = getattr(datasets, f"load_{source}")()
        names = list(bunch.feature_names)
        kept = _selected(names, range(len(names)), features, drop, source)
        return Dataset(
            bunch.data[:, kept],
            bunch.target_names[bunch.target],
            source,
            [names[i] for i in kept],
            "target",
        )
    try:
        return read_csv(source, target, header, note, features, drop)
    except MemoryError:
        raise UsageError(
            f"not enough memory to read {source}: its text takes many times the "
            f"file's size in memory; {_TOO_LARGE_ADVICE}"
        ) from None


def _selected(names, candidates, features, drop, where):
    """The positions of ``candidates`` (feature columns) kept by --features or
    --drop; at least one."""
    candidates = list(candidates)
    if features is not None:
        kept = [_column(names, text, where, "--features") for text in features]
        for i in kept:
            if i not in candidates:
                raise UsageError(f"--features: column {names[i]!r} is the target")
        kept = sorted(set(kept))
    else:
        dropped = {_column(names, text, where, "--drop") for text in drop or ()}
        kept = [i for i in candidates if i not in dropped]
    if not kept:
        raise UsageError("no feature column is left: --drop removed them all")
    return kept


def _column(names, text, where, option):
    """The position of a column named by ``text``: a name, or a number from 1."""
    if text in names:
        return names.index(text)
    if text.isdigit() and 1 <= int(text) <= len(names):
        return int(text) - 1
    close = difflib.get_close_matches(text, names, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise UsageError(
        f"{option}: column {text!r} not found in {where}{hint}; columns: "
        f"{', '.join(names)}, or a number from 1 to {len(names)}"
    )


def read_csv(path, target=None, header=None, note=None, features=None, drop=None):
    """Numeric feature columns and a label column from a CSV file.

    ``header`` is True (the first row names the columns), False (it is data) or None
    (guess, and tell ``note`` when the guess is "no header").
    """
    rows, lines = _read_rows(path)
    rows = _without_empty_last_column(rows)
    if len(rows[0]) < 2:
        raise UsageError(_single_column_message(rows, lines, path))
    if header is None:
        header = _guess_header(rows, target, path, note)
    if header:
        if len(rows) < 2:
            raise UsageError(f"{path} needs a header row and at least one data row")
        names, body, lines = [name.strip() for name in rows[0]], rows[1:], lines[1:]
        _check_unique(names, path)
    else:
        names, body = [f"x{i + 1}" for i in range(len(rows[0]))], rows
    for line, row in zip(lines, body):
        if len(row) != len(names):
            raise UsageError(
                f"{path}, line {line}: {len(row)} fields, expected {len(names)}"
            )
    columns = [[row[i].strip() for row in body] for i in range(len(names))]
    column = _target_column(names, target, path)
    for line, text in zip(lines, columns[column]):
        if _is_missing(text) and text.upper() not in _ALSO_CLASSES:
            raise UsageError(
                f"the target column {names[column]!r} of {path} has no class "
                f"at line {line}: every sample needs one; fill "
                "it in or remove the row"
            )
    y = _labels(columns[column], names, columns, column, path)
    others = [i for i in range(len(names)) if i != column]
    features_given = features is not None
    features = _selected(names, others, features, drop, path)
    X = np.empty((len(body), len(features)))
    missing = {}  # column -> [(line, text)], all reported at once
    for j, i in enumerate(features):
        for row, text in enumerate(columns[i]):
            try:
                X[row, j] = float(text)
            except ValueError:
                what = "an empty field" if not text else repr(text)
                if _is_missing(text):
                    missing.setdefault(i, []).append((lines[row], what))
                    X[row, j] = 0.0
                    continue
                if _is_number(text.replace(",", ".", 1)):
                    hint = (
                        "; it looks like a number with a decimal comma: write the "
                        "numbers with decimal points"
                    )
                elif _looks_like_classes(columns[i]) is None:
                    hint = (
                        "; only the target column may hold text (leave this one out "
                        f"with --drop {names[i]!r})"
                    )
                else:
                    hint = f"; if it holds the classes, pass --target {names[i]!r}"
                raise UsageError(
                    f"column {names[i]!r} of {path} is not numeric: "
                    f"{what} at line {lines[row]}{hint}"
                ) from None
    for row, j in np.argwhere(np.isnan(X)):
        missing.setdefault(features[j], []).append(
            (lines[row], repr(columns[features[j]][row]))
        )
    if missing:
        raise UsageError(_missing_message(missing, names, path))
    if not np.isfinite(X).all():
        row, j = np.argwhere(~np.isfinite(X))[0]
        raise UsageError(
            f"column {names[features[j]]!r} of {path} holds an infinite value "
            f"({columns[features[j]][row]!r}) at line {lines[row]}: "
            "features must be finite numbers"
        )
    for j, i in enumerate(() if note is None or features_given else features):
        if _looks_like_row_numbers(X[:, j]):
            column_name = repr(names[i]) if names[i] else str(i + 1)
            note(
                f"column {column_name} of {path} holds the integers "
                f"{X[:, j].min():.0f} to {X[:, j].max():.0f}, each once: it looks like "
                "a row number, not a measurement, yet it is used as a feature; if it "
                f"numbers the rows, leave it out with --drop {column_name}"
            )
    return Dataset(X, y, path, [names[i] for i in features], names[column])


def _looks_like_row_numbers(values):
    """Whether a feature column holds each of the integers a, a + 1, ..., a + n - 1
    once (in any order), as a row number or an identifier does."""
    if len(values) < _ROW_NUMBERS_MIN_ROWS:
        return False
    ordered = np.sort(values)
    return ordered[0] == np.round(ordered[0]) and bool(
        np.array_equal(ordered, ordered[0] + np.arange(len(values)))
    )


def _missing_message(missing, names, path):
    """Every missing value of the feature columns, in one message: per column its
    first few lines, and how many in all."""
    parts = []
    for i in sorted(missing):
        cells = sorted(missing[i])
        shown = ", ".join(f"{what} at line {line}" for line, what in cells[:3])
        more = f" and {len(cells) - 3} more" if len(cells) > 3 else ""
        parts.append(f"column {names[i]!r} holds {shown}{more}")
    columns = " ".join(repr(names[i]) for i in sorted(missing))
    return (
        f"{path} has missing values: {'; '.join(parts)}; missing values are not "
        f"supported: fill them in, remove their rows, or leave the column out "
        f"(--drop {columns})"
    )


def _check_unique(names, path):
    """Refuse a header that gives two columns one name: which would ``--features``
    mean?"""
    seen = set()
    for name in names:
        if name not in seen:
            seen.add(name)
            continue
        numbers = [str(i + 1) for i, other in enumerate(names) if other == name]
        raise UsageError(
            f"{path} has {len(numbers)} columns named {name!r} (columns "
            f"{', '.join(numbers[:-1])} and {numbers[-1]}): give each column its "
            "own name in the header row"
        )


def _single_column_message(rows, lines, path):
    """Why a file read as a single column: a separator the reader does not know, or
    a title or comment line above the header or data."""
    wider = next((i for i, row in enumerate(rows) if len(row) > 1), None)
    if wider is not None:
        return (
            f"{path}: its first line, {rows[0][0]!r}, has a single field but line "
            f"{lines[wider]} has {len(rows[wider])}: remove the lines above the header "
            "or the data (a title, a # comment)"
        )
    *others, last = _SEPARATORS.values()
    return (
        f"{path} has a single column, so no features besides the target: its first "
        f"line reads {rows[0][0]!r}; the fields of a line must be separated by "
        f"{', '.join(others)} or {last}"
    )


def _read_rows(path):
    """The non-empty rows of a CSV file, and the line of the file where each starts
    (a quoted field may hold line breaks).

    Only a regular file of at most ``_MAX_FILE_BYTES`` is read, line by line, and a
    line longer than ``_MAX_LINE_CHARS`` stops the reading (`_bounded_lines`).
    """
    try:
        _check_file(path)
        with open(path, newline="", encoding="utf-8-sig") as stream:
            text_lines = _bounded_lines(stream, path)
            head, size = [], 0
            for line in text_lines:
                head.append(line)
                size += len(line)
                if size >= 4096:
                    break
            try:
                dialect = csv.Sniffer().sniff(
                    "".join(head)[:4096], delimiters="".join(_SEPARATORS)
                )
            except csv.Error:
                dialect = csv.excel
            reader = csv.reader(itertools.chain(head, text_lines), dialect)
            rows, lines, start = [], [], 1
            for row in reader:
                if row:
                    rows.append(row)
                    lines.append(start)
                start = reader.line_num + 1
    except FileNotFoundError:
        close = difflib.get_close_matches(path, BUNDLED, n=1)
        hint = f" (did you mean the bundled data set {close[0]!r}?)" if close else ""
        raise UsageError(f"no such file: {path}{hint}") from None
    except IsADirectoryError:
        raise UsageError(f"{path} is a directory, not a CSV file") from None
    except UnicodeDecodeError:
        raise UsageError(
            f"cannot read {path}: it is not UTF-8 text{_first_non_utf8_byte(path)}; "
            "save it as UTF-8"
        ) from None
    except (OSError, csv.Error) as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None
    if not rows:
        raise UsageError(f"{path} is empty")
    return rows, lines


def _check_file(path):
    """Refuse, before reading it, a ``--data`` path that is not a regular file (a
    device such as /dev/zero, a pipe, a directory) or is larger than
    ``_MAX_FILE_BYTES``."""
    info = os.stat(path)
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(path)
    if not stat.S_ISREG(info.st_mode):
        kinds = [
            (stat.S_ISCHR, "a character device"),
            (stat.S_ISBLK, "a block device"),
            (stat.S_ISFIFO, "a pipe"),
            (stat.S_ISSOCK, "a socket"),
        ]
        kind = next(
            (text for test, text in kinds if test(info.st_mode)), "a special file"
        )
        raise UsageError(
            f"{path} is {kind}, not a regular file: patrec compare reads its data "
            "from a CSV file; save the data to a file and pass that file to --data"
        )
    if info.st_size > _MAX_FILE_BYTES:
        raise UsageError(_too_large_message(path, info.st_size))


def _bounded_lines(stream, path):
    """The lines of a text ``stream``, read at most ``_MAX_LINE_CHARS + 1``
    characters at a time: a longer line, or more than ``_MAX_FILE_BYTES``
    characters in all (a file that grows while it is read), is refused before it
    is read whole."""
    total = 0
    for number in itertools.count(1):
        line = stream.readline(_MAX_LINE_CHARS + 1)
        if not line:
            return
        if len(line) > _MAX_LINE_CHARS:
            raise UsageError(
                f"{path}: line {number} is longer than {_MAX_LINE_CHARS:,} characters, "
                "the most patrec compare reads in a line: check that it is a CSV file "
                "with a line break after each sample (data that wide can be loaded "
                "in Python and given to patrec's classifiers)"
            )
        total += len(line)
        if total > _MAX_FILE_BYTES:
            raise UsageError(_too_large_message(path))
        yield line


def _too_large_message(path, size=None):
    what = f"is {_size_text(size)}, more" if size is not None else "holds more"
    return (
        f"{path} {what} than the {_size_text(_MAX_FILE_BYTES)} that patrec compare "
        "reads (a CSV file's text takes many times its size in memory): "
        f"{_TOO_LARGE_ADVICE}"
    )


def _size_text(size):
    """``"153 MB"``; below a megabyte in bytes."""
    return f"{size / 1e6:,.0f} MB" if size >= 1e6 else f"{size:,} bytes"


def _first_non_utf8_byte(path):
    """`` (byte 0xe8 at position 7)``: the first byte of a file that is not UTF-8
    and its position in the file, found reading it in bounded blocks (a text
    stream's error counts from the start of its last block); empty if there is
    none (the file changed)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0
    with open(path, "rb") as stream:
        for block in itertools.chain(iter(lambda: stream.read(1 << 16), b""), [b""]):
            pending = len(decoder.getstate()[0])  # the bytes of a split character
            try:
                decoder.decode(block, final=not block)
            except UnicodeDecodeError as exc:
                position = offset - pending + exc.start
                return f" (byte {exc.object[exc.start]:#x} at position {position})"
            offset += len(block)
    return ""


def _without_empty_last_column(rows):
    """The rows without a last column that is empty on every line (a delimiter at the
    end of each line, as some spreadsheets write)."""
    while len(rows[0]) > 1 and all(
        len(row) == len(rows[0]) and not row[-1].strip() for row in rows
    ):
        rows = [row[:-1] for row in rows]
    return rows


def _guess_header(rows, target, path, note):
    """Whether the first row names the columns (see the module docstring).

    It does when ``--target`` gives a name found in it, or when it does not look like
    data.  A first row that looks like data is still a header, said in a note, when
    it has empty fields (a header leaves a column unnamed: pandas, above its index),
    or when the target column holds classes and the first row's value there appears
    in no other row: as data, that sample would be a class of one, which no fold
    split can use.
    """
    first = [field.strip() for field in rows[0]]
    by_number = (
        target is not None and target.isdigit() and 1 <= int(target) <= len(first)
    )
    if target is not None and not by_number and target in first:
        return True
    if not _looks_like_data(first, rows[1:]):
        return True
    column = int(target) - 1 if by_number else len(first) - 1
    others = [row[column].strip() for row in rows[1:]]
    empty = [str(i + 1) for i, field in enumerate(first) if not field]
    if empty:
        reason = (
            f"it leaves column{'s' if len(empty) > 1 else ''} {', '.join(empty)} "
            "empty, as a header does above an unnamed column"
        )
    elif (
        (target is None or by_number)
        and first[column] not in others
        and not _is_missing(first[column])
        and _looks_like_classes(others)
    ):
        reason = f"its {first[column]!r} in the target column appears in no other row"
    else:
        if note is not None:
            note(
                f"{path} has no header row (its first row looks like data): reading "
                f"all {len(rows)} rows, columns named x1 .. x{len(rows[0])}; pass "
                "--header if the first row does name the columns"
            )
        return False
    if note is not None:
        note(
            f"{path}: reading its first row as the header, although it looks like "
            f"data: {reason}; pass --no-header if it is data"
        )
    return True


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _is_missing(text):
    """Whether a field (stripped) is empty or spells a missing value ("NA", "?",
    "nan", ...)."""
    return (
        not text
        or text.upper() in _MISSING
        or (_is_number(text) and np.isnan(float(text)))
    )


def _looks_like_data(first, body):
    """Whether every field of the first row (stripped) fits its column as a value of
    it, or as a missing value.

    A header names its columns: "sepal_length" above numbers, "species" above the
    species.  A first row of data holds a number in every numeric column and, in a
    text column, one of that column's values; in any column it may miss a value
    (an empty field, "NA", "?", ...), which is then reported as missing.
    """
    if not body:
        return all(_is_number(field) for field in first)
    for i, field in enumerate(first):
        if _is_missing(field):
            continue
        values = [row[i].strip() for row in body if i < len(row)]
        if all(_is_number(value) for value in values if not _is_missing(value)):
            if not _is_number(field):
                return False
        elif field not in set(values):
            return False
    return True


def _target_column(names, target, path):
    if target is None:
        return names.index("target") if "target" in names else len(names) - 1
    return _column(names, target, path, "--target")


def _looks_like_classes(values):
    """``"text"`` or ``"integers"`` when a column could hold class labels, else None.

    Class labels repeat: a text column qualifies when most of its values are not
    numbers and it has at most half as many distinct values as rows; a numeric one
    when it holds integers with at most 20 distinct values.
    """
    numeric = [value for value in values if _is_number(value)]
    distinct = len(set(values))
    if 2 * len(numeric) < len(values):
        return "text" if 2 <= distinct <= max(2, len(values) // 2) else None
    if len(numeric) < len(values):
        return None  # numbers with a few stray words: a damaged feature column
    numbers = np.array([float(value) for value in values])
    if np.array_equal(numbers, np.round(numbers)) and 2 <= distinct <= _FEW_CLASSES:
        return "integers"
    return None


def _labels(values, names, columns, column, path):
    """The target column as labels: integers when all are whole numbers (so "1" and
    "1.0" are one class), else the text.

    A numeric column with fractions (a measurement such as a petal width) is refused,
    naming the columns that could hold the classes instead.
    """
    try:
        numbers = np.array([float(value) for value in values])
    except ValueError:
        return np.array(values)
    if np.isfinite(numbers).all() and np.array_equal(numbers, np.round(numbers)):
        integers = [int(Decimal(value)) for value in values]  # exact, unlike float
        try:
            return np.array(integers, dtype=np.int64)
        except OverflowError:  # beyond int64: the integers as text
            return np.array([str(integer) for integer in integers])
    distinct = np.unique(values)
    examples = ", ".join(
        distinct[np.linspace(0, len(distinct) - 1, min(3, len(distinct))).astype(int)]
    )
    candidates = [
        names[i]
        for i in range(len(names))
        if i != column and _looks_like_classes(columns[i])
    ]
    if candidates:
        advice = (
            f"; {', '.join(repr(c) for c in candidates)} could hold the classes: "
            f"pass --target {candidates[0]!r}"
        )
    else:
        advice = (
            "; pass --target with the column of classes, or turn the values into "
            "classes (for example ranges) first"
        )
    raise UsageError(
        f"the target column {names[column]!r} of {path} holds measurements, not classes "
        f"({len(distinct)} distinct numbers with fractions, such as {examples}): a "
        f"classifier needs a column of class labels{advice}"
    )


def _check_classes(data, cv):
    classes, counts = np.unique(data.y, return_counts=True)
    if len(classes) < 2:
        raise UsageError(f"{data.name} has a single class; nothing to classify")
    if counts.min() < cv:
        smallest = plain(classes[np.argmin(counts)])
        fewest = int(counts.min())
        if len(classes) > _FEW_CLASSES and len(classes) * 4 > len(data.y):
            raise UsageError(
                f"the target column {data.target!r} holds {len(classes)} distinct values "
                f"in {len(data.y)} rows, so most classes have a sample or two: it looks "
                "like a measurement or an identifier, not class labels; pass --target "
                "with the column of classes"
            )
        raise UsageError(
            f"class {smallest!r} has {fewest} sample{'s' if fewest != 1 else ''}, fewer "
            f"than the {cv} folds; "
            + (
                f"lower --cv to {fewest} or less"
                if fewest >= 2
                else "remove that class or add samples of it: every fold needs one"
            )
        )
    return classes


# -- the classifiers -------------------------------------------------------------------


def _check_names(names):
    known = registry.classifier_names()
    for name in names:
        if name in registry.CLASSIFIERS:
            continue
        guesses = [k for k in known if name.lower() in k or k in name.lower()]
        guesses += [
            g
            for g in difflib.get_close_matches(name.lower(), known, n=2, cutoff=0.5)
            if g not in guesses
        ]
        hint = f"did you mean {' or '.join(guesses[:2])}? " if guesses else ""
        raise UsageError(
            f"unknown classifier {name!r}; {hint}choose from {', '.join(known)}"
        )


def make_classifier(name, seed, params=None):
    """The registered classifier ``name``, seeded, with its default parameters or
    those of ``params`` (checked by `parse_params`)."""
    classifier = registry.get_classifier(name)()
    if "random_state" in classifier.get_params(deep=False):
        classifier.set_params(random_state=seed)
    return classifier.set_params(**(params or {}).get(name, {}))


def parse_params(settings, names):
    """``{classifier: {parameter: value}}`` from the ``--param`` settings
    ``CLASSIFIER.NAME=VALUE``; every classifier must be among ``names`` (those run)
    and every parameter one of its own."""
    params = {}
    for setting in settings:
        key, equals, text = setting.partition("=")
        name, dot, parameter = key.strip().partition(".")
        if not equals or not dot or not parameter:
            raise UsageError(
                f"--param {setting!r}: write CLASSIFIER.NAME=VALUE, for example "
                "qda.reg_param=0.1"
            )
        _check_names([name])
        if name not in names:
            raise UsageError(
                f"--param {setting!r}: {name} is not among the classifiers run "
                f"({', '.join(names)})"
            )
        known = sorted(registry.get_classifier(name)().get_params(deep=False))
        if parameter not in known:
            close = difflib.get_close_matches(parameter, known, n=1)
            hint = f"did you mean {close[0]}? " if close else ""
            raise UsageError(
                f"--param {setting!r}: {name} has no parameter {parameter!r}; "
                f"{hint}its parameters are {', '.join(known)}"
            )
        params.setdefault(name, {})[parameter] = _value(text.strip())
    return params


def _value(text):
    """A --param value: a Python number, True, False or None when it reads as one,
    else the text itself."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
    return value if isinstance(value, (int, float, bool, type(None))) else text


def _how_to_set(message, name):
    """`` (--param qda.reg_param=...)`` when an error ``message`` names a parameter
    of the classifier ``name``, so that its advice can be followed here."""
    for parameter in sorted(registry.get_classifier(name)().get_params(deep=False)):
        if re.search(rf"\b{re.escape(parameter)}\b", message):
            return f" (--param {name}.{parameter}=...)"
    return ""


class _Progress:
    """One progress line on a terminal, rewritten in place; nothing elsewhere."""

    def __init__(self, stream, enabled):
        self.stream = stream
        self.enabled = enabled and _is_terminal(stream)
        self.width = 0

    def show(self, text):
        if self.enabled:
            self.stream.write("\r" + text.ljust(self.width))
            self.stream.flush()
            self.width = len(text)

    def clear(self):
        if self.enabled and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


def _is_terminal(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def compare(args, out=None, err=None):
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    names = args.classifiers or registry.classifier_names()
    _check_names(names)
    if args.cv < 2:
        raise UsageError(f"--cv must be at least 2, got {args.cv}")
    if args.plot:
        args.plot = _figure_path(args.plot)

    def note(message):
        if not args.quiet:
            print(f"patrec: note: {message}", file=err, flush=True)

    params = parse_params(args.param, names)
    data = load_data(
        args.data,
        args.target,
        getattr(args, "header", None),
        note,
        features=getattr(args, "features", None),
        drop=getattr(args, "drop", None),
    )
    classes = _check_classes(data, args.cv)
    positive = _positive_class(args, classes)
    X, y = data.X, data.y
    _check_param_values(params, args, X, y)
    print(
        f"{data.name}: {_count(X.shape[0], 'sample')}, {_count(X.shape[1], 'feature')}, "
        f"{len(classes)} classes; {args.cv}-fold stratified cross-validation",
        file=out,
    )
    progress = _Progress(err, not args.quiet)
    rows = []
    for number, name in enumerate(names, start=1):
        progress.show(f"[patrec] {number}/{len(names)} {name} ...")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = cross_validate(
                    make_classifier(name, args.seed, params),
                    X,
                    y,
                    cv=args.cv,
                    random_state=args.seed,
                    scale=not args.no_scale,
                    return_predictions=args.report,
                )
            except _CLASSIFIER_ERRORS as exc:
                # One classifier that cannot handle these data must not stop the others.
                reason = _first_line(exc)
                result = f"failed: {reason}{_how_to_set(reason, name)}"
        rows.append((name, result, _summarise(caught, scaled=not args.no_scale)))
    progress.clear()
    print_table(rows, out, notes=not args.quiet)
    if args.report:
        print_report(rows, y, classes, positive, args.cv, out)
    if args.plot:
        plot_regions(rows, data, args, progress, note)
        progress.clear()
        print(f"decision regions saved to {args.plot}", file=out)
    return 0


def _check_param_values(params, args, X, y):
    """Refuse a ``--param`` value that its classifier rejects, before the comparison.

    The classifiers check their parameters in ``fit``, some against the data (the
    number of classes, features or samples), so each classifier given a ``--param``
    is fitted on the first training fold of the cross-validation and predicts a few
    of its test samples.  A ValueError or TypeError there that the classifier with
    its default parameters does not raise is caused by the values: a usage error.
    Any other failure is the data's, reported in the classifier's row.
    """
    if not params:
        return
    train, test = next(stratified_kfold(y, args.cv, random_state=args.seed))
    X_train, X_test = X[train], X[test[:_TRIAL_QUERIES]]
    if not args.no_scale:
        X_train, X_test = standardize(X_train, X_test)
    trial = (X_train, y[train], X_test)
    for name, settings in params.items():
        error = _trial(make_classifier(name, args.seed, params), *trial)
        if not isinstance(error, (ValueError, TypeError)):
            continue
        default = _trial(make_classifier(name, args.seed), *trial)
        if default is not None and _first_line(default) == _first_line(error):
            continue
        raise UsageError(_param_value_message(name, settings, error, args.param))


def _trial(classifier, X_train, y_train, X_test):
    """The error that fitting ``classifier`` and predicting raise, or None; its
    warnings and progress lines are left to the cross-validation."""
    try:
        with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
            warnings.simplefilter("ignore")
            classifier.fit(X_train, y_train).predict(X_test)
    except _CLASSIFIER_ERRORS as exc:
        return exc
    return None


def _param_value_message(name, settings, error, given):
    """The message of a classifier's error caused by its ``--param`` values: the
    settings it names (all of them if it names none), with their defaults."""
    reason = _first_line(error)
    blamed = [
        parameter
        for parameter in settings
        if re.search(rf"\b{re.escape(parameter)}\b", reason)
    ] or list(settings)
    keys = {f"{name}.{parameter}" for parameter in blamed}
    typed = [s for s in given if s.partition("=")[0].strip() in keys]
    defaults = registry.get_classifier(name)().get_params(deep=False)
    shown = ", ".join(f"{p}={defaults[p]!r}" for p in blamed)
    values = "this value" if len(typed) == 1 else "these values"
    return (
        f"--param {' '.join(repr(s) for s in typed)}: {name} refuses {values} "
        f"(default: {shown}): {reason}"
    )


def _count(number, noun):
    """``"1 feature"``, ``"4 features"``."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _figure_path(path):
    """The file ``--plot`` writes, checked before any work is done: its folder exists
    and matplotlib knows its format (a name without one gets ".png", as matplotlib
    adds it)."""
    if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise UsageError(f"cannot save the figure to {path}: no such directory")
    extension = os.path.splitext(path)[1][1:].lower()
    if not extension:
        return path + ".png"
    from matplotlib.backend_bases import FigureCanvasBase

    formats = FigureCanvasBase.get_supported_filetypes()
    if extension not in formats:
        raise UsageError(
            f"cannot save the figure to {path}: .{extension} is no image "
            f"format matplotlib writes ({', '.join(sorted(formats))})"
        )
    return path


_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _summarise(caught, scaled=True):
    """The warnings, each kind once with the number of times it was raised.

    Messages that differ only in their numbers (one per fold: "still making 97
    mistakes", "... 120 mistakes") are one kind; a number that varies is shown as
    its range, "97..120".  A convergence warning keeps its fact and gets the advice
    that fits the run (`_convergence_note`).
    """
    kinds = {}
    for warning in caught:
        if issubclass(warning.category, ConvergenceWarning):
            text = _convergence_note(str(warning.message), scaled)
        else:
            text = f"{warning.category.__name__}: {_first_line(warning.message)}"
        words = tuple(_NUMBER.split(text))
        kinds.setdefault(words, []).append(_NUMBER.findall(text))
    summary = {}
    for words, numbers in kinds.items():
        shown = [_number_range(column) for column in zip(*numbers)]
        text = "".join(word + number for word, number in zip(words, shown + [""]))
        summary[text] = len(numbers)
    return summary


# where the library's advice starts in a learner's convergence warning
_ADVICE = re.compile(r": the classes|; increase ")


def _convergence_note(message, scaled):
    """A learner's convergence warning for the command line: its fact (the message
    up to the first colon; the library's advice follows it) and what it means here,
    where the features were standardised unless --no-scale was given."""
    fact = _ADVICE.split(_first_line(message), maxsplit=1)[0].rstrip(".")
    if not scaled:
        return (
            f"{fact}; the features were not standardised (--no-scale), which slows "
            "training down"
        )
    if "separa" in message:  # the error-correcting learners
        return (
            f"{fact}; the features were standardised, so the classes are likely not "
            "linearly separable"
        )
    return f"{fact} (the features were standardised)"


def _number_range(texts):
    """One number as written when it never changes, else ``"low..high"``."""
    low, high = min(texts, key=float), max(texts, key=float)
    return texts[0] if float(low) == float(high) else f"{low}..{high}"


def print_table(rows, out, notes=True):
    """The table of error rates and times; below it, why a classifier failed, and
    (with ``notes``) a line for each kind of warning it gave."""
    show_warnings = notes
    header = ("classifier", "error rate", "fit (ms)", "predict (ms)")
    plus_minus = _encodable("±", out, "+/-")
    lines = [header]
    notes = []
    for name, result, warned in rows:
        if isinstance(result, str):
            lines.append((name, "failed", "-", "-"))
            notes.append(f"{name}: {result}")
            continue
        error = result["error"]
        lines.append(
            (
                name,
                f"{error.mean():.3f} {plus_minus} {error.std():.3f}",
                f"{1e3 * result['fit_time'].mean():.2f}",
                f"{1e3 * result['predict_time'].mean():.2f}",
            )
        )
        for text, count in warned.items() if show_warnings else ():
            times = "once" if count == 1 else f"{count} times"
            notes.append(f"{name} ({times}): {text}")
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for index, line in enumerate(lines):
        cells = [line[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(line[1:], widths[1:])
        ]
        print("  ".join(cells), file=out)
        if index == 0:
            print("  ".join("-" * w for w in widths), file=out)
    for text in notes:
        print(text, file=out)


def _encodable(text, out, fallback):
    """``text``, or ``fallback`` when the encoding of ``out`` has no character for it
    (an ASCII terminal)."""
    try:
        text.encode(getattr(out, "encoding", None) or "utf-8")
    except UnicodeEncodeError:
        return fallback
    return text


def _positive_class(args, classes):
    """The class that ``--positive`` names (as text, as a CSV gives it), checked."""
    if args.positive is None:
        return classes[-1] if len(classes) == 2 else None
    if not args.report:
        raise UsageError("--positive goes with --report")
    if len(classes) != 2:
        raise UsageError(
            f"--positive is for two classes; the data have {len(classes)}: "
            f"{', '.join(str(plain(c)) for c in classes)}"
        )
    for label in classes:
        if str(plain(label)) == args.positive:
            return label
    raise UsageError(
        f"--positive {args.positive!r} is not a class; the classes are "
        f"{', '.join(str(plain(c)) for c in classes)}"
    )


def print_report(rows, y, classes, positive, cv, out):
    """Per classifier: the confusion matrix of its predictions on the test folds,
    its error per class, and for two classes its sensitivity and specificity."""
    names = [str(plain(label)) for label in classes]
    for name, result, _ in rows:
        print(file=out)
        if isinstance(result, str):
            print(f"{name}: failed, no report", file=out)
            continue
        predicted = result["predictions"]
        C = confusion_matrix(y, predicted, labels=classes)
        print(
            f"{name}: the {cv} test folds (rows: true class, columns: predicted)",
            file=out,
        )
        width = max(len(text) for text in names + [str(C.max())])
        print(" " * (width + 4) + "  ".join(n.rjust(width) for n in names), file=out)
        for label, row in zip(names, C):
            cells = "  ".join(str(count).rjust(width) for count in row)
            print(f"  {label.ljust(width)}  {cells}", file=out)
        rates = error_rates(y, predicted, labels=classes)
        errors = ", ".join(
            f"{label} {rate:.3f}" for label, rate in zip(names, rates["class_error"])
        )
        print(f"  error by class: {errors}", file=out)
        if positive is not None:
            sensitivity, specificity = sensitivity_specificity(
                y, predicted, positive=positive
            )
            print(
                f"  sensitivity {sensitivity:.3f}, specificity {specificity:.3f} "
                f"(positive class: {plain(positive)})",
                file=out,
            )


# -- the figure ------------------------------------------------------------------------


class _Standardised:
    """A classifier fitted on standardised features, answering in the original units.

    The decision regions of 1- and 2-feature data are drawn on the features as
    measured (a single feature along the horizontal axis, the vertical one unused);
    the classifier itself saw ``(x - mean) / scale`` of the data's own features, as in
    the cross-validation.
    """

    def __init__(self, classifier, mean, scale):
        self.classifier, self.mean, self.scale = classifier, mean, scale
        self.classes_ = classifier.classes_
        if hasattr(classifier, "prototypes_"):
            prototypes = mean + scale * classifier.prototypes_
            self.prototypes_ = np.column_stack(
                [prototypes, np.zeros((len(prototypes), 2 - len(mean)))]
            )
            self.prototype_labels_ = classifier.prototype_labels_

    def predict(self, X):
        X = np.asarray(X)[:, : len(self.mean)]
        return self.classifier.predict((X - self.mean) / self.scale)


def plot_regions(rows, data, args, progress, note=None):
    """One panel per classifier, titled with its cross-validated error."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    families, data = _drawable(data, note)
    with plt.rc_context({"font.family": families}):
        _plot_regions(rows, data, args, progress)


def _drawable(data, note):
    """The font families the figure needs to draw the data's names (matplotlib's
    own, then installed fonts that have the missing characters), and the data with
    the names that no installed font draws replaced by numbers (said in a note)."""
    from matplotlib import font_manager, ft2font

    def charmap(path):
        try:
            return set(ft2font.FT2Font(path).get_charmap())
        except (OSError, RuntimeError):
            return set()

    classes = [str(plain(label)) for label in np.unique(data.y)]
    texts = [*data.feature_names, *classes, os.path.basename(str(data.name))]
    families = ["DejaVu Sans"]
    covered = charmap(font_manager.findfont("DejaVu Sans"))
    needed = {ord(c) for text in texts for c in text} - covered
    for entry in font_manager.fontManager.ttflist if needed else ():
        if entry.name.startswith("Last Resort"):  # a box for every character
            continue
        if entry.name not in families and needed & (found := charmap(entry.fname)):
            families.append(entry.name)
            covered |= found
            needed -= found
        if not needed:
            break
    if not needed:
        return families, data

    def drawn(text, stand_in):
        return text if all(ord(c) in covered for c in text) else stand_in

    names = [drawn(n, f"feature {i}") for i, n in enumerate(data.feature_names, 1)]
    labels = {c: drawn(c, f"class {i}") for i, c in enumerate(classes, 1)}
    if note is not None:
        note(
            "no installed font draws some of the names of the data; the figure shows "
            "them by number (feature 1, class 1, ...): install a font with their "
            "characters (for example Noto Sans CJK) to see them"
        )
    y = np.array([labels[str(plain(label))] for label in data.y])
    name = drawn(os.path.basename(str(data.name)), "the data")
    return families, data._replace(feature_names=names, y=y, name=name)


def _plot_regions(rows, data, args, progress):
    import matplotlib.pyplot as plt

    from .plotting import plot_decision_regions

    X, y = data.X, data.y
    scaled = X if args.no_scale else standardize(X, X)[0]
    if X.shape[1] == 2:
        plane, axis_names = X, data.feature_names
        about = "on its two features"
    elif X.shape[1] == 1:
        plane = np.column_stack([X, np.zeros(len(X))])
        axis_names = [data.feature_names[0], ""]
        about = "on its single feature"
    else:
        centred = scaled - scaled.mean(axis=0)
        _, _, components = np.linalg.svd(centred, full_matrices=False)
        plane = centred @ components[:2].T
        axis_names = ["principal component 1", "principal component 2"]
        about = (
            f"refitted on the first two principal components of its "
            f"{X.shape[1]}{' standardised' if not args.no_scale else ''} features; "
            "errors are those of the table"
        )
    what = "this feature" if X.shape[1] == 1 else "these 2 features"
    columns = min(3, len(rows))
    grid_rows = -(-len(rows) // columns)
    figure, axes = plt.subplots(
        grid_rows,
        columns,
        squeeze=False,
        layout="constrained",
        figsize=(4.5 * columns, 4 * grid_rows + 0.6),
    )
    title = (
        f"{os.path.basename(str(data.name))} ({X.shape[0]} samples): each "
        f"classifier's {args.cv}-fold cross-validated error; decision regions {about}"
    )
    # about nine characters of the title's size to an inch: never cut at the edges
    figure.suptitle(
        textwrap.fill(title, int(9 * 4.5 * columns), break_on_hyphens=False)
    )
    params = parse_params(args.param, registry.classifier_names())
    # on the first panel that draws regions, while the classes' colours are distinct
    # (tab10's ten) and their list fits beside a panel
    legend = len(np.unique(y)) <= _LEGEND_CLASSES
    for number, (ax, (name, result, _)) in enumerate(zip(axes.flat, rows), start=1):
        progress.show(f"[patrec] plotting {number}/{len(rows)} {name} ...")
        if isinstance(result, str):  # failed in the table: no regions to draw
            ax.set_title(f"{name}: failed")
            _panel_note(ax, "failed in the cross-validation", result[len("failed: ") :])
            continue
        ax.set_title(f"{name}: CV error {result['error'].mean():.3f}")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # already reported in the table
                classifier = _fit_for_plot(name, args, params, plane, y, X.shape[1])
        except (ValueError, TypeError, ArithmeticError, np.linalg.LinAlgError) as exc:
            _panel_note(ax, f"cannot fit on {what}", _first_line(exc))
            continue
        plot_decision_regions(
            classifier,
            plane,
            y,
            ax=ax,
            resolution=150,
            prototypes=True if hasattr(classifier, "prototypes_") else None,
            legend=legend,
            feature_names=axis_names,
        )
        if X.shape[1] == 1:
            ax.set_yticks([])
        legend = False
    for ax in list(axes.flat)[len(rows) :]:
        ax.set_visible(False)
    try:
        figure.savefig(args.plot, dpi=100)
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot save the figure to {args.plot}: {exc}") from None
    finally:
        plt.close(figure)


def _panel_note(ax, heading, reason):
    """A panel without regions: why, in its first sentence, wrapped to the panel."""
    ax.text(
        0.5,
        0.5,
        f"{heading}:\n"
        + textwrap.fill(reason.split(". ")[0], 40, break_on_hyphens=False),
        ha="center",
        va="center",
        fontsize="small",
        transform=ax.transAxes,
    )
    ax.set_axis_off()


def _fit_for_plot(name, args, params, plane, y, n_features):
    """The classifier fitted for its panel: on the principal-component plane of data
    with more than two features, else on the data's own features (standardised
    unless --no-scale) and answering on the plane."""
    classifier = make_classifier(name, args.seed, params)
    if n_features > 2:
        return classifier.fit(plane, y)
    features = plane[:, :n_features]
    mean, scale = np.zeros(n_features), np.ones(n_features)
    if not args.no_scale:
        mean = features.mean(axis=0)
        scale = features.std(axis=0)
        scale[scale == 0] = 1.0
    return _Standardised(classifier.fit((features - mean) / scale, y), mean, scale)


def _first_line(exc):
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def main(argv=None):
    """Entry point of the ``patrec`` command; returns the exit code."""
    # A character the output's encoding lacks (a class name on an ASCII terminal) is
    # written as an escape such as \xe8, as Python's standard error does: no traceback.
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    args = build_parser().parse_args(argv)
    if args.command == "grade":
        from .exercises._grading import command

        return command(args)
    try:
        return compare(args)
    except UsageError as exc:
        print(f"patrec: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
