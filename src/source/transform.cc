#include "source/transform.h"

#include <cctype>
#include <cstdio>

#include "duck/appender.h"
#include "duck/quote.h"

namespace databox::source {
namespace {

//! The SQL without trailing blanks and semicolons, so it can be wrapped as a subquery.
std::string TrimStatement(std::string sql) {
  while (!sql.empty() &&
         (std::isspace(static_cast<unsigned char>(sql.back())) || sql.back() == ';')) {
    sql.pop_back();
  }
  return sql;
}

}  // namespace

std::string FormatTimestamp(std::chrono::system_clock::time_point time) {
  const auto micros = std::chrono::floor<std::chrono::microseconds>(time);
  const auto day = std::chrono::floor<std::chrono::days>(micros);
  const std::chrono::year_month_day ymd{day};
  const std::chrono::hh_mm_ss hms{micros - day};
  char text[40];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u %02d:%02d:%02d.%06lld",
                static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                static_cast<unsigned>(ymd.day()), static_cast<int>(hms.hours().count()),
                static_cast<int>(hms.minutes().count()), static_cast<int>(hms.seconds().count()),
                static_cast<long long>(hms.subseconds().count()));
  return text;
}

Result<std::unique_ptr<Transformer>> Transformer::Make(std::string sql) {
  sql = TrimStatement(std::move(sql));
  if (sql.empty()) return MakeError(ErrorKind::kConfig, "the transform SQL is empty");
  DATABOX_ASSIGN_OR_RETURN(auto db, duck::Database::Open("", duck::DatabaseOptions{.threads = 1}));
  DATABOX_ASSIGN_OR_RETURN(auto conn, duck::Connection::Open(db));
  DATABOX_RETURN_IF_ERROR(conn.Execute("CREATE TABLE records(record JSON)"));
  // A newline before ")" so a trailing "-- comment" in the SQL cannot swallow it.
  std::string wrapped =
      "SELECT CAST(to_json(databox_row) AS VARCHAR) FROM (\n" + sql + "\n) AS databox_row";
  return std::unique_ptr<Transformer>(
      new Transformer(std::move(wrapped), std::move(db), std::move(conn)));
}

Status Transformer::SetVariables(const TransformVars& vars) {
  std::string sql;
  for (const std::string& name : set_vars_) {
    sql += "RESET VARIABLE " + duck::QuoteIdentifier(name) + ";\n";
  }
  set_vars_.clear();
  auto set = [&](const std::string& name, const std::string& value_sql) {
    sql += "SET VARIABLE " + duck::QuoteIdentifier(name) + " = " + value_sql + ";\n";
    set_vars_.push_back(name);
  };
  for (const auto& [name, value] : vars.vars) set(name, duck::QuoteLiteral(value));
  set("loaded_at", "TIMESTAMP " + duck::QuoteLiteral(FormatTimestamp(vars.loaded_at)));
  set("source_url", duck::QuoteLiteral(vars.source_url));
  set("page", "CAST(" + std::to_string(vars.page) + " AS BIGINT)");
  return conn_.Execute(sql);
}

Status Transformer::Run(const std::vector<Json>& records, const TransformVars& vars,
                        const RecordSink& sink) {
  DATABOX_RETURN_IF_ERROR(conn_.Execute("DELETE FROM records"));
  {
    DATABOX_ASSIGN_OR_RETURN(auto appender, duck::Appender::Make(conn_, "", "records"));
    for (const Json& record : records) {
      DATABOX_RETURN_IF_ERROR(
          appender.AppendString(record.dump(-1, ' ', false, Json::error_handler_t::replace)));
      DATABOX_RETURN_IF_ERROR(appender.EndRow());
    }
    DATABOX_RETURN_IF_ERROR(appender.Close());
  }
  DATABOX_RETURN_IF_ERROR(SetVariables(vars));
  DATABOX_ASSIGN_OR_RETURN(auto result, conn_.Query(sql_));
  for (uint64_t row = 0; row < result.row_count(); ++row) {
    DATABOX_ASSIGN_OR_RETURN(std::string text, result.GetString(0, row));
    Json out = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (out.is_discarded() || !out.is_object()) {
      return MakeError(ErrorKind::kInternal, "row " + std::to_string(row) +
                                                 " of the transform did not render as a "
                                                 "JSON object");
    }
    DATABOX_RETURN_IF_ERROR(sink(std::move(out)));
  }
  return Ok();
}

}  // namespace databox::source
