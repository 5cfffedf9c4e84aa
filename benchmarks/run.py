"""Run the benchmark scripts and collect their JSON lines.

    python benchmarks/run.py                  # every benchmarks/bench_*.py
    python benchmarks/run.py neighbors linear # only bench_neighbors.py, bench_linear.py
    python benchmarks/run.py --quick          # smaller sizes, a smoke run

Each script prints one JSON line per measurement (see ``_common.py``); this runner
passes them through and ends with a summary line per measurement: the ratio of the
reference library's time to patrec's (above 1: patrec is faster).
"""

import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).parent


def main(argv):
    flags = [arg for arg in argv if arg.startswith("--")]
    names = [arg for arg in argv if not arg.startswith("--")]
    scripts = sorted(HERE.glob("bench_*.py"))
    if names:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in names]
    records = []
    for script in scripts:
        print(f"# {script.name}", file=sys.stderr, flush=True)
        process = subprocess.run(
            [sys.executable, str(script), *flags], capture_output=True, text=True
        )
        for line in process.stdout.splitlines():
            print(line, flush=True)
            if line.startswith("{"):
                records.append(json.loads(line))
        if process.returncode != 0:
            print(process.stderr, file=sys.stderr)
            return process.returncode
    print("# summary: reference time / patrec time", file=sys.stderr)
    for record in records:
        print(
            f"#   {record['benchmark']:<40} {record['reference']:<40} "
            f"{record['ratio']}",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
