"""How texts name seats, counts and the engine's automatic participants (render_text, the terminal
game, the browser board, saved games)."""

SEAT_WORD = "seat "  # every game's texts name a seat "seat 2" (docs/games.md: ``Game.seat_name``)
SINGULAR = 1  # the one count a noun stays singular for: "1 decision", "0 decisions", "2 decisions"


def bot_label(kind: str) -> str:
    """An engine-played bot for people: 'greedy bot'."""
    return f"{kind} bot"


def seat_name(seat: int) -> str:
    """A seat as every text names it: 'seat 2'."""
    return f"{SEAT_WORD}{int(seat)}"


def count_noun(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun`` in agreement: '1 decision', '3 decisions'; ``plural`` for a noun whose
    plural is not ``noun + 's'`` (count_noun(2, 'city', 'cities'): '2 cities')."""
    return f"{count} {noun if count == SINGULAR else (plural or noun + 's')}"
