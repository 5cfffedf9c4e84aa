"""Loaders for the classic data sets bundled with patrec.

Each data set is a CSV file in ``patrec/datasets/data/`` (a header row of feature
names and a last column ``target`` with the class name) and a description in
``patrec/datasets/descr/``.  The same file works with the command line:
``patrec compare --data iris.csv --target target``.  The class codes follow the order
of ``target_names``, which is also scikit-learn's coding.
"""

import numpy as np

from ._base import Bunch, read_csv_dataset, read_descr

__all__ = ["load_iris", "load_wine", "load_breast_cancer"]


def _load(filename, descr, target_names, return_X_y, names_as_array=False):
    if not isinstance(return_X_y, (bool, np.bool_)):
        raise TypeError(f"return_X_y must be True or False, got {return_X_y!r}.")
    data, target, feature_names, path = read_csv_dataset(filename, target_names)
    if return_X_y:
        return data, target
    return Bunch(
        data=data,
        target=target,
        # (a list or an array, as each of scikit-learn's loaders gives them)
        feature_names=np.array(feature_names) if names_as_array else feature_names,
        target_names=np.array(target_names),
        DESCR=read_descr(descr),
        filename=path,
    )


def load_iris(*, return_X_y=False):
    """Load Fisher's iris data: 150 flowers, 4 measurements, 3 species.

    =================   ==============
    Classes                          3
    Samples per class               50
    Samples total                  150
    Features            4, real, > 0
    =================   ==============

    The species are coded 0 = setosa, 1 = versicolor, 2 = virginica.  Setosa is
    linearly separable from the other two; versicolor and virginica overlap slightly.

    Parameters
    ----------
    return_X_y : bool, default=False
        If True, return ``(data, target)`` instead of a `Bunch`.

    Returns
    -------
    data : Bunch
        With the fields

        - ``data``: ndarray of shape (150, 4), float64, the measurements in cm;
        - ``target``: ndarray of shape (150,), the class codes 0, 1, 2;
        - ``feature_names``: list of the 4 column names;
        - ``target_names``: ndarray of the 3 species names, in code order;
        - ``DESCR``: the description of the data set (source, licence);
        - ``filename``: the path of the bundled CSV file.

    (data, target) : tuple of ndarray
        When ``return_X_y`` is True.

    Notes
    -----
    The data come from the UCI Machine Learning Repository (licence CC BY 4.0), with
    two values corrected to agree with Fisher's paper, as in R and scikit-learn.

    References
    ----------
    .. [1] R. A. Fisher, "The use of multiple measurements in taxonomic problems",
       Annals of Eugenics 7(2), 179-188, 1936.
    .. [2] R. A. Fisher, Iris, UCI Machine Learning Repository, 1988,
       https://doi.org/10.24432/C56C76.

    Examples
    --------
    >>> from patrec.datasets import load_iris
    >>> iris = load_iris()
    >>> iris.data.shape
    (150, 4)
    >>> iris.target_names.tolist()
    ['setosa', 'versicolor', 'virginica']
    >>> X, y = load_iris(return_X_y=True)
    >>> X[0].tolist(), int(y[0])
    ([5.1, 3.5, 1.4, 0.2], 0)
    """
    return _load(
        "iris.csv", "iris.rst", ("setosa", "versicolor", "virginica"), return_X_y
    )


def load_wine(*, return_X_y=False):
    """Load the wine recognition data: 178 wines, 13 chemical measurements, 3 cultivars.

    =================   ==============
    Classes                          3
    Samples per class     59, 71, 48
    Samples total                  178
    Features            13, real, > 0
    =================   ==============

    The three grape cultivars are coded 0, 1, 2 and named ``class_0``, ``class_1``,
    ``class_2``.  The features have very different scales (proline is in the
    hundreds, hue below 2), so distance-based methods should standardise them first.

    Parameters
    ----------
    return_X_y : bool, default=False
        If True, return ``(data, target)`` instead of a `Bunch`.

    Returns
    -------
    data : Bunch
        With the fields ``data`` (178, 13), ``target`` (178,), ``feature_names``,
        ``target_names``, ``DESCR`` and ``filename``, as in `load_iris`.
    (data, target) : tuple of ndarray
        When ``return_X_y`` is True.

    Notes
    -----
    The data come from the UCI Machine Learning Repository (licence CC BY 4.0).

    References
    ----------
    .. [1] S. Aeberhard and M. Forina, Wine, UCI Machine Learning Repository, 1991,
       https://doi.org/10.24432/C5PC7J.
    .. [2] M. Forina et al., PARVUS: an extendable package of programs for data
       exploration, classification and correlation, Institute of Pharmaceutical and
       Food Analysis and Technologies, Genoa, 1988.

    Examples
    --------
    >>> import numpy as np
    >>> from patrec.datasets import load_wine
    >>> X, y = load_wine(return_X_y=True)
    >>> X.shape
    (178, 13)
    >>> np.bincount(y)
    array([59, 71, 48])
    """
    return _load("wine.csv", "wine.rst", ("class_0", "class_1", "class_2"), return_X_y)


def load_breast_cancer(*, return_X_y=False):
    """Load the Wisconsin diagnostic breast cancer data: 569 tumours, 30 features.

    =================   ==============
    Classes                          2
    Samples per class      212, 357
    Samples total                  569
    Features            30, real, > 0
    =================   ==============

    Each sample describes the cell nuclei seen in a digitised image of a fine needle
    aspirate: the mean, the standard error and the worst (largest) value of ten
    nucleus measurements.  The diagnosis is coded 0 = malignant, 1 = benign.

    Parameters
    ----------
    return_X_y : bool, default=False
        If True, return ``(data, target)`` instead of a `Bunch`.

    Returns
    -------
    data : Bunch
        With the fields ``data`` (569, 30), ``target`` (569,), ``feature_names``,
        ``target_names``, ``DESCR`` and ``filename``, as in `load_iris`, except
        that ``feature_names`` is an ndarray of str, as in scikit-learn's
        ``load_breast_cancer``.
    (data, target) : tuple of ndarray
        When ``return_X_y`` is True.

    Notes
    -----
    The data come from the UCI Machine Learning Repository (licence CC BY 4.0).

    References
    ----------
    .. [1] W. Wolberg, O. Mangasarian, N. Street and W. Street, Breast Cancer
       Wisconsin (Diagnostic), UCI Machine Learning Repository, 1995,
       https://doi.org/10.24432/C5DW2B.
    .. [2] W. N. Street, W. H. Wolberg and O. L. Mangasarian, "Nuclear feature
       extraction for breast tumor diagnosis", IS&T/SPIE International Symposium on
       Electronic Imaging, vol. 1905, 861-870, 1993.

    Examples
    --------
    >>> from patrec.datasets import load_breast_cancer
    >>> cancer = load_breast_cancer()
    >>> cancer.data.shape
    (569, 30)
    >>> cancer.target_names.tolist()
    ['malignant', 'benign']
    >>> int((cancer.target == 0).sum()), int((cancer.target == 1).sum())
    (212, 357)
    """
    return _load(
        "breast_cancer.csv",
        "breast_cancer.rst",
        ("malignant", "benign"),
        return_X_y,
        names_as_array=True,
    )
