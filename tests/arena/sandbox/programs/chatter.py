"""Hostile: print without end."""
import sys

i = 0
while True:
    sys.stdout.write(f"line {i} " + "x" * 200 + "\n")
    i += 1
