# Name resolution, types, signatures and type inference (included from
# frontend/CMakeLists.txt): parsed module -> TypedModule.
pykc_library(pykc_sema
  ${CMAKE_CURRENT_LIST_DIR}/types.cpp
  ${CMAKE_CURRENT_LIST_DIR}/signature.cpp
  ${CMAKE_CURRENT_LIST_DIR}/resolve.cpp
  ${CMAKE_CURRENT_LIST_DIR}/check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tile_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/inspect_types.cpp
)
pykc_use_llvm(pykc_sema)
target_link_libraries(pykc_sema PUBLIC pykc_frontend)
# GCC 12 at -O3 reports false -Wrestrict errors inside libstdc++ for
# `"text" + std::string(...)` (GCC bug 105329); the messages here build many.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(pykc_sema PRIVATE -Wno-restrict)
endif()
