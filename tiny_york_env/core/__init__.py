"""What every game's engine shares: the ``jit`` decorator and the record's random generator.

Each game package (``tiny_york_env.game``, ``tiny_york_env.construction_yard``) imports from here
and from no other game.
"""
