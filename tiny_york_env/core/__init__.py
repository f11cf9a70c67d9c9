"""What every game's engine shares: the ``jit`` decorator and the record's random generator.

Each game package (``tiny_york_env.games.<name>``) imports from here and from no other game.
"""
