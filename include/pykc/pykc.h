/* libpykc: pykc's compiler as a library ("NVRTC for Python kernels").
 *
 * A C ABI over pykc's one compile path (driver/driver.h): create a session
 * (cache folder, threads, ...), compile a Python source (bytes or a path)
 * holding numba.cuda or cuda.tile kernels for one or more architectures, and
 * read the result: cubin and PTX per arch, the manifest (docs/ABI.md),
 * diagnostics as text and JSON, an exit class. Nothing is thrown across this
 * interface; every call is safe on null handles. A session may be used by
 * several threads at once; a result belongs to its caller.
 *
 * Versioned: PYKC_API_VERSION changes when this header does; option structs
 * carry their own size so that old callers keep working. Link with -lpykc.
 * examples/c_api/compile_and_load.c shows a whole program. */
#ifndef PYKC_PYKC_H
#define PYKC_PYKC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PYKC_API_VERSION 2

#if defined(__GNUC__)
#define PYKC_EXPORT __attribute__((visibility("default")))
#else
#define PYKC_EXPORT
#endif

/* Exit classes, as `pykc`'s exit codes. */
enum pykc_exit_class {
  PYKC_OK = 0,
  PYKC_SOURCE_ERRORS = 1, /* mistakes in the Python (or linked C++) source */
  PYKC_USAGE = 2,         /* a bad option: arch, flag, kernel name */
  PYKC_ENVIRONMENT = 3    /* nvJitLink/NVRTC/libdevice missing, I/O, internal */
};

typedef struct pykc_session pykc_session;
typedef struct pykc_result pykc_result;

typedef struct pykc_session_options {
  size_t struct_size;          /* sizeof(pykc_session_options) */
  const char* cache_dir;       /* NULL: $PYKC_CACHE_DIR, $XDG_CACHE_HOME/pykc, ~/.cache/pykc */
  int no_cache;                /* nonzero: no kernel cache */
  unsigned threads;            /* 0: the hardware's */
  const char* libdevice_path;  /* NULL: the one found when pykc was built */
  const char* nvjitlink_path;  /* libnvJitLink.so.13; NULL: build-time path, then the loader's search */
  const char* nvrtc_path;      /* libnvrtc.so.13 (only for linked .cu files); NULL: likewise */
} pykc_session_options;

typedef struct pykc_compile_options {
  size_t struct_size;          /* sizeof(pykc_compile_options) */
  const char* path;            /* the file's name in diagnostics and the manifest (required) */
  const char* source;          /* its bytes; NULL: read `path` */
  size_t source_size;          /* bytes in `source` */
  const char* kernel;          /* only this kernel; NULL: every kernel */
  const char* const* sigs;     /* "name(float32[::1], int64)" for untyped kernels */
  size_t num_sigs;
  const char* const* consts;   /* "NAME=VALUE": tile kernels' Constant parameters */
  size_t num_consts;
  const char* const* archs;    /* "sm_80", "sm_90", "sm_90a", ...; none: sm_90 */
  size_t num_archs;
  const char* const* defines;  /* "NAME=VALUE": module constants (-D) */
  size_t num_defines;
  int opt_level;               /* -O: 0..3 (pykc_compile_options_init sets 3) */
  int fast_math;               /* --use-fast-math */
  int lineinfo;                /* --lineinfo */
  int max_registers;           /* --maxrregcount, 0: none */
  int check_only;              /* since version 2: nonzero stops after type checking
                                  (diagnostics only: no code, no cache), as --phase check */
} pykc_compile_options;

/* PYKC_API_VERSION of the loaded library, and pykc's version ("0.1.0"). */
PYKC_EXPORT int pykc_api_version(void);
PYKC_EXPORT const char* pykc_version(void);

/* Fills `options` with the defaults (struct_size set, opt_level 3). */
PYKC_EXPORT void pykc_session_options_init(pykc_session_options* options);
PYKC_EXPORT void pykc_compile_options_init(pykc_compile_options* options);

/* A new session (NULL options: defaults). NULL only when out of memory or
 * `options` has a struct_size this library does not know. */
PYKC_EXPORT pykc_session* pykc_session_create(const pykc_session_options* options);
PYKC_EXPORT void pykc_session_free(pykc_session* session);

// Does now, on the caller's thread, the set-up a session's first compile would do on its
// way (opens the cache, loads nvJitLink, initialises the NVPTX target and links an empty
// module for `arch`, e.g. "sm_90"): a JIT calls it on a thread of its own before its
// first kernel is needed. Safe beside compiles. 1 when done, 0 when nvJitLink could not
// be loaded or link (the first compile then reports why).
PYKC_EXPORT int pykc_session_prepare(pykc_session* session, const char* arch);

/* Compiles; always returns a result (NULL only when out of memory or on a
 * null argument): check pykc_result_exit_class. */
PYKC_EXPORT pykc_result* pykc_compile(pykc_session* session, const pykc_compile_options* options);
PYKC_EXPORT void pykc_result_free(pykc_result* result);

PYKC_EXPORT int pykc_result_exit_class(const pykc_result* result);
/* Every diagnostic as pykc prints them (file:line:col: error: ... with the
 * source line and a caret), and as JSON: [{"severity", "message", "path",
 * "line", "column", "length", "notes": [...]}, ...]. Never NULL. */
PYKC_EXPORT const char* pykc_result_diagnostics(const pykc_result* result);
PYKC_EXPORT const char* pykc_result_diagnostics_json(const pykc_result* result);
/* manifest.json for the result's cubins ("" after a failure). */
PYKC_EXPORT const char* pykc_result_manifest(const pykc_result* result);

/* The architectures compiled, in request order (0 after a failure). */
PYKC_EXPORT size_t pykc_result_arch_count(const pykc_result* result);
PYKC_EXPORT const char* pykc_result_arch(const pykc_result* result, size_t index);
/* The cubin (and PTX) of arch `index`; NULL (size 0) when out of range. The
 * bytes live as long as the result. */
PYKC_EXPORT const void* pykc_result_cubin(const pykc_result* result, size_t index, size_t* size);
PYKC_EXPORT const char* pykc_result_ptx(const pykc_result* result, size_t index, size_t* size);
/* 1 when arch `index` came from the cache. */
PYKC_EXPORT int pykc_result_cache_hit(const pykc_result* result, size_t index);

/* The kernel instances built: kernel name, signature and the cubin symbol to
 * look up with cuModuleGetFunction. */
PYKC_EXPORT size_t pykc_result_kernel_count(const pykc_result* result);
PYKC_EXPORT const char* pykc_result_kernel_name(const pykc_result* result, size_t index);
PYKC_EXPORT const char* pykc_result_kernel_signature(const pykc_result* result, size_t index);
PYKC_EXPORT const char* pykc_result_kernel_symbol(const pykc_result* result, size_t index);

/* Since version 2: numba-cuda's initialisation of `n` xoroshiro128+ generator
 * states (numba.cuda.random.init_xoroshiro128p_states): states[2i], states[2i+1]
 * are (s0, s1) of generator i, each 2**64 steps after the one before, the first
 * from `seed` advanced by `subsequence_start` jumps. Safe on NULL (does nothing). */
PYKC_EXPORT void pykc_xoroshiro128p_states(unsigned long long* states, size_t n,
                                           unsigned long long seed,
                                           unsigned long long subsequence_start);

#ifdef __cplusplus
}
#endif

#endif /* PYKC_PYKC_H */
