// A source load larger than its memory: `databox run` of a synthetic paginated REST source (GBIF
// occurrence-search pages, nested like the real records) served live on 127.0.0.1 by this test,
// several hundred MB in all, whose records grow mid-load (a list that becomes a child table a
// third of the way in, a new column half way). The load must keep its memory bounded by the
// pages in flight, not by the response or the resource: its peak resident size (the child's
// getrusage) stays under half the bytes served. Every record arrives once, in the right tables,
// with the grown columns null before they appear.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/binary_test_support.h"
#include "common/test_paths.h"

namespace {

namespace fs = std::filesystem;
namespace test_paths = databox::test_paths;
using databox::cli::testing::Slurp;
using databox::cli::testing::TempFolder;

constexpr int64_t kPageSize = 300;             // GBIF's largest page
constexpr int64_t kServedBytes = 520'000'000;  // about; the record count is derived from it

//! The first record with a `media` list (a child table new in the middle of the load).
int64_t MediaFrom(int64_t count) { return count / 3; }
//! The first record with `recordedBy` (a column new in the middle of the load).
int64_t RecordedByFrom(int64_t count) { return count / 2; }

//! Record `i` of `count` as JSON text: GBIF's occurrence fields, nested objects and lists.
//! Written by hand (no value needs escaping) so that the server outpaces the load.
void AppendRecord(std::string& out, int64_t i, int64_t count) {
  static const char* kCounties[] = {"Maricopa", "Pima", "Cochise", "Santa Cruz", "Coconino"};
  const std::string n = std::to_string(i);
  const std::string county = kCounties[i % 5];
  const std::string observer = "obsr" + std::to_string(100000 + i % 90000);
  out +=
      R"({"key":)" + std::to_string(4'000'000'000 + i) +
      R"(,"datasetKey":"4fa7b334-ce0d-4e88-aaae-2e0c138d049e","basisOfRecord":)"
      R"("HUMAN_OBSERVATION","occurrenceStatus":"PRESENT","scientificName":)"
      R"j("Seiurus aurocapilla (Linnaeus, 1766)","decimalLatitude":)j" +
      std::to_string(31.0 + static_cast<double>(i % 10000) / 3000.0) + R"(,"decimalLongitude":)" +
      std::to_string(-112.0 + static_cast<double>(i % 7000) / 2500.0) +
      R"(,"eventDate":"2025-05-)" + std::to_string(10 + i % 18) +
      R"(T07:15:00","individualCount":)" + std::to_string(1 + i % 25) + R"(,"catalogNumber":"OBS)" +
      std::to_string(1'000'000'000 + i) + R"(","references":"https://ebird.org/checklist/S)" +
      std::to_string(200'000'000 + i / 12) + R"(","locName":")" + county + " County hotspot " +
      std::to_string(i % 4000) + R"(","obsValid":)" + (i % 17 != 0 ? "true" : "false") +
      R"(,"gadm":{"level0":{"gid":"USA","name":"United States"},"level1":{"gid":"USA.3_1",)"
      R"("name":"Arizona"},"level2":{"gid":"USA.3.)" +
      std::to_string(1 + i % 15) + R"(_1","name":")" + county + R"("}},"issues":[)";
  for (int64_t k = 0; k < i % 4; ++k)
    out += (k ? ",\"ISSUE_" : "\"ISSUE_") + std::to_string(k) + "\"";
  out += "]";
  if (i >= MediaFrom(count)) {
    out += R"(,"media":[)";
    for (int64_t k = 0; k < 1 + i % 2; ++k) {
      out += std::string(k ? "," : "") + R"({"type":"StillImage","identifier":)" +
             R"("https://cdn.example.org/asset/)" + n + std::to_string(k) +
             R"(/1800","rightsHolder":")" + observer + R"("})";
    }
    out += "]";
  }
  if (i >= RecordedByFrom(count)) out += R"(,"recordedBy":")" + observer + "\"";
  out += "}";
}

//! Media rows of the records [0, count).
int64_t MediaRows(int64_t count) {
  int64_t rows = 0;
  for (int64_t i = MediaFrom(count); i < count; ++i) rows += 1 + i % 2;
  return rows;
}

//! Issue rows of the records [0, count).
int64_t IssueRows(int64_t count) {
  int64_t rows = 0;
  for (int64_t i = 0; i < count; ++i) rows += i % 4;
  return rows;
}

std::string Page(int64_t offset, int64_t count) {
  const int64_t last = std::min(count, offset + kPageSize);
  std::string body = R"({"offset":)" + std::to_string(offset) + R"(,"limit":)" +
                     std::to_string(kPageSize) + R"(,"endOfRecords":)" +
                     (last >= count ? "true" : "false") + R"(,"count":)" + std::to_string(count) +
                     R"(,"results":[)";
  for (int64_t i = offset; i < last; ++i) {
    if (i > offset) body += ",";
    AppendRecord(body, i, count);
  }
  return body + "]}";
}

//! GET /occurrence/search?offset=N&limit=L on 127.0.0.1, keep-alive, a thread per connection.
class PageServer {
 public:
  //! `null_key_at` >= 0: that record's key is null (a record the load refuses).
  explicit PageServer(int64_t count, int64_t null_key_at = -1)
      : count_(count), null_key_at_(null_key_at) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 || ::listen(fd_, 16) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      return;
    }
    port_ = ntohs(addr.sin_port);
    accept_ = std::thread([this] { Accept(); });
  }
  ~PageServer() {
    stop_ = true;
    if (accept_.joinable()) accept_.join();
    std::lock_guard lock(mu_);
    for (std::thread& t : connections_) t.join();
    ::close(fd_);
  }
  int port() const { return port_; }
  int64_t bytes() const { return bytes_; }
  int64_t requests() const { return requests_; }

 private:
  void Accept() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      const int client = ::accept(fd_, nullptr, nullptr);
      if (client < 0) continue;
      std::lock_guard lock(mu_);
      connections_.emplace_back([this, client] { Serve(client); });
    }
  }
  void Serve(int client) {
    std::string in;
    char buf[8192];
    while (!stop_) {
      const auto end = in.find("\r\n\r\n");
      if (end == std::string::npos) {
        pollfd p{client, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0) continue;
        const ssize_t got = ::recv(client, buf, sizeof buf, 0);
        if (got <= 0) break;
        in.append(buf, static_cast<size_t>(got));
        continue;
      }
      const std::string head = in.substr(0, end);
      in.erase(0, end + 4);
      std::string body;
      int status = 200;
      const auto at = head.find("offset=");
      if (head.rfind("GET /occurrence/search?", 0) != 0 || at == std::string::npos) {
        status = 404;
        body = "{}";
      } else {
        body = Page(std::stoll(head.substr(at + 7)), count_);
        if (null_key_at_ >= 0) {
          const std::string key = R"("key":)" + std::to_string(4'000'000'000 + null_key_at_);
          if (auto k = body.find(key); k != std::string::npos) {
            body.replace(k, key.size(), R"("key":null)");
          }
        }
        bytes_ += static_cast<int64_t>(body.size());
        ++requests_;
      }
      const std::string reply =
          "HTTP/1.1 " + std::to_string(status) +
          " X\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
          "\r\n\r\n" + body;
      for (size_t sent = 0; sent < reply.size();) {
        const ssize_t n = ::send(client, reply.data() + sent, reply.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) {
          ::close(client);
          return;
        }
        sent += static_cast<size_t>(n);
      }
    }
    ::close(client);
  }

  const int64_t count_;
  const int64_t null_key_at_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> bytes_{0};
  std::atomic<int64_t> requests_{0};
  std::thread accept_;
  std::mutex mu_;
  std::vector<std::thread> connections_;
};

struct Child {
  int exit_code = -1;
  int64_t peak_rss_kb = 0;
  std::string out, err;
};

//! Runs databox with `args` in `dir`, its peak resident size from wait4.
Child RunDatabox(const std::vector<std::string>& args, const fs::path& dir) {
  const fs::path out = dir / "stdout", err = dir / "stderr";
  std::cout.flush();  // else the child's freopen writes what the parent had buffered
  std::fflush(nullptr);
  const std::string& binary = test_paths::DataboxBinary();
  const std::string& venv = test_paths::VenvDir();
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!std::freopen(out.c_str(), "w", stdout) || !std::freopen(err.c_str(), "w", stderr) ||
        ::chdir(dir.c_str()) != 0) {
      ::_exit(127);
    }
    ::setenv("DATABOX_VENV_DIR", venv.c_str(), 1);
    std::vector<char*> argv{const_cast<char*>(binary.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  Child child;
  child.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  child.peak_rss_kb = usage.ru_maxrss;
  child.out = Slurp(out);
  child.err = Slurp(err);
  return child;
}

//! The CSV rows `sql` returns (header dropped).
std::vector<std::string> Query(const std::string& sql, const fs::path& dir) {
  Child q = RunDatabox({"--config", "databox.toml", "query", "--format", "csv", sql}, dir);
  EXPECT_EQ(q.exit_code, 0) << sql << "\n" << q.err;
  std::vector<std::string> rows;
  std::istringstream lines(q.out);
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line)) rows.push_back(line);
  return rows;
}

//! A project whose one source `synthetic` (one append resource, `occurrences`) reads the pages
//! served on `port`; `columns` (TOML) adds column hints to the resource.
void WriteRegistry(const fs::path& dir, int port, const std::string& columns) {
  std::ofstream(dir / "databox.toml")
      << "[project]\nname = \"large\"\nstate_dir = \".databox\"\n\n"
         "[project.catalog]\ntype = \"sql\"\nname = \"lake\"\n\n"
         "[[source]]\nname = \"synthetic\"\ndescription = \"GBIF-style pages served by the "
         "test\"\neligibility = \"explicit\"\nkind = \"rest_json\"\n"
         "base_url = \"http://127.0.0.1:"
      << port
      << "\"\n\n[[source.resource]]\nname = \"occurrences\"\npath = \"/occurrence/search\"\n"
         "records_path = \"results\"\npagination = { type = \"offset_limit\", page_size = "
      << kPageSize << ", total_path = \"count\" }\nwrite_disposition = \"append\"\n"
      << columns;
}

TEST(LargeSource, RunHoldsBoundedMemoryAndGrowsTheSchemaMidLoad) {
  TempFolder temp("databox_large_source");
  ASSERT_FALSE(temp.path().empty());
  const int64_t page_bytes = static_cast<int64_t>(Page(0, 1'000'000).size());
  const char* mb = std::getenv("DATABOX_LARGE_SOURCE_MB");  // to try other sizes by hand
  const int64_t served = mb != nullptr ? std::atoll(mb) * 1'000'000 : kServedBytes;
  const int64_t count = served / page_bytes * kPageSize;
  PageServer server(count);
  ASSERT_NE(server.port(), 0) << "could not listen on 127.0.0.1";
  WriteRegistry(temp.path(), server.port(), "");
  const Child run = RunDatabox({"--config", "databox.toml", "run", "synthetic"}, temp.path());
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const int64_t served_mb = server.bytes() / (1024 * 1024);
  const int64_t peak_mb = run.peak_rss_kb / 1024;
  std::cout << "served " << served_mb << " MB in " << count << " records; databox run peak RSS "
            << peak_mb << " MB\n";
  EXPECT_GE(served_mb, 300) << "the source must be larger than the memory allowed";
  EXPECT_LT(peak_mb, served_mb / 2) << "the load's memory grows with the response: peak " << peak_mb
                                    << " MB for " << served_mb << " MB served\n"
                                    << run.out;

  const std::string t = "polaris_aws.raw_synthetic.";
  EXPECT_EQ(
      Query("SELECT count(*), count(DISTINCT key), min(key), max(key) FROM " + t + "occurrences",
            temp.path()),
      std::vector<std::string>{std::to_string(count) + "," + std::to_string(count) + "," +
                               std::to_string(4'000'000'000) + "," +
                               std::to_string(4'000'000'000 + count - 1)});
  // The column that appeared half way: null before, set from its first record on.
  EXPECT_EQ(Query("SELECT count(recorded_by), min(key) FILTER (WHERE recorded_by IS NOT NULL), "
                  "max(key) FILTER (WHERE recorded_by IS NULL) FROM " +
                      t + "occurrences",
                  temp.path()),
            std::vector<std::string>{std::to_string(count - RecordedByFrom(count)) + "," +
                                     std::to_string(4'000'000'000 + RecordedByFrom(count)) + "," +
                                     std::to_string(4'000'000'000 + RecordedByFrom(count) - 1)});
  // The child table that appeared a third of the way in, joined to its parents.
  EXPECT_EQ(Query("SELECT count(*), min(o.key) FROM " + t + "occurrences__media m JOIN " + t +
                      "occurrences o ON m._dlt_parent_id = o._dlt_id",
                  temp.path()),
            std::vector<std::string>{std::to_string(MediaRows(count)) + "," +
                                     std::to_string(4'000'000'000 + MediaFrom(count))});
  EXPECT_EQ(Query("SELECT count(*) FROM " + t + "occurrences__issues", temp.path()),
            std::vector<std::string>{std::to_string(IssueRows(count))});
}

// The pages are normalized while later ones are fetched: a record the load refuses on an early
// page ends the load in the normalize phase and stops the requests there, not after the last
// page; nothing is committed and no data file is left behind.
TEST(LargeSource, ARefusedRecordStopsTheExtractionAndCommitsNothing) {
  TempFolder temp("databox_large_source_refused");
  ASSERT_FALSE(temp.path().empty());
  const int64_t pages = 2000;
  PageServer server(pages * kPageSize, /*null_key_at=*/2 * kPageSize + 5);
  ASSERT_NE(server.port(), 0) << "could not listen on 127.0.0.1";
  WriteRegistry(temp.path(), server.port(),
                "columns = { key = { type = \"bigint\", nullable = false } }\n");
  const Child run = RunDatabox({"--config", "databox.toml", "run", "synthetic"}, temp.path());
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.err.find("is not nullable but the record has null"), std::string::npos) << run.err;
  std::cout << "requests before the load stopped: " << server.requests() << " of " << pages << "\n";
  EXPECT_LT(server.requests(), 100) << "extraction went on after the load failed";
  const std::string history = Slurp(temp.path() / ".databox" / "runs.jsonl");
  EXPECT_TRUE(std::regex_search(history, std::regex(R"("phase"\s*:\s*"normalize")"))) << history;
  // Nothing committed, no data file written for it left.
  std::error_code ec;
  int64_t parquet = 0;
  for (auto it = fs::recursive_directory_iterator(temp.path() / ".databox", ec);
       it != fs::recursive_directory_iterator(); ++it) {
    parquet += it->path().extension() == ".parquet";
  }
  EXPECT_EQ(parquet, 0) << "data files of the failed load are left";
}

}  // namespace
