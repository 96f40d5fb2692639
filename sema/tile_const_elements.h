// Constant elements of tuple parameters: cuTile's `cfg: tuple[ct.Constant[int], int]`
// makes `cfg[0]` a compile-time constant while `cfg` stays a run-time tuple. pykc gives
// each such element a TileConstParam named by its path (`cfg[0]`, `cfg[0][1]`) at the
// tuple's position; its values come from `--const cfg[0]=8` (or `KERNEL.cfg[0]=8`). The
// launch still passes the whole tuple; the manifest says which element each constant is
// (`"element": [0]`) and launchers check it there.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "syntax/ast.h"

namespace frontend {

struct ElementName {
  std::string param;           // `cfg`
  std::vector<uint32_t> path;  // {0} for `cfg[0]`
};

// `cfg[0][1]` from the parameter and the path.
std::string elementConstName(const std::string& param, const std::vector<uint32_t>& path);

// `cfg[0][1]` split into the parameter and its path; nullopt for a plain name or a
// malformed suffix.
std::optional<ElementName> splitElementName(std::string_view name);

// The paths of the ct.Constant elements in a `tuple[...]` annotation (nested tuples
// too); `isConstant` says whether an element annotation is `ct.Constant[...]`.
std::vector<std::vector<uint32_t>> constantElementPaths(const Ast& ast, ExprId annotation,
                                                        const std::function<bool(ExprId)>& isConstant);

}  // namespace frontend
