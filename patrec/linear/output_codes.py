"""Error-correcting output codes (ECOC): coding matrices, decoding, and the classifier.

A coding matrix M in {-1, 0, +1}^{c x l} gives each class r a code word, row M(r).
Column s defines binary problem s: a row of class r is labelled M(r, s), and is left
out of problem s when M(r, s) = 0.  The l trained models give the score vector
f(x) = (f_1(x), ..., f_l(x)), and x goes to the class whose code word is nearest:

- Hamming decoding: d_H(M(r), f) = sum_s (1 - sign(M(r, s) f_s)) / 2, so a
  disagreement counts 1 and a zero (in M or in f) counts 1/2;
- loss-based decoding: d_L(M(r), f) = sum_s L(M(r, s) f_s) for a margin loss L:
  hinge max(0, 1 - u), exponential exp(-u) or logistic log(1 + exp(-u)) of the
  margin u = M(r, s) f_s.

One-versus-all (M = 2 I - 1) and all pairs (one column per pair, +1 / -1 / zeros) are
two particular codes; random dense and sparse codes follow Allwein, Schapire and
Singer.
"""

import numbers

import numpy as np

from .._validation import (
    check_flag,
    check_option,
    check_random_state,
    check_scalar,
    check_seed,
    plain,
)
from ..base import BaseEstimator, ClassifierMixin, decision_from_scores
from ._base import ArgmaxClassifierMixin
from ._reduction import binary_scores, check_binary_estimator, fit_binary

__all__ = ["OutputCodes", "decode", "code_matrix"]

_LOSSES = {
    "hinge": lambda z: np.maximum(0.0, 1.0 - z),
    "exp": lambda z: np.exp(-z),
    "log": lambda z: np.logaddexp(0.0, -z),
}
_CODES = ("one-vs-all", "all-pairs", "dense-random", "sparse-random")
_RANDOM_TRIALS = 200


def decode(M, F, method="hamming", loss="hinge", return_distances=False):
    """Pick, for each score vector, the class whose code word is nearest.

    Parameters
    ----------
    M : array-like of shape (n_classes, n_columns)
        The coding matrix, entries in {-1, 0, +1}.
    F : array-like of shape (n_samples, n_columns)
        The scores f_s(x) of the binary models, one row per sample (a 1-D array is
        one sample).
    method : {"hamming", "loss"}, default="hamming"
        Hamming decoding, sum_s (1 - sign(M(r, s) f_s)) / 2, or loss-based
        decoding, sum_s L(M(r, s) f_s).
    loss : {"hinge", "exp", "log"} or callable, default="hinge"
        L for loss-based decoding: max(0, 1 - z), exp(-z), log(1 + exp(-z)), or a
        function applied elementwise to an array of margins z.  Checked with Hamming
        decoding too, which does not use it.
    return_distances : bool, default=False
        Also return the distance of every sample to every code word.

    Returns
    -------
    indices : ndarray of shape (n_samples,)
        The 0-based row of M nearest to each sample (the first one on ties).
    distances : ndarray of shape (n_samples, n_classes)
        Only with ``return_distances=True``.

    Notes
    -----
    Costs O(n_samples * n_classes * n_columns).

    References
    ----------
    .. [1] E. L. Allwein, R. E. Schapire and Y. Singer, "Reducing multiclass to
       binary: a unifying approach for margin classifiers", JMLR 1, 2000.

    Examples
    --------
    The worked example of the course:

    >>> from patrec import decode
    >>> M = [[-1, 0, -1, -1, 1, -1, -1], [1, -1, 0, 1, 1, 1, -1],
    ...      [1, 0, -1, -1, -1, 1, 1], [-1, -1, 1, 0, -1, -1, 1]]
    >>> f = [0.5, -7, -1, -2, -10, -12, 9]
    >>> index, distances = decode(M, f, return_distances=True)
    >>> index.tolist(), distances.tolist()
    ([2], [[3.5, 4.5, 1.5, 2.5]])
    >>> decode(M, f, method="loss", loss="exp").tolist()
    [3]
    """
    M = _check_code_values(M, "M")
    return_distances = check_flag(return_distances, "return_distances")
    try:
        F = np.asarray(F)
        if F.dtype.kind != "c":  # numpy would drop the imaginary parts
            F = F.astype(np.float64, copy=False)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"F must hold numbers (the binary scores): {exc}") from exc
    if F.dtype.kind == "c":
        raise ValueError("F must hold real numbers (the binary scores), got complex.")
    if F.ndim == 1:
        F = F[None, :]
    if F.ndim != 2 or F.shape[1] != M.shape[1]:
        raise ValueError(
            f"F must have shape (n_samples, {M.shape[1]}) to match the "
            f"{M.shape[1]} columns of M, got {F.shape}."
        )
    if not np.isfinite(F).all():
        raise ValueError("F contains NaN or infinity.")
    check_option(method, "method", ("hamming", "loss"))
    loss_function = _loss_function(loss)  # checked with either method
    margins = F[:, None, :] * M[None, :, :]
    if method == "hamming":
        distances = ((1.0 - np.sign(margins)) / 2.0).sum(axis=2)
    else:
        with np.errstate(over="ignore"):
            distances = np.asarray(loss_function(margins), dtype=np.float64)
            if distances.shape != margins.shape:
                raise ValueError(
                    "The loss must act elementwise: it returned shape "
                    f"{distances.shape} for margins of shape {margins.shape}."
                )
            distances = distances.sum(axis=2)
        if not np.isfinite(distances).all():
            # (an infinite distance would tie with the others and argmin pick the
            # first class, silently)
            raise ValueError(
                f"The {loss if isinstance(loss, str) else 'given'} loss of these scores "
                f"is not finite (|F| reaches {np.max(np.abs(F)):.3g}): scale the scores "
                "down, or use method='hamming'."
            )
    indices = np.argmin(distances, axis=1)
    return (indices, distances) if return_distances else indices


def code_matrix(code, n_classes, random_state=None, n_columns=None):
    """Build a named coding matrix for ``n_classes`` classes.

    Parameters
    ----------
    code : {"one-vs-all", "all-pairs", "dense-random", "sparse-random"}
        ``"one-vs-all"``: k columns, +1 on the diagonal and -1 elsewhere.
        ``"all-pairs"``: one column per pair (r1, r2), +1 in row r1, -1 in row r2,
        0 elsewhere.  ``"dense-random"``: ceil(10 log2 k) columns of random +-1.
        ``"sparse-random"``: ceil(15 log2 k) columns with 0 with probability 1/2 and
        +-1 with probability 1/4 each.  Of 200 random candidates (each column
        holding both a +1 and a -1, no row all zero, no two rows equal) the one
        whose closest pair of rows is farthest apart is returned.
    n_classes : int
        The number of classes k >= 2.
    random_state : int, numpy Generator or None, default=None
        Seeds the random codes (checked with the fixed ones too).
    n_columns : int, default=None
        The number of columns of a random code (at least 1); None takes the sizes
        above.  The other codes have a fixed size and refuse it.

    Returns
    -------
    M : ndarray of shape (n_classes, n_columns), dtype int

    Notes
    -----
    The random codes cost O(200 * n_classes^2 * n_columns): each candidate's closest
    pair of rows is found from the matrix product M M^T.

    References
    ----------
    .. [1] E. L. Allwein, R. E. Schapire and Y. Singer, "Reducing multiclass to
       binary: a unifying approach for margin classifiers", JMLR 1, 2000.

    Examples
    --------
    >>> from patrec import code_matrix
    >>> code_matrix("all-pairs", 3)
    array([[ 1,  1,  0],
           [-1,  0,  1],
           [ 0, -1, -1]])
    >>> code_matrix("sparse-random", 5, random_state=0).shape
    (5, 35)
    """
    check_option(code, "code", _CODES)
    k = check_scalar(n_classes, "n_classes", numbers.Integral, low=2)
    if n_columns is not None:
        if not code.endswith("-random"):
            raise ValueError(
                f"n_columns applies to the random codes only; the {code!r} code has "
                "a fixed number of columns."
            )
        check_scalar(n_columns, "n_columns", numbers.Integral, low=1)
    check_seed(random_state)  # with any code (the fixed ones draw nothing from it)
    if code == "one-vs-all":
        return 2 * np.eye(k, dtype=int) - 1
    if code == "all-pairs":
        pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
        M = np.zeros((k, len(pairs)), dtype=int)
        for s, (a, b) in enumerate(pairs):
            M[a, s], M[b, s] = 1, -1
        return M
    rng = check_random_state(random_state)
    if code == "dense-random":
        size, levels, probabilities = int(np.ceil(10 * np.log2(k))), [-1, 1], None
    else:
        size = int(np.ceil(15 * np.log2(k)))
        levels, probabilities = [-1, 0, 1], [0.25, 0.5, 0.25]
    n_columns = size if n_columns is None else int(n_columns)
    best, best_distance = None, -1.0
    for _ in range(_RANDOM_TRIALS):
        M = rng.choice(levels, size=(k, n_columns), p=probabilities)
        bad = ~_splits_column(M)
        while bad.any():  # redraw the columns that do not define a binary problem
            M[:, bad] = rng.choice(levels, size=(k, bad.sum()), p=probabilities)
            bad = ~_splits_column(M)
        if not np.any(M, axis=1).all() or _repeated_row(M) is not None:
            continue
        distance = _closest_rows_distance(M)
        if distance > best_distance:
            best, best_distance = M, distance
    if best is None:
        raise ValueError(
            f"No valid {code} code with {n_columns} columns found for {k} classes in "
            f"{_RANDOM_TRIALS} draws (every class needs its own code word, so at least "
            f"log2({k}) columns, and more make it likelier); ask for more columns."
        )
    return best


class OutputCodes(ArgmaxClassifierMixin, ClassifierMixin, BaseEstimator):
    """Error-correcting output codes: one binary model per column of a code matrix.

    Parameters
    ----------
    estimator : binary classifier, default=None
        Cloned for each column; it needs ``fit`` and ``decision_function``.  ``None``
        means ``Perceptron(averaged=True, random_state=0)``.
    code : {"one-vs-all", "all-pairs", "dense-random", "sparse-random"} or \
array-like of shape (n_classes, n_columns), default="one-vs-all"
        The coding matrix M (see `code_matrix`), or M itself with entries in
        {-1, 0, +1}, row r for ``classes_[r]``; every column needs a +1 and a -1,
        no row may be all zero and no two rows may be equal.
    decoding : {"hamming", "loss"}, default="loss"
        How scores are turned into a class (see `decode`).  Loss-based decoding uses
        the size of the scores as well as their signs; Hamming decoding with the
        one-vs-all code ties whenever no model, or several, claim a sample, and a
        tie goes to the first class (standardised iris, 5-fold accuracy with the
        default perceptrons: 0.72 Hamming, 0.93 hinge loss).  `decode` itself
        defaults to Hamming, the course's first rule.
    loss : {"hinge", "exp", "log"} or callable, default="hinge"
        The margin loss of loss-based decoding; Hamming decoding does not use it.
    code_size : float, default=None
        The number of columns of a random code as a multiple of the number of
        classes, ``max(1, int(code_size * n_classes))`` columns, as scikit-learn's
        ``OutputCodeClassifier`` counts them.  None takes Allwein, Schapire and
        Singer's sizes (see `code_matrix`).  Only for the random codes: with
        another code it is an error.
    random_state : int, numpy Generator or None, default=None
        Seeds the random codes; the fixed codes do not use it, but it is checked
        all the same.

    Attributes
    ----------
    code_ : ndarray of shape (n_classes, n_columns)
        The coding matrix used.
    estimators_ : list of n_columns estimators
        Model s is trained on the rows of the classes r with M(r, s) != 0, labelled
        M(r, s).
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_features_in_ : int
        Number of features seen in ``fit``.

    See Also
    --------
    decode, code_matrix, OneVsAll, AllPairs

    Notes
    -----
    Training costs one binary fit per column on the rows it uses; prediction one
    scoring per column plus O(n_classes * n_columns) per sample to decode.
    ``decision_function`` returns minus the distances, so larger is better.

    References
    ----------
    .. [1] T. G. Dietterich and G. Bakiri, "Solving multiclass learning problems via
       error-correcting output codes", JAIR 2, 1995.
    .. [2] E. L. Allwein, R. E. Schapire and Y. Singer, "Reducing multiclass to
       binary: a unifying approach for margin classifiers", JMLR 1, 2000.

    Examples
    --------
    >>> from patrec import OutputCodes
    >>> X = [[0, 0], [1, 0], [5, 0], [6, 0], [0, 5], [0, 6]]
    >>> clf = OutputCodes(code="all-pairs").fit(X, [0, 0, 1, 1, 2, 2])
    >>> clf.predict([[0.5, 0], [7, 0], [0, 7]]).tolist()
    [0, 1, 2]
    """

    _PEER_PARAMETERS = {
        "n_jobs": "none: the binary models are fitted one after the other",
    }

    def __init__(
        self,
        estimator=None,
        *,
        code="one-vs-all",
        decoding="loss",
        loss="hinge",
        code_size=None,
        random_state=None,
    ):
        self.estimator = estimator
        self.code = code
        self.decoding = decoding
        self.loss = loss
        self.code_size = code_size
        self.random_state = random_state

    def _fit(self, X, codes):
        base = check_binary_estimator(self.estimator)
        check_option(self.decoding, "decoding", ("hamming", "loss"))
        _loss_function(self.loss)
        n_classes = len(self.classes_)
        n_columns = None
        if self.code_size is not None:
            if not (isinstance(self.code, str) and self.code.endswith("-random")):
                shown = (
                    repr(self.code) if isinstance(self.code, str) else "a given matrix"
                )
                raise ValueError(
                    f"code_size applies to the random codes ('dense-random', "
                    f"'sparse-random') only; code={shown} has a fixed size."
                )
            code_size = check_scalar(self.code_size, "code_size", low=0, low_open=True)
            n_columns = max(1, int(code_size * n_classes))
            fewest = int(np.ceil(np.log2(n_classes)))  # distinct words for k classes
            if n_columns < fewest:
                raise ValueError(
                    f"code_size={plain(code_size)} gives {n_columns} column"
                    f"{'s' if n_columns > 1 else ''} for {n_classes} classes, too few "
                    f"for each class to have its own code word (at least {fewest}): "
                    f"use code_size >= {fewest / n_classes:.2g}."
                )
        if isinstance(self.code, str):
            M = code_matrix(self.code, n_classes, self.random_state, n_columns)
        else:
            M = check_code(self.code, n_classes)
        self.code_ = M
        self.estimators_ = []
        for column in M.T:
            labels = column[codes]
            rows = np.flatnonzero(labels)
            self.estimators_.append(fit_binary(base, X[rows], labels[rows]))

    def decision_function(self, X):
        """Minus the decoding distance of each sample to each class's code word.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples, n_classes) or (n_samples,)
            For two classes a single column: positive means ``classes_[1]``.
        """
        X = self._validate_X(X, accept_sparse=True)
        _, distances = decode(
            self.code_,
            binary_scores(self.estimators_, X),
            method=self.decoding,
            loss=self.loss,
            return_distances=True,
        )
        return decision_from_scores(-distances)


def check_code(M, n_classes):
    """Validate a user-given coding matrix for ``n_classes`` classes."""
    M = _check_code_values(M, "code")
    if M.shape[0] != n_classes:
        raise ValueError(
            f"code must have one row per class: shape ({n_classes}, n_columns), got "
            f"{M.shape}."
        )
    constant = np.flatnonzero(~_splits_column(M))
    if constant.size:
        raise ValueError(
            f"Column {constant[0]} of code does not hold both a +1 and a -1, so it "
            "defines no binary problem (a constant column)."
        )
    empty = np.flatnonzero(~np.any(M, axis=1))
    if empty.size:
        raise ValueError(
            f"Row {empty[0]} of code is all zero: that class would take part in no "
            "binary problem."
        )
    repeated = _repeated_row(M)
    if repeated is not None:
        raise ValueError(
            f"Rows {repeated[0]} and {repeated[1]} of code are the same code word: "
            "those classes could never be told apart."
        )
    return M


def _check_code_values(M, name):
    M = np.asarray(M)
    if M.ndim != 2 or M.shape[0] < 1 or M.shape[1] < 1:
        raise ValueError(f"{name} must be a non-empty 2-D matrix, got shape {M.shape}.")
    if M.dtype.kind not in "iuf" or not np.isin(M, (-1, 0, 1)).all():
        raise ValueError(f"{name} must hold only -1, 0 and +1.")
    return M.astype(int)


def _loss_function(loss):
    if callable(loss):
        return loss
    check_option(loss, "loss", tuple(_LOSSES))
    return _LOSSES[loss]


def _splits_column(M):
    """For each column: does it hold both a +1 and a -1?"""
    return (M == 1).any(axis=0) & (M == -1).any(axis=0)


def _repeated_row(M):
    """The first pair (q, r), q < r, of equal rows of M, or None."""
    for r in range(1, M.shape[0]):
        equal = np.flatnonzero((M[:r] == M[r]).all(axis=1))
        if equal.size:
            return int(equal[0]), r
    return None


def _closest_rows_distance(M):
    """The smallest distance sum_s (1 - M(r, s) M(q, s)) / 2 between two rows."""
    distances = (M.shape[1] - M @ M.T) / 2.0
    np.fill_diagonal(distances, np.inf)
    return distances.min()
