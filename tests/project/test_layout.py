"""The layout rules of docs/developing.md's "Where each piece lives", checked on the sources.

Imports go one way (ryg.py -> c64 -> kernal; charset and asm import none of the
project's packages; c64/host, the host side, only charset) and no two modules import each other, no module grows past ~800 lines, and the tests use only public
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


def module_name(path):
    """c64/machine.py -> c64.machine, c64/__init__.py -> c64."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path, known):
    """The project's modules (names in `known`) a module imports, at module level or inside
    functions: `from a.b import c` is a.b.c when that is a module, else a.b."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target:
                found.add(target)
    return found - {module_name(path)}


def import_circles(graph):
    """Each set of two or more modules that import each other, directly or round a circle."""
    def reaches(start):
        seen, todo = set(), [start]
        while todo:
            for name in graph.get(todo.pop(), ()):
                if name not in seen:
                    seen.add(name)
                    todo.append(name)
        return seen
    reach = {name: reaches(name) for name in graph}
    circles = {frozenset({name} | {other for other in reach[name] if name in reach[other]})
               for name in graph if name in reach[name]}
    return sorted(sorted(circle) for circle in circles)


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


def test_the_host_side_imports_nothing_of_the_machine_or_the_front_ends():
    """c64/host/ (files, settings, log, screenshots, signals) sits below every other part of
    c64: it imports only itself and charset."""
    known = {module_name(path) for path in python_files(*PACKAGES)} | {"ryg"}
    wrong = {}
    for path in python_files("c64/host"):
        others = {name for name in imported_modules(path, known)
                  if name.split(".")[:2] != ["c64", "host"] and name.split(".")[0] != "charset"}
        if others:
            wrong[str(path.relative_to(ROOT))] = sorted(others)
    assert wrong == {}


def test_the_import_check_sees_imports_inside_functions():
    tree = ast.parse("import os\n"
                     "def f():\n    from c64.machine import C64\n    import kernal.locations\n"
                     "from . import sibling\n")
    assert imported_packages(tree) == {"os", "c64", "kernal"}


def test_no_two_modules_import_each_other():
    paths = list(python_files(*PACKAGES, "tests")) + [ROOT / "ryg.py"]
    known = {module_name(path) for path in paths}
    graph = {module_name(path): imported_modules(path, known) for path in paths}
    assert import_circles(graph) == []


def test_the_circle_check_finds_each_circle():
    graph = {"a.model": {"a.oracle"}, "a.misses": {"a.model"}, "a.oracle": set(),
             "b.x": {"b.y"}, "b.y": {"b.z"}, "b.z": {"b.x", "a.model"}}
    assert import_circles(graph) == [["b.x", "b.y", "b.z"]]
    graph["a.model"].add("a.misses")
    assert import_circles(graph) == [["a.misses", "a.model"], ["b.x", "b.y", "b.z"]]


def test_the_circle_check_reads_imports_of_modules_and_names_inside_functions():
    known = {"asm", "asm.tools", "asm.tools.ryg3_model", "asm.tools.oracle", "asm.tools.ryg3_misses"}
    assert imported_modules(ROOT / "asm" / "tools" / "ryg3_misses.py", known) == {
        "asm.tools.ryg3_model", "asm.tools.oracle"}
    assert imported_modules(ROOT / "asm" / "tools" / "ryg3_model.py", known) == {"asm.tools.oracle"}


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
