// One project-wide error type. Every fallible function returns Result<T>.
#pragma once

#include <expected>
#include <string>
#include <string_view>
#include <utility>

namespace databox {

//! What kind of failure this is; callers branch on it (retry, reconcile, report).
enum class ErrorKind {
  kConfig,              //!< bad registry, bad arguments, missing secret
  kNetwork,             //!< transport failure, timeout, 5xx after retries
  kAuth,                //!< rejected credentials
  kConflict,            //!< optimistic-concurrency conflict: refresh and retry
  kCommitStateUnknown,  //!< the commit may or may not have landed: reconcile, never clean up
  kData,                //!< input that cannot be read or loaded
  kNotFound,            //!< a table, namespace, file or key that does not exist
  kAlreadyExists,       //!< create of something that exists
  kIo,                  //!< local file system failure
  kInternal,            //!< a bug or an invariant that did not hold
};

//! Name of the kind, as printed in messages ("config", "network", ...).
std::string_view ErrorKindName(ErrorKind kind);

//! An error: a kind and a message that says what failed, where, and what to do.
//! Messages must never contain secrets (see common/redact.h).
struct Error {
  ErrorKind kind = ErrorKind::kInternal;
  std::string message;

  //! "kind: message".
  std::string ToString() const;
  //! A copy whose message is prefixed with context ("loading raw_x.t: ...").
  Error WithContext(std::string_view context) const;
};

template <typename T>
using Result = std::expected<T, Error>;
using Status = std::expected<void, Error>;

inline std::unexpected<Error> MakeError(ErrorKind kind, std::string message) {
  return std::unexpected(Error{kind, std::move(message)});
}

//! The success value of a Status-returning function.
inline Status Ok() { return {}; }

}  // namespace databox

//! Propagate an error from an expression returning Result/Status.
#define DATABOX_RETURN_IF_ERROR(expr)                              \
  do {                                                             \
    if (auto databox_status_ = (expr); !databox_status_) {         \
      return std::unexpected(std::move(databox_status_).error()); \
    }                                                              \
  } while (false)

#define DATABOX_CONCAT_INNER_(a, b) a##b
#define DATABOX_CONCAT_(a, b) DATABOX_CONCAT_INNER_(a, b)

//! `DATABOX_ASSIGN_OR_RETURN(auto x, Compute());`
#define DATABOX_ASSIGN_OR_RETURN(lhs, expr)                                                  \
  auto DATABOX_CONCAT_(databox_result_, __LINE__) = (expr);                                 \
  if (!DATABOX_CONCAT_(databox_result_, __LINE__)) {                                        \
    return std::unexpected(std::move(DATABOX_CONCAT_(databox_result_, __LINE__)).error()); \
  }                                                                                          \
  lhs = std::move(*DATABOX_CONCAT_(databox_result_, __LINE__))
