# ARGS: parse %s --dump-ast --ast-format 3.12
type Alias[T: int, *Ts, **P] = list[T]
def g[T](x: T) -> T: return x
class C[T]: pass
f'{x:{y}}'
# CHECK:STDOUT: Module(body=[TypeAlias(name=Name(id='Alias', ctx=Store()), type_params=[TypeVar(name='T', bound=Name(id='int', ctx=Load())), TypeVarTuple(name='Ts'), ParamSpec(name='P')], value=Subscript(value=Name(id='list', ctx=Load()), slice=Name(id='T', ctx=Load()), ctx=Load())), FunctionDef(name='g', args=arguments(posonlyargs=[], args=[arg(arg='x', annotation=Name(id='T', ctx=Load()))], kwonlyargs=[], kw_defaults=[], defaults=[]), body=[Return(value=Name(id='x', ctx=Load()))], decorator_list=[], returns=Name(id='T', ctx=Load()), type_params=[TypeVar(name='T')]), ClassDef(name='C', bases=[], keywords=[], body=[Pass()], decorator_list=[], type_params=[TypeVar(name='T')]), Expr(value=JoinedStr(values=[FormattedValue(value=Name(id='x', ctx=Load()), conversion=-1, format_spec=JoinedStr(values=[FormattedValue(value=Name(id='y', ctx=Load()), conversion=-1), Constant(value='')]))]))], type_ignores=[])
