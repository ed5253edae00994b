"""Real-time pacing: when to run the next frame of emulated time, and how fast we really ran.

A PAL C64 runs 985,248 cycles a second; a frame is 312 lines x 63 cycles =
19,656 cycles (50.12 frames a second).  NTSC: 1,022,727 Hz, 263 x 65 =
17,095 cycles (59.83 frames a second).  The frame length comes from the
machine (C64.frame_cycles, C64.clock_hz).

No drift: frame n is due at start + n * frame_seconds, computed from the
start every time, never by adding up sleeps, so rounding and oversleeping
do not accumulate.  A host that cannot keep up (or a pause) makes frames
pile up; beyond MAX_LAG seconds they are dropped (the schedule is moved
on) instead of being run in a burst afterwards, as VICE does; the speed
meter then shows less than 100%.
"""

import time
from collections import deque

MAX_LAG = 0.25          # seconds of frames owed before giving up on them
WARP_REDRAW = 1 / 25    # seconds between redraws in warp
SPEED_WINDOW = 1.0      # seconds the speed meter averages over


class Pacer:
    """Frame schedule against a monotonic clock.

    clock_hz: emulated cycles per second; frame_cycles: cycles per frame;
    clock: a function returning seconds (time.monotonic; tests pass a fake).
    """

    def __init__(self, clock_hz, frame_cycles, clock=time.monotonic):
        self.clock_hz = clock_hz
        self.frame_cycles = frame_cycles
        self.frame_seconds = frame_cycles / clock_hz
        self.clock = clock
        self.restart()

    def restart(self, now=None):
        """Begin a fresh schedule: frame 0 is due now."""
        self.start = self.clock() if now is None else now
        self.frames = 0               # frames run since start
        self.dropped = 0              # frames given up because the host was behind

    def resync(self, now=None):
        """Keep the frame count, move the schedule so that the next frame is due now
        (after a pause, a menu or warp: the time spent there is not owed)."""
        now = self.clock() if now is None else now
        self.start = now - self.frames * self.frame_seconds

    def due_time(self, frame):
        return self.start + frame * self.frame_seconds

    def frames_due(self, now=None):
        """How many frames should have started by now and have not been run.

        Drops frames (moves the schedule on) when more than MAX_LAG is owed.
        """
        now = self.clock() if now is None else now
        owed = int((now - self.start) / self.frame_seconds + 1e-9) + 1 - self.frames   # 1e-9: float rounding
        max_owed = max(1, int(MAX_LAG / self.frame_seconds))
        if owed > max_owed:
            self.dropped += owed - max_owed
            self.start += (owed - max_owed) * self.frame_seconds
            owed = max_owed
        return max(0, owed)

    def ran(self, frames=1):
        """Record that `frames` frames of emulated time have been run."""
        self.frames += frames

    def seconds_until(self, frames_ahead=1, now=None):
        """Time from now until frame number frames + frames_ahead - 1 is due (0 if already)."""
        now = self.clock() if now is None else now
        return max(0.0, self.due_time(self.frames + frames_ahead - 1) - now)


class SpeedMeter:
    """Emulated speed as a percentage of a real C64, over the last second or so."""

    def __init__(self, clock_hz, window=SPEED_WINDOW):
        self.clock_hz = clock_hz
        self.window = window
        self.samples = deque()

    def reset(self):
        self.samples.clear()

    def add(self, now, cycles):
        samples = self.samples
        samples.append((now, cycles))
        while len(samples) > 2 and now - samples[1][0] >= self.window:
            samples.popleft()

    def percent(self):
        """Speed in percent of real time, or None before there is enough to tell."""
        if len(self.samples) < 2:
            return None
        (t0, c0), (t1, c1) = self.samples[0], self.samples[-1]
        if t1 - t0 < 0.1:
            return None
        return (c1 - c0) * 100.0 / ((t1 - t0) * self.clock_hz)
