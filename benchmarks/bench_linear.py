"""patrec.linear against scikit-learn on an overlapping 10-class Gaussian mixture.

n = 100 000 training samples (and 20 000 test samples), d = 50 features, float64,
single thread.  Three measurements:

- ``LinearMachine`` against ``Perceptron`` for the same number of epochs (one
  multiclass pass against ten binary problems per epoch);
- ``MulticlassSVM`` against ``LinearSVC(multi_class="crammer_singer")``, each at its
  own settings, with both test accuracies reported (the reference is timed once: it
  takes tens of seconds);
- ``SoftmaxRegression`` against ``LogisticRegression`` with the same C and tol, here
  and on the standardised digits (1 437 training samples, 64 features), with the
  relative gap between the two solutions' objectives (``objective_gap``: above 0,
  patrec's is the larger).

Beside each epoch learner's time the script reports its achieved flop rate, counting
2 n d k flops an epoch for the scores (k the number of classes), and the machine's
measured single-core rate for the same shapes: BLAS dgemv (X w, one class) and dgemm
(X W^T, all k classes at once), each the median of interleaved repeats, so the
distance to the hardware bound is visible.  Everything runs on one thread
(threadpoolctl, and the environment variables set by ``_common``).

``--quick`` uses 10 000 samples for a smoke run.
"""

import warnings

import _common  # noqa: F401  (sets the single-thread limits first)
import numpy as np
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression, Perceptron
from sklearn.svm import LinearSVC
from threadpoolctl import threadpool_limits

from patrec import LinearMachine, MulticlassSVM, SoftmaxRegression
from patrec.exceptions import ConvergenceWarning as PatrecConvergenceWarning
from patrec.linear.softmax import SoftmaxObjective

EPOCHS = 5


def gaussian_mixture(n, d, n_classes, seed):
    """Overlapping classes: unit-variance Gaussians around nearby random means."""
    rng = np.random.default_rng(seed)
    means = np.random.default_rng(0).normal(scale=0.35, size=(n_classes, d))
    y = rng.integers(n_classes, size=n)
    return means[y] + rng.normal(size=(n, d)), y


def blas_rates(X, n_classes, repeats=7):
    """The single-core GFLOP/s of BLAS on the epoch learners' shapes: dgemv X w and
    dgemm X W^T, timed alternately; the median of each."""
    rng = np.random.default_rng(0)
    w = rng.normal(size=X.shape[1])
    W = rng.normal(size=(n_classes, X.shape[1]))
    t_gemv, t_gemm = _common.compare(lambda: X @ w, lambda: X @ W.T, repeats=repeats)
    flops = 2.0 * X.shape[0] * X.shape[1]
    return {
        "dgemv_gflops": round(flops / t_gemv / 1e9, 2),
        "dgemm_gflops": round(n_classes * flops / t_gemm / 1e9, 2),
    }


def flop_rate(X, n_classes, epochs, seconds):
    """The achieved GFLOP/s of ``epochs`` epochs: 2 n d k flops each for the scores."""
    return round(2.0 * X.shape[0] * X.shape[1] * n_classes * epochs / seconds / 1e9, 2)


def accuracy(model, X, y):
    return round(float(np.mean(model.predict(X) == y)), 4)


def bench_linear_machine(X, y, params, bound):
    ours = LinearMachine(max_epochs=EPOCHS, random_state=0)
    theirs = Perceptron(max_iter=EPOCHS, tol=None, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.simplefilter("ignore", PatrecConvergenceWarning)
        t_ours, t_theirs = _common.compare(
            lambda: ours.fit(X, y), lambda: theirs.fit(X, y), repeats=3
        )
    _common.report(
        "linear_machine_fit_vs_perceptron",
        {**params, "epochs": EPOCHS},
        t_ours,
        "sklearn.Perceptron",
        t_theirs,
        patrec_epochs=ours.n_iter_,
        reference_epochs=int(theirs.n_iter_),
        patrec_gflops=flop_rate(X, params["n_classes"], ours.n_iter_, t_ours),
        **bound,
    )


def bench_multiclass_svm(X, y, X_test, y_test, params, bound):
    C = 0.1  # the same objective as alpha = 1 / (C n) = 1e-4 at n = 100 000
    theirs = LinearSVC(multi_class="crammer_singer", C=C, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        t_theirs = _common.median_time(lambda: theirs.fit(X, y), repeats=1)
    ours = MulticlassSVM(alpha=1e-4, max_epochs=4, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PatrecConvergenceWarning)
        t_ours = _common.median_time(lambda: ours.fit(X, y), repeats=3)
    _common.report(
        "multiclass_svm_fit",
        {**params, "C": C, "alpha": ours.alpha, "epochs": ours.max_epochs},
        t_ours,
        "sklearn.LinearSVC(crammer_singer)",
        t_theirs,
        patrec_test_accuracy=accuracy(ours, X_test, y_test),
        reference_test_accuracy=accuracy(theirs, X_test, y_test),
        patrec_gflops=flop_rate(X, params["n_classes"], ours.n_iter_, t_ours),
        **bound,
    )


def objective_gap(ours, theirs, X, y, C):
    """(patrec's objective - scikit-learn's) / scikit-learn's, both fitted models'
    coefficients put into the one objective they minimise."""
    k = len(ours.classes_)
    objective = SoftmaxObjective(X, np.searchsorted(ours.classes_, y), k, C, True)
    values = [
        objective(np.concatenate([model.coef_.ravel(), model.intercept_]))[0]
        for model in (ours, theirs)
    ]
    return (values[0] - values[1]) / abs(values[1])


def bench_softmax(X, y, X_test, y_test, params):
    for tol in (1e-4, 1e-6):
        ours = SoftmaxRegression(C=1.0, tol=tol)
        theirs = LogisticRegression(C=1.0, tol=tol, max_iter=1000)
        t_ours, t_theirs = _common.compare(
            lambda: ours.fit(X, y), lambda: theirs.fit(X, y), repeats=3
        )
        gap = float(
            np.abs(ours.predict_proba(X_test) - theirs.predict_proba(X_test)).max()
        )
        _common.report(
            "softmax_fit",
            {**params, "C": 1.0, "tol": tol},
            t_ours,
            "sklearn.LogisticRegression",
            t_theirs,
            patrec_test_accuracy=accuracy(ours, X_test, y_test),
            reference_test_accuracy=accuracy(theirs, X_test, y_test),
            max_probability_difference=round(gap, 6),
            objective_gap=float(f"{objective_gap(ours, theirs, X, y, 1.0):.3g}"),
        )


def standardized_digits():
    """The 8-by-8 digits, standardised (constant pixels left at 0), split 4 : 1."""
    X, y = load_digits(return_X_y=True)
    X = (X - X.mean(axis=0)) / np.where(X.std(axis=0) > 0, X.std(axis=0), 1.0)
    split = 4 * len(X) // 5
    return X[:split], y[:split], X[split:], y[split:]


def main():
    n, d, n_classes = (10_000, 50, 10) if _common.quick() else (100_000, 50, 10)
    X, y = gaussian_mixture(n, d, n_classes, seed=1)
    X_test, y_test = gaussian_mixture(n // 5, d, n_classes, seed=2)
    params = {"n": n, "d": d, "n_classes": n_classes, "dtype": "float64"}
    bound = blas_rates(X, n_classes)
    bench_linear_machine(X, y, params, bound)
    bench_multiclass_svm(X, y, X_test, y_test, params, bound)
    bench_softmax(X, y, X_test, y_test, params)
    X, y, X_test, y_test = standardized_digits()
    bench_softmax(X, y, X_test, y_test, {"data": "digits", "n": len(X), "d": 64})


if __name__ == "__main__":
    with threadpool_limits(1):
        main()
