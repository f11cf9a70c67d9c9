"""The browser board (``tiny-york serve``): play against Toms and bots, watch bots, scrub replays.

Needs the optional ``web`` extra (Starlette, uvicorn): ``pip install tiny-york-env[web]``.
``sessions.py`` holds the games, ``views.py`` draws them, ``app.py`` serves them.
"""
