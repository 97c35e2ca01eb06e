// Row identifiers as dlt computes them: base64 of SHAKE-128 digests or of random bytes.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace databox::normalize {

//! Bytes in a dlt row id (`_dlt_id`): 10 bytes, 14 base64 characters.
inline constexpr std::size_t kDltIdBytes = 10;

//! Standard base64 (alphabet with '+' and '/') without '=' padding.
std::string Base64NoPad(std::string_view bytes);

//! The first `length` bytes of SHAKE-128 over `text`.
std::string Shake128(std::string_view text, std::size_t length);

//! base64(SHAKE-128(text)[0:length]) without padding: dlt's `digest128`.
std::string Digest128(std::string_view text, std::size_t length = kDltIdBytes);

//! Digest128 (default length) of every text into `out` (the same size): many short texts at
//! once, four per Keccak permutation in vector registers where the CPU has them.
void Digest128Many(std::span<const std::string> texts, std::span<std::string> out);

//! A random row id: base64 of kDltIdBytes bytes from the OpenSSL CSPRNG (dlt's `generate_dlt_id`).
std::string RandomDltId();

}  // namespace databox::normalize
