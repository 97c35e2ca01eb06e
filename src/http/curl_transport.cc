#include "http/curl_transport.h"

#include <curl/curl.h>

#include <mutex>
#include <string_view>

#include "common/redact.h"

namespace databox::http {
namespace {

//! Where the callbacks of one transfer put what they receive.
struct Transfer {
  Response response;
  std::size_t max_body_bytes = 0;
  bool body_too_large = false;
};

std::size_t OnBody(char* data, std::size_t size, std::size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  std::size_t bytes = size * count;
  if (transfer->response.body.size() + bytes > transfer->max_body_bytes) {
    transfer->body_too_large = true;
    return 0;  // makes libcurl abort with CURLE_WRITE_ERROR
  }
  transfer->response.body.append(data, bytes);
  return bytes;
}

std::string_view TrimLine(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' ||
                           text.back() == '\n')) {
    text.remove_suffix(1);
  }
  return text;
}

std::size_t OnHeader(char* data, std::size_t size, std::size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  std::size_t bytes = size * count;
  std::string_view line = TrimLine(std::string_view(data, bytes));
  if (line.starts_with("HTTP/")) {
    // A new status line: an interim (1xx) response came before; keep only the headers of the
    // final response.
    transfer->response.headers = Headers();
    return bytes;
  }
  std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return bytes;
  transfer->response.headers.Add(std::string(TrimLine(line.substr(0, colon))),
                                 std::string(TrimLine(line.substr(colon + 1))));
  return bytes;
}

struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
using Slist = std::unique_ptr<curl_slist, SlistDeleter>;

Result<Slist> BuildHeaderList(const Headers& headers) {
  Slist list;
  auto append = [&](const std::string& line) -> Status {
    curl_slist* next = curl_slist_append(list.get(), line.c_str());
    if (next == nullptr) return MakeError(ErrorKind::kInternal, "out of memory building headers");
    static_cast<void>(list.release());
    list.reset(next);
    return Ok();
  };
  for (const auto& [name, value] : headers.fields()) {
    // "Name;" is libcurl's way to send a header with an empty value.
    DATABOX_RETURN_IF_ERROR(append(value.empty() ? name + ";" : name + ": " + value));
  }
  // Without this libcurl waits for "100 Continue" before sending large bodies.
  if (!headers.Contains("Expect")) DATABOX_RETURN_IF_ERROR(append("Expect:"));
  return list;
}

Error TransferError(CURLcode code, const char* detail, const Transfer& transfer,
                    const AttemptLimits& limits) {
  if (transfer.body_too_large || code == CURLE_FILESIZE_EXCEEDED) {
    return ResponseTooLargeError(limits.max_response_bytes);
  }
  std::string reason = curl_easy_strerror(code);
  if (detail[0] != '\0') reason += " (" + std::string(detail) + ")";
  reason = Redact(reason);
  switch (code) {
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL:
      return Error{ErrorKind::kConfig, "invalid URL: " + reason};
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM:
      return Error{ErrorKind::kConfig,
                   "TLS verification failed: " + reason + "; check the CA bundle or the server"};
    case CURLE_OPERATION_TIMEDOUT:
      return Error{ErrorKind::kNetwork,
                   "timed out (limit " + std::to_string(limits.timeout.count()) +
                       " ms, connect limit " + std::to_string(limits.connect_timeout.count()) +
                       " ms): " + reason};
    default:
      return Error{ErrorKind::kNetwork, reason};
  }
}

}  // namespace

Result<std::unique_ptr<CurlTransport>> CurlTransport::Make(CurlOptions options) {
  static std::once_flag init_once;
  static CURLcode init_code = CURLE_OK;
  std::call_once(init_once, [] { init_code = curl_global_init(CURL_GLOBAL_DEFAULT); });
  if (init_code != CURLE_OK) {
    return MakeError(ErrorKind::kInternal, std::string("libcurl initialisation failed: ") +
                                               curl_easy_strerror(init_code));
  }
  CURL* handle = curl_easy_init();
  if (handle == nullptr) {
    return MakeError(ErrorKind::kInternal, "libcurl could not create a transfer handle");
  }
  return std::unique_ptr<CurlTransport>(new CurlTransport(handle, std::move(options)));
}

CurlTransport::~CurlTransport() { curl_easy_cleanup(static_cast<CURL*>(handle_)); }

Result<Response> CurlTransport::Send(const Request& request, const AttemptLimits& limits) {
  CURL* curl = static_cast<CURL*>(handle_);
  // Reset clears options but keeps the connection, DNS and TLS session caches.
  curl_easy_reset(curl);
  DATABOX_ASSIGN_OR_RETURN(Slist header_list, BuildHeaderList(request.headers));
  Transfer transfer;
  transfer.max_body_bytes = limits.max_response_bytes;
  char error_detail[CURL_ERROR_SIZE] = {0};

  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_detail);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, header_list.get());
  if (request.decode_content) {
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // every encoding libcurl can decode
  } else {
    curl_easy_setopt(curl, CURLOPT_HTTP_CONTENT_DECODING, 0L);
  }
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(limits.timeout.count()));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(limits.connect_timeout.count()));
  curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE,
                   static_cast<curl_off_t>(limits.max_response_bytes));
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, options_.verify_tls ? 1L : 0L);
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, options_.verify_tls ? 2L : 0L);
  if (!options_.ca_bundle.empty())
    curl_easy_setopt(curl, CURLOPT_CAINFO, options_.ca_bundle.c_str());
  curl_easy_setopt(curl, CURLOPT_USERAGENT, options_.user_agent.c_str());
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);

  switch (request.method) {
    case Method::kGet:
      curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
      break;
    case Method::kHead:
      curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
      break;
    case Method::kPost:
    case Method::kPut:
    case Method::kPatch:
      // POSTFIELDS sends the body with a Content-Length, also when it is empty.
      curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, MethodName(request.method).data());
      curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                       static_cast<curl_off_t>(request.body.size()));
      curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
      break;
    case Method::kDelete:
      curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, "DELETE");
      if (!request.body.empty()) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                         static_cast<curl_off_t>(request.body.size()));
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
      }
      break;
  }

  CURLcode code = curl_easy_perform(curl);
  // The handle must not keep pointers into this frame's buffers.
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, nullptr);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, nullptr);
  if (code != CURLE_OK) return std::unexpected(TransferError(code, error_detail, transfer, limits));
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &transfer.response.status);
  return std::move(transfer.response);
}

}  // namespace databox::http
