"""Importing a real-world corpus file for real, as the library it was written for does
(numba-cuda's for run_vs_numba.py, NVIDIA's cuTile's for ../../realworld_tile/corpus/
run_vs_cutile.py), on a machine that lacks the libraries its host code imports.

A file is executed statement by statement as a module of package `_corpus` (its folder),
so that relative imports of its siblings work; a module-level statement that fails (reading
an input file, arithmetic on a stand-in) is skipped and recorded, kernels and device
functions are defined all the same. Modules that nothing else finds, of the packages the
corpus files import, are permissive stand-ins (decorators, base classes, callables and
namespaces at once), which is enough for module-level host code, never for kernels.
Python 3 standard library only.
"""
import ast
import importlib.abc
import importlib.machinery
import os
import re
import sys
import types


class _StandInType(type):
    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return stand_in(name)


def stand_in(name):
    """A class that works as a decorator (returns the function), a base class, a callable
    and a namespace."""
    def __new__(cls, *a, **k):
        if len(a) == 1 and not k and callable(a[0]):
            return a[0]
        return object.__new__(cls)

    def __call__(self, *a, **k):
        if len(a) == 1 and not k and callable(a[0]):
            return a[0]
        return stand_in("result")()

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return stand_in(attr)

    return _StandInType(name, (), {"__new__": __new__, "__init__": lambda self, *a, **k: None,
                                   "__call__": __call__, "__getattr__": __getattr__})


class _StandInModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return stand_in(name)


class StandInFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Last on sys.meta_path: a module that nothing else finds, of a package the corpus
    files import (`roots`), is a stand-in (recorded in `names`). Other misses stay misses
    (libraries probe for optional modules)."""
    def __init__(self, roots):
        self.roots, self.names = roots, []

    def find_spec(self, name, path, target=None):
        if name.split(".")[0] not in self.roots and not name.startswith("_corpus."):
            return None
        self.names.append(name)
        return importlib.machinery.ModuleSpec(name, self, is_package=True)

    def create_module(self, spec):
        m = _StandInModule(spec.name)
        m.__path__ = []
        return m

    def exec_module(self, module):
        pass


def imported_roots(folder):
    """The top-level package names that the .py files under `folder` import."""
    roots = set()
    for dirpath, _, files in os.walk(folder):
        for f in files:
            if f.endswith(".py"):
                src = open(os.path.join(dirpath, f), encoding="utf-8", errors="replace").read()
                roots.update(re.findall(r"^\s*(?:from|import)\s+([A-Za-z_]\w*)", src, re.M))
    return roots


def import_corpus_file(path, repo_folder, python_path=(), keep=()):
    """Execute the corpus file `path` as module `_corpus.<name>` (see the module's
    docstring). `repo_folder`: the corpus folder of its repository, whose files' imports
    say which packages may be stood in; `keep`: packages never stood in (the library under
    test: import it before calling this); `python_path`: folders put first on sys.path.
    Returns (module, sorted names of the stood-in packages); the module's `__skipped__`
    lists the statements that failed ("line N: ExceptionType")."""
    folder = os.path.dirname(path)
    for p in python_path:
        sys.path.insert(0, p)
    sys.path.insert(0, folder)
    pkg = types.ModuleType("_corpus")
    pkg.__path__ = [folder]
    sys.modules["_corpus"] = pkg
    finder = StandInFinder(imported_roots(repo_folder) - set(keep))
    sys.meta_path.append(finder)
    name = os.path.splitext(os.path.basename(path))[0]
    mod = types.ModuleType("_corpus." + name)
    mod.__file__, mod.__package__ = path, "_corpus"
    sys.modules[mod.__name__] = mod
    source = open(path, encoding="utf-8").read()
    sys.argv = [path]  # scripts that parse their command line at import see none
    skipped = []
    for stmt in ast.parse(source, path).body:
        if isinstance(stmt, ast.If) and ast.unparse(stmt.test) == "__name__ == '__main__'":
            continue
        try:
            exec(compile(ast.Module([stmt], []), path, "exec"), mod.__dict__)
        except Exception as e:  # noqa: BLE001 - recorded; host code the kernels do not need
            skipped.append(f"line {stmt.lineno}: {type(e).__name__}")
    mod.__skipped__ = skipped
    return mod, sorted(set(n.split(".")[0] for n in finder.names))
