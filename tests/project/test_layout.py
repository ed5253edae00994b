"""The layout rules of docs/developing.md's "Where each piece lives", checked on the sources.

Imports go one way (ryg.py -> c64 -> kernal; charset and asm import none of the
project's packages), no module grows past ~800 lines, and the tests use only public
names of the code they test.  The sources are read with `ast`, never imported.
"""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("c64", "kernal", "charset", "asm")
MAY_IMPORT = {                      # package -> the project's packages it may import
    "c64": {"kernal", "charset", "asm"},
    "kernal": set(),
    "charset": set(),
    "asm": set(),
}
LONGEST_MODULE = 800
# The public methods namedtuples spell with an underscore so as not to clash with fields.
NAMEDTUPLE_API = {"_replace", "_asdict", "_fields", "_make", "_field_defaults"}


def python_files(*folders):
    for folder in folders:
        yield from sorted((ROOT / folder).rglob("*.py"))


def parsed(path):
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def imported_packages(tree):
    """The top-level names a module imports (at module level or inside functions)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def is_private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_names_used(tree):
    """(line, text) for each use of another object's private name: `obj._name` where obj is
    not self or cls, `from module import _name`, and monkeypatch.setattr(obj, "_name", ...)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and is_private(node.attr) and node.attr not in NAMEDTUPLE_API:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.ImportFrom):
            found += [(node.lineno, "import " + alias.name) for alias in node.names if is_private(alias.name)]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("setattr", "delattr") and len(node.args) >= 2
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
              and is_private(node.args[1].value)):
            found.append((node.lineno, ast.unparse(node.func) + "(..., %r)" % node.args[1].value))
    return sorted(found)


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_imports_only_the_packages_below_it(package):
    wrong = {}
    for path in python_files(package):
        others = imported_packages(parsed(path)) & (set(PACKAGES) | {"ryg", "tests"}) - {package}
        if others - MAY_IMPORT[package]:
            wrong[str(path.relative_to(ROOT))] = sorted(others - MAY_IMPORT[package])
    assert wrong == {}


def test_the_import_check_sees_imports_inside_functions():
    tree = ast.parse("import os\n"
                     "def f():\n    from c64.machine import C64\n    import kernal.locations\n"
                     "from . import sibling\n")
    assert imported_packages(tree) == {"os", "c64", "kernal"}


def test_no_module_is_longer_than_800_lines():
    long = {}
    for path in python_files(*PACKAGES, "tests"):
        name = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > LONGEST_MODULE:
            long[name] = lines
    assert long == {}


def test_no_test_touches_a_private_name_of_the_code():
    found = {}
    for path in python_files("tests"):
        uses = private_names_used(parsed(path))
        if uses:
            found[path.relative_to(ROOT).as_posix()] = uses
    assert found == {}


def test_the_private_name_check_finds_each_kind_of_use():
    tree = ast.parse("machine.mem._read_src\n"
                     "from kernal.dispatch import _helper\n"
                     "monkeypatch.setattr(HostDisk, '_write', full)\n"
                     "self._mine, cls._ours, pos._replace(cats=()), obj.__class__\n")
    assert private_names_used(tree) == [
        (1, "machine.mem._read_src"), (2, "import _helper"), (3, "monkeypatch.setattr(..., '_write')")]
