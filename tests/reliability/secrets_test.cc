// Secrets never leave the process. Every source secret of the example
// registry and S3-style storage credentials get distinctive values; a full refresh (all six
// routine sources, inspection, SQLMesh) and a refresh in which one source fails with its
// credential in the request URL must not write any of them, or a recognisable tail of them,
// to stdout, stderr, the run history, load packages, Iceberg metadata, the catalog, the
// analytics databases, SQLMesh's files or `databox status`.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <regex>
#include <string>
#include <vector>

#include "common/test_paths.h"
#include "harness.h"

namespace databox::reliability {
namespace {

using cli::testing::Contains;
using cli::testing::Slurp;

struct SecretVar {
  std::string env;
  std::string value;
};

// Source secrets of the example registry (eBird header, NOAA header, xeno-canto query param;
// the xeno-canto key comes from a .env file beside the registry) and S3 credentials read from
// the environment by fileio/s3 (the local warehouse must not need or record them).
const std::vector<SecretVar> kSecrets = {
    {"EBIRD_API_TOKEN", "dbx-secret-ebird-7f3a91c2e5d0"},
    {"NOAA_API_TOKEN", "dbx-secret-noaa-4be8d17c0a62"},
    {"XENO_CANTO_API_KEY", "dbx-secret-xenocanto-93d0aa51f7e4"},
    {"DATABOX_AWS_ACCESS_KEY_ID", "DBXSECRETACCESSKEY5C1E"},
    {"DATABOX_AWS_SECRET_ACCESS_KEY", "dbx-secret-s3key-0c7f5e2b9a14"},
    {"DATABOX_AWS_SESSION_TOKEN", "dbx-secret-s3session-6d2e8f1b3c70"},
};

//! The process environment for the runs; the xeno-canto key is left to the .env file.
std::vector<std::string> SecretEnv() {
  std::vector<std::string> env;
  for (const auto& s : kSecrets) {
    if (s.env != "XENO_CANTO_API_KEY") env.push_back(s.env + "=" + s.value);
  }
  return env;
}

//! A leak of `text` in `where`: the whole value or its distinctive last 12 characters.
void ExpectNoSecret(const std::string& text, const std::string& where, int& leaks) {
  for (const auto& s : kSecrets) {
    const std::string tail = s.value.substr(s.value.size() - 12);
    if (Contains(text, s.value) || Contains(text, tail)) {
      ++leaks;
      ADD_FAILURE() << s.env << " leaked into " << where;
    }
  }
}

//! Every file below the workspace but the registry and the .env file that holds a secret.
void ExpectNoSecretInFiles(const Workspace& ws, int& leaks) {
  const std::vector<fs::path> inputs = {ws.dir() / "databox.toml", ws.dir() / ".env"};
  for (const auto& s : kSecrets) {
    for (const auto& needle : {s.value, s.value.substr(s.value.size() - 12)}) {
      for (const auto& file : FilesContaining(ws.dir(), needle, inputs)) {
        ++leaks;
        ADD_FAILURE() << s.env << " leaked into " << file;
      }
    }
  }
}

//! Text columns of every DuckDB file below the state folder, searched by DuckDB itself (stored
//! strings are compressed, so the byte search of the files does not see them).
void ExpectNoSecretInDuckdbTables(const Workspace& ws, int& leaks) {
  std::string command = "'" + test_paths::VenvDir() + "/bin/python' '" + test_paths::SourceDir() +
                        "/tests/reliability/scan_duckdb.py'";
  int databases = 0;
  for (const auto& entry : fs::recursive_directory_iterator(ws.state_dir())) {
    if (entry.path().extension() != ".duckdb") continue;
    command += " '" + entry.path().string() + "'";
    ++databases;
  }
  ASSERT_GE(databases, 2) << "analytics and raw-views databases";
  command += " --";
  for (const auto& s : kSecrets) command += " '" + s.value + "'";
  command += " 2>&1";
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  ASSERT_EQ(pclose(pipe), 0) << out;
  std::cout << "secrets: " << out;
  ASSERT_TRUE(Contains(out, "scanned ")) << out;
  ASSERT_FALSE(Contains(out, "scanned 0 columns")) << out;
  if (Contains(out, " contains ")) {
    ++leaks;
    ADD_FAILURE() << "a secret is stored in a DuckDB table:\n" << out;
  }
}

class Secrets : public ::testing::Test {
 protected:
  void TearDown() override {
    Tally& tally = TallyFor("secrets");
    tally.faults += faults_;
    tally.runs += runs_;
    tally.violations += leaks_ + (HasFailure() && leaks_ == 0 ? 1 : 0);
  }
  RunResult Run(const Workspace& ws, const std::vector<std::string>& args) {
    ++runs_;
    RunResult r = ws.Databox(args, SecretEnv());
    ExpectNoSecret(r.out, "stdout of databox " + args.front(), leaks_);
    ExpectNoSecret(r.err, "stderr of databox " + args.front(), leaks_);
    return r;
  }
  int runs_ = 0;
  int faults_ = 0;
  int leaks_ = 0;
};

TEST_F(Secrets, FullRefreshAndAFailedRefreshWriteNoSecretAnywhere) {
  Workspace ws("secrets");
  for (const char* source : {"ebird", "noaa", "usgs", "usgs_earthquakes", "gbif"}) {
    ws.UseSharedRecordings(source);
  }
  ws.WriteRegistry();
  std::ofstream(ws.dir() / ".env")
      << "# test secret\nXENO_CANTO_API_KEY=" << kSecrets[2].value << "\n";
  // xeno-canto first replays its recording unchanged (a copy, so it can be broken later).
  const fs::path recorded_xc = fs::path(test_paths::RecordingsDir()) / "xeno_canto";
  const fs::path xc = ws.dir() / "recordings" / "xeno_canto";
  fs::create_directories(xc);
  for (const auto& file : fs::directory_iterator(recorded_xc)) {
    fs::copy_file(file.path(), xc / file.path().filename());
  }

  RunResult refresh = Run(ws, {"refresh"});
  ASSERT_EQ(refresh.exit_code, 0) << refresh.out << refresh.err;
  ASSERT_TRUE(Contains(refresh.out, "PHASE_START phase=transform")) << refresh.out;

  // Second refresh: every xeno-canto response is an HTTP 500, so the error text carries the
  // request URL whose query holds the key.
  ++faults_;
  for (const auto& file : fs::directory_iterator(xc)) {
    const std::string text = Slurp(file.path());
    std::ofstream(file.path()) << std::regex_replace(text, std::regex("code: 200"), "code: 500");
  }
  RunResult failed = Run(ws, {"refresh"});
  EXPECT_EQ(failed.exit_code, 1) << failed.out << failed.err;
  EXPECT_TRUE(Contains(failed.out + failed.err, "key=***")) << "the failing request is shown "
                                                               "with its key redacted\n"
                                                            << failed.out << failed.err;

  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"status"},
                                             {"status", "--json"},
                                             {"inspect", "raw_xeno_canto.recordings"},
                                             {"inspect", "raw_ebird.recent_observations"}}) {
    RunResult r = Run(ws, args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  const std::string history = Slurp(ws.state_dir() / "runs.jsonl");
  EXPECT_TRUE(Contains(history, "xeno_canto")) << history;
  ExpectNoSecret(history, "runs.jsonl", leaks_);
  ExpectNoSecretInFiles(ws, leaks_);
  ExpectNoSecretInDuckdbTables(ws, leaks_);

  // The run history holds error texts: only the owner may read it.
  struct stat st {};
  ASSERT_EQ(stat((ws.state_dir() / "runs.jsonl").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  // Files were scanned: metadata, packages and analytics databases exist.
  int metadata = 0, packages = 0, duckdb = 0;
  for (const auto& entry : fs::recursive_directory_iterator(ws.state_dir())) {
    const std::string name = entry.path().filename().string();
    metadata += name.ends_with(".metadata.json");
    packages += name == "package.json" || name == "index.json";
    duckdb += name.ends_with(".duckdb");
  }
  EXPECT_GT(metadata, 10);
  EXPECT_GT(packages, 10);
  EXPECT_GE(duckdb, 2);
}

TEST_F(Secrets, AnEchoedKeyIsMaskedInStoredPagesAndTablesAndStateIsOwnerOnly) {
  Workspace ws("secrets_echo");
  ws.WriteRegistry();
  std::ofstream(ws.dir() / ".env") << "XENO_CANTO_API_KEY=" << kSecrets[2].value << "\n";
  // A server that echoes the request: the recorded pages' first recording URL carries the key.
  ++faults_;
  const fs::path recorded_xc = fs::path(test_paths::RecordingsDir()) / "xeno_canto";
  const fs::path xc = ws.dir() / "recordings" / "xeno_canto";
  fs::create_directories(xc);
  int echoed = 0;
  for (const auto& file : fs::directory_iterator(recorded_xc)) {
    std::string text = Slurp(file.path());
    const std::string plain = "\"url\": \"https://xeno-canto.org/728080\"";
    for (std::size_t at = text.find(plain); at != std::string::npos;
         at = text.find(plain, at + 1), ++echoed) {
      text.insert(at + plain.size() - 1, "?key=" + kSecrets[2].value);
    }
    std::ofstream(xc / file.path().filename()) << text;
  }
  ASSERT_GT(echoed, 0) << "the recordings no longer hold the URL this test echoes the key into";

  RunResult run = Run(ws, {"run", "xeno_canto"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  RunResult query = Run(ws, {"query", "--format", "csv",
                             "SELECT recording_url FROM polaris_aws.raw_xeno_canto.recordings "
                             "WHERE recording_url LIKE 'https://xeno-canto.org/728080%'"});
  ASSERT_EQ(query.exit_code, 0) << query.err;
  EXPECT_TRUE(Contains(query.out, "https://xeno-canto.org/728080?key=***")) << query.out;

  int pages_masked = 0;
  for (const auto& entry : fs::recursive_directory_iterator(ws.state_dir())) {
    if (!entry.is_regular_file() || !entry.path().string().ends_with(".json")) continue;
    pages_masked += Contains(Slurp(entry.path()), "728080?key=***");
  }
  EXPECT_GT(pages_masked, 0) << "no stored page holds the masked URL";
  for (const auto& s : kSecrets) {
    for (const auto& file : FilesContaining(ws.state_dir(), s.value, {})) {
      ++leaks_;
      ADD_FAILURE() << s.env << " leaked into " << file;
    }
  }

  // Owner-only: the state folder, and every file and folder databox created in it.
  int checked = 0;
  struct stat st {};
  ASSERT_EQ(stat(ws.state_dir().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u) << ws.state_dir();
  for (const auto& entry : fs::recursive_directory_iterator(ws.state_dir())) {
    if (entry.is_symlink() || stat(entry.path().c_str(), &st) != 0) continue;
    ++checked;
    if ((st.st_mode & 077) != 0) {
      ADD_FAILURE() << entry.path() << " is readable by others: " << std::oct << (st.st_mode & 0777)
                    << std::dec;
    }
  }
  EXPECT_GT(checked, 20);

  // A state folder an older version left world-readable is closed by the next run.
  ASSERT_EQ(::chmod(ws.state_dir().c_str(), 0755), 0);
  RunResult again = Run(ws, {"run", "xeno_canto"});
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  ASSERT_EQ(stat(ws.state_dir().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
}

}  // namespace
}  // namespace databox::reliability
