# ARGS: --diag-kinds inspect %s --emit ast
"""`--emit ast`: the module as `ast.dump` prints it."""
from numba import cuda


@cuda.jit("void(float32[::1], float32)")
def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * a


@cuda.jit("void(int32[::1])")
def fill(x):
    x[cuda.grid(1)] = 7
# CHECK:STDOUT: Module(body=[Expr(value=Constant(value='`--emit ast`: the module as `ast.dump` prints it.')), ImportFrom(module='numba', names=[alias(name='cuda')], level=0), FunctionDef(name='scale', args=arguments(posonlyargs=[], args=[arg(arg='x'), arg(arg='a')], kwonlyargs=[], kw_defaults=[], defaults=[]), body=[Assign(targets=[Name(id='i', ctx=Store())], value=Call(func=Attribute(value=Name(id='cuda', ctx=Load()), attr='grid', ctx=Load()), args=[Constant(value=1)], keywords=[])), If(test=Compare(left=Name(id='i', ctx=Load()), ops=[Lt()], comparators=[Attribute(value=Name(id='x', ctx=Load()), attr='size', ctx=Load())]), body=[Assign(targets=[Subscript(value=Name(id='x', ctx=Load()), slice=Name(id='i', ctx=Load()), ctx=Store())], value=BinOp(left=Subscript(value=Name(id='x', ctx=Load()), slice=Name(id='i', ctx=Load()), ctx=Load()), op=Mult(), right=Name(id='a', ctx=Load())))], orelse=[])], decorator_list=[Call(func=Attribute(value=Name(id='cuda', ctx=Load()), attr='jit', ctx=Load()), args=[Constant(value='void(float32[::1], float32)')], keywords=[])], type_params=[]), FunctionDef(name='fill', args=arguments(posonlyargs=[], args=[arg(arg='x')], kwonlyargs=[], kw_defaults=[], defaults=[]), body=[Assign(targets=[Subscript(value=Name(id='x', ctx=Load()), slice=Call(func=Attribute(value=Name(id='cuda', ctx=Load()), attr='grid', ctx=Load()), args=[Constant(value=1)], keywords=[]), ctx=Store())], value=Constant(value=7))], decorator_list=[Call(func=Attribute(value=Name(id='cuda', ctx=Load()), attr='jit', ctx=Load()), args=[Constant(value='void(int32[::1])')], keywords=[])], type_params=[])], type_ignores=[])
