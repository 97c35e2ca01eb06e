// How Iceberg REST responses become databox errors. The spec's error body is
// {"error": {"message", "type", "code"}}; messages are redacted before they enter an Error.
#pragma once

#include <string_view>

#include "common/error.h"
#include "http/message.h"

namespace databox::catalog::rest {

//! What the request did: decides what a 409 or a 5xx means.
enum class RestOp {
  kRead,    //!< GET/HEAD: 409 cannot happen, 5xx is kNetwork
  kCreate,  //!< create namespace/table, register, rename: 409 is kAlreadyExists
  kDrop,    //!< drop namespace: 409 is kConflict (not empty)
  kUpdate,  //!< namespace properties: 409 is kConflict
  kCommit,  //!< table or transaction commit: 409 is kConflict, 5xx is kCommitStateUnknown
};

//! The error for a non-2xx response. `what` names the operation and object
//! ("committing raw_x.t"). 404 kNotFound, 401/403 kAuth, 409 per RestOp, 5xx kNetwork (or
//! kCommitStateUnknown for kCommit), 429 kNetwork, 400 on a commit that reports a failed
//! requirement or a concurrent change kConflict (Polaris <= 1.7.0 answers some lost races
//! with 400), 405/406/501 kConfig (the server lacks the endpoint), other 4xx kData.
Error ErrorFromResponse(const http::Response& response, RestOp op, std::string_view what);

//! The error for a request that got no response (the HttpClient's error). On a commit a
//! transport failure or timeout is kCommitStateUnknown: the server may have applied it.
Error ErrorFromTransport(const Error& error, RestOp op, std::string_view what);

//! True when a 400's error type or message says a requirement failed or another commit won:
//! CommitFailedException/RetryableValidationException types, "Requirement failed",
//! "older than last sequence number", "concurrent", "conflict".
bool LooksLikeCommitConflict(std::string_view type, std::string_view message);

}  // namespace databox::catalog::rest
