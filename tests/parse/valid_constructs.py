import a.b as c
from .. import (x, y,)
async def f():
    async with a as b, c:
        await d
    async for i in e: pass
    return [j async for j in k]
with (open(x) as f, open(y) as g):
    pass
x = lambda *a, k=1, **kw: (yield)
global q
nonlocal_ = 1
try:
    pass
except* (A, B) as e:
    raise X from e
finally:
    del a[0], b.c
