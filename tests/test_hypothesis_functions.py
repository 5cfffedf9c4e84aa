"""Property-based tests (hypothesis) over every public function of patrec, and the
public methods of the neighbour searches and resamplers that the estimator file
(test_hypothesis_inputs.py) does not reach.

The data are drawn as there (`datasets`: one to six samples per class, one to eight
features, float32 or float64, magnitudes 1e-300 .. 1e300, duplicate rows, constant
columns, signed zeros, Fortran-ordered and strided views, string or integer labels);
scalar parameters are drawn over their valid range and past it.  Each call must
return what a reference computes (scipy's ``cdist``, a brute-force Hart or Wilson in
NumPy, the documented formula) or raise ValueError or TypeError with a message; never
crash, hang, return NaN silently (patrec's RuntimeWarnings are errors in this suite)
or change the caller's arrays.

`test_every_public_function_has_a_property` lists the functions of every public
module's ``__all__`` and fails on one that no test here covers.
"""

import importlib
import importlib.util
import inspect
import io
import numbers
import os
import pkgutil
import tempfile
import warnings
from contextlib import redirect_stderr, redirect_stdout
from typing import NamedTuple

import numpy as np
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from scipy.spatial.distance import cdist

import patrec
from patrec.base import clone, decision_from_scores
from patrec.cli import main
from patrec.datasets import (
    load_breast_cancer,
    load_iris,
    load_wine,
    make_banana,
    make_gaussian_classes,
    make_rings,
    make_sectors,
    make_xor,
)
from patrec.exercises import CheckResult, check, describe, names, template
from patrec.linear import code_matrix, decode, kesler_construct
from patrec.model_selection import (
    confusion_matrix,
    cross_validate,
    error_rates,
    error_reject_curve,
    sensitivity_specificity,
    standardize,
    stratified_kfold,
)
from patrec.neighbors import (
    METRICS,
    BranchBoundTree,
    Condensing,
    EditCondensing,
    Editing,
    KNeighborsClassifier,
    MultiEditing,
    condense,
    cover_hart_bounds,
    edit,
    edit_condense,
    edited_nn_error,
    multiedit,
    pairwise_distances,
)
from patrec.registry import classifier_names, get_classifier


def _load_sibling(name):
    # the tests are imported with --import-mode=importlib: no sys.path entry
    spec = importlib.util.spec_from_file_location(
        f"_patrec_tests_{name}", os.path.join(os.path.dirname(__file__), f"{name}.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


datasets = _load_sibling("test_hypothesis_inputs").datasets  # the same data strategy

# per function; the whole file runs in well under a minute (more: set the variable)
EXAMPLES = int(os.environ.get("PATREC_HYPOTHESIS_EXAMPLES", "30"))
COUNTS = {}

# Functions left out of the properties, with the reason.
EXCLUDED = {
    "patrec.plotting.regions.plot_decision_regions": (
        "draws a figure: what it draws is checked in tests/plotting/test_regions_and_search.py; "
        "hundreds of random figures would take minutes"
    ),
    "patrec.plotting.history.plot_history": (
        "draws a figure (tests/plotting/test_training.py)"
    ),
    "patrec.plotting.animation.animate_training": (
        "renders an animation (tests/plotting/test_training.py)"
    ),
    "patrec.plotting.search.plot_search": (
        "draws a figure (tests/plotting/test_regions_and_search.py)"
    ),
    "patrec.plotting.evaluation.plot_confusion_matrix": (
        "draws a figure (tests/plotting/test_evaluation.py)"
    ),
    "patrec.plotting.evaluation.plot_error_reject_curve": (
        "draws a figure (tests/plotting/test_evaluation.py)"
    ),
    "patrec.exercises.grade": (
        "runs students' files in child processes and writes a gradebook: graded on a "
        "folder of every kind of submission in tests/exercises/test_grading.py"
    ),
}


def _settings(examples=EXAMPLES):
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


def _call(name, function, *args, expect="answer", **kwargs):
    """``function(*args, **kwargs)``, or None when it raises ValueError/TypeError
    (which must say what is wrong); the caller's arrays must come back unchanged.

    ``expect`` says what the drawn input calls for:

    - "answer": an input in the function's scope; the outcome is counted under
      ``name`` and `_report` checks the share answered;
    - "refusal": a parameter the function documents as invalid; it must raise, and
      the example is then rejected (`hypothesis.reject`): it is not one of the
      examples the test runs, and hypothesis draws another;
    - "either": data too extreme for the test's reference (distances beyond the
      floating-point range, say): a clear error or an answer, not counted.
    """
    arrays = [
        (value, value.copy())
        for value in (*args, *kwargs.values())
        if isinstance(value, np.ndarray)
    ]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # lost classes, convergence
            result = function(*args, **kwargs)
    except (ValueError, TypeError) as error:
        assert str(error), "an error must say what is wrong"
        outcome, result = "refused", None
    else:
        outcome = "answered"
    for value, before in arrays:
        np.testing.assert_array_equal(value, before)
    if expect == "refusal":
        assert outcome == "refused", f"{name} accepted an invalid input"
        reject()
    if expect == "answer":
        _count(name, outcome)
    return result


def _count(name, outcome):
    COUNTS[name, outcome] = COUNTS.get((name, outcome), 0) + 1


def _report(name, answered=1.0):
    """Print how the examples in scope of ``name`` went, and check that at least the
    share ``answered`` of them was answered (a test whose examples are all refused
    would check nothing)."""
    runs = {outcome: count for (n, outcome), count in COUNTS.items() if n == name}
    total = sum(runs.values())
    print(f"{name}: {total} examples in scope {runs}")
    assert total > 0, f"no example of {name} was in scope"
    share = runs.get("answered", 0) / total
    assert share >= answered, (
        f"{name} answered {share:.0%} of {total} examples in scope; the test states "
        f"at least {answered:.0%}"
    )


def _tame(X):
    """Data whose distances and sums stay far inside the range of their dtype (the
    largest magnitude within 1e-15 .. 1e15, or all zero)."""
    largest = float(np.max(np.abs(X))) if X.size else 0.0
    return largest == 0 or 1e-15 <= largest <= 1e15


def _in_scope(tame, *valid):
    """The ``expect`` of `_call`: "refusal" when a parameter is invalid, else
    "answer" for tame data and "either" for extreme data."""
    if not all(valid):
        return "refusal"
    return "answer" if tame else "either"


def _moderate(X):
    """Float64 data whose squared distances are exact enough to compare orders."""
    largest = float(np.max(np.abs(X))) if X.size else 0.0
    return X.dtype == np.float64 and (largest == 0 or 1e-100 < largest < 1e100)


# ---------------------------------------------------------------------------------
# pairwise distances

METRIC_PARAMS = st.sampled_from(METRICS)


def _reference_distances(X, Y, metric, p, VI):
    """scipy's cdist in float64, on data scaled to the unit box (the metrics are
    homogeneous) and scaled back: no overflow where the distance itself is finite."""
    X64, Y64 = X.astype(np.float64), Y.astype(np.float64)
    scale = max(float(np.max(np.abs(X64))), float(np.max(np.abs(Y64))))
    if scale == 0:
        return np.zeros((len(X), len(Y)))
    name = {"manhattan": "cityblock", "l1": "cityblock", "l2": "euclidean"}.get(
        metric, metric
    )
    kwargs = {"p": p} if name == "minkowski" else {"VI": VI} if VI is not None else {}
    with np.errstate(over="ignore"):
        D = cdist(X64 / scale, Y64 / scale, name, **kwargs)
        return D * scale * scale if name == "sqeuclidean" else D * scale


def test_pairwise_distances_equal_cdist():
    @_settings(3 * EXAMPLES)
    @given(
        data=datasets(),
        metric=METRIC_PARAMS,
        p=st.sampled_from([1, 1.5, 2, 3.5]),
        other=st.booleans(),
        n_jobs=st.sampled_from([None, 2]),
        seed=st.integers(),
    )
    def check(data, metric, p, other, n_jobs, seed):
        X, _ = data
        Y = (
            X[::-1][: max(1, len(X) // 2)] * np.asarray(-0.5, X.dtype)
            if other
            else None
        )
        VI = _spd(X.shape[1], seed) if metric == "mahalanobis" else None
        X_before = X.copy()
        Y_before = None if Y is None else Y.copy()
        D = _call(
            "pairwise_distances",
            pairwise_distances,
            X,
            Y,
            metric,
            p=p,
            metric_params=None if VI is None else {"VI": VI},
            n_jobs=n_jobs,
            expect=_in_scope(_tame(X)),
        )
        np.testing.assert_array_equal(X, X_before)
        if Y is not None:
            np.testing.assert_array_equal(Y, Y_before)
        if D is None:
            return
        expected = _reference_distances(X, X if Y is None else Y, metric, p, VI)
        assert D.shape == expected.shape
        assert np.isfinite(D).all() and (D >= 0).all()
        scale = float(np.max(expected)) if expected.size else 0.0
        # cancellation in |x|^2 + |y|^2 - 2 x.y costs up to sqrt(eps) of the scale
        rtol = 1e-6 if X.dtype == np.float64 else 1e-3
        atol = (3e-8 if X.dtype == np.float64 else 1e-3) * scale
        if metric == "sqeuclidean":
            atol = (1e-12 if X.dtype == np.float64 else 1e-5) * scale
        # a result in the subnormal range has only the digits its dtype holds there
        atol = max(atol, 4 * float(np.finfo(D.dtype).smallest_subnormal))
        np.testing.assert_allclose(D, expected, rtol=rtol, atol=atol)

    check()
    _report("pairwise_distances")


def _spd(n, seed):
    A = np.random.default_rng(seed % 2**32).normal(size=(n, n))
    return A @ A.T + np.eye(n)


# ---------------------------------------------------------------------------------
# the neighbour searches: KNeighborsClassifier.kneighbors, BranchBoundTree.query_radius


def _rdist(A, B, metric="euclidean"):
    """Reduced distances in float64, each a sum over the features in order (as the
    kernels add): squared Euclidean, city-block or Chebyshev."""
    A, B = A.astype(np.float64), B.astype(np.float64)
    D = np.zeros((len(A), len(B)))
    for f in range(A.shape[1]):
        diff = np.abs(A[:, None, f] - B[None, :, f])
        if metric == "euclidean":
            D += diff * diff
        elif metric == "cityblock":
            D += diff
        else:
            D = np.maximum(D, diff)
    return D


def _ordered(D):
    """Column order of each row by (distance, column)."""
    columns = np.broadcast_to(np.arange(D.shape[1]), D.shape)
    return np.lexsort((columns, D), axis=1)


def test_kneighbors_is_exact():
    @_settings()
    @given(
        data=datasets(),
        k=st.integers(0, 5),
        training=st.booleans(),
        algorithm=st.sampled_from(["auto", "brute", "bnb"]),
        metric=st.sampled_from(["euclidean", "cityblock", "chebyshev"]),
    )
    def check(data, k, training, algorithm, metric):
        X, y = data
        X_before = X.copy()
        clf = _call(
            "KNeighborsClassifier.fit",
            KNeighborsClassifier(algorithm=algorithm, metric=metric).fit,
            X,
            y,
            expect=_in_scope(_tame(X)),
        )
        if clf is None:
            return
        queries = None if training else X[::-1] * np.asarray(0.5, X.dtype)
        found = _call(
            "KNeighborsClassifier.kneighbors",
            clf.kneighbors,
            queries,
            k,
            expect=_in_scope(_tame(X), 1 <= k <= len(X) - training),
        )
        np.testing.assert_array_equal(X, X_before)
        if found is None:
            return
        distances, indices = found
        assert np.isfinite(distances).all()
        assert (np.diff(distances, axis=1) >= 0).all()
        if not _moderate(X):
            return
        D = _rdist(X if training else queries, X, metric)
        if training:  # each training sample without itself
            np.fill_diagonal(D, np.inf)
        np.testing.assert_array_equal(indices, _ordered(D)[:, :k])

    check()
    _report("KNeighborsClassifier.fit")
    _report("KNeighborsClassifier.kneighbors")


def test_build_index_answers_what_brute_force_answers():
    """Whatever ``algorithm`` names (scikit-learn's tree names included) and whatever
    ``auto`` chooses, the index built answers brute force's neighbours, and the
    choice is the one `choose_algorithm` makes."""
    from patrec.neighbors import BruteForce
    from patrec.neighbors.search import build_index, choose_algorithm

    @_settings()
    @given(
        data=datasets(),
        k=st.integers(1, 4),
        algorithm=st.sampled_from(["auto", "brute", "bnb", "kd_tree", "ball_tree"]),
        metric=st.sampled_from(["euclidean", "cityblock", "chebyshev"]),
    )
    def check(data, k, algorithm, metric):
        X, _ = data
        if not _moderate(X):
            return
        index, built = build_index(X, metric, algorithm=algorithm, k=k)
        assert built in ("brute", "bnb")
        if algorithm == "auto":
            assert built == choose_algorithm(*X.shape, metric, X=X, k=k)
        k = min(k, len(X))
        np.testing.assert_array_equal(
            index.query(X, k)[1], BruteForce(X, metric).query(X, k)[1]
        )

    check()


def test_query_radius_is_exact():
    @_settings()
    @given(data=datasets(), fraction=st.floats(0, 2), return_distance=st.booleans())
    def check(data, fraction, return_distance):
        X, _ = data
        X_before = X.copy()
        tree = _call("BranchBoundTree", BranchBoundTree, X, expect=_in_scope(_tame(X)))
        if tree is None:
            return
        queries = X[::-1] * np.asarray(0.5, X.dtype)
        r = fraction * float(np.max(np.abs(X)))
        found = _call(
            "BranchBoundTree.query_radius",
            tree.query_radius,
            queries,
            r,
            return_distance=return_distance,
            expect=_in_scope(_tame(X)),
        )
        np.testing.assert_array_equal(X, X_before)
        if found is None or not _moderate(X):
            return
        indices = found[0] if return_distance else found
        D = np.sqrt(_rdist(queries, X))
        for row, hits in zip(D, indices):
            inside = np.flatnonzero(row <= r * (1 - 1e-9))
            outside = np.flatnonzero(row > r * (1 + 1e-9))
            assert set(inside.tolist()) <= set(hits.tolist())
            assert not set(outside.tolist()) & set(hits.tolist())
            assert (np.diff(row[hits]) >= -1e-12 * max(r, 1e-300)).all()
        if return_distance:
            for row, hits, distances in zip(D, indices, found[1]):
                np.testing.assert_allclose(
                    distances, row[hits], rtol=1e-6, atol=1e-7 * max(r, 1e-300)
                )

    check()
    _report("BranchBoundTree")
    _report("BranchBoundTree.query_radius")


# ---------------------------------------------------------------------------------
# editing and condensing: references in NumPy, one sample at a time


def _codes(y):
    classes = np.unique(y)
    return classes, np.searchsorted(classes, y)


@st.composite
def editing_cases(draw):
    X, y = draw(datasets())
    classes = np.unique(y)
    targets = draw(
        st.one_of(
            st.none(),
            st.lists(st.sampled_from(classes.tolist()), min_size=1, unique=True),
        )
    )
    metric = draw(st.sampled_from(["euclidean", "cityblock", "chebyshev"]))
    return X, y, targets, metric


def _targeted(classes, targets):
    return np.ones(len(classes), bool) if targets is None else np.isin(classes, targets)


def _reference_edit(X, codes, targeted, k, max_iter, kind_sel, metric):
    """Wilson's editing, round by round, by brute force."""
    n_classes = codes.max() + 1
    alive = np.arange(len(X))
    for _ in range(max_iter):
        if len(alive) <= k:
            break
        D = _rdist(X[alive], X[alive], metric)
        np.fill_diagonal(D, np.inf)  # leave one out (a duplicate of it still counts)
        own = codes[alive]
        votes = own[_ordered(D)[:, :k]]
        if kind_sel == "mode":
            counts = np.array([np.bincount(row, minlength=n_classes) for row in votes])
            wrong = counts.argmax(axis=1) != own  # equal votes: the first class
        else:
            wrong = (votes != own[:, None]).any(axis=1)
        wrong &= targeted[own]
        if not wrong.any():
            break
        alive = alive[~wrong]
    return alive


def _check_kept(kept, n):
    assert kept.dtype == np.intp and kept.ndim == 1
    assert (np.diff(kept) > 0).all() and (
        kept.size == 0 or 0 <= kept[0] and kept[-1] < n
    )


def _run_editing(function, X, y, targets, *valid, **params):
    """Call an editing function with ``return_history=True`` (None when refused),
    check what every answer shares, and return ``(kept, history, codes, targeted)``:
    the inputs untouched, sorted indices kept, the untargeted classes all kept."""
    X_before, y_before = X.copy(), y.copy()
    found = _call(
        function.__name__,
        function,
        X,
        y,
        target_classes=targets,
        return_history=True,
        expect=_in_scope(_tame(X), *valid),
        **params,
    )
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)
    if found is None:
        return None
    kept, history = found
    _check_kept(kept, len(X))
    classes, codes = _codes(y)
    targeted = _targeted(classes, targets)
    assert np.isin(np.flatnonzero(~targeted[codes]), kept).all()
    return kept, history, codes, targeted


def test_edit_equals_wilsons_rule_by_brute_force():
    @_settings()
    @given(
        case=editing_cases(),
        k=st.integers(0, 5),
        max_iter=st.integers(0, 3),
        kind_sel=st.sampled_from(["mode", "all"]),
    )
    def check(case, k, max_iter, kind_sel):
        X, y, targets, metric = case
        found = _run_editing(
            edit,
            X,
            y,
            targets,
            1 <= k < len(X),
            max_iter >= 1,
            n_neighbors=k,
            max_iter=max_iter,
            kind_sel=kind_sel,
            metric=metric,
        )
        if found is None:
            return
        kept, _, codes, targeted = found
        if _moderate(X):
            np.testing.assert_array_equal(
                kept, _reference_edit(X, codes, targeted, k, max_iter, kind_sel, metric)
            )

    check()
    _report("edit")


def _check_multiedit_history(X, codes, targeted, history, metric, n_splits, max_iter):
    """Replay multi-edit's rounds: each subset judged by 1-NN in the next one
    (ties: the judging sample first in its subset); returns the survivors."""
    alive = np.arange(len(X))
    assert len(history.rounds) <= max_iter
    for step in history.rounds:
        assert len(step.subsets) == n_splits
        np.testing.assert_array_equal(np.sort(np.concatenate(step.subsets)), alive)
        for i, judged in enumerate(step.subsets):
            judge = step.subsets[(i + 1) % n_splits]
            nearest = judge[np.argmin(_rdist(X[judged], X[judge], metric), axis=1)]
            wrong = (codes[nearest] != codes[judged]) & targeted[codes[judged]]
            np.testing.assert_array_equal(
                np.sort(judged[wrong]), np.sort(step.discarded[i])
            )
        alive = np.setdiff1d(alive, np.concatenate(step.discarded))
    return alive


def test_multiedit_replays_by_brute_force():
    @_settings()
    @given(
        case=editing_cases(),
        n_splits=st.integers(1, 5),
        max_iter=st.integers(0, 4),
        seed=st.integers(0, 100),
    )
    def check(case, n_splits, max_iter, seed):
        X, y, targets, metric = case
        found = _run_editing(
            multiedit,
            X,
            y,
            targets,
            2 <= n_splits <= len(X),
            max_iter >= 1,
            n_splits=n_splits,
            max_iter=max_iter,
            metric=metric,
            random_state=seed,
        )
        if found is None:
            return
        kept, history, codes, targeted = found
        if _moderate(X):
            np.testing.assert_array_equal(
                kept,
                _check_multiedit_history(
                    X, codes, targeted, history, metric, n_splits, max_iter
                ),
            )

    check()
    _report("multiedit")


def _reference_condense(X, codes, targeted, order, metric):
    """Hart's rule one sample at a time; the stored samples in the order stored."""
    D = _rdist(X, X, metric)
    store = [i for i in order if not targeted[codes[i]]] or [order[0]]
    while True:
        added = False
        for i in order:
            if i in store:
                continue
            nearest = store[int(np.argmin(D[i, store]))]  # ties: stored first
            if codes[nearest] != codes[i]:
                store.append(i)
                added = True
        if not added:
            return np.asarray(store)


def test_condense_equals_harts_rule_one_at_a_time():
    @_settings()
    @given(
        case=editing_cases(),
        seed=st.one_of(st.none(), st.integers(0, 100)),
        n_jobs=st.sampled_from([None, 2]),
    )
    def check(case, seed, n_jobs):
        X, y, targets, metric = case
        found = _run_editing(
            condense, X, y, targets, metric=metric, random_state=seed, n_jobs=n_jobs
        )
        if found is None:
            return
        kept, history, codes, targeted = found
        np.testing.assert_array_equal(np.sort(history.order), np.arange(len(X)))
        if seed is None:
            np.testing.assert_array_equal(history.order, np.arange(len(X)))
        if _moderate(X):
            stored = _reference_condense(X, codes, targeted, history.order, metric)
            np.testing.assert_array_equal(history.stored, stored)
            np.testing.assert_array_equal(kept, np.sort(stored))

    check()
    _report("condense")


def test_edit_condense_is_multiedit_then_hart():
    @_settings()
    @given(
        case=editing_cases(),
        n_splits=st.integers(2, 4),
        seed=st.one_of(st.none(), st.integers(0, 100)),
    )
    def check(case, n_splits, seed):
        X, y, targets, metric = case
        found = _run_editing(
            edit_condense,
            X,
            y,
            targets,
            n_splits <= len(X),
            n_splits=n_splits,
            max_iter=3,
            metric=metric,
            random_state=seed,
        )
        if found is None or not _moderate(X):
            return
        kept, history, codes, targeted = found
        edited = _check_multiedit_history(
            X, codes, targeted, history.multiedit, metric, n_splits, 3
        )
        assert np.isin(kept, edited).all()
        if edited.shape[0]:
            order = history.condense.order
            np.testing.assert_array_equal(np.sort(order), edited)
            stored = _reference_condense(X, codes, targeted, order, metric)
            np.testing.assert_array_equal(kept, np.sort(stored))

    check()
    _report("edit_condense")


RESAMPLERS = {
    Editing: edit,
    MultiEditing: multiedit,
    Condensing: condense,
    EditCondensing: edit_condense,
}
# the fewest samples each resampler's defaults accept (n_neighbors=3 other samples,
# n_splits=3 subsets)
FEWEST = {Editing: 4, MultiEditing: 3, Condensing: 1, EditCondensing: 3}


@pytest.mark.parametrize("sampler", RESAMPLERS, ids=lambda cls: cls.__name__)
def test_resamplers_return_the_rows_their_function_keeps(sampler):
    function = RESAMPLERS[sampler]

    @_settings(EXAMPLES // 2)
    @given(
        case=editing_cases(),
        strategy=st.sampled_from(
            ["auto", "all", "majority", "not minority", "not majority"]
        ),
    )
    def check(case, strategy):
        seed = 0
        X, y, _, metric = case
        X_before, y_before = X.copy(), y.copy()
        params = {"metric": metric}
        if "random_state" in sampler().get_params():
            params["random_state"] = seed
        resampler = sampler(sampling_strategy=strategy, **params)
        found = _call(
            f"{sampler.__name__}.fit_resample",
            resampler.fit_resample,
            X,
            y,
            expect=_in_scope(_tame(X), len(X) >= FEWEST[sampler]),
        )
        np.testing.assert_array_equal(X, X_before)
        np.testing.assert_array_equal(y, y_before)
        if found is None:
            assert not hasattr(resampler, "sample_indices_")
            return
        X_kept, y_kept = found
        kept = resampler.sample_indices_
        _check_kept(kept, len(X))
        assert X_kept.dtype == X.dtype
        np.testing.assert_array_equal(X_kept, X[kept])
        np.testing.assert_array_equal(y_kept, y[kept])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            expected = function(
                X, y, target_classes=list(resampler.sampling_strategy_), **params
            )
        np.testing.assert_array_equal(kept, expected)

    check()
    _report(f"{sampler.__name__}.fit_resample")


# ---------------------------------------------------------------------------------
# the error bounds

RATES = st.one_of(
    st.floats(-0.5, 1.5),
    st.sampled_from([np.nan, np.inf, 0, 1, 0.5]),
    st.sampled_from(["0.1", None, True]),
)
CLASS_COUNTS = st.one_of(
    st.integers(-1, 12), st.sampled_from([2.0, "3", None, np.int64(3)])
)


def _valid_rate(error, n_classes):
    """Whether ``error`` is an error rate of ``n_classes`` classes (the domain of
    the bounds)."""
    integer = isinstance(n_classes, numbers.Integral) and not isinstance(
        n_classes, bool
    )
    if not integer or n_classes < 2:
        return False
    real = isinstance(error, numbers.Real) and not isinstance(error, bool)
    return real and 0 <= error <= (n_classes - 1) / n_classes


def test_cover_hart_bounds_follow_the_formula():
    @_settings(3 * EXAMPLES)
    @given(error=RATES, n_classes=CLASS_COUNTS)
    def check(error, n_classes):
        found = _call(
            "cover_hart_bounds",
            cover_hart_bounds,
            error,
            n_classes,
            expect=_in_scope(True, _valid_rate(error, n_classes)),
        )
        if found is None:
            return
        lower, upper = found
        c = int(n_classes)
        assert c >= 2 and 0 <= error <= (c - 1) / c
        assert lower == error
        assert upper == pytest.approx(error * (2 - c / (c - 1) * error))
        assert lower <= upper <= min(2 * lower, 1)

    check()
    _report("cover_hart_bounds")


def test_edited_nn_error_is_an_error_rate_below_the_unedited_one():
    @_settings(3 * EXAMPLES)
    @given(error=RATES, n_classes=CLASS_COUNTS)
    def check(error, n_classes):
        valid = _valid_rate(error, n_classes) and error <= 0.5  # Wilson's two classes
        found = _call(
            "edited_nn_error",
            edited_nn_error,
            error,
            n_classes,
            expect=_in_scope(True, valid),
        )
        if found is None:
            return
        assert int(n_classes) >= 2 and 0 <= error
        assert found == pytest.approx(error / (2 * (1 - error)))
        assert 0 <= found <= error  # editing never does worse

    check()
    _report("edited_nn_error")


# ---------------------------------------------------------------------------------
# the linear module: Kesler's construction, output codes


def test_kesler_construct_places_the_augmented_sample():
    @_settings(2 * EXAMPLES)
    @given(
        data=datasets(),
        extra=_mostly(st.integers(0, 2), st.integers(-2, -1)),
        seed=st.integers(0, 99),
        as_list=st.booleans(),
    )
    def check(data, extra, seed, as_list):
        X, _ = data
        X_before = X.copy()
        labels = np.random.default_rng(seed).integers(0, 4, size=len(X))
        n_classes = int(labels.max()) + 1 + extra  # (too few when extra < 0)
        if seed % 10 == 0:
            labels[0] = -1  # out of range
        psi = _call(
            "kesler_construct",
            kesler_construct,
            X.tolist() if as_list else X,
            labels,
            n_classes,
            expect=_in_scope(True, 0 <= labels.min(), labels.max() < n_classes),
        )
        np.testing.assert_array_equal(X, X_before)
        if psi is None:
            return
        assert ((0 <= labels) & (labels < n_classes)).all()
        n, d = X.shape
        expected = np.zeros((n, n_classes * (d + 1)))
        for i, label in enumerate(labels):
            expected[i, label * (d + 1) : (label + 1) * (d + 1)] = np.r_[X[i], 1.0]
        assert psi.dtype == (
            np.float64 if as_list else np.promote_types(X.dtype, np.float32)
        )
        np.testing.assert_array_equal(psi, expected.astype(psi.dtype))

    check()
    _report("kesler_construct")


RANDOM_CODES = ["dense-random", "sparse-random"]
CODES = ["one-vs-all", "all-pairs", *RANDOM_CODES]


def test_code_matrix_is_a_valid_code():
    @_settings(2 * EXAMPLES)
    @given(
        code=st.sampled_from(CODES + ["exhaustive", 3]),
        n_classes=st.integers(-1, 9),
        seed=st.integers(0, 99),
        n_columns=st.one_of(st.none(), st.integers(-1, 12)),
    )
    def check(code, n_classes, seed, n_columns):
        M = _call(
            "code_matrix",
            code_matrix,
            code,
            n_classes,
            random_state=seed,
            n_columns=n_columns,
            # a random code of a given width may have too few columns to tell
            # the classes apart: refused or answered
            expect=_in_scope(
                n_columns is None,
                code in CODES,
                n_classes >= 2,
                n_columns is None or (code in RANDOM_CODES and n_columns >= 1),
            ),
        )
        if M is None:
            return
        assert M.shape[0] == n_classes >= 2 and M.dtype.kind == "i"
        assert np.isin(M, [-1, 0, 1]).all()
        if n_columns is not None:
            assert M.shape[1] == n_columns
        if code == "one-vs-all":
            np.testing.assert_array_equal(M, 2 * np.eye(n_classes, dtype=int) - 1)
        elif code == "all-pairs":
            assert M.shape[1] == n_classes * (n_classes - 1) // 2
        # every column splits the classes; no two classes share a code word
        assert ((M == 1).any(axis=0) & (M == -1).any(axis=0)).all()
        assert len({tuple(row) for row in M.tolist()}) == n_classes
        assert (M != 0).any(axis=1).all()
        np.testing.assert_array_equal(
            M, code_matrix(code, n_classes, random_state=seed, n_columns=n_columns)
        )

    check()
    _report("code_matrix")


LOSSES = {
    "hinge": lambda z: np.maximum(0.0, 1.0 - z),
    "exp": lambda z: np.exp(-z),
    "log": lambda z: np.logaddexp(0.0, -z),
}


def test_decode_picks_the_nearest_code_word():
    @_settings(2 * EXAMPLES)
    @given(
        code=st.sampled_from(CODES),
        n_classes=st.integers(2, 6),
        n_samples=st.integers(1, 5),
        exponent=st.integers(-300, 300),
        seed=st.integers(0, 99),
        method=st.sampled_from(["hamming", "loss"]),
        loss=st.sampled_from(["hinge", "exp", "log"]),
        one=st.booleans(),
    )
    def check(code, n_classes, n_samples, exponent, seed, method, loss, one):
        M = code_matrix(code, n_classes, random_state=seed)
        rng = np.random.default_rng(seed)
        F = rng.normal(size=(n_samples, M.shape[1])) * 10.0**exponent
        F[0, 0] = -0.0
        if one:
            F = F[0]
        F_before = F.copy()
        overflows = method == "loss" and loss == "exp" and exponent > 2
        found = _call(
            "decode",
            decode,
            M,
            F,
            method=method,
            loss=loss,
            return_distances=True,
            expect=_in_scope(not overflows),
        )
        np.testing.assert_array_equal(F, F_before)
        if found is None:
            return
        indices, distances = found
        F2 = np.atleast_2d(F)
        margins = F2[:, None, :] * M[None, :, :]
        with np.errstate(over="ignore"):
            expected = (
                ((1 - np.sign(margins)) / 2).sum(axis=2)
                if method == "hamming"
                else LOSSES[loss](margins).sum(axis=2)
            )
        assert np.isfinite(distances).all()
        np.testing.assert_allclose(distances, expected, rtol=1e-12)
        np.testing.assert_array_equal(indices, np.argmin(expected, axis=1))

    check()
    _report("decode")


# ---------------------------------------------------------------------------------
# model selection


def _fewest_per_class(y):
    return int(np.unique(y, return_counts=True)[1].min())


def test_stratified_kfold_partitions_every_class():
    @_settings()
    @given(
        data=datasets(),
        n_splits=st.integers(0, 7),
        shuffle=st.booleans(),
        seed=st.integers(0, 99),
    )
    def check(data, n_splits, shuffle, seed):
        _, y = data
        y_before = y.copy()
        folds = _call(
            "stratified_kfold",
            lambda: list(
                stratified_kfold(y, n_splits, shuffle=shuffle, random_state=seed)
            ),
            expect=_in_scope(True, 2 <= n_splits <= _fewest_per_class(y)),
        )
        np.testing.assert_array_equal(y, y_before)
        if folds is None:
            return
        assert len(folds) == n_splits
        tests = [test for _, test in folds]
        np.testing.assert_array_equal(np.sort(np.concatenate(tests)), np.arange(len(y)))
        for train, test in folds:
            np.testing.assert_array_equal(
                np.sort(np.r_[train, test]), np.arange(len(y))
            )
        sizes = [len(test) for test in tests]
        assert max(sizes) - min(sizes) <= 1
        for label in np.unique(y):
            per_fold = [int((y[test] == label).sum()) for test in tests]
            assert min(per_fold) >= 1 and max(per_fold) - min(per_fold) <= 1

    check()
    _report("stratified_kfold")


def _reference_standardize(X_train, X_test):
    """In float64, on data scaled to the unit box per column (no overflow)."""
    A, B = X_train.astype(np.float64), X_test.astype(np.float64)
    top = np.max(np.abs(A), axis=0)
    top[top == 0] = 1.0
    mean = (A / top).mean(axis=0)
    std = (A / top).std(axis=0)
    constant = np.ptp(A, axis=0) == 0
    std[constant] = 1.0
    return (A / top - mean) / std, (B / top - mean) / std, constant, top


def test_standardize_centres_and_scales():
    @_settings()
    @given(data=datasets(), as_list=st.booleans())
    def check(data, as_list):
        X, _ = data
        X_test = X[::-1] * np.asarray(0.5, X.dtype)
        X_before, test_before = X.copy(), X_test.copy()
        found = _call(
            "standardize",
            standardize,
            X.tolist() if as_list else X,
            X_test.tolist() if as_list else X_test,
        )
        np.testing.assert_array_equal(X, X_before)
        np.testing.assert_array_equal(X_test, test_before)
        if found is None:
            return
        train, test = found
        assert np.isfinite(train).all() and np.isfinite(test).all()
        expected_train, expected_test, constant, top = _reference_standardize(X, X_test)
        tol = 1e-6 if X.dtype == np.float64 and not as_list else 1e-3
        # a constant feature is centred only: exactly 0 on the training data
        assert (train[:, constant] == 0).all()
        np.testing.assert_allclose(
            train[:, ~constant], expected_train[:, ~constant], rtol=tol, atol=tol
        )
        np.testing.assert_allclose(
            test[:, ~constant], expected_test[:, ~constant], rtol=tol, atol=tol
        )

    check()
    _report("standardize")


@st.composite
def predictions(draw):
    """True and predicted labels (ints or strings), some predictions rejected."""
    n = draw(st.integers(1, 30))
    n_classes = draw(st.integers(1, 4))
    text = draw(st.booleans())
    names = np.array(["ant", "bee", "cow", "doe"]) if text else np.array([3, 7, 9, 11])
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    y_true = names[rng.integers(0, n_classes, n)]
    y_pred = names[rng.integers(0, n_classes, n)]
    reject = draw(st.sampled_from([None, "?" if text else -1]))
    if reject is not None:
        y_pred = y_pred.astype(object)
        y_pred[rng.random(n) < 0.3] = reject
    return y_true, y_pred, reject


def test_evaluation_counts_add_up():
    @_settings(2 * EXAMPLES)
    @given(case=predictions(), positive_first=st.booleans())
    def check(case, positive_first):
        y_true, y_pred, reject = case
        C = _call(
            "confusion_matrix", confusion_matrix, y_true, y_pred, reject_label=reject
        )
        rates = _call("error_rates", error_rates, y_true, y_pred, reject_label=reject)
        labels = rates["labels"].tolist()
        n = len(labels)
        assert C.shape == (n, n + (reject is not None)) and C.sum() == len(y_true)
        for i, label in enumerate(labels):  # row i: the samples of class i
            assert C[i].sum() == sum(t == label for t in y_true.tolist())
        wrong = sum(
            t != p and not (reject is not None and p == reject)
            for t, p in zip(y_true.tolist(), y_pred.tolist())
        )
        assert rates["error"] == pytest.approx(wrong / len(y_true))
        accepted = C[:, :n].sum()
        assert rates["reject_rate"] == pytest.approx(1 - accepted / len(y_true))
        two = n == 2  # (the classes of y_true and y_pred together)
        positive = labels[0 if positive_first else -1]
        found = _call(
            "sensitivity_specificity",
            sensitivity_specificity,
            y_true,
            y_pred,
            positive=positive,
            reject_label=reject,
            expect=_in_scope(True, two),
        )
        if found is not None:
            p = labels.index(positive)
            for share, row in zip(found, (p, 1 - p)):
                right = C[row, row]
                total = C[row, :n].sum()
                assert (
                    share == pytest.approx(right / total) if total else np.isnan(share)
                )

    check()
    _report("confusion_matrix")
    _report("error_rates")
    _report("sensitivity_specificity")


def test_error_reject_curve_is_monotone_and_ends_rejecting_all():
    @_settings()
    @given(data=datasets(), k=st.integers(1, 5))
    def check(data, k):
        X, y = data
        clf = KNeighborsClassifier(n_neighbors=min(k, len(X)))
        fitted = _call("fit before the curve", clf.fit, X, y, expect="either")
        if fitted is None:
            return
        curve = _call(
            "error_reject_curve",
            error_reject_curve,
            clf,
            X,
            y,
            expect=_in_scope(_tame(X)),
        )
        if curve is None:
            return
        assert curve["threshold"][0] == 0 and curve["reject_rate"][-1] == 1
        assert curve["error"][-1] == 0 and np.isnan(curve["accepted_error"][-1])
        assert (np.diff(curve["threshold"]) > 0).all()
        assert (np.diff(curve["reject_rate"]) >= 0).all()
        assert (np.diff(curve["error"]) <= 0).all()
        assert curve["error"][0] == np.mean(clf.predict(X) != y)

    check()
    _report("error_reject_curve")


def test_cross_validate_equals_a_loop_over_the_folds():
    @_settings()
    @given(
        data=datasets(),
        cv=_mostly(st.integers(2, 3), st.integers(0, 4)),
        scale=st.booleans(),
        seed=st.integers(0, 99),
    )
    def check(data, cv, scale, seed):
        X, y = data
        X_before = X.copy()
        estimator = get_classifier("knn")(n_neighbors=1)
        result = _call(
            "cross_validate",
            cross_validate,
            estimator,
            X,
            y,
            cv=cv,
            random_state=seed,
            scale=scale,
            expect=_in_scope(_tame(X), 2 <= cv <= _fewest_per_class(y)),
        )
        np.testing.assert_array_equal(X, X_before)
        if result is None:
            return
        assert set(result) == {"error", "fit_time", "predict_time"}
        assert all(len(values) == cv for values in result.values())
        errors = []
        for train, test in stratified_kfold(y, cv, random_state=seed):
            X_train, X_test = X[train], X[test]
            if scale:
                X_train, X_test = standardize(X_train, X_test)
            model = clone(estimator).fit(X_train, y[train])
            errors.append(np.mean(model.predict(X_test) != y[test]))
        np.testing.assert_array_equal(result["error"], errors)

    check()
    _report("cross_validate")


# ---------------------------------------------------------------------------------
# data sets


def _mostly(valid, invalid):
    """Mostly ``valid`` values, sometimes ``invalid`` ones (so that a draw of several
    parameters is often valid as a whole)."""
    return st.one_of(valid, valid, valid, invalid)


class _Drawn(NamedTuple):
    value: object
    valid: bool


def _flagged(valid, invalid):
    """`_mostly`, each value drawn as a `_Drawn` that says which kind it is."""
    return _mostly(
        valid.map(lambda value: _Drawn(value, True)),
        invalid.map(lambda value: _Drawn(value, False)),
    )


COUNT = _flagged(st.integers(4, 40), st.integers(-1, 1))
NOISE = _flagged(st.floats(0, 2), st.sampled_from([-0.5, np.nan, np.inf]))

GENERATORS = {
    "make_sectors": lambda draw, seed: make_sectors(
        n_classes=draw(_flagged(st.integers(2, 5), st.integers(-1, 1))),
        n_samples=draw(_flagged(st.integers(5, 40), st.integers(-1, 1))),
        gap=draw(
            _flagged(
                st.none() | st.floats(0, 0.6), st.sampled_from([-0.1, 2.0, np.nan])
            )
        ),
        random_state=seed,
    ),
    "make_xor": lambda draw, seed: make_xor(
        n_samples=draw(COUNT), noise=draw(NOISE), random_state=seed
    ),
    "make_rings": lambda draw, seed: make_rings(
        n_samples=draw(COUNT),
        n_classes=draw(_flagged(st.integers(2, 4), st.integers(-1, 1))),
        noise=draw(NOISE),
        factor=draw(
            _flagged(st.floats(0.05, 0.95), st.sampled_from([0.0, 1.5, np.nan]))
        ),
        random_state=seed,
    ),
    "make_banana": lambda draw, seed: make_banana(
        n_samples=draw(COUNT), noise=draw(NOISE), random_state=seed
    ),
    "make_gaussian_classes": lambda draw, seed: make_gaussian_classes(
        means=draw(
            st.one_of(
                st.none(),
                st.integers(1, 4).flatmap(
                    lambda c: st.integers(1, 3).map(
                        lambda d: np.arange(c * d, dtype=float).reshape(c, d)
                    )
                ),
            )
        ),
        covariances=draw(
            _flagged(
                st.sampled_from([1.0, 0.0, 1e-300, 1e300]),
                st.sampled_from([-1.0, np.nan, [1.0] * 5]),  # (at most 4 classes)
            )
        ),
        n_per_class=draw(
            _flagged(st.integers(1, 6), st.sampled_from([0, -1, [1] * 5]))
        ),
        random_state=seed,
    ),
}


@pytest.mark.parametrize("name", GENERATORS)
def test_generators_draw_what_they_promise(name):
    @_settings()
    @given(data=st.data(), seed=st.integers(0, 99))
    def check(data, seed):
        draws, valid = [], []

        def draw(strategy):
            value = data.draw(strategy)
            if isinstance(value, _Drawn):
                value, ok = value
                valid.append(ok)
            draws.append(value)
            return value

        # (whether the drawn parameters are valid is known once they are drawn)
        found = _call(name, GENERATORS[name], draw, seed, expect="either")
        if not all(valid):
            assert found is None, f"{name} accepted an invalid parameter"
            reject()
        _count(name, "refused" if found is None else "answered")
        if found is None:
            return
        X, y = found
        assert X.dtype == np.float64 and X.ndim == 2 and np.isfinite(X).all()
        assert y.shape == (len(X),) and y.dtype == np.intp and (y >= 0).all()
        replay = iter(draws)
        again = GENERATORS[name](lambda strategy: next(replay), seed)
        np.testing.assert_array_equal(again[0], X)  # the same seed, the same draw
        np.testing.assert_array_equal(again[1], y)

    check()
    _report(name)


@pytest.mark.parametrize(
    "loader", [load_iris, load_wine, load_breast_cancer], ids=lambda f: f.__name__
)
def test_loaders_return_fresh_arrays(loader):
    @_settings(EXAMPLES // 3)
    @given(return_X_y=st.sampled_from([True, False, 0, 1, None, "yes"]))
    def check(return_X_y):
        found = _call(
            loader.__name__,
            loader,
            return_X_y=return_X_y,
            expect=_in_scope(True, isinstance(return_X_y, bool)),
        )
        if found is None:
            return
        X, y = found if isinstance(found, tuple) else (found.data, found.target)
        assert np.isfinite(X).all() and len(X) == len(y)
        X[:] = np.nan  # the caller may write into what it got
        fresh = loader(return_X_y=True)[0]
        assert np.isfinite(fresh).all()

    check()
    _report(loader.__name__)


# ---------------------------------------------------------------------------------
# base, registry, command line


def test_decision_from_scores():
    @_settings()
    @given(
        n_samples=st.integers(0, 4),
        n_classes=st.integers(1, 4),
        exponent=st.integers(-300, 300),
        seed=st.integers(0, 99),
        dtype=st.sampled_from([np.float64, np.float32]),
    )
    def check(n_samples, n_classes, exponent, seed, dtype):
        if dtype == np.float32:
            exponent = exponent // 10
        scores = (
            np.random.default_rng(seed).normal(size=(n_samples, n_classes))
            * 10.0**exponent
        ).astype(dtype)
        before = scores.copy()
        found = _call("decision_from_scores", decision_from_scores, scores)
        np.testing.assert_array_equal(scores, before)
        if found is None:
            return
        expected = scores[:, 1] - scores[:, 0] if n_classes == 2 else scores
        np.testing.assert_array_equal(found, expected)

    check()
    _report("decision_from_scores")


def test_clone_copies_the_parameters_only():
    @_settings()
    @given(name=st.sampled_from(classifier_names()), data=datasets(), fit=st.booleans())
    def check(name, data, fit):
        estimator = get_classifier(name)()
        if fit:
            _call("fit before clone", estimator.fit, *data, expect="either")
        copy = _call("clone", clone, estimator)
        assert copy is not None and type(copy) is type(estimator)
        assert copy is not estimator
        assert not [key for key in vars(copy) if key.endswith("_")]
        params, copied = estimator.get_params(), copy.get_params()
        assert params.keys() == copied.keys()
        for key, value in params.items():
            assert copied[key] is value or copied[key] == value

    check()
    _report("clone")

    for thing in (None, 3, "knn", object(), KNeighborsClassifier):
        with pytest.raises(TypeError, match="needs an estimator instance"):
            clone(thing)


def test_registry_names_and_lookup():
    names = _call("classifier_names", classifier_names)
    assert len(names) == len(set(names)) and all(isinstance(n, str) for n in names)

    @_settings(2 * EXAMPLES)
    @given(
        name=st.one_of(
            st.sampled_from(names), st.text(max_size=12), st.integers(), st.none()
        )
    )
    def check(name):
        cls = _call(
            "get_classifier",
            get_classifier,
            name,
            expect=_in_scope(True, isinstance(name, str) and name in names),
        )
        if cls is not None:
            assert name in names and inspect.isclass(cls)
            assert hasattr(cls(), "fit") and hasattr(cls(), "predict")

    check()
    _report("classifier_names")
    _report("get_classifier")


def test_command_line_compares_or_explains():
    @_settings(EXAMPLES // 3)
    @given(data=datasets(), cv=st.integers(1, 3), seed=st.integers(0, 9))
    def check(data, cv, seed):
        X, y = data
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "data.csv")
            with open(path, "w") as file:
                names = [f"f{j}" for j in range(X.shape[1])]
                file.write(",".join(names + ["label"]) + "\n")
                for row, label in zip(X.tolist(), y.tolist()):
                    file.write(",".join(map(repr, row)) + f",{label}\n")
            out, err = io.StringIO(), io.StringIO()
            with redirect_stdout(out), redirect_stderr(err):
                code = _call(
                    "main",
                    main,
                    [
                        "compare",
                        "--data",
                        path,
                        "--target",
                        "label",
                        "--cv",
                        str(cv),
                        "--seed",
                        str(seed),
                        "--classifiers",
                        "minimum-distance",
                        "knn",
                        "--quiet",
                    ],
                )
        assert code in (0, 2), (code, err.getvalue())
        if code == 0:
            assert "minimum-distance" in out.getvalue()
        else:
            lines = err.getvalue().strip().splitlines()
            assert len(lines) == 1 and lines[0], err.getvalue()

    check()
    _report("main")


# ---------------------------------------------------------------------------------
# nothing forgotten

# ---------------------------------------------------------------------------------
# the exercises: whatever a student's function returns or raises, a report


def _anything():
    """What a student's function may return: nothing, numbers, text, arrays of any
    shape (NaN too), lists and tuples of them."""
    leaf = st.one_of(
        st.none(),
        st.integers(-3, 3),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=3),
        st.builds(
            lambda shape, fill: np.full(shape, fill),
            st.lists(st.integers(0, 4), max_size=3).map(tuple),
            st.floats(allow_nan=True, allow_infinity=True),
        ),
    )
    return st.recursive(
        leaf, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner, inner)
    )


def test_exercises_report_on_any_function():
    @_settings()
    @given(
        name=_mostly(st.sampled_from(names()), st.text(max_size=12)),
        returned=_anything(),
        raises=st.booleans(),
        seed=st.integers(0, 2**32 - 1),
    )
    def run(name, returned, raises, seed):
        expect = "answer" if name in names() else "refusal"

        def student(*args):
            if raises:
                raise RuntimeError("a bug in the student's code")
            return returned

        result = _call(
            "exercises.check", check, name, student, seed=seed, expect=expect
        )
        source = _call("exercises.template", template, name, expect=expect)
        text = _call("exercises.describe", describe, name, expect=expect)
        assert isinstance(result, CheckResult) and not result
        assert result.divergence.message and str(result) and result._repr_html_()
        if raises:
            assert "raised RuntimeError" in result.divergence.message
        namespace = {}
        exec(source, namespace)
        assert callable(namespace[name]) and f"def {name}(" in text

    run()
    for name in ("exercises.check", "exercises.template", "exercises.describe"):
        _report(name)
    assert names() == list(dict.fromkeys(names())) and len(names()) == 13


COVERED = {
    "patrec.neighbors.search.metrics.pairwise_distances": test_pairwise_distances_equal_cdist,
    "patrec.neighbors.bounds.cover_hart_bounds": test_cover_hart_bounds_follow_the_formula,
    "patrec.neighbors.bounds.edited_nn_error": (
        test_edited_nn_error_is_an_error_rate_below_the_unedited_one
    ),
    "patrec.neighbors.editing.editing.edit": test_edit_equals_wilsons_rule_by_brute_force,
    "patrec.neighbors.editing.editing.multiedit": test_multiedit_replays_by_brute_force,
    "patrec.neighbors.editing.condensing.condense": test_condense_equals_harts_rule_one_at_a_time,
    "patrec.neighbors.editing.condensing.edit_condense": test_edit_condense_is_multiedit_then_hart,
    "patrec.linear.linear_machine.kesler_construct": (
        test_kesler_construct_places_the_augmented_sample
    ),
    "patrec.linear.output_codes.code_matrix": test_code_matrix_is_a_valid_code,
    "patrec.linear.output_codes.decode": test_decode_picks_the_nearest_code_word,
    "patrec.model_selection.stratified_kfold": test_stratified_kfold_partitions_every_class,
    "patrec.exercises.check": test_exercises_report_on_any_function,
    "patrec.exercises.template": test_exercises_report_on_any_function,
    "patrec.exercises.describe": test_exercises_report_on_any_function,
    "patrec.exercises.names": test_exercises_report_on_any_function,
    "patrec.model_selection.standardize": test_standardize_centres_and_scales,
    "patrec.model_selection.cross_validate": test_cross_validate_equals_a_loop_over_the_folds,
    "patrec.model_selection.confusion_matrix": test_evaluation_counts_add_up,
    "patrec.model_selection.error_rates": test_evaluation_counts_add_up,
    "patrec.model_selection.sensitivity_specificity": test_evaluation_counts_add_up,
    "patrec.model_selection.error_reject_curve": (
        test_error_reject_curve_is_monotone_and_ends_rejecting_all
    ),
    "patrec.datasets.loaders.load_iris": test_loaders_return_fresh_arrays,
    "patrec.datasets.loaders.load_wine": test_loaders_return_fresh_arrays,
    "patrec.datasets.loaders.load_breast_cancer": test_loaders_return_fresh_arrays,
    **{
        f"patrec.datasets.synthetic.{name}": test_generators_draw_what_they_promise
        for name in GENERATORS
    },
    "patrec.base.clone": test_clone_copies_the_parameters_only,
    "patrec.base.decision_from_scores": test_decision_from_scores,
    "patrec.registry.classifier_names": test_registry_names_and_lookup,
    "patrec.registry.get_classifier": test_registry_names_and_lookup,
    "patrec.cli.main": test_command_line_compares_or_explains,
    "patrec.neighbors.search._auto.build_index": (
        test_build_index_answers_what_brute_force_answers
    ),
    "patrec.neighbors.search._auto.choose_algorithm": (
        test_build_index_answers_what_brute_force_answers
    ),
}


def _public_functions():
    """Every function named in the ``__all__`` of a public module of patrec."""
    found = {}
    names = ["patrec"] + [
        module.name for module in pkgutil.walk_packages(patrec.__path__, "patrec.")
    ]
    for name in names:
        if any(part.startswith("_") for part in name.split(".")):
            continue
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional extra (Dask) that is not installed
            continue
        for attribute in getattr(module, "__all__", ()):
            value = getattr(module, attribute)
            if inspect.isfunction(value) or inspect.isbuiltin(value):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


def test_every_public_function_has_a_property():
    functions = _public_functions()
    assert len(functions) >= 25
    missing = set(functions) - set(COVERED) - set(EXCLUDED)
    assert not missing, f"public functions without a property test: {sorted(missing)}"
    assert not set(COVERED) - set(functions), "COVERED names a function that is gone"
    assert not set(EXCLUDED) - set(functions)
