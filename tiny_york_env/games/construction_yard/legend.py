"""How to read Construction Yard's board as ``render_text`` writes it (the terminal game and the browser board
show it beside the table)."""

LEGEND = """How to read the board (render_text):
  money display     the four money cards you may take (currency and value)
  building display  the construction yard: slot 1-4, building type and price, in the slot's
                    currency (slots 1-4: blue, green, yellow, red)
  seat N            points, number of money cards (yours shown as cards per currency, = total),
                    buildings by type; Dirk (two players) scores but never wins
  scorings done     A and B come from the money deck, C at the end"""
