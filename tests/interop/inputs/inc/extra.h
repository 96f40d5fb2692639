// Found through -I (tests/interop/inputs/inc).
#define EXTRA_ADD 1.5f
