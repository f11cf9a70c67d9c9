"""5th Avenue (``rules/fifth-avenue-rules-en.txt``), the project's third game: in progress.

So far its components and the reconstructed default board (``data.py``, docs/fifth-avenue.md),
the state record (``state.py``) and the set-up up to the first starting skyscraper
(``setup.py``); the turn, the auctions, Alea and the game contract record come next (issue 18).
It is not in the registry yet, so no env or tool offers it.
"""
