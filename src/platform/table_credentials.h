// S3 credentials per table location: what a REST catalog vended with each table's load or
// create (catalog::rest::StorageCredential), picked by the longest prefix of the location an
// S3 request is for, with the registry's static keys (if any) as the fallback. Credentials
// with an expiry are renewed by loading their table again shortly before they lapse.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/rest/storage_credentials.h"
#include "common/error.h"
#include "fileio/s3/credentials.h"
#include "iceberg/commit/catalog.h"

namespace databox::platform {

class TableCredentials final : public fileio::s3::CredentialsProvider {
 public:
  //! Loads the table from the catalog again, which reports fresh credentials through Vended.
  using Reload = std::function<Status(const iceberg::TableIdentifier& table)>;
  using Clock = std::function<std::chrono::system_clock::time_point()>;

  //! `fallback` (the registry's static keys) may be null. Credentials are renewed once less
  //! than `refresh_before` remains. `clock` defaults to the system clock.
  explicit TableCredentials(std::shared_ptr<fileio::s3::CredentialsProvider> fallback,
                            std::chrono::seconds refresh_before = std::chrono::minutes(5),
                            Clock clock = nullptr);

  //! Set once, before the first request (the catalog is opened after storage).
  void SetReload(Reload reload);
  //! What the catalog vended with `table` at `location` (replaces what it vended before; an
  //! empty list records that it vended nothing, so errors can name the table).
  void Vended(const iceberg::TableIdentifier& table, const std::string& location,
              const std::vector<catalog::rest::StorageCredential>& credentials);

  //! The static keys; kConfig when there are none.
  Result<fileio::s3::Credentials> Get() override;
  //! The vended credentials with the longest prefix of `location` (renewed first when about
  //! to expire), else the static keys; kConfig naming the table when neither exists.
  Result<fileio::s3::Credentials> GetFor(std::string_view location) override;

  //! Whether static keys are configured.
  bool HasFallback() const { return fallback_ != nullptr; }
  //! Every vended credential by its prefix (for DuckDB secrets scoped to table locations),
  //! renewed first when about to expire; credentials that cannot be renewed are left out.
  std::vector<std::pair<std::string, fileio::s3::Credentials>> Scoped();

 private:
  struct Entry {
    std::string prefix;  //!< "s3://bucket/path", s3a:// written as s3://
    iceberg::TableIdentifier table;
    std::optional<fileio::s3::Credentials> credentials;  //!< none: the catalog vended nothing
  };

  //! The entry with the longest prefix of `location`, or null. Caller holds mutex_.
  const Entry* Find(std::string_view location) const;
  //! The entry's credentials, renewed through Reload when about to expire.
  Result<fileio::s3::Credentials> Fresh(std::string_view location);

  const std::shared_ptr<fileio::s3::CredentialsProvider> fallback_;  //!< may be null
  const std::chrono::seconds refresh_before_;
  const Clock clock_;  //!< never null
  Reload reload_;      //!< set once before use
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
};

}  // namespace databox::platform
