"""How texts name the engine's automatic participants (the terminal game, the browser board, saved games)."""


def bot_label(kind: str) -> str:
    """An engine-played bot for people: 'greedy bot'."""
    return f"{kind} bot"
