// libpykc_codegen.so's one exported symbol (driver/codegen.h, kCodegenEntry):
// the code generator, for a caller built from the same sources.
#include <cstring>

#include "driver/codegen.h"
#include "driver/source_identity.h"

extern "C" __attribute__((visibility("default"))) driver::Codegen* pykc_codegen_create_v1(
    const char* sourceIdentity, const driver::CodegenSettings* settings) {
  // The structs handed across (Compilation, CodegenRequest, ...) must be laid
  // out alike on both sides: the same sources, compiler and build type.
  if (sourceIdentity == nullptr || settings == nullptr ||
      std::strcmp(sourceIdentity, PYKC_SOURCE_IDENTITY) != 0) {
    return nullptr;
  }
  return driver::makeCodegen(*settings).release();
}
