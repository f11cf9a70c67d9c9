"""The games, one package each with the same file names for the same jobs (docs/adding-a-game.md)."""
