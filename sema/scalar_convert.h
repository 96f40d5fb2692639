// A number constant converted to a fixed-width scalar type as NumPy converts it
// (`np.int16(70000)` wraps, `np.float32(0.1)` rounds): the value of a strictly typed
// constant (ConstValue::scalarType), shared by module folding and the tile checker.
#pragma once

#include <optional>

#include "sema/resolve.h"
#include "sema/types.h"

namespace frontend {

// `v` (a bool, int or float constant) as type `t` named `name`; nullopt where the
// conversion is not folded (float16/bfloat16/narrow floats, non-finite to int).
std::optional<ConstValue> convertNumberTo(const ConstValue& v, const Type& t, const std::string& name);

}  // namespace frontend
