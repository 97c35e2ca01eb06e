// Pinned files: fetching the one file (exactly one redirect to a signed URL that is never
// logged) and checking its size and MD5 before anything reads it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.h"
#include "http/client.h"
#include "registry/model.h"

namespace databox::source {

//! What identifies a file's bytes.
struct FileFacts {
  int64_t size_bytes = 0;
  std::string md5;  //!< 32 lowercase hex digits
};

//! The pinned identity a file must have; unset/empty fields are not checked.
struct PinnedFile {
  std::optional<int64_t> size_bytes;
  std::string md5;
};

//! Lowercase hex MD5 of `bytes` (OpenSSL EVP).
Result<std::string> Md5Hex(std::string_view bytes);

//! Size and MD5 of the file at `path`, read in blocks. kIo when it cannot be read.
Result<FileFacts> ComputeFileFacts(const std::filesystem::path& path);

//! kData naming the failed check ("<label>: size check failed: ...", "<label>: md5 check
//! failed: ...") when `facts` differ from `pinned`.
Status CheckPinnedFile(const FileFacts& facts, const PinnedFile& pinned, std::string_view label);

//! A downloaded file.
struct DownloadedFile {
  std::filesystem::path path;  //!< where the bytes were written
  FileFacts facts;             //!< of the bytes written
};

//! Downloads `file.url` to `dest` (written to a temporary sibling, renamed when complete).
//! With a redirect_url the URL must answer exactly one 302 whose Location is that URL with a
//! presigned S3 query (PresignedUrlProblem: exact path, the six X-Amz-* keys, an expiry of at
//! most 60 s); the Location's query (a signature) is registered as a secret and never appears in
//! messages; the signed URL must then answer 2xx directly. Without a redirect_url the URL must
//! answer 2xx directly. A body larger than size_bytes is refused while it arrives.
//! `client` must not follow redirects itself (platform::MakeFileClient). Errors start with
//! `label`.
Result<DownloadedFile> DownloadPinnedFile(http::HttpClient& client,
                                          const registry::FileSettings& file,
                                          std::string_view label,
                                          const std::filesystem::path& dest);

}  // namespace databox::source
