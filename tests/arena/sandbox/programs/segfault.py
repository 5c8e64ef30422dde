"""Die of a segmentation fault."""
import os
import signal

print("bye", flush=True)
os.kill(os.getpid(), signal.SIGSEGV)
