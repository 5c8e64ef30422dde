"""Built-in search bot (one of three levels, by `--think` in bot.toml): `arena_bot.search`, information-set
Monte Carlo tree search over determinizations with the referee's own engine; its docstring says how it plays."""

from arena_bot.search import SearchBot, main

__all__ = ["SearchBot"]

if __name__ == "__main__":
    main()
