"""The installable package: a wheel built from this checkout, installed in a fresh venv, run from elsewhere.

Slow (it builds a wheel, makes a virtual environment and installs py65,
ophis-asm and platformdirs into it from the package index):
`python -m pytest -m slow tests/project/test_wheel.py`; CI runs it once.

The venv has no access to the checkout (no --system-site-packages, no
PYTHONPATH, the commands run in an empty folder), so what works here works
because the wheel carries it: the modules, the `ryg` command, and the .prg,
.map and source files as package data.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IGNORED = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache",
                                 ".venv", "venv", ".ci-venv", "*.log")

pytestmark = pytest.mark.slow


def scripting_doc():
    with open(os.path.join(ROOT, "docs", "scripting.md"), encoding="utf-8") as handle:
        return handle.read()


def readme_headless_examples():
    """docs/scripting.md's `ryg --headless ...` command lines (its headless mode examples), screenshots left out."""
    return [shlex.split(line) for line in re.findall(r"^(ryg --headless [^#\n]*?)\s*(?:#.*)?$", scripting_doc(), re.M)
            if "--screenshot" not in line]


def readme_python_example():
    return re.search(r"```python\n(.*?)```", scripting_doc(), re.S).group(1)


def copy_sources(target):
    """The checkout's tracked files (git ls-files) or, outside git, the folder without build leftovers.

    Building from a copy keeps stale files in the checkout's build/ out of the wheel.
    """
    try:
        files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        shutil.copytree(ROOT, target, ignore=IGNORED)
        return
    for name in files.decode().split("\0"):
        if name and os.path.isfile(os.path.join(ROOT, name)):
            os.makedirs(os.path.join(target, os.path.dirname(name)), exist_ok=True)
            shutil.copy2(os.path.join(ROOT, name), os.path.join(target, name))


def venv_paths(venv):
    scripts = os.path.join(venv, "Scripts" if sys.platform == "win32" else "bin")
    suffix = ".exe" if sys.platform == "win32" else ""
    return os.path.join(scripts, "python" + suffix), os.path.join(scripts, "ryg" + suffix)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv python, ryg command, environment, an empty working folder) with the wheel installed."""
    base = tmp_path_factory.mktemp("wheel")
    source, wheels, venv, work = (base / name for name in ("source", "wheels", "venv", "work"))
    copy_sources(str(source))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                    "-w", str(wheels), str(source)], check=True)
    built = [name for name in os.listdir(wheels) if name.endswith(".whl")]
    assert len(built) == 1 and built[0].startswith("ryg64-")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python, ryg = venv_paths(str(venv))
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    env["RYG64_CONFIG_DIR"] = str(base / "config")
    subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    str(wheels / built[0])], check=True, env=env)
    work.mkdir()
    return python, ryg, env, work


def run(command, installed, **options):
    _, _, env, work = installed
    return subprocess.run(command, cwd=str(work), env=env, capture_output=True, text=True, timeout=600,
                          **options)


def test_the_venv_does_not_see_the_checkout(installed):
    python = installed[0]
    result = run([python, "-c", "import ryg, asm, c64, sys; print(ryg.__file__); print(asm.__file__);"
                  "print(sys.flags.no_site, sys.prefix != sys.base_prefix)"], installed)
    lines = result.stdout.split("\n")
    assert result.returncode == 0, result.stderr
    assert "site-packages" in lines[0] and "site-packages" in lines[1]
    assert not lines[0].startswith(ROOT) and lines[2] == "0 True"
    missing = run([python, "-c", "import pytest"], installed)
    assert missing.returncode != 0            # the system's packages are not visible: a fresh venv


def test_ryg_list_names_every_bundled_version(installed):
    result = run([installed[1], "--list"], installed)
    assert result.returncode == 0, result.stderr
    names = [line.split()[0] for line in result.stdout.splitlines()]
    assert names == ["ryg3", "ryg3en", "ryg23", "ryg23en", "ryg19", "ryg19en", "ryg17", "ryg17en", "ryg15", "ryg15en"]


@pytest.mark.parametrize("name, prompt", [("ryg23", "QUE JUGADA DESEA?"), ("ryg23en", "YOUR MOVE?")])
def test_ryg_ryg23_headless_plays_a_move(installed, name, prompt):
    result = run([installed[1], "--headless", "--keys", "03{return}01{return}", name], installed)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(prompt) >= 1 and "(06,04)" in result.stdout


def test_the_package_data_is_installed(installed):
    result = run([installed[0], "-c", "import asm, os; d = os.path.dirname(asm.__file__);"
                  "print(' '.join(sorted(os.listdir(d))))"], installed)
    files = result.stdout.split()
    for name in ("ryg3", "ryg3en", "ryg23", "ryg23en", "ryg19", "ryg19en", "ryg17", "ryg17en", "ryg15", "ryg15en"):
        assert {name + ".prg", name + ".map", name + ".lines", name + ".oph"} <= set(files)
    assert {"lib", "classic", "ryg3"} <= set(files)


def test_the_readme_headless_examples_run_from_any_folder(installed):
    examples = readme_headless_examples()
    assert len(examples) >= 3
    work = installed[3]
    for argv in examples:
        for word in argv:                     # a keys file the README names is copied next to the command
            if word.endswith(".keys") and os.path.exists(os.path.join(ROOT, word)):
                os.makedirs(os.path.join(work, os.path.dirname(word)), exist_ok=True)
                shutil.copy(os.path.join(ROOT, word), os.path.join(work, word))
        result = run([installed[1]] + argv[1:], installed)
        assert result.returncode == 0, (argv, result.stderr)
        assert result.stdout.strip(), argv


def test_the_readme_python_example_runs_from_any_folder_on_the_fast_core(installed):
    code = readme_python_example() + "\nprint(type(m.cpu).__name__)\n"
    result = run([installed[0], "-c", code], installed)
    assert result.returncode == 0, result.stderr
    assert "QUE JUGADA DESEA?" in result.stdout
    assert result.stdout.split()[-1] == "FastCPU"


def test_ryg_screenshot_from_the_installed_package(installed):
    result = run([installed[1], "--headless", "--keys", "03{return}", "--screenshot", "shot.svg", "ryg23"],
                 installed)
    assert result.returncode == 0, result.stderr
    assert "<svg" in (installed[3] / "shot.svg").read_text(encoding="utf-8")
    result = run([installed[1], "--headless", "--keys", "03{return}", "--screenshot", "shot.png", "ryg23"],
                 installed)
    assert result.returncode == 0, result.stderr
    assert (installed[3] / "shot.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
