"""5th Avenue (``rules/fifth-avenue-rules-en.txt``), the project's third game: in progress.

So far its components and the reconstructed default board (``data.py``, docs/fifth-avenue.md),
the state record (``state.py``), the set-up (``setup.py``), the action codec (``actions.py``)
and the compiled rules with the auctions and Alea (``rules.py``), the observation, determinize,
the text view and the game contract record (``contract.py``).
It is in the registry as ``fifth_avenue`` (``FifthAvenue-v0``); validation, a greedy heuristic
and agents come next.
"""
