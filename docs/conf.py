"""Sphinx configuration: numpydoc for the docstrings, sphinx-gallery for examples/.

The build works offline: formulas are rendered by a copy of MathJax shipped with the
``sphinx-mathjax-offline`` package (no CDN), and intersphinx (links into the NumPy,
SciPy, Python and scikit-learn documentation) is only switched on when
``PATREC_DOCS_ONLINE=1`` is set, so that no inventory download can fail a build.

Build (the same command as CI and the README)::

    sphinx-build -W --keep-going -b html docs docs/_build/html
"""
import os

import patrec

project = "patrec"
author = "the patrec developers"
copyright = "2026, the patrec developers"
release = patrec.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    # Copies MathJax 3 into _static/mathjax and points mathjax_path at it.
    "sphinx-mathjax-offline",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

# -- API pages -------------------------------------------------------------------
autosummary_generate = True
templates_path = ["_templates"]
# The class template lists every method and documents each one (inherited ones too:
# fit, score, get_params, set_params come from patrec.base).
numpydoc_show_class_members = False
numpydoc_attributes_as_param_list = True
autodoc_typehints = "none"
autodoc_default_options = {"members": True, "inherited-members": True}

exclude_patterns = ["_build", "auto_examples/*.ipynb", "auto_examples/**/*.ipynb",
                    "**/*.codeobj.json", "**/*.md5"]
default_role = "obj"  # `name` in a docstring links to the object when it exists
nitpicky = False

html_theme = "pydata_sphinx_theme"
html_static_path = ["_static"]
html_title = f"patrec {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 8,
}

# -- Gallery ---------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "within_subsection_order": "FileNameSortKey",
    # links from the code of the examples to the API pages, and the reverse
    # ("Examples using ..." at the end of every API page)
    "reference_url": {"patrec": None},
    "doc_module": ("patrec",),
    "backreferences_dir": "gen_modules/backreferences",
    # animated examples (FuncAnimation) are embedded as JavaScript players
    "matplotlib_animations": True,
    "remove_config_comments": True,
    "show_memory": False,
    # the timing pages would load a table script from a CDN
    "write_computation_times": False,
    "plot_gallery": "True",
}

# -- Links into other projects' documentation: online builds only ---------------
if os.environ.get("PATREC_DOCS_ONLINE") == "1":
    extensions.append("sphinx.ext.intersphinx")
    intersphinx_mapping = {
        "python": ("https://docs.python.org/3", None),
        "numpy": ("https://numpy.org/doc/stable", None),
        "scipy": ("https://docs.scipy.org/doc/scipy", None),
        "sklearn": ("https://scikit-learn.org/stable", None),
    }
