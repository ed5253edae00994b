"""Every example in README.md and docs/*.md runs, so a stale one fails here.

Taken from the Markdown: the ```sh blocks (command by command, a heredoc with
its command), the ```python blocks, and the inline code spans that start with
`ryg` or `python`/`pypy3`.  Each command is one of:

* run: `ryg ...` (and `python ryg.py ...`) headless with a cycle limit -- a
  command meant for the C64 screen runs with --headless added, so its version,
  program and options are checked -- and the shell lines that write the files
  they use (printf, cat with a heredoc).  Each runs in a temporary folder
  holding a copy of examples/ and docs/, with the temporary home of
  tests/conftest.py, and must exit 0 (or 3 when it sets its own --max-cycles:
  the limit is the point) without a traceback; when a ```text block follows
  its ```sh block, that is the output it shows, and every line of it ("..."
  aside) must begin a line the command prints, to the character, numbers
  included (addresses, cycles, register values: the machine is deterministic,
  so a number that moved is an example gone stale -- re-run it and paste);
* checked, not run, for a reason named in NOT_RUN (installing, the test suite,
  benchmarks and sweeps that take minutes to hours): the files and modules it
  names must exist;
* a placeholder (`path/to/your.prg`): skipped.

A command that is none of these fails: make it runnable, or say in NOT_RUN why not.
The ```python blocks run in the same kind of folder.  Links between the files must
lead to a file and, with #anchor, to one of its headings.
"""

import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = ["README.md"] + sorted(os.path.relpath(path, ROOT) for path in glob.glob(os.path.join(ROOT, "docs", "*.md")))
CYCLE_LIMIT = 400_000_000            # about 7 minutes of C64 time: every example needs far less
PLACEHOLDER = "path/to/"

# (pattern of the command, why it is not run here): its paths are checked instead.
NOT_RUN = [
    (r"python3? -m venv |py -m venv ", "making the virtual environment: .ci/run does it"),
    (r"\. \.venv(-pypy)?/bin/activate", "activating the virtual environment: .ci/run does it"),
    (r"python -m pip ", "installing: .ci/run installs as the README says, test_wheel builds the wheel"),
    (r"python -m pytest", "the test suite itself"),
    (r"python -m asm\.build", "assembling every version: tests/games/test_asm_build.py checks it"),
    (r"(python|pypy3) -m asm\.tools\.", "the solver's sweeps and the book: minutes to hours"),
    (r"python tests/bench/", "a benchmark: minutes, and its figures are for docs/measured.md"),
    (r"pypy3\b", "PyPy is not part of the test environment"),
]

FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
INLINE = re.compile(r"(?<!`)`((?:ryg|python|pypy3)(?: [^`]*)?)`(?!`)")
HEREDOC = re.compile(r"<<-?\s*'?(\w+)'?")


def read(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as handle:
        return handle.read()


def shell_commands(block):
    """The commands of a ```sh block: one a line (a heredoc's lines join the line that starts it,
    a line ending in a backslash joins the next); blank lines and comment lines are left out."""
    commands, lines = [], block.split("\n")
    while lines:
        line = lines.pop(0)
        while line.endswith("\\") and lines:
            line = line[:-1] + " " + lines.pop(0).strip()
        heredoc = HEREDOC.search(line)
        if heredoc:
            body = []
            while lines and lines[0].strip() != heredoc.group(1):
                body.append(lines.pop(0))
            line = "\n".join([line] + body + [lines.pop(0) if lines else heredoc.group(1)])
        if line.strip() and not line.strip().startswith("#"):
            commands.append(line.strip())
    return commands


def examples():
    """[(where, kind, text)]: kind "sh" for a shell command, "python" for a Python block."""
    found = []
    for name in DOCS:
        text = read(name)
        fenced = []
        for match in FENCE.finditer(text):
            fenced.append(match.span())
            where = "%s:%d" % (name, text.count("\n", 0, match.start()) + 2)
            if match.group(1) == "sh":
                found += [(where, "sh", command) for command in shell_commands(match.group(2))]
            elif match.group(1) == "python":
                found.append((where, "python", match.group(2)))
        for match in INLINE.finditer(text):
            if not any(start <= match.start() < end for start, end in fenced):
                where = "%s:%d" % (name, text.count("\n", 0, match.start()) + 1)
                found.append((where, "sh", " ".join(match.group(1).split())))
    return found


def shown_outputs():
    """{command: (where, lines)}: the output a doc shows for the last command of a ```sh block,
    in the ```text block right after it ("..." marks lines left out)."""
    shown = {}
    for name in DOCS:
        text = read(name)
        blocks = list(FENCE.finditer(text))
        for block, after in zip(blocks, blocks[1:]):
            if block.group(1) == "sh" and after.group(1) == "text" and not text[block.end():after.start()].strip():
                where = "%s:%d" % (name, text.count("\n", 0, after.start()) + 2)
                lines = [line.rstrip() for line in after.group(2).split("\n") if line.strip() not in ("", "...")]
                shown[shell_commands(block.group(2))[-1]] = (where, lines)
    return shown


def words(command):
    """The command's words, its comment left out (the first line only, for a heredoc)."""
    return shlex.split(command.split("\n")[0], comments=True)


def ryg_arguments(command):
    """The arguments of a `ryg ...` / `python ryg.py ...` command, else None."""
    argv = words(command)
    if argv[:1] == ["ryg"]:
        return argv[1:]
    if argv[:2] == ["python", "ryg.py"]:
        return argv[2:]
    return None


def not_run_reason(command):
    for pattern, reason in NOT_RUN:
        if re.match(pattern, command):
            return reason
    return None


def named_paths(command):
    """The files and modules a command names: paths with a slash or a .py, and `-m package.module`."""
    argv = words(command)
    paths = [word.split("::")[0] for word in argv
             if ("/" in word or word.endswith(".py")) and not word.startswith(("-", ".venv", "\\"))
             and ">" not in word]
    paths = [path for path in paths if not path.startswith("asm/tools/ryg3_misses.txt")]
    for flag, module in zip(argv, argv[1:]):
        if flag == "-m" and module.startswith(("asm", "tests")):
            paths.append(module.replace(".", "/") + ".py")
    return paths


def classify(where, command):
    """("run", argv-or-text), ("check", reason), ("placeholder", None); fails for anything else."""
    if PLACEHOLDER in command:
        return "placeholder", None
    argv = ryg_arguments(command)
    if argv is not None:
        if "--headless" not in argv and "--list" not in argv and "--help" not in argv:
            argv = ["--headless"] + argv            # meant for the C64 screen: checked headless
        return "run", argv
    if re.match(r"(printf |cat > )", command):
        return "run", command
    reason = not_run_reason(command)
    if reason is not None:
        return "check", reason
    pytest.fail("%s: an example that is neither run nor said why not: %r (tests/project/test_docs_examples.py)"
                % (where, command))


@pytest.fixture(name="folder")
def folder_fixture(tmp_path):
    """A temporary folder with the repository's examples/ and docs/, as the examples expect."""
    for name in ("examples", "docs"):
        shutil.copytree(os.path.join(ROOT, name), str(tmp_path / name))
    return tmp_path


def run_ryg(argv, folder):
    limit = [] if "--max-cycles" in argv else ["--max-cycles", str(CYCLE_LIMIT)]
    return subprocess.run([sys.executable, os.path.join(ROOT, "ryg.py")] + limit + argv, cwd=str(folder),
                          capture_output=True, text=True, timeout=600, env=python_env())


def python_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("LINES", None)
    env.pop("COLUMNS", None)
    return env


EXAMPLES = examples()
SHOWN = shown_outputs()


def unique_shell_examples():
    """The shell examples, each command once (`ryg` alone is named in many places)."""
    seen, unique = set(), []
    for where, kind, command in EXAMPLES:
        if kind == "sh" and command not in seen:
            seen.add(command)
            unique.append((where, kind, command))
    return unique


def test_the_docs_have_examples_of_every_kind():
    kinds = {kind for _, kind, _ in EXAMPLES}
    assert kinds == {"sh", "python"}
    assert sum(1 for where, kind, command in unique_shell_examples() if classify(where, command)[0] == "run") >= 15


@pytest.mark.parametrize("where,kind,command", [pytest.param(*example, id="%s %s" % (example[0], example[2][:50]))
                                                for example in unique_shell_examples()])
def test_every_shell_example_runs(where, kind, command, folder):
    verdict, detail = classify(where, command)
    if verdict == "placeholder":
        return
    if verdict == "check":
        for path in named_paths(command):
            assert os.path.exists(os.path.join(ROOT, path)), "%s: %r names %s, which does not exist" % (
                where, command, path)
        return
    if isinstance(detail, str):                     # a shell line that writes a file the next one reads
        run = subprocess.run(["bash", "-c", detail], cwd=str(folder), capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, (where, command, run.stderr)
        return
    # A command that reads a file an earlier line of its block writes: write it first.
    for earlier_where, earlier_kind, earlier in EXAMPLES:
        if earlier_where == where and re.match(r"(printf |cat > )", earlier):
            subprocess.run(["bash", "-c", earlier], cwd=str(folder), check=True, timeout=60)
    run = run_ryg(detail, folder)
    allowed = (0, 3) if "--max-cycles" in detail else (0,)
    assert run.returncode in allowed, "%s: %r exited %d:\n%s" % (where, command, run.returncode, run.stderr)
    assert "Traceback" not in run.stderr, (where, command, run.stderr)
    assert run.stdout.strip(), (where, command)
    if command in SHOWN:
        shown_where, lines = SHOWN[command]
        printed = run.stdout.split("\n")
        missing = [line for line in lines if not any(out.startswith(line.rstrip()) for out in printed)]
        assert missing == [], "%s shows lines the command no longer prints: %s\n-- it prints:\n%s" % (
            shown_where, missing, run.stdout)


def test_the_docs_show_output_of_their_commands():
    assert len(SHOWN) >= 3                          # the monitor's examples, checked above line by line


@pytest.mark.parametrize("where,code", [(where, code) for where, kind, code in EXAMPLES if kind == "python"])
def test_every_python_example_runs(where, code, folder):
    run = subprocess.run([sys.executable, "-c", code], cwd=str(folder), capture_output=True, text=True,
                         timeout=600, env=python_env())
    assert run.returncode == 0, "%s:\n%s" % (where, run.stderr)
    assert run.stdout.strip(), where


def anchor(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_between_the_docs_leads_somewhere():
    broken = []
    for name in DOCS:
        text = FENCE.sub("", read(name))
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue                            # a web address
            path, _, fragment = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(name), path)) if path else name
            if not os.path.exists(os.path.join(ROOT, resolved)):
                broken.append("%s: %s" % (name, target))
            elif fragment and resolved.endswith(".md"):
                headings = re.findall(r"^#+ (.+)$", FENCE.sub("", read(resolved)), re.M)
                if fragment not in [anchor(heading) for heading in headings]:
                    broken.append("%s: %s (no such heading)" % (name, target))
    assert broken == []


def test_ryg_help_says_usage_ryg():
    run = subprocess.run([sys.executable, os.path.join(ROOT, "ryg.py"), "--help"], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0
    assert run.stdout.startswith("usage: ryg ")


def test_python_ryg_py_without_the_install_says_how_to_install_not_a_traceback():
    hide_py65 = ("import runpy, sys; sys.modules['py65'] = None; sys.argv = ['ryg.py', '--list']; "
                 "runpy.run_path(%r, run_name='__main__')" % os.path.join(ROOT, "ryg.py"))
    run = subprocess.run([sys.executable, "-c", hide_py65], capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith("ryg: py65, the 6502 CPU, is not installed") and "Traceback" not in run.stderr
    assert "python -m pip install -e \".[test]\"" in run.stderr and len(run.stderr.splitlines()) == 1


def test_the_readme_says_ryg_and_names_python_ryg_py_once():
    text = read("README.md")
    assert text.count("python ryg.py") == 1
    assert "```sh\n" in text and "\nryg " in text
