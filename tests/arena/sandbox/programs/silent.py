"""Never open the socket: sleep forever."""
import time

print("SLEEPING", flush=True)
while True:
    time.sleep(1)
