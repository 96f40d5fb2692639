# `cmake --install`: the layout a C++ project (find_package(pykc)) and the wheel
# (scripts/wheel.sh, pyproject.toml: installed into site-packages/pykc/) share:
#   bin/pykc                        the compiler, static libstdc++
#   lib/libpykc.so                  the C API (include/pykc/pykc.h)
#   lib/libpykc_codegen.so          opened by bin/pykc at a cache miss (../lib/)
#   lib/libpykc_remote_{http,redis}.so  remote cache storage, opened on first use
#   lib/_launch.abi3.so             the JIT's launch extension (beside libpykc)
#   include/pykc/pykc.h
#   lib/cmake/pykc/                 pykcConfig.cmake, pykc::pykc, pykc::libpykc,
#                                   pykc_add_kernels (PykcKernels.cmake)
# `bin` and `lib` are fixed (not GNUInstallDirs' lib/<triplet>): the executable
# and the libraries find each other as ../lib/ and their own folder.
include(CMakePackageConfigHelpers)

set_target_properties(pykc_capi PROPERTIES EXPORT_NAME libpykc)
install(TARGETS pykc pykc_capi EXPORT pykcTargets
  RUNTIME DESTINATION bin COMPONENT pykc
  LIBRARY DESTINATION lib COMPONENT pykc)
install(TARGETS pykc_codegen_module pykc_remote_http pykc_remote_redis
  LIBRARY DESTINATION lib COMPONENT pykc)
if(TARGET pykc_launch)
  install(TARGETS pykc_launch LIBRARY DESTINATION lib COMPONENT pykc)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/include/pykc/pykc.h DESTINATION include/pykc COMPONENT pykc)

set(PYKC_CMAKE_DIR lib/cmake/pykc)
install(EXPORT pykcTargets NAMESPACE pykc:: DESTINATION ${PYKC_CMAKE_DIR} COMPONENT pykc)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pykcConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/pykcConfig.cmake INSTALL_DESTINATION ${PYKC_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/pykcConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/pykcConfig.cmake ${CMAKE_BINARY_DIR}/cmake/pykcConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/PykcKernels.cmake
  DESTINATION ${PYKC_CMAKE_DIR} COMPONENT pykc)

# The wheel (scikit-build-core): the console entry `pykc` (python/_pykc_cli.py)
# sits beside the package in site-packages, outside install-dir.
if(DEFINED SKBUILD_PLATLIB_DIR)
  install(FILES ${PROJECT_SOURCE_DIR}/python/_pykc_cli.py DESTINATION ${SKBUILD_PLATLIB_DIR} COMPONENT pykc)
endif()
