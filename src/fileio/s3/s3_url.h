// s3:// locations and the HTTP URLs that address them, path-style ("http://host/bucket/key") or
// virtual-hosted ("https://bucket.host/key").
#pragma once

#include <string>
#include <string_view>

#include "common/error.h"

namespace databox::fileio::s3 {

//! A parsed "s3://bucket/key" (or "s3a://") location.
struct S3Path {
  std::string scheme;  //!< "s3" or "s3a", as written (listings answer in the same form)
  std::string bucket;
  std::string key;  //!< may be empty (a bucket-wide prefix)

  //! "<scheme>://<bucket>/<key>".
  std::string Location() const { return scheme + "://" + bucket + "/" + key; }
};

//! Parses `location`. kConfig for other schemes or a missing bucket; kData for keys with "." or
//! ".." segments, empty segments or NUL bytes (HTTP stacks rewrite such paths, so the object
//! signed would not be the object sent).
Result<S3Path> ParseS3Path(std::string_view location);

//! Where one request goes and what to sign for it.
struct S3Target {
  std::string url;            //!< full URL including the (already canonical) query
  std::string host;           //!< Host header value (with the port when the endpoint names one)
  std::string canonical_uri;  //!< the encoded path, as sent
};

//! Builds request URLs for one endpoint. Immutable after Make.
class S3Endpoint {
 public:
  //! `endpoint`: empty for AWS ("https://s3.<region>.amazonaws.com"), else
  //! "http(s)://host[:port][/base]". kConfig for anything else.
  static Result<S3Endpoint> Make(std::string_view endpoint, std::string_view region,
                                 bool path_style);

  //! The target for `key` in `bucket` with `canonical_query` (from CanonicalQuery, may be
  //! empty). Buckets with dots are always addressed path-style (TLS certificates do not cover
  //! them as sub-domains).
  S3Target For(std::string_view bucket, std::string_view key,
               std::string_view canonical_query) const;

  bool path_style() const { return path_style_; }
  //! "scheme://host[:port]" as configured (Make refuses user info), for messages.
  std::string Origin() const { return scheme_ + "://" + host_; }

 private:
  S3Endpoint(std::string scheme, std::string host, std::string base_path, bool path_style)
      : scheme_(std::move(scheme)),
        host_(std::move(host)),
        base_path_(std::move(base_path)),
        path_style_(path_style) {}

  std::string scheme_;     //!< "http" or "https"
  std::string host_;       //!< host[:port]
  std::string base_path_;  //!< "" or "/base" (no trailing slash)
  bool path_style_;        //!< bucket in the path instead of the host name
};

}  // namespace databox::fileio::s3
