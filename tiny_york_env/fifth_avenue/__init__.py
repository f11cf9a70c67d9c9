"""5th Avenue (``rules/fifth-avenue-rules-en.txt``), the project's third game: in progress.

So far its components and the reconstructed default board (``data.py``, docs/fifth-avenue.md),
the state record (``state.py``), the set-up (``setup.py``), the action codec (``actions.py``)
and the compiled rules with the auctions and Alea (``rules.py``); the observation, the game
contract record, envs and agents come next (issue 18).
It is not in the registry yet, so no env or tool offers it.
"""
