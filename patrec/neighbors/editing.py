"""Editing and condensing a training set for the nearest-neighbour rule.

Editing removes the samples that lie among samples of other classes (the
overlapping region of the classes): the nearest-neighbour rule trained on what is
left draws a smoother boundary and its asymptotic error falls from P to
P / (2 (1 - P)) (see `edited_nn_error`).  Condensing removes the samples far from the
boundary: it keeps a subset on which 1-NN still classifies every training sample
correctly, to save storage and search time.  The two combine: edit first, then
condense the edited set (`edit_condense`).

Each function returns the sorted indices of the samples it keeps, so
``X[kept], y[kept]`` is the reduced training set; ``return_history=True`` also
returns what was done, round by round (`EditHistory`, `MultieditHistory`,
`CondenseHistory`, `EditCondenseHistory`).  ``target_classes`` restricts the removal
to some classes: the samples of the others are all kept, and still vote, judge and
sit in the store.  The resamplers of `patrec.neighbors.resampling` wrap these
functions for pipelines.

The neighbours are found by the exact searches of this package, through the same
choice of index as `KNeighborsClassifier` (`patrec.neighbors._index`).
"""
import numbers
import warnings

import numpy as np

from .._parallel import effective_n_jobs
from .._progress import Reporter
from .._validation import (check_labels, check_option, check_random_state,
                           check_scalar, check_X, encode_labels)
from ._history import (CondenseHistory, EditCondenseHistory, EditHistory,
                       MultieditHistory, MultieditRound)
from ._index import build_index, search_costs, without_self
from ._store import GrowingStore
from ._voting import count_votes
from .metrics import Metric

__all__ = ["edit", "multiedit", "condense", "edit_condense"]

KIND_SEL = ("mode", "all")


def _check_data(X, y, target_classes):
    """Validated ``X`` (finite floats, at least two rows), label codes, and the mask
    over codes of the classes that may lose samples."""
    X = check_X(X, min_samples=2)
    y = check_labels(y, X.shape[0])
    classes, codes = encode_labels(y)
    return X, codes, _target_mask(classes, target_classes), classes


def _target_mask(classes, target_classes):
    if target_classes is None:
        return np.ones(len(classes), dtype=bool)
    if isinstance(target_classes, str) or not np.iterable(target_classes):
        raise TypeError(
            f"target_classes must be None or a list of class labels, got "
            f"{target_classes!r}."
        )
    mask = np.zeros(len(classes), dtype=bool)
    for label in target_classes:
        hits = np.flatnonzero(classes == label)
        if hits.shape[0] == 0:
            raise ValueError(
                f"target_classes names {label!r}, which is not a class of y "
                f"(classes: {list(classes)})."
            )
        mask[hits[0]] = True
    return mask


def _warn_lost_classes(codes, kept, classes, name):
    """Warn when whole classes were removed."""
    lost = np.setdiff1d(np.arange(len(classes)), codes[kept])
    if lost.shape[0]:
        warnings.warn(
            f"{name} removed every sample of {lost.shape[0]} class(es) "
            f"({', '.join(repr(label) for label in classes[lost].tolist())}): a "
            "nearest-neighbour rule trained on the result never predicts them.",
            UserWarning, stacklevel=3,
        )


def edit(X, y, n_neighbors=3, max_iter=1, kind_sel="mode", metric="euclidean", p=2,
         metric_params=None, target_classes=None, n_jobs=None, return_history=False,
         verbose=0):
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
        (imbalanced-learn's default for `EditedNearestNeighbours`).
    metric : str, default="euclidean"
        One of `patrec.neighbors.METRICS`.
    p : float, default=2
        Minkowski order for ``metric="minkowski"``.
    metric_params : dict, default=None
        ``{"VI": Q}`` for ``metric="mahalanobis"``.
    target_classes : list of labels, default=None
        Only samples of these classes may be removed; None: every class.
    n_jobs : int, default=None
        Threads of the neighbour search (``-1``: all cores).
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
    X, codes, targeted, classes = _check_data(X, y, target_classes)
    check_scalar(n_neighbors, "n_neighbors", numbers.Integral, low=1,
                 high=X.shape[0] - 1)
    check_scalar(max_iter, "max_iter", numbers.Integral, low=1)
    check_option(kind_sel, "kind_sel", KIND_SEL)
    effective_n_jobs(n_jobs)
    log = Reporter("edit", verbose)
    kept, history = _edit(X, codes, targeted, n_neighbors, max_iter, kind_sel, metric,
                          p, metric_params, n_jobs, log)
    _warn_lost_classes(codes, kept, classes, "edit")
    return (kept, history) if return_history else kept


def _edit(X, codes, targeted, k, max_iter, kind_sel, metric, p, metric_params, n_jobs,
          log):
    n_classes = int(codes.max()) + 1
    alive = np.arange(X.shape[0])
    removed = []
    brute, tree = search_costs(X.shape[0], X.shape[1], metric, p, build=False)
    store = None
    if tree < brute:
        # a k-d tree built once over all samples; each round stores the samples
        # left, in index order (so equal distances go to the lower index)
        store = GrowingStore(X, Metric(metric, p, metric_params, X.shape[1]), n_jobs)
    while len(removed) < max_iter and alive.shape[0] > k:
        if store is None:
            index, _ = build_index(X[alive], metric, p, metric_params, "brute")
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
        log(2, f"round {len(removed)}: removed {int(wrong.sum())} of "
               f"{alive.shape[0]} samples")
        if not wrong.any():
            break
        alive = alive[~wrong]
    log(1, f"kept {alive.shape[0]} of {X.shape[0]} samples after {len(removed)} "
           f"round(s)")
    return alive, EditHistory(tuple(removed))


def multiedit(X, y, n_splits=3, max_iter=100, metric="euclidean", p=2,
              metric_params=None, random_state=None, target_classes=None, n_jobs=None,
              return_history=False, verbose=0):
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
        Threads of the neighbour search (``-1``: all cores).
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
    X, codes, targeted, classes = _check_data(X, y, target_classes)
    _check_multiedit(X, n_splits, max_iter, n_jobs)
    rng = check_random_state(random_state)
    log = Reporter("multiedit", verbose)
    kept, history = _multiedit(X, codes, targeted, n_splits, max_iter, metric, p,
                               metric_params, rng, n_jobs, log)
    _warn_lost_classes(codes, kept, classes, "multiedit")
    return (kept, history) if return_history else kept


def _check_multiedit(X, n_splits, max_iter, n_jobs):
    check_scalar(n_splits, "n_splits", numbers.Integral, low=2)
    if n_splits > X.shape[0]:
        raise ValueError(
            f"n_splits={n_splits} subsets were asked for, but X has only "
            f"{X.shape[0]} samples; n_splits must be <= n_samples."
        )
    check_scalar(max_iter, "max_iter", numbers.Integral, low=1)
    effective_n_jobs(n_jobs)


def _multiedit(X, codes, targeted, n_splits, max_iter, metric, p, metric_params, rng,
               n_jobs, log):
    alive = np.arange(X.shape[0])
    rounds = []
    store = None
    brute, tree = search_costs(X.shape[0] // n_splits, X.shape[1], metric, p,
                               build=False)
    if tree < brute:
        # a k-d tree built once over all samples serves every round and subset
        store = GrowingStore(X, Metric(metric, p, metric_params, X.shape[1]), n_jobs)
    while len(rounds) < max_iter and alive.shape[0] >= n_splits:
        subsets = np.array_split(rng.permutation(alive), n_splits)
        discarded = []
        for i, judged in enumerate(subsets):
            judge = subsets[(i + 1) % n_splits]
            if store is None:
                index, _ = build_index(X[judge], metric, p, metric_params, "brute")
                nearest = judge[index.query(X[judged], 1, return_distance=False,
                                            n_jobs=n_jobs)[:, 0]]
            else:
                store.clear()
                store.add(judge)  # ranks in subset order: ties to the lower index
                nearest = store.nearest(judged)
            wrong = (codes[nearest] != codes[judged]) & targeted[codes[judged]]
            discarded.append(judged[wrong])
        rounds.append(MultieditRound(tuple(subsets), tuple(discarded)))
        wrong = np.concatenate(discarded)
        log(2, f"round {len(rounds)}: discarded {wrong.shape[0]} of "
               f"{alive.shape[0]} samples")
        if wrong.shape[0] == 0:
            break
        alive = np.setdiff1d(alive, wrong)
    log(1, f"kept {alive.shape[0]} of {X.shape[0]} samples after {len(rounds)} "
           f"round(s)")
    return np.sort(alive), MultieditHistory(tuple(rounds))


def condense(X, y, metric="euclidean", p=2, metric_params=None, random_state=None,
             target_classes=None, n_jobs=None, return_history=False, verbose=0):
    """Hart's condensed nearest neighbour: a consistent subset for the 1-NN rule.

    The store starts with one sample; the others are visited in turn, and a sample
    that the 1-NN rule on the current store misclassifies moves into the store.
    Passes over the samples not yet stored repeat until a pass adds nothing.  The
    store then classifies every training sample correctly by 1-NN (it is a
    *consistent subset*), unless identical samples carry different labels.  Samples
    inside a class region are rarely stored; those near the boundary are.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training samples (not modified).
    y : array-like of shape (n_samples,)
        Class labels, at least two classes.
    metric : str, default="euclidean"
        One of `patrec.neighbors.METRICS`.
    p : float, default=2
        Minkowski order for ``metric="minkowski"``.
    metric_params : dict, default=None
        ``{"VI": Q}`` for ``metric="mahalanobis"``.
    random_state : None, int, numpy.random.Generator or RandomState, default=None
        None: the samples are visited in their given order and the store starts
        with sample 0.  Otherwise they are visited in a random order drawn from this
        seed, starting with its first.  The result depends on the order.
    target_classes : list of labels, default=None
        Only these classes are condensed: the store starts with every sample of the
        other classes (and then needs no first sample).  None: every class.
    n_jobs : int, default=None
        Threads of the nearest-neighbour searches (``-1``: all cores).
    return_history : bool, default=False
        Also return a `CondenseHistory` (the samples moved into the store, pass by
        pass, in order).
    verbose : bool or int, default=0
        1: a summary on standard error; 2: one line per pass.

    Returns
    -------
    kept : ndarray of shape (n_kept,), dtype intp
        Sorted indices of the stored samples.
    history : CondenseHistory
        Only when ``return_history`` is True.

    Notes
    -----
    The nearest stored sample is the one at the smallest distance; among stored
    samples at equal distance, the one stored first.  It is found in a k-d tree
    built once over all samples, whose nodes count their stored samples and keep
    the bounding box of those: a node whose box is farther than the best stored
    sample found so far is skipped.  Each sample remembers its nearest stored
    sample, so a later pass only looks for a nearer one among the samples stored
    since.  The samples are taken in batches: the searches of a batch run in
    parallel (``n_jobs``) on the store as it was before the batch, then the batch is
    walked in order and compared directly with the samples it stored itself, so the
    result is exactly that of Hart's one-at-a-time rule.  Cost: about one tree
    search per sample and pass; in low dimension O(n_samples log n_samples) per
    pass, against O(n_kept * n_samples) for a distance row per stored sample.
    In high dimension, where the cost model of ``choose_algorithm`` says a tree
    would prune little, each sample is instead compared directly with the samples
    stored since it was last checked: every (sample, stored sample) distance is
    computed at most once, O(n_kept * n_samples) in all.

    References
    ----------
    .. [1] P. E. Hart, "The condensed nearest neighbor rule", IEEE Transactions on
       Information Theory, 14(3), 515–516, 1968.

    Examples
    --------
    >>> from patrec.neighbors import condense
    >>> X = [[0], [1], [2], [3], [7], [8], [9], [10]]
    >>> y = ["a", "a", "a", "a", "b", "b", "b", "b"]
    >>> condense(X, y)
    array([0, 4])
    """
    X, codes, targeted, classes = _check_data(X, y, target_classes)
    effective_n_jobs(n_jobs)
    spec = Metric(metric, p, metric_params, n_features=X.shape[1])
    order = _visiting_order(X.shape[0], random_state)
    log = Reporter("condense", verbose)
    history = _condense(X, codes, targeted, order, spec, n_jobs, log)
    kept = np.sort(history.stored)
    return (kept, history) if return_history else kept


def _visiting_order(n_samples, random_state):
    if random_state is None:
        return np.arange(n_samples)
    return check_random_state(random_state).permutation(n_samples)


# Batches of samples searched together: the batch size adapts so that a sample is
# compared directly with about this many samples stored in its own batch.
_BATCH_WORK = 32
_BATCH_MIN, _BATCH_MAX = 32, 4096


def _condense(X, codes, targeted, order, spec, n_jobs, log):
    """Hart's rule (see `condense`); returns a `CondenseHistory` with indices into
    ``X``."""
    n_samples = X.shape[0]
    brute, tree = search_costs(n_samples, X.shape[1], spec.name, spec.p, build=False)
    store = GrowingStore(X, spec, n_jobs, use_tree=tree < brute)
    seeds = order[~targeted[codes[order]]]
    if seeds.shape[0] == 0:
        seeds = order[:1]
    store.add(seeds)
    passes = []
    batch = _BATCH_MIN
    while True:
        pass_start = store.size
        start = 0
        while start < n_samples:
            samples = order[start:start + batch]
            start += batch
            samples = samples[store.rank_of[samples] < 0]
            if samples.shape[0] == 0:
                continue
            store.search(samples)
            added = store.hart_batch(samples, codes) / samples.shape[0]
            batch = int(min(max(_BATCH_WORK / max(added, 1e-9),
                                _BATCH_MIN * store.n_threads),
                            _BATCH_MAX * store.n_threads))
        passes.append(store.store[pass_start:store.size].copy())
        log(2, f"pass {len(passes)}: stored {store.size - pass_start} samples "
               f"(store: {store.size})")
        if store.size == pass_start:
            break
    log(1, f"kept {store.size} of {n_samples} samples after {len(passes)} pass(es)")
    return CondenseHistory(order=np.asarray(order, dtype=np.intp), seeds=seeds.copy(),
                           passes=tuple(passes))


def edit_condense(X, y, n_splits=3, max_iter=100, metric="euclidean", p=2,
                  metric_params=None, random_state=None, target_classes=None,
                  n_jobs=None, return_history=False, verbose=0):
    """Multi-edit, then condense the edited set: the course's combination.

    Multi-edit (`multiedit`) first empties the overlap region of the classes, so
    that the classes no longer mix; Hart's condensing (`condense`) of what is left
    then keeps only the samples near the (now clean) boundary.  The result is a
    small training set whose 1-NN rule approximates the Bayes rule rather than
    reproducing every training sample.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training samples (not modified).
    y : array-like of shape (n_samples,)
        Class labels, at least two classes.
    n_splits, max_iter : int, default=3, 100
        Multi-edit's number of subsets per round and most rounds.
    metric : str, default="euclidean"
        One of `patrec.neighbors.METRICS`, for both steps.
    p : float, default=2
        Minkowski order for ``metric="minkowski"``.
    metric_params : dict, default=None
        ``{"VI": Q}`` for ``metric="mahalanobis"``.
    random_state : None, int, numpy.random.Generator or RandomState, default=None
        Seeds multi-edit's splits.  None: condensing visits the edited samples in
        their given order; otherwise in a random order drawn from the same
        generator after the splits.
    target_classes : list of labels, default=None
        Only samples of these classes may be removed, by either step.
    n_jobs : int, default=None
        Threads of the neighbour searches (``-1``: all cores).
    return_history : bool, default=False
        Also return an `EditCondenseHistory`.
    verbose : bool or int, default=0
        1: a summary on standard error; 2: one line per round and pass.

    Returns
    -------
    kept : ndarray of shape (n_kept,), dtype intp
        Sorted indices into ``X``.
    history : EditCondenseHistory
        Only when ``return_history`` is True.

    Warns
    -----
    UserWarning
        When multi-edit discards every sample of a class.

    References
    ----------
    .. [1] P. A. Devijver and J. Kittler, *Pattern Recognition: A Statistical
       Approach*, Prentice-Hall, 1982, chapter 3.

    Examples
    --------
    Two overlapping classes on a line: editing clears the overlap, condensing keeps
    a few samples near the boundary:

    >>> import numpy as np
    >>> from patrec.neighbors import edit_condense
    >>> rng = np.random.default_rng(0)
    >>> X = np.r_[rng.normal(0, 1, 100), rng.normal(3, 1, 100)].reshape(-1, 1)
    >>> y = np.repeat([0, 1], 100)
    >>> kept = edit_condense(X, y, random_state=0)
    >>> X[kept].ravel().round(2), y[kept]
    (array([-0.13,  0.95,  1.96]), array([0, 0, 1]))
    """
    X, codes, targeted, classes = _check_data(X, y, target_classes)
    _check_multiedit(X, n_splits, max_iter, n_jobs)
    spec = Metric(metric, p, metric_params, n_features=X.shape[1])
    rng = check_random_state(random_state)
    log = Reporter("edit_condense", verbose)
    edited, edit_history = _multiedit(X, codes, targeted, n_splits, max_iter, metric,
                                      p, metric_params, rng, n_jobs, log)
    _warn_lost_classes(codes, edited, classes, "edit_condense")
    if edited.shape[0] == 0:
        condensed = CondenseHistory(np.empty(0, np.intp), np.empty(0, np.intp), ())
    else:
        order = (np.arange(edited.shape[0]) if random_state is None
                 else rng.permutation(edited.shape[0]))
        condensed = _condense(X[edited], codes[edited], targeted, order, spec, n_jobs,
                              log)
        condensed = CondenseHistory(edited[condensed.order], edited[condensed.seeds],
                                    tuple(edited[step] for step in condensed.passes))
    kept = np.sort(condensed.stored)
    log(1, f"kept {kept.shape[0]} of {X.shape[0]} samples (multi-edit kept "
           f"{edited.shape[0]})")
    if not return_history:
        return kept
    return kept, EditCondenseHistory(edit_history, condensed)
