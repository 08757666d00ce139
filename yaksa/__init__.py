"""yaksa: the CLI, the HTTP app and program loading for apps. Kept thin; the work lives in the packages below it."""

__version__ = "0.1.0"
