"""Prints the bot_seed StartMatch gave it (what an attacker starts from), then plays the first legal action."""
from arena_bot import Bot, run


class SeedPrinter(Bot):
    def start(self, request):
        super().start(request)
        print(f"bot_seed={request.bot_seed} seat={request.seat}", flush=True)

    def decide(self, request):
        return 0


run(SeedPrinter())
