#include "source/file_source.h"

#include <openssl/evp.h>

#include <array>
#include <fstream>
#include <memory>

#include "common/redact.h"
#include "fileio/durable.h"
#include "source/signed_url.h"

namespace databox::source {
namespace {

constexpr long kFound = 302;
//! A redirect answer is a few hundred bytes; anything bigger is not the redirect we expect.
constexpr std::size_t kMaxRedirectBody = std::size_t{64} << 10;
//! Read block for hashing files on disk.
constexpr std::size_t kHashBlock = std::size_t{1} << 20;

using Md5Context = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

Result<Md5Context> NewMd5() {
  Md5Context ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_md5(), nullptr) != 1) {
    return MakeError(ErrorKind::kInternal, "OpenSSL: MD5 digest is unavailable");
  }
  return ctx;
}

Result<std::string> FinishMd5(EVP_MD_CTX* ctx) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(ctx, digest.data(), &length) != 1) {
    return MakeError(ErrorKind::kInternal, "OpenSSL: MD5 digest failed");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 0xf];
  }
  return hex;
}

//! "https://host/path?***": a signed URL as it may appear in messages.
std::string WithoutQuery(std::string_view url) {
  const std::size_t q = url.find('?');
  return q == std::string_view::npos ? std::string(url) : std::string(url.substr(0, q)) + "?***";
}

//! Unavailable or rate-limited services may answer later; every other answer is wrong data.
ErrorKind KindOfAnswer(long status) {
  return status == 429 || status >= 500 ? ErrorKind::kNetwork : ErrorKind::kData;
}

Status WriteAtomically(const std::filesystem::path& dest, std::string_view bytes) {
  if (dest.has_parent_path()) {
    DATABOX_RETURN_IF_ERROR(fileio::CreateFoldersDurably(dest.parent_path()));
  }
  return fileio::WriteFileDurably(dest, bytes);
}

}  // namespace

Result<std::string> Md5Hex(std::string_view bytes) {
  DATABOX_ASSIGN_OR_RETURN(Md5Context ctx, NewMd5());
  if (EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size()) != 1) {
    return MakeError(ErrorKind::kInternal, "OpenSSL: MD5 digest failed");
  }
  return FinishMd5(ctx.get());
}

Result<FileFacts> ComputeFileFacts(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorKind::kIo, "cannot open " + path.string() + " for reading");
  DATABOX_ASSIGN_OR_RETURN(Md5Context ctx, NewMd5());
  FileFacts facts;
  std::string block(kHashBlock, '\0');
  while (in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    const std::streamsize got = in.gcount();
    if (got <= 0) break;
    facts.size_bytes += got;
    if (EVP_DigestUpdate(ctx.get(), block.data(), static_cast<std::size_t>(got)) != 1) {
      return MakeError(ErrorKind::kInternal, "OpenSSL: MD5 digest failed");
    }
  }
  if (in.bad()) return MakeError(ErrorKind::kIo, "read of " + path.string() + " failed");
  DATABOX_ASSIGN_OR_RETURN(facts.md5, FinishMd5(ctx.get()));
  return facts;
}

Status CheckPinnedFile(const FileFacts& facts, const PinnedFile& pinned, std::string_view label) {
  const std::string prefix(label);
  if (pinned.size_bytes && facts.size_bytes != *pinned.size_bytes) {
    return MakeError(
        ErrorKind::kData,
        prefix + ": size check failed: the file has " + std::to_string(facts.size_bytes) +
            " bytes, expected " + std::to_string(*pinned.size_bytes) +
            " (incomplete download or a changed upstream file; nothing was published)");
  }
  if (!pinned.md5.empty() && facts.md5 != pinned.md5) {
    return MakeError(ErrorKind::kData, prefix + ": md5 check failed: the file's MD5 is " +
                                           facts.md5 + ", expected " + pinned.md5 +
                                           " (the file is not the pinned snapshot; nothing was "
                                           "published)");
  }
  return Ok();
}

Result<DownloadedFile> DownloadPinnedFile(http::HttpClient& client,
                                          const registry::FileSettings& file,
                                          std::string_view label,
                                          const std::filesystem::path& dest) {
  const std::string prefix(label);
  const std::string public_url = RedactUrl(file.url);
  http::Request first;
  first.url = file.url;
  first.allow_error_status = true;
  std::string body_url = file.url;  // the URL whose answer is the file
  if (!file.redirect_url.empty()) {
    first.max_response_bytes = kMaxRedirectBody;
    DATABOX_ASSIGN_OR_RETURN(http::Response answer, client.Send(std::move(first)));
    if (answer.status != kFound) {
      return MakeError(KindOfAnswer(answer.status),
                       prefix + ": redirect check failed: GET " + public_url + " answered " +
                           std::to_string(answer.status) + ", expected exactly one 302 to " +
                           file.redirect_url);
    }
    const auto location = answer.headers.Get("Location");
    if (!location || location->empty()) {
      return MakeError(ErrorKind::kData, prefix + ": redirect check failed: GET " + public_url +
                                             " answered 302 without a Location header");
    }
    body_url = std::string(*location);
    const std::size_t q = body_url.find('?');
    if (q != std::string::npos) RegisterSecret(std::string_view(body_url).substr(q + 1));
    if (std::string problem = PresignedUrlProblem(body_url, file.redirect_url); !problem.empty()) {
      return MakeError(ErrorKind::kData, prefix + ": redirect check failed: GET " + public_url +
                                             " redirected to " + WithoutQuery(body_url) + ": " +
                                             Redact(problem) + " (nothing was downloaded)");
    }
  }
  http::Request get;
  get.url = body_url;
  get.allow_error_status = true;
  if (file.size_bytes) get.max_response_bytes = static_cast<std::size_t>(*file.size_bytes);
  auto answer = client.Send(std::move(get));
  if (!answer) {
    return std::unexpected(
        answer.error().WithContext(prefix + ": download of " + WithoutQuery(body_url)));
  }
  if (!answer->ok()) {
    const bool redirected_again = answer->status >= 300 && answer->status < 400;
    return MakeError(KindOfAnswer(answer->status),
                     prefix + (redirected_again ? ": redirect check failed: " : ": download of ") +
                         WithoutQuery(body_url) + " answered " + std::to_string(answer->status) +
                         (redirected_again ? ", expected the file (exactly one redirect)"
                                           : ", expected 200; retry later"));
  }
  DownloadedFile out;
  out.path = dest;
  out.facts.size_bytes = static_cast<int64_t>(answer->body.size());
  DATABOX_ASSIGN_OR_RETURN(out.facts.md5, Md5Hex(answer->body));
  DATABOX_RETURN_IF_ERROR(WriteAtomically(dest, answer->body));
  return out;
}

}  // namespace databox::source
