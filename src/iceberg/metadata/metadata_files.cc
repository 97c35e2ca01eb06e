#include "iceberg/metadata/metadata_files.h"

#include <sys/random.h>

#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>

#include "fileio/location.h"

namespace databox::iceberg {
namespace {

constexpr int kVersionDigits = 5;

//! A version-4 UUID from the kernel's entropy on every call. Not a seeded PRNG: processes
//! forked from one parent would share its state and pick the same file names.
std::string KernelRandomUuid() {
  std::array<uint8_t, 16> bytes{};
  size_t filled = 0;
  while (filled < bytes.size()) {
    ssize_t n = ::getrandom(bytes.data() + filled, bytes.size() - filled, 0);
    if (n > 0) filled += static_cast<size_t>(n);  // EINTR: try again
  }
  bytes[6] = static_cast<uint8_t>((bytes[6] & 0x0f) | 0x40);  // version 4
  bytes[8] = static_cast<uint8_t>((bytes[8] & 0x3f) | 0x80);  // RFC 4122 variant
  char text[37];
  std::snprintf(text, sizeof(text),
                "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", bytes[0],
                bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]);
  return text;
}

}  // namespace

std::optional<int> MetadataVersion(std::string_view metadata_location) {
  size_t slash = metadata_location.rfind('/');
  std::string_view name =
      slash == std::string_view::npos ? metadata_location : metadata_location.substr(slash + 1);
  size_t dash = name.find('-');
  if (dash == std::string_view::npos || dash == 0) return std::nullopt;
  int version = 0;
  auto [end, ec] = std::from_chars(name.data(), name.data() + dash, version);
  if (ec != std::errc() || end != name.data() + dash || version < 0) return std::nullopt;
  return version;
}

std::string NewMetadataLocation(const TableMetadata& metadata,
                                std::optional<std::string_view> previous_location) {
  int version = 0;
  if (previous_location) {
    std::optional<int> previous = MetadataVersion(*previous_location);
    version = previous ? *previous + 1 : static_cast<int>(metadata.metadata_log.size());
  }
  auto custom = metadata.properties.find(std::string(kWriteMetadataPathProperty));
  std::string folder = custom != metadata.properties.end() && !custom->second.empty()
                           ? custom->second
                           : fileio::JoinLocation(metadata.location, "metadata");
  char prefix[16];
  std::snprintf(prefix, sizeof(prefix), "%0*d-", kVersionDigits, version);
  return fileio::JoinLocation(folder, prefix + KernelRandomUuid() + ".metadata.json");
}

}  // namespace databox::iceberg
