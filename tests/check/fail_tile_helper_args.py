# ARGS: --diag-kinds compile %s --phase=check
# Diagnostics of helper calls binding `*args`, keyword-only, positional-only and
# `**kwargs` parameters (Python's inspect.Signature.bind, as cuTile binds them), of `*`
# and `**` in calls, and of compile-time dicts.
import cuda.tile as ct


def kw(a, *, k=1):
    return a + k


def need(a, *, k):
    return a + k


def po(a, /, b=2):
    return a + b


def varargs(*xs):
    return 0


def options(**kwargs):
    return 0


def missing_key(**kwargs):
    # CHECK:STDERR: fail_tile_helper_args.py:[[@LINE+4]]:19: error: key 'qux' not found in the dictionary [tile-type]
    # CHECK:STDERR:     return kwargs["qux"]
    # CHECK:STDERR:                   ^~~~~
    # CHECK:STDERR:
    return kwargs["qux"]


def int_key(**kwargs):
    # CHECK:STDERR: fail_tile_helper_args.py:[[@LINE+4]]:19: error: dictionary keys must be strings, found `0` [tile-type]
    # CHECK:STDERR:     return kwargs[0]
    # CHECK:STDERR:                   ^
    # CHECK:STDERR:
    return kwargs[0]


def dict_items(**kwargs):
    # CHECK:STDERR: fail_tile_helper_args.py:[[@LINE+4]]:12: error: `dict.items` is not supported in tile kernels yet: index the dict or use `get` [tile-unsupported]
    # CHECK:STDERR:     return kwargs.items()
    # CHECK:STDERR:            ^~~~~~~~~~~~
    # CHECK:STDERR:
    return kwargs.items()


def either(flag, **kw):
    if flag > 0:
        # CHECK:STDERR: fail_tile_helper_args.py:[[@LINE+4]]:9: error: returning `{'a': 1}` unless every `return` gives the same compile-time value is not supported in tile kernels yet [tile-unsupported]
        # CHECK:STDERR:         return kw
        # CHECK:STDERR:         ^~~~~~~~~
        # CHECK:STDERR:
        return kw
    return {"z": 1}


@ct.kernel
def calls(x: "float32[::1]", n: "int32"):
    t = ct.load(x, index=(0,), shape=(16,))
    # CHECK:STDERR: fail_tile_helper_args.py:[[@LINE+4]]:15: error: `kw` takes 1 positional argument but 2 were given [invalid-call]
    # CHECK:STDERR:     a = kw(1, 2)
    # CHECK:STDERR:               ^
    # CHECK:STDERR:
    a = kw(1, 2)
    # CHECK:STDERR: fail_tile_helper_args.py:[[@LINE+4]]:15: error: `kw` has no parameter `z` [invalid-call]
    # CHECK:STDERR:     b = kw(1, z=2)
    # CHECK:STDERR:               ^~~
    # CHECK:STDERR:
    b = kw(1, z=2)
    # CHECK:STDERR: fail_tile_helper_args.py:[[@LINE+4]]:15: error: `kw` got `a` twice [invalid-call]
    # CHECK:STDERR:     c = kw(1, a=2)
    # CHECK:STDERR:               ^~~
    # CHECK:STDERR:
    c = kw(1, a=2)
    # CHECK:STDERR: fail_tile_helper_args.py:[[@LINE+4]]:27: error: `kw` got `k` twice [invalid-call]
    # CHECK:STDERR:     d = kw(1, **{"k": 2}, k=3)
    # CHECK:STDERR:                           ^~~
    # CHECK:STDERR:
    d = kw(1, **{"k": 2}, k=3)
    # CHECK:STDERR: fail_tile_helper_args.py:[[@LINE+4]]:9: error: `need` needs its keyword-only `k` argument [invalid-call]
    # CHECK:STDERR:     e = need(1)
    # CHECK:STDERR:         ^~~~~~~
    # CHECK:STDERR:
    e = need(1)
    # CHECK:STDERR: fail_tile_helper_args.py:[[@LINE+4]]:12: error: `po` takes `a` by position only, not as a keyword [invalid-call]
    # CHECK:STDERR:     f = po(a=1)
    # CHECK:STDERR:            ^~~
    # CHECK:STDERR:
    f = po(a=1)
    # CHECK:STDERR: fail_tile_helper_args.py:[[@LINE+4]]:17: error: `*` in a call takes a tuple, found `tile(float32, (16,))` [tile-type]
    # CHECK:STDERR:     g = varargs(*t)
    # CHECK:STDERR:                 ^~
    # CHECK:STDERR:
    g = varargs(*t)
    # CHECK:STDERR: fail_tile_helper_args.py:[[@LINE+4]]:17: error: `**` in a call takes a dict, found `tile(float32, (16,))` [tile-type]
    # CHECK:STDERR:     h = options(**t)
    # CHECK:STDERR:                 ^~~
    # CHECK:STDERR:
    h = options(**t)
    # CHECK:STDERR: fail_tile_helper_args.py:[[@LINE+4]]:20: error: dictionary keys must be strings, found `1` [tile-type]
    # CHECK:STDERR:     i = options(**{1: 2})
    # CHECK:STDERR:                    ^
    # CHECK:STDERR:
    i = options(**{1: 2})
    j = missing_key(foo=1)
    k = int_key(foo=1)
    m = dict_items(foo=1)
    # CHECK:STDERR: fail_tile_helper_args.py:[[@LINE+4]]:17: error: passing an array in `**kwargs` is not supported in tile kernels yet: name the parameter [tile-unsupported]
    # CHECK:STDERR:     p = options(arr=x)
    # CHECK:STDERR:                 ^~~~~
    # CHECK:STDERR:
    p = options(arr=x)
    args = (x, 1)
    # CHECK:STDERR: fail_tile_helper_args.py:[[@LINE+4]]:13: error: reading `args`, a tuple that holds arrays, is not supported in tile kernels yet: splice it into a call (`f(*args)`) or index the parameters it holds [tile-unsupported]
    # CHECK:STDERR:     q = len(args)
    # CHECK:STDERR:             ^~~~
    # CHECK:STDERR:
    q = len(args)
    # CHECK:STDERR: fail_tile_helper_args.py:[[@LINE+4]]:16: error: `*` in a call of `ct.exp` of this value is not supported in tile kernels yet: splice a tuple display or a name bound to one [tile-unsupported]
    # CHECK:STDERR:     r = ct.exp(*t)
    # CHECK:STDERR:                ^~
    # CHECK:STDERR:
    r = ct.exp(*t)
    opts = {"k": 2}
    # CHECK:STDERR: fail_tile_helper_args.py:[[@LINE+4]]:9: error: comparing dicts that hold run-time values is not supported in tile kernels yet [tile-unsupported]
    # CHECK:STDERR:     s = {"k": n} == opts
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    s = {"k": n} == opts
    u = either(n, a=1)
