"""Plays the first legal action and prints what StartMatch, Decide and EndMatch told it (for the referee tests)."""
from arena_bot import Bot, run


class Reporter(Bot):
    def start(self, request):
        super().start(request)
        print(f"start game={self.game} seat={self.seat} players={self.players} params={self.params} "
              f"decision_ms={request.time_control.decision_ms} protocol={request.protocol}", flush=True)

    def decide(self, request):
        print(f"decide decision={request.decision} seat={request.seat} legal={len(request.legal_actions)} "
              f"time_left={request.time_left.decision_ms}+{request.time_left.bank_ms}", flush=True)
        return 0

    def end(self, request):
        print("end " + " ".join(f"seat{s.seat}:rank{s.rank}:score{s.score:g}" for s in request.seats), flush=True)


run(Reporter())
