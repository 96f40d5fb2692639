#pragma once
// numba-cuda's complex functions (cuda/cpython/cmathimpl.py and the complex
// power of cuda/mathimpl.py) on {re, im} parts, so that pykc computes the
// values numba-cuda computes, special inf/NaN cases included. Each function
// follows numba's typing inside its implementation: a Python float literal
// makes an operation float64 even for complex64 arguments, and the result is
// rounded to the argument's part type once, where numba casts its return
// value. docs/compile.md lists the functions and the places where numba's
// results differ from CPython's cmath.
#include "sema/resolve.h"

namespace llvm {
class IRBuilderBase;
class Module;
class Value;
}  // namespace llvm

namespace lowering {

// A complex number as two float values of one type (float or double).
struct ComplexParts {
  llvm::Value* re;
  llvm::Value* im;
};

// cmath.<fn>(z) for fn one of exp log log10 sqrt sin cos tan sinh cosh tanh
// acos asin atan acosh asinh atanh; the result has z's part type. Libdevice
// functions are declared in `module` as they are needed; `fastmath` (numba's
// fastmath=True) picks libdevice's fast float32 variants and approximate sqrt,
// as numba's math functions inside its cmath implementations do.
ComplexParts lowerCmathUnary(llvm::IRBuilderBase& b, llvm::Module& module, frontend::CmathFn fn,
                             ComplexParts z, bool fastmath);

// cmath.rect(r, phi) of two floats of one type.
ComplexParts lowerCmathRect(llvm::IRBuilderBase& b, llvm::Module& module, llvm::Value* r,
                            llvm::Value* phi, bool fastmath);

// a ** b (also pow(a, b) and **=) for two complex numbers of one type:
// numba-cuda's cpow (CPython's _Py_c_pow, with numba-cuda's own zero tests).
ComplexParts lowerComplexPow(llvm::IRBuilderBase& b, llvm::Module& module, ComplexParts a,
                             ComplexParts e, bool fastmath);

}  // namespace lowering
