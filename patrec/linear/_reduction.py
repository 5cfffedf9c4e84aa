"""What the reductions to binary problems share: the base estimator and its scores.

Every binary problem is given to a fresh clone of the base estimator with labels
-1 and +1, so the base estimator's ``decision_function`` is positive for the +1 side.
"""

import numpy as np

from ..base import clone
from .perceptron import Perceptron


def default_binary_estimator():
    """The base estimator used when none is given: an averaged perceptron."""
    return Perceptron(averaged=True, random_state=0)


def check_binary_estimator(estimator):
    """The base estimator to clone: ``estimator`` or the default, checked."""
    if estimator is None:
        return default_binary_estimator()
    if isinstance(estimator, type):
        raise TypeError(
            f"The base estimator must be an instance, not the class "
            f"{estimator.__name__}: pass {estimator.__name__}() instead."
        )
    missing = [
        name
        for name in ("fit", "decision_function", "get_params")
        if not hasattr(estimator, name)
    ]
    if missing:
        raise TypeError(
            f"The base estimator must be a binary classifier with fit, "
            f"decision_function and get_params; {type(estimator).__name__} lacks "
            f"{', '.join(missing)}."
        )
    return estimator


def fit_binary(estimator, X, signs):
    """Fit a clone of ``estimator`` on the rows of ``X`` labelled ``signs`` (+-1)."""
    model = clone(estimator)
    model.fit(X, signs)
    return model


def binary_scores(models, X):
    """The matrix F with F[:, s] = f_s(X), the score of binary model s."""
    columns = []
    for model in models:
        score = np.asarray(model.decision_function(X), dtype=np.float64)
        if score.shape not in ((X.shape[0],), (X.shape[0], 1)):
            raise ValueError(
                f"{type(model).__name__}.decision_function returned shape "
                f"{score.shape} on a binary problem; one score per sample, shape "
                f"({X.shape[0]},), is needed."
            )
        columns.append(score.reshape(X.shape[0]))
    return np.column_stack(columns)


def score_scales(models, normalize):
    """1 / ||w_s|| for each fitted model (the fusion rule), or ones.

    With ``normalize`` each model must expose ``coef_``; a zero weight vector keeps
    the scale 1.
    """
    scales = np.ones(len(models))
    if not normalize:
        return scales
    for s, model in enumerate(models):
        coef = getattr(model, "coef_", None)
        if coef is None:
            raise TypeError(
                f"normalize=True needs base estimators with coef_; "
                f"{type(model).__name__} has none. Pass normalize=False."
            )
        norm = np.linalg.norm(np.ravel(coef))
        if norm > 0:
            scales[s] = 1.0 / norm
    return scales
