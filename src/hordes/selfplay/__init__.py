"""Self-play at scale: games on worker processes or Ray, resumable, written as PGN."""
