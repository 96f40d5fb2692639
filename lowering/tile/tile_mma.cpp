// Matrix products: mma.sync, ldmatrix, wgmma (docs/TILE.md, "Matrix products").
#include "lowering/tile/tile_lower_internal.h"

namespace lowering::tile {

bool TileLowering::isMmaExpr(ExprId id) {
  if (!id.valid() || constOf(id) != nullptr) return false;
  TypeId t = typeOf(id);
  if (!t.valid() || !types_.isTile(t) || !mmaLayoutOf(t)) return false;
  const frontend::Expr& e = ast_.expr(id);
  auto sameShapeMma = [&](ExprId operand) {
    TypeId ot = typeOf(operand);
    return operand.valid() && ot.valid() && types_.isTile(ot) &&
           types_.get(ot).shape == types_.get(t).shape && isMmaExpr(operand);
  };
  switch (e.kind()) {
    case frontend::ExprKind::Name:
      return mmaVars_.count({std::string(ast_.str(e.as<ast::Name>().id)), t.index}) != 0;
    case frontend::ExprKind::BinOp: {
      const auto& bo = e.as<ast::BinOp>();
      if (bo.op == frontend::Operator::MatMult) return tensorCores(bo.left, bo.right, t);
      return sameShapeMma(bo.left) || sameShapeMma(bo.right);
    }
    case frontend::ExprKind::UnaryOp:
      return sameShapeMma(e.as<ast::UnaryOp>().operand);
    case frontend::ExprKind::Compare: {
      const auto& c = e.as<ast::Compare>();
      return sameShapeMma(c.left) || sameShapeMma(ast_.list(c.comparators)[0]);
    }
    case frontend::ExprKind::Call: {
      if (inst_->meanings[id.index].kind != Intrinsic::TileOp) return false;
      auto fn = static_cast<TileFn>(inst_->meanings[id.index].payload);
      switch (fn) {
        case TileFn::Mma:
        case TileFn::Matmul:
          return tensorCores(arg(id, 0), arg(id, 1), t);
        case TileFn::MmaScaled:
          return scaledTensorCores(id, t);
        case TileFn::Astype: case TileFn::Exp: case TileFn::Exp2: case TileFn::Log:
        case TileFn::Log2: case TileFn::Sqrt: case TileFn::Rsqrt: case TileFn::Tanh:
        case TileFn::Sin: case TileFn::Cos: case TileFn::Abs: case TileFn::Floor:
        case TileFn::Ceil: case TileFn::Tan: case TileFn::Sinh: case TileFn::Cosh:
        case TileFn::Isnan: case TileFn::Negative: case TileFn::BitwiseNot:
          return sameShapeMma(arg(id, 0));
        case TileFn::Where:
          return sameShapeMma(arg(id, 0)) || sameShapeMma(arg(id, 1)) || sameShapeMma(arg(id, 2));
        case TileFn::Maximum:
        case TileFn::Minimum:
        case TileFn::Truediv:
        case TileFn::Add:
        case TileFn::Sub:
        case TileFn::Mul:
        case TileFn::Atan2:
          return sameShapeMma(arg(id, 0)) || sameShapeMma(arg(id, 1));
        default:
          if (isTileOperatorFn(fn)) {
            ExprId y = arg(id, 1);
            return sameShapeMma(arg(id, 0)) || (y.valid() && sameShapeMma(y));
          }
          return false;
      }
    }
    default:
      return false;
  }
}

void TileLowering::findMmaVars(std::span<const StmtId> body) {
  for (bool changed = true; changed;) {
    size_t before = mmaVars_.size();
    markMmaVars(body);
    changed = mmaVars_.size() != before;
  }
}

void TileLowering::markMmaVars(std::span<const StmtId> body) {
  for (StmtId id : body) {
    const frontend::Stmt& s = ast_.stmt(id);
    switch (s.kind()) {
      case frontend::StmtKind::Assign: {
        const auto& a = s.as<ast::Assign>();
        if (!isMmaExpr(a.value)) break;
        for (ExprId t : ast_.list(a.targets)) {
          const auto* n = ast_.expr(t).dyn<ast::Name>();
          TypeId tt = typeOf(t);
          if (n != nullptr && tt.valid() && mmaLayoutOf(tt)) mmaVars_.insert({std::string(ast_.str(n->id)), tt.index});
        }
        break;
      }
      case frontend::StmtKind::AugAssign: {
        const auto& a = s.as<ast::AugAssign>();
        const auto* n = ast_.expr(a.target).dyn<ast::Name>();
        TypeId tt = typeOf(a.target);
        if (n != nullptr && isMmaExpr(a.value) && tt.valid() && mmaLayoutOf(tt) &&
            types_.get(typeOf(a.value)).shape == types_.get(tt).shape) {
          mmaVars_.insert({std::string(ast_.str(n->id)), tt.index});
        }
        break;
      }
      case frontend::StmtKind::For:
        markMmaVars(ast_.list(s.as<ast::For>().body));
        break;
      case frontend::StmtKind::While:
        markMmaVars(ast_.list(s.as<ast::While>().body));
        break;
      case frontend::StmtKind::If:
        markMmaVars(ast_.list(s.as<ast::If>().body));
        markMmaVars(ast_.list(s.as<ast::If>().orelse));
        break;
      case frontend::StmtKind::With:
        markMmaVars(ast_.list(s.as<ast::With>().body));
        break;
      default:
        break;
    }
  }
}

TypeId TileLowering::productInput(ExprId x, ExprId y) const {
  TypeId a = elementOf(typeOf(x));
  TypeId b = elementOf(typeOf(y));
  if (a == b) return a;
  // ct.matmul promotes (the checker typed the result with the promoted dtype).
  return TypeId();
}

bool TileLowering::tensorCores(ExprId x, ExprId y, TypeId result) {
  TypeId in = productInput(x, y);
  if (!in.valid()) in = elementOf(result);
  if (types_.isFloat8(in)) in = types_.floatType(16);  // as product() computes
  const std::vector<int64_t>& xs = types_.get(typeOf(x)).shape;
  int64_t k = xs.size() == 2 ? xs[1] : 0;
  bool halfIn = types_.isHalf(in) || types_.isBFloat16(in);
  if (!(halfIn && k % 16 == 0) && !(types_.isTFloat32(in) && k % 8 == 0)) return false;
  TypeId out = elementOf(result);
  if (out != types_.float32() && !types_.isHalf(out) && !types_.isBFloat16(out) && !types_.isTFloat32(out)) {
    return false;
  }
  return mmaLayoutOf(result).has_value();
}

TileVal TileLowering::mmaCall(ExprId id) {
  TypeId t = typeOf(id);
  if (types_.get(t).shape.size() > 2) {
    // A batch of products (CUDA cores), then the accumulator added.
    TileVal p = batchedProduct(arg(id, 0), arg(id, 1), t);
    TileVal acc = evalAs(arg(id, 2), t);
    for (size_t s = 0; s < p.slots.size(); ++s) p.slots[s] = arith(frontend::Operator::Add, acc.slots[s], p.slots[s], elementOf(t));
    p.splat = false;
    return p;
  }
  bool tc = isMmaExpr(id);
  TileVal acc = evalAs(arg(id, 2), t, tc);
  return product(arg(id, 0), arg(id, 1), acc, t, tc);
}

TileVal TileLowering::matmul(ExprId id, ExprId x, ExprId y) {
  TypeId t = typeOf(id);
  if (types_.get(t).shape.size() > 2 || types_.get(typeOf(x)).shape.size() > 2 ||
      types_.get(typeOf(y)).shape.size() > 2) {
    return batchedProduct(x, y, t);
  }
  TypeId e = elementOf(t);
  const Type& et = types_.get(e);
  TypeId accE = et.kind == TypeKind::Int ? types_.int32() : et.bits == 64 ? e : types_.float32();
  TypeId accT = types_.tile(accE, types_.get(t).shape);
  bool tc = isMmaExpr(id);
  TileVal acc;
  acc.slots.assign(layoutFor(accT, tc).slots, llvm::Constant::getNullValue(llvmType(accE)));
  acc.mma = tc;
  acc.splat = true;
  TileVal r = product(x, y, acc, accT, tc);
  return spread(r, accT, t, tc);
}


void TileLowering::mmaFragments(llvm::Function* mma, const std::vector<std::array<llvm::Value*, 4>>& af,
                                const std::vector<std::array<llvm::Value*, 2>>& bf, std::vector<llvm::Value*>& acc) {
  llvm::FunctionType* mt = mma->getFunctionType();
  size_t fragsN = bf.size();
  for (size_t fm = 0; fm < af.size(); ++fm) {
    for (size_t fn = 0; fn < fragsN; ++fn) {
      std::vector<llvm::Value*> args;
      for (llvm::Value* v : af[fm]) args.push_back(v);
      for (llvm::Value* v : bf[fn]) args.push_back(v);
      size_t s0 = (fm * fragsN + fn) * 4;
      for (unsigned j = 0; j < 4; ++j) args.push_back(acc[s0 + j]);
      for (size_t i = 0; i < args.size(); ++i) {
        llvm::Type* want = mt->getParamType(static_cast<unsigned>(i));
        if (args[i]->getType() != want) args[i] = b_.CreateBitCast(args[i], want);
      }
      llvm::Value* d = b_.CreateCall(mma, args);
      for (unsigned j = 0; j < 4; ++j) acc[s0 + j] = b_.CreateExtractValue(d, j);
    }
  }
}

TileVal TileLowering::product(ExprId x, ExprId y, TileVal acc, TypeId accT, bool tc) {
  TypeId xt = typeOf(x);
  TypeId yt = typeOf(y);
  TypeId in = productInput(x, y);
  if (!in.valid()) in = types_.get(accT).element;
  // E4M3 and E5M2 operands are float16 operands (every such value is a float16,
  // and float16 products accumulate in float32 exactly as FP8 ones do).
  bool f8 = types_.isFloat8(in);
  if (f8) in = types_.floatType(16);
  int64_t rows = types_.get(xt).shape[0];
  int64_t depth = types_.get(xt).shape[1];
  int64_t cols = types_.get(yt).shape[1];
  acc.splat = false;
  if (!tc) return cudaCoreProduct(x, y, acc, accT, rows, depth, cols);
  usesTensorCores_ = true;
  // Operands in swizzled shared memory: from the pipeline, or staged here.
  unsigned bytes = types_.byteSize(in);
  uint64_t xBytes = static_cast<uint64_t>(rows * depth) * bytes;
  std::optional<SmemTile> xs, ys;
  if (!f8) {  // staged bytes of the operand's own dtype
    xs = pipelined(x);
    ys = pipelined(y);
    if (!xs) xs = residentOperand(x);
    if (!ys) ys = residentOperand(y);
  }
  Layout l = *mmaLayoutOf(accT);
  // A left operand in the mma layout whose warps own the accumulator's rows
  // and all of its columns (the softmax's P times V, with sm_90a's layout)
  // is read as A fragments straight from its registers (FA2's reuse).
  std::vector<llvm::Value*> xRegs;
  if (!xs && isMmaExpr(x) && (types_.isHalf(in) || types_.isBFloat16(in)) && depth % 16 == 0) {
    TypeId xt1 = types_.tile(in, {rows, depth});
    auto lx = mmaLayoutOf(xt1);
    if (lx && lx->warpsN == 1 && l.warpsN == 1 && lx->wm == l.wm && lx->wn == depth) {
      xRegs = evalAs(x, xt1, true).slots;
    }
  }
  if ((!xs && xRegs.empty()) || !ys) {
    // Both operands are evaluated before anything is written: evaluating one
    // may pass through the scratch buffer (a relayout) that the staged
    // operands occupy. An operand in the mma layout (a softmax's P) is
    // written from that layout.
    TypeId xt2 = types_.tile(in, {rows, depth}), yt2 = types_.tile(in, {depth, cols});
    std::optional<std::pair<TileVal, bool>> xv, yv;
    if (!xs && xRegs.empty()) xv = operandValue(x, xt2);
    if (!ys) yv = operandValue(y, yt2);
    barrier();
    if (xv) xs = writeSwizzled(xv->first, xt2, xv->second, 0);
    if (yv) ys = writeSwizzled(yv->first, yt2, yv->second, (xBytes + 127) / 128 * 128);
    barrier();
  }
  TypeId accE = types_.get(accT).element;
  // Accumulate in float32.
  std::vector<llvm::Value*> c(acc.slots.size());
  for (size_t s = 0; s < c.size(); ++s) c[s] = convert(acc.slots[s], accE, types_.float32());
  bool kMajorA = xs && (xs->format == SmemFormat::KMajor64 || xs->format == SmemFormat::KMajor128);
  if (wgmma_ && kMajorA && ys->format == SmemFormat::MNMajor128 && l.warpsN == 1 && l.wm == 16 &&
      (types_.isHalf(in) || types_.isBFloat16(in))) {
    wgmmaProduct(*xs, *ys, c, depth, l.wn, types_.isBFloat16(in));
    TileVal out;
    out.mma = true;
    for (llvm::Value* v : c) out.slots.push_back(convert(v, types_.float32(), accE));
    return out;
  }
  bool tf32 = types_.isTFloat32(in);
  unsigned kStep = tf32 ? 8 : 16;
  unsigned fragsM = static_cast<unsigned>(l.wm / 16), fragsN = static_cast<unsigned>(l.wn / 8);
  llvm::Value* warp = b_.CreateLShr(tid_, b_.getInt32(5));
  llvm::Value* lane = b_.CreateAnd(tid_, b_.getInt32(kWarp - 1));
  llvm::Value* rowBase = b_.CreateMul(b_.CreateUDiv(warp, b_.getInt32(l.warpsN)), b_.getInt32(static_cast<uint32_t>(l.wm)));
  llvm::Value* colBase = b_.CreateMul(b_.CreateURem(warp, b_.getInt32(l.warpsN)), b_.getInt32(static_cast<uint32_t>(l.wn)));
  llvm::Function* mma = intrinsic(tf32 ? llvm::Intrinsic::nvvm_mma_m16n8k8_row_col_tf32
                                  : types_.isBFloat16(in) ? llvm::Intrinsic::nvvm_mma_m16n8k16_row_col_bf16
                                                          : llvm::Intrinsic::nvvm_mma_m16n8k16_row_col_f32_f32);
  for (int64_t k0 = 0; k0 < depth; k0 += kStep) {
    std::vector<std::array<llvm::Value*, 4>> af(fragsM);
    std::vector<std::array<llvm::Value*, 2>> bf(fragsN);
    for (unsigned fm = 0; fm < fragsM; ++fm) {
      llvm::Value* r0 = b_.CreateAdd(rowBase, b_.getInt32(fm * 16));
      af[fm] = tf32              ? tf32AFragment(*xs, r0, k0, lane)
               : !xRegs.empty() ? registerAFragment(xRegs, static_cast<unsigned>(depth / 8), fm, k0)
                                : ldmatrixA(*xs, r0, k0, lane);
    }
    for (unsigned fn = 0; fn < fragsN; fn += tf32 ? 1 : 2) {
      llvm::Value* n0 = b_.CreateAdd(colBase, b_.getInt32(fn * 8));
      if (tf32) {
        bf[fn] = tf32BFragment(*ys, k0, n0, lane);
      } else {
        auto four = ldmatrixB(*ys, k0, n0, lane);
        bf[fn] = {four[0], four[1]};
        bf[fn + 1] = {four[2], four[3]};
      }
    }
    mmaFragments(mma, af, bf, c);
  }
  TileVal out;
  out.mma = true;
  for (llvm::Value* v : c) out.slots.push_back(convert(v, types_.float32(), accE));
  return out;
}

void TileLowering::asmStatement(const std::string& text) {
  auto* type = llvm::FunctionType::get(b_.getVoidTy(), false);
  b_.CreateCall(llvm::InlineAsm::get(type, text, "~{memory}", true), {});
}

llvm::Value* TileLowering::wgmmaDescriptor(llvm::Value* address, uint64_t lbo, uint64_t sbo, uint64_t swizzle) {
  llvm::Value* a = b_.CreateZExt(b_.CreateAnd(b_.CreateLShr(address, b_.getInt32(4)), b_.getInt32(0x3fff)),
                                 b_.getInt64Ty());
  uint64_t fixed = ((lbo >> 4) & 0x3fff) << 16 | ((sbo >> 4) & 0x3fff) << 32 | swizzle << 62;
  return b_.CreateOr(a, b_.getInt64(fixed));
}

void TileLowering::wgmmaProduct(const SmemTile& a, const SmemTile& b, std::vector<llvm::Value*>& c, int64_t depth, int64_t n,
                  bool bf16) {
  llvm::Value* warp = b_.CreateLShr(tid_, b_.getInt32(5));
  llvm::Value* group = b_.CreateLShr(warp, b_.getInt32(2));
  uint32_t rowBytes = static_cast<uint32_t>(a.cols * a.bytes);
  llvm::Value* aAddr = b_.CreatePtrToInt(a.base, b_.getInt32Ty());
  aAddr = b_.CreateAdd(aAddr, b_.CreateMul(group, b_.getInt32(64 * rowBytes)));
  llvm::Value* bAddr = b_.CreatePtrToInt(b.base, b_.getInt32Ty());
  uint64_t swizzleA = a.format == SmemFormat::KMajor128 ? 1 : 2;
  // B (MN-major): the leading byte offset steps between 64-column panels, the
  // stride byte offset between groups of 8 K rows (checked on the H200; the
  // other assignment gives wrong products).
  uint64_t panel = static_cast<uint64_t>(b.rows) * 128;
  size_t steps = static_cast<size_t>(depth / 16);
  std::string type = bf16 ? "bf16" : "f16";
  size_t regs = c.size();
  std::string text = "wgmma.fence.sync.aligned;\n";
  std::string outs;
  for (size_t i = 0; i < regs; ++i) outs += (i ? ", $" : "$") + std::to_string(i);
  std::vector<llvm::Value*> args(c.begin(), c.end());
  std::vector<llvm::Type*> argTypes(regs, b_.getFloatTy());
  std::string constraints;
  for (size_t i = 0; i < regs; ++i) constraints += (i ? ",=f" : "=f");
  for (size_t i = 0; i < regs; ++i) constraints += "," + std::to_string(i);
  for (size_t k = 0; k < steps; ++k) {
    llvm::Value* da = wgmmaDescriptor(b_.CreateAdd(aAddr, b_.getInt32(static_cast<uint32_t>(k * 32))), 16,
                                      8 * rowBytes, swizzleA);
    llvm::Value* db = wgmmaDescriptor(b_.CreateAdd(bAddr, b_.getInt32(static_cast<uint32_t>(k * 16 * 128))),
                                      panel, 1024, 1);
    size_t ia = 2 * regs + 2 * k, ib = ia + 1;
    args.push_back(da);
    args.push_back(db);
    argTypes.push_back(b_.getInt64Ty());
    argTypes.push_back(b_.getInt64Ty());
    constraints += ",l,l";
    text += "wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k16.f32." + type + "." + type + " {" + outs +
            "}, $" + std::to_string(ia) + ", $" + std::to_string(ib) + ", 1, 1, 1, 0, 1;\n";
  }
  // In a pipelined loop one group may stay in flight (lowerPipelinedFor).
  text += std::string("wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned ") +
          (deferWgmma_ ? "1;" : "0;");
  auto* structType = llvm::StructType::get(context_, std::vector<llvm::Type*>(regs, b_.getFloatTy()));
  auto* fnType = llvm::FunctionType::get(structType, argTypes, false);
  llvm::Value* r = b_.CreateCall(llvm::InlineAsm::get(fnType, text, constraints + ",~{memory}", true), args);
  for (size_t i = 0; i < regs; ++i) c[i] = b_.CreateExtractValue(r, static_cast<unsigned>(i));
}

llvm::Value* TileLowering::smemOffset(const SmemTile& t, llvm::Value* r, llvm::Value* chunk) {
  uint32_t perRow = static_cast<uint32_t>(t.cols * t.bytes / 16);
  switch (t.format) {
    case SmemFormat::KMajor64: {
      // 64-byte rows, chunk ^= (row / 2) % 4 (the 64-byte swizzle).
      llvm::Value* key = b_.CreateAnd(b_.CreateLShr(r, b_.getInt32(1)), b_.getInt32(3));
      return b_.CreateAdd(b_.CreateShl(r, b_.getInt32(6)), b_.CreateShl(b_.CreateXor(chunk, key), b_.getInt32(4)));
    }
    case SmemFormat::KMajor128: {
      llvm::Value* key = b_.CreateAnd(r, b_.getInt32(7));
      return b_.CreateAdd(b_.CreateShl(r, b_.getInt32(7)), b_.CreateShl(b_.CreateXor(chunk, key), b_.getInt32(4)));
    }
    case SmemFormat::MNMajor128: {
      // Panel chunk / 8 holds rows of 8 chunks (128 bytes), chunk ^= row % 8.
      llvm::Value* panel = b_.CreateLShr(chunk, b_.getInt32(3));
      llvm::Value* within = b_.CreateXor(b_.CreateAnd(chunk, b_.getInt32(7)), b_.CreateAnd(r, b_.getInt32(7)));
      llvm::Value* off = b_.CreateMul(panel, b_.getInt32(static_cast<uint32_t>(t.rows * 128)));
      off = b_.CreateAdd(off, b_.CreateShl(r, b_.getInt32(7)));
      return b_.CreateAdd(off, b_.CreateShl(within, b_.getInt32(4)));
    }
    case SmemFormat::Swizzled:
      break;
  }
  llvm::Value* linear = b_.CreateAdd(b_.CreateMul(r, b_.getInt32(perRow)), chunk);
  llvm::Value* key = perRow >= 8 ? b_.CreateAnd(r, b_.getInt32(7))
                                 : b_.CreateAnd(b_.CreateLShr(linear, b_.getInt32(3)), b_.getInt32(7));
  return b_.CreateShl(b_.CreateXor(linear, key), b_.getInt32(4));
}

llvm::Value* TileLowering::smemElement(const SmemTile& t, llvm::Value* r, llvm::Value* c) {
  uint32_t perChunk = 16 / t.bytes;
  llvm::Value* chunk = b_.CreateUDiv(c, b_.getInt32(perChunk));
  llvm::Value* within = b_.CreateMul(b_.CreateURem(c, b_.getInt32(perChunk)), b_.getInt32(t.bytes));
  llvm::Value* off = b_.CreateAdd(smemOffset(t, r, chunk), within);
  return b_.CreateGEP(b_.getInt8Ty(), t.base, off);
}

std::array<llvm::Value*, 4> TileLowering::registerAFragment(const std::vector<llvm::Value*>& x, unsigned fragsN, unsigned fm,
                                              int64_t k0) {
  unsigned f0 = fm * fragsN + static_cast<unsigned>(k0 / 8);
  auto pair = [&](unsigned f, unsigned j) {
    auto* vt = llvm::FixedVectorType::get(x[0]->getType(), 2);
    llvm::Value* v = b_.CreateInsertElement(llvm::PoisonValue::get(vt), x[f * 4 + j], uint64_t(0));
    return b_.CreateInsertElement(v, x[f * 4 + j + 1], uint64_t(1));
  };
  return {pair(f0, 0), pair(f0, 2), pair(f0 + 1, 0), pair(f0 + 1, 2)};
}

std::array<llvm::Value*, 4> TileLowering::unpack4(llvm::Value* v) {
  return {b_.CreateExtractValue(v, 0), b_.CreateExtractValue(v, 1), b_.CreateExtractValue(v, 2),
          b_.CreateExtractValue(v, 3)};
}

std::array<llvm::Value*, 4> TileLowering::ldmatrixA(const SmemTile& t, llvm::Value* r0, int64_t k0, llvm::Value* lane) {
  llvm::Value* r = b_.CreateAdd(r0, b_.CreateAnd(lane, b_.getInt32(15)));
  llvm::Value* chunk = b_.CreateAdd(b_.getInt32(static_cast<uint32_t>(k0 / 8)), b_.CreateLShr(lane, b_.getInt32(4)));
  llvm::Value* p = b_.CreateGEP(b_.getInt8Ty(), t.base, smemOffset(t, r, chunk));
  return unpack4(b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x4_b16, {p->getType()}), {p}));
}

std::array<llvm::Value*, 4> TileLowering::ldmatrixB(const SmemTile& t, int64_t k0, llvm::Value* n0, llvm::Value* lane) {
  llvm::Value* r = b_.CreateAdd(b_.getInt32(static_cast<uint32_t>(k0)), b_.CreateAnd(lane, b_.getInt32(15)));
  llvm::Value* chunk = b_.CreateAdd(b_.CreateLShr(n0, b_.getInt32(3)), b_.CreateLShr(lane, b_.getInt32(4)));
  llvm::Value* p = b_.CreateGEP(b_.getInt8Ty(), t.base, smemOffset(t, r, chunk));
  return unpack4(b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x4_trans_b16, {p->getType()}), {p}));
}

llvm::Value* TileLowering::loadTf32(const SmemTile& t, llvm::Value* r, llvm::Value* c) {
  llvm::Value* x = b_.CreateLoad(b_.getFloatTy(), smemElement(t, r, c));
  return tf32Bits(x, cvtRnTf32_);
}

std::array<llvm::Value*, 4> TileLowering::tf32AFragment(const SmemTile& t, llvm::Value* r0, int64_t k0, llvm::Value* lane) {
  llvm::Value* g = b_.CreateAdd(r0, b_.CreateLShr(lane, b_.getInt32(2)));
  llvm::Value* g8 = b_.CreateAdd(g, b_.getInt32(8));
  llvm::Value* q = b_.CreateAdd(b_.getInt32(static_cast<uint32_t>(k0)), b_.CreateAnd(lane, b_.getInt32(3)));
  llvm::Value* q4 = b_.CreateAdd(q, b_.getInt32(4));
  return {loadTf32(t, g, q), loadTf32(t, g8, q), loadTf32(t, g, q4), loadTf32(t, g8, q4)};
}

std::array<llvm::Value*, 2> TileLowering::tf32BFragment(const SmemTile& t, int64_t k0, llvm::Value* n0, llvm::Value* lane) {
  llvm::Value* n = b_.CreateAdd(n0, b_.CreateLShr(lane, b_.getInt32(2)));
  llvm::Value* q = b_.CreateAdd(b_.getInt32(static_cast<uint32_t>(k0)), b_.CreateAnd(lane, b_.getInt32(3)));
  return {loadTf32(t, q, n), loadTf32(t, b_.CreateAdd(q, b_.getInt32(4)), n)};
}

std::optional<SmemTile> TileLowering::pipelined(ExprId e) {
  const auto* n = ast_.expr(e).dyn<ast::Name>();
  if (n == nullptr) return std::nullopt;
  auto it = pipeStage_.find(std::string(ast_.str(n->id)));
  if (it == pipeStage_.end()) return std::nullopt;
  return it->second;
}

SmemTile TileLowering::stageSwizzled(ExprId e, TypeId t, uint64_t offset) {
  auto [v, mma] = operandValue(e, t);
  return writeSwizzled(v, t, mma, offset);
}

std::pair<TileVal, bool> TileLowering::operandValue(ExprId e, TypeId t) {
  bool mma = isMmaExpr(e) && mmaLayoutOf(t).has_value();
  return {evalAs(e, t, mma), mma};
}

SmemTile TileLowering::writeSwizzled(const TileVal& v, TypeId t, bool mma, uint64_t offset) {
  Layout l = layoutFor(t, mma);
  const std::vector<int64_t>& shape = types_.get(t).shape;
  SmemTile st;
  st.rows = shape[0];
  st.cols = shape[1];
  st.bytes = types_.byteSize(elementOf(t));
  llvm::Value* buffer = scratch(offset + static_cast<uint64_t>(l.n) * st.bytes);
  st.base = b_.CreateGEP(b_.getInt8Ty(), buffer, b_.getInt32(static_cast<uint32_t>(offset)));
  llvm::Type* mt = llvmType(elementOf(t));
  for (unsigned s = 0; s < l.slots; ++s) {
    llvm::Value* el = clampIndex(elementIndex(l, s), l);
    llvm::Value* r = b_.CreateLShr(el, b_.getInt32(static_cast<uint32_t>(log2i(st.cols))));
    llvm::Value* c = b_.CreateAnd(el, b_.getInt32(static_cast<uint32_t>(st.cols - 1)));
    llvm::Value* x = v.slots[l.uniform ? 0 : s];
    if (x->getType() != mt) x = b_.CreateBitCast(x, mt);
    llvm::Value* p = smemElement(st, r, c);
    if (l.partial) {
      guarded(slotValid(l), [&] { b_.CreateStore(x, p); });
    } else {
      b_.CreateStore(x, p);
    }
  }
  return st;
}

TileVal TileLowering::cudaCoreProduct(ExprId x, ExprId y, TileVal acc, TypeId accT, int64_t rows, int64_t depth,
                        int64_t cols) {
  TypeId accE = types_.get(accT).element;
  const Type& ae = types_.get(accE);
  // Compute in the accumulator's dtype, float32 for 16-bit floats.
  TypeId calc = ae.kind == TypeKind::Float && ae.bits < 32 ? types_.float32()
                : types_.isTFloat32(accE) ? types_.float32() : accE;
  TypeId xt = types_.tile(calc, {rows, depth});
  TypeId yt = types_.tile(calc, {depth, cols});
  unsigned bytes = types_.byteSize(calc);
  uint64_t yOffset = static_cast<uint64_t>(rows * depth) * bytes;
  llvm::Value* buffer = scratch(yOffset + static_cast<uint64_t>(depth * cols) * bytes);
  llvm::Type* ct = llvmType(calc);
  // Both operands are evaluated before either is written: evaluating one may pass
  // through the scratch buffer (a transpose's relayout) that the other is staged in.
  TileVal values[2] = {evalAs(x, xt), evalAs(y, yt)};
  barrier();
  for (auto [v, t, off] : {std::tuple{&values[0], xt, uint64_t(0)}, std::tuple{&values[1], yt, yOffset}}) {
    Layout l = layoutOf(t);
    for (unsigned s = 0; s < l.slots; ++s) {
      llvm::Value* index = b_.CreateAdd(b_.getInt32(static_cast<uint32_t>(off / bytes)), clampIndex(elementIndex(l, s), l));
      llvm::Value* p = b_.CreateGEP(ct, buffer, index);
      llvm::Value* val = v->slots[l.uniform ? 0 : s];
      if (l.partial) {
        guarded(slotValid(l), [&] { b_.CreateStore(val, p); });
      } else {
        b_.CreateStore(val, p);
      }
    }
  }
  barrier();
  Layout la = layoutFor(accT, acc.mma);
  std::vector<llvm::Value*> rowIdx, colIdx, init;
  for (unsigned s = 0; s < la.slots; ++s) {
    llvm::Value* el = clampIndex(elementIndex(la, s), la);
    rowIdx.push_back(b_.CreateLShr(el, b_.getInt32(static_cast<uint32_t>(log2i(cols)))));
    colIdx.push_back(b_.CreateAnd(el, b_.getInt32(static_cast<uint32_t>(cols - 1))));
    init.push_back(convert(acc.slots[la.uniform ? 0 : s], accE, calc));
  }
  std::vector<llvm::Value*> xBase, yBase;
  for (unsigned s = 0; s < la.slots; ++s) {
    xBase.push_back(b_.CreateMul(rowIdx[s], b_.getInt32(static_cast<uint32_t>(depth))));
    yBase.push_back(b_.CreateAdd(b_.getInt32(static_cast<uint32_t>(yOffset / bytes)), colIdx[s]));
  }
  std::vector<llvm::Value*> next = depthSums(buffer, calc, xBase, yBase, cols, depth, init, "mma");
  TileVal out;
  out.mma = acc.mma;
  for (unsigned s = 0; s < la.slots; ++s) out.slots.push_back(convert(next[s], calc, accE));
  return out;
}

std::vector<llvm::Value*> TileLowering::depthSums(llvm::Value* buffer, TypeId calc,
                                                 const std::vector<llvm::Value*>& xBase,
                                                 const std::vector<llvm::Value*>& yBase, int64_t cols,
                                                 int64_t depth, const std::vector<llvm::Value*>& init,
                                                 const char* name) {
  llvm::Type* ct = llvmType(calc);
  bool isFloat = types_.isFloat(calc);
  llvm::BasicBlock* pre = b_.GetInsertBlock();
  auto* body = llvm::BasicBlock::Create(context_, std::string(name) + ".k", function_);
  auto* done = llvm::BasicBlock::Create(context_, std::string(name) + ".done", function_);
  b_.CreateBr(body);
  b_.SetInsertPoint(body);
  llvm::PHINode* k = b_.CreatePHI(b_.getInt32Ty(), 2);
  k->addIncoming(b_.getInt32(0), pre);
  std::vector<llvm::PHINode*> sums;
  for (llvm::Value* v : init) {
    llvm::PHINode* phi = b_.CreatePHI(ct, 2);
    phi->addIncoming(v, pre);
    sums.push_back(phi);
  }
  std::vector<llvm::Value*> next;
  for (size_t s = 0; s < init.size(); ++s) {
    llvm::Value* a = b_.CreateLoad(ct, b_.CreateGEP(ct, buffer, b_.CreateAdd(xBase[s], k)));
    llvm::Value* bv = b_.CreateLoad(ct, b_.CreateGEP(ct, buffer,
        b_.CreateAdd(yBase[s], b_.CreateMul(k, b_.getInt32(static_cast<uint32_t>(cols))))));
    next.push_back(isFloat ? b_.CreateIntrinsic(llvm::Intrinsic::fmuladd, {ct}, {a, bv, sums[s]})
                           : b_.CreateAdd(b_.CreateMul(a, bv), sums[s]));
  }
  llvm::Value* kn = b_.CreateAdd(k, b_.getInt32(1));
  llvm::BasicBlock* latch = b_.GetInsertBlock();
  k->addIncoming(kn, latch);
  for (size_t s = 0; s < init.size(); ++s) sums[s]->addIncoming(next[s], latch);
  b_.CreateCondBr(b_.CreateICmpULT(kn, b_.getInt32(static_cast<uint32_t>(depth))), body, done);
  b_.SetInsertPoint(done);
  return next;
}

TileVal TileLowering::batchedProduct(ExprId x, ExprId y, TypeId t) {
  TypeId e = elementOf(t);
  const Type& et = types_.get(e);
  // Computed as the 2-D product on CUDA cores computes: float32 for 16-bit
  // floats and tfloat32, int32 for 8-bit integers, else the dtype itself.
  TypeId calc = et.kind == TypeKind::Int ? types_.int32()
                : et.kind == TypeKind::Float && et.bits < 32 ? types_.float32()
                : types_.isTFloat32(e) ? types_.float32() : e;
  const std::vector<int64_t>& xs = types_.get(typeOf(x)).shape;
  const std::vector<int64_t>& ys = types_.get(typeOf(y)).shape;
  TileVal xv = evalAs(x, types_.tile(calc, xs));
  TileVal yv = evalAs(y, types_.tile(calc, ys));
  return batchedProductOf(xv, xs, yv, ys, t, calc, nullptr);
}

TileVal TileLowering::batchedProductOf(const TileVal& xv, const std::vector<int64_t>& xs, const TileVal& yv,
                                       const std::vector<int64_t>& ys, TypeId t, TypeId calc, const TileVal* acc) {
  TypeId e = elementOf(t);
  const std::vector<int64_t>& out = types_.get(t).shape;
  size_t nb = out.size() - 2;
  int64_t depth = xs.back(), cols = ys.back();
  // Each operand's element strides over the output's batch dimensions (0 where
  // it broadcasts), its rows or columns, and the shared depth.
  auto strides = [&](const std::vector<int64_t>& s) {
    std::vector<int64_t> st(s.size());
    int64_t inner = 1;
    for (size_t d = s.size(); d-- > 0;) {
      st[d] = inner;
      inner *= s[d];
    }
    std::vector<int64_t> batch(nb, 0);
    size_t off = nb - (s.size() - 2);
    for (size_t i = 0; i + 2 < s.size(); ++i) batch[off + i] = s[i] == 1 ? 0 : st[i];
    return std::pair{batch, inner};
  };
  auto [xBatch, xCount] = strides(xs);
  auto [yBatch, yCount] = strides(ys);
  TypeId xt = types_.tile(calc, xs);
  TypeId yt = types_.tile(calc, ys);
  unsigned bytes = types_.byteSize(calc);
  llvm::Value* buffer = scratch(static_cast<uint64_t>(xCount + yCount) * bytes);
  barrier();
  storeSlots(xv, xt, layoutOf(xt), buffer, 0);
  storeSlots(yv, yt, layoutOf(yt), buffer, xCount);
  barrier();
  Layout lo = layoutOf(t);
  std::vector<llvm::Value*> xBase, yBase, init;
  for (unsigned s = 0; s < lo.slots; ++s) {
    std::vector<llvm::Value*> mi = multiIndex(clampIndex(elementIndex(lo, s), lo), out);
    llvm::Value* xb = b_.CreateMul(mi[nb], b_.getInt32(static_cast<uint32_t>(depth)));
    llvm::Value* yb = b_.CreateAdd(b_.getInt32(static_cast<uint32_t>(xCount)), mi[nb + 1]);
    for (size_t d = 0; d < nb; ++d) {
      if (xBatch[d] != 0) xb = b_.CreateAdd(xb, b_.CreateMul(mi[d], b_.getInt32(static_cast<uint32_t>(xBatch[d]))));
      if (yBatch[d] != 0) yb = b_.CreateAdd(yb, b_.CreateMul(mi[d], b_.getInt32(static_cast<uint32_t>(yBatch[d]))));
    }
    xBase.push_back(xb);
    yBase.push_back(yb);
    init.push_back(acc != nullptr ? convert(acc->slots[acc->slots.size() == 1 ? 0 : s], e, calc)
                                  : llvm::Constant::getNullValue(llvmType(calc)));
  }
  std::vector<llvm::Value*> next = depthSums(buffer, calc, xBase, yBase, cols, depth, init, "bmm");
  TileVal r;
  for (unsigned s = 0; s < lo.slots; ++s) r.slots.push_back(convert(next[s], calc, e));
  return r;
}

}  // namespace lowering::tile
