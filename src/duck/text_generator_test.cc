#include "duck/text_generator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <string>

#include "duck/connection.h"
#include "duck/database.h"

namespace databox::duck {
namespace {

std::atomic<int> counter{0};

//! "id-" and a number of 5 digits, one more per call.
void NextId(char* out) {
  char text[16];
  std::snprintf(text, sizeof text, "id-%05d", counter.fetch_add(1) % 100000);
  std::memcpy(out, text, 8);
}

TEST(TextGeneratorTest, GivesEveryRowItsOwnValue) {
  auto db = Database::Open("");
  ASSERT_TRUE(db) << db.error().message;
  auto conn = Connection::Open(*db);
  ASSERT_TRUE(conn) << conn.error().message;
  ASSERT_TRUE(RegisterTextGenerator(*conn, "next_id", 8, &NextId));
  // Volatile: not folded into one constant, called for every row, on DuckDB's threads.
  auto rows = conn->Query(
      "SELECT count(*), count(DISTINCT v), min(length(v)), max(length(v)), min(v) "
      "FROM (SELECT next_id() AS v FROM range(50000))");
  ASSERT_TRUE(rows) << rows.error().message;
  EXPECT_EQ(*rows->GetAsString(0, 0), "50000");
  EXPECT_EQ(*rows->GetAsString(1, 0), "50000");
  EXPECT_EQ(*rows->GetAsString(2, 0), "8");
  EXPECT_EQ(*rows->GetAsString(3, 0), "8");
  EXPECT_EQ(*rows->GetAsString(4, 0), "id-00000");
}

}  // namespace
}  // namespace databox::duck
