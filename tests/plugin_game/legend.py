"""How to read Sealed Bids' board as ``render_text`` writes it (the terminal game and the browser
board show it beside the table)."""

LEGEND = """How to read the board (render_text):
  prize        the prize card of this round (value 1-9); the deck's cards are face down
  seat N       score, cards still in hand (yours by value), '[bid]' once it has bid this round
               (the card shows only to its owner until every seat has bid)
  rounds       each resolved round: its prize, every seat's bid, who won it ('tie': nobody)"""
