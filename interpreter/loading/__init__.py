"""Reading rule files: YAML with positions, includes, mods, schema checks."""
