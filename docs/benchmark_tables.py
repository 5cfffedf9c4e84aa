"""Turn the JSON lines of ``benchmarks/run.py`` into the tables of performance.rst.

    python benchmarks/run.py > docs/benchmarks/results.jsonl
    python docs/benchmark_tables.py docs/benchmarks/results.jsonl   # prints the tables

The documentation build calls `write_tables` itself (see conf.py), so replacing
``docs/benchmarks/results.jsonl`` is all it takes to refresh the page.
"""

import json
import sys
from pathlib import Path

# What each benchmark measures, in the order the page shows them.
TITLES = {
    "fisher_lda_fit_predict": "Fisher LDA, fit and predict",
    "qda_fit_predict": "QDA, fit and predict",
    "linear_machine_fit_vs_perceptron": "Linear machine against scikit-learn's "
    "Perceptron, fit (same epochs)",
    "multiclass_svm_fit": "Multiclass SVM, fit",
    "softmax_fit": "Softmax regression, fit",
    "minimum_distance_predict": "Minimum-distance classifier, predict",
    "knn_tree_query": "Branch-and-bound tree, k-NN query, against the fastest trees",
    "knn_auto_query": 'k-NN query with algorithm="auto", against the fastest trees',
    "knn_grid": "k-NN search, the whole grid: auto against the fastest of cKDTree, "
    "pykdtree and scikit-learn-intelex (CPU time)",
    "knn_auto_choice": 'algorithm="auto" against the better of tree and brute force',
    "brute_query": "Brute force, k-NN query (high dimension)",
    "brute_query_lowdim": "Brute force, k-NN query (low dimension)",
    "brute_query_lowdim_vs_gemm": "Brute force against its own matrix products alone",
    "bnb_tree_build": "Branch-and-bound tree, construction at 1 000 000 samples",
    "bnb_tree_n_jobs": "Branch-and-bound tree, threads",
    "brute_n_jobs": "Brute force, threads",
    "knn_predict_memory": "k-NN predict, time and extra memory",
}
SKIP = {"benchmark", "params", "reference", "patrec_s", "reference_s", "ratio"}


def _cell(value):
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def read_records(path):
    with open(path, encoding="utf-8") as stream:
        return [json.loads(line) for line in stream if line.startswith("{")]


def tables(records):
    """reStructuredText list-tables, one per benchmark."""
    groups = {}
    for record in records:
        groups.setdefault(record["benchmark"], []).append(record)
    order = [name for name in TITLES if name in groups]
    order += sorted(set(groups) - set(order))
    out = []
    for name in order:
        rows = groups[name]
        extras = [key for key in rows[0] if key not in SKIP]
        title = TITLES.get(name, name)
        widths = [30, 22, 11, 11, 9] + [12] * len(extras)
        out += [
            title,
            "-" * len(title),
            "",
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: " + " ".join(map(str, widths)),
            "",
        ]
        header = [
            "parameters",
            "reference",
            "patrec (ms)",
            "reference (ms)",
            "ratio",
        ] + [key.replace("_", " ") for key in extras]
        out.append("   * - " + "\n     - ".join(header))
        for record in rows:
            params = ", ".join(
                f"{key}={_cell(value)}" for key, value in record["params"].items()
            )
            cells = [
                params,
                f"``{record['reference']}``",
                f"{1e3 * record['patrec_s']:.1f}",
                f"{1e3 * record['reference_s']:.1f}",
                f"**{record['ratio']:.2f}**" if record["ratio"] else "-",
            ]
            cells += [_cell(record.get(key, "")) for key in extras]
            out.append("   * - " + "\n     - ".join(cells))
        out.append("")
    return "\n".join(out) + "\n"


def write_tables(results, target):
    """Write the tables of ``results`` (a JSON-lines file) to ``target``."""
    Path(target).write_text(tables(read_records(results)), encoding="utf-8")


if __name__ == "__main__":
    sys.stdout.write(tables(read_records(sys.argv[1])))
