// Per-source replay and `databox run --record`, run by the built binary against a local HTTP
// server: a new source is recorded live beside replayed ones, then replays offline.
#include <gtest/gtest.h>

#include <string>

#include "cli/binary_test_support.h"
#include "http/loopback_server_test_support.h"

namespace databox::cli::testing {
namespace {

using http::testing::LoopbackServer;
using http::testing::ReceivedRequest;
using http::testing::Reply;

constexpr char kSecret[] = "rec-secret-5d21e9";

//! The server of the new source: two items, each echoing the request target (key included).
Reply Answer(const ReceivedRequest& request, int) {
  const std::string echo = "\"" + request.target + "\"";
  return Reply{.status = 200,
               .headers = {{"Content-Type", "application/json"}},
               .body = "{\"items\": [{\"id\": 1, \"name\": \"heron\", \"seen\": " + echo +
                       "}, {\"id\": 2, \"name\": \"egret\", \"seen\": " + echo + "}]}"};
}

//! A project that replays from recordings/, with `fresh` (nothing recorded yet) and `live_one`
//! (replay = false), both served by `base_url`.
std::string Registry(const std::string& base_url) {
  return "[project]\nstate_dir = \"state\"\n\n"
         "[project.http]\nreplay = \"recordings\"\nretries = 0\n\n"
         "[[source]]\nname = \"fresh\"\neligibility = \"routine\"\nbase_url = \"" +
         base_url +
         "\"\n"
         "[source.auth]\ntype = \"query\"\nname = \"key\"\nsecret = \"${REC_TEST_KEY}\"\n"
         "[[source.resource]]\nname = \"items\"\npath = \"/items\"\nrecords_path = \"items\"\n"
         "primary_key = [\"id\"]\nwrite_disposition = \"replace\"\n\n"
         "[[source]]\nname = \"live_one\"\neligibility = \"routine\"\nreplay = false\n"
         "base_url = \"" +
         base_url +
         "\"\n"
         "[[source.resource]]\nname = \"others\"\npath = \"/others\"\nrecords_path = \"items\"\n"
         "primary_key = [\"id\"]\nwrite_disposition = \"replace\"\n";
}

class RecordTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(folder_.path().empty());
    fs::create_directories(folder_.path() / "recordings");
  }
  void Write(const std::string& text) const {
    std::ofstream(folder_.path() / "databox.toml") << text;
  }
  RunResult Run(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
    std::vector<std::string> full = {"--config", (folder_.path() / "databox.toml").string()};
    full.insert(full.end(), args.begin(), args.end());
    return RunDatabox(full, env, folder_.path());
  }
  std::string Rows() {
    auto r = Run({"query", "--format", "csv",
                  "SELECT id, name, seen FROM polaris_aws.raw_fresh.items ORDER BY id"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return r.out;
  }

  TempFolder folder_{"databox_record"};
};

TEST_F(RecordTest, ALiveSourceRunsBesideReplayedOnes) {
  LoopbackServer server(Answer);
  Write(Registry(server.Url("")));
  // `fresh` replays and has no recordings: it fails without sending anything.
  auto replayed = Run({"run", "fresh"});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.out << replayed.err;
  EXPECT_NE(replayed.err.find("replay needs recordings in"), std::string::npos) << replayed.err;
  EXPECT_TRUE(server.received().empty());
  // `live_one` says replay = false: it is fetched live in the same project.
  auto live = Run({"run", "live_one"});
  EXPECT_EQ(live.exit_code, 0) << live.out << live.err;
  EXPECT_NE(live.out.find("others  replace  rows=2"), std::string::npos) << live.out;
  ASSERT_EQ(server.received().size(), 1u);
  EXPECT_EQ(server.received()[0].target, "/others");
}

TEST_F(RecordTest, ARecordedSourceReplaysOfflineWithTheSameRowsAndNoSecret) {
  std::string rows_live;
  {
    LoopbackServer server(Answer);
    Write(Registry(server.Url("")));
    auto missing = Run({"run", "fresh", "--record"});
    EXPECT_EQ(missing.exit_code, 2) << missing.out << missing.err;
    EXPECT_NE(missing.err.find("needs the secret: set REC_TEST_KEY"), std::string::npos)
        << missing.err;

    auto recorded = Run({"run", "fresh", "--record"}, {std::string("REC_TEST_KEY=") + kSecret});
    ASSERT_EQ(recorded.exit_code, 0) << recorded.out << recorded.err;
    EXPECT_NE(recorded.out.find("items  replace  rows=2"), std::string::npos) << recorded.out;
    EXPECT_NE(recorded.out.find("responses recorded in"), std::string::npos) << recorded.out;
    ASSERT_EQ(server.received().size(), 1u);
    EXPECT_NE(server.received()[0].target.find(kSecret), std::string::npos);  // really sent
    rows_live = Rows();
    EXPECT_NE(rows_live.find("heron"), std::string::npos) << rows_live;
  }  // the server is gone: what follows is offline
  const fs::path cassette = folder_.path() / "recordings" / "fresh" / "recorded.yaml";
  ASSERT_TRUE(fs::exists(cassette));
  const std::string text = Slurp(cassette);
  EXPECT_NE(text.find("/items?"), std::string::npos) << text;
  EXPECT_EQ(text.find(kSecret), std::string::npos) << text;

  auto offline = Run({"run", "fresh"});
  ASSERT_EQ(offline.exit_code, 0) << offline.out << offline.err;
  EXPECT_NE(offline.out.find("items  replace  rows=2"), std::string::npos) << offline.out;
  EXPECT_EQ(Rows(), rows_live);
  // No secret anywhere in the project's state either.
  for (const auto& entry : fs::recursive_directory_iterator(folder_.path())) {
    if (!entry.is_regular_file() || entry.path().extension() == ".duckdb" ||
        entry.path().extension() == ".parquet") {
      continue;
    }
    EXPECT_EQ(Slurp(entry.path()).find(kSecret), std::string::npos) << entry.path();
  }
}

TEST_F(RecordTest, RecordNeedsAReplayFolderAndAnHttpApiSource) {
  LoopbackServer server(Answer);
  Write(Registry(server.Url("")));
  auto no_folder = Run({"run", "live_one", "--record"});
  EXPECT_EQ(no_folder.exit_code, 2) << no_folder.out << no_folder.err;
  EXPECT_NE(no_folder.err.find("--record writes into the source's replay folder"),
            std::string::npos)
      << no_folder.err;
  auto resumed = Run({"run", "fresh", "--record", "--resume"}, {"REC_TEST_KEY=abcd1234"});
  EXPECT_EQ(resumed.exit_code, 2) << resumed.out << resumed.err;
  EXPECT_NE(resumed.err.find("it does not apply with --resume"), std::string::npos) << resumed.err;
  EXPECT_TRUE(server.received().empty());
}

}  // namespace
}  // namespace databox::cli::testing
