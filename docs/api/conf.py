"""Sphinx configuration of the API reference (built by .ci/run with warnings as errors:
``python -m sphinx -W -b html docs/api docs/_build/api``)."""

import nimbers

project = "nimbers"
author = "The nimbers developers"
copyright = "2026, The nimbers developers"
release = nimbers.__version__
version = release

extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.intersphinx"]
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": False}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_type_aliases = {"NimberLike": "nimbers.typing.NimberLike"}
nitpicky = False
intersphinx_mapping: dict[str, tuple[str, None]] = {}  # offline: no inventories fetched
html_theme = "alabaster"
html_title = f"nimbers {release}"
exclude_patterns = ["_build"]
suppress_warnings = ["ref.python"]  # a name re-exported from nimbers and its home module
napoleon_use_ivar = True
