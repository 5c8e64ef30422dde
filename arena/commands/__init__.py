"""Subcommands of the `arena` command; each module defines `register(subparsers)`.

`COMMANDS` names each command's module by the command's name, so the `arena` command imports only the module of
the command it runs (`arena replay` never loads the referee, the sandbox or gRPC); every one only for `--help`.
"""

COMMANDS = {
    "selfplay": "arena.commands.selfplay",
    "bench": "arena.commands.bench",
    "play": "arena.commands.play",
    "bot": "arena.commands.bot",
    "replay": "arena.commands.replay",
    "tournament": "arena.commands.tournament",
    "runtimes": "arena.commands.runtimes",
    "engines": "arena.commands.engines",
}
