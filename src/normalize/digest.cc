#include "normalize/digest.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace databox::normalize {

std::string Base64NoPad(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t n = (uint32_t{static_cast<uint8_t>(bytes[i])} << 16) |
                       (uint32_t{static_cast<uint8_t>(bytes[i + 1])} << 8) |
                       uint32_t{static_cast<uint8_t>(bytes[i + 2])};
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += kAlphabet[n & 63];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest == 1) {
    const uint32_t n = uint32_t{static_cast<uint8_t>(bytes[i])} << 16;
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
  } else if (rest == 2) {
    const uint32_t n = (uint32_t{static_cast<uint8_t>(bytes[i])} << 16) |
                       (uint32_t{static_cast<uint8_t>(bytes[i + 1])} << 8);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
  }
  return out;
}

std::string Shake128(std::string_view text, std::size_t length) {
  std::string out(length, '\0');
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  // SHAKE-128 is part of every OpenSSL >= 1.1.1 build; failure here means a broken libcrypto.
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_shake128(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), text.data(), text.size()) != 1 ||
      EVP_DigestFinalXOF(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), length) != 1) {
    std::abort();
  }
  return out;
}

std::string Digest128(std::string_view text, std::size_t length) {
  return Base64NoPad(Shake128(text, length));
}

std::string RandomDltId() {
  std::array<unsigned char, kDltIdBytes> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    // The CSPRNG failing to seed is not recoverable in a loader; uniqueness matters more.
    std::abort();
  }
  return Base64NoPad(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace databox::normalize
