"""How to read 5th Avenue's board as ``render_text`` writes it (the terminal game and the browser board
show it beside the table)."""

LEGEND = """How to read the board (render_text):
  district rows     the five plots by colour: B J G P businesses (boutique, jeweler, gallery,
                    perfume shop), "seat 1 x2" two of seat 1's skyscrapers, "Alea x1" Alea's, - empty
  commissioners     where the white and beige commissioners stand, and the districts they marked
  supply row        the eight sets of businesses, left to right ("." taken); take from the first
                    set that has any
  Central Park      its businesses (three count at the end) and the skyscrapers built there
                    ("seat 0 x1")
  face-up cards     each coloured stack's top card; the black stack's size
  auction           while a set of auctions runs: which of the set, where, the high bid and its
                    bidder, each bidder's total and colour ("seat 0 9 in orange"), pass or none yet
  seat 0..3         VP, skyscrapers in the supply and in the general supply, hand sizes (your
                    own hand in full)"""
