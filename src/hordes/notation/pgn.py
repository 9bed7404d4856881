"""placeholder"""

Game = GameNode = PgnError = read_game = read_games = write_game = None
