#include "catalog/rest/rest_error.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "common/ascii.h"
#include "common/redact.h"

namespace databox::catalog::rest {
namespace {

//! Longest server message quoted in an error.
constexpr std::size_t kMaxQuotedMessage = 500;

bool Contains(std::string_view haystack, std::string_view needle) {
  return AsciiLower(haystack).find(AsciiLower(needle)) != std::string::npos;
}

struct ServerError {
  std::string type;
  std::string message;
};

//! The spec's error model, or the raw body when the server sent something else.
ServerError ParseServerError(std::string_view body) {
  ServerError out;
  auto parsed = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_object() && parsed.contains("error") && parsed["error"].is_object()) {
    const auto& error = parsed["error"];
    out.type = error.value("type", "");
    out.message = error.value("message", "");
  } else if (parsed.is_object() && parsed.contains("error") && parsed["error"].is_string()) {
    // OAuth2 token endpoint errors: {"error": "invalid_client", "error_description": ...}.
    out.type = parsed["error"].get<std::string>();
    out.message = parsed.value("error_description", "");
  } else {
    out.message = std::string(body);
  }
  if (out.message.size() > kMaxQuotedMessage) {
    out.message = out.message.substr(0, kMaxQuotedMessage) + "...";
  }
  return out;
}

}  // namespace

bool LooksLikeCommitConflict(std::string_view type, std::string_view message) {
  if (type == "CommitFailedException" || type == "RetryableValidationException" ||
      type == "CommitConflictException") {
    return true;
  }
  return Contains(message, "requirement failed") ||
         Contains(message, "older than last sequence number") || Contains(message, "concurrent") ||
         Contains(message, "conflict");
}

Error ErrorFromResponse(const http::Response& response, RestOp op, std::string_view what) {
  const ServerError server = ParseServerError(response.body);
  std::string detail = "HTTP " + std::to_string(response.status);
  if (!server.type.empty()) detail += " " + server.type;
  if (!server.message.empty()) detail += ": " + server.message;
  const std::string text = Redact(std::string(what) + " failed (" + detail + ")");
  const long status = response.status;

  if (status == 404) {
    return Error{ErrorKind::kNotFound, text + "; check the namespace and table names"};
  }
  if (status == 401 || status == 403) {
    return Error{ErrorKind::kAuth, text +
                                       "; check the catalog credential, scope and the "
                                       "principal's grants on this catalog"};
  }
  if (status == 409) {
    switch (op) {
      case RestOp::kCreate:
        return Error{ErrorKind::kAlreadyExists, text};
      case RestOp::kCommit:
        return Error{ErrorKind::kConflict, text + "; reload the table, re-plan and retry"};
      case RestOp::kDrop:
      case RestOp::kUpdate:
      case RestOp::kRead:
        return Error{ErrorKind::kConflict, text};
    }
  }
  if (status >= 500) {
    if (op == RestOp::kCommit) {
      return Error{ErrorKind::kCommitStateUnknown,
                   text +
                       "; the commit may have been applied: reconcile before retrying and "
                       "keep the written files"};
    }
    return Error{ErrorKind::kNetwork, text + "; the catalog server failed, retry later"};
  }
  if (status == 429) {
    return Error{ErrorKind::kNetwork, text + "; the catalog is rate limiting, retry later"};
  }
  if (status == 400 && op == RestOp::kCommit &&
      LooksLikeCommitConflict(server.type, server.message)) {
    return Error{ErrorKind::kConflict,
                 text + "; treated as a conflict (a lost race): reload, re-plan and retry"};
  }
  if (status == 405 || status == 406 || status == 501) {
    return Error{ErrorKind::kConfig, text + "; the catalog server does not support this operation"};
  }
  return Error{ErrorKind::kData, text};
}

Error ErrorFromTransport(const Error& error, RestOp op, std::string_view what) {
  const std::string text = Redact(std::string(what) + " failed: " + error.message);
  if (op == RestOp::kCommit &&
      (error.kind == ErrorKind::kNetwork || error.kind == ErrorKind::kData)) {
    // kData here is a response over the size cap: the server answered, so it may have applied.
    return Error{ErrorKind::kCommitStateUnknown,
                 text +
                     "; no answer from the catalog: the commit may have been applied, "
                     "reconcile before retrying and keep the written files"};
  }
  return Error{error.kind, text};
}

}  // namespace databox::catalog::rest
