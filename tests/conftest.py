import os

# scikit-learn's check_array_api_input runs only with SciPy's array-API mode on; it
# must be set before SciPy is first imported.
os.environ.setdefault("SCIPY_ARRAY_API", "1")

import matplotlib  # noqa: E402

matplotlib.use("Agg")
