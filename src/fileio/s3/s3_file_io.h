// S3FileIO: FileIO over an S3-compatible object store (AWS S3, SeaweedFS, ...), for s3://bucket/key
// (and s3a://) locations, with the same contract as LocalFileIO:
//
//  - Requests are signed with our SigV4 signer (sigv4.h) using credentials from a
//    CredentialsProvider asked before every request (so vended credentials refresh in time).
//  - Every request goes through http::HttpClient, whose RetryPolicy retries 429 and 5xx
//    (S3's SlowDown is a 503) with backoff; PUT/GET/HEAD/DELETE are idempotent and retried after
//    transport failures too. The client pool gives each concurrent caller its own client.
//  - WriteNew is a conditional create: PUT with "If-None-Match: *" (412 -> kAlreadyExists).
//    Stores that do not support it (ConditionalCreate::kHeadThenPut, or a store that answers the
//    conditional PUT with 501) get HEAD-then-PUT instead, which is NOT atomic: two writers that
//    both see "absent" both write, the last one wins. Use a store with conditional writes when
//    several writers may race (Iceberg metadata commits are also guarded by the catalog).
//  - Write and UploadFile replace atomically (S3 objects appear whole). UploadFile sends one PUT
//    below `multipart_threshold`, else a multipart upload whose parts go up in parallel on
//    `upload_parallelism` threads (memory: parallelism x part size); any failure aborts the
//    upload so no parts linger.
//  - ReplaceIfTag is a PUT with "If-Match: <ETag>" (412 -> kConflict): a store without it
//    ignores the header, so a pointer several writers move needs a store with conditional writes.
//  - Delete answers kNotFound for a missing object (HEAD first; S3's DELETE would succeed).
//  - List uses ListObjectsV2 with continuation tokens and returns locations in the form of the
//    prefix ("s3a://" stays "s3a://"), sorted.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "fileio/file_io.h"
#include "fileio/s3/credentials.h"
#include "fileio/s3/s3_url.h"
#include "fileio/s3/s3_xml.h"
#include "http/client.h"

namespace databox::fileio::s3 {

//! How WriteNew guarantees it never overwrites.
enum class ConditionalCreate {
  kIfNoneMatch,  //!< PUT with If-None-Match: * (atomic; AWS S3 since 2024, SeaweedFS, ...)
  kHeadThenPut,  //!< HEAD, then PUT when absent (racy; for stores without conditional writes)
};

struct S3Options {
  std::string endpoint;  //!< empty = AWS; else http(s)://host[:port]
  std::string region = "us-east-1";
  bool path_style = false;  //!< bucket in the path (most S3-compatible stores want this)
  //! Files at least this large are uploaded in parts.
  uint64_t multipart_threshold = uint64_t{32} << 20;
  //! Size of each part but the last (S3 requires >= 5 MiB; grown when a file would need more
  //! than 10,000 parts).
  uint64_t part_size = uint64_t{8} << 20;
  int upload_parallelism = 4;  //!< parts in flight at once
  ConditionalCreate conditional_create = ConditionalCreate::kIfNoneMatch;
  http::ClientOptions http;  //!< timeouts and the retry policy
  http::CurlOptions curl;    //!< TLS settings
  //! Time for x-amz-date; the system clock when null (tests fix it).
  std::function<std::chrono::system_clock::time_point()> clock;
};

class S3FileIO final : public FileIO {
 public:
  //! Makes the HTTP clients the pool hands out (one per concurrent request).
  using ClientFactory = std::function<Result<std::unique_ptr<http::HttpClient>>()>;

  //! Over libcurl. kConfig for a bad endpoint or options, or without credentials.
  static Result<std::unique_ptr<S3FileIO>> Make(S3Options options,
                                                std::shared_ptr<CredentialsProvider> credentials);
  //! Over clients from `factory` (tests use a fake transport).
  static Result<std::unique_ptr<S3FileIO>> Make(S3Options options,
                                                std::shared_ptr<CredentialsProvider> credentials,
                                                ClientFactory factory);

  Result<std::string> Read(std::string_view location) override;
  Result<std::string> ReadRange(std::string_view location, uint64_t offset,
                                uint64_t length) override;
  Result<uint64_t> Size(std::string_view location) override;
  Result<bool> Exists(std::string_view location) override;
  Status WriteNew(std::string_view location, std::string_view bytes) override;
  Status Write(std::string_view location, std::string_view bytes) override;
  //! GET, with the ETag the store sent as the tag.
  Result<TaggedObject> ReadTagged(std::string_view location) override;
  //! PUT with If-Match: the tag (412 -> kConflict).
  Status ReplaceIfTag(std::string_view location, std::string_view bytes,
                      std::string_view tag) override;
  Status UploadFile(std::string_view local_path, std::string_view location) override;
  Status Delete(std::string_view location) override;
  Result<std::vector<FileInfo>> List(std::string_view prefix) override;

 private:
  //! One S3 request before signing.
  struct Call {
    Call(http::Method m, std::string_view o, const S3Path& p) : method(m), op(o), path(&p) {}
    http::Method method;
    std::string_view op;  //!< for messages: "GET", "UploadPart", ...
    const S3Path* path;   //!< not owned
    std::vector<std::pair<std::string, std::string>> query;
    http::Headers headers;  //!< extra headers; all are signed
    std::string body;
    std::optional<bool> idempotent;  //!< see http::Request::idempotent
    //! The location whose credentials sign the request; empty = path->Location().
    std::string credentials_for;
  };

  S3FileIO(S3Options options, S3Endpoint endpoint, std::shared_ptr<CredentialsProvider> credentials,
           ClientFactory factory)
      : options_(std::move(options)),
        endpoint_(std::move(endpoint)),
        credentials_(std::move(credentials)),
        factory_(std::move(factory)) {}

  //! Signs and sends `call`; any HTTP status is a response (transport failures are errors).
  Result<http::Response> Send(Call call);
  //! "S3 <op> of '<location>' at <endpoint origin>", for messages (S3RequestName).
  std::string RequestName(std::string_view op, const S3Path& path) const;
  //! S3StatusError for `response` to `op` on `path` at this endpoint.
  Error StatusError(std::string_view op, const S3Path& path, const http::Response& response) const;
  //! Send, then S3StatusError for a non-2xx status.
  Result<http::Response> SendOk(Call call);
  Result<std::unique_ptr<http::HttpClient>> AcquireClient();
  void ReleaseClient(std::unique_ptr<http::HttpClient> client);

  Status Put(const S3Path& path, std::string body, bool if_none_match);
  Result<http::Response> Head(const S3Path& path);
  Status UploadMultipart(const S3Path& path, int fd, uint64_t size);
  Status UploadParts(const S3Path& path, const std::string& upload_id, int fd, uint64_t size,
                     uint64_t part_size, std::vector<CompletedPart>& parts);

  const S3Options options_;
  const S3Endpoint endpoint_;
  const std::shared_ptr<CredentialsProvider> credentials_;       //!< never null
  const ClientFactory factory_;                                  //!< never null
  std::mutex pool_mutex_;                                        //!< guards idle_clients_
  std::vector<std::unique_ptr<http::HttpClient>> idle_clients_;  //!< reused between requests
  //! Set once the store answered a conditional PUT with 501: WriteNew uses HEAD-then-PUT.
  std::atomic<bool> conditional_put_unsupported_{false};
};

}  // namespace databox::fileio::s3
