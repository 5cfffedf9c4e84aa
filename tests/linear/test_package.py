"""Package-level promises: registration, and data handed to the loops uncopied."""

import numpy as np
import scipy.sparse as sp

import patrec.linear
from patrec._training import row_storage
from patrec.registry import get_classifier

REGISTERED = {
    "perceptron": "Perceptron",
    "linear-machine": "LinearMachine",
    "multiclass-svm": "MulticlassSVM",
    "softmax": "SoftmaxRegression",
    "one-vs-all": "OneVsAll",
    "all-pairs": "AllPairs",
    "output-codes": "OutputCodes",
}


def test_every_classifier_is_registered():
    for name, class_name in REGISTERED.items():
        assert get_classifier(name) is getattr(patrec.linear, class_name)


def test_float32_reaches_the_loops_without_a_copy():
    X = np.arange(12, dtype=np.float32).reshape(4, 3)
    values, columns, row_starts = row_storage(X)
    assert values.dtype == np.float32 and np.shares_memory(values, X)
    assert columns.size == 0 and row_starts.size == 0
    Xs = sp.csr_matrix(X)
    values, columns, row_starts = row_storage(Xs)
    assert values.dtype == np.float32 and np.shares_memory(values, Xs.data)
    assert columns.dtype == np.intp and row_starts.dtype == np.intp


def test_float32_training_never_copies_the_data():
    """A float64 copy of X would show as at least twice X's bytes of new memory."""
    import tracemalloc

    from patrec import LinearMachine, MulticlassSVM, Perceptron

    rng = np.random.default_rng(0)
    X = rng.normal(size=(20_000, 50)).astype(np.float32)
    y = rng.integers(3, size=20_000)
    for model in (
        Perceptron(max_epochs=2),
        LinearMachine(max_epochs=2),
        MulticlassSVM(max_epochs=2),
    ):
        tracemalloc.start()
        model.fit(X, y)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert peak < X.nbytes, (type(model).__name__, peak, X.nbytes)
