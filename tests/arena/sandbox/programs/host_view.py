"""Hostile: reads what /proc says about the host as a whole (load, counters, boot, locks, memory)."""
import json
import os


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError as exc:
        return f"error {exc.errno}"


print("RESULT " + json.dumps({
    "loadavg": read("/proc/loadavg"), "stat": read("/proc/stat"), "uptime": read("/proc/uptime"),
    "boot_id": read("/proc/sys/kernel/random/boot_id"), "locks": read("/proc/locks"),
    "meminfo": read("/proc/meminfo"), "interrupts": read("/proc/interrupts"), "cpus": os.cpu_count(),
}), flush=True)
