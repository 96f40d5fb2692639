#pragma once
// The Python syntax tree, node for node and field for field as CPython 3.12's
// Parser/Python.asdl (https://docs.python.org/3.12/library/ast.html). A field
// named `foo_bar` in the ASDL is `fooBar` here; everything else keeps its name.
//
// Storage (STYLE.md §1): nodes live in vectors inside `Ast`, referenced by typed
// ids. Nothing is heap-allocated per node. Python lists (`expr*`) are `ListRef`s
// into per-type list stores; `ast.list(ref)` turns one into a `std::span`.
// Optional fields (`expr?`, `identifier?`) are ids that may be invalid
// (`!id.valid()` means Python's `None`).
//
// Typical use:
//
//     const Expr& e = ast.expr(id);
//     switch (e.kind()) {
//     case ExprKind::BinOp: {
//       const ast::BinOp& b = e.as<ast::BinOp>();
//       visit(b.left); visit(b.right);  // b.op is an ast::Operator
//       break;
//     }
//     case ExprKind::Name:
//       llvm::errs() << ast.str(e.as<ast::Name>().id);
//     ...
//     }
//     if (const auto* call = e.dyn<ast::Call>()) ...
//
// Locations: every node CPython gives attributes to (expr, stmt, pattern, arg,
// keyword, alias, excepthandler, type_param) has a `NodeRange` with exactly
// CPython's lineno / col_offset / end_lineno / end_col_offset (1-based lines,
// 0-based columns counted in UTF-8 bytes, end exclusive).
//
// The tree owns all its strings and constants; it does not point into the
// token buffer. It keeps a pointer to the SourceFile it was parsed from, which
// must outlive it (for diagnostics on nodes).
//
// Stability: later phases build against this header; it only grows.
#include <cassert>
#include <compare>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace frontend {

class SourceFile;

// ---------------------------------------------------------------------------
// Ids and lists
// ---------------------------------------------------------------------------

// A typed index into one of Ast's node vectors. Default-constructed ids are
// invalid and stand for Python's `None` in optional fields.
template <class Tag>
struct Id {
  static constexpr uint32_t kInvalid = UINT32_MAX;
  uint32_t index = kInvalid;

  constexpr Id() = default;
  constexpr explicit Id(uint32_t i) : index(i) {}
  constexpr bool valid() const { return index != kInvalid; }
  constexpr explicit operator bool() const { return valid(); }
  friend constexpr auto operator<=>(Id, Id) = default;
};

using ExprId = Id<struct ExprTag>;
using StmtId = Id<struct StmtTag>;
using PatternId = Id<struct PatternTag>;
// `arg`: one parameter (name + annotation).
using ArgId = Id<struct ArgTag>;
// `arguments`: a whole parameter list (of a def or lambda).
using ArgumentsId = Id<struct ArgumentsTag>;
using KeywordId = Id<struct KeywordTag>;
using AliasId = Id<struct AliasTag>;
using WithItemId = Id<struct WithItemTag>;
using ComprehensionId = Id<struct ComprehensionTag>;
using ExceptHandlerId = Id<struct ExceptHandlerTag>;
using MatchCaseId = Id<struct MatchCaseTag>;
using TypeParamId = Id<struct TypeParamTag>;
// An entry of Ast's constant table (see ConstantValue).
using ConstantId = Id<struct ConstantTag>;
// An interned string (identifiers, attribute names, dotted module names,
// keyword names, type comments). Equal strings have equal ids within one Ast.
using Identifier = Id<struct IdentifierTag>;

// A Python list stored contiguously in one of Ast's list stores.
// `ast.list(ref)` gives a std::span<const T>.
template <class T>
struct ListRef {
  uint32_t begin = 0;
  uint32_t size = 0;
  bool empty() const { return size == 0; }
};

using ExprList = ListRef<ExprId>;
using StmtList = ListRef<StmtId>;
using PatternList = ListRef<PatternId>;
using ArgList = ListRef<ArgId>;
using KeywordList = ListRef<KeywordId>;
using AliasList = ListRef<AliasId>;
using WithItemList = ListRef<WithItemId>;
using ComprehensionList = ListRef<ComprehensionId>;
using ExceptHandlerList = ListRef<ExceptHandlerId>;
using MatchCaseList = ListRef<MatchCaseId>;
using TypeParamList = ListRef<TypeParamId>;
using IdentifierList = ListRef<Identifier>;

// CPython's location attributes: lines 1-based, columns 0-based UTF-8 byte
// offsets into the line, end exclusive.
struct NodeRange {
  uint32_t lineno = 0;
  uint32_t colOffset = 0;
  uint32_t endLineno = 0;
  uint32_t endColOffset = 0;
};

// ---------------------------------------------------------------------------
// Small enums (ASDL sum types without fields). Order = CPython's.
// ---------------------------------------------------------------------------

enum class ExprContext : uint8_t { Load, Store, Del };
enum class BoolOpKind : uint8_t { And, Or };
enum class Operator : uint8_t {
  Add, Sub, Mult, MatMult, Div, Mod, Pow, LShift, RShift, BitOr, BitXor, BitAnd, FloorDiv
};
enum class UnaryOpKind : uint8_t { Invert, Not, UAdd, USub };
enum class CmpOp : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

// CPython's class names of the enums above ("Add", "USub", "NotIn", ...).
std::string_view name(ExprContext v);
std::string_view name(BoolOpKind v);
std::string_view name(Operator v);
std::string_view name(UnaryOpKind v);
std::string_view name(CmpOp v);
// Python spelling of operators ("+", "-", "@", "not in", ...) for messages.
std::string_view spelling(Operator v);
std::string_view spelling(UnaryOpKind v);
std::string_view spelling(CmpOp v);

// ---------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------

enum class ConstantKind : uint8_t {
  None, True, False, Ellipsis,
  Int,      // a Python int of any size (see ConstantValue::intText)
  Float,    // floatValue (1e400 is +inf, as in Python)
  Complex,  // an imaginary literal `2.5j`: real part 0, imaginary part floatValue
  Str,      // text: UTF-8 (lone surrogates from "\ud800" escapes are encoded
            // as 3-byte sequences, "generalized UTF-8")
  Bytes,    // text: the raw bytes
};

// The exact value of a Constant (and of MatchSingleton).
struct ConstantValue {
  ConstantKind kind = ConstantKind::None;
  // Int: true when the value fits in int64 (then intValue holds it).
  bool fitsInt64 = false;
  int64_t intValue = 0;
  // Float: the value; Complex: the imaginary part.
  double floatValue = 0.0;
  // Int: the value in decimal, no sign, no underscores, no leading zeros
  // ("0" for zero). Literals are never negative (`-1` is UnaryOp(USub, 1)).
  // Str/Bytes: the value. Otherwise empty.
  std::string text;
  // Int/Float/Complex: the literal as written (`0x_ff`, `1_000.5e3j`).
  std::string literal;

  bool isString() const { return kind == ConstantKind::Str || kind == ConstantKind::Bytes; }
};

// ---------------------------------------------------------------------------
// Expression nodes (ASDL `expr`), payloads only; range/kind are in `Expr`.
// ---------------------------------------------------------------------------
namespace ast {

// `a and b and c`: values has >= 2 entries.
struct BoolOp { BoolOpKind op; ExprList values; };
// `target := value`; target is always a Name (ctx Store).
struct NamedExpr { ExprId target; ExprId value; };
struct BinOp { ExprId left; Operator op; ExprId right; };
struct UnaryOp { UnaryOpKind op; ExprId operand; };
struct Lambda { ArgumentsId args; ExprId body; };
// `body if test else orelse`
struct IfExp { ExprId test; ExprId body; ExprId orelse; };
// `{k: v, **m}`: keys[i] is invalid (None) for a `**m` entry, values[i] = m.
struct Dict { ExprList keys; ExprList values; };
struct Set { ExprList elts; };
struct ListComp { ExprId elt; ComprehensionList generators; };
struct SetComp { ExprId elt; ComprehensionList generators; };
struct DictComp { ExprId key; ExprId value; ComprehensionList generators; };
struct GeneratorExp { ExprId elt; ComprehensionList generators; };
struct Await { ExprId value; };
// `yield` (value invalid) or `yield value`.
struct Yield { ExprId value; };
struct YieldFrom { ExprId value; };
// `left ops[0] comparators[0] ops[1] comparators[1] ...`
struct Compare { ExprId left; ListRef<CmpOp> ops; ExprList comparators; };
// Positional args (may contain Starred for `*a`); `**k` is a keyword with
// an invalid arg.
struct Call { ExprId func; ExprList args; KeywordList keywords; };
// One `{value!conversion:format_spec}` field of an f-string.
// conversion: -1 none, 's' (115), 'r' (114), 'a' (97).
// formatSpec: invalid or a JoinedStr.
struct FormattedValue { ExprId value; int32_t conversion = -1; ExprId formatSpec; };
// An f-string (after implicit concatenation): Constant(Str) and
// FormattedValue pieces.
struct JoinedStr { ExprList values; };
// A literal; `kindU` is CPython's `kind='u'` (string written with a u prefix).
struct Constant { ConstantId value; bool kindU = false; };
struct Attribute { ExprId value; Identifier attr; ExprContext ctx = ExprContext::Load; };
// `value[slice]`; slice may be a Slice, a Tuple (possibly holding Slices), or any expr.
struct Subscript { ExprId value; ExprId slice; ExprContext ctx = ExprContext::Load; };
struct Starred { ExprId value; ExprContext ctx = ExprContext::Load; };
struct Name { Identifier id; ExprContext ctx = ExprContext::Load; };
struct List { ExprList elts; ExprContext ctx = ExprContext::Load; };
struct Tuple { ExprList elts; ExprContext ctx = ExprContext::Load; };
// `lower:upper:step` (each optional); only appears as (part of) a Subscript slice.
struct Slice { ExprId lower; ExprId upper; ExprId step; };

}  // namespace ast

// X-macro of expression kinds, in ASDL order. ExprKind's values are the
// indices of Expr::data's alternatives.
#define PYKC_EXPR_NODES(X)                                                              \
  X(BoolOp) X(NamedExpr) X(BinOp) X(UnaryOp) X(Lambda) X(IfExp) X(Dict) X(Set)          \
  X(ListComp) X(SetComp) X(DictComp) X(GeneratorExp) X(Await) X(Yield) X(YieldFrom)     \
  X(Compare) X(Call) X(FormattedValue) X(JoinedStr) X(Constant) X(Attribute)            \
  X(Subscript) X(Starred) X(Name) X(List) X(Tuple) X(Slice)

enum class ExprKind : uint8_t {
#define PYKC_X(N) N,
  PYKC_EXPR_NODES(PYKC_X)
#undef PYKC_X
};
std::string_view name(ExprKind k);

struct Expr {
  // The trailing monostate only absorbs the X-macro's last comma; it is
  // never stored.
#define PYKC_X(N) ast::N,
  using Data = std::variant<PYKC_EXPR_NODES(PYKC_X) std::monostate>;
#undef PYKC_X
  NodeRange range;
  Data data;

  ExprKind kind() const { return static_cast<ExprKind>(data.index()); }
  template <class T> bool is() const { return std::holds_alternative<T>(data); }
  template <class T> const T& as() const { return std::get<T>(data); }
  template <class T> T& as() { return std::get<T>(data); }
  template <class T> const T* dyn() const { return std::get_if<T>(&data); }
  template <class T> T* dyn() { return std::get_if<T>(&data); }
  // The context of Name/Attribute/Subscript/Starred/List/Tuple; Load otherwise.
  ExprContext ctx() const;
};

// ---------------------------------------------------------------------------
// Statement nodes (ASDL `stmt`)
// ---------------------------------------------------------------------------
namespace ast {

// `def name[typeParams](args) -> returns: body`, decorators outermost first.
// typeComment is always invalid (pykc does not parse type comments).
struct FunctionDef {
  Identifier name;
  ArgumentsId args;
  StmtList body;
  ExprList decoratorList;
  ExprId returns;
  Identifier typeComment;
  TypeParamList typeParams;
};
struct AsyncFunctionDef : FunctionDef {};
// `class name[typeParams](bases, keywords): body`
struct ClassDef {
  Identifier name;
  ExprList bases;
  KeywordList keywords;
  StmtList body;
  ExprList decoratorList;
  TypeParamList typeParams;
};
struct Return { ExprId value; };
struct Delete { ExprList targets; };
// `t1 = t2 = value`: targets = [t1, t2].
struct Assign { ExprList targets; ExprId value; Identifier typeComment; };
// `type name[typeParams] = value`; name is a Name (ctx Store).
struct TypeAlias { ExprId name; TypeParamList typeParams; ExprId value; };
struct AugAssign { ExprId target; Operator op; ExprId value; };
// `target: annotation = value`; simple is 1 when target is a plain name
// not in parentheses.
struct AnnAssign { ExprId target; ExprId annotation; ExprId value; int32_t simple = 0; };
struct For { ExprId target; ExprId iter; StmtList body; StmtList orelse; Identifier typeComment; };
struct AsyncFor : For {};
struct While { ExprId test; StmtList body; StmtList orelse; };
// `elif` is an If nested as the only statement of orelse.
struct If { ExprId test; StmtList body; StmtList orelse; };
struct With { WithItemList items; StmtList body; Identifier typeComment; };
struct AsyncWith : With {};
struct Match { ExprId subject; MatchCaseList cases; };
// `raise exc from cause`, both optional.
struct Raise { ExprId exc; ExprId cause; };
struct Try { StmtList body; ExceptHandlerList handlers; StmtList orelse; StmtList finalbody; };
// `try: ... except* E: ...`
struct TryStar : Try {};
struct Assert { ExprId test; ExprId msg; };
struct Import { AliasList names; };
// `from ..module import names`: module invalid for `from . import x`;
// level = number of leading dots.
struct ImportFrom { Identifier module; AliasList names; int32_t level = 0; };
struct Global { IdentifierList names; };
struct Nonlocal { IdentifierList names; };
// CPython's `Expr` statement (an expression used as a statement).
struct ExprStmt { ExprId value; };
struct Pass {};
struct Break {};
struct Continue {};

}  // namespace ast

// Statement kinds in ASDL order; the first column is the StmtKind enumerator
// (== CPython's class name), the second the payload type in namespace ast.
#define PYKC_STMT_NODES(X)                                                              \
  X(FunctionDef, FunctionDef) X(AsyncFunctionDef, AsyncFunctionDef)                     \
  X(ClassDef, ClassDef) X(Return, Return) X(Delete, Delete) X(Assign, Assign)           \
  X(TypeAlias, TypeAlias) X(AugAssign, AugAssign) X(AnnAssign, AnnAssign)               \
  X(For, For) X(AsyncFor, AsyncFor) X(While, While) X(If, If) X(With, With)             \
  X(AsyncWith, AsyncWith) X(Match, Match) X(Raise, Raise) X(Try, Try)                   \
  X(TryStar, TryStar) X(Assert, Assert) X(Import, Import) X(ImportFrom, ImportFrom)     \
  X(Global, Global) X(Nonlocal, Nonlocal) X(Expr, ExprStmt) X(Pass, Pass)               \
  X(Break, Break) X(Continue, Continue)

enum class StmtKind : uint8_t {
#define PYKC_X(N, T) N,
  PYKC_STMT_NODES(PYKC_X)
#undef PYKC_X
};
std::string_view name(StmtKind k);

struct Stmt {
#define PYKC_X(N, T) ast::T,
  using Data = std::variant<PYKC_STMT_NODES(PYKC_X) std::monostate>;
#undef PYKC_X
  NodeRange range;
  Data data;

  StmtKind kind() const { return static_cast<StmtKind>(data.index()); }
  template <class T> bool is() const { return std::holds_alternative<T>(data); }
  template <class T> const T& as() const { return std::get<T>(data); }
  template <class T> T& as() { return std::get<T>(data); }
  template <class T> const T* dyn() const { return std::get_if<T>(&data); }
  template <class T> T* dyn() { return std::get_if<T>(&data); }

  // FunctionDef or AsyncFunctionDef (nullptr otherwise); likewise below.
  const ast::FunctionDef* functionDef() const;
  const ast::For* forLoop() const;
  const ast::With* withStmt() const;
  const ast::Try* tryStmt() const;
  bool isAsync() const {
    return kind() == StmtKind::AsyncFunctionDef || kind() == StmtKind::AsyncFor ||
           kind() == StmtKind::AsyncWith;
  }
};

// ---------------------------------------------------------------------------
// Patterns (ASDL `pattern`, for `match`)
// ---------------------------------------------------------------------------
namespace ast {

// `case 1:` / `case a.b:` / `case -1+2j:`
struct MatchValue { ExprId value; };
// `case None/True/False:`; value's kind is None, True or False.
struct MatchSingleton { ConstantId value; };
// `case [a, *rest]:` / `case (a, b):`
struct MatchSequence { PatternList patterns; };
// `case {k: p, **rest}`: rest invalid when absent.
struct MatchMapping { ExprList keys; PatternList patterns; Identifier rest; };
// `case cls(p1, p2, attr=p3)`
struct MatchClass { ExprId cls; PatternList patterns; IdentifierList kwdAttrs; PatternList kwdPatterns; };
// `*name` in a sequence pattern; name invalid for `*_`.
struct MatchStar { Identifier name; };
// `pattern as name`; `name` alone (pattern invalid); `_` (both invalid).
struct MatchAs { PatternId pattern; Identifier name; };
struct MatchOr { PatternList patterns; };

}  // namespace ast

#define PYKC_PATTERN_NODES(X)                                                           \
  X(MatchValue) X(MatchSingleton) X(MatchSequence) X(MatchMapping) X(MatchClass)        \
  X(MatchStar) X(MatchAs) X(MatchOr)

enum class PatternKind : uint8_t {
#define PYKC_X(N) N,
  PYKC_PATTERN_NODES(PYKC_X)
#undef PYKC_X
};
std::string_view name(PatternKind k);

struct Pattern {
#define PYKC_X(N) ast::N,
  using Data = std::variant<PYKC_PATTERN_NODES(PYKC_X) std::monostate>;
#undef PYKC_X
  NodeRange range;
  Data data;

  PatternKind kind() const { return static_cast<PatternKind>(data.index()); }
  template <class T> bool is() const { return std::holds_alternative<T>(data); }
  template <class T> const T& as() const { return std::get<T>(data); }
  template <class T> const T* dyn() const { return std::get_if<T>(&data); }
};

// ---------------------------------------------------------------------------
// Type parameters (PEP 695)
// ---------------------------------------------------------------------------
namespace ast {
// `T` or `T: bound`
struct TypeVar { Identifier name; ExprId bound; };
// `**P`
struct ParamSpec { Identifier name; };
// `*Ts`
struct TypeVarTuple { Identifier name; };
}  // namespace ast

enum class TypeParamKind : uint8_t { TypeVar, ParamSpec, TypeVarTuple };

struct TypeParam {
  using Data = std::variant<ast::TypeVar, ast::ParamSpec, ast::TypeVarTuple>;
  NodeRange range;
  Data data;

  TypeParamKind kind() const { return static_cast<TypeParamKind>(data.index()); }
  template <class T> const T& as() const { return std::get<T>(data); }
  template <class T> const T* dyn() const { return std::get_if<T>(&data); }
  Identifier name() const;
};

// ---------------------------------------------------------------------------
// Product types
// ---------------------------------------------------------------------------

// `arg`: one parameter. typeComment is always invalid.
struct Arg {
  NodeRange range;
  Identifier arg;
  ExprId annotation;
  Identifier typeComment;
};

// `arguments`: `def f(posonlyargs, /, args, *vararg, kwonlyargs, **kwarg)`.
// defaults belong to the LAST len(defaults) of posonlyargs + args;
// kwDefaults is parallel to kwonlyargs (invalid entry = no default).
// No location (as in CPython).
struct Arguments {
  ArgList posonlyargs;
  ArgList args;
  ArgId vararg;
  ArgList kwonlyargs;
  ExprList kwDefaults;
  ArgId kwarg;
  ExprList defaults;
};

// `keyword`: `arg=value` in a call or class bases; arg invalid for `**value`.
struct Keyword {
  NodeRange range;
  Identifier arg;
  ExprId value;
};

// `alias`: `import name as asname`; name may be dotted ("os.path") or "*".
struct Alias {
  NodeRange range;
  Identifier name;
  Identifier asname;
};

// `withitem`: `contextExpr as optionalVars`. No location.
struct WithItem {
  ExprId contextExpr;
  ExprId optionalVars;
};

// `comprehension`: `[async] for target in iter if ifs[0] if ifs[1]`. No location.
struct Comprehension {
  ExprId target;
  ExprId iter;
  ExprList ifs;
  int32_t isAsync = 0;
};

// `excepthandler` (CPython's only subclass ExceptHandler):
// `except type as name: body`; type/name optional.
struct ExceptHandler {
  NodeRange range;
  ExprId type;
  Identifier name;
  StmtList body;
};

// `match_case`: `case pattern if guard: body`. No location.
struct MatchCase {
  PatternId pattern;
  ExprId guard;
  StmtList body;
};

// ---------------------------------------------------------------------------
// The tree
// ---------------------------------------------------------------------------

// A parsed module (`mod` is always `Module`; `type_ignores` is always empty
// because pykc does not parse type comments).
class Ast {
public:
  Ast() = default;
  explicit Ast(const SourceFile* source) : source_(source) {}
  Ast(Ast&&) = default;
  Ast& operator=(Ast&&) = default;
  Ast(const Ast&) = delete;
  Ast& operator=(const Ast&) = delete;

  // The module body (top-level statements).
  StmtList moduleBody() const { return body_; }
  std::span<const StmtId> module() const { return list(body_); }
  // The file this tree was parsed from (nullptr for hand-built trees).
  const SourceFile* source() const { return source_; }
  // True when the parser reported errors; such a tree is incomplete.
  bool hasErrors() const { return hasErrors_; }

  // Node access. Ids must be valid and come from this Ast.
  const Expr& expr(ExprId id) const { return exprs_[id.index]; }
  const Stmt& stmt(StmtId id) const { return stmts_[id.index]; }
  const Pattern& pattern(PatternId id) const { return patterns_[id.index]; }
  const Arg& arg(ArgId id) const { return args_[id.index]; }
  const Arguments& arguments(ArgumentsId id) const { return arguments_[id.index]; }
  const Keyword& keyword(KeywordId id) const { return keywords_[id.index]; }
  const Alias& alias(AliasId id) const { return aliases_[id.index]; }
  const WithItem& withItem(WithItemId id) const { return withItems_[id.index]; }
  const Comprehension& comprehension(ComprehensionId id) const { return comprehensions_[id.index]; }
  const ExceptHandler& exceptHandler(ExceptHandlerId id) const { return handlers_[id.index]; }
  const MatchCase& matchCase(MatchCaseId id) const { return matchCases_[id.index]; }
  const TypeParam& typeParam(TypeParamId id) const { return typeParams_[id.index]; }
  const ConstantValue& constant(ConstantId id) const { return constants_[id.index]; }
  // The text of an interned string; "" for an invalid id.
  std::string_view str(Identifier id) const {
    return id.valid() ? std::string_view(strings_[id.index]) : std::string_view();
  }
  // The value of a Constant expression (`expr(id)` must be a Constant).
  const ConstantValue& constantOf(ExprId id) const {
    return constant(expr(id).as<ast::Constant>().value);
  }

  // The elements of a list field.
  template <class T>
  std::span<const T> list(ListRef<T> ref) const {
    const std::vector<T>& store = std::get<std::vector<T>>(lists_);
    return std::span<const T>(store.data() + ref.begin, ref.size);
  }

  // Node counts (ids are 0..count-1, in creation order: children before parents).
  size_t exprCount() const { return exprs_.size(); }
  size_t stmtCount() const { return stmts_.size(); }
  size_t patternCount() const { return patterns_.size(); }

  // --- Building (used by the parser and by tests) -------------------------
  template <class T>
  ExprId addExpr(NodeRange r, T node) {
    exprs_.push_back(Expr{r, std::move(node)});
    return ExprId(static_cast<uint32_t>(exprs_.size() - 1));
  }
  template <class T>
  StmtId addStmt(NodeRange r, T node) {
    stmts_.push_back(Stmt{r, std::move(node)});
    return StmtId(static_cast<uint32_t>(stmts_.size() - 1));
  }
  template <class T>
  PatternId addPattern(NodeRange r, T node) {
    patterns_.push_back(Pattern{r, std::move(node)});
    return PatternId(static_cast<uint32_t>(patterns_.size() - 1));
  }
  template <class T>
  TypeParamId addTypeParam(NodeRange r, T node) {
    typeParams_.push_back(TypeParam{r, std::move(node)});
    return TypeParamId(static_cast<uint32_t>(typeParams_.size() - 1));
  }
  ArgId addArg(const Arg& a) { return push<ArgId>(args_, a); }
  ArgumentsId addArguments(const Arguments& a) { return push<ArgumentsId>(arguments_, a); }
  KeywordId addKeyword(const Keyword& k) { return push<KeywordId>(keywords_, k); }
  AliasId addAlias(const Alias& a) { return push<AliasId>(aliases_, a); }
  WithItemId addWithItem(const WithItem& w) { return push<WithItemId>(withItems_, w); }
  ComprehensionId addComprehension(const Comprehension& c) { return push<ComprehensionId>(comprehensions_, c); }
  ExceptHandlerId addExceptHandler(const ExceptHandler& h) { return push<ExceptHandlerId>(handlers_, h); }
  MatchCaseId addMatchCase(const MatchCase& m) { return push<MatchCaseId>(matchCases_, m); }
  ConstantId addConstant(ConstantValue v) { return push<ConstantId>(constants_, std::move(v)); }
  // Interns `s`; the same text always gives the same id.
  Identifier intern(std::string_view s);

  // Appends `items` to the list store of T and returns the new list.
  template <class T>
  ListRef<T> addList(std::span<const T> items) {
    std::vector<T>& store = std::get<std::vector<T>>(lists_);
    ListRef<T> ref{static_cast<uint32_t>(store.size()), static_cast<uint32_t>(items.size())};
    store.insert(store.end(), items.begin(), items.end());
    return ref;
  }

  // Mutable access for the parser (setting ctx, fixing ranges).
  Expr& mutableExpr(ExprId id) { return exprs_[id.index]; }
  Stmt& mutableStmt(StmtId id) { return stmts_[id.index]; }
  void setModuleBody(StmtList body) { body_ = body; }
  void setHasErrors() { hasErrors_ = true; }

private:
  template <class IdT, class V, class T>
  static IdT push(V& v, T&& x) {
    v.push_back(std::forward<T>(x));
    return IdT(static_cast<uint32_t>(v.size() - 1));
  }

  const SourceFile* source_ = nullptr;
  bool hasErrors_ = false;
  StmtList body_;
  std::vector<Expr> exprs_;
  std::vector<Stmt> stmts_;
  std::vector<Pattern> patterns_;
  std::vector<Arg> args_;
  std::vector<Arguments> arguments_;
  std::vector<Keyword> keywords_;
  std::vector<Alias> aliases_;
  std::vector<WithItem> withItems_;
  std::vector<Comprehension> comprehensions_;
  std::vector<ExceptHandler> handlers_;
  std::vector<MatchCase> matchCases_;
  std::vector<TypeParam> typeParams_;
  std::vector<ConstantValue> constants_;
  // Interned strings; a deque never moves its elements, so the map's keys
  // can view them.
  std::deque<std::string> strings_;
  std::unordered_map<std::string_view, uint32_t> stringIndex_;
  std::tuple<std::vector<ExprId>, std::vector<StmtId>, std::vector<PatternId>,
             std::vector<ArgId>, std::vector<KeywordId>, std::vector<AliasId>,
             std::vector<WithItemId>, std::vector<ComprehensionId>,
             std::vector<ExceptHandlerId>, std::vector<MatchCaseId>,
             std::vector<TypeParamId>, std::vector<Identifier>, std::vector<CmpOp>>
      lists_;
};

// The parts of an unpacking target (`a, b = ...`, `[a, (b, c)] = ...`: a tuple or a list
// display), or nullptr for any other expression.
inline const ExprList* unpackingTargets(const Ast& ast, ExprId target) {
  if (const auto* t = ast.expr(target).dyn<ast::Tuple>()) return &t->elts;
  if (const auto* l = ast.expr(target).dyn<ast::List>()) return &l->elts;
  return nullptr;
}

}  // namespace frontend
