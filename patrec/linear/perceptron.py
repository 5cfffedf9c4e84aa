"""The binary perceptron.

Labels are y = +1 for ``classes_[1]`` and y = -1 for ``classes_[0]``, and the
augmented weight vector a = (w, b) scores a sample by g(x) = w . x + b.  The rows are
visited in turn; a row is a mistake when y g(x) <= margin, and a mistake moves the
weights towards the correct side:

    a <- a + rho * y * (x, 1).

An epoch is one pass over the rows; training stops after the first epoch without a
mistake (the data are then separated with the requested margin) or after
``max_epochs`` epochs.  The loop is ``_perceptron.binary_perceptron_epoch``.
"""

import numpy as np

from ..base import BaseEstimator, ClassifierMixin
from .._validation import check_scalar
from ._base import (LinearClassifierMixin, check_epoch, check_epochs,
                    check_finite_weights, check_flag, epoch_orders, row_storage)
from ._perceptron import binary_perceptron_epoch

__all__ = ["Perceptron"]


class Perceptron(LinearClassifierMixin, ClassifierMixin, BaseEstimator):
    """The binary perceptron with an augmented weight vector.

    For more than two classes, one perceptron per class against the rest.

    Parameters
    ----------
    learning_rate : float, default=1.0
        The step rho > 0 of each correction a <- a + rho y (x, 1).
    margin : float, default=0.0
        A row counts as a mistake while y (w . x + b) <= margin; a positive margin
        keeps correcting until every row is that far on its side.
    averaged : bool, default=False
        Return the mean of the weight vectors over all steps (the averaged
        perceptron) instead of the last one.  It generalises better on data that
        are not separable.
    max_epochs : int, default=100
        Most passes over the training data.
    shuffle : bool, default=True
        Visit the rows in a new random order every epoch.
    random_state : int, numpy Generator or None, default=None
        Seeds the shuffling.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The weights w (float64); one row per class for more than two classes.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias b.
    n_iter_ : int
        Epochs run.
    mistakes_ : ndarray of shape (`n_iter_`,)
        Mistakes made in each epoch (summed over the perceptrons of a multiclass
        problem); the last is 0 when the data were separated.
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_features_in_ : int
        Number of features seen in ``fit``.

    See Also
    --------
    LinearMachine : the multiclass perceptron.
    OneVsAll : k binary perceptrons for k classes.

    Notes
    -----
    Each epoch costs O(n_samples * n_features) (O(nnz) for CSR input).  On linearly
    separable data with margin gamma and radius R the perceptron makes at most
    (R / gamma)^2 mistakes (Novikoff).  With more than two classes one perceptron
    per class is trained (class r against the rest) and the largest raw score wins;
    `OneVsAll` does the same with the fusion rule, `LinearMachine` trains the k
    weight vectors jointly.

    float32 input is read as float32 by the loops, never copied or upcast; the
    weights and the sums accumulated into them are float64, since a weight is a sum
    of up to n_samples * max_epochs updates that float32 would round away.
    ``decision_function`` works in the precision of ``X``.

    References
    ----------
    .. [1] F. Rosenblatt, "The perceptron: a probabilistic model for information
       storage and organization in the brain", Psychological Review 65, 1958.
    .. [2] Y. Freund and R. E. Schapire, "Large margin classification using the
       perceptron algorithm", Machine Learning 37, 1999 (averaging).

    Examples
    --------
    >>> from patrec import Perceptron
    >>> X = [[0, 0], [1, 0], [3, 3], [4, 3]]
    >>> clf = Perceptron(random_state=0).fit(X, [0, 0, 1, 1])
    >>> clf.predict([[0.5, 0], [3.5, 3]]).tolist()
    [0, 1]
    """

    def __init__(self, *, learning_rate=1.0, margin=0.0, averaged=False,
                 max_epochs=100, shuffle=True, random_state=None):
        self.learning_rate = learning_rate
        self.margin = margin
        self.averaged = averaged
        self.max_epochs = max_epochs
        self.shuffle = shuffle
        self.random_state = random_state

    def _fit(self, X, codes):
        rate = check_scalar(self.learning_rate, "learning_rate", low=0, low_open=True)
        margin = check_scalar(self.margin, "margin", low=0)
        averaged = check_flag(self.averaged, "averaged")
        max_epochs = check_epochs(self.max_epochs)
        orders = epoch_orders(X.shape[0], self.shuffle, self.random_state)

        n_classes, n_features = len(self.classes_), X.shape[1]
        if n_classes == 2:
            problems = [codes]
        else:  # one perceptron per class: class r (+1) against the rest (-1)
            problems = [(codes == r).astype(np.intp) for r in range(n_classes)]
        values, columns, row_starts = row_storage(X)
        weights = np.zeros((len(problems), n_features + 1))
        sums = np.zeros_like(weights)
        counters = np.zeros((len(problems), 1))
        active = list(range(len(problems)))  # the problems still making mistakes
        mistakes = []
        for order in orders:
            made = [check_epoch(binary_perceptron_epoch(
                        values, columns, row_starts, n_features, problems[s], order,
                        weights[s], sums[s], counters[s], float(rate), float(margin),
                        averaged), X)
                    for s in active]
            mistakes.append(sum(made))
            active = [s for s, count in zip(active, made) if count > 0]
            if not active or len(mistakes) == max_epochs:
                break
        if averaged:
            weights -= sums / counters
        check_finite_weights(weights, X)
        self.coef_ = weights[:, :n_features].copy()
        self.intercept_ = weights[:, n_features].copy()
        self.n_iter_ = len(mistakes)
        self.mistakes_ = np.asarray(mistakes, dtype=np.intp)
