// Parsing of FileIO locations: which store a location names, and local paths from file:// URIs.
#pragma once

#include <string>
#include <string_view>

#include "common/error.h"

namespace databox::fileio {

//! The store a location belongs to.
enum class Scheme {
  kLocal,  //!< "/abs/path", "file:/abs/path" or "file:///abs/path"
  kS3,     //!< "s3://bucket/key" (also "s3a://")
};

//! The scheme of `location`; kConfig for relative paths and unknown schemes.
Result<Scheme> SchemeOf(std::string_view location);

//! The absolute path a local location names ("file:///a/b" -> "/a/b"). Rejects relative paths,
//! other schemes (kConfig) and ".." segments or NUL bytes (kData), so a location read from
//! metadata cannot escape the folder it claims to be in.
Result<std::string> LocalPathOf(std::string_view location);

//! `base` + "/" + `child` with exactly one slash between them.
std::string JoinLocation(std::string_view base, std::string_view child);

}  // namespace databox::fileio
