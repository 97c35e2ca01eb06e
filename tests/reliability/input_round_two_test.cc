// Bad upstream input, round two (docs/reliability.md, "Round two"): JSON nested to any depth,
// numbers beyond a double or beyond 64 bits, merge keys that are null or absent. Each test loads
// the test-only source `faulty` through replay cassettes and runs the built `databox`.
// Suite names contain "BadInput", so ctest's reliability.BadInput runs them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness.h"

namespace databox::reliability {
namespace {

using cli::testing::Contains;

constexpr char kRequest[] = "GET https://faulty.example.test/api/items?page=1&per_page=2";

Interaction Page(int page, std::string body) { return Respond(FaultyItemsUri(page), body); }

//! `depth` nested arrays, or objects {"a": ...} around 1.
std::string Nested(int depth, bool arrays) {
  const auto n = static_cast<std::size_t>(depth);
  if (arrays) return std::string(n, '[') + std::string(n, ']');
  std::string text;
  for (int i = 0; i < depth; ++i) text += R"({"a":)";
  return text + "1" + std::string(n, '}');
}

std::string Scalar(const Workspace& ws, const std::string& sql) {
  const auto rows = ws.QueryRows(sql);
  if (!rows || rows->size() != 1) return "<no single row>";
  const auto row = nlohmann::json::parse(rows->front(), nullptr, /*allow_exceptions=*/false);
  if (!row.is_object() || row.size() != 1) return rows->front();
  const nlohmann::json& value = row.begin().value();
  return value.is_string() ? value.get<std::string>() : value.dump();
}

class BadInputRoundTwo : public ::testing::Test {
 protected:
  void TearDown() override {
    Tally& tally = TallyFor("bad_input");
    tally.faults += faults_;
    tally.runs += runs_;
    if (HasFailure()) tally.violations += 1;
  }
  RunResult Run(const Workspace& ws, const std::vector<std::string>& args = {"run", "faulty"}) {
    ++runs_;
    return ws.Databox(args, {kFaultyKeyEnv});
  }
  int runs_ = 0;
  int faults_ = 0;
};

// A deep document must never crash databox (before: SIGSEGV in a recursive walk of the parsed
// document, e.g. serializing it for a transform) and never load silently: at every depth beyond
// the limit, with and without a transform, for arrays and for objects, the extraction fails
// naming source, resource and request.
TEST_F(BadInputRoundTwo, JsonNestedToAnyDepthFailsNamingSourceResourceAndRequest) {
  const std::string transform =
      "SELECT CAST(record->>'id' AS BIGINT) AS id, record->'deep' AS deep "
      "FROM records";
  for (const bool with_transform : {false, true}) {
    Workspace ws(std::string("deep_") + (with_transform ? "transform" : "plain"));
    ws.WriteRegistry(FaultySourceToml(with_transform ? transform : ""));
    for (const int depth : {1100, 20'000, 50'000, 200'000}) {
      for (const bool arrays : {true, false}) {
        const std::string what = std::to_string(depth) + (arrays ? " arrays" : " objects") +
                                 (with_transform ? " with a transform" : "");
        ++faults_;
        ws.WriteCassette(
            "faulty", {Page(1, R"({"results":[{"id":1,"deep":)" + Nested(depth, arrays) + "}]}")});
        RunResult r = Run(ws);
        ASSERT_NE(r.exit_code, -1) << what << ": databox died from a signal\n" << r.err;
        EXPECT_EQ(r.exit_code, 1) << what << "\n" << r.out << r.err;
        for (const std::string& text : {std::string("source faulty"), std::string("resource items"),
                                        std::string(kRequest), std::string("levels deep")}) {
          EXPECT_TRUE(Contains(r.err, text)) << what << ": no '" << text << "' in\n" << r.err;
        }
      }
    }
    EXPECT_TRUE(ws.Tables("raw_faulty").empty()) << "nothing was committed";
  }
}

// A record whose merge key is null was accepted and every load added another null-key row (a
// null never equals a null in the merge): three loads, three rows. Now each load fails naming
// source, resource and column, and nothing is committed.
TEST_F(BadInputRoundTwo, NullMergeKeyFailsEveryLoadAndNeverAccumulates) {
  Workspace ws("null_key");
  ws.WriteRegistry(FaultySourceToml());
  ws.WriteCassette("faulty", {Page(1, ReadTestData("bad_input/baseline_page1.json")),
                              Page(2, ReadTestData("bad_input/baseline_page2.json"))});
  ASSERT_EQ(Run(ws).exit_code, 0);
  const auto before = ws.Tables("raw_faulty");
  // The null key comes first in its batch, so no earlier record created the key column (whose
  // not-null hint used to catch only later nulls); a second record has a key.
  ws.WriteCassette("faulty",
                   {Page(1, R"({"results":[{"id":null,"name":"ghost"},{"id":7,"name":"g"}]})"),
                    Page(2, R"({"results":[]})")});
  for (int load = 1; load <= 3; ++load) {
    ++faults_;
    RunResult r = Run(ws);
    EXPECT_EQ(r.exit_code, 1) << "load " << load << "\n" << r.out << r.err;
    for (const char* text : {"source faulty", "resource items", "primary key column 'id'", "null",
                             "nothing was committed"}) {
      EXPECT_TRUE(Contains(r.err, text)) << "load " << load << ": no '" << text << "' in\n"
                                         << r.err;
    }
  }
  EXPECT_EQ(ws.Tables("raw_faulty"), before);
  EXPECT_EQ(Scalar(ws, "SELECT count(*) FROM polaris_aws.raw_faulty.items"), "3");
  EXPECT_EQ(Scalar(ws, "SELECT count(*) FROM polaris_aws.raw_faulty.items WHERE id IS NULL"), "0");
}

// Two integer keys beyond 64 bits that differ only in their last digit: as doubles they were the
// same key (one row lost under last_wins; a false duplicate under reject) and the text stored was
// "1.2345678901234569e32". Now both rows load with their exact digits, and a second load of the
// same records updates them in place.
TEST_F(BadInputRoundTwo, IntegerKeysBeyond64BitsKeepEveryDigit) {
  Workspace ws("big_keys");
  ws.WriteRegistry(FaultySourceToml());
  ws.WriteCassette("faulty",
                   {Page(1, R"({"results":[{"id":123456789012345678901234567890123,"name":"a"},)"
                            R"({"id":123456789012345678901234567890124,"name":"b"}]})"),
                    Page(2, R"({"results":[]})")});
  for (int load = 1; load <= 2; ++load) {
    ++faults_;
    RunResult r = Run(ws);
    ASSERT_EQ(r.exit_code, 0) << "load " << load << "\n" << r.out << r.err;
  }
  const auto rows = ws.QueryRows("SELECT id, name FROM polaris_aws.raw_faulty.items ORDER BY name");
  ASSERT_TRUE(rows.has_value());
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ(nlohmann::json::parse((*rows)[0])["id"], "123456789012345678901234567890123");
  EXPECT_EQ(nlohmann::json::parse((*rows)[1])["id"], "123456789012345678901234567890124");
}

// A merge resource whose records lack the key column failed with DuckDB's binder error about
// `PARTITION BY "id"` on a staging table, naming neither source nor resource. A transform whose
// result has no key column is now refused before the run (the registry's file:line); records of
// another shape are refused by the load, naming source, resource and key; nothing is committed.
TEST_F(BadInputRoundTwo, KeyColumnAbsentIsNamedByTheLoad) {
  Workspace ws("absent_key");
  ws.WriteRegistry(FaultySourceToml("SELECT record->>'name' AS name FROM records"));
  ws.WriteCassette("faulty", {Page(1, ReadTestData("bad_input/baseline_page1.json")),
                              Page(2, ReadTestData("bad_input/baseline_page2.json"))});
  ++faults_;
  RunResult r = Run(ws);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  for (const char* text : {"databox.toml:", "source 'faulty' resource 'items'",
                           "primary_key column 'id' is neither in 'columns' nor named by "
                           "'transform'"}) {
    EXPECT_TRUE(Contains(r.err, text)) << "no '" << text << "' in\n" << r.err;
  }
  EXPECT_FALSE(Contains(r.err, "Binder Error")) << r.err;
  EXPECT_TRUE(ws.Tables("raw_faulty").empty());

  // Records of another shape, without a transform.
  ws.WriteRegistry(FaultySourceToml());
  ws.WriteCassette("faulty", {Page(1, R"({"results":[{"name":"a"},{"name":"b"}]})"),
                              Page(2, R"({"results":[]})")});
  ++faults_;
  r = Run(ws);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  for (const char* text :
       {"source faulty", "resource items", "primary_key column 'id' of table raw_faulty.items",
        "(their columns: name)", "nothing was committed"}) {
    EXPECT_TRUE(Contains(r.err, text)) << "no '" << text << "' in\n" << r.err;
  }
  EXPECT_FALSE(Contains(r.err, "Binder Error")) << r.err;
  EXPECT_TRUE(ws.Tables("raw_faulty").empty());
}

}  // namespace
}  // namespace databox::reliability
