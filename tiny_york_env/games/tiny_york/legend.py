"""How to read Tiny York's board as ``render_text`` writes it (the terminal game and the browser board
show it beside the table)."""

LEGEND = """How to read the board (render_text):
  seat 0..3   the seats; neutral the neutral player
  Boroughs    name, sequence letter, value (base + prestige tiles placed there), then each seat's
              skyscrapers there (seat 0: 1, seat 1: 0, neutral: 2); "<- Mayor" marks the Mayor's
              borough
  #12(v1,II)  character 12, tile value 1, used in phase II; * a free character; [used] used
              this round ([used $] paid with a dollar); "? 12" in the terminal game says
              what character 12 does
  Press track spaces, highest first (separated by ";"); stacked tokens top first
  hand / reserve / played   your cards by type; others' hands and reserves show only their
              sizes, Toms' supplies only their sizes (R25)
  Elevator    value rows of character tiles: column:tile"""
