"""Editing and condensing: patrec against imbalanced-learn and SciPy.

Sections (run all, or name some on the command line: versus scale):

- versus: `condense`, `edit`, repeated `edit` (``max_iter=100``) and `multiedit`
  against imbalanced-learn's ``CondensedNearestNeighbour``,
  ``EditedNearestNeighbours``, ``RepeatedEditedNearestNeighbours`` and ``AllKNN``
  (every class targeted, majority vote), on overlapping Gaussian classes: 2 and 5
  classes, d = 2 and 10, n = 2 000, 5 000, 20 000.  imbalanced-learn runs only while
  its previous size took under 15 s (so that the next finishes in about a minute).
  A last line per method gives the growth exponent of the time with n (the slope
  of log time against log n) for both libraries.
- scale: the issue's figures -- `condense` at n = 100 000 and 1 000 000 and
  `multiedit` at n = 100 000, d = 2, in units of one SciPy ``cKDTree``
  build-and-self-query (k = 2) of the same data (the "reference" column); `edit` at
  n = 20 000, d = 10, 3 classes against ``EditedNearestNeighbours``.

The algorithms are not the same: imbalanced-learn's CNN condenses one class at a
time in one pass, ours is Hart's rule over all classes until consistent; AllKNN
edits with k = 1, 2, 3 in turn, multi-edit edits on random splits.  Each pair does
the same job (a condensed or edited training set).  Single thread.
"""

import json
import sys

import _common  # noqa: F401  (sets the single-thread limits before numpy)
import numpy as np
from _common import median_time, quick, report
from imblearn.under_sampling import (
    AllKNN,
    CondensedNearestNeighbour,
    EditedNearestNeighbours,
    RepeatedEditedNearestNeighbours,
)
from scipy.spatial import cKDTree

from patrec.neighbors import condense, edit, multiedit

QUICK = quick()
SECTIONS = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
# imbalanced-learn is skipped at the next size once a run took this long
REFERENCE_BUDGET_S = 15.0


def gaussians(n, d, n_classes, seed=0):
    """Overlapping Gaussian classes: unit variance, means 1.5 apart on a line."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % n_classes
    X = rng.standard_normal((n, d))
    X[:, 0] += 1.5 * y
    return X, y


def interleaved(ours, theirs, repeats):
    """Medians of alternating runs (theirs may be None: not run)."""
    mine, others = [], []
    for _ in range(repeats):
        mine.append(median_time(ours, 1))
        if theirs is not None:
            others.append(median_time(theirs, 1))
    return float(np.median(mine)), (float(np.median(others)) if others else None)


METHODS = {
    "condense": (
        lambda X, y: condense(X, y),
        "imblearn CondensedNearestNeighbour",
        lambda X, y: CondensedNearestNeighbour(
            sampling_strategy="all", random_state=0
        ).fit_resample(X, y),
    ),
    "edit": (
        lambda X, y: edit(X, y, n_neighbors=3),
        "imblearn EditedNearestNeighbours",
        lambda X, y: EditedNearestNeighbours(
            sampling_strategy="all", n_neighbors=3, kind_sel="mode"
        ).fit_resample(X, y),
    ),
    "repeated_edit": (
        lambda X, y: edit(X, y, n_neighbors=3, max_iter=100),
        "imblearn RepeatedEditedNearestNeighbours",
        lambda X, y: RepeatedEditedNearestNeighbours(
            sampling_strategy="all", n_neighbors=3, max_iter=100, kind_sel="mode"
        ).fit_resample(X, y),
    ),
    "multiedit": (
        lambda X, y: multiedit(X, y, random_state=0),
        "imblearn AllKNN",
        lambda X, y: AllKNN(
            sampling_strategy="all", n_neighbors=3, kind_sel="mode"
        ).fit_resample(X, y),
    ),
}


def growth(sizes, times):
    """Slope of log(time) against log(n)."""
    points = [(n, t) for n, t in zip(sizes, times) if t is not None]
    if len(points) < 2:
        return None
    n, t = np.log(np.array(points)).T
    return round(float(np.polyfit(n, t, 1)[0]), 2)


def versus():
    sizes = (500, 1000, 2000) if QUICK else (2000, 5000, 20000)
    repeats = 1 if QUICK else 3
    for name, (ours, reference, theirs) in METHODS.items():
        for n_classes in (2, 5):
            for d in (2, 10):
                mine, others, skip = [], [], False
                for n in sizes:
                    X, y = gaussians(n, d, n_classes)
                    patrec_s, reference_s = interleaved(
                        lambda: ours(X, y),
                        None if skip else (lambda: theirs(X, y)),
                        repeats,
                    )
                    params = {"n": n, "d": d, "n_classes": n_classes}
                    mine.append(patrec_s)
                    others.append(reference_s)
                    if reference_s is None:
                        report(
                            name,
                            params,
                            patrec_s,
                            reference + " (skipped)",
                            float("nan"),
                        )
                    else:
                        report(name, params, patrec_s, reference, reference_s)
                        skip = reference_s > REFERENCE_BUDGET_S
                print(
                    json.dumps(
                        {
                            "benchmark": f"{name} growth exponent",
                            "params": {
                                "d": d,
                                "n_classes": n_classes,
                                "sizes": list(sizes),
                            },
                            "reference": reference,
                            "ratio": None,
                            "patrec_exponent": growth(sizes, mine),
                            "reference_exponent": growth(sizes, others),
                        }
                    ),
                    flush=True,
                )


def ckdtree_self_query(X):
    cKDTree(X).query(X, k=2)


def scale():
    repeats = 1 if QUICK else 3
    for n in (20000,) if QUICK else (100000, 1000000):
        X, y = gaussians(n, 2, 2)
        patrec_s, reference_s = interleaved(
            lambda: condense(X, y),
            lambda: ckdtree_self_query(X),
            1 if n > 100000 else repeats,
        )
        report(
            "condense vs cKDTree self-query",
            {"n": n, "d": 2, "n_classes": 2},
            patrec_s,
            "scipy cKDTree build + self-query (k=2)",
            reference_s,
            cKDTree_queries=round(patrec_s / reference_s, 1),
        )
    n = 20000 if QUICK else 100000
    X, y = gaussians(n, 2, 2)
    _, history = multiedit(X, y, random_state=0, return_history=True)
    patrec_s, reference_s = interleaved(
        lambda: multiedit(X, y, random_state=0), lambda: ckdtree_self_query(X), 1
    )
    report(
        "multiedit vs cKDTree self-query",
        {"n": n, "d": 2, "n_classes": 2},
        patrec_s,
        "scipy cKDTree build + self-query (k=2)",
        reference_s,
        cKDTree_queries=round(patrec_s / reference_s, 1),
        rounds=history.n_rounds,
    )
    n = 5000 if QUICK else 20000
    X, y = gaussians(n, 10, 3)
    patrec_s, reference_s = interleaved(
        lambda: edit(X, y),
        lambda: EditedNearestNeighbours(
            sampling_strategy="all", kind_sel="mode"
        ).fit_resample(X, y),
        repeats,
    )
    report(
        "edit",
        {"n": n, "d": 10, "n_classes": 3},
        patrec_s,
        "imblearn EditedNearestNeighbours",
        reference_s,
    )
    n = 5000
    X, y = gaussians(n, 2, 2)
    patrec_s, reference_s = interleaved(
        lambda: condense(X, y),
        lambda: CondensedNearestNeighbour(random_state=0).fit_resample(X, y),
        repeats,
    )
    report(
        "condense (imblearn defaults)",
        {"n": n, "d": 2, "n_classes": 2},
        patrec_s,
        "imblearn CondensedNearestNeighbour",
        reference_s,
    )


if __name__ == "__main__":
    for section in ("scale", "versus"):
        if not SECTIONS or section in SECTIONS:
            globals()[section]()
