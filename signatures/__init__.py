"""Declarative DSPy Signatures only: typed fields, instructions in the docstring, no logic."""
