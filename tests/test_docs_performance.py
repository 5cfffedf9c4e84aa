"""The performance page states only the ratios its tables hold, and reads in a minute.

The page (docs/performance.rst) is generated at build time from
docs/benchmarks/results.jsonl by docs/benchmark_tables.py: a summary of the same
job done by the same rule, a separate table of comparisons of different rules, the
full tables (collapsed), a CSV download and the substitutions its prose uses for
every ratio it states.  These tests read the tables as the page shows them and check
that every range the prose and the summary state is the range of the table it
summarises, that the summary keeps to at most twelve rows read one way (above 1:
patrec better), that different rules never enter it, that every row names the
commit and the sizes it was measured at, and that the engineering notes live on
the maintainers' page.
"""

import csv
import html
import importlib.util
import json
import pathlib
import re

import pytest

DOCS = pathlib.Path(__file__).resolve().parents[1] / "docs"
PAGE = (DOCS / "performance.rst").read_text(encoding="utf-8")
MAINTAINERS = (DOCS / "maintainers.rst").read_text(encoding="utf-8")


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
SUMMARY = _rows(tables.summary(RECORDS))
DIFFERENT = _rows(tables.different_rules(RECORDS))


def _full_table(benchmark):
    return FULL_TABLES[html.escape(tables.TITLES[benchmark])]


def _shown(benchmark, reference=None, references=None):
    """``[(workload, reference, ratio)]`` the full table of ``benchmark`` shows, for
    ``reference`` or those in ``references`` (every row when neither)."""
    header, *rows = _full_table(benchmark)
    ratio = header.index("ratio (×)")
    against = header.index("reference") if "reference" in header else None
    shown = []
    for row in rows:
        if row[ratio] == "–":
            continue
        # the table shows each reference by its readable name
        name = row[against] if against is not None else None
        if reference is not None and name != tables._reference_name(reference):
            continue
        if references is not None and name not in map(
            tables._reference_name, references
        ):
            continue
        shown.append((row[0], name, float(row[ratio].strip("*"))))
    return shown


def _row_values(row):
    """The ratios one row of SAME_JOB or DIFFERENT_RULES stands for, read from the
    full tables: per workload the lowest (against the fastest) when it combines so,
    every shown ratio otherwise."""
    values = []
    for benchmark in row["benchmarks"]:
        shown = _shown(benchmark, references=row.get("references"))
        if row.get("combine") == "fastest":
            workloads = {}
            for workload, _, value in shown:
                workloads.setdefault(workload, []).append(value)
            values += [min(group) for group in workloads.values()]
        else:
            values += [value for _, _, value in shown]
    return values


def _comparison(key):
    """``(benchmark, reference or None)`` of a substitution's comparison key."""
    benchmark, _, reference = key.partition(" ")
    return benchmark, (None if benchmark in tables.MERGED else reference)


def _span(values):
    low, high = f"{min(values):.2f}", f"{max(values):.2f}"
    return low if low == high else f"{low}–{high}"


ROWS = {
    **{f"same {row['key']}": row for row in tables.SAME_JOB},
    **{f"different {row['key']}": row for row in tables.DIFFERENT_RULES},
}


# -- every figure the page states is its table's ----------------------------------


def test_the_prose_uses_only_generated_figures():
    used = _used_substitutions(PAGE)
    assert used, "the page states no generated figure"
    assert used <= set(SUBSTITUTIONS), used - set(SUBSTITUTIONS)


@pytest.mark.parametrize(
    "name", sorted(name for name in SUBSTITUTIONS if name.startswith("range "))
)
def test_each_range_is_the_range_of_its_table(name):
    key = name.removeprefix("range ")
    if key in ROWS:  # a row of the summary or of the different rules
        shown = _row_values(ROWS[key])
    else:
        benchmark, reference = _comparison(key)
        if reference == "memory":  # derived: the table's two memory columns
            header, *rows = _full_table(benchmark)
            ours = header.index("patrec extra memory (MiB)")
            theirs = header.index("reference extra memory (MiB)")
            shown = [float(row[theirs]) / float(row[ours]) for row in rows]
        elif reference == "processes":  # derived: the column of two processes
            header, *rows = _full_table(benchmark)
            column = header.index(tables.HEADERS["two_processes"])
            shown = [float(row[column]) for row in rows]
        else:
            shown = [value for _, _, value in _shown(benchmark, reference)]
    assert shown, name
    assert SUBSTITUTIONS[name] == _span(shown)


def test_the_tree_row_counts_each_workload_against_its_fastest_peer():
    """The tree's summary row: one ratio per workload of its table (the d = 2 rows,
    once overstated by hand, among them), each against the fastest of the four
    trees on it."""
    records = [record for record in RECORDS if record["benchmark"] == "knn_tree_query"]
    assert sorted(
        {record["params"]["k"] for record in records if record["params"]["d"] == 2}
    ) == [1, 5]
    ratios = tables.row_ratios(ROWS["same tree"], RECORDS)
    assert len(ratios) == len({tables._workload(record) for record in records})
    for value, group in ratios:
        assert len(group) == 4
        assert value == min(record["ratio"] for record in group)


def test_the_summary_table_shows_the_same_ranges():
    header, *rows = SUMMARY
    column = header.index("lowest – highest (×)")
    expected = [
        SUBSTITUTIONS[f"range same {row['key']}"].replace("–", " – ")
        for row in tables.SAME_JOB
    ]
    shown = [
        row[column].replace(tables.NBSP, " ").replace(tables.WORD_JOINER, "")
        for row in rows
    ]
    assert shown == expected


def test_the_pages_prose_states_no_ratio_by_hand():
    """Numbers in the prose around the tables are sizes (100 000 points, k = 5);
    every ratio is a substitution."""
    for title in ("The same job", "Different rules: what each keeps or reaches"):
        text = re.sub(r"\|[a-z][^|]*\|", "", _section(title))
        assert not re.findall(r"\d\.\d|\d\s*(?:×|times)", text), (title, text)


# -- the summary: the same job, at most twelve rows, one direction ----------------


def test_the_summary_has_at_most_twelve_rows():
    header, *rows = SUMMARY
    assert len(tables.SAME_JOB) <= 12
    assert 0 < len(rows) <= 12, len(rows)


def test_every_summary_ratio_reads_above_one_as_patrec_better():
    """Time and memory alike: the other library's quantity over patrec's, never
    patrec against itself."""
    for row in tables.SAME_JOB:
        for value, group in tables.row_ratios(row, RECORDS):
            for record in group:
                reference = record["reference"]
                assert not reference.startswith(("patrec", "better")), row["key"]
                if record["benchmark"] == "index_memory":
                    ours, theirs = record["added_mib"], record["reference_added_mib"]
                    assert "theirs ÷ patrec's" in row["job"], row["key"]
                else:
                    ours, theirs = record["patrec_s"], record["reference_s"]
                # the records round the ratio to 3 decimals, memory to 0.1 MiB
                assert record["ratio"] == pytest.approx(
                    theirs / ours, rel=2e-3, abs=2e-3
                )
            assert value == min(record["ratio"] for record in group)
    assert "above 1 patrec is better" in " ".join(PAGE.split())


def test_every_summary_row_below_one_is_explained():
    """Where a peer is faster on some workload, the prose under the summary names
    the workload (a ``lowest`` substitution of that row's benchmarks)."""
    used = _used_substitutions(_section("The same job"))
    for row in tables.SAME_JOB:
        values = [value for value, _ in tables.row_ratios(row, RECORDS)]
        if min(values) < 0.995:  # below 1.00 as the tables round it
            assert any(
                name.startswith("lowest ") and name.split()[1] in row["benchmarks"]
                for name in used
            ), row["key"]


def test_different_rules_stay_out_of_the_summary():
    """Condensing against the one-pass CondensedNearestNeighbour, multi-edit against
    AllKNN, the linear machine against one-vs-rest Perceptron, the multiclass SVM
    against an exact solver, and memory against indexes that keep no copy: never
    in the headline, always in their own, labelled table."""
    same = {
        (record["benchmark"], record["reference"])
        for row in tables.SAME_JOB
        for _, group in tables.row_ratios(row, RECORDS)
        for record in group
    }
    different = {
        (record["benchmark"], record["reference"])
        for row in tables.DIFFERENT_RULES
        for _, group in tables.row_ratios(row, RECORDS)
        for record in group
    }
    assert not same & different
    benchmarks = {benchmark for benchmark, _ in different}
    assert {
        "condense",
        "multiedit",
        "linear_machine_fit_vs_perceptron",
        "multiclass_svm_fit",
    } <= benchmarks
    assert not benchmarks & {benchmark for benchmark, _ in same} - {"index_memory"}
    # on the page: the summary under "The same job", the different rules under a
    # section of their own, whose prose states none of the summary's figures
    assert "benchmarks/summary.rst.inc" in _section("The same job")
    assert "different.rst.inc" not in _section("The same job")
    assert "benchmarks/different.rst.inc" in _section(
        "Different rules: what each keeps or reaches"
    )
    used = _used_substitutions(_section("The same job"))
    for name in used:
        key = name.split(" ", 1)[1]
        assert _comparison(key)[0] not in benchmarks - {"index_memory"}, name
        assert not key.startswith("different "), name


def test_the_different_rules_table_says_what_each_keeps_or_reaches():
    header, *rows = DIFFERENT
    assert len(rows) == len(tables.DIFFERENT_RULES)
    column = header.index("what each keeps or reaches")
    for spec, row in zip(tables.DIFFERENT_RULES, rows):
        cell = row[column]
        records = [r for _, group in tables.row_ratios(spec, RECORDS) for r in group]
        if spec["shows"] == "accuracy" and all(
            "patrec_test_accuracy" in record for record in records
        ):
            for record in records:
                assert f"{record['patrec_test_accuracy']:.4f}" in cell
                assert f"{record['reference_test_accuracy']:.4f}" in cell
        elif spec["shows"] == "memory":
            assert "MiB added" in cell and "the data alone" in cell
        elif not any("patrec_kept" in record for record in records):
            assert "not measured" in cell, spec["key"]
    # what is not measured is said in a sentence under the table, by name
    text = " ".join(tables.different_rules(RECORDS).split())
    for spec, row in zip(tables.DIFFERENT_RULES, rows):
        if "not measured" in row[column]:
            assert spec["unmeasured"] in text.split("Not measured: ")[1], spec["key"]


# -- every row says its commit and size --------------------------------------------


def test_every_record_names_the_commit_that_measured_it():
    for record in RECORDS:
        assert re.fullmatch(r"[0-9a-f]{7,40}(-dirty)?", record.get("revision", "")), (
            record
        )
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", record["revision_date"]), (
            record
        )


def test_every_summary_row_says_its_commits_and_sizes():
    for prefix, spec, (header, *rows) in (
        ("same", tables.SAME_JOB, SUMMARY),
        ("different", tables.DIFFERENT_RULES, DIFFERENT),
    ):
        at, size = header.index("measured at"), header.index("size")
        for row, cells in zip(spec, rows):
            records = [r for _, group in tables.row_ratios(row, RECORDS) for r in group]
            text = cells[at]
            for record in records:
                assert record["revision"] in text, (prefix, row["key"])
            revisions = {record["revision"] for record in records}
            if len(revisions) > 1:  # older rows beside newer ones are said so
                assert text.startswith(f"{len(revisions)} commits:"), text
            if any(record.get("quick") for record in records):
                assert tables.QUICK in text, (prefix, row["key"])
            assert cells[size].startswith(f"n{tables.NBSP}="), (prefix, row["key"])


def test_the_full_tables_name_each_rows_commit():
    for name, (header, *rows) in FULL_TABLES.items():
        assert header[-1] == "measured at (commit)", name
        for row in rows:
            assert re.match(r"[0-9a-f]{7}", row[-1]), (name, row)
    quick = [record for record in RECORDS if record.get("quick")]
    assert quick  # the --quick rows of the discriminants, brute force at low d, ...
    for record in quick:
        header, *rows = _full_table(record["benchmark"])
        assert all(row[-1].endswith(f", {tables.QUICK}") for row in rows)


def test_stamp_names_the_commit_and_keeps_older_stamps():
    lines = [
        '{"benchmark": "edit", "params": {}, "ratio": 2.0}\n',
        "# a comment line\n",
        '{"benchmark": "edit", "params": {}, "ratio": 2.0, "revision": "abcdef0",'
        ' "revision_date": "2026-01-01 00:00"}\n',
    ]
    out = list(
        tables.stamp(lines, quick=True, revision="1234567", date="2026-02-02 02:02")
    )
    first, comment, last = out
    assert json.loads(first) == {
        "benchmark": "edit",
        "params": {},
        "ratio": 2.0,
        "revision": "1234567",
        "revision_date": "2026-02-02 02:02",
        "quick": True,
    }
    assert comment == lines[1]
    assert json.loads(last)["revision"] == "abcdef0" and "quick" not in json.loads(last)


# -- a minute's read: short page, narrow tables, engineering elsewhere -------------


def test_no_table_has_a_column_per_parameter():
    """A full table names its workload in one wrapping column (the parameters are
    columns of the CSV), so no table is wider than the page: at most eleven
    columns, the widest (the linear learners) checked in a 1400-pixel window."""
    for name, (header, *_) in FULL_TABLES.items():
        assert header[0] == "workload", name
        assert len(header) <= 11, (name, header)
    assert len(SUMMARY[0]) <= 7 and len(DIFFERENT[0]) <= 7


def test_the_engineering_notes_are_on_the_maintainers_page():
    # the old bullet of how rows were made, the notes behind the compiled code and
    # the refactoring timed against a commit: on the maintainers' page
    assert "Data no earlier measurement named" not in PAGE
    assert "Measurements behind the code" not in PAGE
    assert not re.search(r"``[0-9a-f]{7}``", PAGE), "a commit hash on the user page"
    assert "maintainers-measurements" in PAGE
    assert ".. _maintainers-measurements:" in MAINTAINERS
    measurements = MAINTAINERS.split(".. _maintainers-measurements:")[1]
    for text in ("Measurements behind the code", "compare_revisions.py", "208b402"):
        assert text in measurements, text
    # the page's own "How they were made" is a paragraph, not the old 45 lines
    made = _section("How they were made")
    assert len(made.split("Reproduce them")[0].splitlines()) <= 12
    # what test_docs_pages.py asks of every other user page
    developer = re.compile(r"\btests/\w|load average|development machine|\.ci/run")
    assert not developer.findall(PAGE)


def test_the_csv_holds_every_measurement(tmp_path):
    source = DOCS / "benchmarks" / "results.jsonl"
    tables.write_all(source, tmp_path)
    with open(tmp_path / "results.csv", encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert len(rows) == len(RECORDS)
    for row, record in zip(rows, RECORDS):
        assert row["benchmark"] == record["benchmark"]
        assert row["ratio"] == ("" if record["ratio"] is None else str(record["ratio"]))
        assert row["revision"] == record["revision"]
        assert all(row[key] == str(value) for key, value in record["params"].items())
    for name in (
        "summary.rst.inc",
        "different.rst.inc",
        "ratios.rst.inc",
        "tables.rst.inc",
    ):
        assert (tmp_path / name).is_file()
    assert ":download:`" in PAGE and "benchmarks/results.csv" in PAGE


def test_every_column_header_has_its_unit():
    for name in {record["benchmark"] for record in RECORDS}:
        rows = [record for record in RECORDS if record["benchmark"] == name]
        keys = tables._table_columns(rows)
        header, _ = tables._table_rows(rows)
        assert len(set(header)) == len(header), name  # no two columns alike
        for key, text in zip(keys, header):
            if key in tables.TIME_COLUMNS:
                assert text.endswith("(ms)"), (name, text)
            elif "ratio" in key:
                assert text.endswith("(×)"), (name, text)
            elif key.endswith(("_mb", "_mib")):
                assert text.endswith("(MiB)"), (name, text)
            elif key.endswith("_gflops"):
                assert text.endswith("GFLOP/s"), (name, text)
