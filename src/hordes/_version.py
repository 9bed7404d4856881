"""The release number, in one place: pyproject.toml reads it from here (setuptools' `attr:`, which
parses this file without importing hordes), and `hordes.__version__` re-exports it."""

__version__ = "0.4.0"
