"""Thebes (Peter Prinz, Queen Games 2007) for 2-4 players: see RULES.md beside this file."""
