#include <cctype>
#include <chrono>
#include <regex>
#include <set>

#include "common/clock.h"
#include "common/edit_distance.h"
#include "common/redact.h"
#include "registry/parse_internal.h"

namespace databox::registry::internal {
namespace {

constexpr double kMaxPauseS = 60;
constexpr int kMaxDays = 3650;
constexpr int64_t kMaxRecords = 100'000'000;
constexpr int kMaxPageSize = 100'000;

//! Names of sources, resources and tables (snake_case, no leading/trailing/double underscores).
const std::regex& NameRegex() {
  static const std::regex kName("^[a-z][a-z0-9]*(_[a-z0-9]+)*$");
  return kName;
}

//! Placeholders filled per window chunk by the source runner.
const std::set<std::string, std::less<>>& WindowPlaceholders() {
  static const std::set<std::string, std::less<>> kNames = {"start", "end", "year", "month", "day"};
  return kNames;
}

const std::set<std::string, std::less<>>& ColumnTypes() {
  static const std::set<std::string, std::less<>> kTypes = {
      "text", "bigint", "double", "bool", "timestamp", "date", "time", "decimal", "binary", "json"};
  return kTypes;
}

bool IsIsoDate(const std::string& text) { return IsoToDate(text).has_value(); }

//! Replaces {var} with [source.vars] values; reports placeholders that are neither vars nor
//! window placeholders. Sets *uses_window when a window placeholder remains.
std::string Expand(const std::string& text, const std::map<std::string, std::string>& vars,
                   TableReader& r, std::string_view key, bool* uses_window) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t open = text.find('{', pos);
    if (open == std::string::npos) break;
    const std::size_t close = text.find('}', open);
    if (close == std::string::npos) break;
    out.append(text, pos, open - pos);
    const std::string name = text.substr(open + 1, close - open - 1);
    if (auto it = vars.find(name); it != vars.end()) {
      out += it->second;
    } else {
      if (WindowPlaceholders().contains(name)) {
        *uses_window = true;
      } else {
        r.Report(key, "'" + std::string(key) + "' uses unknown placeholder {" + name + "}",
                 "define it in [source.vars] or use a window placeholder: {start}, {end}, "
                 "{year}, {month}, {day}");
      }
      out.append(text, open, close - open + 1);
    }
    pos = close + 1;
  }
  out.append(text, pos);
  return out;
}

//! Credentials must come through [source.auth], never through params or headers.
void CheckPlainValues(const std::map<std::string, std::string>& values, TableReader& r,
                      std::string_view key, bool headers) {
  for (const auto& [name, value] : values) {
    const bool credential = headers ? IsCredentialHeaderName(name) : IsCredentialParamName(name);
    if (credential) {
      r.Report(key, "'" + std::string(key) + "." + name + "' looks like a credential",
               "remove it and declare [source.auth] with type = \"" +
                   std::string(headers ? "header" : "query") + "\", name = \"" + name +
                   "\", secret = \"${ENV_VAR}\"");
    }
  }
}

//! The query parameters in table `key` of `r`: credentials refused, {var} placeholders filled
//! from `vars` (window placeholders stay and set *uses_window). Empty when absent.
//! redirect_hosts: host names (no scheme, port or path) a redirect may lead to.
std::vector<std::string> ReadRedirectHosts(TableReader& r) {
  static const std::regex kHost("^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$");
  std::vector<std::string> hosts =
      r.StringList("redirect_hosts").value_or(std::vector<std::string>{});
  for (const std::string& host : hosts) {
    if (!std::regex_match(host, kHost)) {
      r.Report("redirect_hosts", "'redirect_hosts' entry \"" + host + "\" is not a host name",
               "name the host only, e.g. \"cdn.example.org\" (no scheme, port or path)");
    }
  }
  return hosts;
}

std::map<std::string, std::string> ReadParams(TableReader& r, std::string_view key,
                                              const std::map<std::string, std::string>& vars,
                                              bool* uses_window) {
  std::map<std::string, std::string> params;
  if (auto values = r.StringMap(key)) {
    CheckPlainValues(*values, r, key, false);
    for (auto& [name, value] : *values) params[name] = Expand(value, vars, r, key, uses_window);
  }
  return params;
}

AuthSettings ParseAuth(const toml::table* table, bool replay, ParseContext& ctx,
                       const std::string& context) {
  AuthSettings auth;
  if (table == nullptr) return auth;
  TableReader r(*table, context + " auth", ctx.problems);
  auth.type = r.Enum("type", kAuthTypeNames).value_or(AuthType::kNone);
  if (!r.Has("type"))
    r.Report("type", "missing required key 'type'", "none, header, query or bearer");
  auth.name = r.String("name").value_or("");
  auth.secret = ReadSecret(r, "secret", ctx, /*may_be_absent=*/replay);
  const bool named = auth.type == AuthType::kHeader || auth.type == AuthType::kQuery;
  if (named && auth.name.empty()) {
    r.Report("name",
             "missing required key 'name' for type = \"" + std::string(ToString(auth.type)) + "\"",
             "the header or query parameter that carries the secret");
  }
  if (!named && !auth.name.empty()) {
    r.Report("name", "'name' is only used with type = \"header\" or \"query\"");
  }
  if (auth.type != AuthType::kNone && !r.Has("secret")) {
    r.Report("secret", "missing required key 'secret'", "secret = \"${ENV_VAR}\"");
  }
  if (auth.type == AuthType::kNone && r.Has("secret")) {
    r.Report("secret", "'secret' is not used with type = \"none\"");
  }
  r.ReportUnknownKeys();
  return auth;
}

WindowSettings ParseWindow(const toml::table& table, ParseContext& ctx,
                           const std::string& context) {
  WindowSettings window;
  TableReader r(table, context + " window", ctx.problems);
  for (const char* key : {"start", "end"}) {
    auto text = r.String(key);
    if (!text) continue;
    if (!IsIsoDate(*text)) {
      r.Report(key, "'" + std::string(key) + "' = \"" + *text + "\" is not a date",
               "write YYYY-MM-DD");
      continue;
    }
    (std::string_view(key) == "start" ? window.start : window.end) = *text;
  }
  if (window.start && window.end && *window.start > *window.end) {
    r.Report("start", "'start' is after 'end'");
  }
  window.days_back = static_cast<int>(r.Int("days_back", 1, kMaxDays).value_or(window.days_back));
  window.chunk_days =
      static_cast<int>(r.Int("chunk_days", 1, kMaxDays).value_or(window.chunk_days));
  if (window.start && r.Has("days_back")) {
    r.Report("days_back", "'days_back' is ignored when 'start' is fixed", "remove one of them");
  }
  r.ReportUnknownKeys();
  return window;
}

FileSettings ParseFile(const toml::table& table, ParseContext& ctx, const std::string& context) {
  FileSettings file;
  TableReader r(table, context + " file", ctx.problems);
  file.url = r.String("url", /*required=*/true).value_or("");
  if (!file.url.empty()) {
    if (auto bad = CheckHttpUrl(file.url); !bad.empty()) r.Report("url", "'url' " + bad);
  }
  file.redirect_url = r.String("redirect_url").value_or("");
  if (!file.redirect_url.empty()) {
    if (auto bad = CheckHttpUrl(file.redirect_url); !bad.empty()) {
      r.Report("redirect_url", "'redirect_url' " + bad);
    } else if (file.redirect_url.find('?') != std::string::npos) {
      r.Report("redirect_url", "'redirect_url' must not contain a query",
               "name the file's URL only: the signed query the redirect adds is checked, not "
               "configured");
    }
  }
  file.size_bytes = r.Int("size_bytes", 1, std::numeric_limits<int64_t>::max());
  file.md5 = r.String("md5").value_or("");
  static const std::regex kMd5("^[0-9a-f]{32}$");
  if (!file.md5.empty() && !std::regex_match(file.md5, kMd5)) {
    r.Report("md5", "'md5' must be 32 lowercase hex digits");
  }
  file.sheet = r.String("sheet").value_or("");
  file.row_count = r.Int("row_count", 0, std::numeric_limits<int64_t>::max());
  file.provenance = r.StringMap("provenance").value_or(std::map<std::string, std::string>{});
  r.ReportUnknownKeys();
  return file;
}

TargetSettings ParseTargets(const toml::table& table, ParseContext& ctx,
                            const std::string& context) {
  TargetSettings targets;
  TableReader r(table, context + " targets", ctx.problems);
  targets.max_targets =
      static_cast<int>(r.Int("max_targets", 1, 100'000).value_or(targets.max_targets));
  if (auto pattern = r.String("code_pattern")) {
    try {
      std::regex compiled(*pattern);
      targets.code_pattern = *pattern;
    } catch (const std::regex_error&) {
      r.Report("code_pattern", "'code_pattern' is not a valid regular expression");
    }
  }
  targets.max_text_chars =
      static_cast<int>(r.Int("max_text_chars", 1, 100'000).value_or(targets.max_text_chars));
  targets.max_images_per_target = static_cast<int>(
      r.Int("max_images_per_target", 1, 500).value_or(targets.max_images_per_target));
  targets.request_max_attempts =
      static_cast<int>(r.Int("request_max_attempts", 1, 6).value_or(targets.request_max_attempts));
  targets.detail_workers =
      static_cast<int>(r.Int("detail_workers", 1, 4).value_or(targets.detail_workers));
  targets.contact = r.String("contact").value_or("");
  r.ReportUnknownKeys();
  return targets;
}

Pagination ParsePagination(const toml::table& table, ParseContext& ctx,
                           const std::string& context) {
  Pagination p;
  TableReader r(table, context + " pagination", ctx.problems);
  p.type = r.Enum("type", kPaginationTypeNames).value_or(PaginationType::kNone);
  if (!r.Has("type")) {
    r.Report("type", "missing required key 'type'", "none, offset_limit, page_number or cursor");
  }
  p.limit_param = r.String("limit_param").value_or(p.limit_param);
  p.offset_param = r.String("offset_param").value_or(p.offset_param);
  p.total_path = r.String("total_path").value_or("");
  p.end_flag_path = r.String("end_flag_path").value_or("");
  p.page_param = r.String("page_param").value_or(p.page_param);
  p.page_size_param = r.String("page_size_param").value_or("");
  p.num_pages_path = r.String("num_pages_path").value_or("");
  p.start_page = static_cast<int>(r.Int("start_page", 0, 1).value_or(p.start_page));
  p.next_path = r.String("next_path").value_or("");
  p.cursor_param = r.String("cursor_param").value_or("");
  p.page_size = static_cast<int>(r.Int("page_size", 1, kMaxPageSize).value_or(p.page_size));
  p.max_records = r.Int("max_records", 1, kMaxRecords);
  if (p.type == PaginationType::kCursor && p.next_path.empty()) {
    r.Report("next_path", "missing required key 'next_path' for type = \"cursor\"",
             "the dotted path of the next-page URL or cursor in the response");
  }
  // Keys that belong to another pagination type are mistakes worth naming.
  const std::map<std::string_view, PaginationType> owner = {
      {"limit_param", PaginationType::kOffsetLimit},
      {"offset_param", PaginationType::kOffsetLimit},
      {"total_path", PaginationType::kOffsetLimit},
      {"end_flag_path", PaginationType::kOffsetLimit},
      {"page_param", PaginationType::kPageNumber},
      {"page_size_param", PaginationType::kPageNumber},
      {"num_pages_path", PaginationType::kPageNumber},
      {"start_page", PaginationType::kPageNumber},
      {"next_path", PaginationType::kCursor},
      {"cursor_param", PaginationType::kCursor}};
  for (const auto& [key, type] : owner) {
    if (r.Has(key) && type != p.type) {
      r.Report(key, "'" + std::string(key) + "' is only used with type = \"" +
                        std::string(ToString(type)) + "\"");
    }
  }
  r.ReportUnknownKeys();
  return p;
}

std::map<std::string, ColumnHint> ParseColumns(const toml::table& table, ParseContext& ctx,
                                               const std::string& context) {
  std::map<std::string, ColumnHint> columns;
  static const std::regex kColumn("^[a-z_][a-z0-9_]*$");
  std::string types;
  for (const auto& type : ColumnTypes()) types += (types.empty() ? "" : ", ") + type;
  for (const auto& [key, node] : table) {
    const std::string name(key.str());
    const int line = LineOf(node);
    ColumnHint hint;
    hint.line = line;
    if (const auto* s = node.as_string()) {
      hint.type = s->get();
    } else if (const auto* t = node.as_table()) {
      TableReader r(*t, context + " column '" + name + "'", ctx.problems);
      hint.type = r.String("type").value_or("");
      hint.nullable = r.Bool("nullable");
      r.ReportUnknownKeys();
    } else {
      ctx.problems.Add(line, context + ": column '" + name + "' must be a type name or a table",
                       "e.g. " + name + " = \"bigint\" or " + name +
                           " = { type = \"bigint\", nullable = false }");
      continue;
    }
    if (!std::regex_match(name, kColumn)) {
      ctx.problems.Add(line, context + ": column name '" + name + "' is not snake_case",
                       "hints name the transform's output columns, e.g. how_many");
    }
    if (!hint.type.empty() && !ColumnTypes().contains(hint.type)) {
      ctx.problems.Add(line,
                       context + ": column '" + name + "' has unknown type '" + hint.type + "'",
                       "use one of: " + types);
    }
    columns[name] = hint;
  }
  return columns;
}

//! `name` lower-cased without underscores: the normalizer makes one column of subId and sub_id.
std::string Folded(std::string_view name) {
  std::string folded;
  for (const char c : name) {
    if (c != '_') folded += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return folded;
}

//! Reports a primary key column that neither `columns` declares nor the transform names: the
//! transform's output can then not hold it. Without a transform the records' fields are the
//! columns, so only the load can tell (it refuses a first batch without the key).
void CheckPrimaryKeyColumns(const Resource& res, TableReader& r) {
  if (res.transform.empty()) return;
  static const std::regex kWord("[A-Za-z_][A-Za-z0-9_]*");
  // Output names: `AS name` not closing a CAST (`CAST(x AS DOUBLE)`).
  static const std::regex kAlias("\\bAS\\s+\"?([A-Za-z_][A-Za-z0-9_]*)\\b\"?(?!\\s*\\))",
                                 std::regex::icase);
  std::set<std::string> words;
  for (auto it = std::sregex_iterator(res.transform.begin(), res.transform.end(), kWord);
       it != std::sregex_iterator(); ++it) {
    words.insert(Folded(it->str()));
  }
  std::vector<std::string> outputs;
  for (const auto& [name, hint] : res.columns) outputs.push_back(name);
  for (auto it = std::sregex_iterator(res.transform.begin(), res.transform.end(), kAlias);
       it != std::sregex_iterator(); ++it) {
    outputs.push_back((*it)[1].str());
  }
  for (const std::string& key : res.primary_key) {
    if (res.columns.contains(key) || words.contains(Folded(key))) continue;
    const std::optional<std::string> meant = LikelyMeant(key, outputs);
    r.Report("primary_key",
             "primary_key column '" + key + "' is neither in 'columns' nor named by 'transform'",
             meant ? "did you mean '" + *meant + "'?"
                   : "name a column the transform selects, or declare it in 'columns'");
  }
}

ReservedQuery ParseReservedQuery(const toml::table& table, const Source& source, ParseContext& ctx,
                                 const std::string& context, bool* uses_window) {
  ReservedQuery q;
  TableReader r(table, context + " refine.reserve", ctx.problems);
  q.params = ReadParams(r, "params", source.vars, uses_window);
  if (q.params.empty()) {
    r.Report("params", "the reserved query needs 'params' that set it apart from the main query",
             "e.g. params = { taxonKey = \"2476855\" }");
  }
  q.divisor = r.Int("divisor", 1, kMaxRecords).value_or(q.divisor);
  q.cap = r.Int("cap", 1, kMaxRecords).value_or(q.cap);
  q.min_total = r.Int("min_total", 1, kMaxRecords).value_or(q.min_total);
  r.ReportUnknownKeys();
  return q;
}

//! [source.resource.refine]: read and checked whether or not it is on; nullopt when off.
std::optional<Refinement> ParseRefinement(const toml::table& table, const Source& source,
                                          ParseContext& ctx, const std::string& context,
                                          bool* uses_window) {
  TableReader r(table, context + " refine", ctx.problems);
  const std::optional<bool> on = r.Bool("when");
  if (!r.Has("when")) {
    r.Report("when", "missing required key 'when'",
             "when = \"${NAME:-false}\" switches the refinement with variable NAME");
  }
  Refinement refinement;
  refinement.params = ReadParams(r, "params", source.vars, uses_window);
  if (const toml::table* reserve = r.Table("reserve")) {
    refinement.reserve = ParseReservedQuery(*reserve, source, ctx, context, uses_window);
  }
  r.ReportUnknownKeys();
  if (!on.value_or(false)) return std::nullopt;
  return refinement;
}

Resource ParseResource(const toml::table& table, const Source& source, ParseContext& ctx,
                       bool* uses_window) {
  Resource res;
  res.line = LineOf(table);
  const std::string base = "source '" + source.name + "'";
  TableReader r(table, base + " resource", ctx.problems);
  res.name = r.String("name", /*required=*/true).value_or("");
  const std::string context = base + " resource '" + res.name + "'";
  TableReader rr(table, context, ctx.problems);  // same table, named context for the rest
  rr.String("name");
  if (!res.name.empty() && !std::regex_match(res.name, NameRegex())) {
    rr.Report("name", "resource name '" + res.name + "' is not a valid table name",
              "use lowercase letters and digits separated by single underscores");
  }
  res.enabled = rr.Bool("enabled").value_or(true);
  bool window = false;
  res.path = Expand(rr.String("path").value_or(""), source.vars, rr, "path", &window);
  if (!res.path.empty() && res.path.front() != '/' && source.kind != SourceKind::kFile) {
    rr.Report("path", "'path' must start with '/'", "it is appended to the source's base_url");
  }
  res.params = ReadParams(rr, "params", source.vars, &window);
  if (auto headers = rr.StringMap("headers")) {
    CheckPlainValues(*headers, rr, "headers", true);
    res.headers = *headers;
  }
  res.format = rr.Enum("format", kResponseFormatNames).value_or(ResponseFormat::kJson);
  res.records_path = rr.String("records_path").value_or("");
  res.error_path = rr.String("error_path").value_or("");
  if (const toml::table* pagination = rr.Table("pagination")) {
    res.pagination = ParsePagination(*pagination, ctx, context);
  }
  if (auto days = rr.Int("chunk_days", 1, kMaxDays)) res.chunk_days = static_cast<int>(*days);
  res.primary_key = rr.StringList("primary_key").value_or(std::vector<std::string>{});
  res.primary_key_at = ctx.problems.file() + ":" + std::to_string(rr.LineOf("primary_key"));
  std::set<std::string> seen_keys;
  for (const std::string& column : res.primary_key) {
    if (column.empty() || !seen_keys.insert(column).second) {
      rr.Report("primary_key", "'primary_key' has an empty or repeated column",
                "list each key column once");
      break;
    }
  }
  auto disposition = rr.Enum("write_disposition", kWriteDispositionNames);
  if (!rr.Has("write_disposition")) {
    rr.Report("write_disposition", "missing required key 'write_disposition'",
              "append, replace or merge");
  }
  res.write_disposition = disposition.value_or(WriteDisposition::kAppend);
  if (disposition == WriteDisposition::kMerge && res.primary_key.empty() &&
      !rr.Has("primary_key")) {
    rr.Report("write_disposition", "write_disposition = \"merge\" needs a primary_key",
              "add primary_key = [\"...\"] naming the columns that identify a row");
  }
  res.merge_duplicates =
      rr.Enum("merge_duplicates", kDuplicatePolicyNames).value_or(DuplicatePolicy::kLastWins);
  if (rr.Has("merge_duplicates") && res.write_disposition != WriteDisposition::kMerge) {
    rr.Report("merge_duplicates",
              "'merge_duplicates' is only used with write_disposition = \"merge\"");
  }
  res.merge_mode = rr.Enum("merge_mode", kMergeModeNames);
  if (rr.Has("merge_mode") && res.write_disposition != WriteDisposition::kMerge) {
    rr.Report("merge_mode", "'merge_mode' is only used with write_disposition = \"merge\"");
  }
  if (const toml::table* columns = rr.Table("columns")) {
    res.columns = ParseColumns(*columns, ctx, context);
  }
  res.transform = rr.String("transform").value_or("");
  if (!res.transform.empty() && res.transform.find("records") == std::string::npos) {
    rr.Report("transform", "'transform' does not read the relation `records`",
              "select from records (one row per extracted record, column `record` JSON)");
  }
  CheckPrimaryKeyColumns(res, rr);
  ParseTableLayout(res, rr);
  res.child_tables = rr.StringList("child_tables").value_or(std::vector<std::string>{});
  for (const std::string& child : res.child_tables) {
    const std::string prefix = res.name + "__";
    const std::string field = child.starts_with(prefix) ? child.substr(prefix.size()) : "";
    if (field.empty() || !std::regex_match(field, std::regex("^[a-z][a-z0-9_]*$"))) {
      rr.Report("child_tables", "child table '" + child + "' must be named '" + prefix + "<field>'",
                "child tables are the normalized lists of this resource, e.g. " + prefix +
                    "banding_codes");
    }
  }
  res.max_response_bytes = rr.Int("max_response_bytes", 1, std::numeric_limits<int64_t>::max());
  if (const toml::table* refine = rr.Table("refine")) {
    res.refine = ParseRefinement(*refine, source, ctx, context, &window);
    if (refine->contains("reserve") && res.primary_key.empty()) {
      rr.Report("refine", "a reserved query needs a primary_key to de-duplicate its rows",
                "add primary_key = [\"...\"]");
    }
  }
  rr.ReportUnknownKeys();
  if (window) *uses_window = true;
  if (window && !source.window) {
    rr.Report("path", "uses window placeholders but the source has no [source.window]",
              "add [source.window] with start/end or days_back");
  }
  return res;
}

}  // namespace

//! The source's `replay` key: false = live, a folder = its own recordings; absent = the project's
//! replay folder/<name> when the project replays.
std::optional<std::filesystem::path> ParseSourceReplay(
    const toml::table& table, const std::string& name,
    const std::optional<std::filesystem::path>& project_replay, TableReader& r, ParseContext& ctx) {
  std::optional<std::filesystem::path> folder;
  if (project_replay) folder = *project_replay / name;
  const toml::node* node = table.get("replay");
  if (node != nullptr && node->is_boolean()) {
    const bool on = r.Bool("replay").value_or(true);
    if (!on) folder.reset();
    if (on && !project_replay) {
      r.Report("replay", "'replay = true' needs [project.http] replay",
               "give the source its own folder: replay = \"recordings/" + name + "\"");
    }
  } else if (auto text = r.String("replay")) {
    if (text->empty()) {
      r.Report("replay", "'replay' must not be empty", "use replay = false for live HTTP");
    } else {
      folder = ResolvePath(ctx, *text);
    }
  }
  return folder;
}

Source ParseSource(const toml::table& table, const std::optional<std::filesystem::path>& replay,
                   ParseContext& ctx) {
  Source source;
  source.line = LineOf(table);
  TableReader head(table, "source", ctx.problems);
  source.name = head.String("name", /*required=*/true).value_or("");
  const std::string context = "source '" + source.name + "'";
  TableReader r(table, context, ctx.problems);
  r.String("name");
  if (!source.name.empty() && !std::regex_match(source.name, NameRegex())) {
    r.Report("name", "source name '" + source.name + "' is invalid",
             "use lowercase letters and digits separated by single underscores, starting with a "
             "letter (^[a-z][a-z0-9]*(_[a-z0-9]+)*$)");
  }
  source.description = r.String("description").value_or("");
  auto eligibility = r.Enum("eligibility", kEligibilityNames);
  if (!r.Has("eligibility")) {
    r.Report("eligibility", "missing required key 'eligibility'",
             "routine (in every refresh) or explicit (only when named)");
  }
  source.eligibility = eligibility.value_or(Eligibility::kExplicit);
  source.kind = r.Enum("kind", kSourceKindNames).value_or(SourceKind::kRestJson);
  auto base_url = r.String("base_url");
  if (base_url) {
    if (auto bad = CheckHttpUrl(*base_url); !bad.empty()) r.Report("base_url", "'base_url' " + bad);
    if (base_url->find('?') != std::string::npos) {
      r.Report("base_url", "'base_url' must not contain a query", "put parameters in params");
    }
    source.base_url = *base_url;
  }
  source.pause_s = r.Number("pause_s", 0, kMaxPauseS).value_or(0);
  source.timeout_s = r.Number("timeout_s", 0.1, kMaxTimeoutS);
  if (auto retries = r.Int("retries", 0, kMaxRetries)) source.retries = static_cast<int>(*retries);
  source.backoff_initial_s = r.Number("backoff_initial_s", 0, kMaxTimeoutS);
  source.backoff_max_s = r.Number("backoff_max_s", 0, kMaxTimeoutS);
  if (auto vars = r.StringMap("vars")) {
    CheckPlainValues(*vars, r, "vars", false);
    source.vars = *vars;
  }
  source.replay_dir = ParseSourceReplay(table, source.name, replay, r, ctx);
  source.auth = ParseAuth(r.Table("auth"), source.replay_dir.has_value(), ctx, context);
  if (const toml::table* window = r.Table("window"))
    source.window = ParseWindow(*window, ctx, context);
  bool params_use_window = false;  // source-level params; resources report their own use
  bool resources_use_window = false;
  source.params = ReadParams(r, "params", source.vars, &params_use_window);
  if (auto headers = r.StringMap("headers")) {
    CheckPlainValues(*headers, r, "headers", true);
    source.headers = *headers;
  }
  source.redirect_hosts = ReadRedirectHosts(r);
  if (const toml::table* file = r.Table("file")) source.file = ParseFile(*file, ctx, context);
  if (const toml::table* targets = r.Table("targets")) {
    source.targets = ParseTargets(*targets, ctx, context);
  }

  switch (source.kind) {
    case SourceKind::kRestJson:
    case SourceKind::kTargeted:
      if (!base_url) {
        r.Report("base_url",
                 "missing required key 'base_url' for kind = \"" +
                     std::string(ToString(source.kind)) + "\"",
                 "e.g. base_url = \"https://api.example.org/v1\"");
      }
      if (source.file) r.Report("file", "[source.file] is only used with kind = \"file\"");
      break;
    case SourceKind::kFile:
      if (!source.file) {
        r.Report("kind", "kind = \"file\" needs a [source.file] table", "declare url, md5, ...");
      }
      if (base_url)
        r.Report("base_url", "'base_url' is not used with kind = \"file\"", "use file.url");
      break;
  }
  if (source.kind == SourceKind::kTargeted) {
    if (!source.targets) source.targets = TargetSettings{};
    if (source.eligibility == Eligibility::kRoutine) {
      r.Report("eligibility",
               "a targeted source cannot be routine: it needs caller-supplied targets",
               "set eligibility = \"explicit\"");
    }
  } else if (source.targets) {
    r.Report("targets", "[source.targets] is only used with kind = \"targeted\"");
  }

  const toml::array* resources = r.Array("resource");
  if (resources == nullptr || resources->empty()) {
    r.Report("resource", "declares no [[source.resource]]",
             "every source writes at least one table");
  } else {
    for (const toml::node& node : *resources) {
      if (const auto* t = node.as_table()) {
        source.resources.push_back(ParseResource(*t, source, ctx, &resources_use_window));
      } else {
        ctx.problems.Add(LineOf(node), context + ": 'resource' entries must be tables",
                         "use [[source.resource]]");
      }
    }
  }
  if (source.window && !params_use_window && !resources_use_window) {
    r.Report("window", "[source.window] is declared but no path or param uses it",
             "use {start}, {end}, {year}, {month} or {day} in a path or param, or remove it");
  }
  if (params_use_window && !source.window) {
    r.Report("params", "params use window placeholders but the source has no [source.window]",
             "add [source.window]");
  }
  r.ReportUnknownKeys();
  return source;
}

void CheckSources(const std::vector<Source>& sources, ParseContext& ctx) {
  std::map<std::string, int> source_lines;
  for (const Source& source : sources) {
    if (source.name.empty()) continue;
    auto [it, inserted] = source_lines.emplace(source.name, source.line);
    if (!inserted) {
      ctx.problems.Add(source.line,
                       "source '" + source.name + "' is declared twice (first at line " +
                           std::to_string(it->second) + ")",
                       "rename or remove one of them");
    }
    std::map<std::string, int> table_lines;
    for (const Resource& resource : source.resources) {
      std::vector<std::string> tables = {resource.name};
      tables.insert(tables.end(), resource.child_tables.begin(), resource.child_tables.end());
      for (const std::string& table : tables) {
        if (table.empty()) continue;
        auto [t, fresh] = table_lines.emplace(table, resource.line);
        if (!fresh) {
          ctx.problems.Add(resource.line,
                           "source '" + source.name + "': table '" + table +
                               "' is declared twice (first at line " + std::to_string(t->second) +
                               ")",
                           "every resource and child table of a source needs its own name");
        }
      }
    }
  }
}

void CheckReservedTableNames(const std::vector<Source>& sources, const CatalogSettings& catalog,
                             ParseContext& ctx) {
  const std::string& prefix = catalog.underscore_table_prefix;
  if (catalog.type != CatalogType::kRest || prefix.empty()) return;
  const std::string reserved = prefix + "_";
  for (const Source& source : sources) {
    for (const Resource& resource : source.resources) {
      std::vector<std::string> tables = {resource.name};
      tables.insert(tables.end(), resource.child_tables.begin(), resource.child_tables.end());
      for (const std::string& table : tables) {
        if (!table.starts_with(reserved)) continue;
        ctx.problems.Add(
            resource.line,
            "source '" + source.name + "': table '" + table + "' collides with the catalog's " +
                "name of databox's table '" + table.substr(prefix.size()) +
                "': [project.catalog] underscore_table_prefix = \"" + prefix +
                "\" stores every table whose name starts with '_' as " + prefix + "_...",
            "rename the table, or choose another underscore_table_prefix");
      }
    }
  }
}

}  // namespace databox::registry::internal
