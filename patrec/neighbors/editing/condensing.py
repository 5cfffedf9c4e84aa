"""Condensing a training set for the nearest-neighbour rule.

Condensing removes the samples far from the boundary: Hart's rule (`condense`)
keeps a subset on which 1-NN still classifies every training sample correctly, to
save storage and search time.  Editing and condensing combine: multi-edit first,
then condense the edited set (`edit_condense`).

Each function returns the sorted indices of the samples it keeps; with
``return_history=True`` also what was stored, pass by pass (`CondenseHistory`,
`EditCondenseHistory`).  ``target_classes`` restricts the removal to some classes:
the samples of the others all sit in the store from the start.
"""

import numpy as np

from ..._parallel import effective_n_jobs
from ..._progress import Reporter
from ..._validation import check_random_state
from ..search._auto import search_costs
from ..search.metrics import as_metric
from ._checks import check_data, warn_lost_classes
from ._history import CondenseHistory, EditCondenseHistory
from ._store import GrowingStore
from .editing import MultieditRounds

__all__ = ["condense", "edit_condense"]


def condense(
    X,
    y,
    metric="euclidean",
    p=2,
    metric_params=None,
    random_state=None,
    target_classes=None,
    n_jobs=None,
    return_history=False,
    verbose=0,
):
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
        Threads of the neighbour searches (``-1``: all cores).
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
    X, codes, targeted, classes = check_data(X, y, target_classes)
    effective_n_jobs(n_jobs)
    spec = as_metric(metric, p, metric_params, n_features=X.shape[1])
    order = _visiting_order(X.shape[0], random_state)
    log = Reporter("condense", verbose)
    history = _condense(X, codes, targeted, order, spec, n_jobs, log)
    kept = np.sort(history.stored)
    return (kept, history) if return_history else kept


def _visiting_order(n_samples, random_state):
    if random_state is None:
        return np.arange(n_samples)
    return check_random_state(random_state).permutation(n_samples)


def _condense(X, codes, targeted, order, spec, n_jobs, log):
    """Hart's rule (see `condense`); returns a `CondenseHistory` with indices into
    ``X``.

    The rule, one sample at a time::

        store <- the seeds (every sample of the classes not condensed, else the
                 first sample visited)
        repeat
            for each sample x not in the store, in the visiting order:
                if the nearest stored sample of x has another class than x:
                    move x into the store
        until a pass moves nothing

    `_hart_pass` runs each pass exactly so, batched for speed.
    """
    n_samples = X.shape[0]
    brute, tree = search_costs(n_samples, X.shape[1], spec, build=False)
    store = GrowingStore(X, spec, n_jobs, use_tree=tree < brute)
    seeds = order[~targeted[codes[order]]]
    if seeds.shape[0] == 0:
        seeds = order[:1]
    store.add(seeds)
    passes = []
    batch = _BATCH_MIN
    while True:
        stored, batch = _hart_pass(store, order, codes, batch)
        passes.append(stored)
        log(
            2, f"pass {len(passes)}: stored {len(stored)} samples (store: {store.size})"
        )
        if len(stored) == 0:
            break
    log(1, f"kept {store.size} of {n_samples} samples after {len(passes)} pass(es)")
    return CondenseHistory(
        order=np.asarray(order, dtype=np.intp), seeds=seeds.copy(), passes=tuple(passes)
    )


# The batch size adapts so that a sample is compared directly with about this many
# samples stored before it in its own batch.
_BATCH_WORK = 32
_BATCH_MIN, _BATCH_MAX = 32, 4096


def _hart_pass(store, order, codes, batch):
    """One pass of Hart's rule over the samples not yet stored, in ``order``: each
    sample whose nearest stored sample has another class moves into the store.

    Batched, with the one-at-a-time result: the nearest stored samples of a batch
    are searched together (in threads) on the store as it was before the batch; then
    the batch is walked in order, and each sample is also compared directly with
    the samples stored before it in its own batch (`GrowingStore.hart_batch`), so
    each decision sees exactly the store the one-at-a-time rule would.  Returns the
    samples stored, in order, and the batch size for the next pass.
    """
    pass_start, start = store.size, 0
    while start < len(order):
        samples = order[start : start + batch]
        start += batch
        samples = samples[store.rank_of[samples] < 0]  # not stored yet
        if samples.shape[0] == 0:
            continue
        store.search(samples)
        added = store.hart_batch(samples, codes) / samples.shape[0]
        batch = int(
            min(
                max(_BATCH_WORK / max(added, 1e-9), _BATCH_MIN * store.n_threads),
                _BATCH_MAX * store.n_threads,
            )
        )
    return store.store[pass_start : store.size].copy(), batch


def edit_condense(
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
        One of `patrec.neighbors.METRICS`.
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
    X, codes, targeted, classes = check_data(X, y, target_classes)
    log = Reporter("edit_condense", verbose)
    rounds = MultieditRounds(
        X, n_splits, max_iter, metric, p, metric_params, random_state, n_jobs, log
    )
    spec = rounds.metric  # (resolved once, for both steps)
    edited, edit_history = rounds.run(X, codes, targeted)
    warn_lost_classes(codes, edited, classes, "edit_condense")
    if edited.shape[0] == 0:
        condensed = CondenseHistory(np.empty(0, np.intp), np.empty(0, np.intp), ())
    else:
        order = (
            np.arange(edited.shape[0])
            if random_state is None
            else rounds.rng.permutation(edited.shape[0])
        )
        condensed = _condense(
            X[edited], codes[edited], targeted, order, spec, n_jobs, log
        )
        condensed = CondenseHistory(
            edited[condensed.order],
            edited[condensed.seeds],
            tuple(edited[step] for step in condensed.passes),
        )
    kept = np.sort(condensed.stored)
    log(
        1,
        f"kept {kept.shape[0]} of {X.shape[0]} samples (multi-edit kept "
        f"{edited.shape[0]})",
    )
    if not return_history:
        return kept
    return kept, EditCondenseHistory(edit_history, condensed)
