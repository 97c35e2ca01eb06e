#include "fileio/s3/credentials.h"

#include <cstdlib>

#include "common/redact.h"

namespace databox::fileio::s3 {

void RegisterCredentialSecrets(const Credentials& credentials) {
  RegisterSecret(credentials.access_key_id);
  RegisterSecret(credentials.secret_access_key);
  RegisterSecret(credentials.session_token);
}

Result<std::unique_ptr<StaticCredentialsProvider>> StaticCredentialsProvider::Make(
    Credentials credentials) {
  if (credentials.access_key_id.empty() || credentials.secret_access_key.empty()) {
    return MakeError(ErrorKind::kConfig,
                     "S3 credentials need both an access key id and a secret access key; set "
                     "them in the registry's [warehouse.s3] or in DATABOX_AWS_ACCESS_KEY_ID and "
                     "DATABOX_AWS_SECRET_ACCESS_KEY");
  }
  RegisterCredentialSecrets(credentials);
  return std::unique_ptr<StaticCredentialsProvider>(
      new StaticCredentialsProvider(std::move(credentials)));
}

RefreshingCredentialsProvider::RefreshingCredentialsProvider(Fetch fetch,
                                                             std::chrono::seconds refresh_before,
                                                             Clock clock)
    : fetch_(std::move(fetch)),
      refresh_before_(refresh_before),
      clock_(clock ? std::move(clock) : Clock([] { return std::chrono::system_clock::now(); })) {}

void RefreshingCredentialsProvider::Update(Credentials credentials) {
  RegisterCredentialSecrets(credentials);
  std::lock_guard lock(mutex_);
  cached_ = std::move(credentials);
}

Result<Credentials> RefreshingCredentialsProvider::Get() {
  std::lock_guard lock(mutex_);
  const auto now = clock_();
  auto fresh = [&](const Credentials& c) {
    return !c.expiration || now + refresh_before_ < *c.expiration;
  };
  auto usable = [&](const Credentials& c) { return !c.expiration || now < *c.expiration; };
  if (cached_ && fresh(*cached_)) return *cached_;
  if (!fetch_) {
    if (cached_ && usable(*cached_)) return *cached_;
    return MakeError(ErrorKind::kAuth,
                     "S3 credentials have expired (or were never supplied) and nothing can "
                     "refresh them; reload the table from the catalog to get new ones");
  }
  Result<Credentials> fetched = fetch_();
  if (!fetched) {
    if (cached_ && usable(*cached_)) return *cached_;
    return std::unexpected(fetched.error().WithContext("refreshing S3 credentials"));
  }
  RegisterCredentialSecrets(*fetched);
  cached_ = std::move(*fetched);
  return *cached_;
}

std::optional<std::string> GetEnv(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

Result<Credentials> CredentialsFromEnv(const EnvLookup& env) {
  Credentials credentials;
  credentials.access_key_id = env("DATABOX_AWS_ACCESS_KEY_ID").value_or("");
  credentials.secret_access_key = env("DATABOX_AWS_SECRET_ACCESS_KEY").value_or("");
  credentials.session_token = env("DATABOX_AWS_SESSION_TOKEN").value_or("");
  if (credentials.access_key_id.empty()) {
    return MakeError(ErrorKind::kConfig,
                     "DATABOX_AWS_ACCESS_KEY_ID is not set; set it (and "
                     "DATABOX_AWS_SECRET_ACCESS_KEY) or configure S3 credentials in the registry");
  }
  if (credentials.secret_access_key.empty()) {
    return MakeError(ErrorKind::kConfig,
                     "DATABOX_AWS_SECRET_ACCESS_KEY is not set but DATABOX_AWS_ACCESS_KEY_ID is; "
                     "set both");
  }
  RegisterCredentialSecrets(credentials);
  return credentials;
}

}  // namespace databox::fileio::s3
