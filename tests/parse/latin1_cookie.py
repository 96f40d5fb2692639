# -*- coding: latin-1 -*-
# ARGS: parse %s --dump-ast
x = 'é'
# CHECK:STDOUT: Module(body=[Assign(targets=[Name(id='x', ctx=Store())], value=Constant(value='Ã©'))], type_ignores=[])
