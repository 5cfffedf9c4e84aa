"""Reading the data of ``patrec compare``: a bundled data set or a CSV file, with or
without a header row, bounded in what it reads; a clear message for every file it
cannot use."""

import codecs
import csv
import difflib
import itertools
import os
import stat
from collections import namedtuple
from decimal import Decimal

import numpy as np

from .. import registry
from .._validation import plain
from ._common import UsageError

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


Dataset = namedtuple("Dataset", "X y name feature_names target")


def load_data(source, target=None, header=None, note=None, features=None, drop=None):
    """A `Dataset` from a bundled data set's name or a CSV file's path, with only
    the feature columns ``features`` or without those of ``drop`` (names or
    numbers counting from 1, as --target)."""
    if source in BUNDLED:
        if target is not None:
            raise UsageError("--target applies to CSV files, not to bundled data sets")
        from .. import datasets

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
