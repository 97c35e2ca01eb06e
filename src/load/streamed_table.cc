#include "load/streamed_table.h"

#include <algorithm>

#include "load/chunk_fill.h"

namespace databox::load {

StreamedTable::StreamedTable(normalize::TableSchema schema, std::size_t capacity,
                             std::size_t scan_threads)
    : schema_(std::move(schema)),
      capacity_(std::max<std::size_t>(1, capacity)),
      scan_threads_(std::max<std::size_t>(1, scan_threads)) {
  for (const normalize::Column& column : schema_.columns) names_.push_back(column.name);
  types_ = ChunkTypesFor(schema_);
}

Status StreamedTable::Push(normalize::TableBatch batch) {
  if (batch.schema.columns.size() > schema_.columns.size()) {
    return MakeError(ErrorKind::kInternal,
                     "table " + schema_.name + " gained columns after its scan started (" +
                         std::to_string(batch.schema.columns.size()) + " columns, the scan has " +
                         std::to_string(schema_.columns.size()) + ")");
  }
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return cancelled_ || batches_.size() - taken_ < capacity_; });
  if (cancelled_ || closed_) {
    return MakeError(ErrorKind::kInternal,
                     "the query reading table " + schema_.name + " ended before its input did");
  }
  rows_ += static_cast<int64_t>(batch.num_rows);
  part_rows_.push_back(batch.num_rows);
  held_rows_ += static_cast<int64_t>(batch.num_rows);
  batches_.push_back(std::move(batch));
  ++held_;
  changed_.notify_all();
  return Ok();
}

void StreamedTable::Close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  changed_.notify_all();
}

void StreamedTable::Cancel() {
  std::lock_guard lock(mutex_);
  cancelled_ = true;
  changed_.notify_all();
}

int64_t StreamedTable::rows() const {
  std::lock_guard lock(mutex_);
  return rows_;
}

std::size_t StreamedTable::held_batches() const {
  std::lock_guard lock(mutex_);
  return held_;
}

int64_t StreamedTable::held_rows() const {
  std::lock_guard lock(mutex_);
  return held_rows_;
}

std::size_t StreamedTable::part_count() const {
  std::lock_guard lock(mutex_);
  return part_rows_.size();
}

uint64_t StreamedTable::part_rows(std::size_t part) const {
  std::lock_guard lock(mutex_);
  return part_rows_[part];
}

bool StreamedTable::complete() const {
  std::lock_guard lock(mutex_);
  return closed_;
}

bool StreamedTable::WaitForPart(std::size_t part) const {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return part < batches_.size() || closed_ || cancelled_; });
  if (part >= batches_.size()) return false;
  // Parts are handed out in order (the scan's counter), so every part below this one is taken.
  taken_ = std::max(taken_, part + 1);
  changed_.notify_all();
  return true;
}

void StreamedTable::ReleasePart(std::size_t part) const {
  normalize::TableBatch freed;
  {
    std::lock_guard lock(mutex_);
    freed = std::move(batches_[part]);
    batches_[part] = normalize::TableBatch{};
    --held_;
    held_rows_ -= static_cast<int64_t>(part_rows_[part]);
  }
}

Status StreamedTable::Fill(std::size_t part, uint64_t begin, uint64_t count,
                           duck::DataChunk& chunk) const {
  const normalize::TableBatch* batch = nullptr;
  {
    std::lock_guard lock(mutex_);
    batch = &batches_[part];
  }
  return FillChunk(*batch, begin, count, chunk);
}

}  // namespace databox::load
