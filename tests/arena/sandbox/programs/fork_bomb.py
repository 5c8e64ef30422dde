"""Hostile: fork without end; every child forks too."""
import os
import time

print("FORKING", flush=True)
while True:
    try:
        os.fork()
    except OSError:
        time.sleep(0.001)
