"""Turn the JSON lines of ``benchmarks/run.py`` into the performance page's figures.

    python benchmarks/run.py | python docs/benchmark_tables.py --stamp \\
        > docs/benchmarks/results.jsonl       # each line stamped with the commit
    python docs/benchmark_tables.py docs/benchmarks/results.jsonl   # prints the tables

The documentation build calls `write_all` itself (see conf.py), so replacing
``docs/benchmarks/results.jsonl`` is all it takes to refresh the page.  It writes,
next to the results:

- ``summary.rst.inc``: the page's first table, "the same job": at most twelve rows
  (`SAME_JOB`), each a job patrec and a peer do by the same rule, with the range and
  median of its ratios, the size and the revision it was measured at;
- ``different.rst.inc``: the comparisons of different rules (`DIFFERENT_RULES`), in a
  table of their own, with what each side keeps or reaches beside the time;
- ``ratios.rst.inc``: reStructuredText substitutions that the page's prose uses for
  every ratio it states (``|range knn_tree_query pykdtree|`` is the lowest and the
  highest ratio of the tree against pykdtree, ``|range same build|`` those of the
  summary's row ``build``), so the prose cannot drift from the tables;
- ``tables.rst.inc``: every measurement, one collapsed table per benchmark;
- ``results.csv``: every measurement in one flat table, offered for download.

Every ratio reads one way: the other library's time (or memory) divided by patrec's,
so above 1 patrec is faster (or uses less).  A record names the commit that recorded
it (``revision``, ``revision_date``) and whether it ran at ``--quick`` sizes
(``quick``); the tables say both.
"""

import csv
import datetime
import html
import json
import re
import statistics
import subprocess
import sys
from pathlib import Path

# What each benchmark measures, in the order the page shows them.
TITLES = {
    "knn_tree_query": "Branch-and-bound tree, k-NN query, against the fastest trees "
    "(wall time)",
    "knn_auto_query": 'k-NN query with algorithm="auto", against the fastest trees '
    "(wall time)",
    "knn_grid": "k-NN search, the whole grid: auto against the fastest of cKDTree, "
    "pykdtree and scikit-learn-intelex (CPU time)",
    "knn_kinds_query": "k-NN search on duplicate-heavy, heavy-tailed, elongated, "
    "spherical and embedded data: auto against the fastest of cKDTree, pykdtree and "
    "scikit-learn-intelex (CPU time)",
    "knn_kinds_fit_predict": "k-NN classifier, fit and predict end to end, on the "
    "same data (CPU time)",
    "knn_kinds_single_row": "k-NN search, one row per call (wall time of 200 calls)",
    "brute_query": "Brute force, k-NN query, high dimension (CPU time)",
    "brute_query_lowdim": "Brute force, k-NN query, low dimension",
    "brute_query_lowdim_vs_gemm": "Brute force against its own matrix products alone",
    "bnb_tree_build": "Branch-and-bound tree, construction at 1 000 000 samples",
    "index_memory": "Memory a built index adds beyond the caller's data, and its peak "
    "during the build (resident MiB; the ratio is theirs / patrec's)",
    "knn_auto_choice": 'algorithm="auto" against the better of tree and brute force '
    "(CPU time)",
    "knn_predict_memory": "k-NN classifier, predict: time and extra memory",
    "condense": "Condensing (Hart) against imbalanced-learn (a different rule)",
    "condense growth exponent": "Condensing: how the time grows with n",
    "edit": "Editing (Wilson) against imbalanced-learn",
    "edit growth exponent": "Editing: how the time grows with n",
    "repeated_edit": "Repeated editing against imbalanced-learn",
    "repeated_edit growth exponent": "Repeated editing: how the time grows with n",
    "multiedit": "Multi-edit against imbalanced-learn's AllKNN (a different rule)",
    "multiedit growth exponent": "Multi-edit: how the time grows with n",
    "fisher_lda_fit_predict": "Fisher LDA, fit and predict",
    "qda_fit_predict": "QDA, fit and predict",
    "linear_machine_fit_vs_perceptron": "Linear machine against scikit-learn's "
    "Perceptron, fit (same epochs; a different rule)",
    "multiclass_svm_fit": "Multiclass SVM, fit (SGD epochs against an exact solver)",
    "softmax_fit": "Softmax regression, fit",
    "minimum_distance_predict": "Minimum-distance classifier, predict",
    "bnb_tree_n_jobs": "Branch-and-bound tree, threads: n_jobs=2 against n_jobs=1",
    "brute_n_jobs": "Brute force, threads: n_jobs=2 against n_jobs=1",
}

# The summary, "the same job": each row a job that patrec and its peers do by the same
# rule (the same neighbours, the same objective, the same edited set).  A row takes
# the records of its benchmarks whose reference is listed (every reference when
# None); "fastest" keeps, for each workload, the ratio against the fastest of them
# (the lowest ratio), "each" keeps every record.  At most twelve rows.
SAME_JOB = [
    {
        "key": "tree",
        "job": "k-NN search: the branch-and-bound tree",
        "benchmarks": ["knn_tree_query"],
        "against": "the fastest on each workload of SciPy cKDTree, pykdtree, "
        "scikit-learn-intelex's k-d tree and scikit-learn's KDTree",
        "combine": "fastest",
    },
    {
        "key": "grid",
        "job": 'k-NN search: algorithm="auto", every workload of the grid',
        "benchmarks": ["knn_grid"],
        "against": "the fastest on each workload of cKDTree, pykdtree and intelex",
    },
    {
        "key": "kinds",
        "job": 'k-NN search: algorithm="auto" on hard data (duplicates, heavy '
        "tails, one long axis, a sphere, a sheet in 16 and 64 features)",
        "benchmarks": ["knn_kinds_query"],
        "against": "the fastest on each workload of cKDTree, pykdtree and intelex",
    },
    {
        "key": "single_row",
        "job": "k-NN search: one row per call, on the same hard data",
        "benchmarks": ["knn_kinds_single_row"],
        "against": "SciPy cKDTree.query of one point",
    },
    {
        "key": "classifier",
        "job": "k-NN classifier: fit and predict, on the same hard data",
        "benchmarks": ["knn_kinds_fit_predict"],
        "against": "the faster on each workload of scikit-learn's and "
        "scikit-learn-intelex's KNeighborsClassifier",
        "combine": "fastest",
    },
    {
        "key": "brute",
        "job": "k-NN search: brute force, 64 and 784 features",
        "benchmarks": ["brute_query"],
        "against": "the fastest on each workload of scikit-learn's and intelex's "
        "brute force and FAISS IndexFlatL2",
        "combine": "fastest",
    },
    {
        "key": "build",
        "job": "Building the tree",
        "benchmarks": ["bnb_tree_build"],
        "against": "the faster on each workload of cKDTree and pykdtree",
        "combine": "fastest",
    },
    {
        "key": "memory",
        "job": "Memory a tree or a fitted classifier adds: its own copy of the data "
        "and the index (ratio: theirs ÷ patrec's)",
        "benchmarks": ["index_memory"],
        "references": ["scipy.cKDTree(copy_data=True)"],
        "against": "SciPy cKDTree(copy_data=True), which keeps a copy too",
    },
    {
        "key": "edit",
        "job": "Editing (Wilson, k = 3, every class)",
        "benchmarks": ["edit"],
        "against": "imbalanced-learn EditedNearestNeighbours",
    },
    {
        "key": "repeated_edit",
        "job": "Repeated editing, until nothing changes",
        "benchmarks": ["repeated_edit"],
        "against": "imbalanced-learn RepeatedEditedNearestNeighbours",
    },
    {
        "key": "discriminants",
        "job": "Fisher LDA and QDA (fit and predict), minimum-distance classifier "
        "(predict)",
        "benchmarks": [
            "fisher_lda_fit_predict",
            "qda_fit_predict",
            "minimum_distance_predict",
        ],
        "against": "scikit-learn LinearDiscriminantAnalysis, "
        "QuadraticDiscriminantAnalysis, NearestCentroid",
    },
    {
        "key": "softmax",
        "job": "Softmax regression, fit to the same tolerance",
        "benchmarks": ["softmax_fit"],
        "against": "scikit-learn LogisticRegression (the same objective)",
    },
]

# Comparisons of different rules: in a table of their own, never in the summary,
# with what each side keeps or reaches (``shows``: "samples" reads the records'
# patrec_kept / reference_kept, "accuracy" their test accuracies, "memory" the
# memory each adds; records without them say the quantity is not measured, and the
# sentence under the table names it by ``unmeasured``).
DIFFERENT_RULES = [
    {
        "key": "condense",
        "unmeasured": "the samples each condensing keeps",
        "job": "Condensing",
        "benchmarks": ["condense"],
        "against": "imbalanced-learn CondensedNearestNeighbour",
        "rules": "patrec: Hart's rule, passes over all classes until every sample "
        "is classified right by the kept ones; imbalanced-learn: one pass, one "
        "class at a time",
        "shows": "samples",
    },
    {
        "key": "multiedit",
        "unmeasured": "the samples multi-edit and AllKNN keep",
        "job": "Multi-edit",
        "benchmarks": ["multiedit"],
        "against": "imbalanced-learn AllKNN",
        "rules": "patrec: 1-NN editing across random splits, repeated until "
        "nothing changes; AllKNN: editing with k = 1, 2, 3 in turn",
        "shows": "samples",
    },
    {
        "key": "linear_machine",
        "unmeasured": "the accuracy the linear machine and the one-vs-rest Perceptron reach",
        "job": "Linear machine, fit",
        "benchmarks": ["linear_machine_fit_vs_perceptron"],
        "against": "scikit-learn Perceptron (one-vs-rest)",
        "rules": "patrec: one weight vector per class, the true class's and its "
        "rival's corrected; Perceptron: one binary perceptron per class; the same "
        "number of epochs",
        "shows": "accuracy",
    },
    {
        "key": "multiclass_svm",
        "unmeasured": "the accuracy the two multiclass SVMs reach",
        "job": "Multiclass SVM, fit",
        "benchmarks": ["multiclass_svm_fit"],
        "against": "scikit-learn LinearSVC (Crammer–Singer)",
        "rules": "patrec: a few epochs of stochastic gradient descent on the "
        "Crammer–Singer objective; LinearSVC: its exact solver, to its tolerance",
        "shows": "accuracy",
    },
    {
        "key": "memory_no_copy",
        "job": "Memory a tree or a fitted classifier adds (a ratio of memory)",
        "benchmarks": ["index_memory"],
        "references": [
            "scipy.cKDTree",
            "pykdtree",
            "sklearn.KDTree",
            "sklearn.KNeighborsClassifier",
        ],
        "against": "SciPy cKDTree, pykdtree, scikit-learn KDTree and "
        "KNeighborsClassifier",
        "rules": "patrec keeps its own copy of the data, so that a later change to "
        "the caller's array cannot change an answer; these keep no copy of it",
        "shows": "memory",
    },
]

# Merged comparisons: one substitution whatever the reference column says (the
# reference is the fastest of several peers, or one of patrec's own methods).
MERGED = {
    "knn_grid": "the fastest of cKDTree, pykdtree, intelex",
    "knn_kinds_query": "the fastest of cKDTree, pykdtree, intelex",
    "knn_auto_choice": "the better of tree and brute force",
}
# Ratios derived from other columns: (benchmark, key, function).
DERIVED = [
    (
        "knn_predict_memory",
        "memory",
        lambda record: record["reference_peak_extra_mb"] / record["peak_extra_mb"],
    ),
    # beside n_jobs=2: what two processes running the same query at once gained
    *(
        (benchmark, "processes", lambda record: record["two_processes"])
        for benchmark in ("bnb_tree_n_jobs", "brute_n_jobs")
    ),
]

# Column headers of the full tables, with their units (every time in ms).
TIME_COLUMNS = {
    "patrec_s": "patrec",
    "reference_s": "reference",
    "bnb_s": "tree",
    "brute_s": "brute force",
    "scipy.cKDTree": "cKDTree",
    "pykdtree": "pykdtree",
    "sklearnex.kd_tree": "intelex",
}
HEADERS = {
    "workload": "workload",
    "ratio": "ratio (×)",
    "tree_ratio": "tree's ratio (×)",
    "round_ratio": "median of the rounds' ratios (×)",
    "agreement": "equal predictions (share)",
    "peak_extra_mb": "patrec extra memory (MiB)",
    "reference_peak_extra_mb": "reference extra memory (MiB)",
    "patrec_epochs": "patrec epochs",
    "reference_epochs": "reference epochs",
    "patrec_test_accuracy": "patrec test accuracy (share)",
    "reference_test_accuracy": "reference test accuracy (share)",
    "patrec_kept": "patrec kept (samples)",
    "reference_kept": "reference kept (samples)",
    "max_probability_difference": "largest probability difference",
    "patrec_exponent": "patrec growth exponent",
    "reference_exponent": "reference growth exponent",
    "auto_choice": "auto's choice",
    "added_mib": "patrec added (MiB)",
    "peak_mib": "patrec peak (MiB)",
    "reference_added_mib": "reference added (MiB)",
    "reference_peak_mib": "reference peak (MiB)",
    "data_mib": "the caller's data (MiB)",
    "patrec_gflops": "patrec GFLOP/s",
    "dgemv_gflops": "BLAS dgemv GFLOP/s",
    "dgemm_gflops": "BLAS dgemm GFLOP/s",
    "same_labels": "equal predictions (share)",
    "two_processes": "two one-thread processes at once, against one (×)",
    "patrec_system_s": "patrec's system time in each round (s)",
    "objective_gap": "objective gap, patrec's less the reference's (relative)",
    "revision": "measured at (commit)",
}
# Keys a full table never shows as a column of its own: the workload's parameters
# are one column ("workload"), the commit's date and the --quick flag go with the
# revision.
NOT_SHOWN = {"benchmark", "params", "revision_date", "quick"}
# Columns a benchmark's full table leaves to the CSV: in the grid the reference is
# the fastest of the three peers, whose times have their own columns; index_memory's
# ratio is of memory, its build times (one each) would read as its quotient; the
# machine's load beside the threads is in the CSV.
LEFT_TO_CSV = {
    "knn_grid": {"reference", "reference_s"},
    "knn_kinds_query": {"reference", "reference_s"},
    "index_memory": {"patrec_s", "reference_s"},
    "bnb_tree_n_jobs": {"load_average", "others_cpu"},
    "brute_n_jobs": {"load_average", "others_cpu"},
}
# How a workload's parameters read: "{}" takes the value.
PARAM_WORDS = {
    "data": "{}",
    "index": "{}",
    "dtype": "{}",
    "n": "n = {}",
    "n_train": "n = {}",
    "sizes": "n = {}",
    "d": "d = {}",
    "k": "k = {}",
    "n_queries": "{} queries",
    "n_classes": "{} classes",
    "epochs": "{} epochs",
    "calls": "{} calls",
}
QUERY_WORDS = {"self": "training samples as queries", "separate": "separate queries"}


def read_records(path):
    """The measurements of a JSON-lines file (other lines are skipped)."""
    with open(path, encoding="utf-8") as stream:
        return [json.loads(line) for line in stream if line.startswith("{")]


def _groups(records):
    """{benchmark: [records]}, benchmarks in the page's order."""
    groups = {}
    for record in records:
        groups.setdefault(record["benchmark"], []).append(record)
    order = [name for name in TITLES if name in groups]
    order += sorted(set(groups) - set(order))
    return {name: groups[name] for name in order}


NBSP = "\u00a0"
# no line break on either side (a break after a dash is allowed even before NBSP)
WORD_JOINER = "\u2060"


def _unbroken(text):
    """``text`` with no line break inside a number ("100 000") or around a dash."""
    text = re.sub(r"(?<=\d) (?=\d{3}\b)", NBSP, str(text))
    return text.replace(" – ", f"{NBSP}–{WORD_JOINER}{NBSP}")


def _phrase(text):
    """One unbreakable phrase (``d = 16``, ``n = 2 000 – 20 000``): lines of a
    narrow cell then break only between phrases, after their commas."""
    return _unbroken(text).replace(" ", NBSP)


def _ratio(value):
    """A ratio as the tables show it (two decimals)."""
    return f"{value:.2f}"


def _span(values, dash="–"):
    """Lowest and highest of ``values`` as the tables round them (one if equal)."""
    low, high = _ratio(min(values)), _ratio(max(values))
    return low if low == high else f"{low}{dash}{high}"


def _shown(value):
    """Whether a measured value exists (not missing, not NaN: a reference not run)."""
    return value is not None and value == value and value != ""


def _number(value):
    """An integer with thin groups of three (``100 000``), anything else as is."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1_000:
        return f"{value:,}".replace(",", NBSP)
    return str(value)


def _reference_name(reference):
    """A reference library's readable name."""
    names = {
        "scipy.cKDTree": "SciPy cKDTree",
        "scipy.cKDTree(copy_data=True)": "SciPy cKDTree(copy_data=True)",
        "sklearnex.kd_tree": "scikit-learn-intelex k-d tree",
        "sklearnex.brute": "scikit-learn-intelex brute force",
        "sklearnex.KNeighborsClassifier": "scikit-learn-intelex KNeighborsClassifier",
        "faiss.IndexFlatL2": "FAISS IndexFlatL2",
        "sklearn.brute": "scikit-learn brute force",
        "sklearn.LinearSVC(crammer_singer)": "scikit-learn LinearSVC (Crammer–Singer)",
        "patrec n_jobs=1": "patrec, n_jobs=1",
    }
    if reference in names:
        return names[reference]
    for prefix, library in (
        ("sklearn.", "scikit-learn "),
        ("imblearn ", "imbalanced-learn "),
    ):
        if reference.startswith(prefix):
            return library + reference.removeprefix(prefix)
    return reference


def comparisons(records):
    """Every benchmark against each reference: ``{key: [(ratio, record), ...]}``.

    ``key`` names the comparison in the substitutions of ``ratios.rst.inc``:
    ``"benchmark reference"``, or the benchmark alone for a merged one, or
    ``"benchmark memory"`` / ``"benchmark processes"`` for a derived ratio.
    Records without a ratio (the growth exponents of the editing benchmarks, a
    reference not run at that size) are left out.
    """
    out = {}
    for name, group in _groups(records).items():
        group = [record for record in group if _shown(record.get("ratio"))]
        for record in group:
            reference = "" if name in MERGED else record["reference"]
            key = f"{name} {reference}".strip()
            out.setdefault(key, []).append((record["ratio"], record))
        for benchmark, suffix, function in DERIVED:
            if benchmark == name and group:
                out[f"{name} {suffix}"] = [(function(r), r) for r in group]
    return out


def _workload(record):
    """The workload's identity: its benchmark and parameters."""
    return record["benchmark"], json.dumps(record["params"], sort_keys=True)


def row_ratios(row, records):
    """``[(ratio, [records]), ...]`` of one row of `SAME_JOB` or `DIFFERENT_RULES`.

    With ``combine="fastest"``, one ratio per workload: the lowest of its records',
    that is, against the fastest of the references on it.
    """
    chosen = [
        record
        for record in records
        if record["benchmark"] in row["benchmarks"]
        and _shown(record.get("ratio"))
        and ("references" not in row or record["reference"] in row["references"])
    ]
    if row.get("combine") != "fastest":
        return [(record["ratio"], [record]) for record in chosen]
    workloads = {}
    for record in chosen:
        workloads.setdefault(_workload(record), []).append(record)
    return [
        (min(record["ratio"] for record in group), group)
        for group in workloads.values()
    ]


def _describe(record):
    """A measurement's parameters in words: ``uniform, d = 2, n = 100 000, k = 5``."""
    parts = []
    for key, value in record["params"].items():
        if key == "queries":
            parts.append(QUERY_WORDS.get(value, f"{value} queries"))
        elif isinstance(value, list):
            parts.append(
                PARAM_WORDS.get(key, key + " = {}").format(
                    ", ".join(_number(item) for item in value)
                )
            )
        else:
            parts.append(
                _phrase(PARAM_WORDS.get(key, key + " = {}").format(_number(value)))
            )
    return ", ".join(parts)


def _values(records, *keys):
    """The distinct values of the first of ``keys`` each record's parameters have."""
    found = set()
    for record in records:
        for key in keys:
            value = record["params"].get(key)
            if value is not None:
                found.update(value if isinstance(value, list) else [value])
                break
    return sorted(found)


def _range_of(values, unit=""):
    if not values:
        return ""
    low, high = _number(values[0]), _number(values[-1])
    text = low if low == high else f"{low} – {high}"
    return text + unit


def size(records):
    """The sizes a set of records was measured at, in words:
    ``n = 10 000 – 1 000 000, d = 2 – 16, 5 000 queries``."""
    parts = []
    samples = _values(records, "n", "n_train", "sizes")
    if samples:
        parts.append("n = " + _range_of(samples))
    dims = _values(records, "d")
    if dims:
        parts.append("d = " + _range_of(dims))
    queries = _values(records, "n_queries")
    if queries:
        parts.append(_range_of(queries, " queries"))
    epochs = _values(records, "epochs")
    if epochs:
        parts.append(_range_of(epochs, " epochs"))
    return ", ".join(_phrase(part) for part in parts)


# ``--quick`` as plain text: escaped, the two hyphens stay hyphens (not a dash),
# word joiners keep them on one line with the word
QUICK = "\\-\u2060\\-\u2060quick"
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def _day(date):
    """``2026-11-26 14:34`` as ``26 Nov 2026``, in one piece."""
    year, month, day = (int(part) for part in date[:10].split("-"))
    return _phrase(f"{day} {MONTHS[month - 1]} {year}")


def measured_at(records):
    """The commits (newest first) that recorded ``records``, with their dates, how
    many rows each when there are several, and whether at ``--quick`` sizes."""
    revisions = {}
    for record in records:
        revision = record.get("revision") or "not recorded"
        revisions.setdefault((record.get("revision_date") or "", revision), []).append(
            record
        )
    ordered = sorted(revisions.items(), reverse=True)
    if len(ordered) == 1:
        (date, revision), _ = ordered[0]
        text = f"{revision}, {_day(date)}" if date else revision
    else:
        text = "; ".join(
            f"{len(group)} at {revision}, {_day(date)}"
            if date
            else f"{len(group)} {revision}"
            for (date, revision), group in ordered
        )
        text = f"{len(ordered)} commits: " + text
    quick = sum(1 for record in records if record.get("quick"))
    if quick == len(records):
        text += f", {QUICK} sizes"
    elif quick:
        text += f", {quick} at {QUICK} sizes"
    return text


def _all_records(ratios):
    return [record for _, group in ratios for record in group]


def substitutions(records):
    """``{name: text}``: the figures the page's prose may state.

    For every comparison key (see `comparisons`) and every row of the two tables
    (``same KEY``, ``different KEY``): ``range NAME`` (lowest–highest ratio, as the
    tables round them), ``median NAME``, ``cases NAME`` (how many ratios),
    ``lowest NAME`` (the workload of the lowest ratio, in words).
    """
    named = {
        key: [(value, [record]) for value, record in ratios]
        for key, ratios in comparisons(records).items()
    }
    for prefix, rows in (("same", SAME_JOB), ("different", DIFFERENT_RULES)):
        for row in rows:
            ratios = row_ratios(row, records)
            if ratios:
                named[f"{prefix} {row['key']}"] = ratios
    out = {}
    for key, ratios in named.items():
        values = [value for value, _ in ratios]
        low = min(ratios, key=lambda pair: pair[0])
        out[f"range {key}"] = _span(values)
        out[f"median {key}"] = _ratio(statistics.median(values))
        out[f"cases {key}"] = str(len(values))
        out[f"lowest {key}"] = _describe(low[1][0]) or "one workload"
    return out


def _list_table(header, rows, indent="", title=None):
    lines = [f"{indent}.. list-table::{' ' + title if title else ''}"]
    lines += [
        f"{indent}   :header-rows: 1",
        f"{indent}   :widths: auto",
        f"{indent}   :class: benchmark",
        "",
    ]
    for row in [header, *rows]:
        lines.append(f"{indent}   * - " + f"\n{indent}     - ".join(row))
    return lines + [""]


SUMMARY_HEADER = [
    "the same job",
    "against",
    "median ratio (×)",
    "lowest – highest (×)",
    "cases",
    "size",
    "measured at",
]


def summary(records):
    """The page's first table: the same job, at most twelve rows."""
    rows = []
    for row in SAME_JOB:
        ratios = row_ratios(row, records)
        if not ratios:
            continue
        values = [value for value, _ in ratios]
        chosen = _all_records(ratios)
        rows.append(
            [
                _unbroken(row["job"]),
                row["against"],
                f"**{_ratio(statistics.median(values))}**",
                _unbroken(_span(values, " – ")),
                str(len(values)),
                _unbroken(size(chosen)),
                _unbroken(measured_at(chosen)),
            ]
        )
    return "\n".join(_list_table(SUMMARY_HEADER, rows)) + "\n"


DIFFERENT_HEADER = [
    "different rules, against",
    "how the rules differ",
    "ratio, theirs ÷ patrec's: median (lowest – highest) (×)",
    "what each keeps or reaches",
    "size",
    "measured at",
]


def _min_max(values, digits):
    low, high = f"{min(values):.{digits}f}", f"{max(values):.{digits}f}"
    return low if low == high else f"{low} – {high}"


def keeps_or_reaches(row, records):
    """What each side of a different-rules comparison keeps or reaches, in words,
    from the records' own fields; "not measured" where they hold none."""
    shows = row["shows"]
    if shows == "samples":
        kept = [
            record
            for record in records
            if _shown(record.get("patrec_kept"))
            and _shown(record.get("reference_kept"))
        ]
        if not kept:
            return "samples kept: not measured"
        return "; ".join(
            f"{_describe(record)}: patrec keeps {_number(record['patrec_kept'])}, "
            f"the other {_number(record['reference_kept'])}"
            for record in kept
        )
    if shows == "accuracy":
        pairs = [
            (record["patrec_test_accuracy"], record["reference_test_accuracy"])
            for record in records
            if _shown(record.get("patrec_test_accuracy"))
            and _shown(record.get("reference_test_accuracy"))
        ]
        if not pairs:
            return "accuracy reached: not measured"
        ours = _min_max([pair[0] for pair in pairs], 4)
        theirs = _min_max([pair[1] for pair in pairs], 4)
        return f"test accuracy: patrec {ours}, the other {theirs}"
    # memory: what each adds, beside the data's own size
    ours = _min_max([record["added_mib"] for record in records], 1)
    theirs = _min_max([record["reference_added_mib"] for record in records], 1)
    data = _min_max([record["data_mib"] for record in records], 1)
    return f"MiB added: patrec {ours} (the data alone: {data}), the others {theirs}"


def different_rules(records):
    """The comparisons of different rules: their own table, with what each keeps
    or reaches beside the time."""
    rows, unmeasured = [], []
    for row in DIFFERENT_RULES:
        ratios = row_ratios(row, records)
        if not ratios:
            continue
        values = [value for value, _ in ratios]
        chosen = _all_records(ratios)
        median = _ratio(statistics.median(values))
        span = _span(values, " – ")
        keeps = keeps_or_reaches(row, chosen)
        if "not measured" in keeps:
            unmeasured.append(row["unmeasured"])
        rows.append(
            [
                f"{_unbroken(row['job'])}, against {row['against']}",
                row["rules"],
                _unbroken(median if span == median else f"{median} ({span})"),
                _unbroken(keeps),
                _unbroken(size(chosen)),
                _unbroken(measured_at(chosen)),
            ]
        )
    text = "\n".join(_list_table(DIFFERENT_HEADER, rows))
    if unmeasured:
        listed = unmeasured[0]
        if len(unmeasured) > 1:
            comma = "," if len(unmeasured) > 2 else ""
            listed = f"{', '.join(unmeasured[:-1])}{comma} and {unmeasured[-1]}"
        text += f"\nNot measured: {listed}.\n"
    return text + "\n"


def ratio_definitions(records):
    """``ratios.rst.inc``: one ``replace::`` substitution per figure."""
    return "".join(
        f".. |{name}| replace:: {text}\n"
        for name, text in substitutions(records).items()
    )


def _cell(value):
    if isinstance(value, list):
        return ", ".join(_cell(item) for item in value)
    if isinstance(value, float):
        return f"{value:g}"
    return _number(value)


def _milliseconds(seconds):
    """A time in ms: three significant digits, whole ms from 100 ms on."""
    ms = 1e3 * seconds
    if ms >= 100:
        return f"{ms:,.0f}".replace(",", NBSP)
    return f"{ms:.3g}"


def _columns(rows):
    """Parameter names and other keys of a benchmark's rows, in first-seen order."""
    params, extras = [], []
    for record in rows:
        for key in record["params"]:
            if key not in params:
                params.append(key)
        for key in record:
            if key not in NOT_SHOWN and key not in extras:
                extras.append(key)
    return params, extras


def _header(key):
    if key in TIME_COLUMNS:
        return f"{TIME_COLUMNS[key]} (ms)"
    return HEADERS.get(key, key.replace("_", " "))


def _table_columns(rows):
    """The keys a benchmark's full table shows, in order: the workload (its
    parameters in words), the ratio, the rest as first seen, the commit last."""
    _, extras = _columns(rows)
    hidden = LEFT_TO_CSV.get(rows[0]["benchmark"], set())
    extras = [
        key
        for key in extras
        if key not in hidden
        and key not in ("ratio", "revision")
        and any(_shown(record.get(key)) for record in rows)
    ]
    ratio = ["ratio"] if any(_shown(record.get("ratio")) for record in rows) else []
    return ["workload", *ratio, *extras, "revision"]


def _table_rows(rows):
    """Header and cells of one benchmark's full table."""
    keys = _table_columns(rows)
    header = [_header(key) for key in keys]
    body = []
    for record in rows:
        cells = []
        for key in keys:
            value = record.get(key)
            if key == "workload":
                cells.append(_describe(record))
            elif key == "revision":
                text = value or "not recorded"
                cells.append(text + (f", {QUICK}" if record.get("quick") else ""))
            elif key == "reference" and _shown(value):
                cells.append(_reference_name(value))
            elif not _shown(value):
                cells.append("–")
            elif key == "ratio":
                cells.append(f"**{_ratio(value)}**")
            elif key.endswith("ratio"):
                cells.append(_ratio(value))
            elif key in TIME_COLUMNS and isinstance(value, (int, float)):
                cells.append(_milliseconds(value))
            else:
                cells.append(_cell(value))
        body.append(cells)
    return header, body


def tables(records):
    """Every measurement: one collapsed table per benchmark (HTML ``<details>``)."""
    out = []
    for name, rows in _groups(records).items():
        title = TITLES.get(name, name)
        header, body = _table_rows(rows)
        count = f"{len(rows)} measurement{'s' if len(rows) > 1 else ''}"
        out += [
            ".. raw:: html",
            "",
            f'   <details class="benchmark"><summary>{html.escape(title)} '
            f"<span>({count})</span></summary>",
            "",
            *_list_table(header, body),
            ".. raw:: html",
            "",
            "   </details>",
            "",
        ]
    return "\n".join(out) + "\n"


def write_csv(records, target):
    """Every measurement as one flat CSV table (parameters as columns)."""
    params, _ = _columns(records)
    extras = []
    for record in records:
        extras += [key for key in record if key not in extras and key != "params"]
    fields = ["benchmark", *params, *[key for key in extras if key != "benchmark"]]
    with open(target, "w", encoding="utf-8", newline="") as stream:
        writer = csv.DictWriter(stream, fields, restval="")
        writer.writeheader()
        for record in records:
            row = {key: value for key, value in record.items() if key != "params"}
            writer.writerow({**record["params"], **row})


def write_all(results, folder):
    """Write the page's generated files for ``results`` (JSON lines) into ``folder``."""
    records = read_records(results)
    folder = Path(folder)
    for name, text in [
        ("summary.rst.inc", summary(records)),
        ("different.rst.inc", different_rules(records)),
        ("ratios.rst.inc", ratio_definitions(records)),
        ("tables.rst.inc", tables(records)),
    ]:
        path = folder / name
        # unchanged files keep their time stamp, so Sphinx does not rebuild the page
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
    write_csv(records, folder / "results.csv")


def stamp(lines, quick=False, revision=None, date=None):
    """The JSON lines of a benchmark run, each measurement stamped with the commit
    measured (``revision``: ``git describe --always --dirty`` of the checkout,
    ``-dirty`` when it had uncommitted changes), the time (``revision_date``, UTC)
    and, with ``quick``, ``"quick": true``.  Other lines pass through; a record
    that has a revision already keeps it."""
    if revision is None:
        revision = subprocess.run(
            ["git", "describe", "--always", "--dirty", "--abbrev=7"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
        ).stdout.strip()
    if date is None:
        date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    for line in lines:
        if not line.startswith("{"):
            yield line
            continue
        record = json.loads(line)
        if not record.get("revision"):
            record["revision"], record["revision_date"] = revision, date
            if quick:
                record["quick"] = True
        yield json.dumps(record) + "\n"


if __name__ == "__main__":
    if "--stamp" in sys.argv[1:]:
        sys.stdout.writelines(stamp(sys.stdin, quick="--quick" in sys.argv[1:]))
    else:
        found = read_records(sys.argv[1])
        sys.stdout.write(
            summary(found) + "\n" + different_rules(found) + "\n" + tables(found)
        )
