#include "load/streamed_files.h"

#include <algorithm>
#include <chrono>

#include "duck/connection.h"
#include "iceberg/data/data_files.h"
#include "iceberg/spec/schema_evolution.h"
#include "load/staging.h"

namespace databox::load {

Result<iceberg::TableMetadata> WithGrownSchema(const iceberg::TableMetadata& metadata,
                                               const iceberg::Schema& incoming) {
  const iceberg::Schema* current = metadata.CurrentSchema();
  if (current == nullptr) return MakeError(ErrorKind::kData, "table has no current schema");
  DATABOX_ASSIGN_OR_RETURN(iceberg::Schema merged,
                           iceberg::UnionByName(*current, incoming, metadata.last_column_id));
  if (merged.SameStructure(*current)) return metadata;
  iceberg::TableMetadata grown = metadata;
  int32_t schema_id = merged.schema_id();
  for (const iceberg::Schema& schema : grown.schemas) {
    schema_id = std::max(schema_id, schema.schema_id() + 1);
  }
  grown.last_column_id = std::max(grown.last_column_id, merged.HighestFieldId());
  grown.schemas.push_back(
      iceberg::Schema(schema_id, merged.fields(), merged.identifier_field_ids()));
  grown.current_schema_id = schema_id;
  return grown;
}

StreamedFiles::StreamedFiles(duck::Database& db, fileio::FileIO& io, TargetFor target,
                             Options options)
    : db_(db), io_(io), target_(std::move(target)), options_(options) {}

StreamedFiles::~StreamedFiles() {
  if (!finished_) Abandon();
}

void StreamedFiles::Start(const normalize::TableSchema& schema, WrittenTable& out) {
  Writer& writer = writers_[schema.name];
  writer.rows =
      std::make_unique<StreamedTable>(schema, options_.queue_batches, options_.scan_threads);
  writer.scan = std::make_unique<duck::ChunkScan>(*writer.rows);
  writer.files = std::async(
      std::launch::async,
      [this, &writer, metadata = out.metadata,
       select =
           "SELECT * FROM " + writer.scan->relation()]() -> Result<std::vector<iceberg::DataFile>> {
        const auto start = std::chrono::steady_clock::now();
        auto written = [&]() -> Result<std::vector<iceberg::DataFile>> {
          DATABOX_ASSIGN_OR_RETURN(auto conn, duck::Connection::Open(db_));
          DATABOX_RETURN_IF_ERROR(duck::RegisterChunkScan(conn));
          // Row order inside the data files does not matter: DuckDB's threads each write row
          // groups as they go.
          DATABOX_RETURN_IF_ERROR(conn.Execute("SET preserve_insertion_order = false"));
          return iceberg::WriteDataFiles(conn, io_, metadata, select);
        }();
        writer.rows->Cancel();  // a push after an early end fails instead of waiting
        writer.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return written;
      });
}

Status StreamedFiles::End(Writer& writer, WrittenTable& out) {
  writer.rows->Close();
  auto files = writer.files.get();
  copy_seconds_ = std::max(copy_seconds_, writer.seconds);
  out.rows += writer.rows->rows();
  if (!files) {
    return std::unexpected(files.error().WithContext("writing data files of " + out.schema.name));
  }
  for (iceberg::DataFile& file : *files) out.files.push_back(std::move(file));
  return Ok();
}

Status StreamedFiles::Push(normalize::TableBatch batch) {
  const std::string name = batch.schema.name;
  auto it = writers_.find(name);
  if (it == writers_.end()) {
    DATABOX_ASSIGN_OR_RETURN(TableTarget target, target_(batch.schema));
    WrittenTable& out = out_[name];
    out.schema = batch.schema;
    out.create = target.create;
    DATABOX_ASSIGN_OR_RETURN(iceberg::Schema incoming, IcebergSchemaFor(batch.schema));
    DATABOX_ASSIGN_OR_RETURN(out.metadata, WithGrownSchema(target.metadata, incoming));
    Start(batch.schema, out);
    it = writers_.find(name);
  } else if (batch.schema.columns.size() > it->second.rows->schema().columns.size()) {
    // The table grew: its files so far keep the columns they have, the next ones get the new.
    WrittenTable& out = out_[name];
    Status ended = End(it->second, out);
    writers_.erase(it);
    DATABOX_RETURN_IF_ERROR(ended);
    out.schema = batch.schema;
    DATABOX_ASSIGN_OR_RETURN(iceberg::Schema incoming, IcebergSchemaFor(batch.schema));
    DATABOX_ASSIGN_OR_RETURN(out.metadata, WithGrownSchema(out.metadata, incoming));
    Start(batch.schema, out);
    it = writers_.find(name);
  }
  Writer& writer = it->second;
  if (auto pushed = writer.rows->Push(std::move(batch)); !pushed) {
    // The COPY ended early: its own error says why.
    WrittenTable& out = out_[name];
    Status ended = End(writer, out);
    writers_.erase(name);
    DATABOX_RETURN_IF_ERROR(ended);
    return pushed;
  }
  return Ok();
}

Result<std::map<std::string, WrittenTable>> StreamedFiles::Finish() {
  Status first = Ok();
  for (auto& [name, writer] : writers_) writer.rows->Close();
  for (auto& [name, writer] : writers_) {
    Status ended = End(writer, out_[name]);
    if (first && !ended) first = ended;
  }
  writers_.clear();
  if (!first) {
    Abandon();
    return std::unexpected(first.error());
  }
  finished_ = true;
  return std::move(out_);
}

int64_t StreamedFiles::held_rows() const {
  int64_t held = 0;
  for (const auto& [name, writer] : writers_) held += writer.rows->held_rows();
  return held;
}

void DiscardWritten(fileio::FileIO& io, const WrittenTable& table) {
  for (const iceberg::DataFile& file : table.files) (void)io.Delete(file.file_path);
  if (table.create) (void)io.RemoveEmptyFolders(table.metadata.location);
}

void StreamedFiles::Abandon() {
  for (auto& [name, writer] : writers_) writer.rows->Cancel();
  for (auto& [name, writer] : writers_) {
    auto files = writer.files.get();
    if (files) {
      for (iceberg::DataFile& file : *files) out_[name].files.push_back(std::move(file));
    }
  }
  writers_.clear();
  // Nothing refers to these files: no commit will.
  for (const auto& [name, out] : out_) DiscardWritten(io_, out);
  out_.clear();
  finished_ = true;
}

}  // namespace databox::load
