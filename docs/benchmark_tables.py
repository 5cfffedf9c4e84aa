"""Turn the JSON lines of ``benchmarks/run.py`` into the performance page's figures.

    python benchmarks/run.py > docs/benchmarks/results.jsonl
    python docs/benchmark_tables.py docs/benchmarks/results.jsonl   # prints the tables

The documentation build calls `write_all` itself (see conf.py), so replacing
``docs/benchmarks/results.jsonl`` is all it takes to refresh the page.  It writes,
next to the results:

- ``summary.rst.inc``: the page's first table, one row per comparison (a benchmark
  against one library) with the range and median of its ratios;
- ``ratios.rst.inc``: reStructuredText substitutions that the page's prose uses for
  every ratio it states (``|range knn_tree_query pykdtree|`` is the lowest and the
  highest ratio of the tree against pykdtree), so the prose cannot drift from the
  tables;
- ``tables.rst.inc``: every measurement, one collapsed table per benchmark;
- ``results.csv``: every measurement in one flat table, offered for download.

A ratio is the reference library's time divided by patrec's: above 1, patrec is
faster.
"""

import csv
import html
import json
import re
import statistics
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
    "during the build (resident MiB)",
    "knn_auto_choice": 'algorithm="auto" against the better of tree and brute force '
    "(CPU time)",
    "knn_predict_memory": "k-NN classifier, predict: time and extra memory",
    "condense": "Condensing (Hart) against imbalanced-learn",
    "condense growth exponent": "Condensing: how the time grows with n",
    "edit": "Editing (Wilson) against imbalanced-learn",
    "edit growth exponent": "Editing: how the time grows with n",
    "repeated_edit": "Repeated editing against imbalanced-learn",
    "repeated_edit growth exponent": "Repeated editing: how the time grows with n",
    "multiedit": "Multi-edit against imbalanced-learn's AllKNN",
    "multiedit growth exponent": "Multi-edit: how the time grows with n",
    "fisher_lda_fit_predict": "Fisher LDA, fit and predict",
    "qda_fit_predict": "QDA, fit and predict",
    "linear_machine_fit_vs_perceptron": "Linear machine against scikit-learn's "
    "Perceptron, fit (same epochs)",
    "multiclass_svm_fit": "Multiclass SVM, fit",
    "softmax_fit": "Softmax regression, fit",
    "minimum_distance_predict": "Minimum-distance classifier, predict",
    "bnb_tree_n_jobs": "Branch-and-bound tree, threads: n_jobs=2 against n_jobs=1",
    "brute_n_jobs": "Brute force, threads: n_jobs=2 against n_jobs=1",
}

# The summary: what each benchmark is called in its first column, in the page's
# order.  A benchmark absent here has a full table but no summary row; one listed in
# MERGED has a single row whatever its reference column says.
FAMILIES = {
    "knn_tree_query": "k-NN search: the tree, 100 000 points, 5 000 queries",
    "knn_grid": "k-NN search: auto, every workload of the grid",
    "knn_kinds_query": "k-NN search: auto, duplicates, heavy tails, elongated, "
    "sphere, embedded sheet",
    "knn_kinds_fit_predict": "k-NN classifier, fit + predict, the same data",
    "knn_kinds_single_row": "k-NN search: one row per call",
    "brute_query": "k-NN search: brute force, 64 and 784 features",
    "brute_query_lowdim": "k-NN search: brute force, 2 and 8 features",
    "knn_auto_choice": "k-NN search: auto's choice of tree or brute force",
    "bnb_tree_build": "Tree construction, 1 000 000 samples",
    "index_memory": "Index memory added (the ratio: theirs / ours)",
    "knn_predict_memory": "k-NN classifier, predict",
    "condense": "Condensing (Hart)",
    "edit": "Editing (Wilson)",
    "repeated_edit": "Repeated editing",
    "multiedit": "Multi-edit",
    "fisher_lda_fit_predict": "Fisher LDA, fit and predict",
    "qda_fit_predict": "QDA, fit and predict",
    "linear_machine_fit_vs_perceptron": "Linear machine, fit",
    "multiclass_svm_fit": "Multiclass SVM, fit",
    "softmax_fit": "Softmax regression, fit",
    "minimum_distance_predict": "Minimum-distance classifier, predict",
    "bnb_tree_n_jobs": "Threads: the tree, two against one",
    "brute_n_jobs": "Threads: brute force, two against one",
}
MERGED = {
    "knn_grid": "the fastest of cKDTree, pykdtree, intelex",
    "knn_kinds_query": "the fastest of cKDTree, pykdtree, intelex",
    "knn_auto_choice": "the better of tree and brute force",
}
# Readable names of the reference libraries (the raw name otherwise).
REFERENCES = {
    "scipy.cKDTree": "SciPy cKDTree",
    "pykdtree": "pykdtree",
    "sklearnex.kd_tree": "scikit-learn-intelex k-d tree",
    "sklearn.KDTree": "scikit-learn KDTree",
    "sklearnex.brute": "scikit-learn-intelex brute force",
    "faiss.IndexFlatL2": "FAISS IndexFlatL2",
    "sklearn.brute": "scikit-learn brute force",
    "sklearn.KNeighborsClassifier": "scikit-learn KNeighborsClassifier",
    "sklearnex.KNeighborsClassifier": "scikit-learn-intelex KNeighborsClassifier",
    "scipy.cKDTree(copy_data=True)": "SciPy cKDTree(copy_data=True)",
    "patrec n_jobs=1": "patrec, n_jobs=1",
    "sklearn.LinearSVC(crammer_singer)": "scikit-learn LinearSVC (Crammer–Singer)",
}
# Ratios derived from other columns: (benchmark, key, family, against, function).
DERIVED = [
    (
        "knn_predict_memory",
        "memory",
        "k-NN classifier, predict: extra memory",
        "scikit-learn KNeighborsClassifier",
        lambda record: record["reference_peak_extra_mb"] / record["peak_extra_mb"],
    ),
    # beside n_jobs=2: what two processes running the same query at once gained
    *(
        (
            benchmark,
            "processes",
            f"Threads: {index}, two one-thread processes at once against one",
            "patrec, one process",
            lambda record: record["two_processes"],
        )
        for benchmark, index in (
            ("bnb_tree_n_jobs", "the tree"),
            ("brute_n_jobs", "brute force"),
        )
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
    "max_probability_difference": "largest probability difference",
    "patrec_exponent": "patrec growth exponent",
    "reference_exponent": "reference growth exponent",
    "sizes": "n",
    "load_average": "load average",
    "auto_choice": "auto's choice",
    "n_queries": "queries",
    "queries": "query set",
    "n_train": "n",
    "added_mib": "patrec added (MiB)",
    "peak_mib": "patrec peak (MiB)",
    "reference_added_mib": "reference added (MiB)",
    "reference_peak_mib": "reference peak (MiB)",
    "data_mib": "the caller's data (MiB)",
    "patrec_gflops": "patrec GFLOP/s",
    "dgemv_gflops": "BLAS dgemv GFLOP/s",
    "dgemm_gflops": "BLAS dgemm GFLOP/s",
    "same_labels": "equal predictions (share)",
    "others_cpu": "other processes' CPU share",
    "two_processes": "two one-thread processes at once, against one (×)",
    "patrec_system_s": "patrec's system time in each round (s)",
    "objective_gap": "objective gap, patrec's less the reference's (relative)",
}
NOT_SHOWN = {"benchmark", "params"}
# Columns a benchmark's full table leaves to the CSV: in the grid the reference is
# the fastest of the three peers, whose times have their own columns; index_memory's
# ratio is of memory, its build times (one each) would read as its quotient.
LEFT_TO_CSV = {
    "knn_grid": {"reference", "reference_s"},
    "knn_kinds_query": {"reference", "reference_s"},
    "index_memory": {"patrec_s", "reference_s"},
}


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


def _unbroken(text):
    """``text`` with no line break inside a number ("100 000") or around a dash."""
    text = re.sub(r"(?<=\d) (?=\d{3}\b)", NBSP, str(text))
    return text.replace(" – ", f"{NBSP}–{NBSP}")


def _ratio(value):
    """A ratio as the tables show it (two decimals)."""
    return f"{value:.2f}"


def _span(values, dash="–"):
    """Lowest and highest of ``values`` as the tables round them (one if equal)."""
    low, high = _ratio(min(values)), _ratio(max(values))
    return low if low == high else f"{low}{dash}{high}"


def _reference_name(reference):
    """A reference library's readable name."""
    if reference in REFERENCES:
        return REFERENCES[reference]
    for prefix, library in (
        ("sklearn.", "scikit-learn "),
        ("imblearn ", "imbalanced-learn "),
    ):
        if reference.startswith(prefix):
            return library + reference.removeprefix(prefix)
    return reference


def comparisons(records):
    """The summary's rows: ``[(key, family, against, [(ratio, record), ...]), ...]``.

    ``key`` names the comparison in the substitutions of ``ratios.rst.inc``:
    ``"benchmark reference"``, or the benchmark alone for a merged one.  Records
    without a ratio (the growth exponents of the editing benchmarks) are left out.
    """
    rows = []
    for name, group in _groups(records).items():
        if name not in FAMILIES:
            continue
        # (no ratio: a growth exponent; a NaN: the reference skipped at that size)
        group = [record for record in group if _shown(record.get("ratio"))]
        by_reference = {}
        for record in group:
            reference = "" if name in MERGED else record["reference"]
            by_reference.setdefault(reference, []).append(record)
        for reference, chosen in by_reference.items():
            key = f"{name} {reference}".strip()
            against = MERGED.get(name) or _reference_name(reference)
            ratios = [(record["ratio"], record) for record in chosen]
            rows.append((key, FAMILIES[name], against, ratios))
        for benchmark, suffix, family, against, function in DERIVED:
            if benchmark == name:
                ratios = [(function(record), record) for record in group]
                rows.append((f"{name} {suffix}", family, against, ratios))
    return rows


def _describe(record):
    """A measurement's parameters in words: ``uniform, d = 2, k = 5``."""
    parts = []
    for key, value in record["params"].items():
        if key == "data":
            parts.append(str(value))
        elif key in ("d", "k", "n"):
            parts.append(f"{key} = {value:,}".replace(",", NBSP))
        elif key == "n_classes":
            parts.append(f"{value} classes")
    return ", ".join(parts)


def substitutions(records):
    """``{name: text}``: the figures the page's prose may state, by comparison key.

    ``range KEY`` (lowest–highest ratio, as the tables round them), ``median KEY``,
    ``cases KEY`` (how many measurements), ``lowest KEY`` (the workload of the
    lowest ratio, in words).
    """
    out = {}
    for key, _, _, ratios in comparisons(records):
        values = [value for value, _ in ratios]
        low = min(ratios, key=lambda pair: pair[0])
        out[f"range {key}"] = _span(values)
        out[f"median {key}"] = _ratio(statistics.median(values))
        out[f"cases {key}"] = str(len(values))
        out[f"lowest {key}"] = _describe(low[1]) or "one workload"
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


def summary(records):
    """The page's first table: one row per comparison."""
    header = [
        "what is timed",
        "against",
        "cases",
        "ratio, lowest – highest (×)",
        "median ratio (×)",
    ]
    rows, previous = [], None
    for _, family, against, ratios in comparisons(records):
        values = [value for value, _ in ratios]
        rows.append(
            [
                # a family's further rows leave its name blank: they group under it
                _unbroken(family) if family != previous else "",
                against,
                str(len(values)),
                _unbroken(_span(values, " – ")),
                f"**{_ratio(statistics.median(values))}**",
            ]
        )
        previous = family
    return "\n".join(_list_table(header, rows)) + "\n"


def ratio_definitions(records):
    """``ratios.rst.inc``: one ``replace::`` substitution per figure."""
    return "".join(
        f".. |{name}| replace:: {text}\n"
        for name, text in substitutions(records).items()
    )


def _shown(value):
    """Whether a measured value exists (not missing, not NaN: a reference not run)."""
    return value is not None and value == value and value != ""


def _cell(value):
    if isinstance(value, list):
        return ", ".join(_cell(item) for item in value)
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, int) and value >= 1_000:
        return f"{value:,}".replace(",", NBSP)
    return str(value)


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


def _table_rows(rows):
    """Header and cells of one benchmark's full table."""
    params, extras = _columns(rows)
    hidden = LEFT_TO_CSV.get(rows[0]["benchmark"], set())
    extras = [
        key
        for key in extras
        if key not in hidden and any(_shown(record.get(key)) for record in rows)
    ]
    # the ratio (what to read) right after the workload, then the rest in order
    extras = ["ratio"] + [key for key in extras if key != "ratio"]
    header = [_header(key) for key in params + extras]
    body = []
    for record in rows:
        cells = [_cell(record["params"].get(key, "")) for key in params]
        for key in extras:
            value = record.get(key)
            if not _shown(value):
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
    params, extras = _columns(records)
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
        ("ratios.rst.inc", ratio_definitions(records)),
        ("tables.rst.inc", tables(records)),
    ]:
        path = folder / name
        # unchanged files keep their time stamp, so Sphinx does not rebuild the page
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
    write_csv(records, folder / "results.csv")


if __name__ == "__main__":
    found = read_records(sys.argv[1])
    sys.stdout.write(summary(found) + "\n" + tables(found))
