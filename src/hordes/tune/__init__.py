"""Fitting a variant document's evaluation numbers to game results (Texel's method)."""
