"""The ``patrec`` command line.

``patrec compare`` cross-validates every registered classifier on one data set and
prints a table of error rates and fit / predict times::

    patrec compare                                  # iris, 5 folds, all classifiers
    patrec compare --data wine --cv 10
    patrec compare --data measurements.csv --target species --plot regions.png
    patrec compare --classifiers minimum-distance knn --seed 3

Progress goes to standard error, the table to standard output.  Bad input (a missing
file or column, non-numeric features, too few samples of a class) ends the command
with a one-line message and exit code 2.
"""
import argparse
import csv
import os
import sys
import time

import numpy as np

from . import __version__, registry
from .model_selection import cross_validate, standardize

__all__ = ["main"]

BUNDLED = ("iris", "wine", "breast_cancer")


class UsageError(Exception):
    """Bad input given on the command line: reported in one line, exit code 2."""


def build_parser():
    parser = argparse.ArgumentParser(
        prog="patrec",
        description="Classic pattern-recognition classifiers, compared side by side.",
    )
    parser.add_argument("--version", action="version", version=f"patrec {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    compare = commands.add_parser(
        "compare",
        help="cross-validate the classifiers on a data set",
        description="Stratified K-fold cross-validation of every registered classifier "
                    "(or those named with --classifiers) on one data set.",
    )
    compare.add_argument(
        "--data", default="iris", metavar="NAME|PATH.csv",
        help=f"a bundled data set ({', '.join(BUNDLED)}) or a CSV file with a header "
             "row (default: iris)")
    compare.add_argument(
        "--target", default=None, metavar="COLUMN",
        help="the label column of a CSV file (default: 'target' if present, else the "
             "last column)")
    compare.add_argument("--cv", type=int, default=5, metavar="K",
                         help="number of stratified folds (default: 5)")
    compare.add_argument(
        "--classifiers", nargs="+", default=None, metavar="NAME",
        help=f"classifiers to run (default: all): {', '.join(registry.classifier_names())}")
    compare.add_argument("--plot", default=None, metavar="FILE.png",
                         help="save the decision regions of each classifier, fitted on "
                              "the first two principal components, to this file")
    compare.add_argument("--seed", type=_non_negative_int, default=0,
                         help="seed of the folds and of randomised classifiers (default: 0)")
    compare.add_argument("--no-scale", action="store_true",
                         help="do not standardize the features (each fold uses its "
                              "training statistics by default)")
    return parser


def _non_negative_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be non-negative, got {value}")
    return value


def load_data(source, target=None):
    """``(X, y, name)`` from a bundled data set's name or a CSV file's path."""
    if source in BUNDLED:
        if target is not None:
            raise UsageError("--target applies to CSV files, not to bundled data sets")
        from . import datasets

        bunch = getattr(datasets, f"load_{source}")()
        return bunch.data, bunch.target_names[bunch.target], source
    return read_csv(source, target) + (source,)


def read_csv(path, target=None):
    """Numeric feature columns and a label column from a CSV file with a header."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as stream:
            text = stream.read()
        try:
            dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
        except csv.Error:
            dialect = csv.excel
        rows = [row for row in csv.reader(text.splitlines(), dialect) if row]
    except FileNotFoundError:
        raise UsageError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None
    if len(rows) < 2:
        raise UsageError(f"{path} needs a header row and at least one data row")
    header, body = [name.strip() for name in rows[0]], rows[1:]
    if target is None:
        target = "target" if "target" in header else header[-1]
    if target not in header:
        raise UsageError(f"column {target!r} not found in {path}; columns: "
                         f"{', '.join(header)}")
    if len(header) < 2:
        raise UsageError(f"{path} has no feature columns besides {target!r}")
    for line, row in enumerate(body, start=2):
        if len(row) != len(header):
            raise UsageError(f"{path}, line {line}: {len(row)} fields, expected "
                             f"{len(header)}")
    column = header.index(target)
    y = np.array([row[column].strip() for row in body])
    features = [i for i in range(len(header)) if i != column]
    X = np.empty((len(body), len(features)))
    for j, i in enumerate(features):
        for line, row in enumerate(body, start=2):
            try:
                X[line - 2, j] = float(row[i])
            except ValueError:
                what = "an empty field" if not row[i].strip() else f"{row[i].strip()!r}"
                raise UsageError(f"column {header[i]!r} of {path} is not numeric: "
                                 f"{what} at line {line}; only the target column may "
                                 "hold text") from None
    if not np.isfinite(X).all():
        raise UsageError(f"{path} has missing or infinite feature values")
    return X, _as_numbers_if_possible(y)


def _as_numbers_if_possible(labels):
    """Integer labels when every label is an integer that fits int64, else the text."""
    try:
        return np.array([int(label) for label in labels], dtype=np.int64)
    except (ValueError, OverflowError):
        return labels


def make_classifier(name, seed):
    """The registered classifier ``name`` with default parameters, seeded."""
    classifier = registry.get_classifier(name)()
    if "random_state" in classifier.get_params(deep=False):
        classifier.set_params(random_state=seed)
    return classifier


def compare(args, out=None, err=None):
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    names = args.classifiers or registry.classifier_names()
    unknown = [name for name in names if name not in registry.CLASSIFIERS]
    if unknown:
        raise UsageError(f"unknown classifier(s) {', '.join(unknown)}; choose from "
                         f"{', '.join(registry.classifier_names())}")
    if args.cv < 2:
        raise UsageError(f"--cv must be at least 2, got {args.cv}")
    if args.plot and not os.path.isdir(os.path.dirname(os.path.abspath(args.plot))):
        raise UsageError(f"cannot save the figure to {args.plot}: no such directory")
    X, y, data_name = load_data(args.data, args.target)
    classes, counts = np.unique(y, return_counts=True)
    if len(classes) < 2:
        raise UsageError(f"{data_name} has a single class; nothing to classify")
    if counts.min() < args.cv:
        raise UsageError(
            f"class {classes[np.argmin(counts)].item()!r} has {counts.min()} samples, fewer than "
            f"the {args.cv} folds; lower --cv")

    print(f"{data_name}: {X.shape[0]} samples, {X.shape[1]} features, {len(classes)} "
          f"classes; {args.cv}-fold stratified cross-validation", file=out)
    rows = []
    for name in names:
        print(f"[patrec] {name} ...", file=err, flush=True)
        started = time.perf_counter()
        try:
            result = cross_validate(make_classifier(name, args.seed), X, y, cv=args.cv,
                                    random_state=args.seed, scale=not args.no_scale)
        except (ValueError, TypeError, ArithmeticError, np.linalg.LinAlgError) as exc:
            # One classifier that cannot handle these data must not stop the others.
            result = f"failed: {_first_line(exc)}"
        rows.append((name, result))
        print(f"[patrec] {name} done in {time.perf_counter() - started:.2f} s",
              file=err, flush=True)
    print_table(rows, out)
    if args.plot:
        plot_regions(names, X, y, args, err)
        print(f"decision regions saved to {args.plot}", file=out)
    return 0


def print_table(rows, out):
    header = ("classifier", "error rate", "fit (ms)", "predict (ms)")
    lines = [header]
    failures = []
    for name, result in rows:
        if isinstance(result, str):
            lines.append((name, "failed", "-", "-"))
            failures.append(f"{name}: {result}")
            continue
        error = result["error"]
        lines.append((
            name,
            f"{error.mean():.3f} ± {error.std():.3f}",
            f"{1e3 * result['fit_time'].mean():.2f}",
            f"{1e3 * result['predict_time'].mean():.2f}",
        ))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for index, line in enumerate(lines):
        cells = [line[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(line[1:], widths[1:])]
        print("  ".join(cells), file=out)
        if index == 0:
            print("  ".join("-" * w for w in widths), file=out)
    for failure in failures:
        print(failure, file=out)


def plot_regions(names, X, y, args, err):
    """One panel per classifier, fitted on the first two principal components."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .plotting import plot_decision_regions

    scaled = X if args.no_scale else standardize(X, X)[0]
    centred = scaled - scaled.mean(axis=0)
    _, _, components = np.linalg.svd(centred, full_matrices=False)
    plane = centred @ components[:2].T
    if plane.shape[1] < 2:
        plane = np.column_stack([plane, np.zeros(len(plane))])
    columns = min(3, len(names))
    grid_rows = -(-len(names) // columns)
    figure, axes = plt.subplots(grid_rows, columns, figsize=(4.5 * columns, 4 * grid_rows),
                                squeeze=False)
    for ax, name in zip(axes.flat, names):
        print(f"[patrec] plotting {name} ...", file=err, flush=True)
        ax.set_title(name)
        try:
            classifier = make_classifier(name, args.seed).fit(plane, y)
        except (ValueError, TypeError, ArithmeticError, np.linalg.LinAlgError) as exc:
            ax.text(0.5, 0.5, f"failed:\n{_first_line(exc)}", ha="center", va="center",
                    wrap=True, transform=ax.transAxes)
            continue
        plot_decision_regions(classifier, plane, y, ax=ax, resolution=150,
                              prototypes=True if hasattr(classifier, "prototypes_") else None,
                              legend=ax is axes.flat[0])
        ax.set_xlabel("principal component 1")
        ax.set_ylabel("principal component 2")
    for ax in list(axes.flat)[len(names):]:
        ax.set_visible(False)
    figure.tight_layout()
    try:
        figure.savefig(args.plot, dpi=100)
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot save the figure to {args.plot}: {exc}") from None
    finally:
        plt.close(figure)


def _first_line(exc):
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def main(argv=None):
    """Entry point of the ``patrec`` command; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        return compare(args)
    except UsageError as exc:
        print(f"patrec: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
