"""Text-like sparse input: bag-of-words counts in CSR, float32 and float64."""

import numpy as np
import pytest
import scipy.sparse as sp

from patrec import (
    AllPairs,
    LinearMachine,
    MulticlassSVM,
    OneVsAll,
    OutputCodes,
    Perceptron,
    SoftmaxRegression,
)


def bag_of_words(n_documents=300, n_words=2000, n_classes=4, length=30, seed=0):
    """Each class draws most of its words from its own block of the vocabulary."""
    rng = np.random.default_rng(seed)
    y = rng.integers(n_classes, size=n_documents)
    block = n_words // n_classes
    rows, cols = [], []
    for i, label in enumerate(y):
        own = rng.integers(label * block, (label + 1) * block, size=length // 2)
        common = rng.integers(0, n_words, size=length - length // 2)
        cols.extend(np.concatenate([own, common]))
        rows.extend([i] * length)
    X = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n_documents, n_words))
    X.sum_duplicates()
    return X, y


ESTIMATORS = [
    lambda: LinearMachine(random_state=0, max_epochs=10),
    lambda: LinearMachine(margin=1.0, averaged=True, random_state=0, max_epochs=10),
    lambda: MulticlassSVM(alpha=1e-3, max_epochs=10, random_state=0),
    lambda: SoftmaxRegression(C=1.0),
    lambda: OneVsAll(),
    lambda: AllPairs(),
    lambda: OutputCodes(code="dense-random", decoding="loss", random_state=0),
    lambda: Perceptron(random_state=0),
]


@pytest.mark.parametrize("make", ESTIMATORS, ids=lambda make: type(make()).__name__)
def test_sparse_matches_dense_and_learns(make):
    X, y = bag_of_words()
    X_test, y_test = bag_of_words(seed=1)
    sparse = make().fit(X, y)
    dense = make().fit(X.toarray(), y)
    np.testing.assert_allclose(
        sparse.decision_function(X_test),
        dense.decision_function(X_test.toarray()),
        rtol=1e-6,
        atol=1e-6,
    )
    assert sparse.score(X_test, y_test) > 0.9
    single = make().fit(X.astype(np.float32), y)
    assert (
        abs(
            single.score(X_test.astype(np.float32), y_test)
            - sparse.score(X_test, y_test)
        )
        <= 0.01
    )


SPARSE_LEARNERS = [
    lambda: Perceptron(random_state=0, max_epochs=20),
    lambda: LinearMachine(random_state=0, max_epochs=20),
    lambda: LinearMachine(margin=1.0, averaged=True, random_state=0, max_epochs=20),
    lambda: MulticlassSVM(alpha=1e-3, max_epochs=20, random_state=0),
]


# A sparse row without stored entries used to be pointed at by &values[0] + start,
# out of bounds when the matrix stores no entry at all (seen with bounds checks on:
# PATREC_DEBUG=1 or tools/sanitize.sh, where the ignored IndexError surfaces as an
# unraisable-exception warning, an error here).
@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.filterwarnings("ignore::patrec.exceptions.ConvergenceWarning")
@pytest.mark.parametrize(
    "make", SPARSE_LEARNERS, ids=lambda make: type(make()).__name__
)
@pytest.mark.parametrize("layout", ["empty rows", "no entries"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_sparse_rows_without_entries_match_dense(make, layout, dtype):
    rng = np.random.default_rng(0)
    y = np.arange(12) % 3 if type(make()) is not Perceptron else np.arange(12) % 2
    if layout == "empty rows":
        X = rng.normal(size=(12, 5)) + y[:, None]
        X[[0, 4, 5, 11]] = 0.0  # the first, two adjacent and the last row
        X[:, 3] = 0.0
    else:
        X = np.zeros((12, 5))
    X = X.astype(dtype)
    sparse = sp.csr_matrix(X)
    assert (np.diff(sparse.indptr) == 0).any()
    if layout == "no entries":
        assert sparse.nnz == 0 and sparse.data.shape == (0,)
    fitted_sparse = make().fit(sparse, y)
    fitted_dense = make().fit(X, y)
    np.testing.assert_allclose(
        fitted_sparse.decision_function(sparse),
        fitted_dense.decision_function(X),
        rtol=1e-6,
        atol=1e-6,
    )
    np.testing.assert_array_equal(
        fitted_sparse.predict(sparse), fitted_dense.predict(X)
    )
