"""Editing a training set for the nearest-neighbour rule.

Editing removes the samples that lie among samples of other classes (the
overlapping region of the classes): the nearest-neighbour rule trained on what is
left draws a smoother boundary (see `edited_nn_error` for the two-class error after
editing).  `edit` is Wilson's rule (each sample judged by its k nearest other
samples), `multiedit` Devijver and Kittler's (1-NN judgements across random splits,
repeated).

Each function returns the sorted indices of the samples it keeps, so
``X[kept], y[kept]`` is the reduced training set; ``return_history=True`` also
returns what was done, round by round (`EditHistory`, `MultieditHistory`).
``target_classes`` restricts the removal to some classes: the samples of the others
are all kept, and still vote and judge.  The resamplers of
`patrec.neighbors.editing.resampling` wrap these functions for pipelines.

The neighbours are found by the exact searches of `patrec.neighbors.search`, through
the same choice of index as `KNeighborsClassifier` (`patrec.neighbors.search._auto`).
"""

import numbers

import numpy as np

from ..._parallel import effective_n_jobs
from ..._progress import Reporter
from ..._validation import check_option, check_random_state, check_scalar
from .._voting import count_votes
from ..search._auto import build_index, search_costs
from ..search._index import without_self
from ..search.metrics import as_metric
from ._checks import check_data, warn_lost_classes
from ._history import EditHistory, MultieditHistory, MultieditRound
from ._store import GrowingStore

__all__ = ["edit", "multiedit"]

KIND_SEL = ("mode", "all")


def edit(
    X,
    y,
    n_neighbors=3,
    max_iter=1,
    kind_sel="mode",
    metric="euclidean",
    p=2,
    metric_params=None,
    target_classes=None,
    n_jobs=None,
    return_history=False,
    verbose=0,
):
    """Wilson's editing: drop the samples that their k nearest neighbours outvote.

    Every sample is classified by the k-NN rule of all the *other* samples
    (leave-one-out); the misclassified ones are removed, all at once.  Votes are
    counted, and ties broken, exactly as `KNeighborsClassifier` does (equal
    distances by lower index, equal votes to the class that sorts first).  With
    ``max_iter > 1`` the editing is repeated on what is left until a round removes
    nothing (Tomek's repeated editing).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training samples (not modified).
    y : array-like of shape (n_samples,)
        Class labels, at least two classes.
    n_neighbors : int, default=3
        The number k of neighbours that vote, ``1 <= k < n_samples``.
    max_iter : int, default=1
        The most rounds.  Editing also stops when a round removes nothing or when
        ``n_neighbors`` or fewer samples are left.
    kind_sel : {"mode", "all"}, default="mode"
        ``"mode"``: remove a sample that the majority vote misclassifies (Wilson).
        ``"all"``: remove a sample unless all its k neighbours share its class
        (imbalanced-learn's default for `~imblearn.under_sampling.EditedNearestNeighbours`).
    metric : str, default="euclidean"
        One of `patrec.neighbors.METRICS`.
    p : float, default=2
        Minkowski order for ``metric="minkowski"``.
    metric_params : dict, default=None
        ``{"VI": Q}`` for ``metric="mahalanobis"``.
    target_classes : list of labels, default=None
        Only samples of these classes may be removed; None: every class.
    n_jobs : int, default=None
        Threads of the neighbour searches (``-1``: all cores).
    return_history : bool, default=False
        Also return an `EditHistory` (the samples removed in each round).
    verbose : bool or int, default=0
        1: a summary on standard error; 2: one line per round.

    Returns
    -------
    kept : ndarray of shape (n_kept,), dtype intp
        Sorted indices of the samples kept.
    history : EditHistory
        Only when ``return_history`` is True.

    Warns
    -----
    UserWarning
        When every sample of a class is removed.

    Notes
    -----
    Cost per round: one k-nearest-neighbour search per remaining sample.  In low
    dimension they are searched in a k-d tree built once over all samples (see
    `condense`), otherwise by brute force, as the cost model of
    ``choose_algorithm`` decides; the neighbours are those of `KNeighborsClassifier`
    either way.

    References
    ----------
    .. [1] D. L. Wilson, "Asymptotic properties of nearest neighbor rules using
       edited data", IEEE Transactions on Systems, Man, and Cybernetics, 2(3),
       408–421, 1972.
    .. [2] I. Tomek, "An experiment with the edited nearest-neighbor rule", IEEE
       Transactions on Systems, Man, and Cybernetics, 6(6), 448–452, 1976.

    Examples
    --------
    The sample at 2.1 is labelled "b" but lies among the "a" samples:

    >>> from patrec.neighbors import edit
    >>> X = [[0.0], [1.0], [2.0], [2.1], [3.0], [7.0], [8.0], [9.0]]
    >>> y = ["a", "a", "a", "b", "a", "b", "b", "b"]
    >>> edit(X, y, n_neighbors=3)
    array([0, 1, 2, 4, 5, 6, 7])
    """
    X, codes, targeted, classes = check_data(X, y, target_classes)
    if hasattr(n_neighbors, "kneighbors"):
        raise TypeError(
            f"n_neighbors={n_neighbors!r}: patrec takes the number k itself "
            "(imbalanced-learn also takes a neighbours estimator); pass its "
            "n_neighbors, and its metric as metric=."
        )
    check_scalar(
        n_neighbors, "n_neighbors", numbers.Integral, low=1, high=X.shape[0] - 1
    )
    check_scalar(max_iter, "max_iter", numbers.Integral, low=1)
    check_option(kind_sel, "kind_sel", KIND_SEL)
    effective_n_jobs(n_jobs)
    log = Reporter("edit", verbose)
    metric = as_metric(metric, p, metric_params, X.shape[1])
    kept, history = _edit(
        X, codes, targeted, n_neighbors, max_iter, kind_sel, metric, n_jobs, log
    )
    warn_lost_classes(codes, kept, classes, "edit")
    return (kept, history) if return_history else kept


def _edit(X, codes, targeted, k, max_iter, kind_sel, metric, n_jobs, log):
    n_classes = int(codes.max()) + 1
    alive = np.arange(X.shape[0])
    removed = []
    brute, tree = search_costs(X.shape[0], X.shape[1], metric, build=False)
    store = None
    if tree < brute:
        # a k-d tree built once over all samples; each round stores the samples
        # left, in index order (so equal distances go to the lower index)
        store = GrowingStore(X, metric, n_jobs)
    while len(removed) < max_iter and alive.shape[0] > k:
        if store is None:
            index, _ = build_index(X[alive], metric, algorithm="brute")
            _, neighbours = index.query_others(k, n_jobs)
        else:
            store.clear()
            store.add(alive)
            _, neighbours = without_self(*store.kneighbors(alive, k + 1))
        own = codes[alive]
        neighbour_codes = own[neighbours]
        if kind_sel == "mode":
            wrong = np.argmax(count_votes(neighbour_codes, n_classes), axis=1) != own
        else:
            wrong = (neighbour_codes != own[:, None]).any(axis=1)
        wrong &= targeted[own]
        removed.append(alive[wrong])
        log(
            2,
            f"round {len(removed)}: removed {int(wrong.sum())} of "
            f"{alive.shape[0]} samples",
        )
        if not wrong.any():
            break
        alive = alive[~wrong]
    log(
        1,
        f"kept {alive.shape[0]} of {X.shape[0]} samples after {len(removed)} round(s)",
    )
    return alive, EditHistory(tuple(removed))


def multiedit(
    X,
    y,
    n_splits=3,
    max_iter=100,
    metric="euclidean",
    p=2,
    metric_params=None,
    random_state=None,
    target_classes=None,
    n_jobs=None,
    return_history=False,
    verbose=0,
):
    """Devijver and Kittler's multi-edit: repeated 1-NN editing on random splits.

    One iteration shuffles the remaining samples and splits them into ``n_splits``
    subsets of (nearly) equal size; the samples of subset i are classified by the
    1-NN rule trained on subset (i + 1) mod ``n_splits``, and every misclassified
    sample is discarded.  Iterations repeat until one discards nothing, or
    ``max_iter`` have run.  Because a sample is never judged by a classifier that
    was trained on it or on its own subset, the errors are independent and the
    overlap region between the classes is emptied much more thoroughly than by a
    single `edit`.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training samples (not modified).
    y : array-like of shape (n_samples,)
        Class labels, at least two classes.
    n_splits : int, default=3
        Number of subsets per iteration, from 2 up to the number of samples.
    max_iter : int, default=100
        The most iterations run.
    metric : str, default="euclidean"
        One of `patrec.neighbors.METRICS`.
    p : float, default=2
        Minkowski order for ``metric="minkowski"``.
    metric_params : dict, default=None
        ``{"VI": Q}`` for ``metric="mahalanobis"``.
    random_state : None, int, numpy.random.Generator or RandomState, default=None
        Seed of the random splits.
    target_classes : list of labels, default=None
        Only samples of these classes may be discarded; None: every class.
    n_jobs : int, default=None
        Threads of the neighbour searches (``-1``: all cores).
    return_history : bool, default=False
        Also return a `MultieditHistory` (each round's split and discards).
    verbose : bool or int, default=0
        1: a summary on standard error; 2: one line per round.

    Returns
    -------
    kept : ndarray of shape (n_kept,), dtype intp
        Sorted indices (into ``X``) of the samples that survive.
    history : MultieditHistory
        Only when ``return_history`` is True.

    Warns
    -----
    UserWarning
        When every sample of a class is discarded.

    Notes
    -----
    Cost per iteration: one 1-NN search for every remaining sample, in an index of
    about n / ``n_splits`` samples.  In low dimension the index is a k-d tree built
    once over all samples, which each subset in turn fills (see `condense`); else
    brute force, as the cost model of ``choose_algorithm`` decides.  Ties go to the
    judging sample that comes first in its subset.  Editing stops early when fewer
    than ``n_splits`` samples are left.

    References
    ----------
    .. [1] P. A. Devijver and J. Kittler, "On the edited nearest neighbor rule",
       Proc. 5th International Conference on Pattern Recognition, 72–80, 1980.
    .. [2] P. A. Devijver and J. Kittler, *Pattern Recognition: A Statistical
       Approach*, Prentice-Hall, 1982, chapter 3.

    Examples
    --------
    Two groups of 20 samples on a line, each with one mislabelled sample (5 and
    35); multi-edit removes both, and a few of their neighbours:

    >>> import numpy as np
    >>> from patrec.neighbors import multiedit
    >>> X = np.r_[np.arange(20.0), np.arange(30.0, 50.0)].reshape(-1, 1)
    >>> y = np.repeat([0, 1], 20)
    >>> y[[5, 35]] = [1, 0]
    >>> kept = multiedit(X, y, n_splits=2, random_state=2)
    >>> 5 in kept, 35 in kept, len(kept)
    (False, False, 36)
    """
    X, codes, targeted, classes = check_data(X, y, target_classes)
    rounds = MultieditRounds(
        X, n_splits, max_iter, metric, p, metric_params, random_state, n_jobs,
        Reporter("multiedit", verbose),
    )  # fmt: skip
    kept, history = rounds.run(X, codes, targeted)
    warn_lost_classes(codes, kept, classes, "multiedit")
    return (kept, history) if return_history else kept


class MultieditRounds:
    """The rounds of `multiedit` (and the first step of `edit_condense`): the
    parameters are checked when it is made, `run` edits validated data.

    ``rng``, the generator drawn from ``random_state``, is kept: `edit_condense`
    goes on drawing from it after the rounds.
    """

    def __init__(
        self, X, n_splits, max_iter, metric, p, metric_params, random_state, n_jobs,
        log,
    ):  # fmt: skip
        check_scalar(n_splits, "n_splits", numbers.Integral, low=2)
        if n_splits > X.shape[0]:
            raise ValueError(
                f"n_splits={n_splits} subsets were asked for, but X has only "
                f"{X.shape[0]} samples; n_splits must be <= n_samples."
            )
        check_scalar(max_iter, "max_iter", numbers.Integral, low=1)
        effective_n_jobs(n_jobs)
        self.n_splits, self.max_iter = n_splits, max_iter
        self.metric = as_metric(metric, p, metric_params, X.shape[1])
        self.rng = check_random_state(random_state)
        self.n_jobs, self.log = n_jobs, log

    def run(self, X, codes, targeted):
        """Edit validated data: (kept, `MultieditHistory`)."""
        store = self._store(X)
        alive = np.arange(X.shape[0])
        rounds = []
        while len(rounds) < self.max_iter and alive.shape[0] >= self.n_splits:
            subsets = np.array_split(self.rng.permutation(alive), self.n_splits)
            discarded = []
            for i, judged in enumerate(subsets):
                judge = subsets[(i + 1) % self.n_splits]
                nearest = self._nearest(X, store, judge, judged)
                wrong = (codes[nearest] != codes[judged]) & targeted[codes[judged]]
                discarded.append(judged[wrong])
            rounds.append(MultieditRound(tuple(subsets), tuple(discarded)))
            wrong = np.concatenate(discarded)
            self.log(
                2,
                f"round {len(rounds)}: discarded {wrong.shape[0]} of "
                f"{alive.shape[0]} samples",
            )
            if wrong.shape[0] == 0:
                break
            alive = np.setdiff1d(alive, wrong)
        self.log(
            1,
            f"kept {alive.shape[0]} of {X.shape[0]} samples after {len(rounds)} "
            "round(s)",
        )
        return np.sort(alive), MultieditHistory(tuple(rounds))

    def _store(self, X):
        """A k-d tree built once over all samples to serve every round and subset,
        when the cost model expects it to beat brute force; else None."""
        brute, tree = search_costs(
            X.shape[0] // self.n_splits, X.shape[1], self.metric, build=False
        )
        if tree >= brute:
            return None
        return GrowingStore(X, self.metric, self.n_jobs)

    def _nearest(self, X, store, judge, judged):
        """The nearest sample of ``judge`` to each sample of ``judged`` (ties: the
        one first in ``judge``)."""
        if store is None:
            index, _ = build_index(X[judge], self.metric, algorithm="brute")
            found = index.query(X[judged], 1, return_distance=False, n_jobs=self.n_jobs)
            return judge[found[:, 0]]
        store.clear()
        store.add(judge)  # ranks in subset order: ties to the lower index
        return store.nearest(judged)
