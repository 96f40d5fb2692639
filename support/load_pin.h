#pragma once
// The metadata tag of a load pin (`call void @llvm.sideeffect()`): SIMT lowering
// places pins (lowering/simt/load_pins.h), the back end's RemoveLoadPinsPass
// erases them (backend/passes/load_pins.h says why they exist).
namespace support {

inline constexpr const char* kLoadPinTag = "pykc.load_pin";

}  // namespace support
