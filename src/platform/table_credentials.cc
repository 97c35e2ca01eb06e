#include "platform/table_credentials.h"

#include <algorithm>

namespace databox::platform {
namespace {

using fileio::s3::Credentials;

constexpr std::string_view kStaticKeysHint =
    "the registry has no static S3 keys ([project.warehouse.s3] access_key_id and "
    "secret_access_key, or DATABOX_AWS_ACCESS_KEY_ID and DATABOX_AWS_SECRET_ACCESS_KEY)";

//! s3a:// locations as s3:// (the catalog's prefixes and our locations may differ in this).
std::string Normalized(std::string_view location) {
  if (location.starts_with("s3a://")) return "s3://" + std::string(location.substr(6));
  return std::string(location);
}

std::optional<Credentials> FromVended(const catalog::rest::StorageCredential& vended) {
  auto value = [&](const char* key) {
    auto it = vended.config.find(key);
    return it == vended.config.end() ? std::string() : it->second;
  };
  Credentials credentials{.access_key_id = value("s3.access-key-id"),
                          .secret_access_key = value("s3.secret-access-key"),
                          .session_token = value("s3.session-token"),
                          .expiration = std::nullopt};
  if (credentials.access_key_id.empty() || credentials.secret_access_key.empty()) {
    return std::nullopt;
  }
  if (vended.expires_at_ms) {
    credentials.expiration =
        std::chrono::system_clock::time_point(std::chrono::milliseconds(*vended.expires_at_ms));
  }
  return credentials;
}

}  // namespace

TableCredentials::TableCredentials(std::shared_ptr<fileio::s3::CredentialsProvider> fallback,
                                   std::chrono::seconds refresh_before, Clock clock)
    : fallback_(std::move(fallback)),
      refresh_before_(refresh_before),
      clock_(clock ? std::move(clock) : Clock([] { return std::chrono::system_clock::now(); })) {}

void TableCredentials::SetReload(Reload reload) {
  std::lock_guard lock(mutex_);
  reload_ = std::move(reload);
}

void TableCredentials::Vended(const iceberg::TableIdentifier& table, const std::string& location,
                              const std::vector<catalog::rest::StorageCredential>& credentials) {
  std::vector<Entry> fresh;
  for (const auto& vended : credentials) {
    auto usable = FromVended(vended);
    if (!usable) continue;
    fileio::s3::RegisterCredentialSecrets(*usable);
    fresh.push_back(Entry{Normalized(vended.prefix), table, std::move(usable)});
  }
  if (fresh.empty()) fresh.push_back(Entry{Normalized(location), table, std::nullopt});
  std::lock_guard lock(mutex_);
  std::erase_if(entries_, [&](const Entry& entry) { return entry.table == table; });
  for (auto& entry : fresh) entries_.push_back(std::move(entry));
}

const TableCredentials::Entry* TableCredentials::Find(std::string_view location) const {
  const std::string normalized = Normalized(location);
  const Entry* best = nullptr;
  for (const auto& entry : entries_) {
    if (!normalized.starts_with(entry.prefix)) continue;
    if (best == nullptr || entry.prefix.size() > best->prefix.size()) best = &entry;
  }
  return best;
}

Result<Credentials> TableCredentials::Get() {
  if (fallback_ != nullptr) return fallback_->Get();
  return MakeError(ErrorKind::kConfig,
                   "no S3 credentials for the whole warehouse: " + std::string(kStaticKeysHint) +
                       "; the catalog vends credentials per table only");
}

Result<Credentials> TableCredentials::GetFor(std::string_view location) { return Fresh(location); }

Result<Credentials> TableCredentials::Fresh(std::string_view location) {
  std::unique_lock lock(mutex_);
  const Entry* entry = Find(location);
  if (entry == nullptr || !entry->credentials) {
    if (fallback_ != nullptr) {
      lock.unlock();
      return fallback_->Get();
    }
    if (entry == nullptr) {
      return MakeError(ErrorKind::kConfig, "no S3 credentials for " + std::string(location) +
                                               ": no table the catalog loaded covers it and " +
                                               std::string(kStaticKeysHint));
    }
    return MakeError(ErrorKind::kConfig, "no S3 credentials for table " + entry->table.ToString() +
                                             ": the catalog vended none for its location " +
                                             entry->prefix + " and " +
                                             std::string(kStaticKeysHint));
  }
  const auto now = clock_();
  const Credentials current = *entry->credentials;
  if (!current.expiration || now + refresh_before_ < *current.expiration) return current;
  const iceberg::TableIdentifier table = entry->table;
  const Reload reload = reload_;
  lock.unlock();
  Status reloaded =
      reload ? reload(table) : MakeError(ErrorKind::kAuth, "nothing can load the table again");
  lock.lock();
  entry = Find(location);
  if (entry != nullptr && entry->credentials &&
      (!entry->credentials->expiration || clock_() < *entry->credentials->expiration)) {
    return *entry->credentials;  // renewed, or (renewal failed) still valid for a while
  }
  std::string why = reloaded ? "the catalog vended no new ones" : reloaded.error().message;
  return MakeError(ErrorKind::kAuth, "the S3 credentials the catalog vended for table " +
                                         table.ToString() +
                                         " have expired and loading the table again did not "
                                         "renew them: " +
                                         why);
}

std::vector<std::pair<std::string, Credentials>> TableCredentials::Scoped() {
  std::vector<std::string> prefixes;
  {
    std::lock_guard lock(mutex_);
    for (const auto& entry : entries_) {
      if (entry.credentials) prefixes.push_back(entry.prefix);
    }
  }
  std::vector<std::pair<std::string, Credentials>> out;
  for (auto& prefix : prefixes) {
    auto credentials = Fresh(prefix);
    if (credentials) out.emplace_back(std::move(prefix), std::move(*credentials));
  }
  return out;
}

}  // namespace databox::platform
