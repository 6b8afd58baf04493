"""Watching, from outside the sandbox, the folder where the test runner
writes results.json (Linux inotify, through the C library)."""
import ctypes
import os
import re
import select
import struct
import threading

from .util import STATUS_ERROR, Problem

EVENTS = {0x2: "modify", 0x4: "attrib", 0x20: "open", 0x40: "moved_from", 0x80: "moved_to",
          0x100: "create", 0x200: "delete", 0x4000: "overflow"}
IN_OPEN, IN_ATTRIB, IN_MOVED_TO, IN_CREATE, IN_DELETE, IN_Q_OVERFLOW = 0x20, 0x4, 0x80, 0x100, 0x200, 0x4000


class ResultsWatch:
    """The runner and the student's code share a uid in the sandbox, so a
    process the student's code left running could rewrite the file after
    the runner wrote it. The runner opens the file exactly once (to a
    temporary name, then renamed) and nothing else happens in that folder;
    any other open, file (a hard link, say), rename, change of attributes or
    deletion is tampering (inotify sees opens made through /proc/PID/fd too;
    mmap needs an open first)."""

    def __init__(self, folder):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(0o4000 | 0o2000000)  # IN_NONBLOCK | IN_CLOEXEC
        if self.fd < 0 or self.libc.inotify_add_watch(self.fd, folder.encode(), sum(EVENTS) - IN_Q_OVERFLOW) < 0:
            raise Problem(STATUS_ERROR, f"inotify on {folder} failed (errno {ctypes.get_errno()})")
        self.events, self.done = [], threading.Event()
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        while True:
            select.select([self.fd], [], [], 0.2)
            try:
                buf = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                if self.done.is_set():
                    return
                continue
            self.events += parse_events(buf)

    def finish(self):
        """After the sandbox ended: '' when the runner alone wrote the file."""
        self.done.set()
        self.thread.join()
        os.close(self.fd)
        return judge(self.events)


def parse_events(buf):
    """[(mask, name)] of a buffer of struct inotify_event."""
    out, i = [], 0
    while i + 16 <= len(buf):
        _, mask, _, length = struct.unpack_from("iIII", buf, i)
        out.append((mask, buf[i + 16:i + 16 + length].rstrip(b"\0").decode(errors="replace")))
        i += 16 + length
    return out


def judge(events):
    """What in these events is not the runner writing results.json once."""
    mine = [(m, n) for m, n in events if n]  # not the folder's own events

    def count(bit, name=None):
        return sum(1 for m, n in mine if m & bit and (name is None or n == name))

    problems = []
    others = sorted({n for m, n in mine if not re.fullmatch(r"results\.json(\.tmp\.\d+)?", n)})
    if others:
        problems.append(f"other files made there: {', '.join(others[:3])}")
    if any(m & IN_Q_OVERFLOW for m, _ in events):
        problems.append("so many file events that some were lost")
    if count(IN_OPEN) > 1:
        problems.append(f"opened {count(IN_OPEN)} times")
    if count(IN_MOVED_TO, "results.json") > 1 or count(IN_CREATE, "results.json"):
        problems.append("replaced")
    if count(IN_ATTRIB) or count(IN_DELETE):
        problems.append("changed or deleted")
    return ", ".join(problems)
