#include "fileio/s3/s3_file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>
#include <thread>

#include "common/redact.h"
#include "fileio/fd.h"
#include "fileio/location.h"
#include "fileio/s3/s3_errors.h"
#include "http/sigv4.h"

namespace databox::fileio::s3 {
namespace {

//! S3 allows at most this many parts in one multipart upload.
constexpr uint64_t kMaxParts = 10000;
constexpr std::string_view kOctetStream = "application/octet-stream";

std::unexpected<Error> LocalError(std::string_view what, std::string_view path, int err) {
  return MakeError(err == ENOENT ? ErrorKind::kNotFound : ErrorKind::kIo,
                   "could not " + std::string(what) + " '" + std::string(path) +
                       "': " + std::strerror(err) +
                       "; check that the file exists and is readable by this user");
}

//! Reads exactly `length` bytes at `offset` (the file must not shrink meanwhile).
Result<std::string> ReadAt(int fd, uint64_t offset, uint64_t length, std::string_view path) {
  std::string out(length, '\0');
  uint64_t done = 0;
  while (done < length) {
    ssize_t n = ::pread(fd, out.data() + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return LocalError("read", path, errno);
    }
    if (n == 0) {
      return MakeError(ErrorKind::kIo, "'" + std::string(path) +
                                           "' became shorter while it was being uploaded; do not "
                                           "modify files during upload");
    }
    done += static_cast<uint64_t>(n);
  }
  return out;
}

//! `request` names the HEAD request (S3RequestName).
Result<uint64_t> ContentLength(const http::Response& response, std::string_view request) {
  std::optional<std::string_view> header = response.headers.Get("Content-Length");
  uint64_t value = 0;
  if (header) {
    auto [end, ec] = std::from_chars(header->data(), header->data() + header->size(), value);
    if (ec == std::errc() && end == header->data() + header->size()) return value;
  }
  return MakeError(ErrorKind::kData, std::string(request) +
                                         " gave no valid Content-Length; the store's response is "
                                         "malformed");
}

}  // namespace

std::string S3FileIO::RequestName(std::string_view op, const S3Path& path) const {
  return S3RequestName(op, path.Location(), endpoint_.Origin());
}

Error S3FileIO::StatusError(std::string_view op, const S3Path& path,
                            const http::Response& response) const {
  return S3StatusError(op, path.Location(), endpoint_.Origin(), response);
}

Result<std::unique_ptr<S3FileIO>> S3FileIO::Make(S3Options options,
                                                 std::shared_ptr<CredentialsProvider> credentials) {
  ClientFactory factory = [http = options.http,
                           curl = options.curl]() -> Result<std::unique_ptr<http::HttpClient>> {
    http::ClientOptions client_options = http;
    // A signed request is valid for its own URL only; a redirect is reported, not followed.
    client_options.redirects.follow = false;
    DATABOX_ASSIGN_OR_RETURN(http::HttpClient client, http::HttpClient::Make(client_options, curl));
    return std::make_unique<http::HttpClient>(std::move(client));
  };
  return Make(std::move(options), std::move(credentials), std::move(factory));
}

Result<std::unique_ptr<S3FileIO>> S3FileIO::Make(S3Options options,
                                                 std::shared_ptr<CredentialsProvider> credentials,
                                                 ClientFactory factory) {
  if (credentials == nullptr) {
    return MakeError(ErrorKind::kConfig, "S3 file IO needs a credentials provider");
  }
  if (factory == nullptr) return MakeError(ErrorKind::kConfig, "S3 file IO needs an HTTP client");
  if (options.part_size == 0 || options.upload_parallelism < 1) {
    return MakeError(ErrorKind::kConfig, "S3 part size and upload parallelism must be positive");
  }
  DATABOX_ASSIGN_OR_RETURN(S3Endpoint endpoint,
                           S3Endpoint::Make(options.endpoint, options.region, options.path_style));
  if (!options.clock) options.clock = [] { return std::chrono::system_clock::now(); };
  return std::unique_ptr<S3FileIO>(new S3FileIO(std::move(options), std::move(endpoint),
                                                std::move(credentials), std::move(factory)));
}

Result<std::unique_ptr<http::HttpClient>> S3FileIO::AcquireClient() {
  {
    std::lock_guard lock(pool_mutex_);
    if (!idle_clients_.empty()) {
      std::unique_ptr<http::HttpClient> client = std::move(idle_clients_.back());
      idle_clients_.pop_back();
      return client;
    }
  }
  return factory_();
}

void S3FileIO::ReleaseClient(std::unique_ptr<http::HttpClient> client) {
  std::lock_guard lock(pool_mutex_);
  idle_clients_.push_back(std::move(client));
}

Result<http::Response> S3FileIO::Send(Call call) {
  const std::string request_name = RequestName(call.op, *call.path);
  auto context = [&](const Error& error) {
    return std::unexpected(error.WithContext(request_name));
  };
  Result<Credentials> credentials = credentials_->GetFor(
      call.credentials_for.empty() ? call.path->Location() : call.credentials_for);
  if (!credentials) return context(credentials.error());

  const std::string query = http::CanonicalQuery(std::move(call.query));
  const S3Target target = endpoint_.For(call.path->bucket, call.path->key, query);
  const std::string payload_hash = Sha256Hex(call.body);
  const std::string amz_date = http::AmzDate(options_.clock());

  http::Request request;
  request.method = call.method;
  request.url = target.url;
  request.headers = std::move(call.headers);
  // libcurl labels bodies it sends as form data unless told otherwise, and some servers (moto did)
  // then parse the body as a form and store nothing.
  if ((call.method == http::Method::kPut || call.method == http::Method::kPost) &&
      !request.headers.Contains("Content-Type")) {
    request.headers.Set("Content-Type", std::string(kOctetStream));
  }
  request.headers.Set("Host", target.host);
  request.headers.Set("x-amz-date", amz_date);
  request.headers.Set("x-amz-content-sha256", payload_hash);
  if (!credentials->session_token.empty()) {
    request.headers.Set("x-amz-security-token", credentials->session_token);
  }
  http::SigningRequest signing{.method = http::MethodName(call.method),
                               .canonical_uri = target.canonical_uri,
                               .canonical_query = query,
                               .headers = request.headers.fields(),
                               .payload_sha256 = payload_hash};
  http::SigV4Result signature =
      http::SignV4(signing, http::SigningScope{
                                .access_key_id = credentials->access_key_id,
                                .secret_access_key = credentials->secret_access_key,
                                .region = options_.region,
                                .amz_date = amz_date,
                            });
  request.headers.Set("Authorization", signature.authorization);
  request.body = std::move(call.body);
  request.idempotent = call.idempotent;
  request.allow_error_status = true;
  request.decode_content = false;

  Result<std::unique_ptr<http::HttpClient>> client = AcquireClient();
  if (!client) return context(client.error());
  Result<http::Response> response = (*client)->Send(std::move(request));
  ReleaseClient(std::move(*client));
  if (!response) return context(response.error());
  return response;
}

Result<http::Response> S3FileIO::SendOk(Call call) {
  std::string op(call.op);
  const S3Path& path = *call.path;
  DATABOX_ASSIGN_OR_RETURN(http::Response response, Send(std::move(call)));
  if (!response.ok()) return std::unexpected(StatusError(op, path, response));
  return response;
}

Result<http::Response> S3FileIO::Head(const S3Path& path) {
  return Send(Call(http::Method::kHead, "HEAD", path));
}

Result<std::string> S3FileIO::Read(std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(S3Path path, ParseS3Path(location));
  DATABOX_ASSIGN_OR_RETURN(http::Response response, SendOk(Call(http::Method::kGet, "GET", path)));
  return std::move(response.body);
}

Result<std::string> S3FileIO::ReadRange(std::string_view location, uint64_t offset,
                                        uint64_t length) {
  DATABOX_ASSIGN_OR_RETURN(S3Path path, ParseS3Path(location));
  if (length == 0) {  // no byte range can express this; still report a missing object
    DATABOX_RETURN_IF_ERROR(Size(location));
    return std::string();
  }
  uint64_t last = offset + length - 1;
  std::string range = "bytes=" + std::to_string(offset) + "-";
  if (last >= offset) range += std::to_string(last);  // else the sum overflowed: to the end
  Call call(http::Method::kGet, "GET (range)", path);
  call.headers.Set("Range", range);
  DATABOX_ASSIGN_OR_RETURN(http::Response response, Send(std::move(call)));
  if (response.status == 416) return std::string();  // offset at or past the end
  if (!response.ok()) return std::unexpected(StatusError("GET", path, response));
  if (response.status == 206) return std::move(response.body);
  // 200: the store ignored the range and sent the whole object.
  if (offset >= response.body.size()) return std::string();
  return response.body.substr(offset, length);
}

Result<uint64_t> S3FileIO::Size(std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(S3Path path, ParseS3Path(location));
  DATABOX_ASSIGN_OR_RETURN(http::Response response, Head(path));
  if (!response.ok()) return std::unexpected(StatusError("HEAD", path, response));
  return ContentLength(response, RequestName("HEAD", path));
}

Result<bool> S3FileIO::Exists(std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(S3Path path, ParseS3Path(location));
  DATABOX_ASSIGN_OR_RETURN(http::Response response, Head(path));
  if (response.status == 404) return false;
  if (!response.ok()) return std::unexpected(StatusError("HEAD", path, response));
  return true;
}

Status S3FileIO::Put(const S3Path& path, std::string body, bool if_none_match) {
  Call call(http::Method::kPut, "PUT", path);
  call.body = std::move(body);
  call.headers.Set("Content-Type", std::string(kOctetStream));
  if (if_none_match) call.headers.Set("If-None-Match", "*");
  DATABOX_RETURN_IF_ERROR(SendOk(std::move(call)));
  return Ok();
}

Status S3FileIO::WriteNew(std::string_view location, std::string_view bytes) {
  DATABOX_ASSIGN_OR_RETURN(S3Path path, ParseS3Path(location));
  if (options_.conditional_create == ConditionalCreate::kIfNoneMatch &&
      !conditional_put_unsupported_.load()) {
    Call call(http::Method::kPut, "PUT (if absent)", path);
    call.body = std::string(bytes);
    call.headers.Set("Content-Type", std::string(kOctetStream));
    call.headers.Set("If-None-Match", "*");
    DATABOX_ASSIGN_OR_RETURN(http::Response response, Send(std::move(call)));
    if (response.ok()) return Ok();
    if (response.status != 501) {
      return std::unexpected(StatusError("PUT (if absent)", path, response));
    }
    conditional_put_unsupported_.store(true);  // the store does not do conditional writes
  }
  // HEAD-then-PUT: racy, see the header comment.
  DATABOX_ASSIGN_OR_RETURN(bool exists, Exists(location));
  if (exists) {
    return MakeError(ErrorKind::kAlreadyExists,
                     "'" + path.Location() +
                         "' already exists and must not be overwritten; write to a new location");
  }
  return Put(path, std::string(bytes), false);
}

Status S3FileIO::Write(std::string_view location, std::string_view bytes) {
  DATABOX_ASSIGN_OR_RETURN(S3Path path, ParseS3Path(location));
  return Put(path, std::string(bytes), false);
}

Result<TaggedObject> S3FileIO::ReadTagged(std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(S3Path path, ParseS3Path(location));
  DATABOX_ASSIGN_OR_RETURN(http::Response response, SendOk(Call(http::Method::kGet, "GET", path)));
  const std::optional<std::string_view> etag = response.headers.Get("ETag");
  if (!etag || etag->empty()) {
    return MakeError(ErrorKind::kData, RequestName("GET", path) +
                                           " answered without an ETag, which a conditional "
                                           "replace needs: use a store that sends ETags");
  }
  return TaggedObject{std::move(response.body), std::string(*etag)};
}

Status S3FileIO::ReplaceIfTag(std::string_view location, std::string_view bytes,
                              std::string_view tag) {
  DATABOX_ASSIGN_OR_RETURN(S3Path path, ParseS3Path(location));
  Call call(http::Method::kPut, "PUT (if unchanged)", path);
  call.body = std::string(bytes);
  call.headers.Set("Content-Type", std::string(kOctetStream));
  call.headers.Set("If-Match", std::string(tag));
  DATABOX_ASSIGN_OR_RETURN(http::Response response, Send(std::move(call)));
  if (response.ok()) return Ok();
  if (response.status == 412 || response.status == 404) {
    return MakeError(ErrorKind::kConflict, "'" + path.Location() +
                                               "' was changed or removed by another writer "
                                               "since it was read");
  }
  return std::unexpected(StatusError("PUT (if unchanged)", path, response));
}

Status S3FileIO::UploadFile(std::string_view local_path, std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(std::string source, LocalPathOf(local_path));
  DATABOX_ASSIGN_OR_RETURN(S3Path path, ParseS3Path(location));
  Fd fd(::open(source.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return LocalError("open", source, errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return LocalError("stat", source, errno);
  if (!S_ISREG(st.st_mode)) {
    return MakeError(ErrorKind::kData, "'" + source + "' is not a regular file");
  }
  const auto size = static_cast<uint64_t>(st.st_size);
  if (size < options_.multipart_threshold) {
    DATABOX_ASSIGN_OR_RETURN(std::string bytes, ReadAt(fd.get(), 0, size, source));
    return Put(path, std::move(bytes), false);
  }
  Status uploaded = UploadMultipart(path, fd.get(), size);
  if (!uploaded) return std::unexpected(uploaded.error().WithContext("uploading '" + source + "'"));
  return Ok();
}

Status S3FileIO::UploadMultipart(const S3Path& path, int fd, uint64_t size) {
  Call create(http::Method::kPost, "CreateMultipartUpload", path);
  create.query = {{"uploads", ""}};
  // A repeated create only leaves an unused upload behind (removed by lifecycle rules);
  // failing the whole upload on one 503 would be worse.
  create.idempotent = true;
  create.headers.Set("Content-Type", std::string(kOctetStream));
  DATABOX_ASSIGN_OR_RETURN(http::Response created, SendOk(std::move(create)));
  DATABOX_ASSIGN_OR_RETURN(std::string upload_id, ParseUploadId(created.body));

  const uint64_t part_size = std::max(options_.part_size, (size + kMaxParts - 1) / kMaxParts);
  std::vector<CompletedPart> parts;
  Status uploaded = UploadParts(path, upload_id, fd, size, part_size, parts);
  if (uploaded) {
    Call complete(http::Method::kPost, "CompleteMultipartUpload", path);
    complete.query = {{"uploadId", upload_id}};
    complete.body = CompleteMultipartUploadXml(parts);
    complete.headers.Set("Content-Type", "application/xml");
    Result<http::Response> completed = SendOk(std::move(complete));
    // S3 may answer 200 and still report an error in the body.
    if (completed) {
      if (std::optional<S3ErrorBody> error = ParseS3Error(completed->body)) {
        uploaded = MakeError(ErrorKind::kNetwork,
                             Redact(RequestName("CompleteMultipartUpload", path) + " failed (" +
                                    error->code + ": " + error->message + "); retry the upload"));
      } else {
        return Ok();
      }
    } else {
      uploaded = std::unexpected(completed.error());
    }
  }
  // Abort so no parts are billed or left behind; the first error is the one reported.
  Call abort(http::Method::kDelete, "AbortMultipartUpload", path);
  abort.query = {{"uploadId", upload_id}};
  Result<http::Response> aborted = Send(std::move(abort));
  std::string note = aborted && (aborted->ok() || aborted->status == 404)
                         ? " (the multipart upload was aborted)"
                         : " (aborting the multipart upload also failed; a bucket lifecycle rule "
                           "for incomplete uploads will remove its parts)";
  Error error = uploaded.error();
  error.message += note;
  return std::unexpected(error);
}

Status S3FileIO::UploadParts(const S3Path& path, const std::string& upload_id, int fd,
                             uint64_t size, uint64_t part_size, std::vector<CompletedPart>& parts) {
  const uint64_t count = (size + part_size - 1) / part_size;
  parts.assign(count, CompletedPart{});
  std::atomic<uint64_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::optional<Error> first_error;
  auto fail = [&](Error error) {
    std::lock_guard lock(error_mutex);
    if (!first_error) first_error = std::move(error);
    failed.store(true);
  };
  auto worker = [&] {
    while (!failed.load()) {
      const uint64_t index = next.fetch_add(1);
      if (index >= count) return;
      const uint64_t offset = index * part_size;
      Result<std::string> bytes =
          ReadAt(fd, offset, std::min(part_size, size - offset), path.Location());
      if (!bytes) return fail(bytes.error());
      const int number = static_cast<int>(index + 1);
      Call call(http::Method::kPut, "UploadPart", path);
      call.query = {{"partNumber", std::to_string(number)}, {"uploadId", upload_id}};
      call.body = std::move(*bytes);
      Result<http::Response> response = SendOk(std::move(call));
      if (!response) return fail(response.error());
      std::optional<std::string_view> etag = response->headers.Get("ETag");
      if (!etag || etag->empty()) {
        return fail(
            Error{ErrorKind::kData, RequestName("UploadPart " + std::to_string(number), path) +
                                        " returned no ETag; the store's response is malformed"});
      }
      parts[index] = CompletedPart{.number = number, .etag = std::string(*etag)};
    }
  };
  const auto threads = static_cast<std::size_t>(
      std::min<uint64_t>(count, static_cast<uint64_t>(options_.upload_parallelism)));
  {
    std::vector<std::jthread> pool;
    pool.reserve(threads);
    for (std::size_t i = 0; i < threads; ++i) pool.emplace_back(worker);
  }  // joins
  if (first_error) return std::unexpected(*first_error);
  return Ok();
}

Status S3FileIO::Delete(std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(S3Path path, ParseS3Path(location));
  // S3's DELETE succeeds for missing keys; FileIO promises kNotFound.
  DATABOX_ASSIGN_OR_RETURN(http::Response head, Head(path));
  if (!head.ok()) return std::unexpected(StatusError("HEAD", path, head));
  DATABOX_RETURN_IF_ERROR(SendOk(Call(http::Method::kDelete, "DELETE", path)));
  return Ok();
}

Result<std::vector<FileInfo>> S3FileIO::List(std::string_view prefix) {
  DATABOX_ASSIGN_OR_RETURN(S3Path path, ParseS3Path(prefix));
  // The request addresses the bucket; the key prefix travels in the query.
  S3Path bucket = path;
  bucket.key.clear();
  std::vector<FileInfo> out;
  std::string token;
  do {
    Call call(http::Method::kGet, "ListObjectsV2", bucket);
    call.query = {{"list-type", "2"}, {"prefix", path.key}};
    call.credentials_for = path.Location();
    if (!token.empty()) call.query.emplace_back("continuation-token", token);
    DATABOX_ASSIGN_OR_RETURN(http::Response response, SendOk(std::move(call)));
    Result<ListPage> page = ParseListObjectsV2(response.body);
    if (!page)
      return std::unexpected(
          page.error().WithContext("listing '" + path.Location() + "' at " + endpoint_.Origin()));
    for (ListedObject& object : page->objects) {
      out.push_back(FileInfo{.location = path.scheme + "://" + path.bucket + "/" + object.key,
                             .size = object.size,
                             .modified_ms = object.modified_ms});
    }
    token = page->truncated ? page->next_continuation_token : "";
  } while (!token.empty());
  std::ranges::sort(out, {}, &FileInfo::location);
  return out;
}

}  // namespace databox::fileio::s3
