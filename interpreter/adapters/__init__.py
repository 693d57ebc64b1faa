"""Adapters to the ecosystems AI researchers work in (optional extras; each module imports its
library on use, and says what to install when it is missing):

    interpreter.adapters.openspiel    any loaded game as a ``pyspiel`` game (pip install open_spiel)
    interpreter.adapters.pettingzoo   any loaded game as a PettingZoo AEC environment
                                      (pip install pettingzoo gymnasium numpy)

Both share ``interpreter.adapters.common``: which game (name or folder, mods, options, number of
players, an action cap), the action space (each action id hashed to a fixed slot), the returns
(from winners, or from the payoffs a game's end gives) and the tensors built from
``state.view(player)``. docs/research.md says how to use them; nothing here knows a game.
"""
