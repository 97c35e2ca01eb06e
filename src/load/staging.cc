#include "load/staging.h"

#include <algorithm>
#include <variant>

#include "duck/appender.h"
#include "duck/data_chunk.h"
#include "duck/quote.h"
#include "load/chunk_fill.h"
#include "normalize/data_type.h"

namespace databox::load {

std::string DuckTypeFor(normalize::DataType type) {
  using normalize::DataType;
  switch (type) {
    case DataType::kText:
    case DataType::kJson:
      return "VARCHAR";
    case DataType::kBigint:
      return "BIGINT";
    case DataType::kDouble:
      return "DOUBLE";
    case DataType::kBool:
      return "BOOLEAN";
    case DataType::kTimestamp:
      return "TIMESTAMPTZ";
    case DataType::kDate:
      return "DATE";
    case DataType::kTime:
      return "TIME";
    case DataType::kDecimal:
      return "DECIMAL(38,9)";
    case DataType::kWei:
      return "DECIMAL(38,0)";
    case DataType::kBinary:
      return "BLOB";
  }
  return "VARCHAR";
}

Result<iceberg::Schema> IcebergSchemaFor(const normalize::TableSchema& table) {
  std::vector<iceberg::NestedField> fields;
  std::vector<int32_t> identifier_ids;
  int32_t next_id = 1;
  for (const normalize::Column& column : table.columns) {
    auto type = iceberg::Type::ParsePrimitive(normalize::IcebergTypeName(column.data_type));
    if (!type) {
      return std::unexpected(
          type.error().WithContext("table " + table.name + " column " + column.name));
    }
    iceberg::NestedField field;
    field.id = next_id++;
    field.name = column.name;
    field.required = !column.nullable;
    field.type = std::move(*type);
    if (column.primary_key) identifier_ids.push_back(field.id);
    fields.push_back(std::move(field));
  }
  return iceberg::Schema(0, std::move(fields), std::move(identifier_ids));
}

Result<StagingArea> StagingArea::Make(duck::Connection* conn, std::string schema_name) {
  DATABOX_RETURN_IF_ERROR(
      conn->Execute("CREATE SCHEMA IF NOT EXISTS " + duck::QuoteIdentifier(schema_name)));
  // Staged rows are written once and read once (into Parquet): compressing them when DuckDB
  // moves appended row groups into table storage cost more than the appends themselves.
  DATABOX_RETURN_IF_ERROR(conn->Execute("SET force_compression = 'uncompressed'"));
  return StagingArea(conn, std::move(schema_name));
}

Status StagingArea::EnsureColumns(const normalize::TableSchema& schema) {
  const std::string relation =
      duck::QuoteIdentifier(schema_name_) + "." + duck::QuoteIdentifier(schema.name);
  auto it = tables_.find(schema.name);
  if (it == tables_.end()) {
    std::string ddl = "CREATE TABLE " + relation + " (";
    for (std::size_t i = 0; i < schema.columns.size(); ++i) {
      if (i > 0) ddl += ", ";
      ddl += duck::QuoteIdentifier(schema.columns[i].name) + " " +
             DuckTypeFor(schema.columns[i].data_type);
    }
    ddl += ")";
    DATABOX_RETURN_IF_ERROR(conn_->Execute(ddl));
    tables_.emplace(schema.name, StagedTable{schema, relation, 0});
    return Ok();
  }
  StagedTable& staged = it->second;
  // Columns only ever get added at the end, so the staged prefix stays as it is.
  for (std::size_t i = staged.schema.columns.size(); i < schema.columns.size(); ++i) {
    DATABOX_RETURN_IF_ERROR(conn_->Execute("ALTER TABLE " + relation + " ADD COLUMN " +
                                           duck::QuoteIdentifier(schema.columns[i].name) + " " +
                                           DuckTypeFor(schema.columns[i].data_type)));
  }
  staged.schema = schema;
  return Ok();
}

Status StagingArea::Append(const normalize::TableBatch& batch) {
  DATABOX_RETURN_IF_ERROR(EnsureColumns(batch.schema));
  StagedTable& staged = tables_.at(batch.schema.name);
  DATABOX_ASSIGN_OR_RETURN(auto appender,
                           duck::Appender::Make(*conn_, schema_name_, batch.schema.name));
  // Columns the staged table gained after this batch's schema was taken stay null.
  DATABOX_ASSIGN_OR_RETURN(auto chunk, duck::DataChunk::Make(ChunkTypesFor(staged.schema)));
  const std::size_t capacity = duck::DataChunk::Capacity();
  for (std::size_t begin = 0; begin < batch.num_rows; begin += capacity) {
    const std::size_t count = std::min(capacity, batch.num_rows - begin);
    chunk.Reset();
    DATABOX_RETURN_IF_ERROR(FillChunk(batch, begin, count, chunk));
    chunk.SetSize(count);
    DATABOX_RETURN_IF_ERROR(appender.AppendChunk(chunk));
  }
  DATABOX_RETURN_IF_ERROR(appender.Close());
  staged.rows += static_cast<int64_t>(batch.num_rows);
  return Ok();
}

}  // namespace databox::load
