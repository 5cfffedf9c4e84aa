"""Synthetic data sets from the course, drawn reproducibly.

Every generator returns ``(X, y)``: ``X`` a float64 array of shape
``(n_samples, n_features)`` (two features except in `make_gaussian_classes`) and ``y``
the class codes ``0 .. n_classes - 1`` (dtype intp).  Unless the class sizes are given,
the classes are as balanced as ``n_samples`` allows (the first classes get one sample
more when it does not divide evenly).  The rows come in random order, and the same
``random_state`` always gives the same data.
"""

import numbers

import numpy as np

from .._validation import check_random_state, check_scalar

__all__ = [
    "make_sectors",
    "make_gaussian_classes",
    "make_xor",
    "make_rings",
    "make_banana",
]


def _split_evenly(n_samples, n_parts):
    """Sizes of ``n_parts`` groups summing to ``n_samples``, differing by at most 1."""
    sizes = np.full(n_parts, n_samples // n_parts, dtype=np.intp)
    sizes[: n_samples % n_parts] += 1
    return sizes


def _shuffled(rng, X, y):
    order = rng.permutation(X.shape[0])
    return np.ascontiguousarray(X[order]), y[order]


def make_sectors(n_classes=3, n_samples=300, gap=None, random_state=None):
    r"""Points of the unit disc labelled by the equal-angle sector they fall in.

    Sector ``i`` is the set of angles :math:`[2\pi i / c, 2\pi (i + 1) / c)` for
    :math:`c` = ``n_classes``.  On both sides of every sector boundary a band of angular
    width ``gap`` is left empty, so the points of neighbouring sectors are at least
    ``2 * gap`` apart in angle.  Within the rest of its sector a class is uniform over
    the disc area: the angle is uniform and the radius is :math:`\sqrt{u}` with
    :math:`u` uniform on [0, 1), so points near the centre are rare but present.

    This is the course's example of classes that a multiclass linear machine separates
    while no line cuts one sector off from the others: every binary problem of
    one-versus-rest is then inseparable, and only the argmax of their scores can
    classify the points (see Notes).

    Parameters
    ----------
    n_classes : int, default=3
        The number of sectors (classes), at least 2.
    n_samples : int, default=300
        The number of points, at least ``n_classes``.
    gap : float, default=None
        The empty angular band, in radians, on each side of every boundary, in
        ``[0, pi / n_classes)``.  None means ``pi / (4 * n_classes)``: a quarter of the
        largest allowed value (15 degrees for three classes), which leaves a clear
        margin between the classes.
    random_state : None, int or numpy.random.Generator, default=None
        Seed or generator for the draw.

    Returns
    -------
    X : ndarray of shape (n_samples, 2), dtype float64
        The points, all inside the unit disc.
    y : ndarray of shape (n_samples,), dtype intp
        The sector of each point.

    See Also
    --------
    make_gaussian_classes : Gaussian classes in any dimension.

    Notes
    -----
    *Multiclass linear machine.*  Take one weight vector per class, the unit vector
    :math:`\mathbf{w}_i` pointing to the middle of sector ``i``, and no bias.  The rule
    :math:`\arg\max_i \mathbf{w}_i^T \mathbf{x}` labels every point correctly: a point
    at radius :math:`r` and angle :math:`\varphi` from its sector's middle beats the
    nearest other class by :math:`2 r \sin(\pi / c) \sin(\pi / c - |\varphi|) \geq
    2 r \sin(\pi / c) \sin(\text{gap})`, which is positive whenever ``gap > 0``.  The
    margin shrinks towards the centre only because the points do: in angle the classes
    are ``2 * gap`` apart.  With the defaults a multiclass perceptron, with or without
    a bias term, separates the three classes within a few epochs; for more classes the
    default gap is narrower and it takes longer.

    *One versus rest.*  With two classes the line through the centre along the
    boundary separates them.  With :math:`c \geq 3` the other sectors fill an angle of
    :math:`2\pi - 2\pi / c - 2\,\text{gap}`.  When this exceeds :math:`\pi` - always
    for four or more classes, and for three classes when ``gap < pi / 6``, which
    includes the default - the other classes surround the centre: their convex hull
    contains every point of sector ``i`` whose projection on the sector's middle
    direction is below :math:`\cos(\pi / c + \text{gap})`.  No line, with or without
    bias, then separates sector ``i`` from the rest of the disc.  About 8% of each class
    lies in that region with the defaults, and in about 98% of the draws of 300 points
    no sector is one-versus-rest separable; small samples, with few points near the
    centre, more often are.  Only for three classes with ``gap >= pi / 6`` does each
    sector fit in a half-plane of its own.

    Drawing is :math:`O(n)` in time and memory.

    References
    ----------
    .. [1] A. Daniely, S. Sabato and S. Shalev-Shwartz, "Multiclass learning
       approaches: a theoretical comparison with implications", NIPS 25, 2012 (the
       three-sector example).

    Examples
    --------
    >>> import numpy as np
    >>> from patrec.datasets import make_sectors
    >>> X, y = make_sectors(n_classes=3, n_samples=300, random_state=0)
    >>> X.shape, np.bincount(y).tolist()
    ((300, 2), [100, 100, 100])
    >>> bool((np.hypot(X[:, 0], X[:, 1]) <= 1).all())
    True

    The middle directions of the sectors separate the classes:

    >>> middle = 2 * np.pi * (np.arange(3) + 0.5) / 3
    >>> W = np.column_stack([np.cos(middle), np.sin(middle)])
    >>> bool((np.argmax(X @ W.T, axis=1) == y).all())
    True
    """
    check_scalar(n_classes, "n_classes", numbers.Integral, low=2)
    check_scalar(n_samples, "n_samples", numbers.Integral, low=n_classes)
    width = 2.0 * np.pi / n_classes
    if gap is None:
        gap = np.pi / (4 * n_classes)
    else:
        check_scalar(
            gap, "gap", numbers.Real, low=0.0, high=np.pi / n_classes, high_open=True
        )
    rng = check_random_state(random_state)

    sizes = _split_evenly(n_samples, n_classes)
    y = np.repeat(np.arange(n_classes, dtype=np.intp), sizes)
    angle = width * y + gap + (width - 2.0 * gap) * rng.uniform(size=n_samples)
    radius = np.sqrt(rng.uniform(size=n_samples))
    X = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])
    return _shuffled(rng, X, y)


def _check_covariances(covariances, n_classes, n_features):
    """Turn the accepted forms of ``covariances`` into an array (c, d, d), validated."""
    try:
        cov = np.asarray(covariances, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"covariances must hold real numbers: {exc}") from exc
    if not np.isfinite(cov).all():
        raise ValueError("covariances must be finite.")
    identity = np.eye(n_features)
    if cov.ndim in (0, 1):
        if cov.ndim == 1 and cov.shape[0] != n_classes:
            raise ValueError(
                f"covariances given as per-class variances must have {n_classes} "
                f"values (one per class), got {cov.shape[0]}."
            )
        if (cov < 0).any():
            raise ValueError(f"covariances as variances must be >= 0, got {cov}.")
        return np.broadcast_to(cov, (n_classes,))[:, None, None] * identity
    if cov.ndim == 2:
        cov = np.broadcast_to(cov, (n_classes, *cov.shape))
    if cov.ndim != 3 or cov.shape != (n_classes, n_features, n_features):
        raise ValueError(
            f"covariances must be a scalar, {n_classes} variances, one "
            f"({n_features}, {n_features}) matrix or an array of shape "
            f"({n_classes}, {n_features}, {n_features}); got shape {cov.shape}."
        )
    for k, matrix in enumerate(cov):
        scale = max(np.abs(matrix).max(), np.finfo(np.float64).tiny)
        if not np.allclose(matrix, matrix.T, rtol=0.0, atol=1e-10 * scale):
            raise ValueError(f"The covariance matrix of class {k} is not symmetric.")
        smallest = np.linalg.eigvalsh(matrix)[0]
        if smallest < -1e-10 * scale:
            raise ValueError(
                f"The covariance matrix of class {k} is not positive semi-definite: "
                f"its smallest eigenvalue is {smallest:.3g}."
            )
    return cov


def _check_sizes(n_per_class, n_classes):
    if np.ndim(n_per_class) == 0:
        check_scalar(n_per_class, "n_per_class", numbers.Integral, low=1)
        return np.full(n_classes, n_per_class, dtype=np.intp)
    sizes = list(n_per_class) if np.ndim(n_per_class) == 1 else None
    if sizes is None or len(sizes) != n_classes:
        raise ValueError(
            f"n_per_class must be an integer or a sequence of {n_classes} integers "
            f"(one per class), got {n_per_class!r}."
        )
    for k, size in enumerate(sizes):
        check_scalar(size, f"n_per_class[{k}]", numbers.Integral, low=1)
    return np.array(sizes, dtype=np.intp)


# The default classes of make_gaussian_classes: three unit-variance classes in the
# plane whose Bayes (nearest true mean) error is about 0.09.
_DEFAULT_MEANS = ((0.0, 0.0), (3.0, 0.0), (0.0, 3.0))


def make_gaussian_classes(
    means=None, covariances=1.0, n_per_class=100, random_state=None
):
    r"""Classes drawn from multivariate normal distributions, in any dimension.

    Class ``i`` is drawn from :math:`N(\boldsymbol\mu_i, \Sigma_i)` as
    :math:`\mathbf{x} = \boldsymbol\mu_i + V_i \Lambda_i^{1/2} \mathbf{u}` with
    :math:`\mathbf{u} \sim N(\mathbf{0}, I)` and :math:`\Sigma_i = V_i \Lambda_i V_i^T`
    the eigendecomposition, which also handles
    singular (positive semi-definite) covariance matrices.

    Parameters
    ----------
    means : array-like of shape (n_classes, n_features), default=None
        The class means, one row per class.  None means three classes in the plane,
        ``[[0, 0], [3, 0], [0, 3]]``: with the default covariances their Bayes error
        (the nearest-true-mean rule) is about 0.09, so the classes overlap visibly.
    covariances : float or array-like, default=1.0
        The class covariances, in one of four forms: a float :math:`\sigma^2` (the
        covariance :math:`\sigma^2 I` for every class), an array of shape
        (n_classes,) (one variance per class), a matrix of shape
        (n_features, n_features) shared by all classes, or an array of shape
        (n_classes, n_features, n_features), one matrix per class.  Variances must be
        >= 0 and matrices symmetric positive semi-definite.
    n_per_class : int or sequence of int, default=100
        The number of samples of every class, or of each class; at least 1.
    random_state : None, int or numpy.random.Generator, default=None
        Seed or generator for the draw.

    Returns
    -------
    X : ndarray of shape (sum of n_per_class, n_features), dtype float64
        The samples, in random order.
    y : ndarray of shape (sum of n_per_class,), dtype intp
        The class of each sample: the row of ``means`` it was drawn around.

    Notes
    -----
    With a shared covariance matrix the Bayes decision boundaries are linear (the
    setting of Fisher's discriminant); with different matrices they are quadratic.
    Drawing costs :math:`O(c d^3)` for the eigendecompositions plus :math:`O(n d^2)`.

    References
    ----------
    .. [1] R. O. Duda, P. E. Hart and D. G. Stork, *Pattern Classification*, 2nd ed.,
       Wiley, 2001, section 2.6 (discriminant functions for the normal density).

    Examples
    --------
    >>> import numpy as np
    >>> from patrec.datasets import make_gaussian_classes
    >>> X, y = make_gaussian_classes(random_state=0)
    >>> X.shape, np.bincount(y).tolist()
    ((300, 2), [100, 100, 100])
    >>> X, y = make_gaussian_classes(means=[[0, 0, 0], [3, 3, 3]], covariances=1.0,
    ...                              n_per_class=[40, 60], random_state=0)
    >>> X.shape, np.bincount(y).tolist()
    ((100, 3), [40, 60])
    >>> X, y = make_gaussian_classes([[0, 0], [2, 0]], [[1, 0.5], [0.5, 1]], 10,
    ...                              random_state=0)
    >>> X.shape
    (20, 2)
    """
    if means is None:
        means = _DEFAULT_MEANS
    try:
        means = np.asarray(means, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"means must hold real numbers: {exc}") from exc
    if means.ndim != 2 or means.shape[0] < 1 or means.shape[1] < 1:
        raise ValueError(
            "means must be a 2-D array of shape (n_classes, n_features), one row per "
            f"class; got shape {means.shape}."
        )
    if not np.isfinite(means).all():
        raise ValueError("means must be finite.")
    n_classes, n_features = means.shape
    cov = _check_covariances(covariances, n_classes, n_features)
    sizes = _check_sizes(n_per_class, n_classes)
    rng = check_random_state(random_state)

    blocks = []
    for mean, matrix, size in zip(means, cov, sizes):
        eigenvalues, eigenvectors = np.linalg.eigh(matrix)
        factor = eigenvectors * np.sqrt(np.clip(eigenvalues, 0.0, None))
        blocks.append(mean + rng.standard_normal((size, n_features)) @ factor.T)
    y = np.repeat(np.arange(n_classes, dtype=np.intp), sizes)
    return _shuffled(rng, np.concatenate(blocks), y)


def make_xor(n_samples=200, noise=0.3, random_state=None):
    """The XOR problem: four Gaussian blobs at (+-1, +-1), two classes.

    The blobs at (1, 1) and (-1, -1) are class 0, those at (-1, 1) and (1, -1) class 1:
    the class is the exclusive or of the signs of the blob's centre.  No single line
    separates the classes, but two lines, a quadratic boundary or nearest neighbours do.

    Parameters
    ----------
    n_samples : int, default=200
        The number of points, at least 4; split as evenly as possible over the blobs.
    noise : float, default=0.3
        The standard deviation of the Gaussian blobs, >= 0.  The label belongs to the
        blob, so with large noise some points cross into the other class's quadrant.
    random_state : None, int or numpy.random.Generator, default=None
        Seed or generator for the draw.

    Returns
    -------
    X : ndarray of shape (n_samples, 2), dtype float64
    y : ndarray of shape (n_samples,), dtype intp

    Notes
    -----
    Drawing is :math:`O(n)` in time and memory.

    References
    ----------
    .. [1] M. Minsky and S. Papert, *Perceptrons*, MIT Press, 1969.

    Examples
    --------
    >>> import numpy as np
    >>> from patrec.datasets import make_xor
    >>> X, y = make_xor(n_samples=200, random_state=0)
    >>> X.shape, np.bincount(y).tolist()
    ((200, 2), [100, 100])
    >>> bool((y == (np.sign(X[:, 0]) != np.sign(X[:, 1]))).mean() > 0.95)
    True
    """
    check_scalar(n_samples, "n_samples", numbers.Integral, low=4)
    check_scalar(noise, "noise", numbers.Real, low=0.0)
    rng = check_random_state(random_state)

    centres = np.array([[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]])
    blob_labels = np.array([0, 1, 0, 1], dtype=np.intp)
    blob = np.repeat(np.arange(4), _split_evenly(n_samples, 4))
    X = centres[blob] + noise * rng.standard_normal((n_samples, 2))
    return _shuffled(rng, X, blob_labels[blob])


def make_rings(n_samples=200, n_classes=2, noise=0.05, factor=0.5, random_state=None):
    """Concentric rings, one per class.

    Class 0 is the outer ring, of radius 1, and the last class the inner ring, of
    radius ``factor``; the radii in between are equally spaced.  The angles are uniform
    and isotropic Gaussian noise of standard deviation ``noise`` is added.  The classes
    are not linearly separable, but the radius alone separates them.

    Parameters
    ----------
    n_samples : int, default=200
        The number of points, at least ``n_classes``.
    n_classes : int, default=2
        The number of rings, at least 2.
    noise : float, default=0.05
        The standard deviation of the Gaussian noise, >= 0.
    factor : float, default=0.5
        The radius of the innermost ring relative to the outer one, in (0, 1).
    random_state : None, int or numpy.random.Generator, default=None
        Seed or generator for the draw.

    Returns
    -------
    X : ndarray of shape (n_samples, 2), dtype float64
    y : ndarray of shape (n_samples,), dtype intp

    Notes
    -----
    Drawing is :math:`O(n)` in time and memory.

    Examples
    --------
    >>> import numpy as np
    >>> from patrec.datasets import make_rings
    >>> X, y = make_rings(n_samples=300, n_classes=3, noise=0.0, factor=0.4,
    ...                   random_state=0)
    >>> X.shape, np.bincount(y).tolist()
    ((300, 2), [100, 100, 100])
    >>> sorted(set(np.round(np.hypot(X[:, 0], X[:, 1]), 6).tolist()))
    [0.4, 0.7, 1.0]
    """
    check_scalar(n_classes, "n_classes", numbers.Integral, low=2)
    check_scalar(n_samples, "n_samples", numbers.Integral, low=n_classes)
    check_scalar(noise, "noise", numbers.Real, low=0.0)
    check_scalar(
        factor, "factor", numbers.Real, low=0.0, high=1.0, low_open=True, high_open=True
    )
    rng = check_random_state(random_state)

    sizes = _split_evenly(n_samples, n_classes)
    y = np.repeat(np.arange(n_classes, dtype=np.intp), sizes)
    radius = np.linspace(1.0, factor, n_classes)[y]
    angle = rng.uniform(0.0, 2.0 * np.pi, size=n_samples)
    X = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])
    X += noise * rng.standard_normal(X.shape)
    return _shuffled(rng, X, y)


def make_banana(n_samples=200, noise=0.25, random_state=None):
    """Two interleaving crescents ("bananas"), two classes.

    Class 0 lies on the upper half of the unit circle centred at (-0.5, -0.25); class 1
    is its mirror image through the origin, the lower half of the unit circle centred at
    (0.5, 0.25).  Each tip of one crescent reaches into the hollow of the other, so the
    classes are not linearly separable.  Isotropic Gaussian noise of standard deviation
    ``noise`` is added.

    Parameters
    ----------
    n_samples : int, default=200
        The number of points, at least 2.
    noise : float, default=0.25
        The standard deviation of the Gaussian noise, >= 0.  The default makes the
        crescents overlap: a Bayes error of about 0.055 (see Notes); 0.1 gives
        nearly separable classes.
    random_state : None, int or numpy.random.Generator, default=None
        Seed or generator for the draw.

    Returns
    -------
    X : ndarray of shape (n_samples, 2), dtype float64
    y : ndarray of shape (n_samples,), dtype intp

    Notes
    -----
    The same shape is known as "two moons" (scikit-learn's ``make_moons``) and as the
    banana set (PRTools' ``gendatb``); this version is centred at the origin.  Drawing
    is :math:`O(n)` in time and memory.

    With the default ``noise=0.25`` (measured on 20 000 test points): the Bayes error
    is about 0.055 (51-NN trained on 100 000 points); 1-NN trained on 100 000 points
    errs 0.080, within Cover and Hart's bound of twice the Bayes error; 5-NN trained
    on the default 200 points errs about 0.07, and a linear rule (Fisher's
    discriminant) about 0.145, since the boundary is curved.  With ``noise=0.1``
    the same 5-NN errs 0.002: the classes barely touch.

    Examples
    --------
    >>> import numpy as np
    >>> from patrec.datasets import make_banana
    >>> X, y = make_banana(n_samples=200, random_state=0)
    >>> X.shape, np.bincount(y).tolist()
    ((200, 2), [100, 100])
    """
    check_scalar(n_samples, "n_samples", numbers.Integral, low=2)
    check_scalar(noise, "noise", numbers.Real, low=0.0)
    rng = check_random_state(random_state)

    y = np.repeat(np.arange(2, dtype=np.intp), _split_evenly(n_samples, 2))
    angle = rng.uniform(0.0, np.pi, size=n_samples)
    upper = np.column_stack([np.cos(angle) - 0.5, np.sin(angle) - 0.25])
    sign = np.where(y == 0, 1.0, -1.0)[:, None]
    X = sign * upper + noise * rng.standard_normal((n_samples, 2))
    return _shuffled(rng, X, y)
