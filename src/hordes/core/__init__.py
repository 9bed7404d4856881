"""The rules core: geometry, Betza pieces, positions and move generation. Imports nothing above it."""
