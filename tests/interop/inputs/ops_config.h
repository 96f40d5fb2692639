// Included with quotes by ops.cu: its content is part of the cache key.
#define OPS_SCALE 1.0f
