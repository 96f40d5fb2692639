#include "sema/signature.h"
#include "sema/dataclasses.h"

#include <algorithm>

#include <cctype>

namespace frontend {
namespace {

// A value while parsing: a type, a parenthesised list of types, or a
// signature `ret(args)`.
struct Value {
  enum Kind { TypeValue, TupleValue, SignatureValue } kind = TypeValue;
  TypeId type;
  std::vector<TypeId> list;
  uint32_t offset = 0;
};

class Parser {
public:
  Parser(std::string_view text, TypeTable& types) : text_(text), types_(types) {}

  std::optional<SignatureError> error;

  // signature := value (',' value)* [',']
  std::optional<Signature> parseSignature() {
    skipSpace();
    std::vector<Value> values;
    bool trailingComma = false;
    do {
      skipSpace();
      if (pos_ >= text_.size() && !values.empty()) {
        trailingComma = true;
        break;
      }
      auto v = parseValue();
      if (!v) return std::nullopt;
      values.push_back(std::move(*v));
      skipSpace();
    } while (consume(','));
    if (!atEnd()) return std::nullopt;
    Signature sig;
    if (values.size() == 1 && !trailingComma) {
      Value& v = values[0];
      if (v.kind == Value::SignatureValue) {
        sig.returnType = v.type;
        sig.args = v.list;
        return sig;
      }
      if (v.kind == Value::TupleValue) {
        sig.args = v.list;
        return sig;
      }
      sig.args = {v.type};
      return sig;
    }
    for (const Value& v : values) {
      if (v.kind != Value::TypeValue) {
        fail(v.offset, 1, "expected a type, found a signature");
        return std::nullopt;
      }
      sig.args.push_back(v.type);
    }
    return sig;
  }

  std::optional<TypeId> parseSingleType() {
    skipSpace();
    auto v = parseValue();
    if (!v) return std::nullopt;
    if (!atEnd()) return std::nullopt;
    if (v->kind == Value::TupleValue) {
      return types_.tuple(v->list);
    }
    if (v->kind != Value::TypeValue) {
      fail(v->offset, 1, "expected a type, found a signature");
      return std::nullopt;
    }
    return v->type;
  }

  size_t pos() const { return pos_; }

private:
  bool atEnd() {
    skipSpace();
    if (pos_ < text_.size()) {
      fail(static_cast<uint32_t>(pos_), 1,
           "unexpected `" + std::string(1, text_[pos_]) + "` in signature");
      return false;
    }
    return true;
  }

  void fail(uint32_t offset, uint32_t length, std::string message) {
    if (!error) {
      error = SignatureError{offset, length, std::move(message)};
    }
  }

  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool consume(char c) {
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  bool expect(char c) {
    if (consume(c)) return true;
    std::string found = pos_ < text_.size() ? "`" + std::string(1, text_[pos_]) + "`"
                                            : std::string("the end");
    fail(static_cast<uint32_t>(pos_), 1,
         "expected `" + std::string(1, c) + "` in signature, found " + found);
    return false;
  }

  // A decimal number of at most 9 digits.
  std::optional<uint32_t> parseNumber(const char* what) {
    skipSpace();
    size_t start = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (start == pos_ || pos_ - start > 9) {
      fail(static_cast<uint32_t>(start), 1, std::string("expected ") + what + " in signature");
      return std::nullopt;
    }
    return static_cast<uint32_t>(std::stoul(std::string(text_.substr(start, pos_ - start))));
  }

  bool expectWord(std::string_view word) {
    skipSpace();
    if (text_.substr(pos_, word.size()) == word) {
      pos_ += word.size();
      return true;
    }
    fail(static_cast<uint32_t>(pos_), 1, "expected `" + std::string(word) + "` in signature");
    return false;
  }

  // After `.assume(`: `alignment=N`, `stride_divisible_by=N|(N, ...)`,
  // `shape_divisible_by=N|(N, ...)` (one number: every dimension), then `)`.
  // Numbers are powers of two; tuples have `ndim` of them.
  std::optional<ArrayFacts> parseFacts(unsigned ndim) {
    ArrayFacts facts;
    std::vector<std::string> seen;
    auto power = [&](const char* what) -> std::optional<uint32_t> {
      uint32_t at = static_cast<uint32_t>(pos_);
      auto n = parseNumber(what);
      if (!n) return std::nullopt;
      if (*n == 0 || (*n & (*n - 1)) != 0 || *n > (1u << 20)) {
        fail(at, static_cast<uint32_t>(pos_ - at), std::string(what) + " must be a power of two up to 2^20");
        return std::nullopt;
      }
      return n;
    };
    auto divisors = [&](const char* what) -> std::optional<std::vector<uint32_t>> {
      skipSpace();
      uint32_t at = static_cast<uint32_t>(pos_);
      if (!consume('(')) {
        auto n = power(what);
        if (!n) return std::nullopt;
        return std::vector<uint32_t>(ndim, *n);
      }
      std::vector<uint32_t> v;
      do {
        skipSpace();
        if (pos_ < text_.size() && text_[pos_] == ')') break;
        auto n = power(what);
        if (!n) return std::nullopt;
        v.push_back(*n);
      } while (consume(','));
      if (!expect(')')) return std::nullopt;
      if (v.size() != ndim) {
        fail(at, static_cast<uint32_t>(pos_ - at),
             std::string(what) + ": " + std::to_string(v.size()) + " numbers for an array of " +
                 std::to_string(ndim) + " dimensions");
        return std::nullopt;
      }
      return v;
    };
    // `shape_constant=(16, None)`, `stride_constant=(10, None)`: one entry per dimension,
    // an integer (a stride may be 0 or negative) or None (not constant).
    auto constants = [&](const char* what, bool stride) -> std::optional<std::vector<int64_t>> {
      skipSpace();
      uint32_t at = static_cast<uint32_t>(pos_);
      if (!expect('(')) return std::nullopt;
      std::vector<int64_t> v;
      do {
        skipSpace();
        if (pos_ < text_.size() && text_[pos_] == ')') break;
        if (text_.substr(pos_, 4) == "None") {
          pos_ += 4;
          v.push_back(ArrayFacts::kUnknown);
          continue;
        }
        bool minus = stride && consume('-');
        uint32_t numberAt = static_cast<uint32_t>(pos_);
        auto n = parseNumber(what);
        if (!n) return std::nullopt;
        if (minus && *n == 0) {
          fail(numberAt, static_cast<uint32_t>(pos_ - numberAt), std::string(what) + ": -0");
          return std::nullopt;
        }
        v.push_back(minus ? -int64_t(*n) : int64_t(*n));
      } while (consume(','));
      if (!expect(')')) return std::nullopt;
      if (v.size() != ndim) {
        fail(at, static_cast<uint32_t>(pos_ - at),
             std::string(what) + ": " + std::to_string(v.size()) + " entries for an array of " +
                 std::to_string(ndim) + " dimensions");
        return std::nullopt;
      }
      return v;
    };
    skipSpace();
    if (consume(')')) return facts;
    uint32_t factsAt = static_cast<uint32_t>(pos_);
    do {
      skipSpace();
      uint32_t at = static_cast<uint32_t>(pos_);
      size_t end = pos_;
      while (end < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_')) ++end;
      if (end == pos_) {
        fail(at, 1,
             "expected an array fact (alignment=, stride_divisible_by=, shape_divisible_by=, shape_constant=, "
             "stride_constant=) in signature");
        return std::nullopt;
      }
      auto key = std::optional<std::string>(text_.substr(pos_, end - pos_));
      pos_ = end;
      if (std::find(seen.begin(), seen.end(), *key) != seen.end()) {
        fail(at, static_cast<uint32_t>(key->size()), "`" + *key + "=` given twice");
        return std::nullopt;
      }
      seen.push_back(*key);
      if (!expect('=')) return std::nullopt;
      if (*key == "alignment") {
        auto n = power("an alignment");
        if (!n) return std::nullopt;
        facts.alignment = *n;
      } else if (*key == "stride_divisible_by") {
        auto v = divisors("a stride divisor");
        if (!v) return std::nullopt;
        facts.strideDivisibleBy = std::move(*v);
      } else if (*key == "shape_divisible_by") {
        auto v = divisors("an extent divisor");
        if (!v) return std::nullopt;
        facts.shapeDivisibleBy = std::move(*v);
      } else if (*key == "shape_constant" || *key == "stride_constant") {
        bool stride = *key == "stride_constant";
        auto v = constants(stride ? "a constant stride or None" : "a constant extent or None", stride);
        if (!v) return std::nullopt;
        (stride ? facts.strideConstant : facts.shapeConstant) = std::move(*v);
      } else {
        fail(at, static_cast<uint32_t>(key->size()),
             "unknown array fact `" + *key +
                 "` (pykc knows alignment, stride_divisible_by, shape_divisible_by, shape_constant, stride_constant)");
        return std::nullopt;
      }
    } while (consume(','));
    if (!expect(')')) return std::nullopt;
    // A constant must agree with the divisor given for its dimension (cuTile's
    // ArrayConstraint refuses `stride_constant[1]=1` with `stride_divisible_by[1]=4`).
    auto agree = [&](const std::vector<int64_t>& c, const std::vector<uint32_t>& div, const char* ck,
                     const char* dk) {
      for (size_t d = 0; d < c.size() && d < div.size(); ++d) {
        if (c[d] != ArrayFacts::kUnknown && c[d] % int64_t(div[d]) != 0) {
          fail(factsAt, static_cast<uint32_t>(pos_ - factsAt),
               std::string(ck) + "[" + std::to_string(d) + "]=" + std::to_string(c[d]) + " is not divisible by " +
                   std::to_string(div[d]) + " (" + dk + "[" + std::to_string(d) + "])");
          return false;
        }
      }
      return true;
    };
    if (!agree(facts.strideConstant, facts.strideDivisibleBy, "stride_constant", "stride_divisible_by") ||
        !agree(facts.shapeConstant, facts.shapeDivisibleBy, "shape_constant", "shape_divisible_by")) {
      return std::nullopt;
    }
    return facts;
  }

  // numba's name of a record type, after `Record`:
  // `(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;True)`, each field a
  // scalar at its offset inside `size` bytes.
  std::optional<TypeId> parseRecord() {
    if (!expect('(')) return std::nullopt;
    std::vector<std::string> names;
    std::vector<TypeId> fields;
    std::vector<uint32_t> offsets;
    do {
      uint32_t start = static_cast<uint32_t>(pos_);
      auto field = parseName();
      if (!field || !expect('[') || !expectWord("type=")) return std::nullopt;
      uint32_t typeStart = static_cast<uint32_t>(pos_);
      auto typeName = parseName();
      if (!typeName) return std::nullopt;
      std::optional<TypeId> t;
      if (*typeName == "nestedarray") {
        t = parseNestedArray();
        if (!t) return std::nullopt;
      } else {
        t = scalarTypeByName(types_, *typeName);
      }
      if (!t) {
        fail(typeStart, static_cast<uint32_t>(pos_ - typeStart),
             "a record field must be a scalar type or a nestedarray, found `" + *typeName + "`");
        return std::nullopt;
      }
      if (!expect(';') || !expectWord("offset=")) return std::nullopt;
      auto offset = parseNumber("a field offset");
      if (!offset || !expect(']')) return std::nullopt;
      if (std::find(names.begin(), names.end(), *field) != names.end()) {
        fail(start, static_cast<uint32_t>(field->size()), "record field `" + *field + "` repeated");
        return std::nullopt;
      }
      names.push_back(*field);
      fields.push_back(*t);
      offsets.push_back(*offset);
    } while (consume(','));
    if (!expect(';')) return std::nullopt;
    uint32_t sizeStart = static_cast<uint32_t>(pos_);
    auto size = parseNumber("the record size");
    if (!size || !expect(';')) return std::nullopt;
    for (size_t i = 0; i < fields.size(); ++i) {
      if (offsets[i] + types_.byteSize(fields[i]) > *size) {
        fail(sizeStart, 1, "record field `" + names[i] + "` does not fit in " +
                               std::to_string(*size) + " bytes");
        return std::nullopt;
      }
    }
    skipSpace();
    bool aligned;
    if (text_.substr(pos_, 4) == "True") {
      aligned = true;
      pos_ += 4;
    } else if (text_.substr(pos_, 5) == "False") {
      aligned = false;
      pos_ += 5;
    } else {
      fail(static_cast<uint32_t>(pos_), 1, "expected `True` or `False` (aligned) in signature");
      return std::nullopt;
    }
    if (!expect(')')) return std::nullopt;
    return types_.record(std::move(names), std::move(fields), std::move(offsets), *size, aligned);
  }

  // numba's NestedArray name after `nestedarray`: `(int32, (20,))`, `(float64, (2, 3))`.
  std::optional<TypeId> parseNestedArray() {
    if (!expect('(')) return std::nullopt;
    uint32_t elementStart = static_cast<uint32_t>(pos_);
    auto elementName = parseName();
    if (!elementName) return std::nullopt;
    auto element = scalarTypeByName(types_, *elementName);
    if (!element || types_.isNone(*element)) {
      skipSpace();
      fail(elementStart, static_cast<uint32_t>(pos_ - elementStart),
           "a nested array holds scalars, found `" + *elementName + "`");
      return std::nullopt;
    }
    if (!expect(',') || !expect('(')) return std::nullopt;
    std::vector<int64_t> shape;
    skipSpace();
    while (!consume(')')) {
      uint32_t at = static_cast<uint32_t>(pos_);
      auto n = parseNumber("a nested array extent");
      if (!n) return std::nullopt;
      if (*n == 0) {
        fail(at, 1, "a nested array extent must be positive");
        return std::nullopt;
      }
      shape.push_back(*n);
      skipSpace();
      if (!consume(',')) {
        if (!expect(')')) return std::nullopt;
        break;
      }
      skipSpace();
    }
    if (shape.empty()) {
      fail(static_cast<uint32_t>(pos_ > 0 ? pos_ - 1 : 0), 1, "a nested array needs at least one extent");
      return std::nullopt;
    }
    if (!expect(')')) return std::nullopt;
    return types_.nestedArray(*element, std::move(shape));
  }

  // A dotted name; returns its last component (`numba.types.float32` -> `float32`).
  std::optional<std::string> parseName() {
    skipSpace();
    std::string last;
    while (true) {
      size_t start = pos_;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
        ++pos_;
      }
      if (start == pos_) {
        std::string found = pos_ < text_.size() ? "`" + std::string(1, text_[pos_]) + "`"
                                                : std::string("the end");
        fail(static_cast<uint32_t>(pos_), 1, "expected a type name in signature, found " + found);
        return std::nullopt;
      }
      last = std::string(text_.substr(start, pos_ - start));
      // `.assume(` is array facts (parsed after the type), not a part of the name.
      if (pos_ < text_.size() && text_[pos_] == '.' && text_.substr(pos_, 8) != ".assume(") {
        ++pos_;
        continue;
      }
      return last;
    }
  }

  std::optional<std::vector<Value>> parseList(char close) {
    std::vector<Value> values;
    skipSpace();
    if (consume(close)) return values;
    while (true) {
      auto v = parseValue();
      if (!v) return std::nullopt;
      values.push_back(std::move(*v));
      if (consume(',')) {
        if (consume(close)) return values;
        continue;
      }
      if (!expect(close)) return std::nullopt;
      return values;
    }
  }

  std::optional<std::vector<TypeId>> typesOf(const std::vector<Value>& values) {
    std::vector<TypeId> out;
    for (const Value& v : values) {
      if (v.kind == Value::SignatureValue) {
        fail(v.offset, 1, "expected a type, found a signature");
        return std::nullopt;
      }
      out.push_back(v.kind == Value::TupleValue ? types_.tuple(v.list) : v.type);
    }
    return out;
  }

  std::optional<Value> parseValue() {
    skipSpace();
    Value value;
    value.offset = static_cast<uint32_t>(pos_);
    if (consume('(')) {
      auto list = parseList(')');
      if (!list) return std::nullopt;
      auto t = typesOf(*list);
      if (!t) return std::nullopt;
      value.kind = Value::TupleValue;
      value.list = std::move(*t);
    } else {
      uint32_t start = static_cast<uint32_t>(pos_);
      auto name = parseName();
      if (!name) return std::nullopt;
      uint32_t length = static_cast<uint32_t>(pos_ - start);
      if (*name == "CPointer") {
        // numba's CPointer(T): a pointer to scalars, for declare_device.
        if (!expect('(')) return std::nullopt;
        auto pointee = parseValue();
        if (!pointee) return std::nullopt;
        if (pointee->kind != Value::TypeValue || !types_.isScalar(pointee->type)) {
          fail(pointee->offset, 1, "`CPointer` takes a scalar type such as `float32`");
          return std::nullopt;
        }
        if (!expect(')')) return std::nullopt;
        value.type = types_.pointer(pointee->type);
      } else if (*name == "Record") {
        auto record = parseRecord();
        if (!record) return std::nullopt;
        value.type = *record;
      } else if (*name == "voidptr") {
        value.type = types_.pointer(types_.none());
      } else if (*name == "UniTuple" || *name == "Tuple") {
        if (!expect('(')) return std::nullopt;
        if (*name == "UniTuple") {
          auto element = parseValue();
          if (!element) return std::nullopt;
          auto et = typesOf({*element});
          if (!et) return std::nullopt;
          if (!expect(',')) return std::nullopt;
          skipSpace();
          size_t numStart = pos_;
          while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
            ++pos_;
          }
          if (numStart == pos_ || pos_ - numStart > 4) {
            fail(static_cast<uint32_t>(numStart), 1, "expected a tuple length in `UniTuple`");
            return std::nullopt;
          }
          unsigned count = static_cast<unsigned>(std::stoul(std::string(text_.substr(numStart, pos_ - numStart))));
          if (!expect(')')) return std::nullopt;
          value.type = types_.uniTuple((*et)[0], count);
        } else {
          auto list = parseList(')');
          if (!list) return std::nullopt;
          // numba's spelling `Tuple((int32, float64))`: one tuple of the types.
          if (list->size() == 1 && (*list)[0].kind == Value::TupleValue) {
            value.type = types_.tuple((*list)[0].list);
          } else {
            auto t = typesOf(*list);
            if (!t) return std::nullopt;
            value.type = types_.tuple(std::move(*t));
          }
        }
      } else {
        auto t = scalarTypeByName(types_, *name);
        // bfloat16: tile kernels only (the SIMT checker rejects it).
        if (!t && *name == "bfloat16") t = types_.bfloat16();
        if (!t) t = float8ByName(types_, *name);
        if (!t && pos_ < text_.size() && text_[pos_] == '(' && std::isupper(static_cast<unsigned char>((*name)[0]))) {
          // `KernelArg(float32[::1], int32)`: a dataclass instance by its fields' types
          // (sema/dataclasses.h); the checker names the fields from the class.
          ++pos_;
          auto list = parseList(')');
          if (!list) return std::nullopt;
          auto fields = typesOf(*list);
          if (!fields) return std::nullopt;
          t = dataclassType(types_, *name, std::vector<std::string>(fields->size()), *fields);
        }
        if (!t) {
          if (isUnsupportedTypeName(*name)) {
            fail(start, length, "type `" + *name + "` is not supported by pykc yet");
          } else {
            fail(start, length, "unknown type `" + *name + "` in signature");
          }
          return std::nullopt;
        }
        value.type = *t;
      }
    }
    // Postfix: array dimensions and signature calls.
    while (true) {
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == '[') {
        uint32_t open = static_cast<uint32_t>(pos_);
        ++pos_;
        if (value.kind != Value::TypeValue ||
            !(types_.isScalar(value.type) || types_.isRecord(value.type))) {
          fail(open, 1, "only scalar and record types can be array elements");
          return std::nullopt;
        }
        // `int32[()]`: a 0-d array (NumPy's `np.zeros((), np.int32)`, a 0-d torch tensor).
        skipSpace();
        if (text_.substr(pos_, 2) == "()") {
          pos_ += 2;
          skipSpace();
          if (!expect(']')) return std::nullopt;
          value.type = types_.array(value.type, 0, Layout::C);
          continue;
        }
        std::vector<bool> unit;
        while (true) {
          skipSpace();
          if (!expect(':')) return std::nullopt;
          bool isUnit = false;
          if (consume(':')) {
            skipSpace();
            if (!expect('1')) return std::nullopt;
            isUnit = true;
          }
          unit.push_back(isUnit);
          if (consume(',')) continue;
          if (!expect(']')) return std::nullopt;
          break;
        }
        auto layout = layoutFromSlices(unit);
        if (!layout) {
          fail(open, static_cast<uint32_t>(pos_ - open),
               "can only specify step 1 (`::1`) in the first or last dimension");
          return std::nullopt;
        }
        if (unit.size() > 32) {
          fail(open, 1, "arrays of more than 32 dimensions are not supported");
          return std::nullopt;
        }
        value.type = types_.array(value.type, static_cast<unsigned>(unit.size()), *layout);
        continue;
      }
      if (text_.substr(pos_, 8) == ".assume(") {
        if (value.kind != Value::TypeValue || !types_.isArray(value.type) || !types_.get(value.type).facts.empty()) {
          fail(static_cast<uint32_t>(pos_), 7, "`.assume(...)` follows an array type, once");
          return std::nullopt;
        }
        pos_ += 8;
        uint32_t factsStart = static_cast<uint32_t>(pos_);
        auto facts = parseFacts(types_.get(value.type).ndim);
        if (!facts) return std::nullopt;
        const Type& at = types_.get(value.type);
        // The layout's unit stride (`::1`) is 1: a constant saying otherwise contradicts it.
        int unit = at.layout == Layout::C ? int(at.ndim) - 1 : at.layout == Layout::F ? 0 : -1;
        if (int64_t c = facts->strideConst(static_cast<size_t>(unit < 0 ? 0 : unit));
            unit >= 0 && c != ArrayFacts::kUnknown && c != 1) {
          fail(factsStart, static_cast<uint32_t>(pos_ - factsStart),
               "stride_constant[" + std::to_string(unit) + "]=" + std::to_string(c) +
                   " contradicts the layout's unit stride (`::1`)");
          return std::nullopt;
        }
        value.type = types_.array(at.element, at.ndim, at.layout, *facts);
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '(') {
        uint32_t open = static_cast<uint32_t>(pos_);
        ++pos_;
        if (value.kind != Value::TypeValue) {
          fail(open, 1, "a signature's return type must be a type");
          return std::nullopt;
        }
        auto list = parseList(')');
        if (!list) return std::nullopt;
        auto t = typesOf(*list);
        if (!t) return std::nullopt;
        Value sig;
        sig.kind = Value::SignatureValue;
        sig.offset = value.offset;
        sig.type = value.type;
        sig.list = std::move(*t);
        value = std::move(sig);
        continue;
      }
      break;
    }
    return value;
  }

  std::string_view text_;
  TypeTable& types_;
  size_t pos_ = 0;
};

}  // namespace

std::optional<Layout> layoutFromSlices(const std::vector<bool>& unitStride) {
  size_t n = unitStride.size();
  size_t units = 0;
  for (bool u : unitStride) units += u ? 1 : 0;
  if (units == 0) return Layout::A;
  if (units > 1) return std::nullopt;
  if (unitStride[n - 1]) return Layout::C;
  if (unitStride[0]) return Layout::F;
  return std::nullopt;
}

SignatureResult parseSignature(std::string_view text, TypeTable& types) {
  Parser parser(text, types);
  auto sig = parser.parseSignature();
  if (!sig) {
    if (!parser.error) {
      return SignatureError{static_cast<uint32_t>(parser.pos()), 1, "invalid signature"};
    }
    return *parser.error;
  }
  return *sig;
}

std::variant<TypeId, SignatureError> parseTypeText(std::string_view text, TypeTable& types) {
  Parser parser(text, types);
  auto t = parser.parseSingleType();
  if (!t) {
    if (!parser.error) {
      return SignatureError{static_cast<uint32_t>(parser.pos()), 1, "invalid type"};
    }
    return *parser.error;
  }
  return *t;
}

std::variant<NamedSignature, SignatureError> parseNamedSignature(std::string_view text,
                                                                 TypeTable& types) {
  size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  size_t start = i;
  // A kernel made inside a function goes by its qualified name (`test.kernel`,
  // `test.<locals>.kernel`).
  auto nameChar = [&](size_t k) {
    unsigned char ch = static_cast<unsigned char>(text[k]);
    if (std::isalnum(ch) || ch == '_' || ch >= 0x80) return true;
    return ch == '.' && k > start && k + 1 < text.size() &&
           (std::isalpha(static_cast<unsigned char>(text[k + 1])) || text[k + 1] == '_' || text[k + 1] == '<');
  };
  while (i < text.size()) {
    if (text.substr(i).starts_with("<locals>") && i > start && text[i - 1] == '.') {
      i += 8;
    } else if (nameChar(i)) {
      ++i;
    } else {
      break;
    }
  }
  if (start == i) {
    return SignatureError{static_cast<uint32_t>(start), 1,
                          "expected `NAME(types)`, e.g. `saxpy(float32, float32[::1])`"};
  }
  NamedSignature named;
  named.name = std::string(text.substr(start, i - start));
  size_t restStart = i;
  while (restStart < text.size() && std::isspace(static_cast<unsigned char>(text[restStart]))) {
    ++restStart;
  }
  if (restStart < text.size() && text[restStart] == ':') {
    ++restStart;
  }
  std::string_view rest = text.substr(restStart);
  if (rest.empty()) {
    return SignatureError{static_cast<uint32_t>(restStart), 1,
                          "expected `NAME(types)`, e.g. `saxpy(float32, float32[::1])`"};
  }
  auto parsed = parseSignature(rest, types);
  if (auto* e = std::get_if<SignatureError>(&parsed)) {
    SignatureError shifted = *e;
    shifted.offset += static_cast<uint32_t>(restStart);
    return shifted;
  }
  named.signature = std::get<Signature>(parsed);
  return named;
}

std::string formatSignature(const TypeTable& types, TypeId returnType,
                            const std::vector<TypeId>& args) {
  std::string s = types.signatureName(returnType) + "(";
  for (size_t i = 0; i < args.size(); ++i) {
    s += (i ? ", " : "") + types.signatureName(args[i]);
  }
  return s + ")";
}

}  // namespace frontend
