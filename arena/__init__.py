"""Arena's referee engine: games, the match runner, the sandbox, replays and the `arena` command.

Plain Python, no Django. Dependencies point one way: the platform imports arena, arena imports the generated
protocol code, and a game imports nothing else of the project.
"""

__version__ = "0.1.0"
