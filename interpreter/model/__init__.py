"""Game state as plain data, and the immutable rules it refers to."""
