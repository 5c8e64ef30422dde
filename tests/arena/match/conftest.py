from tests.arena.match.nim_game import register

register()
