// Bad upstream input. Each case first loads good pages into the test-only
// source `faulty` of a copy of the example registry (JSON resource `items`, CSV resource `rows`),
// then serves one fault from the corpus in tests/data/bad_input to one of them through a replay
// cassette and runs `databox run faulty`. A fault must end in a clear error naming source,
// resource and the redacted request, or in the documented lenient result (docs/reliability.md);
// never a crash, and never a partial commit: on failure no table of raw_faulty moves to a new
// metadata file (not even `notes`, extracted before the fault with new valid content) and
// _dlt_load_status gains no row.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness.h"

namespace databox::reliability {
namespace {

using cli::testing::Contains;

constexpr char kSecret[] = "dbx-secret-faulty-3b9e61c0d27a";
constexpr char kRequestPage1[] = "GET https://faulty.example.test/api/items?page=1&per_page=2";
constexpr char kRequestRows[] = "GET https://faulty.example.test/api/rows.csv?key=***";
constexpr char kItems[] = "items";
constexpr char kRows[] = "rows";

//! What a case must produce.
enum class Expect {
  kRequestError,  //!< fails; the error names source, resource and the redacted request
  kBatchError,    //!< fails; the error names source and resource (no single request to blame)
  kSourceError,   //!< fails; the error names the source (see the case's `must_mention`)
  kLenient,       //!< loads; `check` verifies the documented result
};

struct Case {
  std::string name;
  std::function<std::vector<Interaction>()> pages;  //!< the faulty responses
  Expect expect;
  std::vector<std::string> must_mention;                  //!< further texts the error must contain
  std::function<void(const Workspace&)> check = nullptr;  //!< kLenient: the documented result
  std::string resource = kItems;  //!< the resource served the fault; the other gets its baseline
};

Interaction Page(int page, std::string body, int status = 200) {
  return Respond(FaultyItemsUri(page), std::move(body), status);
}

// A resource extracted before `items`: in the faulty run it receives new, valid content, so a
// partial commit would show as a new snapshot of `notes`.
constexpr char kNotesResource[] = R"(
[[source.resource]]
name = "notes"
path = "/notes"
records_path = "results"
primary_key = ["id"]
write_disposition = "merge"
)";

Interaction Notes(const std::string& text) {
  return Respond("https://faulty.example.test/api/notes",
                 R"({"results":[{"id":1,"text":")" + text + R"("}]})");
}

// A CSV resource (RFC 4180 text, one response, all values strings), declared after `items`.
constexpr char kRowsResource[] = R"(
[[source.resource]]
name = "rows"
path = "/rows.csv"
format = "csv"
primary_key = ["id"]
write_disposition = "merge"
)";

Interaction Rows(std::string body) {
  Interaction i = Respond("https://faulty.example.test/api/rows.csv", std::move(body));
  i.content_type = "text/csv";
  return i;
}

std::vector<Interaction> BaselineItems() {
  return {Page(1, ReadTestData("bad_input/baseline_page1.json")),
          Page(2, ReadTestData("bad_input/baseline_page2.json"))};
}

std::vector<Interaction> BaselineRows() {
  return {Rows(ReadTestData("bad_input/baseline_rows.csv"))};
}

//! The one value of a single-row, single-column `databox query --json` result: a string as
//! its decoded text (escapes such as \n resolved), anything else as printed JSON.
std::string Scalar(const Workspace& ws, const std::string& sql) {
  const auto rows = ws.QueryRows(sql);
  if (!rows || rows->size() != 1) return "<no single row>";
  const auto row = nlohmann::json::parse(rows->front(), nullptr, /*allow_exceptions=*/false);
  if (!row.is_object() || row.size() != 1) return rows->front();
  const nlohmann::json& value = row.begin().value();
  return value.is_string() ? value.get<std::string>() : value.dump();
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  cases.push_back({"malformed_json",
                   [] { return std::vector{Page(1, ReadTestData("bad_input/malformed.json"))}; },
                   Expect::kRequestError,
                   {"not valid JSON"}});
  cases.push_back({"truncated_gzip",
                   [] {
                     Interaction i = Page(1, ReadTestData("bad_input/truncated.json.gz"));
                     i.content_encoding = "gzip";
                     return std::vector{i};
                   },
                   // Replay inflates recorded bodies when it reads the cassette, so the fault is
                   // reported before any request: it names the source and the recording.
                   Expect::kSourceError,
                   {"does not inflate", "cassette.yaml"}});
  cases.push_back({"invalid_utf8",
                   [] { return std::vector{Page(1, ReadTestData("bad_input/invalid_utf8.json"))}; },
                   Expect::kRequestError,
                   {"not valid JSON"}});
  cases.push_back({"empty_page",
                   [] { return std::vector{Page(1, ReadTestData("bad_input/empty.json"))}; },
                   Expect::kRequestError,
                   {"0 bytes"}});
  cases.push_back(
      {"type_drift_across_pages",
       [] {
         return std::vector{Page(1, ReadTestData("bad_input/baseline_page1.json")),
                            Page(2, ReadTestData("bad_input/drift_page2.json"))};
       },
       Expect::kLenient,
       {},
       [](const Workspace& ws) {
         // The column keeps its first type (text); the number arrives as its text.
         EXPECT_EQ(Scalar(ws, "SELECT v FROM polaris_aws.raw_faulty.items WHERE id = 3"), "42");
         EXPECT_EQ(Scalar(ws, "SELECT v FROM polaris_aws.raw_faulty.items WHERE id = 1"), "x");
         EXPECT_EQ(Scalar(ws,
                          "SELECT typeof(v) FROM polaris_aws.raw_faulty.items "
                          "WHERE id = 3"),
                   "VARCHAR");
       }});
  cases.push_back({"field_of_10_mib",
                   [] {
                     const std::string big(10 * 1024 * 1024, 'a');
                     return std::vector{
                         Page(1, R"({"results":[{"id":1,"name":")" + big + R"("}]})")};
                   },
                   Expect::kLenient,
                   {},
                   [](const Workspace& ws) {
                     EXPECT_EQ(Scalar(ws,
                                      "SELECT length(name) FROM polaris_aws.raw_faulty.items "
                                      "WHERE id = 1"),
                               "10485760");
                   }});
  cases.push_back({"objects_nested_1000_deep",
                   [] {
                     std::string deep;
                     for (int i = 0; i < 1000; ++i) deep += R"({"a":)";
                     deep += "1";
                     deep += std::string(1000, '}');
                     return std::vector{Page(1, R"({"results":[{"id":1,"deep":)" + deep + "}]}")};
                   },
                   Expect::kLenient,
                   {},
                   [](const Workspace& ws) {
                     // Flattened like dlt: one column deep__a__a__...__a holding 1.
                     EXPECT_EQ(Scalar(ws, "SELECT count(*) FROM polaris_aws.raw_faulty.items"),
                               "3");
                   }});
  cases.push_back({"arrays_nested_1000_deep",
                   [] {
                     const std::string deep = std::string(1000, '[') + std::string(1000, ']');
                     return std::vector{Page(1, R"({"results":[{"id":1,"deep":)" + deep + "}]}")};
                   },
                   // Each list level is a child table; the normalizer refuses a child table
                   // name longer than a table name may be, names the table and points at
                   // max_nesting, before anything is staged (docs/reliability.md).
                   Expect::kBatchError,
                   {"child table 'items__deep__list__", "max_nesting"}});
  cases.push_back({"html_error_page_status_200",
                   [] {
                     Interaction i = Page(1, ReadTestData("bad_input/html_error.html"));
                     i.content_type = "text/html";
                     return std::vector{i};
                   },
                   Expect::kRequestError,
                   {"not valid JSON"}});
  cases.push_back(
      {"http_500_after_retries",
       [] { return std::vector{Page(1, ReadTestData("bad_input/http_500.json"), 500)}; },
       Expect::kRequestError,
       {"HTTP 500"}});
  cases.push_back({"duplicate_keys_with_reject",
                   [] {
                     return std::vector{Page(1, ReadTestData("bad_input/duplicate_keys.json")),
                                        Page(2, R"({"results":[]})")};
                   },
                   Expect::kBatchError,
                   {"merge_duplicates = \"reject\"", "nothing was committed"}});
  // Round two (docs/reliability.md): depth, numbers and merge keys.
  cases.push_back({"arrays_nested_50000_deep",
                   [] {
                     const std::string deep = std::string(50'000, '[') + std::string(50'000, ']');
                     return std::vector{Page(1, R"({"results":[{"id":1,"deep":)" + deep + "}]}")};
                   },
                   Expect::kRequestError,
                   {"more than 1024 levels deep"}});
  cases.push_back(
      {"number_beyond_a_double",
       [] { return std::vector{Page(1, R"({"results":[{"id":1,"name":"a","v":1e400}]})")}; },
       Expect::kRequestError,
       {"1e400 at results[0].v", "out of range for a double"}});
  cases.push_back(
      {"integer_key_beyond_64_bits_into_a_bigint_key",
       [] {
         return std::vector{
             Page(1, R"({"results":[{"id":123456789012345678901234567890123,"name":"big"}]})")};
       },
       // The baseline made `id` a bigint key column: the exact digits (kept as text) cannot go
       // there, and a key never changes type, so the load is refused while normalizing, naming
       // both types and the record (before: the key was stored as the rounded text
       // "1.2345678901234569e32").
       Expect::kSourceError,
       {"primary key column 'id' has values of two types: bigint",
        "text (first in record 1: 123456789012345678901234567890123)", "nothing was committed"}});
  cases.push_back(
      {"null_merge_key",
       [] { return std::vector{Page(1, R"({"results":[{"id":null,"name":"ghost"}]})")}; },
       Expect::kBatchError,
       {"null", "primary key", "nothing was committed"}});
  cases.push_back({"records_without_the_key_column",
                   [] {
                     return std::vector{
                         Page(1, R"({"results":[{"name":"a","v":"x"},{"name":"b","v":"y"}]})"),
                         Page(2, R"({"results":[]})")};
                   },
                   Expect::kBatchError,
                   {"primary key column 'id'", "nothing was committed"}});
  // CSV (resource `rows`). Expected lines and byte offsets (0-based) are counted by hand from
  // the corpus files; see tests/data/README.md.
  cases.push_back(
      {"csv_quoted_newlines_delimiters_and_quotes",
       [] { return std::vector{Rows(ReadTestData("bad_input/quoted_newlines.csv"))}; },
       Expect::kLenient,
       {},
       [](const Workspace& ws) {
         const std::string table = "polaris_aws.raw_faulty.rows";
         EXPECT_EQ(Scalar(ws, "SELECT count(*) FROM " + table), "4");
         EXPECT_EQ(Scalar(ws, "SELECT note FROM " + table + " WHERE id = '1'"),
                   "line one\nline two");
         EXPECT_EQ(Scalar(ws, "SELECT name FROM " + table + " WHERE id = '2'"), "beta, with comma");
         EXPECT_EQ(Scalar(ws, "SELECT note FROM " + table + " WHERE id = '2'"), "she said \"hi\"");
         EXPECT_EQ(Scalar(ws, "SELECT note FROM " + table + " WHERE id = '3'"),
                   "ends with CRLF\r\ninside");
         EXPECT_EQ(Scalar(ws, "SELECT note FROM " + table + " WHERE id = '4'"), "");
       },
       kRows});
  cases.push_back(
      {"csv_row_with_too_many_fields",
       [] { return std::vector{Rows(ReadTestData("bad_input/ragged_long.csv"))}; },
       Expect::kRequestError,
       // Physical line 4: the record before it spans lines 2-3.
       {"line 4 has 4 fields but the header has 3 (the record starts at byte offset 39)"},
       nullptr,
       kRows});
  cases.push_back(
      {"csv_row_with_too_few_fields",
       [] { return std::vector{Rows(ReadTestData("bad_input/ragged_short.csv"))}; },
       Expect::kRequestError,
       {"line 3 has 2 fields but the header has 3 (the record starts at byte offset 27)"},
       nullptr,
       kRows});
  cases.push_back(
      {"csv_unterminated_quote_at_end",
       [] { return std::vector{Rows(ReadTestData("bad_input/unterminated_quote.csv"))}; },
       Expect::kRequestError,
       {"line 3: the quoted field opened at byte offset 34 is not closed"},
       nullptr,
       kRows});
  return cases;
}

class BadInput : public ::testing::TestWithParam<Case> {
 protected:
  void TearDown() override {
    Tally& tally = TallyFor("bad_input");
    tally.faults += 1;
    tally.runs += runs_;
    if (HasFailure()) tally.violations += 1;
  }
  RunResult Run(const Workspace& ws) {
    ++runs_;
    return ws.Databox({"run", "faulty"}, {std::string("FAULTY_API_KEY=") + kSecret});
  }
  int runs_ = 0;
};

TEST_P(BadInput, FailsCleanlyOrLoadsTheDocumentedResultAndNeverCommitsPartially) {
  const Case& c = GetParam();
  Workspace ws("bad_" + c.name);
  ws.WriteRegistry(FaultySourceToml("", kRowsResource, kNotesResource));
  std::vector<Interaction> baseline_pages = BaselineItems();
  baseline_pages.push_back(Notes("v1"));
  for (Interaction& i : BaselineRows()) baseline_pages.push_back(std::move(i));
  ws.WriteCassette("faulty", baseline_pages);
  RunResult baseline = Run(ws);
  ASSERT_EQ(baseline.exit_code, 0) << baseline.out << baseline.err;
  const auto before = ws.Tables("raw_faulty");
  ASSERT_EQ(before.size(), 5u) << "notes, items, rows, _dlt_loads, _dlt_load_status";
  ASSERT_EQ(Scalar(ws, "SELECT count(*) FROM polaris_aws.raw_faulty._dlt_load_status"), "1");

  std::vector<Interaction> pages = c.pages();
  pages.push_back(Notes("v2"));
  for (Interaction& i : c.resource == kItems ? BaselineRows() : BaselineItems()) {
    pages.push_back(std::move(i));
  }
  ws.WriteCassette("faulty", pages);
  RunResult r = Run(ws);
  const std::string all = r.out + r.err;
  // exit_code -1 means the process died from a signal (a crash).
  ASSERT_NE(r.exit_code, -1) << "databox crashed\n" << all;
  EXPECT_FALSE(Contains(all, kSecret)) << all;
  EXPECT_TRUE(FilesContaining(ws.state_dir(), kSecret).empty()) << "secret written to state";

  if (c.expect == Expect::kLenient) {
    EXPECT_EQ(r.exit_code, 0) << all;
    EXPECT_EQ(Scalar(ws, "SELECT count(*) FROM polaris_aws.raw_faulty._dlt_load_status"), "2");
    EXPECT_EQ(Scalar(ws, "SELECT text FROM polaris_aws.raw_faulty.notes"), "v2");
    if (c.check) c.check(ws);
    return;
  }
  EXPECT_EQ(r.exit_code, 1) << all;
  EXPECT_TRUE(Contains(r.err, "source faulty")) << r.err;
  if (c.expect == Expect::kRequestError || c.expect == Expect::kBatchError) {
    EXPECT_TRUE(Contains(r.err, "resource " + c.resource)) << r.err;
  }
  if (c.expect == Expect::kRequestError) {
    EXPECT_TRUE(Contains(r.err, c.resource == kItems ? kRequestPage1 : kRequestRows)) << r.err;
    EXPECT_TRUE(Contains(r.err, "key=***")) << "the credential param is shown redacted\n" << r.err;
  }
  for (const auto& text : c.must_mention) EXPECT_TRUE(Contains(r.err, text)) << r.err;
  // No partial commit: every table still points at the metadata file it had before.
  EXPECT_EQ(ws.Tables("raw_faulty"), before);
  EXPECT_EQ(Scalar(ws, "SELECT count(*) FROM polaris_aws.raw_faulty._dlt_load_status"), "1");
  EXPECT_EQ(Scalar(ws, "SELECT count(*) FROM polaris_aws.raw_faulty.items"), "3");
  EXPECT_EQ(Scalar(ws, "SELECT count(*) FROM polaris_aws.raw_faulty.rows"), "2");
  EXPECT_EQ(Scalar(ws, "SELECT text FROM polaris_aws.raw_faulty.notes"), "v1");
  // The failure is recorded in the run history, redacted.
  const std::string history = cli::testing::Slurp(ws.state_dir() / "runs.jsonl");
  EXPECT_TRUE(Contains(history, "\"failed\"")) << history;
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadInput, ::testing::ValuesIn(Cases()),
                         [](const auto& param_info) { return param_info.param.name; });

}  // namespace
}  // namespace databox::reliability
