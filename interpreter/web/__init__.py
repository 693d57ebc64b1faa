"""The browser board: `lotr-rules serve` runs a local server (server.py) holding games in memory
(lobby.py: every game of a server; rooms.py: one game, its links and what each is sent;
catalogue.py: the games offered); the page in static/ draws any game's table from engine.table's
data. See docs/web.md.
"""
from .catalogue import Catalogue, WebError
from .lobby import Lobby
from .server import BackgroundServer, create_app

__all__ = ["create_app", "Lobby", "Catalogue", "WebError", "BackgroundServer"]
