// The HTTP request and response values shared by the client and its transports.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/error.h"

namespace databox::http {

enum class Method { kGet, kHead, kPost, kPut, kPatch, kDelete };

//! "GET", "POST", ...
std::string_view MethodName(Method method);
//! Inverse of MethodName (case-insensitive); kData error for anything else.
Result<Method> ParseMethod(std::string_view name);
//! GET, HEAD, PUT and DELETE may be repeated without changing the outcome.
bool IsIdempotent(Method method);

//! Header fields in arrival order; names compare case-insensitively, duplicates are kept.
class Headers {
 public:
  Headers() = default;
  Headers(std::initializer_list<std::pair<std::string, std::string>> fields);

  //! Appends a field (keeps existing fields of the same name).
  void Add(std::string name, std::string value);
  //! Replaces every field named `name` by one field.
  void Set(std::string name, std::string value);
  //! Removes every field named `name`.
  void Remove(std::string_view name);
  //! The first value of `name`, if present.
  std::optional<std::string_view> Get(std::string_view name) const;
  //! Every value of `name`, in order.
  std::vector<std::string_view> GetAll(std::string_view name) const;
  bool Contains(std::string_view name) const { return Get(name).has_value(); }

  const std::vector<std::pair<std::string, std::string>>& fields() const { return fields_; }
  bool empty() const { return fields_.empty(); }

 private:
  std::vector<std::pair<std::string, std::string>> fields_;  //!< (name, value) as given
};

struct Request {
  Method method = Method::kGet;
  std::string url;
  Headers headers;
  std::string body;
  //! Whole-transfer limit for one attempt; the client's default when unset.
  std::optional<std::chrono::milliseconds> timeout;
  //! Limit for establishing the connection; the client's default when unset.
  std::optional<std::chrono::milliseconds> connect_timeout;
  //! Largest decoded body accepted; the client's default when unset.
  std::optional<std::size_t> max_response_bytes;
  //! Whether the request may be resent after a 5xx or transport failure; derived from the
  //! method when unset (POST and PATCH are only resent after 429). Set true for requests
  //! that are safe to repeat, such as an OAuth token request.
  std::optional<bool> idempotent;
  //! Return non-2xx responses as values instead of errors (after retries of 429/5xx).
  bool allow_error_status = false;
  //! Whether a Content-Encoding the server declares is decoded (and one is asked for). Object
  //! storage sets false: an object's Content-Encoding is metadata stored with it (SeaweedFS
  //! returns `aws-chunked` for objects uploaded that way), and its bytes are the object.
  bool decode_content = true;
};

struct Response {
  long status = 0;
  Headers headers;
  std::string body;

  bool ok() const { return status >= 200 && status < 300; }
};

}  // namespace databox::http
