# ARGS: parse %s --dump-ast
def f(a, /, b=1, *c, d, **e) -> int:
    return a + b
x = f'{a!r:>{w}} {b=}'
match p:
    case [1, *rest] | {'k': _}:
        pass
# CHECK:STDOUT: Module(body=[FunctionDef(name='f', args=arguments(posonlyargs=[arg(arg='a')], args=[arg(arg='b')], vararg=arg(arg='c'), kwonlyargs=[arg(arg='d')], kw_defaults=[None], kwarg=arg(arg='e'), defaults=[Constant(value=1)]), body=[Return(value=BinOp(left=Name(id='a', ctx=Load()), op=Add(), right=Name(id='b', ctx=Load())))], decorator_list=[], returns=Name(id='int', ctx=Load())), Assign(targets=[Name(id='x', ctx=Store())], value=JoinedStr(values=[FormattedValue(value=Name(id='a', ctx=Load()), conversion=114, format_spec=JoinedStr(values=[Constant(value='>'), FormattedValue(value=Name(id='w', ctx=Load()), conversion=-1)])), Constant(value=' b='), FormattedValue(value=Name(id='b', ctx=Load()), conversion=114)])), Match(subject=Name(id='p', ctx=Load()), cases=[match_case(pattern=MatchOr(patterns=[MatchSequence(patterns=[MatchValue(value=Constant(value=1)), MatchStar(name='rest')]), MatchMapping(keys=[Constant(value='k')], patterns=[MatchAs()])]), body=[Pass()])])], type_ignores=[])
