# pykc_add_kernels: Python kernel files compiled at build time into C/C++
# launch headers (`pykc header`, docs/LOADER.md "From CMake").
#
#   pykc_add_kernels(<target> FILES kernels.py [more.py ...]
#                    ARCH sm_80 sm_90 [compute_90 ...]
#                    [FATBIN] [SIGS "saxpy(float32, float32[::1])" ...]
#                    [OPTIONS <more pykc compile flags>...]
#                    [OUTPUT_DIR <dir>])
#
# For each FILE, at build time: `pykc compile FILE --arch ... -o <dir>/<stem>`
# (through pykc's kernel cache: $PYKC_CACHE_DIR, else ~/.cache/pykc), then
# `pykc header` writes <dir>/include/<stem>.h, which declares <stem>_load(),
# per kernel an argument struct and a typed launch function (docs/ABI.md).
# <target> gets the headers as sources, <dir>/include on its include path and
# the CUDA driver library (CUDA::cuda_driver, from find_package(CUDAToolkit)).
# The compiler is pykc::pykc, or $PYKC_EXECUTABLE when that is set.
function(pykc_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "FATBIN" "OUTPUT_DIR" "FILES;ARCH;SIGS;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "pykc_add_kernels: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_FILES)
    message(FATAL_ERROR "pykc_add_kernels(${target}): no FILES")
  endif()
  if(NOT arg_ARCH)
    set(arg_ARCH sm_90)
  endif()
  if(NOT arg_OUTPUT_DIR)
    set(arg_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/${target}_pykc)
  endif()
  if(PYKC_EXECUTABLE)
    set(compiler ${PYKC_EXECUTABLE})
    set(compiler_dep)
  elseif(TARGET pykc::pykc)
    set(compiler $<TARGET_FILE:pykc::pykc>)
    set(compiler_dep pykc::pykc)
  else()
    message(FATAL_ERROR "pykc_add_kernels: no pykc (find_package(pykc) or set PYKC_EXECUTABLE)")
  endif()
  if(NOT TARGET CUDA::cuda_driver)
    find_package(CUDAToolkit REQUIRED)
  endif()

  string(REPLACE ";" "," archs "${arg_ARCH}")
  set(flags --arch ${archs})
  if(arg_FATBIN)
    list(APPEND flags --fatbin)
  endif()
  foreach(sig IN LISTS arg_SIGS)
    list(APPEND flags --sig ${sig})
  endforeach()
  list(APPEND flags ${arg_OPTIONS})

  set(headers)
  foreach(file IN LISTS arg_FILES)
    get_filename_component(source ${file} ABSOLUTE)
    get_filename_component(stem ${file} NAME_WE)
    set(folder ${arg_OUTPUT_DIR}/${stem})
    set(header ${arg_OUTPUT_DIR}/include/${stem}.h)
    add_custom_command(
      OUTPUT ${header}
      COMMAND ${compiler} compile ${source} ${flags} -o ${folder}
      COMMAND ${compiler} header ${folder} -o ${header}
      DEPENDS ${source} ${compiler_dep}
      COMMENT "pykc: ${file} for ${archs}"
      VERBATIM)
    list(APPEND headers ${header})
  endforeach()
  target_sources(${target} PRIVATE ${headers})
  target_include_directories(${target} PRIVATE ${arg_OUTPUT_DIR}/include)
  target_link_libraries(${target} PRIVATE CUDA::cuda_driver)
endfunction()
