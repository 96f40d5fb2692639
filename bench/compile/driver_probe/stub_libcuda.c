/* A libcuda.so.1 stand-in for nvJitLink's private link-map namespace: every
 * entry point nvJitLink looks up reports "no CUDA-capable device", as the real
 * driver does with CUDA_VISIBLE_DEVICES= (bench/compile/driver_probe). */
#define CUDA_ERROR_NO_DEVICE 100
int cuInit(unsigned flags) { (void)flags; return CUDA_ERROR_NO_DEVICE; }
int cuGetExportTable(const void** table, const void* id) {
  (void)id;
  if (table) *table = 0;
  return CUDA_ERROR_NO_DEVICE;
}
int cuDriverGetVersion(int* version) { if (version) *version = 0; return CUDA_ERROR_NO_DEVICE; }
