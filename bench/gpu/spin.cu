// Busy-waits one thread for `ns` nanoseconds of %globaltimer. run_gpu_bench.py launches it
// before each timed kernel, so that the host has queued the start event, the kernel and the
// stop event before the GPU reaches them: the events then time the kernel alone, not the
// launch overhead of the Python loaders (numba's is tens of microseconds).
extern "C" __global__ void spin(unsigned long long ns)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < ns);
}
