"""The effect language: parse -> check -> compile to closures."""
