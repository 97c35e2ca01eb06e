// Normalized batches of one table kept in memory and scanned by DuckDB directly (a
// duck::ChunkSource): a Parquet COPY reads them with no staging table in between. For loads
// that need no SQL over the staged rows (no merge, no transform).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "duck/chunk_scan.h"
#include "normalize/column_batch.h"
#include "normalize/table_schema.h"

namespace databox::load {

class BufferedTable final : public duck::ChunkSource {
 public:
  //! Takes a batch of the table. Its schema must extend the schemas seen so far (columns are
  //! only ever added at the end, as the normalizer guarantees); rows of earlier batches read
  //! NULL in the added columns.
  void Add(normalize::TableBatch batch);

  //! The latest schema seen.
  const normalize::TableSchema& schema() const { return schema_; }
  int64_t rows() const { return rows_; }

  const std::vector<std::string>& column_names() const override { return names_; }
  const std::vector<duckdb_type>& column_types() const override { return types_; }
  std::size_t part_count() const override { return batches_.size(); }
  uint64_t part_rows(std::size_t part) const override { return batches_[part].num_rows; }
  Status Fill(std::size_t part, uint64_t begin, uint64_t count,
              duck::DataChunk& chunk) const override;

 private:
  normalize::TableSchema schema_;
  std::vector<normalize::TableBatch> batches_;
  std::vector<std::string> names_;
  std::vector<duckdb_type> types_;
  int64_t rows_ = 0;
};

}  // namespace databox::load
