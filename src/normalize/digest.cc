#include "normalize/digest.h"

#include <openssl/rand.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>

namespace databox::normalize {

std::string Base64NoPad(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::size_t rest = bytes.size() % 3;
  // Sized once and written by index: one call per character costs more than the encoding.
  std::string out(bytes.size() / 3 * 4 + (rest == 0 ? 0 : rest + 1), '\0');
  char* at = out.data();
  auto byte = [&](std::size_t i) { return uint32_t{static_cast<uint8_t>(bytes[i])}; };
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t n = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    *at++ = kAlphabet[(n >> 18) & 63];
    *at++ = kAlphabet[(n >> 12) & 63];
    *at++ = kAlphabet[(n >> 6) & 63];
    *at++ = kAlphabet[n & 63];
  }
  if (rest > 0) {
    const uint32_t n = (byte(i) << 16) | (rest == 2 ? byte(i + 1) << 8 : 0);
    *at++ = kAlphabet[(n >> 18) & 63];
    *at++ = kAlphabet[(n >> 12) & 63];
    if (rest == 2) *at++ = kAlphabet[(n >> 6) & 63];
  }
  return out;
}

namespace {

// SHAKE-128 (FIPS 202) implemented here: row ids hash one short string per child row, and a
// libcrypto EVP call costs several times the permutation itself. Checked against Python's
// hashlib through the expected ids in naming_test and normalizer_test.
constexpr std::array<uint64_t, 24> kRoundConstants = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};
//! Rotation of lane x + 5y, and the lane each one moves to (rho and pi steps, in pi order).
constexpr std::array<int, 24> kRotations = {1,  3,  6,  10, 15, 21, 28, 36, 45, 55, 2,  14,
                                            27, 41, 56, 8,  25, 43, 62, 18, 39, 61, 20, 44};
constexpr std::array<int, 24> kPiLanes = {10, 7,  11, 17, 18, 3, 5,  16, 8,  21, 24, 4,
                                          15, 23, 19, 13, 12, 2, 20, 14, 22, 9,  6,  1};
constexpr std::size_t kShake128Rate = 168;  //!< bytes absorbed per permutation

template <typename Lane>
[[gnu::always_inline]] inline Lane Rotl(Lane v, int n) {
  return (v << n) | (v >> (64 - n));
}

//! The 24 rounds of Keccak-f[1600] on 25 lanes. `Lane` is uint64_t (one state) or a vector of
//! uint64_t (one state per vector element: several messages hashed at once).
template <typename Lane>
[[gnu::always_inline]] inline void KeccakRounds(Lane* state) {
  // Lanes in locals with every loop unrolled: the compiler keeps them in registers.
  Lane a[25];
  for (int i = 0; i < 25; ++i) a[i] = state[i];
  for (uint64_t round_constant : kRoundConstants) {
    Lane c[5];
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x) {
      const Lane d = c[(x + 4) % 5] ^ Rotl(c[(x + 1) % 5], 1);
#pragma GCC unroll 5
      for (int y = 0; y < 25; y += 5) a[y + x] ^= d;
    }
    Lane carry = a[1];
#pragma GCC unroll 24
    for (int i = 0; i < 24; ++i) {
      const int lane = kPiLanes[i];
      const Lane next = a[lane];
      a[lane] = Rotl(carry, kRotations[i]);
      carry = next;
    }
#pragma GCC unroll 5
    for (int y = 0; y < 25; y += 5) {
      Lane row[5];
#pragma GCC unroll 5
      for (int x = 0; x < 5; ++x) row[x] = a[y + x];
#pragma GCC unroll 5
      for (int x = 0; x < 5; ++x) a[y + x] = row[x] ^ (~row[(x + 1) % 5] & row[(x + 2) % 5]);
    }
    a[0] ^= round_constant;
  }
  for (int i = 0; i < 25; ++i) state[i] = a[i];
}

void KeccakF1600(std::array<uint64_t, 25>& state) { KeccakRounds(state.data()); }

//! Four Keccak states, lane i of state k in element k of vector i.
using Lanes4 = uint64_t __attribute__((vector_size(32)));

// The same rounds compiled for the vector units the CPU may have; chosen once at run time.
[[gnu::target("avx512f,avx512vl")]] void KeccakX4Avx512(Lanes4* state) { KeccakRounds(state); }
[[gnu::target("avx2")]] void KeccakX4Avx2(Lanes4* state) { KeccakRounds(state); }
void KeccakX4Baseline(Lanes4* state) { KeccakRounds(state); }

using KeccakX4 = void (*)(Lanes4*);

KeccakX4 ChooseKeccakX4() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")) {
    return KeccakX4Avx512;
  }
  if (__builtin_cpu_supports("avx2")) return KeccakX4Avx2;
  return KeccakX4Baseline;
}

//! XORs `bytes` (at most one rate block) into the state, little-endian lanes.
void Absorb(std::array<uint64_t, 25>& state, const unsigned char* bytes, std::size_t size) {
  std::size_t i = 0;
  if constexpr (std::endian::native == std::endian::little) {
    for (; i + 8 <= size; i += 8) {
      uint64_t lane;
      std::memcpy(&lane, bytes + i, 8);
      state[i / 8] ^= lane;
    }
  }
  for (; i < size; ++i) {
    state[i / 8] ^= uint64_t{bytes[i]} << (8 * (i % 8));
  }
}

//! SHAKE-128's padding after the last `left` message bytes of the final block.
void Pad(std::array<uint64_t, 25>& state, std::size_t left) {
  state[left / 8] ^= uint64_t{0x1F} << (8 * (left % 8));  // SHAKE domain bits + first pad bit
  state[(kShake128Rate - 1) / 8] ^= uint64_t{0x80} << (8 * ((kShake128Rate - 1) % 8));
}

void Shake128Into(std::string_view text, unsigned char* out, std::size_t length) {
  std::array<uint64_t, 25> state{};
  const auto* in = reinterpret_cast<const unsigned char*>(text.data());
  std::size_t left = text.size();
  while (left >= kShake128Rate) {
    Absorb(state, in, kShake128Rate);
    KeccakF1600(state);
    in += kShake128Rate;
    left -= kShake128Rate;
  }
  Absorb(state, in, left);
  Pad(state, left);
  KeccakF1600(state);
  for (std::size_t i = 0; i < length; ++i) {
    if (i > 0 && i % kShake128Rate == 0) KeccakF1600(state);
    const std::size_t pos = i % kShake128Rate;
    out[i] = static_cast<unsigned char>(state[pos / 8] >> (8 * (pos % 8)));
  }
}

//! Random bytes drawn from the OpenSSL CSPRNG in blocks, handed out kDltIdBytes at a time: one
//! RAND_bytes call per ~400 row ids instead of one per row.
class RandomPool {
 public:
  const unsigned char* Next() {
    if (used_ + kDltIdBytes > pool_.size()) {
      if (RAND_bytes(pool_.data(), static_cast<int>(pool_.size())) != 1) {
        // The CSPRNG failing to seed is not recoverable in a loader; uniqueness matters more.
        std::abort();
      }
      used_ = 0;
    }
    const unsigned char* out = pool_.data() + used_;
    used_ += kDltIdBytes;
    return out;
  }

 private:
  std::array<unsigned char, 4000> pool_{};
  std::size_t used_ = pool_.size();
};

}  // namespace

std::string Shake128(std::string_view text, std::size_t length) {
  std::string out(length, '\0');
  Shake128Into(text, reinterpret_cast<unsigned char*>(out.data()), length);
  return out;
}

std::string Digest128(std::string_view text, std::size_t length) {
  if (length > 64) return Base64NoPad(Shake128(text, length));
  unsigned char bytes[64];
  Shake128Into(text, bytes, length);
  return Base64NoPad(std::string_view(reinterpret_cast<const char*>(bytes), length));
}

void Digest128Many(std::span<const std::string> texts, std::span<std::string> out) {
  static const KeccakX4 keccak_x4 = ChooseKeccakX4();
  // Texts that fit one block (all row-id inputs in practice) go four at a time through the
  // vector permutation; longer ones, and a last group of one, take the scalar path.
  std::array<std::size_t, 4> group{};
  std::size_t grouped = 0;
  auto flush = [&] {
    if (grouped == 1) {
      out[group[0]] = Digest128(texts[group[0]]);
    } else if (grouped > 1) {
      alignas(32) Lanes4 lanes[25] = {};
      for (std::size_t k = 0; k < grouped; ++k) {
        // One padded block as lanes (what Absorb + Pad give on a zero state).
        const std::string& text = texts[group[k]];
        std::array<uint64_t, 25> state{};
        Absorb(state, reinterpret_cast<const unsigned char*>(text.data()), text.size());
        Pad(state, text.size());
        for (std::size_t i = 0; i < kShake128Rate / 8; ++i) lanes[i][k] = state[i];
      }
      keccak_x4(lanes);
      for (std::size_t k = 0; k < grouped; ++k) {
        unsigned char bytes[16];
        for (std::size_t i = 0; i < kDltIdBytes; ++i) {
          bytes[i] = static_cast<unsigned char>(lanes[i / 8][k] >> (8 * (i % 8)));
        }
        out[group[k]] =
            Base64NoPad(std::string_view(reinterpret_cast<const char*>(bytes), kDltIdBytes));
      }
    }
    grouped = 0;
  };
  for (std::size_t i = 0; i < texts.size(); ++i) {
    if (texts[i].size() >= kShake128Rate) {
      out[i] = Digest128(texts[i]);
      continue;
    }
    group[grouped++] = i;
    if (grouped == group.size()) flush();
  }
  flush();
}

std::string RandomDltId() {
  thread_local RandomPool pool;
  return Base64NoPad(std::string_view(reinterpret_cast<const char*>(pool.Next()), kDltIdBytes));
}

}  // namespace databox::normalize
