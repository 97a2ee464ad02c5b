"""The rules core: loads and validates `cards/`, and holds the games' typed models."""

from .loader import load_game, load_games
from .models import Card, Deck, Game
from .problems import Problem, ValidationFailed

__all__ = ["Card", "Deck", "Game", "Problem", "ValidationFailed", "load_game", "load_games"]
