#include "load/direct_ingest.h"

#include <cstring>
#include <set>

#include "duck/quote.h"
#include "duck/text_generator.h"
#include "iceberg/data/data_files.h"
#include "load/csv_dialect.h"
#include "load/staging.h"
#include "normalize/digest.h"
#include "normalize/naming.h"

namespace databox::load {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDltIdFunction = "databox_dlt_id";
constexpr std::size_t kDltIdChars = 14;  //!< base64 of normalize::kDltIdBytes, unpadded

void MakeDltId(char* out) {
  const std::string id = normalize::RandomDltId();
  std::memcpy(out, id.data(), kDltIdChars);
}

//! How a column of DuckDB type `type` is loaded: its dlt type and the SQL that turns `column`
//! (quoted) into a value of it; nullopt for types the direct path does not take.
struct ColumnLoad {
  normalize::DataType type;
  std::string expression;
};

std::optional<ColumnLoad> LoadOf(const std::string& type, const std::string& column) {
  using normalize::DataType;
  auto same = [&](DataType t) { return ColumnLoad{t, column}; };
  if (type == "BOOLEAN") return same(DataType::kBool);
  if (type == "TINYINT" || type == "SMALLINT" || type == "INTEGER" || type == "BIGINT" ||
      type == "UTINYINT" || type == "USMALLINT" || type == "UINTEGER") {
    return same(DataType::kBigint);
  }
  if (type == "FLOAT" || type == "DOUBLE") return same(DataType::kDouble);
  if (type == "VARCHAR" || type == "UUID") return same(DataType::kText);
  if (type == "DATE") return same(DataType::kDate);
  if (type == "TIME") return same(DataType::kTime);
  if (type == "BLOB") return same(DataType::kBinary);
  if (type == "TIMESTAMP WITH TIME ZONE") return same(DataType::kTimestamp);
  // A timestamp without a zone is taken as UTC (whatever the session's time zone).
  if (type == "TIMESTAMP" || type == "TIMESTAMP_S" || type == "TIMESTAMP_MS" ||
      type == "TIMESTAMP_NS") {
    return ColumnLoad{DataType::kTimestamp, "timezone('UTC', " + column + "::TIMESTAMP)"};
  }
  // DECIMAL(P,S) fits dlt's decimal (38,9) when it has at most 9 decimals and 29 integer digits.
  int precision = 0, scale = 0;
  if (std::sscanf(type.c_str(), "DECIMAL(%d,%d)", &precision, &scale) == 2 && scale <= 9 &&
      precision - scale <= 29) {
    return same(DataType::kDecimal);
  }
  return std::nullopt;
}

Result<std::string> ReaderOf(duck::Connection& conn, const fs::path& file, const fs::path& plain,
                             IngestFormat format) {
  if (format == IngestFormat::kCsv) return StrictCsvReader(conn, file, plain);
  return "read_parquet(" + duck::QuoteLiteral(plain.string()) + ")";
}

//! `error`, DuckDB's reading `file`, naming the file (and for CSV the line).
Error ReadError(const Error& error, const fs::path& file, IngestFormat format) {
  if (format == IngestFormat::kCsv) return CsvReadError(error, file);
  return error.WithContext("reading " + file.string() + " as " +
                           std::string(IngestFormatName(format)));
}

}  // namespace

Status RegisterDltIdFunction(duck::Connection& conn) {
  return duck::RegisterTextGenerator(conn, kDltIdFunction, kDltIdChars, &MakeDltId);
}

Result<std::optional<DirectInput>> DescribeDirectInput(duck::Connection& conn, const fs::path& file,
                                                       const fs::path& plain, IngestFormat format,
                                                       const std::string& table,
                                                       const std::string& resource,
                                                       const std::string& load_id) {
  DATABOX_ASSIGN_OR_RETURN(const std::string reader, ReaderOf(conn, file, plain, format));
  auto described = conn.Query("DESCRIBE SELECT * FROM " + reader);
  if (!described) return std::unexpected(ReadError(described.error(), file, format));
  DirectInput input;
  input.file = file;
  input.format = format;
  input.schema.name = table;
  input.schema.resource = resource;
  std::set<std::string> names;
  std::string columns;
  for (uint64_t row = 0; row < described->row_count(); ++row) {
    DATABOX_ASSIGN_OR_RETURN(std::string source, described->GetString(0, row));
    DATABOX_ASSIGN_OR_RETURN(std::string type, described->GetString(1, row));
    // The name the normalizer gives a top-level key of a record.
    std::string name = normalize::NormalizePath(source);
    auto load = LoadOf(type, duck::QuoteIdentifier(source));
    if (!load || name.rfind("_dlt_", 0) == 0 || !names.insert(name).second) return std::nullopt;
    normalize::Column column;
    column.name = name;
    column.data_type = load->type;
    input.schema.columns.push_back(std::move(column));
    columns += load->expression + " AS " + duck::QuoteIdentifier(name) + ", ";
  }
  normalize::Column load_id_column;
  load_id_column.name = "_dlt_load_id";
  load_id_column.nullable = false;
  normalize::Column id_column;
  id_column.name = "_dlt_id";
  id_column.nullable = false;
  id_column.row_key = id_column.unique = true;
  input.schema.columns.push_back(std::move(load_id_column));
  input.schema.columns.push_back(std::move(id_column));
  input.select = "SELECT " + columns + duck::QuoteLiteral(load_id) + " AS _dlt_load_id, " +
                 kDltIdFunction + "() AS _dlt_id FROM " + reader;
  return input;
}

Result<std::optional<WrittenTable>> WriteDirectInputs(
    duck::Connection& conn, fileio::FileIO& io, const std::vector<DirectInput>& inputs,
    const TargetFor& target, const std::function<void(std::size_t, int64_t)>& after_file) {
  if (inputs.empty()) return MakeError(ErrorKind::kInternal, "no input to write");
  // The table's columns: every input's, by name in the order first seen, one type each.
  normalize::TableSchema merged = inputs.front().schema;
  for (const DirectInput& input : inputs) {
    for (const normalize::Column& column : input.schema.columns) {
      const normalize::Column* known = merged.FindColumn(column.name);
      if (known == nullptr) {
        merged.columns.push_back(column);
      } else if (known->data_type != column.data_type) {
        return std::nullopt;
      }
    }
  }
  DATABOX_ASSIGN_OR_RETURN(TableTarget table, target(merged));
  DATABOX_ASSIGN_OR_RETURN(iceberg::Schema incoming, IcebergSchemaFor(merged));
  // A column the table has must have the type the rows have: a cast could fail, where the
  // normalizer makes a variant column for values that do not fit.
  const iceberg::Schema* current = table.metadata.CurrentSchema();
  if (current == nullptr) return MakeError(ErrorKind::kData, "table has no current schema");
  for (const iceberg::NestedField& field : incoming.fields()) {
    const iceberg::NestedField* now = current->FindFieldByName(field.name);
    if (now != nullptr && !(now->type == field.type)) return std::nullopt;
  }
  DATABOX_ASSIGN_OR_RETURN(iceberg::TableMetadata grown, WithGrownSchema(table.metadata, incoming));
  WrittenTable written;
  written.schema = std::move(merged);
  written.metadata = std::move(grown);
  written.create = table.create;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    auto files = iceberg::WriteDataFiles(conn, io, written.metadata, inputs[i].select);
    if (!files) {
      DiscardWritten(io, written);
      return std::unexpected(ReadError(files.error(), inputs[i].file, inputs[i].format));
    }
    int64_t rows = 0;
    for (iceberg::DataFile& file : *files) {
      rows += file.record_count;
      written.files.push_back(std::move(file));
    }
    written.rows += rows;
    if (after_file) after_file(i, rows);
  }
  return written;
}

}  // namespace databox::load
