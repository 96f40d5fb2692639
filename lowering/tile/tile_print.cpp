// Output from tile kernels: print / ct.print / ct.printf and ct.assert_, through vprintf.
#include "lowering/tile/tile_lower_internal.h"

#include <cstring>
#include <functional>

#include "sema/resolve.h"

namespace lowering::tile {

llvm::Value* TileLowering::stringConstant(const std::string& text) {
  auto it = strings_.find(text);
  llvm::GlobalVariable* g;
  if (it != strings_.end()) {
    g = it->second;
  } else {
    llvm::Constant* init = llvm::ConstantDataArray::getString(context_, text, true);
    g = new llvm::GlobalVariable(module_, init->getType(), true, llvm::GlobalValue::InternalLinkage, init,
                                 fn_.name + ".str." + std::to_string(strings_.size()), nullptr,
                                 llvm::GlobalValue::NotThreadLocal, 4);
    strings_[text] = g;
  }
  return b_.CreateAddrSpaceCast(g, b_.getPtrTy(0));
}

void TileLowering::printf(const std::string& format, const std::vector<llvm::Value*>& values) {
  llvm::Value* buffer = llvm::ConstantPointerNull::get(b_.getPtrTy(0));
  if (!values.empty()) {
    std::vector<llvm::Type*> fields;
    for (llvm::Value* v : values) fields.push_back(v->getType());
    auto* type = llvm::StructType::get(context_, fields);
    llvm::IRBuilder<> entry(&function_->getEntryBlock(), function_->getEntryBlock().begin());
    llvm::Value* slot = entry.CreateAlloca(type);
    for (unsigned k = 0; k < values.size(); ++k) b_.CreateStore(values[k], b_.CreateStructGEP(type, slot, k));
    buffer = slot;
  }
  auto vprintf = module_.getOrInsertFunction(
      "vprintf", llvm::FunctionType::get(b_.getInt32Ty(), {b_.getPtrTy(0), b_.getPtrTy(0)}, false));
  b_.CreateCall(vprintf, {stringConstant(format), buffer});
}

void TileLowering::assertAll(ExprId id) {
  TypeId ct = inst_->opTypes[id.index];
  TileVal c = evalAs(arg(id, 0), ct);
  llvm::Value* ok = b_.getTrue();
  if (types_.isTile(ct)) {
    Layout l = layoutOf(ct);
    for (unsigned s = 0; s < l.slots; ++s) {
      llvm::Value* v = c.slots[c.slots.size() == 1 ? 0 : s];
      if (l.partial) v = b_.CreateOr(v, b_.CreateNot(slotValid(l)));
      ok = b_.CreateAnd(ok, v);
    }
  } else {
    ok = c.slots[0];
  }
  // Every thread of the block learns whether all of them hold (bar.red.and).
  llvm::Value* all = b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_barrier0_and), {b_.CreateZExt(ok, b_.getInt32Ty())});
  auto* fail = llvm::BasicBlock::Create(context_, "assert.fail", function_);
  auto* print = llvm::BasicBlock::Create(context_, "assert.print", function_);
  auto* trap = llvm::BasicBlock::Create(context_, "assert.trap", function_);
  auto* done = llvm::BasicBlock::Create(context_, "assert.done", function_);
  b_.CreateCondBr(b_.CreateICmpNE(all, b_.getInt32(0)), done, fail);
  b_.SetInsertPoint(fail);
  b_.CreateCondBr(b_.CreateICmpEQ(tid_, b_.getInt32(0)), print, trap);
  b_.SetInsertPoint(print);
  // The kernel and line (not the file's path: cache entries are shared by content).
  std::string text = inst_->tilePrints.at(id.index).front().text;
  uint32_t line = frontend::locationOf(ast_, ast_.expr(id).range).line;
  printf("%s:%u: block (%u, %u, %u): %s\n",
         {stringConstant(fn_.name), b_.getInt32(line),
          b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x)),
          b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y)),
          b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z)), stringConstant(text)});
  b_.CreateBr(trap);
  b_.SetInsertPoint(trap);
  b_.CreateCall(intrinsic(llvm::Intrinsic::trap));
  b_.CreateUnreachable();
  b_.SetInsertPoint(done);
}

namespace {

// `text` as a vprintf format prints it.
std::string escapePercent(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out;
}

// The conversions of a format (`%lld`, `%.5f`; `%%` is none), in order.
std::vector<std::string> conversions(const std::string& format) {
  std::vector<std::string> out;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') continue;
    if (i + 1 < format.size() && format[i + 1] == '%') {
      ++i;
      continue;
    }
    size_t j = i + 1;
    while (j < format.size() && !std::isalpha(static_cast<unsigned char>(format[j]))) ++j;
    while (j < format.size() && (format[j] == 'l' || format[j] == 'h')) ++j;
    out.push_back(format.substr(i, j + 1 - i));
    i = j;
  }
  return out;
}

}  // namespace

void TileLowering::emitPrint(ExprId id) {
  using Kind = frontend::TilePrintPiece::Kind;
  const auto& pieces = inst_->tilePrints.at(id.index);
  // Every thread evaluates the values (a tile's lowering may need the whole block);
  // tiles go to shared memory, where thread 0 reads them in row-major order.
  struct Ready {
    std::vector<llvm::Value*> leaves;  // Number / Tuple: the numbers
    std::vector<TypeId> types;
    llvm::Value* buffer = nullptr;  // Tile
  };
  std::vector<Ready> ready(pieces.size());
  // Each piece's value type and conversion; a field of a dataclass instance (sema's
  // printInstance) has its path in front of the conversion: "\x1fP0.1\x1f%d".
  struct Operand {
    TypeId type;
    std::string text;
    std::vector<uint32_t> path;
  };
  std::vector<Operand> ops(pieces.size());
  for (size_t i = 0; i < pieces.size(); ++i) {
    const auto& p = pieces[i];
    if (p.kind == Kind::Text) continue;
    Operand& o = ops[i];
    o.type = typeOf(p.value);
    o.text = p.text;
    if (p.text.rfind("\x1fP", 0) == 0) {
      size_t end = p.text.find('\x1f', 2);
      std::string digits = p.text.substr(2, end - 2);
      for (size_t at = 0; at < digits.size();) {
        size_t dot = digits.find('.', at);
        if (dot == std::string::npos) dot = digits.size();
        uint32_t k = static_cast<uint32_t>(std::stoul(digits.substr(at, dot - at)));
        o.path.push_back(k);
        o.type = types_.get(o.type).elements[k];
        at = dot + 1;
      }
      o.text = p.text.substr(end + 1);
    }
  }
  auto evalOperand = [&](size_t i) {
    const auto& p = pieces[i];
    if (ops[i].path.empty()) return p.kind == Kind::Tuple ? eval(p.value) : evalAs(p.value, ops[i].type);
    TypeId t = typeOf(p.value);
    TileVal v = eval(p.value);
    for (uint32_t k : ops[i].path) {
      v = tupleParts(v, t)[k];
      t = types_.get(t).elements[k];
    }
    return v;
  };
  // The tiles side by side in one scratch buffer (16-byte aligned each).
  uint64_t bytes = 0;
  std::vector<uint64_t> offsets(pieces.size(), 0);
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (pieces[i].kind != Kind::Tile) continue;
    TypeId t = ops[i].type;
    offsets[i] = bytes;
    bytes += (static_cast<uint64_t>(layoutOf(t).n) * types_.byteSize(elementOf(t)) + 15) / 16 * 16;
  }
  // Every value is evaluated before any tile is staged (evaluating may use scratch too).
  std::vector<TileVal> tiles(pieces.size());
  for (size_t i = 0; i < pieces.size(); ++i) {
    const auto& p = pieces[i];
    if (p.kind == Kind::Text) continue;
    TypeId t = ops[i].type;
    if (p.kind == Kind::Tile) {
      tiles[i] = evalOperand(i);
    } else if (p.kind == Kind::Number) {
      ready[i].leaves.push_back(evalOperand(i).slots[0]);
      ready[i].types.push_back(t);
    } else {
      std::function<void(const TileVal&, TypeId)> flatten = [&](const TileVal& v, TypeId tt) {
        std::vector<TileVal> parts = tupleParts(v, tt);
        for (size_t k = 0; k < parts.size(); ++k) {
          TypeId et = types_.get(tt).elements[k];
          if (types_.isTuple(et)) {
            flatten(parts[k], et);
          } else {
            ready[i].leaves.push_back(parts[k].slots[0]);
            ready[i].types.push_back(et);
          }
        }
      };
      flatten(evalOperand(i), t);
    }
  }
  if (bytes != 0) {
    llvm::Value* scratchBuffer = scratch(bytes);
    barrier();
    for (size_t i = 0; i < pieces.size(); ++i) {
      if (pieces[i].kind != Kind::Tile) continue;
      TypeId t = ops[i].type;
      ready[i].buffer = b_.CreateGEP(b_.getInt8Ty(), scratchBuffer, b_.getInt32(static_cast<uint32_t>(offsets[i])));
      storeSlots(tiles[i], t, layoutOf(t), ready[i].buffer, 0);
    }
  }
  if (bytes != 0) barrier();
  auto* print = llvm::BasicBlock::Create(context_, "print", function_);
  auto* done = llvm::BasicBlock::Create(context_, "print.done", function_);
  b_.CreateCondBr(b_.CreateICmpEQ(tid_, b_.getInt32(0)), print, done);
  b_.SetInsertPoint(print);
  std::string format;
  std::vector<llvm::Value*> values;
  auto flush = [&] {
    if (!format.empty()) printf(format, values);
    format.clear();
    values.clear();
  };
  // One number with conversion `conv`, promoted as C varargs are (a bool for `%s`: True/False).
  auto number = [&](llvm::Value* v, TypeId t, const std::string& conv) {
    if (values.size() == 32) flush();  // vprintf formats at most 32 values a call
    char letter = conv.back();
    llvm::Value* x;
    if (letter == 's') {
      x = b_.CreateSelect(v, stringConstant("True"), stringConstant("False"));
    } else if (std::strchr("fFeEgGaA", letter) != nullptr) {
      if (types_.isFloat(t)) {
        x = convert(v, t, types_.floatType(64));
      } else if (types_.isBool(t) || !types_.get(t).isSigned) {
        x = b_.CreateUIToFP(v, b_.getDoubleTy());
      } else {
        x = b_.CreateSIToFP(v, b_.getDoubleTy());
      }
    } else if (types_.isBool(t) || !types_.get(t).isSigned) {
      x = b_.CreateZExt(v, b_.getInt64Ty());
    } else {
      x = b_.CreateSExt(v, b_.getInt64Ty());
    }
    format += conv;
    values.push_back(x);
  };
  for (size_t i = 0; i < pieces.size(); ++i) {
    const auto& p = pieces[i];
    switch (p.kind) {
      case Kind::Text:
        format += escapePercent(p.text);
        break;
      case Kind::Number:
        number(ready[i].leaves[0], ready[i].types[0], ops[i].text);
        break;
      case Kind::Tuple: {
        const std::string& text = ops[i].text;
        std::vector<std::string> convs = conversions(text);
        size_t at = 0, k = 0;
        for (const std::string& c : convs) {
          size_t pos = text.find(c, at);
          format += text.substr(at, pos - at);
          number(ready[i].leaves[k], ready[i].types[k], c);
          ++k;
          at = pos + c.size();
        }
        format += text.substr(at);
        break;
      }
      case Kind::Tile: {
        TypeId t = ops[i].type;
        TypeId e = elementOf(t);
        const std::vector<int64_t>& shape = types_.get(t).shape;
        int64_t count = 1;
        for (int64_t d : shape) count *= d;
        for (int64_t n = 0; n < count; ++n) {
          // Brackets open where an index starts an axis and close where it ends one.
          int64_t span = 1;
          for (size_t d = shape.size(); d-- > 0;) {
            span *= shape[d];
            if (n % span == 0) format += "[";
          }
          llvm::Value* x = b_.CreateLoad(memoryType(e), b_.CreateGEP(memoryType(e), ready[i].buffer, b_.getInt32(static_cast<uint32_t>(n))));
          if (types_.isBool(e)) x = b_.CreateICmpNE(x, b_.getInt8(0));
          number(x, e, ops[i].text);
          span = 1;
          std::string close;
          for (size_t d = shape.size(); d-- > 0;) {
            span *= shape[d];
            if ((n + 1) % span == 0) close += "]";
          }
          format += close;
          if (n + 1 < count) format += close.empty() ? ", " : ", ";
        }
        break;
      }
    }
  }
  flush();
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  if (bytes != 0) barrier();  // the scratch buffer is free again
}

}  // namespace lowering::tile
