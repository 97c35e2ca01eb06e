#include "refresh/platform_health.h"

#include <sstream>

#include "duck/quote.h"

namespace databox::refresh {
namespace {

//! platform_loads when no source is routine: the same columns, no rows.
constexpr const char* kNoLoads =
    "SELECT CAST(NULL AS VARCHAR) AS source, CAST(NULL AS VARCHAR) AS load_id, "
    "CAST(NULL AS BIGINT) AS status, CAST(NULL AS BIGINT) AS rows_loaded, "
    "CAST(NULL AS TIMESTAMP) AS inserted_at LIMIT 0";

}  // namespace

std::string SourcesViewSql(const registry::Registry& registry) {
  if (registry.sources.empty()) {
    return "SELECT CAST(NULL AS VARCHAR) AS source, CAST(NULL AS BOOLEAN) AS routine LIMIT 0";
  }
  std::ostringstream sql;
  sql << "SELECT source, routine FROM (VALUES ";
  for (size_t i = 0; i < registry.sources.size(); ++i) {
    const registry::Source& source = registry.sources[i];
    sql << (i ? ", " : "") << "(" << duck::QuoteLiteral(source.name) << ", "
        << (source.eligibility == registry::Eligibility::kRoutine ? "true" : "false") << ")";
  }
  sql << ") AS s(source, routine)";
  return sql.str();
}

std::string PlatformLoadsViewSql(const std::vector<RoutineLoadStatus>& routine) {
  if (routine.empty()) return kNoLoads;
  std::ostringstream sql;
  sql << "SELECT s.source, l.load_id, l.status, l.rows_loaded, l.inserted_at FROM (VALUES ";
  for (size_t i = 0; i < routine.size(); ++i) {
    sql << (i ? ", " : "") << "(" << duck::QuoteLiteral(routine[i].source) << ")";
  }
  sql << ") AS s(source) LEFT JOIN (";
  for (size_t i = 0; i < routine.size(); ++i) {
    sql << (i ? " UNION ALL " : "") << "SELECT " << duck::QuoteLiteral(routine[i].source)
        << " AS source, load_id, status, rows_loaded, inserted_at FROM ("
        << routine[i].load_status_sql << ")";
  }
  sql << ") AS l ON l.source = s.source";
  return sql.str();
}

}  // namespace databox::refresh
