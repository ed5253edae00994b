"""The tests leave the user's own folders alone.

tests/conftest.py points HOME, the XDG folders, LOCALAPPDATA/APPDATA and
RYG64_CONFIG_DIR at a temporary home for the whole run.  Here the front end's
tests that start the program (in tmux, on a pty) or write the settings and the
log are run in a child pytest whose "real" home is a folder of our own, with no
XDG variables set, as in a user's shell: afterwards that home must still be
empty.  (Before the temporary home, the tmux test appended to
~/.local/state/ryg64/ryg64.log.)
"""

import os
import subprocess
import sys

from tests.conftest import USER_FOLDERS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FRONT_END_TESTS = ["tests/terminal/test_tmux_e2e.py", "tests/terminal/test_terminal_signals.py",
                   "tests/terminal/test_settings.py", "tests/terminal/test_terminal_logfile.py"]


def test_the_test_run_points_every_user_folder_at_one_temporary_home(private_user_folders):
    home = private_user_folders
    for name in USER_FOLDERS:
        assert os.environ[name].startswith(home), name
    assert os.path.expanduser("~") == home


def test_a_run_of_the_front_end_tests_leaves_the_real_home_untouched(tmp_path):
    real_home = tmp_path / "home"
    real_home.mkdir()
    env = {name: value for name, value in os.environ.items()
           if name not in USER_FOLDERS and name not in ("LINES", "COLUMNS", "TMUX")}
    env["HOME"] = str(real_home)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider"] + FRONT_END_TESTS,
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout
    written = [os.path.relpath(os.path.join(folder, name), str(real_home))
               for folder, dirs, files in os.walk(str(real_home)) for name in dirs + files]
    assert written == [], "the tests wrote into the user's home: %s" % written
