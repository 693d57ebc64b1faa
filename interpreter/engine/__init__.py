"""The interpreter loop, turn flow, decisions, triggers, chance and views."""
