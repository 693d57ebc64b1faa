"""lotr-rules: a data-driven rules interpreter. The engine knows no game.

    from interpreter import load_game
    game = load_game("duel")
    state = game.new_game(seed=7)
    state.apply(state.legal_actions()[0])
"""
from .engine.game import Action, Game, GameState, check_game, load_game
from .errors import Diagnostic, EngineError, IllegalAction, RuleError, SaveError

State = GameState

__all__ = ["load_game", "check_game", "Game", "GameState", "State", "Action", "Diagnostic",
           "RuleError", "IllegalAction", "EngineError", "SaveError"]
