"""py65's own 6502 test suite, run against FastCPU.

py65 ships its MPU tests inside the package; their test class builds the CPU
through `_make_mpu`, so subclassing it with a FastCPU factory runs all of them
against the translator (FastCPU.step translates each instruction on its own).
The memory is a plain 64 KB list of $AA, as py65's own factory makes it.

No test is excluded: the suite never executes an undocumented opcode and
never checks DEC absolute's cycle count (py65 says 3; our CPU and FastCPU
say 6, see test_fastcpu.py).
"""

import py65.tests.devices.test_mpu6502 as py65_suite

from c64.fastcpu import FastCPU


class TestPy65SuiteAgainstFastCPU(py65_suite.MPUTests):
    """Every test of py65's MPUTests, with FastCPU as the processor."""

    def _make_mpu(self, *args, **kargs):
        memory = kargs.pop("memory", None)
        if memory is None:
            memory = 0x10000 * [0xAA]
        mpu = FastCPU(memory, *args, **kargs)
        return mpu

    def test_the_suite_really_runs_translated_code(self):
        mpu = self._make_mpu()
        # LDA #$42 ; a plain py65 step would be fine too, so check the translator was used.
        mpu.memory[0:2] = [0xA9, 0x42]
        mpu.step()
        self.assertEqual(0x42, mpu.a)
        self.assertTrue(mpu.translated_steps > 0)
