"""Sealed Bids: a small test-only game that proves a game is a plug-in (docs/games.md).

It lives outside the package (``tests/plugin_game/``), imports nothing of ``tiny_york_env`` but
``core/`` and ``contract.py``, and joins with one call:
``tiny_york_env.registry.register_game(plugin_game())``. Its files do the jobs of the real games'
files of the same names (``tiny_york_env/games/construction_yard/``).

Rules (cited in the engine's docstrings as R1-R7):

- R1 Seats. 2-4 seats; agents take the first seats, the engine's bots ("random", "greedy") the
  last ones; at least one seat is an agent's.
- R2 Setup. The prize deck holds one card of each value 1..9 (``NUM_PRIZES``), shuffled face down
  by the record's own generator. Every seat holds the bid cards 1..6 (``NUM_BID_CARDS``); scores
  start at 0.
- R3 Rounds. The game has 6 rounds (one per bid card). A round begins by revealing the top prize
  card; round r (counted from 0) is opened by seat r mod n, and the seats bid one after the other
  clockwise (seat order), each exactly once.
- R4 Bidding. A bid is one card of the bidder's hand, laid face down; it leaves the hand for good.
  Bids stay hidden until every seat has bid.
- R5 Resolution. Then all bids are turned up: the single highest bid wins the prize, whose value
  is added to that seat's score. On a tie for the highest bid nobody wins it: the prize is
  discarded face up. The bid cards are discarded face up (everyone sees who bid what).
- R6 End. After the sixth round every hand is empty and the game ends: the highest score wins;
  tied seats share the win. The three prizes never revealed stay face down, unseen.
- R7 Information. Public: the revealed prizes and who won them, the resolved bids, which seats
  have bid in the current round, the scores, the number of prize cards left. Hidden from a seat:
  another seat's pending bid of the current round, and the order of the prize deck.
"""

from tiny_york_env.core.jit import cache_scope

cache_scope(__file__)  # before any compiled module of this package is imported

from .contract import plugin_game  # noqa: E402

__all__ = ["plugin_game"]
