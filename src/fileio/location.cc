#include "fileio/location.h"

namespace databox::fileio {
namespace {

constexpr std::string_view kFileUriPrefix = "file://";
constexpr std::string_view kFileShortPrefix = "file:";

bool HasDotDotSegment(std::string_view path) {
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    if (path.substr(start, end - start) == "..") return true;
    start = end + 1;
  }
  return false;
}

}  // namespace

Result<Scheme> SchemeOf(std::string_view location) {
  if (location.starts_with("s3://") || location.starts_with("s3a://")) return Scheme::kS3;
  if (location.starts_with("/") || location.starts_with(kFileShortPrefix)) return Scheme::kLocal;
  return MakeError(ErrorKind::kConfig,
                   "location '" + std::string(location) +
                       "' is neither an absolute path, a file:// URI nor an s3:// URI; "
                       "give an absolute location");
}

Result<std::string> LocalPathOf(std::string_view location) {
  std::string_view path = location;
  if (path.starts_with(kFileUriPrefix)) {
    path.remove_prefix(kFileUriPrefix.size());  // "file:///a" -> "/a"; "file://host/a" -> "host/a"
  } else if (path.starts_with(kFileShortPrefix)) {
    path.remove_prefix(kFileShortPrefix.size());  // Hadoop style "file:/a"
  }
  if (!path.starts_with("/")) {
    return MakeError(ErrorKind::kConfig,
                     "location '" + std::string(location) +
                         "' is not an absolute local path (expected /path, file:/path or "
                         "file:///path)");
  }
  if (path.find('\0') != std::string_view::npos) {
    return MakeError(ErrorKind::kData, "local location contains a NUL byte; refusing to use it");
  }
  if (HasDotDotSegment(path)) {
    return MakeError(ErrorKind::kData, "location '" + std::string(location) +
                                           "' contains a '..' segment; refusing to use it");
  }
  return std::string(path);
}

std::string JoinLocation(std::string_view base, std::string_view child) {
  while (base.ends_with('/')) base.remove_suffix(1);
  while (child.starts_with('/')) child.remove_prefix(1);
  std::string out(base);
  out += '/';
  out += child;
  return out;
}

}  // namespace databox::fileio
