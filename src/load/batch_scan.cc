#include "load/batch_scan.h"

#include "load/chunk_fill.h"

namespace databox::load {

void BufferedTable::Add(normalize::TableBatch batch) {
  rows_ += static_cast<int64_t>(batch.num_rows);
  if (batch.schema.columns.size() > schema_.columns.size() || batches_.empty()) {
    schema_ = batch.schema;
    names_.clear();
    for (const normalize::Column& column : schema_.columns) names_.push_back(column.name);
    types_ = ChunkTypesFor(schema_);
  }
  batches_.push_back(std::move(batch));
}

Status BufferedTable::Fill(std::size_t part, uint64_t begin, uint64_t count,
                           duck::DataChunk& chunk) const {
  return FillChunk(batches_[part], begin, count, chunk);
}

}  // namespace databox::load
