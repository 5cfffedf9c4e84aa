"""The base classes every patrec estimator derives from.

`BaseEstimator` gives scikit-learn's parameter protocol (``get_params``/``set_params``
read from the ``__init__`` signature), a short ``repr`` and the fitted check.
`ClassifierMixin` adds ``score`` (accuracy) and the validation every classifier shares:
a public ``fit`` validates ``X`` and ``y``, encodes the labels into ``classes_`` and
then calls the subclass's ``_fit(X, codes)`` with labels ``0 .. n_classes - 1``.

scikit-learn is never imported here at run time: only ``__sklearn_tags__`` imports it,
and only scikit-learn itself calls that.
"""

import copy
import inspect
import warnings

import numpy as np

from ._validation import (
    check_labels,
    check_sample_weight,
    check_X,
    encode_labels,
    feature_names_of,
)
from .exceptions import not_fitted_error

__all__ = [
    "BaseEstimator",
    "ClassifierMixin",
    "WeightedFitMixin",
    "clone",
    "decision_from_scores",
]


class BaseEstimator:
    """Parameters, ``repr`` and fitted checks shared by every estimator.

    A subclass's ``__init__`` stores each keyword argument unchanged under its own
    name and does nothing else; validation happens in ``fit``.
    """

    @classmethod
    def _param_names(cls):
        init = cls.__init__
        if init is object.__init__:
            return []
        names = []
        for parameter in inspect.signature(init).parameters.values():
            if parameter.name == "self":
                continue
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                raise TypeError(
                    f"{cls.__name__}.__init__ must not take *args or **kwargs."
                )
            names.append(parameter.name)
        return sorted(names)

    def get_params(self, deep=True):
        """Return the estimator's parameters as a dict.

        With ``deep=True`` the parameters of nested estimators are included as
        ``"<name>__<parameter>"``.
        """
        params = {}
        for name in self._param_names():
            value = getattr(self, name)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                for key, inner in value.get_params(deep=True).items():
                    params[f"{name}__{key}"] = inner
            params[name] = value
        return params

    def set_params(self, **params):
        """Set parameters, including ``"<name>__<parameter>"`` of nested estimators.

        Returns ``self``.
        """
        valid = self._param_names()
        nested = {}
        for key, value in params.items():
            name, sep, inner = key.partition("__")
            if name not in valid:
                raise ValueError(
                    f"Invalid parameter {name!r} for {type(self).__name__}; valid "
                    f"parameters are {valid}."
                )
            if sep:
                nested.setdefault(name, {})[inner] = value
            else:
                setattr(self, name, value)
        for name, inner_params in nested.items():
            inner = getattr(self, name)
            if not hasattr(inner, "set_params"):
                raise ValueError(
                    f"Cannot set {sorted(inner_params)} of parameter {name!r}: its value "
                    f"{inner!r} is not an estimator."
                )
            inner.set_params(**inner_params)
        return self

    def __repr__(self):
        defaults = {
            name: parameter.default
            for name, parameter in inspect.signature(
                type(self).__init__
            ).parameters.items()
        }
        shown = []
        for name in self._param_names():
            value = getattr(self, name)
            default = defaults.get(name, inspect.Parameter.empty)
            if not _same_value(value, default):
                shown.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(shown)})"

    def __sklearn_tags__(self):
        from sklearn.utils import Tags, TargetTags  # only scikit-learn calls this

        return Tags(estimator_type=None, target_tags=TargetTags(required=False))

    def __sklearn_is_fitted__(self):
        return hasattr(self, "n_features_in_")

    def _check_is_fitted(self):
        if not self.__sklearn_is_fitted__():
            raise not_fitted_error(
                f"This {type(self).__name__} instance is not fitted yet. Call 'fit' "
                "with appropriate arguments before using this estimator."
            )

    def _forget_fit(self):
        """Drop everything learned by ``fit`` (the attributes ending in ``_``)."""
        for name in self._fitted_state():
            delattr(self, name)

    def _fitted_state(self):
        """The attributes learned by ``fit`` (ending in ``_``), by name."""
        return {
            name: value
            for name, value in vars(self).items()
            if name.endswith("_") and not name.startswith("__")
        }

    def _start_fit(self, X, feature_names):
        """Drop the state of an earlier fit; set ``n_features_in_``/``feature_names_in_``."""
        self._forget_fit()
        self.n_features_in_ = X.shape[1]
        if feature_names is not None:
            self.feature_names_in_ = feature_names

    def _validate_X(self, X, **kwargs):
        """Validate data for a fitted estimator: same features as at fit time."""
        self._check_is_fitted()
        self._check_feature_names(X)
        X = check_X(X, estimator=self, **kwargs)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                f"{self.n_features_in_} features as input."
            )
        return X

    def _check_feature_names(self, X):
        fitted = getattr(self, "feature_names_in_", None)
        given = feature_names_of(X)
        if fitted is None and given is None:
            return
        if fitted is None:
            warnings.warn(
                f"X has feature names, but {type(self).__name__} was fitted without "
                "feature names.",
                UserWarning,
                stacklevel=3,
            )
            return
        if given is None:
            warnings.warn(
                f"X does not have valid feature names, but {type(self).__name__} was "
                "fitted with feature names.",
                UserWarning,
                stacklevel=3,
            )
            return
        if len(fitted) == len(given) and np.array_equal(fitted, given):
            return
        message = "The feature names should match those that were passed during fit.\n"
        unseen = sorted(set(given) - set(fitted))
        missing = sorted(set(fitted) - set(given))
        if not unseen and not missing:
            message += "Feature names must be in the same order as they were in fit.\n"
        for title, names in (
            ("unseen at fit time", unseen),
            ("seen at fit time, yet now missing", missing),
        ):
            if names:
                message += f"Feature names {title}:\n"
                message += "".join(f"- {name}\n" for name in names)
        raise ValueError(message)


class ClassifierMixin:
    """``fit`` validation, label encoding and accuracy ``score`` for classifiers.

    A subclass implements ``_fit(X, codes)`` where ``codes`` are the labels encoded
    as ``0 .. n_classes - 1``; ``classes_``, ``n_features_in_`` and (for data frames)
    ``feature_names_in_`` are already set when it runs.  The codes are ``intp``, or
    the smallest unsigned integer type that holds them when ``_compact_codes`` is set
    (a subclass that keeps them, so a large fit never holds them twice).
    """

    _accept_sparse = False
    _compact_codes = False

    def fit(self, X, y):
        """Fit the classifier.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Class labels: any hashable, sortable values.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        return self._validate_and_fit(X, y)

    def _validate_and_fit(self, X, y, sample_weight=None):
        """Validate, encode the labels, then call ``_fit`` (with the weights if given)."""
        names = feature_names_of(X)
        X = check_X(X, accept_sparse=self._accept_sparse, estimator=self)
        classes, codes = encode_labels(
            check_labels(y, X.shape[0]), compact=self._compact_codes
        )
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, X.shape[0])
        previous = self._fitted_state()
        self._start_fit(X, names)
        self.classes_ = classes
        try:
            if sample_weight is None:
                self._fit(X, codes)
            else:
                self._fit(X, codes, sample_weight=sample_weight)
        except BaseException:
            # a failed or interrupted (Ctrl-C) fit leaves no half-fitted model: the
            # estimator is as it was before the call, fitted or not
            self._forget_fit()
            vars(self).update(previous)
            raise
        return self

    def _fit(self, X, codes):
        raise NotImplementedError

    def score(self, X, y, sample_weight=None):
        """Accuracy of ``predict(X)`` against ``y``: the (weighted) share of hits.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            The true labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights of the samples; equal weights when None.

        Returns
        -------
        accuracy : float
        """
        predicted = self.predict(X)
        y = check_labels(y, predicted.shape[0])
        hits = predicted == y
        if sample_weight is None:
            return float(np.mean(hits))
        weights = np.asarray(sample_weight, dtype=np.float64)
        if (
            weights.shape != hits.shape
            or not np.all(np.isfinite(weights))
            or np.any(weights < 0)
            or weights.sum() <= 0
        ):
            raise ValueError(
                "sample_weight must hold one finite non-negative weight per sample, "
                "not all zero."
            )
        return float(np.average(hits, weights=weights))

    def _labels_from_scores(self, scores):
        """``classes_`` of the highest score per row (the first one on ties)."""
        return self.classes_[np.argmax(scores, axis=1)]

    def __sklearn_tags__(self):
        from sklearn.utils import ClassifierTags, TargetTags

        tags = super().__sklearn_tags__()
        tags.estimator_type = "classifier"
        tags.classifier_tags = ClassifierTags()
        tags.target_tags = TargetTags(required=True)
        tags.input_tags.sparse = self._accept_sparse
        return tags


class WeightedFitMixin:
    """Gives a classifier ``fit(X, y, sample_weight=None)``.

    Put it before `ClassifierMixin` in the bases.  The subclass's ``_fit`` then takes
    ``_fit(X, codes, sample_weight=None)``; it receives validated float64 weights (one
    finite, non-negative number per sample, not all zero) or ``None`` when the caller
    gave none, so the unweighted path stays exactly as it was.
    """

    def fit(self, X, y, sample_weight=None):
        """Fit the classifier.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Class labels: any hashable, sortable values.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weight of each sample; equal weights when None.  What a
            weight means for this method is said in the class's Notes.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        return self._validate_and_fit(X, y, sample_weight)


def decision_from_scores(scores):
    """Per-class scores as ``decision_function`` returns them.

    For two classes the single column ``score(classes_[1]) - score(classes_[0])``
    (positive means ``classes_[1]``, scikit-learn's convention); otherwise unchanged.
    Two finite scores whose difference leaves the range of their dtype (float32
    scores near 1e38) raise a ValueError rather than an infinite answer.
    """
    if scores.shape[1] != 2:
        return scores
    with np.errstate(over="ignore"):
        difference = scores[:, 1] - scores[:, 0]
    if not np.isfinite(difference).all() and np.isfinite(scores).all():
        raise ValueError(
            f"The difference of the two class scores overflows {scores.dtype}: the "
            "data are too large for it. Rescale the data (for example standardize "
            "the features) or pass float64 data."
        )
    return difference


def clone(estimator):
    """A new, unfitted estimator with the same parameters.

    Nested estimators are cloned and other parameter values deep-copied, so the clone
    shares no mutable state (a ``metric_params`` dict, an array) with the original.
    """
    if isinstance(estimator, type) or not hasattr(estimator, "get_params"):
        raise TypeError(
            f"clone needs an estimator instance (with get_params), got {estimator!r}."
        )
    params = estimator.get_params(deep=False)
    for name, value in params.items():
        if hasattr(value, "get_params") and not isinstance(value, type):
            params[name] = clone(value)
        else:
            params[name] = copy.deepcopy(value)
    return type(estimator)(**params)


def _same_value(value, default):
    if value is default:
        return True
    if isinstance(value, np.ndarray) or isinstance(default, np.ndarray):
        return False
    try:
        return bool(value == default) and type(value) is type(default)
    except Exception:  # comparisons that raise or are ambiguous count as different
        return False
