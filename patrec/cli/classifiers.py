"""The classifiers of ``patrec compare``: made from the registry with the
``--param`` settings, each value tried before the comparison starts."""

import ast
import contextlib
import difflib
import io
import re
import warnings

import numpy as np

from .. import registry
from ..model_selection import standardize, stratified_kfold
from ._common import UsageError, _first_line
from .data import _check_names

# --param values are tried on the first fold's training samples and this many of
# its test samples before the comparison starts.
_TRIAL_QUERIES = 10


# What a classifier may raise on data it cannot handle: its row says why, and the
# other classifiers still run.
_CLASSIFIER_ERRORS = (ValueError, TypeError, ArithmeticError, np.linalg.LinAlgError)


def make_classifier(name, seed, params=None):
    """The registered classifier ``name``, seeded, with its default parameters or
    those of ``params`` (checked by `parse_params`)."""
    classifier = registry.get_classifier(name)()
    if "random_state" in classifier.get_params(deep=False):
        classifier.set_params(random_state=seed)
    return classifier.set_params(**(params or {}).get(name, {}))


def parse_params(settings, names):
    """``{classifier: {parameter: value}}`` from the ``--param`` settings
    ``CLASSIFIER.NAME=VALUE``; every classifier must be among ``names`` (those run)
    and every parameter one of its own."""
    params = {}
    for setting in settings:
        key, equals, text = setting.partition("=")
        name, dot, parameter = key.strip().partition(".")
        if not equals or not dot or not parameter:
            raise UsageError(
                f"--param {setting!r}: write CLASSIFIER.NAME=VALUE, for example "
                "qda.reg_param=0.1"
            )
        _check_names([name])
        if name not in names:
            raise UsageError(
                f"--param {setting!r}: {name} is not among the classifiers run "
                f"({', '.join(names)})"
            )
        known = sorted(registry.get_classifier(name)().get_params(deep=False))
        if parameter not in known:
            close = difflib.get_close_matches(parameter, known, n=1)
            hint = f"did you mean {close[0]}? " if close else ""
            raise UsageError(
                f"--param {setting!r}: {name} has no parameter {parameter!r}; "
                f"{hint}its parameters are {', '.join(known)}"
            )
        params.setdefault(name, {})[parameter] = _value(text.strip())
    return params


def _value(text):
    """A --param value: a Python number, True, False or None when it reads as one,
    else the text itself."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
    return value if isinstance(value, (int, float, bool, type(None))) else text


def _how_to_set(message, name):
    """`` (--param qda.reg_param=...)`` when an error ``message`` names a parameter
    of the classifier ``name``, so that its advice can be followed here."""
    for parameter in sorted(registry.get_classifier(name)().get_params(deep=False)):
        if re.search(rf"\b{re.escape(parameter)}\b", message):
            return f" (--param {name}.{parameter}=...)"
    return ""


def _check_param_values(params, args, X, y):
    """Refuse a ``--param`` value that its classifier rejects, before the comparison.

    The classifiers check their parameters in ``fit``, some against the data (the
    number of classes, features or samples), so each classifier given a ``--param``
    is fitted on the first training fold of the cross-validation and predicts a few
    of its test samples.  A ValueError or TypeError there that the classifier with
    its default parameters does not raise is caused by the values: a usage error.
    Any other failure is the data's, reported in the classifier's row.
    """
    if not params:
        return
    train, test = next(stratified_kfold(y, args.cv, random_state=args.seed))
    X_train, X_test = X[train], X[test[:_TRIAL_QUERIES]]
    if not args.no_scale:
        X_train, X_test = standardize(X_train, X_test)
    trial = (X_train, y[train], X_test)
    for name, settings in params.items():
        error = _trial(make_classifier(name, args.seed, params), *trial)
        if not isinstance(error, (ValueError, TypeError)):
            continue
        default = _trial(make_classifier(name, args.seed), *trial)
        if default is not None and _first_line(default) == _first_line(error):
            continue
        raise UsageError(_param_value_message(name, settings, error, args.param))


def _trial(classifier, X_train, y_train, X_test):
    """The error that fitting ``classifier`` and predicting raise, or None; its
    warnings and progress lines are left to the cross-validation."""
    try:
        with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
            warnings.simplefilter("ignore")
            classifier.fit(X_train, y_train).predict(X_test)
    except _CLASSIFIER_ERRORS as exc:
        return exc
    return None


def _param_value_message(name, settings, error, given):
    """The message of a classifier's error caused by its ``--param`` values: the
    settings it names (all of them if it names none), with their defaults."""
    reason = _first_line(error)
    blamed = [
        parameter
        for parameter in settings
        if re.search(rf"\b{re.escape(parameter)}\b", reason)
    ] or list(settings)
    keys = {f"{name}.{parameter}" for parameter in blamed}
    typed = [s for s in given if s.partition("=")[0].strip() in keys]
    defaults = registry.get_classifier(name)().get_params(deep=False)
    shown = ", ".join(f"{p}={defaults[p]!r}" for p in blamed)
    values = "this value" if len(typed) == 1 else "these values"
    return (
        f"--param {' '.join(repr(s) for s in typed)}: {name} refuses {values} "
        f"(default: {shown}): {reason}"
    )
