// Typed JSON of query results: numbers stay numbers, nested values nest, big ids are strings.
#include "duck/json_cells.h"

#include <gtest/gtest.h>

#include <string>

#include "duck/test_support.h"

namespace databox::duck {
namespace {

class JsonCellsTest : public ::testing::Test {
 protected:
  //! The first row of `sql` as one JSON object, compact.
  std::string Row(const std::string& sql) {
    auto r = mem_.conn.Query(sql);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().ToString());
    nlohmann::ordered_json row = nlohmann::ordered_json::object();
    for (uint64_t c = 0; c < r->column_count(); ++c) {
      row[r->column_name(c)] = CellToJson(*r, c, 0);
    }
    return row.dump();
  }
  testing::MemoryDb mem_ = testing::OpenMemoryDb();
};

TEST_F(JsonCellsTest, NumbersAndNestedValuesKeepTheirKind) {
  EXPECT_EQ(Row("SELECT 1 AS a, 1.50 AS b, [1, 2] AS c"), R"({"a":1,"b":1.5,"c":[1,2]})");
  EXPECT_EQ(Row("SELECT true AS t, NULL AS n, 'x' AS s, 2.5::DOUBLE AS d, 7::TINYINT AS small"),
            R"({"t":true,"n":null,"s":"x","d":2.5,"small":7})");
  EXPECT_EQ(Row("SELECT {'k': [1, NULL], 'name': 'a'} AS st, MAP {'x': 1} AS m"),
            R"({"st":{"k":[1,null],"name":"a"},"m":{"x":1}})");
}

TEST_F(JsonCellsTest, IntegersBeyondTwoToThe53AreStrings) {
  EXPECT_EQ(Row("SELECT 9007199254740992::BIGINT AS fits, 801030709168230257::BIGINT AS id, "
                "18446744073709551615::UBIGINT AS u, 170141183460469231731687303715884105727::"
                "HUGEINT AS h, 12::HUGEINT AS small_h"),
            R"({"fits":9007199254740992,"id":"801030709168230257","u":"18446744073709551615",)"
            R"("h":"170141183460469231731687303715884105727","small_h":12})");
  EXPECT_EQ(Row("SELECT [801030709168230257] AS ids"), R"({"ids":["801030709168230257"]})");
}

TEST_F(JsonCellsTest, WideDecimalsAndSpecialFloatsStayExactText) {
  EXPECT_EQ(Row("SELECT 12345678901234567.89::DECIMAL(38, 2) AS wide, 'nan'::DOUBLE AS x, "
                "'-inf'::DOUBLE AS y"),
            R"({"wide":"12345678901234567.89","x":"nan","y":"-inf"})");
}

TEST_F(JsonCellsTest, TimesAreTextAndJsonIsParsed) {
  EXPECT_EQ(Row("SELECT DATE '2024-01-02' AS d, TIMESTAMP '2024-01-02 03:04:05' AS ts, "
                "'{\"a\": [1]}'::JSON AS j"),
            R"({"d":"2024-01-02","ts":"2024-01-02 03:04:05","j":{"a":[1]}})");
}

}  // namespace
}  // namespace databox::duck
