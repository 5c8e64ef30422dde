"""Subcommands of the `arena` command; each module defines `register(subparsers)`."""

COMMANDS = [
    "arena.commands.selfplay",
    "arena.commands.bench",
    "arena.commands.play",
    "arena.commands.bot",
    "arena.commands.replay",
    "arena.commands.runtimes",
]
