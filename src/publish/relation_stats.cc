#include "publish/relation_stats.h"

#include <algorithm>

#include "duck/quote.h"

namespace databox::publish {

Result<RelationStats> ReadRelationStats(duck::Connection& conn, const std::string& select_sql) {
  const std::string from = "(" + select_sql + ")";
  RelationStats stats;
  DATABOX_ASSIGN_OR_RETURN(duck::QueryResult described,
                           conn.Query("DESCRIBE SELECT * FROM " + from + " AS r"));
  for (uint64_t row = 0; row < described.row_count(); ++row) {
    DATABOX_ASSIGN_OR_RETURN(std::string name, described.GetString(0, row));
    DATABOX_ASSIGN_OR_RETURN(std::string type, described.GetString(1, row));
    stats.schema.emplace_back(std::move(name), std::move(type));
  }
  DATABOX_ASSIGN_OR_RETURN(duck::QueryResult counted,
                           conn.Query("SELECT count(*) FROM " + from + " AS r"));
  DATABOX_ASSIGN_OR_RETURN(stats.rows, counted.GetInt64(0, 0));
  std::string load_column;
  for (const char* candidate : {"_dlt_load_id", "load_id"}) {
    auto has =
        std::ranges::find_if(stats.schema, [&](const Column& c) { return c.first == candidate; });
    if (has != stats.schema.end()) {
      load_column = candidate;
      break;
    }
  }
  if (load_column.empty()) return stats;
  const std::string column = duck::QuoteIdentifier(load_column);
  DATABOX_ASSIGN_OR_RETURN(duck::QueryResult ids,
                           conn.Query("SELECT DISTINCT CAST(" + column + " AS VARCHAR) FROM " +
                                      from + " AS r WHERE " + column + " IS NOT NULL ORDER BY 1"));
  for (uint64_t row = 0; row < ids.row_count(); ++row) {
    DATABOX_ASSIGN_OR_RETURN(std::string id, ids.GetString(0, row));
    stats.load_ids.push_back(std::move(id));
  }
  return stats;
}

}  // namespace databox::publish
