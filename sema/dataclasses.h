// cuTile's user classes: frozen dataclasses (docs/TILE.md, "Dataclasses"). A class the
// module (or a function that makes a kernel) defines with `@dataclass` is bound as a
// HostValue whose payload marks it and names its ClassDef; an instance in a tile kernel
// is a run-time tuple of its fields in field order (numbers, tiles, nested instances)
// whose type also carries the class name and the field names (Type::fieldNames on a
// Tuple: the class first, then one per element). The ABI flattens such a parameter as
// a tuple (docs/ABI.md), in field order, as cuTile's calling convention v3 does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sema/types.h"
#include "syntax/ast.h"

namespace frontend {

struct ResolvedModule;

// HostValue payloads at or above this mark a class: the rest is its ClassDef's StmtId index.
constexpr uint32_t kClassPayload = 0x40000000u;
inline bool isClassPayload(uint32_t payload) { return payload >= kClassPayload; }
inline StmtId classStmtOf(uint32_t payload) { return StmtId(payload - kClassPayload); }
// HostValue payloads in [kInstancePayload, kClassPayload) name an instance built at module
// level (or before a nested kernel's `def`) from constants: `fb = FooBar(2, 7)`; the rest is
// the Call's ExprId index. Kernels read it as the instance that call builds.
constexpr uint32_t kInstancePayload = 0x20000000u;
inline bool isInstancePayload(uint32_t payload) { return payload >= kInstancePayload && payload < kClassPayload; }
inline ExprId instanceCallOf(uint32_t payload) { return ExprId(payload - kInstancePayload); }

// One field of a dataclass, in field order (base classes' first, as Python's).
struct DataclassField {
  std::string name;
  // Its default (the class body's expression), invalid when none.
  ExprId defaultValue;
  // `dataclasses.field(...)` as the default: which of its options were given.
  bool viaField = false;
  bool initFalse = false;
  bool defaultFactory = false;
  bool reprFalse = false;
  // Annotated `InitVar[...]`: an argument of __init__ passed on to __post_init__, no field.
  bool initVar = false;
};

// What a class statement says, with its bases'.
struct DataclassInfo {
  std::string name;
  StmtId stmt;
  // `@dataclass` (any spelling) on this class.
  bool isDataclass = false;
  // Options of the decorator (dataclass's defaults when written bare).
  bool frozen = false;
  bool init = true;
  bool repr = true;
  // A base that is a dataclass while this class is not one.
  bool nonDataclassDerived = false;
  // A class (or a base) defines __init__ / __new__ itself.
  StmtId customInit;
  StmtId customNew;
  std::vector<DataclassField> fields;
  // The classes whose bodies hold its methods and class constants, most derived first.
  std::vector<StmtId> mro;
};

// The class statement `cls` as cuTile sees it; bases are looked up by name in `scope`
// (ResolvedModule::lookup). Never fails: a base that is not a class is ignored.
DataclassInfo dataclassInfo(const Ast& ast, const ResolvedModule& module, StmtId cls, uint32_t scope);

// Whether the class statement carries `@dataclass` / `@dataclasses.dataclass(...)`.
bool hasDataclassDecorator(const Ast& ast, const ast::ClassDef& cls);
// A class tile kernels may use (the resolver binds it with a class payload): `@dataclass`,
// or derived from such a class (bases looked up in `module`'s globals).
bool isUserClass(const Ast& ast, const ResolvedModule& module, const ast::ClassDef& cls);
// `FooBar(2, bar=7)`: a call of such a class whose arguments all fold to constants.
bool isConstantInstance(const Ast& ast, const ResolvedModule& module, ExprId value);

// The method (a FunctionDef) `name` of the class or a base (most derived first).
std::optional<StmtId> classMethod(const Ast& ast, const DataclassInfo& info, const std::string& name);
// The class-level assignment `name = value` (a class constant): its value expression.
std::optional<ExprId> classConstant(const Ast& ast, const DataclassInfo& info, const std::string& name);

// The tuple type of an instance of class `name` with fields `fields` of `types`.
TypeId dataclassType(TypeTable& table, const std::string& name, const std::vector<std::string>& fields,
                     const std::vector<TypeId>& types);
bool isDataclassType(const TypeTable& table, TypeId t);
// The class name of a dataclass type ("" otherwise).
std::string dataclassName(const TypeTable& table, TypeId t);
// The index of field `field` of dataclass type `t`, or nullopt.
std::optional<size_t> dataclassField(const TypeTable& table, TypeId t, const std::string& field);

}  // namespace frontend
