"""Hostile: spin in four processes, so that no single process reaches its own CPU rlimit soon."""
import os

for _ in range(3):
    if os.fork() == 0:
        break
print("SPINNING", flush=True)
while True:
    pass
