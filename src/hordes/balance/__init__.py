"""Balance reports on a body of games: result rates, terminations, lengths, openings."""
