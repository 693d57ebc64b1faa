"""The effect language: parse -> check (a typed IR) -> optimise -> generate one Python module per game."""
