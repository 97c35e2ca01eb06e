// InMemoryCatalog: a Catalog whose table pointers live in memory while its metadata files are
// real files written through a FileIO, as iceberg-cpp's in-memory catalog. It serves the iceberg
// module's own tests (table operations, commits, maintenance) without a catalog implementation
// from catalog/, and keeps the same contract as the real ones: requirements checked against the
// current metadata, one new metadata file per commit, a transaction that lands whole or not at
// all, kConflict when another commit moved a table first.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "fileio/file_io.h"
#include "iceberg/commit/catalog.h"

namespace databox::iceberg {

class InMemoryCatalog final : public Catalog {
 public:
  //! Tables without an explicit location go to <warehouse>/<namespace levels>/<table>.
  InMemoryCatalog(std::string name, std::string warehouse, std::shared_ptr<fileio::FileIO> io);

  std::string_view Name() const override { return name_; }

  Status CreateNamespace(const Namespace& ns, const Properties& properties) override;
  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override;
  Result<bool> NamespaceExists(const Namespace& ns) override;
  Result<Properties> LoadNamespaceProperties(const Namespace& ns) override;
  Status UpdateNamespaceProperties(const Namespace& ns, std::span<const std::string> removals,
                                   const Properties& updates) override;
  Status DropNamespace(const Namespace& ns) override;

  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override;
  Result<bool> TableExists(const TableIdentifier& table) override;
  Result<LoadedTable> LoadTable(const TableIdentifier& table) override;
  Result<LoadedTable> CreateTable(const TableIdentifier& table, const Schema& schema,
                                  const PartitionSpec& spec, const SortOrder& sort_order,
                                  const Properties& properties,
                                  std::optional<std::string> location) override;
  Result<LoadedTable> CommitTable(const TableCommit& commit) override;
  Result<std::vector<LoadedTable>> CommitTransaction(std::span<const TableCommit> commits) override;
  Status DropTable(const TableIdentifier& table) override;
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override;
  Result<LoadedTable> RegisterTable(const TableIdentifier& table,
                                    std::string_view metadata_location) override;
  //! NewTableMetadata at the default location.
  Result<TableMetadata> PrepareCreateTable(const TableIdentifier& table, const Schema& schema,
                                           const PartitionSpec& spec, const SortOrder& sort_order,
                                           const Properties& properties) override;
  //! True: a transaction may create tables, unless RefuseCreatesInTransactions was called and a
  //! transaction that creates one was refused since.
  bool TransactionsCreateTables() const override { return !refused_creates_.load(); }
  //! From now on behaves like a REST server that cannot create tables inside a transaction (the
  //! reference adapter): such a transaction is refused (kNotFound, nothing applied) and
  //! TransactionsCreateTables() turns false, as RestCatalog's does.
  void RefuseCreatesInTransactions() { refuse_creates_ = true; }

 private:
  //! A planned commit: the table's pointer before and after.
  struct Staged {
    TableIdentifier table;
    std::optional<std::string> base_location;  //!< nullopt: the commit creates the table
    LoadedTable result;
  };

  //! Checks the requirements and writes the next metadata file; the pointer is not moved yet.
  //! Called with mutex_ held.
  Result<Staged> Stage(const TableCommit& commit);
  //! kNotFound unless `ns` exists. Called with mutex_ held.
  Status RequireNamespace(const Namespace& ns) const;
  std::string DefaultTableLocation(const TableIdentifier& table) const;

  const std::string name_;
  const std::string warehouse_;
  const std::shared_ptr<fileio::FileIO> io_;
  mutable std::mutex mutex_;                       //!< guards everything below
  std::map<Namespace, Properties> namespaces_;     //!< every namespace and its properties
  std::map<TableIdentifier, LoadedTable> tables_;  //!< current pointer and parsed metadata
  std::atomic<bool> refuse_creates_{false};        //!< see RefuseCreatesInTransactions
  std::atomic<bool> refused_creates_{false};       //!< a creating transaction was refused
};

}  // namespace databox::iceberg
