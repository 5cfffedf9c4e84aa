"""What ``patrec compare`` prints: the progress line, the table of error rates and
times, its notes, and the two-class report."""

import re

from .._validation import plain
from ..exceptions import ConvergenceWarning
from ..model_selection import confusion_matrix, error_rates, sensitivity_specificity
from ._common import UsageError, _first_line


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


def _count(number, noun):
    """``"1 feature"``, ``"4 features"``."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


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
