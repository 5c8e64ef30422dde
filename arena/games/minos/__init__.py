"""Minos: Dawn of the Bronze Age, to the engine specification in RULES.md (1 to 4 players, solo vs Rhadamanthus)."""
