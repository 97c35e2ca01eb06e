#include "fileio/s3/s3_url.h"

#include "common/encoding.h"

namespace databox::fileio::s3 {

Result<S3Path> ParseS3Path(std::string_view location) {
  S3Path path;
  std::string_view rest;
  if (location.starts_with("s3://")) {
    path.scheme = "s3";
    rest = location.substr(5);
  } else if (location.starts_with("s3a://")) {
    path.scheme = "s3a";
    rest = location.substr(6);
  } else {
    return MakeError(ErrorKind::kConfig, "'" + std::string(location) +
                                             "' is not an s3:// location; S3 file IO only "
                                             "handles s3://bucket/key");
  }
  std::size_t slash = rest.find('/');
  path.bucket = std::string(rest.substr(0, slash));
  if (path.bucket.empty()) {
    return MakeError(ErrorKind::kConfig,
                     "'" + std::string(location) + "' names no bucket; write s3://bucket/key");
  }
  path.key = slash == std::string_view::npos ? "" : std::string(rest.substr(slash + 1));
  if (path.key.find('\0') != std::string::npos) {
    return MakeError(ErrorKind::kData,
                     "S3 location '" + std::string(location) + "' contains a NUL byte");
  }
  // Segments "." and ".." and empty segments ("a//b") are rewritten by URL normalisation.
  std::string_view key = path.key;
  while (!key.empty()) {
    std::size_t end = key.find('/');
    std::string_view segment = key.substr(0, end);
    bool last = end == std::string_view::npos;
    if (segment == "." || segment == ".." || (segment.empty() && !last)) {
      return MakeError(ErrorKind::kData,
                       "S3 location '" + std::string(location) +
                           "' has an empty, '.' or '..' path segment; use a normalised key");
    }
    if (last) break;
    key.remove_prefix(end + 1);
  }
  return path;
}

Result<S3Endpoint> S3Endpoint::Make(std::string_view endpoint, std::string_view region,
                                    bool path_style) {
  if (endpoint.empty()) {
    if (region.empty()) {
      return MakeError(ErrorKind::kConfig, "S3 needs a region when no endpoint is configured");
    }
    return S3Endpoint("https", "s3." + std::string(region) + ".amazonaws.com", "", path_style);
  }
  std::string scheme;
  std::string_view rest;
  if (endpoint.starts_with("https://")) {
    scheme = "https";
    rest = endpoint.substr(8);
  } else if (endpoint.starts_with("http://")) {
    scheme = "http";
    rest = endpoint.substr(7);
  } else {
    return MakeError(ErrorKind::kConfig, "S3 endpoint '" + std::string(endpoint) +
                                             "' must start with http:// or https://");
  }
  std::size_t slash = rest.find('/');
  std::string host(rest.substr(0, slash));
  std::string base = slash == std::string_view::npos ? "" : std::string(rest.substr(slash));
  while (base.ends_with('/')) base.pop_back();
  if (host.empty() || host.find_first_of("?#@ ") != std::string::npos ||
      base.find_first_of("?#") != std::string::npos) {
    return MakeError(ErrorKind::kConfig, "S3 endpoint '" + std::string(endpoint) +
                                             "' is not of the form http(s)://host[:port][/path]");
  }
  return S3Endpoint(std::move(scheme), std::move(host), std::move(base), path_style);
}

S3Target S3Endpoint::For(std::string_view bucket, std::string_view key,
                         std::string_view canonical_query) const {
  S3Target target;
  bool path_style = path_style_ || bucket.find('.') != std::string_view::npos;
  std::string encoded_key = UrlEncode(key, /*keep_slash=*/true);
  if (path_style) {
    target.host = host_;
    target.canonical_uri = base_path_ + "/" + UrlEncode(bucket);
    // "/bucket" lists the bucket; "/bucket/key" names an object.
    if (!key.empty()) target.canonical_uri += "/" + encoded_key;
  } else {
    target.host = std::string(bucket) + "." + host_;
    target.canonical_uri = base_path_ + "/" + encoded_key;
  }
  target.url = scheme_ + "://" + target.host + target.canonical_uri;
  if (!canonical_query.empty()) target.url += "?" + std::string(canonical_query);
  return target;
}

}  // namespace databox::fileio::s3
