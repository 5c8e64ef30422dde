"""Dies in its first decision the way a Go or Rust program panics: a first line saying why, a long trace, an exit."""
import os
import sys

from arena_bot import Bot, run


class Panicker(Bot):
    def decide(self, request):
        sys.stderr.write("panic: runtime error: index out of range [7] with length 3\n\n")
        for i in range(300):
            sys.stderr.write(f"main.search(0x{i:08x}, 0x3)\n\t/bot/search.go:{i}\n")
        sys.stderr.write("exit status 2\n")
        sys.stderr.flush()
        os._exit(2)


run(Panicker())
