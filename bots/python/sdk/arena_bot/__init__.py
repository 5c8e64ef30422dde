"""Write an Arena bot in Python.

```python
from arena_bot import Bot, run

class MyBot(Bot):
    def decide(self, request):            # an arena.v1 DecideRequest
        return self.rng.randrange(len(request.legal_actions))   # the index of a legal action

if __name__ == "__main__":
    run(MyBot())
```

`run` serves the arena.v1 `Bot` service on the unix socket named by the environment variable ARENA_SOCKET.
The request's fields are documented in arena/v1/arena.proto (and the game's own .proto): `request.thebes` is
the Thebes observation, `request.legal_actions[i].text` / `.thebes` each legal action.

To plan, `arena_bot.forward` gives the referee's own game engines: `determinize(request, rng)` is a full game
state consistent with what your seat knows (hidden parts sampled), to `clone()`, `apply()` and play out.
"""

from arena_bot.bot import Bot, observation_dict, run, serve
from arena_bot.forward import determinize

__all__ = ["Bot", "determinize", "observation_dict", "run", "serve"]
