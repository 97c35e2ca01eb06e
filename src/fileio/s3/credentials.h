// AWS credentials for S3 signing: fixed ones (settings, environment) or vended ones with an
// expiry (supplied by the catalog), refreshed shortly before they expire.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.h"

namespace databox::fileio::s3 {

//! One set of credentials. Values are secrets: never print them.
struct Credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  //!< empty for long-term keys; sent as x-amz-security-token
  //! When the credentials stop working (vended credentials); nullopt = no expiry.
  std::optional<std::chrono::system_clock::time_point> expiration;
};

//! Registers the key id, secret and token with the process redactor (common/redact.h).
void RegisterCredentialSecrets(const Credentials& credentials);

//! Where S3FileIO gets credentials before each request. Implementations are thread-safe.
class CredentialsProvider {
 public:
  virtual ~CredentialsProvider() = default;
  //! Credentials valid now; kAuth/kConfig when none can be had.
  virtual Result<Credentials> Get() = 0;
  //! Credentials for a request on `location` ("s3://bucket/key", or the listed prefix): a
  //! provider holding per-table credentials a catalog vended picks them by location. Get()
  //! unless overridden.
  virtual Result<Credentials> GetFor(std::string_view location) {
    (void)location;
    return Get();
  }
};

//! Fixed credentials.
class StaticCredentialsProvider final : public CredentialsProvider {
 public:
  //! kConfig when the key id or the secret is empty. Registers the values with the redactor.
  static Result<std::unique_ptr<StaticCredentialsProvider>> Make(Credentials credentials);
  Result<Credentials> Get() override { return credentials_; }

 private:
  explicit StaticCredentialsProvider(Credentials credentials)
      : credentials_(std::move(credentials)) {}
  const Credentials credentials_;  //!< immutable, so Get needs no lock
};

//! Expiring credentials: fetched on first use, and fetched again once less than
//! `refresh_before` remains before their expiration (the refresh-before-expiry hook), so a
//! request never starts with credentials about to lapse. The catalog may also push fresh ones
//! with Update (e.g. from a loadTable response's vended "s3.*" config).
class RefreshingCredentialsProvider final : public CredentialsProvider {
 public:
  using Fetch = std::function<Result<Credentials>()>;
  using Clock = std::function<std::chrono::system_clock::time_point()>;

  //! `fetch` may be null when credentials only arrive through Update. `clock` defaults to the
  //! system clock.
  RefreshingCredentialsProvider(Fetch fetch, std::chrono::seconds refresh_before,
                                Clock clock = nullptr);

  //! Replaces the cached credentials (registers them with the redactor).
  void Update(Credentials credentials);
  //! The cached credentials while fresh; otherwise fetches. When a refresh fails but the cached
  //! credentials have not yet expired, they are used (the next call tries again); once expired,
  //! the fetch error is returned (kAuth when there is no fetch at all).
  Result<Credentials> Get() override;

 private:
  Fetch fetch_;                          //!< may be null
  std::chrono::seconds refresh_before_;  //!< refresh when less than this remains
  Clock clock_;                          //!< never null
  std::mutex mutex_;                     //!< guards cached_ and serialises fetches
  std::optional<Credentials> cached_;    //!< the last credentials obtained
};

//! Looks up environment variables (a seam for tests); returns nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(const char* name)>;
//! std::getenv as an EnvLookup.
std::optional<std::string> GetEnv(const char* name);

//! Credentials from DATABOX_AWS_ACCESS_KEY_ID, DATABOX_AWS_SECRET_ACCESS_KEY and (optional)
//! DATABOX_AWS_SESSION_TOKEN; kConfig naming the missing variable when the pair is incomplete.
Result<Credentials> CredentialsFromEnv(const EnvLookup& env = GetEnv);

}  // namespace databox::fileio::s3
