#include "load/system_tables.h"

#include "duck/quote.h"

namespace databox::load {
namespace {

iceberg::NestedField Field(int32_t id, std::string name, bool required, iceberg::Type type) {
  iceberg::NestedField field;
  field.id = id;
  field.name = std::move(name);
  field.required = required;
  field.type = std::move(type);
  return field;
}

std::string Relation(const std::string& table) {
  return duck::QuoteIdentifier("stage") + "." + duck::QuoteIdentifier(table);
}

}  // namespace

std::vector<SystemTable> SystemTablesFor(const std::string& load_id, const std::string& schema_name,
                                         int64_t rows_loaded,
                                         std::chrono::system_clock::time_point inserted_at) {
  using iceberg::Type;
  const int64_t micros =
      std::chrono::duration_cast<std::chrono::microseconds>(inserted_at.time_since_epoch()).count();
  const std::string id = duck::QuoteLiteral(load_id);
  const std::string schema = duck::QuoteLiteral(schema_name);
  const std::string at = "make_timestamp(" + std::to_string(micros) + "::BIGINT)";

  std::vector<SystemTable> tables;
  tables.push_back(SystemTable{
      kLoadsTable,
      iceberg::Schema(
          0,
          {Field(1, "load_id", true, Type::String()),
           Field(2, "schema_name", false, Type::String()), Field(3, "status", true, Type::Long()),
           Field(4, "inserted_at", true, Type::TimestampTz()),
           Field(5, "schema_version_hash", false, Type::String())},
          {}),
      "CREATE OR REPLACE TABLE " + Relation(kLoadsTable) + " AS SELECT " + id + " AS load_id, " +
          schema + " AS schema_name, 0::BIGINT AS status, timezone('UTC', " + at +
          ") AS inserted_at, NULL::VARCHAR AS schema_version_hash",
      Relation(kLoadsTable)});
  tables.push_back(SystemTable{
      kLoadStatusTable,
      iceberg::Schema(
          0,
          {Field(1, "load_id", true, Type::String()), Field(2, "schema_name", true, Type::String()),
           Field(3, "status", true, Type::Long()), Field(4, "inserted_at", true, Type::Timestamp()),
           Field(5, "rows_loaded", true, Type::Long())},
          {1}),
      "CREATE OR REPLACE TABLE " + Relation(kLoadStatusTable) + " AS SELECT " + id +
          " AS load_id, " + schema + " AS schema_name, 0::BIGINT AS status, " + at +
          " AS inserted_at, " + std::to_string(rows_loaded) + "::BIGINT AS rows_loaded",
      Relation(kLoadStatusTable)});
  return tables;
}

}  // namespace databox::load
