"""Data the build tools generate for the shape compiler (do not edit):
``term_data.py``, the table of every dealer term, made by
``python tools/term_build.py``."""
