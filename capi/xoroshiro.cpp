// pykc_xoroshiro128p_states (include/pykc/pykc.h): numba-cuda's host
// initialisation of xoroshiro128+ generator states (its random.py,
// init_xoroshiro128p_states_cpu), in native code so that a JIT program's
// create_xoroshiro128p_states of millions of states takes milliseconds.
#include <cstddef>
#include <cstdint>

#include "pykc/pykc.h"

namespace {

struct State {
  std::uint64_t s0, s1;
};

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

State next(State s) {
  std::uint64_t s1 = s.s1 ^ s.s0;
  return State{rotl(s.s0, 55) ^ s1 ^ (s1 << 14), rotl(s1, 36)};
}

// 2**64 steps ahead (xoroshiro128+'s jump polynomial).
State jump(State s) {
  static constexpr std::uint64_t kJump[2] = {0xBEAC0467EBA5FACBull, 0xD86B048B86AA9922ull};
  State out{0, 0};
  for (std::uint64_t word : kJump) {
    for (int b = 0; b < 64; ++b) {
      if (word & (std::uint64_t{1} << b)) {
        out.s0 ^= s.s0;
        out.s1 ^= s.s1;
      }
      s = next(s);
    }
  }
  return out;
}

}  // namespace

extern "C" void pykc_xoroshiro128p_states(unsigned long long* states, size_t n,
                                          unsigned long long seed,
                                          unsigned long long subsequence_start) {
  if (states == nullptr || n == 0) return;
  std::uint64_t z = splitmix64(seed);
  State s{z, z};
  for (unsigned long long i = 0; i < subsequence_start; ++i) s = jump(s);
  for (size_t i = 0; i < n; ++i) {
    if (i != 0) s = jump(s);
    states[2 * i] = s.s0;
    states[2 * i + 1] = s.s1;
  }
}
