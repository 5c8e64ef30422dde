"""Serves one call at a time and computes 3 s of CPU for its first decision: that call times out, and the next
ones queue behind it while it is still computing (CPU time, so being frozen between calls does not finish it)."""
import os
import signal
import time
from concurrent import futures

import grpc
from arena_bot import Bot
from arena_bot.bot import _Servicer

from arena.v1 import arena_pb2_grpc


class Laggard(Bot):
    asked = 0

    def decide(self, request):
        self.asked += 1
        if self.asked == 1:
            start = time.process_time()
            while time.process_time() - start < 3.0:
                pass
        return 0


server = grpc.server(futures.ThreadPoolExecutor(max_workers=1))
arena_pb2_grpc.add_BotServicer_to_server(_Servicer(Laggard()), server)
server.add_insecure_port(f"unix:{os.environ['ARENA_SOCKET']}")
server.start()
signal.signal(signal.SIGTERM, lambda *_: server.stop(0))
server.wait_for_termination()
