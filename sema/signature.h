#pragma once
// numba signature strings: `void(float32, float32[::1], int64[:, :])`,
// `float32(float32, float32)`, `(float32[::1], int64)` (argument types only),
// with numba's names (`float32`, `f4`, `intp`, `boolean`, `numba.float32`, ...),
// array layouts `[::1]` (C), `[::1, :]` (F) and `[:, :]` (A) of any ndim, and
// `UniTuple(T, n)` / `Tuple(T, ...)`, and `CPointer(T)` / `voidptr` (declare_device
// arguments). Also `--sig 'name(types)'`.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sema/types.h"

namespace frontend {

struct Signature {
  // The declared return type; nullopt when only argument types were given.
  std::optional<TypeId> returnType;
  std::vector<TypeId> args;
};

// Why a signature string was rejected: a message (STYLE.md §2 wording) and
// the byte offset into the text where the problem starts, with its length.
struct SignatureError {
  uint32_t offset = 0;
  uint32_t length = 1;
  std::string message;
};

using SignatureResult = std::variant<Signature, SignatureError>;

// Parses a numba signature string. Types are interned into `types`.
SignatureResult parseSignature(std::string_view text, TypeTable& types);

// Parses one type (`float32[:, ::1]`), or fails.
std::variant<TypeId, SignatureError> parseTypeText(std::string_view text, TypeTable& types);

// `--sig 'name(float32[::1], int64)'` (also `name:void(...)`): the kernel name
// and its signature. Offsets in errors count from the start of `text`.
struct NamedSignature {
  std::string name;
  Signature signature;
};
std::variant<NamedSignature, SignatureError> parseNamedSignature(std::string_view text,
                                                                 TypeTable& types);

// The signature as numba prints it: `void(float32, float32[::1])`.
std::string formatSignature(const TypeTable& types, TypeId returnType,
                            const std::vector<TypeId>& args);

// Layout of an array type from its dimension slices: `unitStride[d]` is
// true for `::1` in dimension d. Returns nullopt (numba's "can only specify
// step 1 at the beginning or end") for anything else.
std::optional<Layout> layoutFromSlices(const std::vector<bool>& unitStride);

}  // namespace frontend
