#include "backend/cuda/resources.h"

#include "support/arch.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Object/ELF.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Object/ELFTypes.h>
#include <llvm/Support/Endian.h>
#include <llvm/Support/MemoryBufferRef.h>

#include <algorithm>
#include <array>
#include <climits>
#include <optional>

namespace backend {
namespace {

using Elf = llvm::object::ELF64LE;

// `.nv.info` record formats: each record is a format byte, an attribute byte,
// then a 16-bit value (NVAL, BVAL, HVAL) or a 16-bit size and that many bytes
// (SVAL). Numbers as cuobjdump -elf names them.
constexpr uint8_t kFormatSval = 0x04;
constexpr uint8_t kAttrMaxThreads = 0x05;
constexpr uint8_t kAttrReqNtid = 0x10;
constexpr uint8_t kAttrFrameSize = 0x11;
constexpr uint8_t kAttrCbankParamSize = 0x19;
constexpr uint8_t kAttrRegCount = 0x2f;

// st_other bit marking a kernel entry (as opposed to a device function).
constexpr uint8_t kStoCudaEntry = 0x10;

// ptxas for sm_90 places the 1 KiB per-block system reservation at the start
// of each kernel's `.nv.shared.<kernel>`, and then names the reservation with
// a `.nv.reservedSmem.*` symbol (and, before linking, a section); ptxas reports
// shared memory without it, and so do we.
constexpr llvm::StringLiteral kReservedSharedSection = ".nv.shared.reserved.";
constexpr llvm::StringLiteral kReservedSharedSymbol = ".nv.reservedSmem.";
constexpr uint64_t kReservedSharedBytes = 1024;

// The largest block any kernel may have (`.maxntid`/`.reqntid` beyond it are capped).
constexpr unsigned kMaxThreadsPerBlock = 1024;

llvm::Error makeError(const llvm::Twine& message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

uint32_t read32(llvm::ArrayRef<uint8_t> bytes, size_t offset) {
  return llvm::support::endian::read32le(bytes.data() + offset);
}

struct InfoRecord {
  uint8_t format;
  uint8_t attribute;
  // The 16-bit value of a non-SVAL record.
  uint16_t value;
  // The payload of an SVAL record.
  llvm::ArrayRef<uint8_t> data;
};

llvm::Expected<std::vector<InfoRecord>> parseInfoRecords(llvm::ArrayRef<uint8_t> bytes,
                                                         llvm::StringRef section) {
  std::vector<InfoRecord> records;
  size_t offset = 0;
  while (offset < bytes.size()) {
    if (bytes.size() - offset < 4) {
      return makeError("malformed `" + section + "`: truncated record at offset " +
                       llvm::Twine(offset));
    }
    InfoRecord record{bytes[offset], bytes[offset + 1],
                      llvm::support::endian::read16le(bytes.data() + offset + 2), {}};
    offset += 4;
    if (record.format == kFormatSval) {
      if (bytes.size() - offset < record.value) {
        return makeError("malformed `" + section + "`: record at offset " +
                         llvm::Twine(offset - 4) + " overruns the section");
      }
      record.data = bytes.slice(offset, record.value);
      offset += record.value;
    }
    records.push_back(record);
  }
  return records;
}

// "  12 bytes stack frame" -> 12 at the number before `unit`.
std::optional<uint64_t> numberBefore(llvm::StringRef line, llvm::StringRef unit) {
  size_t at = line.find(unit);
  if (at == llvm::StringRef::npos) {
    return std::nullopt;
  }
  llvm::StringRef before = line.take_front(at).rtrim();
  size_t start = before.find_last_not_of("0123456789");
  llvm::StringRef digits = start == llvm::StringRef::npos ? before : before.drop_front(start + 1);
  uint64_t value = 0;
  if (digits.empty() || digits.getAsInteger(10, value)) {
    return std::nullopt;
  }
  return value;
}

// The name between the first pair of single quotes, or after `marker`.
llvm::StringRef functionNameAfter(llvm::StringRef line, llvm::StringRef marker) {
  llvm::StringRef rest = line.substr(line.find(marker) + marker.size()).trim();
  if (rest.consume_front("'")) {
    return rest.take_until([](char c) { return c == '\''; });
  }
  return rest.take_until([](char c) { return c == ' ' || c == '\t'; });
}

}  // namespace

ResourceMap parseLinkInfoLog(std::string_view infoLog) {
  ResourceMap entries;
  llvm::StringRef rest(infoLog.data(), infoLog.size());
  KernelResources* current = nullptr;
  llvm::StringMap<bool> isEntry;
  ResourceMap all;
  while (!rest.empty()) {
    auto [line, tail] = rest.split('\n');
    rest = tail;
    if (line.contains("Compiling entry function")) {
      isEntry[functionNameAfter(line, "Compiling entry function")] = true;
    } else if (line.contains("Function properties for")) {
      current = &all[functionNameAfter(line, "Function properties for").str()];
    } else if (current != nullptr && line.contains("bytes stack frame")) {
      current->localBytes = numberBefore(line, "bytes stack frame").value_or(0);
      current->spillStores = numberBefore(line, "bytes spill stores").value_or(0);
      current->spillLoads = numberBefore(line, "bytes spill loads").value_or(0);
    } else if (current != nullptr && line.contains("Used ") && line.contains(" registers")) {
      current->registers = static_cast<unsigned>(numberBefore(line, " registers").value_or(0));
      current->staticSharedBytes = numberBefore(line, " bytes smem").value_or(0);
      current->constBytes = numberBefore(line, " bytes cmem[0]").value_or(0);
    }
  }
  for (auto& [name, resources] : all) {
    if (isEntry.count(name) != 0) {
      entries.emplace(name, resources);
    }
  }
  return entries;
}

llvm::Expected<ResourceMap> readCubinResources(std::string_view cubin, std::string_view infoLog) {
  llvm::MemoryBufferRef buffer(llvm::StringRef(cubin.data(), cubin.size()), "cubin");
  auto object = llvm::object::ELF64LEObjectFile::create(buffer);
  if (!object) {
    return llvm::joinErrors(makeError("not a 64-bit little-endian ELF cubin"),
                            object.takeError());
  }
  const llvm::object::ELFFile<Elf>& elf = object->getELFFile();
  if (elf.getHeader().e_machine != llvm::ELF::EM_CUDA) {
    return makeError("not a cubin: ELF machine " + llvm::Twine(elf.getHeader().e_machine) +
                     " is not EM_CUDA");
  }
  auto sections = elf.sections();
  if (!sections) {
    return sections.takeError();
  }
  const Elf::Shdr* symbolTable = nullptr;
  for (const Elf::Shdr& section : *sections) {
    if (section.sh_type == llvm::ELF::SHT_SYMTAB) {
      symbolTable = &section;
    }
  }
  if (symbolTable == nullptr) {
    return makeError("cubin has no symbol table");
  }
  auto symbols = elf.symbols(symbolTable);
  if (!symbols) {
    return symbols.takeError();
  }
  auto strings = elf.getStringTableForSymtab(*symbolTable);
  if (!strings) {
    return strings.takeError();
  }

  ResourceMap kernels;
  // Symbol index -> kernel, for the records of `.nv.info` that name symbols.
  llvm::DenseMap<uint32_t, KernelResources*> bySymbol;
  bool reservesShared = false;
  for (size_t index = 0; index < symbols->size(); ++index) {
    const Elf::Sym& symbol = (*symbols)[index];
    auto name = symbol.getName(*strings);
    if (!name) {
      return name.takeError();
    }
    if (name->starts_with(kReservedSharedSymbol)) {
      reservesShared = true;
    }
    if (symbol.getType() == llvm::ELF::STT_FUNC && (symbol.st_other & kStoCudaEntry) != 0) {
      bySymbol[static_cast<uint32_t>(index)] = &kernels[name->str()];
    }
  }

  std::vector<std::pair<llvm::StringRef, uint64_t>> sharedSections;
  for (const Elf::Shdr& section : *sections) {
    auto sectionName = elf.getSectionName(section);
    if (!sectionName) {
      return sectionName.takeError();
    }
    llvm::StringRef name = *sectionName;
    if (name.starts_with(kReservedSharedSection)) {
      reservesShared = true;
      continue;
    }
    if (name.consume_front(".nv.shared.")) {
      sharedSections.emplace_back(name, section.sh_size);
      continue;
    }
    if (name.consume_front(".nv.constant0.")) {
      if (auto found = kernels.find(name.str()); found != kernels.end()) {
        found->second.constBytes = section.sh_size;
      }
      continue;
    }
    bool global = name == ".nv.info";
    if (!global && !name.consume_front(".nv.info.")) {
      continue;
    }
    auto kernel = kernels.find(name.str());
    if (!global && kernel == kernels.end()) {
      continue;
    }
    auto contents = elf.getSectionContents(section);
    if (!contents) {
      return contents.takeError();
    }
    auto records = parseInfoRecords(*contents, *sectionName);
    if (!records) {
      return records.takeError();
    }
    for (const InfoRecord& record : *records) {
      if (global) {
        // (symbol index, value) pairs.
        if (record.format != kFormatSval || record.data.size() < 8) {
          continue;
        }
        auto target = bySymbol.find(read32(record.data, 0));
        if (target == bySymbol.end()) {
          continue;
        }
        if (record.attribute == kAttrRegCount) {
          target->second->registers = read32(record.data, 4);
        } else if (record.attribute == kAttrFrameSize) {
          target->second->localBytes = read32(record.data, 4);
        }
        continue;
      }
      KernelResources& resources = kernel->second;
      if (record.attribute == kAttrCbankParamSize && record.format != kFormatSval) {
        resources.paramBytes = record.value;
      } else if ((record.attribute == kAttrMaxThreads || record.attribute == kAttrReqNtid) &&
                 record.format == kFormatSval && record.data.size() >= 12) {
        uint64_t threads = uint64_t{read32(record.data, 0)} * read32(record.data, 4) *
                           read32(record.data, 8);
        unsigned limit = static_cast<unsigned>(std::min<uint64_t>(threads, kMaxThreadsPerBlock));
        resources.maxThreadsPerBlock =
            resources.maxThreadsPerBlock == 0 ? limit : std::min(resources.maxThreadsPerBlock, limit);
      }
    }
  }
  for (auto [name, size] : sharedSections) {
    if (auto found = kernels.find(name.str()); found != kernels.end()) {
      found->second.staticSharedBytes =
          reservesShared ? size - std::min(size, kReservedSharedBytes) : size;
    }
  }

  ResourceMap logged = parseLinkInfoLog(infoLog);
  for (auto& [name, resources] : kernels) {
    if (auto found = logged.find(name); found != logged.end()) {
      const KernelResources& fromLog = found->second;
      resources.spillStores = fromLog.spillStores;
      resources.spillLoads = fromLog.spillLoads;
      if (fromLog.registers != 0) {
        resources.registers = fromLog.registers;
      }
      resources.staticSharedBytes = fromLog.staticSharedBytes;
    }
    unsigned byRegisters = maxThreadsForRegisters(resources.registers);
    resources.maxThreadsPerBlock = resources.maxThreadsPerBlock == 0
                                       ? byRegisters
                                       : std::min(resources.maxThreadsPerBlock, byRegisters);
  }
  return kernels;
}

}  // namespace backend
