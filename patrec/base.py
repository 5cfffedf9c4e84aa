"""The base classes every patrec estimator derives from.

`BaseEstimator` gives scikit-learn's parameter protocol (``get_params``/``set_params``
read from the ``__init__`` signature), a short ``repr`` and the fitted check.

`ClassifierMixin` adds ``score`` (accuracy) and the validation every classifier shares:
a public ``fit`` validates ``X`` and ``y``, encodes the labels into ``classes_`` and
then calls the subclass's ``_fit(X, codes)`` with labels ``0 .. n_classes - 1``.

One model at a time, whatever the threads do: ``fit`` works on a copy of the
estimator and replaces the estimator's state with the copy's, whole, only when it
succeeds (`BaseEstimator._fit_transaction`); each method that reads the fitted model
(``predict``, ``predict_proba``, ``kneighbors``, ..., the names in `READERS`) runs on
the state as it was when the call began.  A ``predict`` racing a ``fit`` in another
thread answers with the old model or the new one, never a mixture, and a failed or
interrupted ``fit`` leaves the estimator as it was.

scikit-learn is never imported here at run time: only ``__sklearn_tags__`` imports it,
and only scikit-learn itself calls that.
"""

import contextlib
import copy
import functools
import inspect
import warnings

import numpy as np

from ._pickling import stamped, unstamped
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


#: The public methods that read a fitted model: in every estimator each one runs on
#: the model as it was when the call began (see the module docstring).
READERS = frozenset(
    {
        "decision_function",
        "get_feature_names_out",
        "kneighbors",
        "kneighbors_graph",
        "predict",
        "predict_log_proba",
        "predict_proba",
        "radius_neighbors",
        "radius_neighbors_graph",
        "score",
        "subclass_decision_function",
        "transform",
    }
)


class BaseEstimator:
    """Parameters, ``repr`` and fitted checks shared by every estimator.

    A subclass's ``__init__`` stores each keyword argument unchanged under its own
    name and does nothing else; validation happens in ``fit``.
    """

    #: Parameters of the peers' classes (scikit-learn's, imbalanced-learn's) that
    #: this one does not take, each with what patrec does instead: a script written
    #: for the peer gets that, not Python's "unexpected keyword argument".
    _PEER_PARAMETERS = {}

    def __new__(cls, *args, **params):
        unknown = sorted(set(params) - set(cls._param_names()))
        if unknown:
            raise TypeError(cls._unknown_parameters_message(unknown))
        return super().__new__(cls)

    @classmethod
    def _unknown_parameters_message(cls, unknown):
        said = [
            f"{name}: {cls._PEER_PARAMETERS[name]}"
            if name in cls._PEER_PARAMETERS
            else f"{name}: no such parameter"
            for name in unknown
        ]
        return (
            f"{cls.__name__} got unexpected parameter(s) {unknown}; in patrec: "
            + "; ".join(said)
            + f". Its parameters are {cls._param_names()}."
        )

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in READERS:  # (its own or a mixin's)
            method = getattr(cls, name, None)
            if inspect.isfunction(method) and not hasattr(method, "reads_one_model"):
                setattr(cls, name, _reads_one_model(method))

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
                    f"Invalid parameter {name!r} for {type(self).__name__}. "
                    + self._unknown_parameters_message([name])
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

    def __getstate__(self):
        return stamped(self.__dict__)

    def __setstate__(self, state):
        self.__dict__.update(unstamped(state, type(self).__name__))

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

    def _validate_params(self):
        """Check the parameters that need no data; ``fit`` calls it before it looks
        at the data, so that a wrong parameter is named first.  (Parameters checked
        against the data are checked in ``fit``.)"""

    @contextlib.contextmanager
    def _fit_transaction(self):
        """A copy of the estimator, without its fitted state, to fit in the ``with``
        block; when the block ends without an error the copy's state replaces the
        estimator's, whole (one assignment of ``__dict__``).  On an error, Ctrl-C
        included, nothing is replaced: the estimator stays as it was."""
        model = object.__new__(type(self))
        learned = self._fitted_state()
        model.__dict__ = {
            name: value for name, value in vars(self).items() if name not in learned
        }
        yield model
        self.__dict__ = model.__dict__

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
        self._validate_params()
        names = feature_names_of(X)
        X = check_X(X, accept_sparse=self._accept_sparse, estimator=self)
        classes, codes = encode_labels(
            check_labels(y, X.shape[0]), compact=self._compact_codes
        )
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, X.shape[0])
        with self._fit_transaction() as model:
            model._start_fit(X, names)
            model.classes_ = classes
            if sample_weight is None:
                model._fit(X, codes)
            else:
                model._fit(X, codes, sample_weight=sample_weight)
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


def _reads_one_model(method):
    """``method`` run on a view of the estimator that shares its state as it is when
    the call begins: a ``fit`` that replaces the state meanwhile (`_fit_transaction`
    assigns a new ``__dict__``, never changing the old one) is not seen half-way."""

    @functools.wraps(method)
    def read(self, *args, **kwargs):
        view = object.__new__(type(self))
        view.__dict__ = self.__dict__
        return method(view, *args, **kwargs)

    read.reads_one_model = True
    return read


def _same_value(value, default):
    if value is default:
        return True
    if isinstance(value, np.ndarray) or isinstance(default, np.ndarray):
        return False
    try:
        return bool(value == default) and type(value) is type(default)
    except Exception:  # comparisons that raise or are ambiguous count as different
        return False
