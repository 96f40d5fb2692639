// A frozen dataclass instance as a compile-time value (docs/TILE.md, "Dataclass instances as
// Constants"): `--const d=Spot(idx=(1, 2), val=5)` or `-D d=Spot(...)`. The driver parses the
// call before the file's classes are known and keeps it as a pending call; the resolver binds
// it to the class the kernel sees (at module level or in its enclosing function) as Python's
// generated __init__ binds arguments, giving the instance: a ConstValue tuple of its field
// values in field order that also names the class and the fields. Tile kernels read its
// fields as constants (`d.idx`, `d.val`).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sema/resolve.h"

namespace frontend {

class DiagnosticSink;

// `Cls(args, key=value)` whose arguments are constants (or such calls): the pending call;
// nullopt for any other expression.
std::optional<ConstValue> foldConstCall(const Ast& ast, ExprId e);
bool isConstCall(const ConstValue& v);
bool isConstInstance(const ConstValue& v);
// The class of an instance, its fields' names, and the index of field `field` (nullopt: none
// such).
std::string constInstanceClass(const ConstValue& v);
std::vector<std::string> constInstanceFields(const ConstValue& v);
std::optional<size_t> constInstanceField(const ConstValue& v, const std::string& field);
// `Spot(idx=(1, 2), val=5)` (an instance, as Python's generated repr), `Spot((1, 2), val=5)`
// (a pending call, as written).
std::string constObjectRepr(const ConstValue& v);
// `v` for a value given as `flag NAME=...`: a pending call bound to the class that code in
// `scope` (JitFunction::scope) sees (nullopt: reported), any other value itself.
std::optional<ConstValue> resolveConstObject(const Ast& ast, const ResolvedModule& module, const ConstValue& v,
                                             const std::string& flag, const std::string& name, uint32_t scope,
                                             DiagnosticSink& diags);

}  // namespace frontend
