"""Pacing arithmetic: frame lengths, the schedule against a monotonic clock, no drift, dropped frames, speed."""

import random

import pytest

from c64.machine import C64
from c64.terminal.pacing import MAX_LAG, Pacer, SpeedMeter
from tests.terminal.test_terminal_render import FakeClock

PAL_HZ, NTSC_HZ = 985248, 1022727


def test_a_pal_frame_is_312_lines_of_63_cycles_at_985248_hz():
    machine = C64()
    assert (machine.clock_hz, machine.frame_cycles) == (PAL_HZ, 312 * 63)
    pacer = Pacer(machine.clock_hz, machine.frame_cycles)
    assert pacer.frame_seconds == pytest.approx(1 / 50.124, rel=1e-4)


def test_an_ntsc_frame_is_263_lines_of_65_cycles_at_1022727_hz():
    machine = C64(ntsc=True)
    assert (machine.clock_hz, machine.frame_cycles) == (NTSC_HZ, 263 * 65)
    assert Pacer(machine.clock_hz, machine.frame_cycles).frame_seconds == pytest.approx(1 / 59.826, rel=1e-4)


def test_the_first_frame_is_due_at_once_and_the_next_one_frame_later():
    clock = FakeClock(tick=0)
    pacer = Pacer(PAL_HZ, 19656, clock)
    assert pacer.frames_due() == 1
    pacer.ran(1)
    assert pacer.frames_due() == 0
    assert pacer.seconds_until() == pytest.approx(19656 / PAL_HZ)
    assert pacer.seconds_until(5) == pytest.approx(5 * 19656 / PAL_HZ)
    clock.sleep(19656 / PAL_HZ * 1.01)
    assert pacer.frames_due() == 1


def simulate(pacer, clock, seconds, work, rng):
    """The app's loop, with a fake clock: run what is due, 'work', then sleep until the next frame."""
    end = clock.now + seconds
    cycles = 0
    while clock.now < end:
        due = pacer.frames_due()
        if due:
            frames = min(due, 2)
            cycles += frames * pacer.frame_cycles
            pacer.ran(frames)
            clock.sleep(work * frames * rng.random())     # host time to emulate them
        # a sleep that overshoots by up to 2 ms, as real timers do
        clock.sleep(pacer.seconds_until() + rng.random() * 0.002)
    return cycles


def test_no_drift_over_ten_simulated_minutes_with_jittery_sleeps():
    clock = FakeClock(tick=0)
    pacer = Pacer(PAL_HZ, 19656, clock)
    start = clock.now
    cycles = simulate(pacer, clock, 600, work=0.012, rng=random.Random(1))
    elapsed = clock.now - start
    # within two frames of real time after ten minutes (sleep-per-frame would lose ~2 ms a frame, 60 s)
    assert abs(cycles - elapsed * PAL_HZ) <= 2 * 19656
    assert pacer.dropped == 0


def test_ntsc_keeps_its_own_rate_without_drift():
    clock = FakeClock(tick=0)
    pacer = Pacer(NTSC_HZ, 17095, clock)
    start = clock.now
    cycles = simulate(pacer, clock, 300, work=0.010, rng=random.Random(2))
    assert abs(cycles - (clock.now - start) * NTSC_HZ) <= 2 * 17095


def test_a_host_too_slow_for_real_time_drops_frames_instead_of_owing_them():
    clock = FakeClock(tick=0)
    pacer = Pacer(PAL_HZ, 19656, clock)
    start = clock.now
    cycles = simulate(pacer, clock, 60, work=0.06, rng=random.Random(3))   # ~30 ms of work per 20 ms frame
    elapsed = clock.now - start
    assert pacer.dropped > 0
    assert cycles < elapsed * PAL_HZ
    assert pacer.frames_due() * pacer.frame_seconds <= MAX_LAG + pacer.frame_seconds


def test_a_pause_is_not_owed_after_resync():
    clock = FakeClock(tick=0)
    pacer = Pacer(PAL_HZ, 19656, clock)
    pacer.ran(pacer.frames_due())
    clock.sleep(30)                    # a menu open for half a minute
    pacer.resync()
    assert pacer.frames_due() == 1
    assert pacer.dropped == 0


def test_the_speed_meter_reports_the_ratio_of_emulated_to_real_cycles():
    meter = SpeedMeter(PAL_HZ)
    assert meter.percent() is None
    for step in range(60):
        meter.add(step * 0.02, step * 19656 * 10)        # ten frames every 20 ms: warp at ~1000%
    assert meter.percent() == pytest.approx(19656 * 10 / 0.02 / PAL_HZ * 100, rel=1e-6)


def test_the_speed_meter_forgets_samples_older_than_its_window():
    meter = SpeedMeter(PAL_HZ, window=1.0)
    meter.add(0.0, 0)
    meter.add(0.5, 0)                          # stalled for half a second
    for step in range(1, 101):
        meter.add(0.5 + step * 0.02, step * 19656)
    assert meter.percent() == pytest.approx(100 * 19656 / 0.02 / PAL_HZ, rel=0.03)
