"""The multiclass (Crammer-Singer) support vector machine, trained by SGD.

The model is the linear machine argmax_r w_r . x (each w_r augmented with a bias).
The weights minimise the regularised generalised hinge loss

    F(W) = (1/m) sum_i max_r [delta(r != y_i) - w_{y_i} . x_i + w_r . x_i]
           + (lambda / 2) sum_r ||w_r||^2,

an upper bound on the training error plus a penalty.  Stochastic subgradient descent
with step eta_t = 1 / (lambda t) visits one row per step:

    r* = argmax_r [delta(r != y) + w_r . x]            (loss-augmented winner)
    if r* != y:  w_y <- (1 - lambda eta_t) w_y + eta_t x
                 w_r* <- (1 - lambda eta_t) w_r* - eta_t x
    every other w_r <- (1 - lambda eta_t) w_r

(the course's update: shrink all, add to the true class, subtract from the winner).
The loops are in ``_multiclass_svm.pyx``.
"""
import numpy as np

from ..base import BaseEstimator, ClassifierMixin
from .._validation import check_scalar
from ._base import (LinearClassifierMixin, check_epoch, check_epochs,
                    check_finite_weights, check_flag, epoch_orders, row_storage)
from ._multiclass_svm import crammer_singer_epoch, crammer_singer_objective

__all__ = ["MulticlassSVM"]


class MulticlassSVM(LinearClassifierMixin, ClassifierMixin, BaseEstimator):
    """Crammer-Singer multiclass SVM by stochastic subgradient descent (Pegasos).

    Parameters
    ----------
    alpha : float, default=1e-4
        The regularisation strength lambda > 0.  It plays the part of
        1 / (C n_samples) for scikit-learn's ``LinearSVC(C=C)``.
    max_epochs : int, default=20
        Passes over the training data.
    averaged : bool, default=True
        Return the mean of the iterates of the last half of the epochs (epochs
        ``max_epochs // 2 + 1`` to ``max_epochs``) instead of the last iterate; the
        mean is much less noisy.  Leaving out the early iterates, whose steps
        1 / (lambda t) are large, makes it converge faster than the mean of all.
    shuffle : bool, default=True
        Visit the rows in a new random order every epoch.
    random_state : int, numpy Generator or None, default=None
        Seeds the shuffling.

    Attributes
    ----------
    coef_ : ndarray of shape (n_classes, n_features)
        Row r is w_r (float64).
    intercept_ : ndarray of shape (n_classes,)
        The biases b_r (the weights of a constant feature 1, regularised too).
    objective_ : ndarray of shape (`n_iter_`,)
        The objective F of the returned weights (averaged or last) after each epoch.
    n_iter_ : int
        Epochs run (always ``max_epochs``).
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_features_in_ : int
        Number of features seen in ``fit``.

    See Also
    --------
    LinearMachine : the perceptron rule for the same model.

    Notes
    -----
    Because eta_t = 1 / (lambda t), the iterate is W_{t+1} = (g_1 + ... + g_t) /
    (lambda t) where g_s is the update direction of step s, so the loop stores the
    running sum of the g_s and no shrinking is ever applied to memory: a step costs
    O(n_classes * n_features) to score the row (O(n_classes * nnz) for CSR input) and
    O(nnz) to update.  Recording the objective costs one more scoring pass per
    epoch.

    float32 input is read as float32 by the loops, never copied or upcast; the
    weights and the sums accumulated into them are float64, since a weight is a sum
    of up to n_samples * max_epochs updates that float32 would round away.
    ``decision_function`` works in the precision of ``X``.

    References
    ----------
    .. [1] K. Crammer and Y. Singer, "On the algorithmic implementation of multiclass
       kernel-based vector machines", JMLR 2, 2001.
    .. [2] S. Shalev-Shwartz, Y. Singer, N. Srebro and A. Cotter, "Pegasos: primal
       estimated sub-gradient solver for SVM", Mathematical Programming 127, 2011.
    .. [3] A. Rakhlin, O. Shamir and K. Sridharan, "Making gradient descent optimal
       for strongly convex stochastic optimization", ICML 2012 (suffix averaging).

    Examples
    --------
    >>> from patrec import MulticlassSVM
    >>> X = [[0, 0], [1, 0], [5, 0], [6, 0], [0, 5], [0, 6]]
    >>> clf = MulticlassSVM(alpha=0.01, random_state=0).fit(X, [0, 0, 1, 1, 2, 2])
    >>> clf.predict([[0.5, 0], [7, 0], [0, 7]]).tolist()
    [0, 1, 2]
    """

    def __init__(self, *, alpha=1e-4, max_epochs=20, averaged=True, shuffle=True,
                 random_state=None):
        self.alpha = alpha
        self.max_epochs = max_epochs
        self.averaged = averaged
        self.shuffle = shuffle
        self.random_state = random_state

    def _fit(self, X, codes):
        lam = float(check_scalar(self.alpha, "alpha", low=0, low_open=True))
        averaged = check_flag(self.averaged, "averaged")
        max_epochs = check_epochs(self.max_epochs)
        orders = epoch_orders(X.shape[0], self.shuffle, self.random_state)

        values, columns, row_starts = row_storage(X)
        n_classes, n_features = len(self.classes_), X.shape[1]
        update_sum = np.zeros((n_features + 1, n_classes))  # column r: class r
        weighted_sum = np.zeros_like(update_sum)
        scores = np.empty(n_classes)
        state = np.array([0.0, 0.0])  # steps t taken, harmonic number H_t
        objective = []
        first_averaged = max_epochs // 2 + 1  # suffix averaging: the last half
        averaged_steps = 0
        for epoch, order in enumerate(orders, start=1):
            if epoch == first_averaged:  # the mean starts here
                weighted_sum[...] = 0.0
                state[1] = 0.0
            check_epoch(crammer_singer_epoch(
                values, columns, row_starts, n_features, codes, order, update_sum,
                weighted_sum, scores, state, lam, averaged and epoch >= first_averaged),
                X)
            steps, harmonic = state
            if averaged and epoch >= first_averaged:
                averaged_steps += len(order)
                weights = ((harmonic * update_sum - weighted_sum)
                           / (lam * averaged_steps))
            else:
                weights = update_sum / (lam * steps)
            check_finite_weights(weights, X, f"alpha={self.alpha!r} is too small, or "
                                 "the features need scaling")
            objective.append(crammer_singer_objective(
                values, columns, row_starts, n_features, codes, weights, lam, scores))
            if epoch == max_epochs:
                break
        self.coef_ = weights[:n_features].T.copy()
        self.intercept_ = weights[n_features].copy()
        self.objective_ = np.asarray(objective)
        self.n_iter_ = max_epochs
