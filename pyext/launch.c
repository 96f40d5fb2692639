/* pykc._launch: the JIT's launch of a kernel whose argument types have been seen, in C.
 *
 * The Python fast path (python/pykc/cuda/_fastlaunch.py) packs every parameter into one
 * buffer with struct.pack_into and calls cuLaunchKernel through ctypes; both conversions
 * cost about as much as the driver call itself. This module does the same work in one C
 * call: a Launch object holds the CUfunction, the address of cuLaunchKernel, one format
 * code per 8-byte parameter slot, the buffer and the pointer array the driver reads.
 *
 * Built against the stable ABI (Py_LIMITED_API, Python 3.10+), so one build loads in
 * every CPython from 3.10 on. No CUDA header is needed: the driver function is called
 * through its address, which the caller gets from libcuda (ctypes) and passes in.
 *
 * Launch(function, launch_address, codes, max_threads, name, signature)
 *   codes: one character per slot, struct's codes: ? b B h H i I q Q f d
 * launch.launch(grid, block, shared, stream, values) -> int (CUresult, 0 on success)
 *   grid and block: 3-tuples of ints; values: a list or tuple with one value per slot.
 *   Raises ValueError for a block over the kernel's limit and OverflowError for a value
 *   that does not fit its slot (the messages of the Python path).
 */
#define PY_SSIZE_T_CLEAN
#define Py_LIMITED_API 0x030A0000
#include <Python.h>

#include <stdint.h>
#include <string.h>

typedef int (*launch_fn)(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                         unsigned by, unsigned bz, unsigned shared, void *stream,
                         void **params, void **extra);

typedef struct {
  PyObject_HEAD
  void *function;
  launch_fn launch;
  Py_ssize_t slots;
  char *codes;       /* slots characters */
  uint64_t *buffer;  /* slots values, 8-byte aligned each */
  void **params;     /* params[i] = &buffer[i] */
  long long max_threads;
  PyObject *name;
  PyObject *signature;
} Launch;

static void launch_dealloc(PyObject *self) {
  Launch *l = (Launch *)self;
  PyMem_Free(l->codes);
  PyMem_Free(l->buffer);
  PyMem_Free(l->params);
  Py_XDECREF(l->name);
  Py_XDECREF(l->signature);
  PyTypeObject *tp = Py_TYPE(self);
  freefunc free_fn = (freefunc)PyType_GetSlot(tp, Py_tp_free);
  free_fn(self);
  Py_DECREF(tp);
}

static int valid_code(char c) { return strchr("?bBhHiIqQfd", c) != NULL && c != '\0'; }

static int launch_init(PyObject *self, PyObject *args, PyObject *kwargs) {
  Launch *l = (Launch *)self;
  unsigned long long function = 0, address = 0;
  const char *codes = NULL;
  Py_ssize_t ncodes = 0;
  long long max_threads = 0;
  PyObject *name = NULL, *signature = NULL;
  static char *keywords[] = {"function", "launch_address", "codes", "max_threads", "name",
                             "signature", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "KKs#LUU", keywords, &function, &address,
                                   &codes, &ncodes, &max_threads, &name, &signature))
    return -1;
  if (address == 0) {
    PyErr_SetString(PyExc_ValueError, "launch_address must be cuLaunchKernel's address");
    return -1;
  }
  for (Py_ssize_t i = 0; i < ncodes; ++i)
    if (!valid_code(codes[i])) {
      PyErr_Format(PyExc_ValueError, "unknown parameter code '%c'", codes[i]);
      return -1;
    }
  Py_ssize_t n = ncodes > 0 ? ncodes : 1;
  char *c = PyMem_Malloc((size_t)n);
  uint64_t *b = PyMem_Calloc((size_t)n, sizeof(uint64_t));
  void **p = PyMem_Malloc((size_t)n * sizeof(void *));
  if (!c || !b || !p) {
    PyMem_Free(c);
    PyMem_Free(b);
    PyMem_Free(p);
    PyErr_NoMemory();
    return -1;
  }
  memcpy(c, codes, (size_t)ncodes);
  for (Py_ssize_t i = 0; i < n; ++i) p[i] = &b[i];
  PyMem_Free(l->codes);
  PyMem_Free(l->buffer);
  PyMem_Free(l->params);
  l->codes = c;
  l->buffer = b;
  l->params = p;
  l->slots = ncodes;
  l->function = (void *)(uintptr_t)function;
  l->launch = (launch_fn)(uintptr_t)address;
  l->max_threads = max_threads;
  Py_INCREF(name);
  Py_XDECREF(l->name);
  l->name = name;
  Py_INCREF(signature);
  Py_XDECREF(l->signature);
  l->signature = signature;
  return 0;
}

/* The three extents of a grid or block tuple as unsigned ints. */
static int dims(PyObject *t, const char *what, unsigned out[3]) {
  if (!PyTuple_Check(t) || PyTuple_Size(t) != 3) {
    PyErr_Format(PyExc_TypeError, "%s must be a tuple of three ints", what);
    return -1;
  }
  for (Py_ssize_t i = 0; i < 3; ++i) {
    unsigned long v = PyLong_AsUnsignedLong(PyTuple_GetItem(t, i));
    if (v == (unsigned long)-1 && PyErr_Occurred()) return -1;
    if (v > 0xffffffffUL) {
      PyErr_Format(PyExc_OverflowError, "%s extent %lu does not fit 32 bits", what, v);
      return -1;
    }
    out[i] = (unsigned)v;
  }
  return 0;
}

static int overflow(Launch *l, Py_ssize_t slot, char code) {
  if (PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
  PyErr_Clear();
  PyErr_Format(PyExc_OverflowError,
               "kernel '%U' %U: an argument does not fit its parameter's type (slot %zd, "
               "format '%c')",
               l->name, l->signature, slot, code);
  return -1;
}

/* One value into its slot. */
static int pack(Launch *l, Py_ssize_t i, PyObject *v) {
  char code = l->codes[i];
  uint64_t *slot = &l->buffer[i];
  switch (code) {
  case '?': {
    int t = PyObject_IsTrue(v);
    if (t < 0) return -1;
    *slot = 0;
    *(uint8_t *)slot = (uint8_t)t;
    return 0;
  }
  case 'f': {
    double d = PyFloat_AsDouble(v);
    if (d == -1.0 && PyErr_Occurred()) return -1;
    float f = (float)d;
    *slot = 0;
    memcpy(slot, &f, sizeof f);
    return 0;
  }
  case 'd': {
    double d = PyFloat_AsDouble(v);
    if (d == -1.0 && PyErr_Occurred()) return -1;
    memcpy(slot, &d, sizeof d);
    return 0;
  }
  case 'Q': {
    unsigned long long u = PyLong_AsUnsignedLongLong(v);
    if (u == (unsigned long long)-1 && PyErr_Occurred()) {
      /* numpy unsigned scalars and other __index__ objects */
      if (!PyErr_ExceptionMatches(PyExc_TypeError)) return overflow(l, i, code);
      PyErr_Clear();
      PyObject *n = PyNumber_Index(v);
      if (!n) return -1;
      u = PyLong_AsUnsignedLongLong(n);
      Py_DECREF(n);
      if (u == (unsigned long long)-1 && PyErr_Occurred()) return overflow(l, i, code);
    }
    *slot = u;
    return 0;
  }
  default: {
    long long s = PyLong_AsLongLong(v);
    if (s == -1 && PyErr_Occurred()) {
      if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
      return overflow(l, i, code);
    }
    long long lo, hi;
    switch (code) {
    case 'b': lo = INT8_MIN; hi = INT8_MAX; break;
    case 'B': lo = 0; hi = UINT8_MAX; break;
    case 'h': lo = INT16_MIN; hi = INT16_MAX; break;
    case 'H': lo = 0; hi = UINT16_MAX; break;
    case 'i': lo = INT32_MIN; hi = INT32_MAX; break;
    case 'I': lo = 0; hi = UINT32_MAX; break;
    default: lo = INT64_MIN; hi = INT64_MAX; break; /* 'q' */
    }
    if (s < lo || s > hi) return overflow(l, i, code);
    *slot = 0;
    switch (code) {
    case 'b': case 'B': *(uint8_t *)slot = (uint8_t)s; break;
    case 'h': case 'H': *(uint16_t *)slot = (uint16_t)s; break;
    case 'i': case 'I': *(uint32_t *)slot = (uint32_t)s; break;
    default: *slot = (uint64_t)s; break;
    }
    return 0;
  }
  }
}

static PyObject *launch_launch(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  Launch *l = (Launch *)self;
  if (nargs != 5) {
    PyErr_SetString(PyExc_TypeError, "launch(grid, block, shared, stream, values)");
    return NULL;
  }
  unsigned grid[3], block[3];
  if (dims(args[0], "grid", grid) < 0 || dims(args[1], "block", block) < 0) return NULL;
  long long threads = (long long)block[0] * block[1] * block[2];
  if (threads > l->max_threads) {
    PyErr_Format(PyExc_ValueError,
                 "kernel '%U' %U: block (%u, %u, %u) has %lld threads, more than its limit "
                 "of %lld",
                 l->name, l->signature, block[0], block[1], block[2], threads, l->max_threads);
    return NULL;
  }
  unsigned long shared = PyLong_AsUnsignedLong(args[2]);
  if (shared == (unsigned long)-1 && PyErr_Occurred()) return NULL;
  unsigned long long stream = PyLong_AsUnsignedLongLong(args[3]);
  if (stream == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
  PyObject *values = args[4];
  int is_list = PyList_Check(values);
  if (!is_list && !PyTuple_Check(values)) {
    PyErr_SetString(PyExc_TypeError, "values must be a list or a tuple");
    return NULL;
  }
  Py_ssize_t n = is_list ? PyList_Size(values) : PyTuple_Size(values);
  if (n != l->slots) {
    PyErr_Format(PyExc_TypeError, "kernel '%U' %U: %zd parameter values for %zd slots",
                 l->name, l->signature, n, l->slots);
    return NULL;
  }
  /* The GIL is held from packing to the driver's copy of the parameters: one buffer per
     launcher is safe without a lock of its own. */
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *v = is_list ? PyList_GetItem(values, i) : PyTuple_GetItem(values, i);
    if (pack(l, i, v) < 0) return NULL;
  }
  int err = l->launch(l->function, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                      (unsigned)shared, (void *)(uintptr_t)stream, l->params, NULL);
  return PyLong_FromLong(err);
}

static PyObject *launch_slots(PyObject *self, PyObject *unused) {
  Launch *l = (Launch *)self;
  return PyBytes_FromStringAndSize((const char *)l->buffer,
                                   (Py_ssize_t)(l->slots * (Py_ssize_t)sizeof(uint64_t)));
}

static PyMethodDef launch_methods[] = {
    {"launch", (PyCFunction)(void (*)(void))launch_launch, METH_FASTCALL,
     "launch(grid, block, shared, stream, values) -> CUresult"},
    {"packed", launch_slots, METH_NOARGS,
     "The parameter buffer as last packed (8 bytes per slot), for tests."},
    {NULL, NULL, 0, NULL}};

static PyType_Slot launch_type_slots[] = {
    {Py_tp_doc, "A kernel instance's launch: CUfunction, parameter slots, cuLaunchKernel."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, launch_init},
    {Py_tp_dealloc, launch_dealloc},
    {Py_tp_methods, launch_methods},
    {0, NULL}};

static PyType_Spec launch_type_spec = {"pykc._launch.Launch", sizeof(Launch), 0,
                                       Py_TPFLAGS_DEFAULT, launch_type_slots};

static int module_exec(PyObject *m) {
  PyObject *t = PyType_FromSpec(&launch_type_spec);
  if (!t) return -1;
  if (PyModule_AddObject(m, "Launch", t) < 0) {
    Py_DECREF(t);
    return -1;
  }
  return 0;
}

static PyModuleDef_Slot module_slots[] = {{Py_mod_exec, module_exec}, {0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_launch",
    "pykc's kernel launch in C (the JIT's fast path; see pyext/launch.c).", 0, NULL,
    module_slots, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__launch(void) { return PyModuleDef_Init(&module_def); }
