"""Rule files of the games (YAML); shipped as package data."""
