// A source whose server redirects to another origin, run by the built binary: two loopback
// servers, 127.0.0.1 (the configured origin) and 127.0.0.2 (another origin). The source's
// secret must never reach the second server, nor the run history or the saved pages.
#include <gtest/gtest.h>

#include <string>

#include "cli/binary_test_support.h"
#include "http/loopback_server_test_support.h"

namespace databox::cli::testing {
namespace {

using http::testing::LoopbackServer;
using http::testing::ReceivedRequest;
using http::testing::Reply;

constexpr char kRedirectSecret[] = "redir-secret-7c41a2";

//! The other origin: a page of two items, whatever it was asked.
Reply OtherData(const ReceivedRequest&, int) {
  return Reply{.status = 200,
               .headers = {{"Content-Type", "application/json"}},
               .body = R"({"items": [{"id": 1, "name": "heron"}, {"id": 2, "name": "egret"}]})"};
}

//! Every request target and header the server received, as one text.
std::string Seen(const LoopbackServer& server) {
  std::string text;
  for (const ReceivedRequest& request : server.received()) {
    text += request.target + "\n";
    for (const auto& [name, value] : request.headers.fields()) text += name + ": " + value + "\n";
  }
  return text;
}

constexpr char kHeaderAuth[] = "type = \"header\"\nname = \"X-Api-Key\"\n";
constexpr char kQueryAuth[] = "type = \"query\"\nname = \"token\"\n";

//! A live source on `base_url` with its secret sent as `auth` says.
std::string Registry(const std::string& base_url, const std::string& redirect_hosts,
                     const std::string& auth) {
  return "[project]\nstate_dir = \"state\"\n\n[project.http]\nretries = 0\n\n"
         "[[source]]\nname = \"moved\"\neligibility = \"routine\"\nbase_url = \"" +
         base_url + "\"\n" + redirect_hosts + "[source.auth]\n" + auth +
         "secret = \"${REDIR_TEST_KEY}\"\n"
         "[[source.resource]]\nname = \"items\"\npath = \"/items\"\nrecords_path = \"items\"\n"
         "primary_key = [\"id\"]\nwrite_disposition = \"replace\"\n";
}

class RedirectBinaryTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_FALSE(folder_.path().empty()); }
  void Write(const std::string& text) const {
    std::ofstream(folder_.path() / "databox.toml") << text;
  }
  RunResult Run(const std::vector<std::string>& args) {
    std::vector<std::string> full = {"--config", (folder_.path() / "databox.toml").string()};
    full.insert(full.end(), args.begin(), args.end());
    return RunDatabox(full, {std::string("REDIR_TEST_KEY=") + kRedirectSecret}, folder_.path());
  }
  //! No file of the project (run history, saved pages, packages) holds the secret.
  void ExpectNoSecretInProject() const {
    int files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(folder_.path())) {
      if (!entry.is_regular_file() || entry.path().extension() == ".duckdb") continue;
      ++files;
      EXPECT_EQ(Slurp(entry.path()).find(kRedirectSecret), std::string::npos) << entry.path();
    }
    EXPECT_GT(files, 1);
  }

  TempFolder folder_{"databox_redirect"};
};

TEST_F(RedirectBinaryTest, ARedirectToAnotherOriginFailsTheRunNamingBothAndSendsNoSecret) {
  LoopbackServer other(OtherData, "127.0.0.2");
  LoopbackServer origin([&](const ReceivedRequest&, int) {
    return Reply{.status = 302, .headers = {{"Location", other.Url("/elsewhere")}}, .body = ""};
  });
  Write(Registry(origin.Url(""), "", kHeaderAuth));
  auto run = Run({"run", "moved"});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  const std::string origin_name = "http://127.0.0.1:" + std::to_string(origin.port());
  const std::string other_name = "http://127.0.0.2:" + std::to_string(other.port());
  EXPECT_NE(run.err.find(origin_name), std::string::npos) << run.err;
  EXPECT_NE(run.err.find(other_name), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("redirect_hosts of source moved"), std::string::npos) << run.err;
  EXPECT_EQ((run.out + run.err).find(kRedirectSecret), std::string::npos) << run.out << run.err;
  ASSERT_FALSE(origin.received().empty());
  EXPECT_NE(Seen(origin).find(kRedirectSecret), std::string::npos);  // the origin did get it
  EXPECT_TRUE(other.received().empty()) << Seen(other);
  ExpectNoSecretInProject();
}

TEST_F(RedirectBinaryTest, AnAllowedHostIsFollowedWithoutTheSecret) {
  LoopbackServer other(OtherData, "127.0.0.2");
  LoopbackServer origin([&](const ReceivedRequest& request, int) {
    // Echo the query, secret included, as a careless server would.
    const std::string query = request.target.substr(request.target.find('?'));
    return Reply{
        .status = 302, .headers = {{"Location", other.Url("/elsewhere" + query)}}, .body = ""};
  });
  Write(Registry(origin.Url(""), "redirect_hosts = [\"127.0.0.2\"]\n", kQueryAuth));
  auto run = Run({"run", "moved"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("items  replace  rows=2"), std::string::npos) << run.out;
  ASSERT_FALSE(other.received().empty());
  EXPECT_EQ(Seen(other).find(kRedirectSecret), std::string::npos) << Seen(other);
  ExpectNoSecretInProject();
}

}  // namespace
}  // namespace databox::cli::testing
