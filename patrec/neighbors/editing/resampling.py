"""Editing and condensing as resamplers, for pipelines.

`Editing`, `MultiEditing`, `Condensing` and `EditCondensing` wrap `edit`,
`multiedit`, `condense` and `edit_condense` in imbalanced-learn's sampler protocol:
``fit_resample(X, y)`` returns the reduced ``(X, y)`` and ``sample_indices_`` the
indices of the rows kept.  imbalanced-learn's `Pipeline` then applies them to the
training data only, before a classifier::

    from imblearn.pipeline import make_pipeline
    model = make_pipeline(Editing(), KNeighborsClassifier(n_neighbors=1))

imbalanced-learn is not imported (only its tag classes, when imbalanced-learn itself
asks for the tags).

Which classes lose samples
--------------------------
``sampling_strategy`` follows imbalanced-learn's cleaning samplers: ``"auto"`` (the
default, as in imbalanced-learn) and ``"not minority"`` reduce every class but the
smallest, ``"all"`` every class (the textbook algorithms, and the functions'
behaviour), ``"majority"`` the largest, ``"not majority"`` all but the largest, and a
list names the classes.  The samples of the other classes are all kept; they still
vote (editing), judge (multi-edit) and sit in the store (condensing).  So
``Editing(sampling_strategy="all")`` returns exactly ``edit(X, y)``.
"""

import numpy as np

from ..._validation import check_labels, check_X, encode_labels, feature_names_of
from ...base import BaseEstimator
from .condensing import condense, edit_condense
from .editing import edit, multiedit

__all__ = ["Editing", "MultiEditing", "Condensing", "EditCondensing"]

SAMPLING_STRATEGIES = ("auto", "all", "majority", "not minority", "not majority")


class _Resampler(BaseEstimator):
    """The sampler protocol: validate, choose the classes, reduce, return rows.

    A subclass names its editing function in ``_function``; it is called with the
    subclass's parameters (all but ``sampling_strategy``) and the targeted classes,
    and returns the sorted indices of the rows kept.
    """

    _function = None

    def _reduce(self, X, y, target_classes):
        params = self.get_params(deep=False)
        del params["sampling_strategy"]
        return type(self)._function(X, y, target_classes=target_classes, **params)

    def fit(self, X, y):
        """Run `fit_resample` and keep only the fitted attributes; return self."""
        self.fit_resample(X, y)
        return self

    def fit_resample(self, X, y):
        """Reduce the training set.

        Parameters
        ----------
        X : array-like or data frame of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels (any hashable type).  A one-hot matrix, one 1 per row, is
            read as the class of its 1 (imbalanced-learn's one-vs-all targets).

        Returns
        -------
        X_resampled : same type as ``X``, of shape (n_kept, n_features)
            The rows kept, in their original order and dtype.
        y_resampled : same type as ``y``, of shape (n_kept,)
        """
        self._validate_params()
        features = check_X(X, min_samples=2)
        labels = _labels_of(y, features.shape[0])
        classes, codes = encode_labels(labels)
        targets = _target_classes(self.sampling_strategy, classes, codes)
        # (a refused or interrupted call leaves the resampler as it was)
        with self._fit_transaction() as model:
            model._start_fit(features, feature_names_of(X))
            model.sampling_strategy_ = {
                label: int(np.bincount(codes).min()) for label in targets
            }
            kept = model._reduce(features, labels, list(targets))
            model.sample_indices_ = kept
        return _take_rows(X, kept), _take_rows(y, kept)

    def get_feature_names_out(self, input_features=None):
        """The names of the output columns: those of the input.

        Parameters
        ----------
        input_features : array-like of str, default=None
            None: ``feature_names_in_`` when fitted on a data frame, else
            ``x0, x1, ...``.

        Returns
        -------
        names : ndarray of str objects
        """
        self._check_is_fitted()
        fitted = getattr(self, "feature_names_in_", None)
        if input_features is None:
            if fitted is not None:
                return fitted.copy()
            return np.asarray(
                [f"x{i}" for i in range(self.n_features_in_)], dtype=object
            )
        input_features = np.asarray(input_features, dtype=object)
        if fitted is not None and not np.array_equal(fitted, input_features):
            raise ValueError("input_features is not equal to feature_names_in_")
        if len(input_features) != self.n_features_in_:
            raise ValueError(
                "input_features should have length equal to number of features "
                f"({self.n_features_in_}), got {len(input_features)}"
            )
        return input_features

    def __sklearn_tags__(self):
        try:  # imbalanced-learn's tags (only scikit-learn's get_tags calls this)
            from imblearn.utils._tags import InputTags, SamplerTags, Tags
            from sklearn.utils import TargetTags
        except ImportError:
            tags = super().__sklearn_tags__()
            tags.estimator_type = "sampler"
            tags.target_tags.required = True
            tags.input_tags.dataframe = True
            return tags
        tags = Tags(
            estimator_type="sampler",
            target_tags=TargetTags(required=True),
            transformer_tags=None,
            regressor_tags=None,
            classifier_tags=None,
            sampler_tags=SamplerTags(sample_indices=True),
        )
        tags.input_tags = InputTags(two_d_array=True, dataframe=True)
        return tags

    def __sklearn_is_fitted__(self):
        return hasattr(self, "sample_indices_")


def _labels_of(y, n_samples):
    """1-D labels: a one-hot matrix becomes the column of each row's 1."""
    if hasattr(y, "to_numpy"):
        y = y.to_numpy()
    array = np.asarray(y) if not isinstance(y, list) else None
    if array is not None and array.ndim == 2 and array.shape[1] > 1:
        binary = array.dtype.kind in "biuf" and np.isin(array, (0, 1)).all()
        if not binary or not (array.sum(axis=1) == 1).all():
            raise ValueError(
                "Multilabel and multioutput targets are not supported: y must be a "
                "vector of labels (or a one-hot matrix with one 1 per row)."
            )
        return check_labels(array.argmax(axis=1), n_samples)
    return check_labels(y, n_samples)


def _target_classes(strategy, classes, codes):
    """The labels of the classes ``sampling_strategy`` lets lose samples."""
    counts = np.bincount(codes, minlength=len(classes))
    if isinstance(strategy, str):
        if strategy not in SAMPLING_STRATEGIES:
            raise ValueError(
                f"sampling_strategy must be one of {SAMPLING_STRATEGIES} or a list of "
                f"classes, got {strategy!r} (cleaning methods cannot be given sample "
                "counts, nor the minority class alone)."
            )
        smallest, largest = int(np.argmin(counts)), int(np.argmax(counts))
        chosen = {
            "auto": counts.shape[0] * [True],
            "not minority": counts.shape[0] * [True],
            "all": counts.shape[0] * [True],
            "majority": [code == largest for code in range(len(classes))],
            "not majority": [code != largest for code in range(len(classes))],
        }[strategy]
        if strategy in ("auto", "not minority"):
            chosen[smallest] = False
        return [label for label, keep in zip(classes.tolist(), chosen) if keep]
    if isinstance(strategy, (list, tuple, np.ndarray)):
        unknown = [label for label in strategy if not (classes == label).any()]
        if unknown:
            raise ValueError(
                f"sampling_strategy names {unknown}, which are not classes of y "
                f"(classes: {classes.tolist()})."
            )
        return list(strategy)
    raise TypeError(
        f"sampling_strategy must be a string or a list of classes, got {strategy!r}."
    )


def _take_rows(data, kept):
    """Rows ``kept`` of ``data``, in the type the caller passed."""
    if hasattr(data, "iloc"):  # pandas: same columns and dtypes, a fresh index
        return data.iloc[kept].reset_index(drop=True)
    if isinstance(data, list):
        return [data[i] for i in kept]
    return np.asarray(data)[kept]


_COMMON_PARAMETERS = """
    metric : str, default="euclidean"
        One of `patrec.neighbors.METRICS`.
    p : float, default=2
        Minkowski order for ``metric="minkowski"``.
    metric_params : dict, default=None
        ``{"VI": Q}`` for ``metric="mahalanobis"``."""

_COMMON_TAIL = """
    n_jobs : int, default=None
        Threads of the neighbour searches (``-1``: all cores).
    verbose : bool or int, default=0
        Progress on standard error (1: a summary, 2: each round or pass).

    Attributes
    ----------
    sample_indices_ : ndarray of shape (n_kept,), dtype intp
        Sorted indices of the rows kept.
    sampling_strategy_ : dict
        The classes that could lose samples, each mapped to the size of the smallest
        class (imbalanced-learn's convention for cleaning samplers).
    n_features_in_ : int
    feature_names_in_ : ndarray
        Only when ``X`` was a data frame with string column names."""

_SAMPLING = """
    sampling_strategy : str or list, default="auto"
        The classes that may lose samples: ``"auto"`` or ``"not minority"`` (all but
        the smallest), ``"all"``, ``"majority"``, ``"not majority"``, or a list of
        class labels.  The default is imbalanced-learn's; ``"all"`` gives the
        textbook algorithm."""


class Editing(_Resampler):
    _function = staticmethod(edit)
    __doc__ = f"""Wilson's editing (`edit`) as a resampler.

    Parameters
    ----------{_SAMPLING}
    n_neighbors : int, default=3
        The number k of neighbours that vote.
    max_iter : int, default=1
        Rounds of editing; more than one repeats until a round removes nothing.
    kind_sel : {{"mode", "all"}}, default="mode"
        ``"mode"``: remove samples the majority vote misclassifies (Wilson).
        ``"all"``: remove samples unless all k neighbours share their
        class.{_COMMON_PARAMETERS}{_COMMON_TAIL}

    Notes
    -----
    imbalanced-learn's `~imblearn.under_sampling.EditedNearestNeighbours` defaults to
    ``kind_sel="all"``; ``Editing(kind_sel="all")`` reproduces it.  Its
    `~imblearn.under_sampling.RepeatedEditedNearestNeighbours` also stops when a class
    would shrink below the smallest one; ``max_iter`` here only stops when nothing
    changes.  ``n_iter_`` is the number of rounds run (the last one, when it removed
    nothing, included), as imbalanced-learn counts them.  The rows come back in
    their original order (imbalanced-learn groups them by class).

    See Also
    --------
    edit : the function.

    Examples
    --------
    >>> from patrec.neighbors import Editing
    >>> X = [[0.0], [1.0], [2.0], [2.1], [3.0], [7.0], [8.0], [9.0]]
    >>> y = ["a", "a", "a", "b", "a", "b", "b", "b"]
    >>> X_kept, y_kept = Editing(sampling_strategy="all").fit_resample(X, y)
    >>> y_kept
    ['a', 'a', 'a', 'a', 'b', 'b', 'b']
    """

    def __init__(
        self,
        sampling_strategy="auto",
        n_neighbors=3,
        max_iter=1,
        kind_sel="mode",
        metric="euclidean",
        p=2,
        metric_params=None,
        n_jobs=None,
        verbose=0,
    ):
        self.sampling_strategy = sampling_strategy
        self.n_neighbors = n_neighbors
        self.max_iter = max_iter
        self.kind_sel = kind_sel
        self.metric = metric
        self.p = p
        self.metric_params = metric_params
        self.n_jobs = n_jobs
        self.verbose = verbose

    _PEER_PARAMETERS = {
        "allow_minority": "none (imbalanced-learn's AllKNN): sampling_strategy= "
        "chooses the classes that may lose samples",
    }

    def _reduce(self, X, y, target_classes):
        params = self.get_params(deep=False)
        del params["sampling_strategy"]
        kept, history = edit(
            X, y, target_classes=target_classes, return_history=True, **params
        )
        self.n_iter_ = history.n_rounds
        return kept


class MultiEditing(_Resampler):
    _function = staticmethod(multiedit)
    __doc__ = f"""Devijver and Kittler's multi-edit (`multiedit`) as a resampler.

    Parameters
    ----------{_SAMPLING}
    n_splits : int, default=3
        Subsets per round.
    max_iter : int, default=100
        The most rounds.{_COMMON_PARAMETERS}
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the random splits.{_COMMON_TAIL}

    See Also
    --------
    multiedit : the function.

    Examples
    --------
    >>> import numpy as np
    >>> from patrec.neighbors import MultiEditing
    >>> X = np.r_[np.arange(20.0), np.arange(30.0, 50.0)].reshape(-1, 1)
    >>> y = np.repeat([0, 1], 20)
    >>> y[[5, 35]] = [1, 0]
    >>> sampler = MultiEditing("all", n_splits=2, random_state=2)
    >>> X_kept, y_kept = sampler.fit_resample(X, y)
    >>> len(y_kept), 5 in sampler.sample_indices_
    (36, False)
    """

    def __init__(
        self,
        sampling_strategy="auto",
        n_splits=3,
        max_iter=100,
        metric="euclidean",
        p=2,
        metric_params=None,
        random_state=None,
        n_jobs=None,
        verbose=0,
    ):
        self.sampling_strategy = sampling_strategy
        self.n_splits = n_splits
        self.max_iter = max_iter
        self.metric = metric
        self.p = p
        self.metric_params = metric_params
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose


class Condensing(_Resampler):
    _function = staticmethod(condense)
    __doc__ = f"""Hart's condensed nearest neighbour (`condense`) as a resampler.

    Parameters
    ----------{_SAMPLING}{_COMMON_PARAMETERS}
    random_state : None, int or numpy.random.Generator, default=None
        None: the samples are visited in their given order; otherwise in a random
        order drawn from this seed.
    n_neighbors : 1 or None, default=1
        Hart's rule is the 1-NN rule: 1 (or None, imbalanced-learn's default, which
        means the same) is the only value; any other is refused by name.{_COMMON_TAIL}

    Notes
    -----
    The rows come back in their original order (imbalanced-learn groups them by
    class).  imbalanced-learn's `~imblearn.under_sampling.CondensedNearestNeighbour` condenses
    each targeted class separately, starting from all samples of the untargeted classes
    and one random sample of the class, and makes one pass.  Here the store starts with the
    untargeted classes too, but the targeted classes are condensed together in one
    order, pass after pass, until the store is consistent (Hart's rule).

    See Also
    --------
    condense : the function.

    Examples
    --------
    >>> from patrec.neighbors import Condensing
    >>> X = [[0], [1], [2], [3], [7], [8], [9], [10]]
    >>> y = ["a", "a", "a", "a", "b", "b", "b", "b"]
    >>> Condensing("all").fit_resample(X, y)
    ([[0], [7]], ['a', 'b'])
    """

    def __init__(
        self,
        sampling_strategy="auto",
        metric="euclidean",
        p=2,
        metric_params=None,
        random_state=None,
        n_jobs=None,
        verbose=0,
        n_neighbors=1,
    ):
        self.sampling_strategy = sampling_strategy
        self.metric = metric
        self.p = p
        self.metric_params = metric_params
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.n_neighbors = n_neighbors

    _PEER_PARAMETERS = {
        "n_seeds_S": "always 1: Hart's store starts with one sample of a targeted "
        "class (the first visited)",
    }

    def _validate_params(self):
        if self.n_neighbors is not None and (
            isinstance(self.n_neighbors, bool) or self.n_neighbors != 1
        ):
            raise ValueError(
                f"n_neighbors={self.n_neighbors!r}: Hart's condensing stores what "
                "the 1-NN rule misclassifies, so n_neighbors is 1 (or None, which "
                "means the same). imbalanced-learn's CondensedNearestNeighbour with "
                "more neighbours runs another rule, which patrec does not have."
            )

    def _reduce(self, X, y, target_classes):
        params = self.get_params(deep=False)
        del params["sampling_strategy"], params["n_neighbors"]
        return condense(X, y, target_classes=target_classes, **params)


class EditCondensing(MultiEditing):
    _function = staticmethod(edit_condense)
    __doc__ = f"""Multi-edit, then condense (`edit_condense`) as a resampler.

    Parameters
    ----------{_SAMPLING}
    n_splits : int, default=3
        Multi-edit's subsets per round.
    max_iter : int, default=100
        Multi-edit's most rounds.{_COMMON_PARAMETERS}
    random_state : None, int or numpy.random.Generator, default=None
        Seeds the splits (and, unless None, condensing's visiting order).{_COMMON_TAIL}

    See Also
    --------
    edit_condense : the function.

    Examples
    --------
    >>> import numpy as np
    >>> from patrec.neighbors import EditCondensing
    >>> rng = np.random.default_rng(0)
    >>> X = np.r_[rng.normal(0, 1, 100), rng.normal(3, 1, 100)].reshape(-1, 1)
    >>> y = np.repeat([0, 1], 100)
    >>> X_kept, y_kept = EditCondensing("all", random_state=0).fit_resample(X, y)
    >>> y_kept
    array([0, 0, 1])
    """
