#include "backend/cuda/no_cuda_driver.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace backend {
namespace {

// CUresult CUDA_ERROR_NO_DEVICE.
constexpr int kNoDevice = 100;

// The stand-in's handle: an address nothing else can return.
char driverHandle;

int stubInit(unsigned) { return kNoDevice; }

int stubDriverGetVersion(int* version) {
  if (version != nullptr) *version = 0;
  return kNoDevice;
}

int stubGetExportTable(const void** table, const void*) {
  if (table != nullptr) *table = nullptr;
  return kNoDevice;
}

int stubGetProcAddress(const char*, void** fn, int, unsigned long long, int* status) {
  if (fn != nullptr) *fn = nullptr;
  if (status != nullptr) *status = 0;
  return kNoDevice;
}

// The driver entry points the libraries look up (strings in libnvJitLink.so.13
// and libnvrtc.so.13: cuInit, cuGetExportTable); anything else is "not found".
void* stubSymbol(const char* name) {
  if (std::strcmp(name, "cuInit") == 0) return reinterpret_cast<void*>(&stubInit);
  if (std::strcmp(name, "cuDriverGetVersion") == 0) {
    return reinterpret_cast<void*>(&stubDriverGetVersion);
  }
  if (std::strcmp(name, "cuGetExportTable") == 0) return reinterpret_cast<void*>(&stubGetExportTable);
  if (std::strncmp(name, "cuGetProcAddress", 16) == 0) {
    return reinterpret_cast<void*>(&stubGetProcAddress);
  }
  return nullptr;
}

bool isDriverName(const char* file) {
  if (file == nullptr) return false;
  const char* base = std::strrchr(file, '/');
  base = base != nullptr ? base + 1 : file;
  return std::strncmp(base, "libcuda.so", 10) == 0;
}

bool isDriverSymbol(const char* name) {
  return name != nullptr && stubSymbol(name) != nullptr;
}

void* shimDlopen(const char* file, int flags) {
  if (isDriverName(file)) return &driverHandle;
  return dlopen(file, flags);
}

void* shimDlsym(void* handle, const char* name) {
  // Also for RTLD_DEFAULT and other handles: a process that loaded the real
  // driver globally must not hand it to the library either.
  if (handle == &driverHandle || isDriverSymbol(name)) return stubSymbol(name);
  return dlsym(handle, name);
}

int shimDlclose(void* handle) {
  if (handle == &driverHandle) return 0;
  return dlclose(handle);
}

void* replacementFor(const char* name) {
  if (std::strcmp(name, "dlopen") == 0) return reinterpret_cast<void*>(&shimDlopen);
  if (std::strcmp(name, "dlsym") == 0) return reinterpret_cast<void*>(&shimDlsym);
  if (std::strcmp(name, "dlclose") == 0) return reinterpret_cast<void*>(&shimDlclose);
  return nullptr;
}

llvm::Error fail(std::string_view name, const std::string& why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "cannot keep the CUDA driver from %.*s: %s",
                                 static_cast<int>(name.size()), name.data(), why.c_str());
}

// The object's PT_GNU_RELRO range (made read-only again after patching).
struct RelroRange {
  uintptr_t begin = 0;
  uintptr_t end = 0;
};

int findRelro(dl_phdr_info* info, size_t, void* data) {
  auto* query = static_cast<std::pair<ElfW(Addr), RelroRange>*>(data);
  if (info->dlpi_addr != query->first) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_GNU_RELRO) {
      query->second.begin = info->dlpi_addr + ph.p_vaddr;
      query->second.end = query->second.begin + ph.p_memsz;
    }
  }
  return 1;
}

}  // namespace

bool cudaDriverVisible() {
  const char* setting = std::getenv("PYKC_CUDA_DRIVER");
  return setting != nullptr && std::strcmp(setting, "visible") == 0;
}

llvm::Error hideCudaDriver(void* handle, std::string_view name) {
  link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr) {
    const char* why = dlerror();
    return fail(name, why != nullptr ? why : "no link map");
  }
  const ElfW(Addr) base = map->l_addr;
  // glibc stores most d_ptr values already relocated; an offset below the
  // load address is not.
  auto pointer = [base](ElfW(Addr) value) { return value < base ? value + base : value; };
  const char* strtab = nullptr;
  const ElfW(Sym)* symtab = nullptr;
  const ElfW(Rela)* jmprel = nullptr;
  const ElfW(Rela)* rela = nullptr;
  size_t jmprelSize = 0, relaSize = 0;
  bool pltIsRela = true;
  for (const ElfW(Dyn)* d = map->l_ld; d->d_tag != DT_NULL; ++d) {
    switch (d->d_tag) {
      case DT_STRTAB: strtab = reinterpret_cast<const char*>(pointer(d->d_un.d_ptr)); break;
      case DT_SYMTAB: symtab = reinterpret_cast<const ElfW(Sym)*>(pointer(d->d_un.d_ptr)); break;
      case DT_JMPREL: jmprel = reinterpret_cast<const ElfW(Rela)*>(pointer(d->d_un.d_ptr)); break;
      case DT_PLTRELSZ: jmprelSize = d->d_un.d_val; break;
      case DT_RELA: rela = reinterpret_cast<const ElfW(Rela)*>(pointer(d->d_un.d_ptr)); break;
      case DT_RELASZ: relaSize = d->d_un.d_val; break;
      case DT_PLTREL: pltIsRela = d->d_un.d_val == DT_RELA; break;
      default: break;
    }
  }
  if (strtab == nullptr || symtab == nullptr || !pltIsRela) {
    return fail(name, "no symbol table or no RELA relocations");
  }
  std::pair<ElfW(Addr), RelroRange> relro{base, {}};
  dl_iterate_phdr(findRelro, &relro);
  const long page = sysconf(_SC_PAGESIZE);
  auto patch = [&](const ElfW(Rela)* table, size_t bytes, uint32_t type) -> llvm::Error {
    if (table == nullptr) return llvm::Error::success();
    for (size_t i = 0; i < bytes / sizeof(ElfW(Rela)); ++i) {
      const ElfW(Rela)& r = table[i];
      if (ELF64_R_TYPE(r.r_info) != type) continue;
      const char* symbol = strtab + symtab[ELF64_R_SYM(r.r_info)].st_name;
      void* replacement = replacementFor(symbol);
      if (replacement == nullptr) continue;
      auto* slot = reinterpret_cast<void**>(base + r.r_offset);
      if (*slot == replacement) continue;
      uintptr_t address = reinterpret_cast<uintptr_t>(slot);
      uintptr_t first = address & ~static_cast<uintptr_t>(page - 1);
      bool readOnly = address >= relro.second.begin && address < relro.second.end;
      if (readOnly && mprotect(reinterpret_cast<void*>(first), page, PROT_READ | PROT_WRITE) != 0) {
        return fail(name, std::string("mprotect: ") + std::strerror(errno));
      }
      __atomic_store_n(slot, replacement, __ATOMIC_RELEASE);
      if (readOnly) mprotect(reinterpret_cast<void*>(first), page, PROT_READ);
    }
    return llvm::Error::success();
  };
  if (llvm::Error e = patch(jmprel, jmprelSize, R_X86_64_JUMP_SLOT)) return e;
  return patch(rela, relaSize, R_X86_64_GLOB_DAT);
}

}  // namespace backend
