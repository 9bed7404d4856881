"""Fairy-Stockfish interoperability: our documents as variants.ini sections, and theirs as documents."""
