"""The performance page states only the ratios its tables hold.

The page (docs/performance.rst) is generated at build time from
docs/benchmarks/results.jsonl by docs/benchmark_tables.py: a summary table, the
full tables (collapsed), a CSV download and the substitutions its prose uses for
every ratio it states.  These tests read the full tables as the page shows them and
check that every range the prose and the summary state is the range of the table it
summarises, and that the page's summary states no ratio typed by hand.
"""

import csv
import html
import importlib.util
import pathlib
import re

import pytest

DOCS = pathlib.Path(__file__).resolve().parents[1] / "docs"
PAGE = (DOCS / "performance.rst").read_text(encoding="utf-8")


def _load_tables():
    spec = importlib.util.spec_from_file_location(
        "benchmark_tables", DOCS / "benchmark_tables.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tables = _load_tables()
RECORDS = tables.read_records(DOCS / "benchmarks" / "results.jsonl")
SUBSTITUTIONS = tables.substitutions(RECORDS)


def _used_substitutions(text):
    """Substitution names the text refers to (a reference may wrap a line)."""
    return {" ".join(name.split()) for name in re.findall(r"\|([a-z][^|]*)\|", text)}


def _section(title):
    """The text of one section of the page, from its title to the next one."""
    lines = PAGE.splitlines()
    start = lines.index(title) + 2
    for end in range(start, len(lines) - 1):
        if lines[end + 1] and set(lines[end + 1]) <= set("=-") and lines[end]:
            return "\n".join(lines[start:end])
    return "\n".join(lines[start:])


def _rows(text):
    """The rows of the list-tables in ``text``, each a list of cells as the page
    shows them (a table's header first)."""
    rows = []
    for line in text.splitlines():
        if line.startswith("   * - "):
            rows.append([line[len("   * - ") :]])
        elif line.startswith("     - "):
            rows[-1].append(line[len("     - ") :])
    return rows


def _list_tables(text):
    """``{summary line: rows}`` of the generated full tables."""
    blocks = re.split(r'<details class="benchmark"><summary>', text)[1:]
    return {block.split(" <span>")[0]: _rows(block) for block in blocks}


FULL_TABLES = _list_tables(tables.tables(RECORDS))


def _shown_ratios(benchmark, reference):
    """The ratios the full table of ``benchmark`` shows for ``reference`` (every
    row when None), read from the page's cells."""
    header, *rows = FULL_TABLES[html.escape(tables.TITLES[benchmark])]
    ratio = header.index("ratio (×)")
    against = header.index("reference") if reference is not None else None
    return [
        float(row[ratio].strip("*"))
        for row in rows
        if row[ratio] != "–" and (reference is None or row[against] == reference)
    ]


def _comparison(key):
    """``(benchmark, reference or None)`` of a substitution's comparison key."""
    benchmark, _, reference = key.partition(" ")
    return benchmark, (None if benchmark in tables.MERGED else reference)


def _span(values):
    low, high = f"{min(values):.2f}", f"{max(values):.2f}"
    return low if low == high else f"{low}–{high}"


def test_the_prose_uses_only_generated_figures():
    used = _used_substitutions(PAGE)
    assert used, "the page states no generated figure"
    assert used <= set(SUBSTITUTIONS), used - set(SUBSTITUTIONS)


@pytest.mark.parametrize(
    "name", sorted(name for name in SUBSTITUTIONS if name.startswith("range "))
)
def test_each_range_is_the_range_of_its_table(name):
    benchmark, reference = _comparison(name.removeprefix("range "))
    if reference == "memory":  # derived: the table's two memory columns
        header, *rows = FULL_TABLES[html.escape(tables.TITLES[benchmark])]
        ours = header.index("patrec extra memory (MiB)")
        theirs = header.index("reference extra memory (MiB)")
        shown = [float(row[theirs]) / float(row[ours]) for row in rows]
    elif reference == "processes":  # derived: the table's column of two processes
        header, *rows = FULL_TABLES[html.escape(tables.TITLES[benchmark])]
        column = header.index(tables.HEADERS["two_processes"])
        shown = [float(row[column]) for row in rows]
    else:
        shown = _shown_ratios(benchmark, reference)
    assert shown, name
    assert SUBSTITUTIONS[name] == _span(shown)


def test_the_pykdtree_headline_is_generated_over_the_two_dimensional_rows():
    """The issue's case: the d = 2 rows (once overstated by hand) are measured, and
    the page states the pykdtree range only by its substitution, computed over every
    row of the table, those among them."""
    rows = [
        record
        for record in RECORDS
        if record["benchmark"] == "knn_tree_query"
        and record["reference"] == "pykdtree"
        and record["params"]["d"] == 2
    ]
    assert sorted(record["params"]["k"] for record in rows) == [1, 5]
    assert "|range knn_tree_query pykdtree|" in " ".join(PAGE.split())


def test_the_summary_table_shows_the_same_ranges():
    header, *rows = _rows(tables.summary(RECORDS))
    column = header.index("ratio, lowest – highest (×)")
    expected = [
        text.replace("–", " – ")
        for name, text in SUBSTITUTIONS.items()
        if name.startswith("range ")
    ]
    shown = [row[column].replace(tables.NBSP, " ") for row in rows]
    assert shown == expected


def test_the_summary_states_no_ratio_by_hand():
    """Numbers in 'In short' are sizes (100 000 points, k = 5); every ratio is a
    substitution."""
    text = re.sub(r"\|[a-z][^|]*\|", "", _section("In short"))
    assert not re.findall(r"\d\.\d|\d\s*(?:×|times)", text), text


def test_every_column_header_has_its_unit():
    for name in {record["benchmark"] for record in RECORDS}:
        rows = [record for record in RECORDS if record["benchmark"] == name]
        params, extras = tables._columns(rows)
        header, _ = tables._table_rows(rows)
        names = {tables._header(key): key for key in params + extras}
        assert len(names) == len(params + extras), name  # no two columns alike
        for text in header:
            key = names[text]
            if key in tables.TIME_COLUMNS:
                assert text.endswith("(ms)"), (name, text)
            elif "ratio" in key:
                assert text.endswith("(×)"), (name, text)
            elif key.endswith(("_mb", "_mib")):
                assert text.endswith("(MiB)"), (name, text)
            elif key.endswith("_gflops"):
                assert text.endswith("GFLOP/s"), (name, text)


def test_the_csv_holds_every_measurement(tmp_path):
    source = DOCS / "benchmarks" / "results.jsonl"
    tables.write_all(source, tmp_path)
    with open(tmp_path / "results.csv", encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert len(rows) == len(RECORDS)
    for row, record in zip(rows, RECORDS):
        assert row["benchmark"] == record["benchmark"]
        assert row["ratio"] == ("" if record["ratio"] is None else str(record["ratio"]))
        assert all(row[key] == str(value) for key, value in record["params"].items())
    for name in ("summary.rst.inc", "ratios.rst.inc", "tables.rst.inc"):
        assert (tmp_path / name).is_file()
    assert ":download:`" in PAGE and "benchmarks/results.csv" in PAGE
