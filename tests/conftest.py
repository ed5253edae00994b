"""Shared pytest helpers.  Keep this file small and generic: add helpers, don't rewrite.

`assemble(source_text)` turns Ophis source into the bytes of a .prg (load
address included).  Ophis runs in a child process, as asm/build.py does,
because the assembler keeps module-level state between runs; results are
cached per source text for the session.
"""

import os
import re
import subprocess
import sys
import tempfile

import pytest
from hypothesis import settings

# Hypothesis' per-example deadline (200 ms) is a timed test: on a loaded host an example
# of the BASIC math took 469 ms and failed.  Speed is measured by the benchmarks in
# tests/bench/, alternating runs; the property tests check values only.
settings.register_profile("ryg64", deadline=None)
settings.load_profile("ryg64")

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
PROGRAMS_DIR = os.path.join(TESTS_DIR, "programs")

_RUN_OPHIS = "import sys, Ophis.Main; sys.exit(Ophis.Main.run_ophis(sys.argv[1:]))"
_assembled = {}
# Ophis resolves .require/.include/.incbin paths from the including file's folder;
# the source is written to a temporary folder, so relative names are made absolute.
_INCLUDE = re.compile(r'^(\s*\.(?:require|include|incbin)\s+")([^"]+)(")', re.MULTILINE | re.IGNORECASE)


def assemble(source_text, include_dir=PROGRAMS_DIR):
    """Assemble Ophis source text; returns the output bytes (a .prg when the source emits a load address).

    `.require`/`.incbin` paths are resolved from include_dir (tests/programs by default).
    Raises AssertionError with Ophis' messages when the source does not assemble.
    """
    key = (source_text, include_dir)
    source_text = _INCLUDE.sub(lambda m: m.group(1) + os.path.join(include_dir, m.group(2)) + m.group(3),
                               source_text)
    if key not in _assembled:
        with tempfile.TemporaryDirectory(prefix="ryg-ophis-") as tmp:
            src = os.path.join(tmp, "source.oph")
            out = os.path.join(tmp, "out.prg")
            with open(src, "w", encoding="utf-8") as handle:
                handle.write(source_text)
            proc = subprocess.run([sys.executable, "-c", _RUN_OPHIS, "-q", "-o", out, src],
                                  cwd=include_dir, capture_output=True, text=True)
            if proc.returncode != 0 or not os.path.exists(out):
                raise AssertionError("ophis failed:\n%s%s" % (proc.stdout, proc.stderr))
            with open(out, "rb") as handle:
                _assembled[key] = handle.read()
    return _assembled[key]


def assemble_program(name):
    """Assemble tests/programs/<name>.oph; returns the .prg bytes."""
    with open(os.path.join(PROGRAMS_DIR, name + ".oph"), encoding="utf-8") as handle:
        return assemble(handle.read())


@pytest.fixture(name="assemble")
def assemble_fixture():
    """The assemble() helper as a fixture, for tests that prefer fixtures to imports."""
    return assemble


def echo_lines_source(message):
    """Ophis source of a tiny program at $C000: prints `message`, then reads lines with
    CHRIN for ever (the cursor blinks, typed keys echo).  Used by the terminal tests."""
    return """
.word $c000
.org $c000
        ldx #0
print:  lda message,x
        beq read
        jsr $ffd2
        inx
        bne print
read:   jsr $ffcf
        jmp read
message: .byte "%s", 13, 0
""" % message


def count_direct_chrout(machine):
    """Wrap the KERNAL's one-step CHROUT (the fast core's direct trap version) so that each
    call is recorded; returns the list it appends to (True: it printed, False: declined)."""
    direct = machine.kernal.direct_chrout or (lambda: False)      # None: the py65 core has none
    used = []

    def counted():
        done = direct()
        used.append(done)
        return done
    machine.kernal.direct_chrout = counted
    return used


@pytest.fixture(scope="session")
def oracle():
    """The solved game (asm/tools/oracle.py), loaded or solved once per run."""
    from asm.tools.oracle import get_oracle
    return get_oracle()


# Where a program finds the user's own folders: HOME (~ on POSIX), the XDG base folders
# (Linux: config, state -- the log --, cache, data), the Windows ones (platformdirs reads
# LOCALAPPDATA and APPDATA; USERPROFILE is ~ there) and RYG64_CONFIG_DIR (c64.host.settings).
USER_FOLDERS = {
    "HOME": "",
    "USERPROFILE": "",
    "XDG_CONFIG_HOME": ".config",
    "XDG_STATE_HOME": ".local/state",
    "XDG_CACHE_HOME": ".cache",
    "XDG_DATA_HOME": ".local/share",
    "LOCALAPPDATA": "AppData/Local",
    "APPDATA": "AppData/Roaming",
    "RYG64_CONFIG_DIR": ".config/ryg64",
}


@pytest.fixture(scope="session", autouse=True)
def private_user_folders(tmp_path_factory):
    """Every test, and every program a test starts (they inherit os.environ), sees a temporary
    home: HOME, the XDG folders, LOCALAPPDATA/APPDATA and RYG64_CONFIG_DIR point inside it, so
    the settings file, the log (~/.local/state/ryg64/ryg64.log) and anything else a run writes
    never reach the user's own folders.  Yields the temporary home."""
    home = tmp_path_factory.mktemp("home")
    previous = {name: os.environ.get(name) for name in USER_FOLDERS}
    for name, below in USER_FOLDERS.items():
        os.environ[name] = os.path.normpath(os.path.join(str(home), below))
    yield str(home)
    for name, value in previous.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
