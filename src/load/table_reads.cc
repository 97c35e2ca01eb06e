#include "load/table_reads.h"

#include <utility>

namespace databox::load {

Result<std::optional<iceberg::LoadedTable>> TableReads::Read(
    const iceberg::TableIdentifier& table) {
  std::lock_guard<std::mutex> guard(mutex_);
  const std::string key = table.ToString();
  if (auto it = read_.find(key); it != read_.end()) return it->second;
  auto loaded = catalog_.LoadTable(table);
  if (!loaded && loaded.error().kind != ErrorKind::kNotFound)
    return std::unexpected(loaded.error());
  std::optional<iceberg::LoadedTable> read;
  if (loaded) read = std::move(*loaded);
  return read_.emplace(key, std::move(read)).first->second;
}

void TableReads::Replace(const iceberg::TableIdentifier& table, iceberg::LoadedTable loaded) {
  std::lock_guard<std::mutex> guard(mutex_);
  read_[table.ToString()] = std::move(loaded);
}

}  // namespace databox::load
