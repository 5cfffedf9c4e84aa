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

The package is laid out by job, each module using only those before it:
``_common`` (the command's error), ``data`` (reading a data set), ``classifiers``
(making them from the registry and ``--param``), ``report`` (the table and its
notes), ``figures`` (``--plot``); this module parses the command line and runs the
comparison.
"""

import argparse
import sys
import textwrap
import warnings

from .. import __version__, registry
from ..model_selection import cross_validate
from ._common import UsageError, _first_line
from .classifiers import (
    _CLASSIFIER_ERRORS,
    _check_param_values,
    _how_to_set,
    make_classifier,
    parse_params,
)
from .data import BUNDLED, _check_classes, _check_names, load_data
from .figures import _figure_path, plot_regions
from .report import (
    _count,
    _positive_class,
    _Progress,
    _summarise,
    print_report,
    print_table,
)

__all__ = ["main"]


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


def main(argv=None):
    """Entry point of the ``patrec`` command; returns the exit code."""
    # A character the output's encoding lacks (a class name on an ASCII terminal) is
    # written as an escape such as \xe8, as Python's standard error does: no traceback.
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    args = build_parser().parse_args(argv)
    if args.command == "grade":
        from ..exercises._grading import command

        return command(args)
    try:
        return compare(args)
    except UsageError as exc:
        print(f"patrec: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
