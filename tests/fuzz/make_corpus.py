#!/usr/bin/env python3
"""Writes the seed inputs of the front-end fuzzer into a folder.

Hand-written snippets for every grammar construct and every odd encoding,
plus statement-sized pieces of CPython 3.12's own grammar tests when they are
installed. The checked-in tests/fuzz/corpus/ is this output plus what long
fuzzing runs found, reduced to a smallest set covering the same edges (a few
hundred files, about 200 KB); to refresh it:

    python3 tests/fuzz/make_corpus.py /tmp/seeds
    F=build-fuzz/tests/fuzz/fuzz_frontend
    mkdir /tmp/all && $F -set_cover_merge=1 /tmp/all /tmp/seeds tests/fuzz/corpus build-fuzz/fuzz-corpus
    mkdir /tmp/small && $F -set_cover_merge=1 -use_counters=0 /tmp/small /tmp/all
    rm tests/fuzz/corpus/* && cp /tmp/small/* tests/fuzz/corpus/
"""
import ast
import hashlib
import pathlib
import sys

SNIPPETS = [
    # Simple statements.
    "x = 1\n", "x: int = 1\n", "x += 1; y -= 2; z *= 3; w @= m\n", "a = b = c = 0\n",
    "a, *b = c\n", "[a, b], (c, d) = e\n", "del a, b[0], c.d\n", "pass\n", "break\n",
    "assert x, 'msg'\n", "global a, b\n", "nonlocal a\n", "return\n", "raise X from Y\n",
    "import a.b.c as d, e\n", "from . import x\n", "from ...a import (b as c, d,)\n",
    "from a import *\n", "print(*args, **kwargs, sep='')\n", "x = yield\n", "x = yield from y\n",
    "x = await y\n", "x //= 2; x **= 3; x >>= 1; x <<= 1; x ^= 1; x |= 1; x &= 1; x %= 1\n",
    "x = ...\n", "x = not a and b or c\n", "x = a if b else c\n", "x = lambda a, /, b=1, *c, d, **e: 0\n",
    "x = lambda: (yield)\n", "(x := 10)\n", "x = a < b <= c > d >= e == f != g in h not in i is j is not k\n",
    "x = -a + +b * ~c / d // e % f ** -g @ h\n", "x = a | b ^ c & d << e >> f\n",
    "x = a[1:2, ::3, ...]\n", "x = a[b:=1]\n", "x = a[*b]\n", "x = f(a for a in b)\n",
    "x = [a for a in b if c for d in e]\n", "x = {a: b for a, b in c}\n", "x = {a for a in b}\n",
    "x = (a async for a in b)\n", "x = {**a, 'b': 1}\n", "x = [*a, *b]\n", "x = (1,)\n", "x = ()\n",
    "x = 0x_ff + 0o17 + 0b1_0 + 1_000 + 1.5e-3 + 2j + .5 + 5. + 1E10\n",
    "x = 'a' \"b\" '''c''' \"\"\"d\"\"\" r'\\e' b'f' rb'g' Br'h' u'i'\n",
    "x = '\\N{BULLET} \\x41 \\u0041 \\U00000041 \\101 \\n\\t\\\\'\n", "x = b'\\xff\\0'\n",
    "x = 'a\\\nb'\n", "x = 1 + \\\n    2\n", "if x:\n    pass\nelif y:\n    pass\nelse:\n    pass\n",
    "while x:\n    break\nelse:\n    pass\n", "for a, b in c:\n    continue\nelse:\n    pass\n",
    "async def f():\n    async for a in b:\n        pass\n    async with a as b, c:\n        await d\n",
    "with (a as b, c as d,):\n    pass\n", "with a, b as (c, d):\n    pass\n",
    "try:\n    pass\nexcept E as e:\n    pass\nexcept (A, B):\n    pass\nelse:\n    pass\nfinally:\n    pass\n",
    "try:\n    pass\nexcept* E:\n    pass\n", "try:\n    pass\nfinally:\n    pass\n",
    "class C(B, metaclass=M):\n    x: int\n    def f(self): ...\n",
    "@d\n@d.e(1)\n@(lambda f: f)\ndef f(a: int = 1, *, b: 'str') -> None:\n    '''doc'''\n",
    "def f[T, *Ts, **P](x: T) -> T: pass\n", "class C[T: int, U: (A, B)]: pass\n",
    "type X = int\n", "type X[T] = list[T]\n", "type = 1\nmatch = 2\ncase = 3\n_ = 4\n",
    "match x:\n    case 1 | 2:\n        pass\n    case [a, *rest]:\n        pass\n    case {'k': v, **kw}:\n        pass\n"
    "    case Point(x=0, y=0):\n        pass\n    case str() as s if s:\n        pass\n    case -1 + 2j:\n        pass\n"
    "    case a.b.c:\n        pass\n    case (1, 2) | [3]:\n        pass\n    case None | True | False:\n        pass\n"
    "    case _:\n        pass\n",
    "match(x)\nmatch[x]\nmatch.x = 1\n", "match x, y:\n    case a, b: pass\n",
    # f-strings (PEP 701).
    "f'{x}'\n", "f'{x!r:>{width}.{prec}}'\n", "f'{x=}'\n", "f'{x = !s:^10}'\n", "f'{{}}{x}}}'\n",
    "f'{f'{f'{x}'}'}'\n", "f\"{'\\n'.join(a)}\"\n", "f'''{\nx\n}'''\n", "f'{x:{y}}'\n", "rf'\\{x}'\n",
    "f'{x!a}' f'{y}' 'z'\n", "f'{lambda x: 1}'\n", "f'{(lambda x: 1)}'\n", "f'{x:=1}'\n", "f'{(x:=1)}'\n",
    "f'{a['b']}'\n", "f'{x # comment\n}'\n", "f'{x:%Y-%m-%d}'\n", "f'\\N{BULLET}{x}'\n", "f'{*a,}'\n",
    "f'{yield}'\n", "f'{x:{{}}>10}'\n", "fr'{x}\\n'\n", "F'{x}'\n", "f''\n", "f'{'\n", "f'}'\n", "f'{x!}'\n",
    "f'{!r}'\n", "f'{}'\n", "f'{x:'\n", "f'{x\n}'\n",
    # Errors CPython reports.
    "x = (\n", "x = )\n", "x = (]\n", "x = [\n)\n", "'abc\n", "'''abc\n", "1_\n", "0b2\n", "0o8\n", "0x\n",
    "012\n", "1abc\n", "$\n", "x = a b\n", "f(**a, *b)\n", "f(a=1, b)\n", "def f(a=1, b): pass\n",
    "1 = x\n", "f() = 1\n", "del f()\n", "(a, b) += 1\n", "x = yield = 1\n", "if x\n    pass\n",
    "if x:\npass\n", "  x = 1\n", "if x:\n    a\n  b\n", "if x:\n\ta\n        b\n", "if x:\n        a\n\tb\n",
    "class C:\n    def f(self):\n        return\n", "print 'hello'\n", "exec 'x'\n", "a = 1 if b\n",
    "lambda: (yield)\n", "import a as\n", "from a import\n", "for x in:\n    pass\n", "x = {a:}\n",
    "x = [i for i in]\n", "f(x for x in y, 1)\n", "nonlocal x\n", "return 1\n", "*a = b\n",
    "a, b += 1\n", "x = 'a' 'b' f'{c'\n", "\\\n", "x = \\ 1\n", "\\", "x = 1\\",
    "def f(*): pass\n", "def f(**a, b): pass\n", "def f(a, a): pass\n", "x = not\n", "True = 1\n",
    "__debug__ = 1\n", "f(True=1)\n", "x = 1 if 2 else\n", "@\ndef f(): pass\n", "class\n", "def f(\n",
    "match x:\n    case a if:\n        pass\n", "match x:\n    case {**a, **b}: pass\n",
    "match x:\n    case a | b: pass\n", "with (a as b c): pass\n", "try:\n    pass\n",
    "x = 1 +\n", "async x = 1\n", "await\n", "a.1\n", "a..b\n", "x = 1e\n", "x = 1.e5j\n", "x = 0_0\n",
    "x = 09.5\n", "x = 0777\n", "x = 1__0\n", "if 1if 1else 0: pass\n", "x = [1for x in y]\n",
    "'\\N{NOT A NAME}'\n", "'\\N{'\n", "b'\\u0041'\n", "b'é'\n", "'\\x4'\n", "'\\U0011ffff'\n", "'\\777'\n",
    # Whitespace, comments, line breaks.
    "", "\n", "\n\n\n", "# only a comment", "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\nx = 1\n",
    "x = 1  # trailing\n", "if x:\n    # comment\n\n    pass\n", "\f\nx = 1\n", "if x:\n\f    pass\n",
    "if x:\n    a\n\f  b\n", "x = 1\r\ny = 2\r\n", "x = 1\ry = 2\r", "if x:\r\n    pass\r\n", "x = '''a\r\nb'''\n",
    "if x:\n\tpass\n", "if x:\n \tpass\n", "if x:\n\t pass\n", "if x:\n        a\n\tb\n",
    "if x:\n    a\n\tb\n", "x = (1,\n\t2)\n", "x = 1;\n", "x = 1;;\n", "if x: a; b\n", "x = 1", "if x:\n    pass",
    "class C:\n    pass\n\n\n\n", "x = [\n    1,\n    2,\n]\n", "\t\n  \n\f\n", "\\\nx = 1\n", "  \\\nx = 1\n",
    "if x:\n    a = 1 \\\n        + 2\n",
]

ENCODED = [
    b"\xef\xbb\xbfx = 1\n",
    b"\xef\xbb\xbf# -*- coding: utf-8 -*-\nx = 1\n",
    b"\xef\xbb\xbf# -*- coding: latin-1 -*-\nx = 1\n",
    b"# -*- coding: latin-1 -*-\nx = '\xe9'\n",
    b"#!/usr/bin/python\n# vim: set fileencoding=cp1252 :\nx = '\x80'\n",
    b"# coding=ascii\nx = '\x80'\n",
    b"# coding: bogus\nx = 1\n",
    b"# coding: utf-8\nx = '\xff'\n",
    b"x = '\xff'\n",
    b"x = '\xc3'\n",
    b"x = '\xed\xa0\x80'\n",
    b"x = '\xf0\x9f\x98\x80'\n",
    b"x = 1\x00\n",
    b"\x00",
    b"x = '\x00'\n",
    "\u00e9t\u00e9 = 1\n\u03c0 = 3.14\n".encode(),
    "x = '\u2028'\n".encode(),
    "x\u00a0= 1\n".encode(),
    "x = 1 \u2212 2\n".encode(),
    "\ufeffx = 1\n".encode(),
    "x = 1\n\ufeff".encode(),
    "\U0001f600 = 1\n".encode(),
    "f'{\u00e9}'\n".encode(),
    b"\n# coding: cp1252\nx = '\x80'\n",
    b"\n\n# coding: latin-1\nx = '\xe9'\n",
    b"x = 1\r\n# coding: latin-1\r\n",
    b"# coding: utf-8-sig\nx = 1\n",
    b"# coding: UTF_8\nx = 1\n",
    b"# coding: euc-jp\nx = 1\n",
    b"# coding: iso-8859-15\nx = '\xa4'\n",
    b"\xef\xbb",
    b"\xff\xfe\x00x",
]


def nested(depth):
    return [
        "x = " + "(" * depth + "1" + ")" * depth + "\n",
        "x = " + "[" * depth + "]" * depth + "\n",
        "x = " + "{" * depth + "}" * depth + "\n",
        "x = " + "-" * depth + "1\n",
        "x = " + "not " * depth + "1\n",
        "x = a" + ".b" * depth + "\n",
        "x = a" + "()" * depth + "\n",
        "x = a" + "[0]" * depth + "\n",
        "x = " + "lambda: " * depth + "1\n",
        "x = " + "1 if 1 else " * depth + "1\n",
        "x = " + "1 + " * depth + "1\n",
        "x = " + "a ** " * depth + "1\n",
        "x = " + "f'{" * depth + "1" + "}'" * depth + "\n",
        "".join("    " * i + "if x:\n" for i in range(depth)) + "    " * depth + "pass\n",
        "".join("\t" * i + "def f():\n" for i in range(depth)) + "\t" * depth + "pass\n",
        "x = " + "(" * depth + "\n",
        "x = " + ")" * depth + "\n",
        "x = " + "[(" * depth + "\n",
        "@d\n" * depth + "def f(): pass\n",
        "x = " + "await " * depth + "y\n",
        "x = " + "*" * depth + "y\n",
        "x = " + "a < " * depth + "b\n",
        "x = " + "yield " * depth + "1\n",
        "match x:\n    case " + "[" * depth + "a" + "]" * depth + ": pass\n",
    ]


def cpython_pieces():
    """Top-level statements and methods of CPython 3.12's syntax tests."""
    test = pathlib.Path("/root/.pyenv/versions/3.12.1/lib/python3.12/test")
    for name in ["test_grammar.py", "test_fstring.py", "test_patma.py", "test_type_params.py",
                 "test_pep646_syntax.py", "test_string_literals.py", "test_unparse.py"]:
        path = test / name
        if not path.exists():
            continue
        source = path.read_text(encoding="utf-8")
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        lines = source.splitlines(keepends=True)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.col_offset <= 4:
                text = "".join(lines[node.lineno - 1:node.end_lineno])
                if len(text) <= 3000:
                    yield text.encode()


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "seeds")
    out.mkdir(parents=True, exist_ok=True)
    inputs = [s.encode() for s in SNIPPETS] + ENCODED
    for depth in (3, 40, 150, 250):
        inputs += [s.encode() for s in nested(depth)]
    inputs += list(cpython_pieces())
    for data in inputs:
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
    print(f"{len(inputs)} seeds in {out}")


if __name__ == "__main__":
    main()
