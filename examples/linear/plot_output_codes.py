r"""
=====================================================
Error-correcting output codes: decoding by hand
=====================================================

A coding matrix :math:`M` gives each class a code word (a row of +1, -1 and 0); each
column is one binary problem.  Given the scores :math:`f(\mathbf{x})` of the binary
models, Hamming decoding counts the disagreements of :math:`\operatorname{sign}
f(\mathbf{x})` with each row (a zero counts one half), and loss-based decoding adds up
a margin loss :math:`\sum_s L(M_{rs} f_s(\mathbf{x}))`.

The worked example of the course: Hamming decoding chooses class 3, the exponential
loss chooses class 4, because it also weighs how confident each score is.
"""

# %%
import warnings

import matplotlib.pyplot as plt
import numpy as np

from patrec import OutputCodes, decode
from patrec.datasets import load_iris
from patrec.exceptions import ConvergenceWarning

# The binary perceptrons of the code's columns face classes that overlap: they
# stop at their max_epochs and say so in a ConvergenceWarning, expected here and
# silenced.
warnings.filterwarnings("ignore", category=ConvergenceWarning)

M = np.array(
    [
        [-1, 0, -1, -1, +1, -1, -1],
        [+1, -1, 0, +1, +1, +1, -1],
        [+1, 0, -1, -1, -1, +1, +1],
        [-1, -1, +1, 0, -1, -1, +1],
    ]
)
f = np.array([0.5, -7, -1, -2, -10, -12, 9])

for method, loss in (("hamming", "hinge"), ("loss", "exp")):
    index, distances = decode(M, f, method=method, loss=loss, return_distances=True)
    label = "Hamming" if method == "hamming" else "exponential loss"
    rounded = ", ".join(f"{value:.4g}" for value in distances[0])
    print(f"{label:16s} -> class {index[0] + 1}   (distances {rounded})")

# %%
# The same machinery as a classifier: on iris (two features), random sparse codes of
# length ceil(15 log2 3) = 24 decoded with the hinge loss, against all pairs.
data = load_iris()
X, y = data.data[:, 2:], data.target
codes = ["one-vs-all", "all-pairs", "sparse-random"]
errors = []
for code in codes:
    clf = OutputCodes(code=code, decoding="loss", random_state=0).fit(X, y)
    errors.append(1 - clf.score(X, y))
    print(
        f"{code:13s} code of shape {clf.code_.shape}: training error {errors[-1]:.3f}"
    )

fig, ax = plt.subplots(figsize=(5, 3))
ax.bar(codes, errors)
ax.set_xlabel("output code")
ax.set_ylabel("training error")
ax.set_title("Output codes on iris (petal features)")
fig.tight_layout()
plt.show()
