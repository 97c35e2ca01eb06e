#include "load/staging.h"

#include <cstdio>
#include <variant>

#include "duck/appender.h"
#include "duck/quote.h"
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

namespace {

//! "HH:MM:SS.ffffff" from microseconds since midnight (DuckDB casts it to TIME).
std::string FormatTimeOfDay(int64_t micros) {
  char buf[32];
  std::snprintf(
      buf, sizeof buf, "%02lld:%02lld:%02lld.%06lld", static_cast<long long>(micros / 3600000000LL),
      static_cast<long long>(micros / 60000000LL % 60),
      static_cast<long long>(micros / 1000000LL % 60), static_cast<long long>(micros % 1000000LL));
  return buf;
}

Status AppendValue(duck::Appender& appender, normalize::DataType type,
                   const normalize::ColumnValues& values, std::size_t row) {
  using normalize::DataType;
  return std::visit(
      [&](const auto& column) -> Status {
        const auto& cell = column[row];
        if (!cell) return appender.AppendNull();
        using T = std::decay_t<decltype(*cell)>;
        if constexpr (std::is_same_v<T, bool>) {
          return appender.AppendBool(*cell);
        } else if constexpr (std::is_same_v<T, int64_t>) {
          if (type == DataType::kTimestamp) return appender.AppendTimestampMicros(*cell);
          if (type == DataType::kDate) return appender.AppendDate(static_cast<int32_t>(*cell));
          if (type == DataType::kTime) return appender.AppendString(FormatTimeOfDay(*cell));
          return appender.AppendInt64(*cell);
        } else if constexpr (std::is_same_v<T, double>) {
          return appender.AppendDouble(*cell);
        } else {
          if (type == DataType::kBinary) return appender.AppendBlob(*cell);
          return appender.AppendString(*cell);
        }
      },
      values);
}

}  // namespace

Status StagingArea::Append(const normalize::TableBatch& batch) {
  DATABOX_RETURN_IF_ERROR(EnsureColumns(batch.schema));
  StagedTable& staged = tables_.at(batch.schema.name);
  DATABOX_ASSIGN_OR_RETURN(auto appender,
                           duck::Appender::Make(*conn_, schema_name_, batch.schema.name));
  const std::size_t width = batch.schema.columns.size();
  for (std::size_t row = 0; row < batch.num_rows; ++row) {
    for (std::size_t col = 0; col < width; ++col) {
      DATABOX_RETURN_IF_ERROR(
          AppendValue(appender, batch.schema.columns[col].data_type, batch.columns[col], row));
    }
    // Columns the staged table gained after this batch's schema was taken stay null.
    for (std::size_t col = width; col < staged.schema.columns.size(); ++col) {
      DATABOX_RETURN_IF_ERROR(appender.AppendNull());
    }
    DATABOX_RETURN_IF_ERROR(appender.EndRow());
  }
  DATABOX_RETURN_IF_ERROR(appender.Close());
  staged.rows += static_cast<int64_t>(batch.num_rows);
  return Ok();
}

}  // namespace databox::load
