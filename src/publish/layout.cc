#include "publish/layout.h"

#include <charconv>
#include <cstdio>

#include "common/sha256.h"
#include "fileio/location.h"

namespace databox::publish {
namespace {

constexpr size_t kIdDigits = 16;
constexpr int kVersionDigits = 6;

std::string VersionName(int64_t version) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%0*lld", kVersionDigits, static_cast<long long>(version));
  return buffer;
}

//! The last segment of a location.
std::string_view BaseName(std::string_view location) {
  const auto slash = location.rfind('/');
  return slash == std::string_view::npos ? location : location.substr(slash + 1);
}

}  // namespace

Layout::Layout(std::string_view root) : root_(root) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

std::string Layout::Marker() const { return Absolute(".databox-publish"); }
std::string Layout::Pointer() const { return Absolute("current.json"); }
std::string Layout::VersionsFolder() const { return Absolute("versions"); }
std::string Layout::DataFolder() const { return Absolute("data"); }

std::string Layout::VersionFolder(int64_t version) const {
  return Absolute("versions/" + VersionName(version));
}

std::string Layout::Manifest(int64_t version) const {
  return fileio::JoinLocation(VersionFolder(version), "manifest.json");
}

std::string Layout::ModelsDatabase(int64_t version) const {
  return fileio::JoinLocation(VersionFolder(version), "models.duckdb");
}

std::string Layout::TableLocation(int64_t version, std::string_view ns,
                                  std::string_view table) const {
  return fileio::JoinLocation(VersionFolder(version),
                              "tables/" + std::string(ns) + "/" + std::string(table));
}

std::string Layout::DataFile(std::string_view ns, std::string_view table,
                             std::string_view source_location, uint64_t size) const {
  const std::string id =
      Sha256Hex(std::string(source_location) + "\n" + std::to_string(size)).substr(0, kIdDigits);
  return Absolute("data/" + std::string(ns) + "/" + std::string(table) + "/" + id + "-" +
                  std::string(BaseName(source_location)));
}

std::optional<std::string> Layout::Relative(std::string_view location) const {
  if (location.size() <= root_.size() + 1 || !location.starts_with(root_) ||
      location[root_.size()] != '/') {
    return std::nullopt;
  }
  return std::string(location.substr(root_.size() + 1));
}

std::string Layout::Absolute(std::string_view relative) const {
  return fileio::JoinLocation(root_, relative);
}

std::optional<int64_t> Layout::VersionOf(std::string_view location) const {
  const std::optional<std::string> relative = Relative(location);
  if (!relative || !relative->starts_with("versions/")) return std::nullopt;
  const std::string_view rest = std::string_view(*relative).substr(9);
  const std::string_view name = rest.substr(0, rest.find('/'));
  int64_t version = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), version);
  if (ec != std::errc() || end != name.data() + name.size() || version <= 0) return std::nullopt;
  return version;
}

}  // namespace databox::publish
