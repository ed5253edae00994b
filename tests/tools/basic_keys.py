"""Typing at BASIC in a headless C64 and waiting for the keyboard again."""

from c64.machine import StopReason

SLICES = 400                     # of 20 M cycles: a bound for a run that never comes back


def settle(machine, keys=""):
    """Type `keys` and run until BASIC waits for the keyboard again; returns the screen's
    text.  A 6502 error or a run that does not come back fails the test."""
    machine.type(keys)
    for _ in range(SLICES):
        reason = machine.run(20_000_000)
        if reason is StopReason.ERROR:
            raise AssertionError(machine.error)
        if reason is StopReason.IDLE:
            return machine.screen_text()
    raise AssertionError("BASIC did not come back to the keyboard")
