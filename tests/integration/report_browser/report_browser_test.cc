// `databox report` and `databox serve` in a real browser: a refresh where noaa fails (its
// recordings answer HTTP 500) and usgs_earthquakes loads, then the page is written and opened by
// headless chromium from disk, and from `databox serve` on loopback. Assertions are on the DOM
// after the page's script ran (summary, ages, filter are made by the script, so a page whose script
// is broken fails) and on a screenshot. Last, `databox serve --every 1s` runs the refresh of the
// whole registry on its own, one at a time, and stops the running one on SIGTERM.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "cli/binary_test_support.h"
#include "common/test_paths.h"

namespace {

namespace fs = std::filesystem;
namespace test_paths = databox::test_paths;
using databox::cli::testing::Contains;
using databox::cli::testing::CopyRecordingsWithFailingSource;
using databox::cli::testing::RunDatabox;
using databox::cli::testing::RunResult;
using databox::cli::testing::Slurp;

const fs::path kExampleDir = fs::path(test_paths::SourceDir()) / "examples" / "databox";
const fs::path kRecordings = fs::path(test_paths::RecordingsDir());
constexpr auto kBrowserTimeout = std::chrono::seconds(120);

//! Runs `argv` with stdout and stderr to files in `dir`; kills it after kBrowserTimeout.
RunResult RunProgram(const std::vector<std::string>& argv, const fs::path& dir) {
  const fs::path out = dir / "program.out", err = dir / "program.err";
  const pid_t pid = fork();
  if (pid == 0) {
    const int fo = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int fe = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fo, 1);
    dup2(fe, 2);
    setpgid(0, 0);  // its helper processes go with it when it is killed
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  RunResult result;
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + kBrowserTimeout;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      result.err = "killed after " + std::to_string(kBrowserTimeout.count()) + " s\n";
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = Slurp(out);
  result.err += Slurp(err);
  return result;
}

//! Sends `GET path` to 127.0.0.1:`port` and returns the whole response ("" when none).
std::string HttpGet(int port, const std::string& path) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  std::string response;
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
    const std::string request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    if (send(fd, request.data(), request.size(), 0) == static_cast<ssize_t>(request.size())) {
      char buffer[4096];
      for (ssize_t n; (n = recv(fd, buffer, sizeof buffer, 0)) > 0;) response.append(buffer, n);
    }
  }
  close(fd);
  return response;
}

class ReportBrowser : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("databox_report_browser_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fs::copy(kExampleDir / "transform", dir_ / "transform", fs::copy_options::recursive);
    // A copy of the recordings in which every noaa response is an HTTP 500.
    CopyRecordingsWithFailingSource(kRecordings, dir_ / "recordings", "noaa");
    std::string registry = Slurp(kExampleDir / "databox.toml");
    Replace(registry, "replay = \"../../fixtures/recordings\"",
            "replay = \"" + (dir_ / "recordings").string() + "\"");
    Replace(registry, "retries = 5", "retries = 0");
    // usgs waits 1.5 s between its requests, so a refresh outlasts the 1 s schedule below and
    // a run time comes while one runs, whatever the machine's speed.
    Replace(registry, "pause_s = 0.2\n", "pause_s = 1.5\n");
    std::ofstream(dir_ / "databox.toml") << registry;
  }
  void TearDown() override {
    if (server_ > 0) {  // a test that stopped early leaves no server behind
      kill(server_, SIGKILL);
      waitpid(server_, nullptr, 0);
    }
    fs::remove_all(dir_);
  }

  static void Replace(std::string& text, const std::string& from, const std::string& to) {
    const auto pos = text.find(from);
    ASSERT_NE(pos, std::string::npos) << "example registry no longer contains: " << from;
    text.replace(pos, from.size(), to);
  }

  RunResult Databox(const std::vector<std::string>& args) {
    std::vector<std::string> full = {"--config", (dir_ / "databox.toml").string()};
    full.insert(full.end(), args.begin(), args.end());
    return RunDatabox(full, {"DATABOX_VENV_DIR=" + test_paths::VenvDir()}, dir_);
  }

  //! Headless chromium with a new empty profile, no network services, and `extra` arguments.
  RunResult Chromium(const std::vector<std::string>& extra, const std::string& profile) {
    const fs::path user_data = dir_ / profile;
    fs::create_directories(user_data);
    std::vector<std::string> argv = {CHROMIUM_BINARY,
                                     "--headless",
                                     "--no-sandbox",
                                     "--disable-gpu",
                                     "--disable-quic",
                                     "--no-first-run",
                                     "--disable-background-networking",
                                     "--disable-component-update",
                                     "--disable-sync",
                                     "--user-data-dir=" + user_data.string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return RunProgram(argv, dir_);
  }

  //! A refresh of usgs_earthquakes (loads) and noaa (fails), as the run history records it.
  void RefreshWithAFailedSource() {
    RunResult refresh = Databox({"refresh", "--source", "usgs_earthquakes", "--source", "noaa"});
    ASSERT_EQ(refresh.exit_code, 1) << refresh.out << refresh.err;
    ASSERT_TRUE(std::regex_search(refresh.out, std::regex("SOURCE_END source=noaa \\S+ status=1")))
        << refresh.out;
  }

  //! Starts `databox serve --port 0 <extra>` (server_) with stdout and stderr to `out`; the port
  //! it prints once it listens, or 0 when it printed none within 10 s.
  int StartServer(const std::vector<std::string>& extra, const fs::path& out) {
    std::vector<std::string> argv = {test_paths::DataboxBinary(),
                                     "--config",
                                     (dir_ / "databox.toml").string(),
                                     "serve",
                                     "--port",
                                     "0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    const std::string& venv = test_paths::VenvDir();
    server_ = fork();
    if (server_ == 0) {
      const int fo = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      dup2(fo, 1);
      dup2(fo, 2);
      setenv("DATABOX_VENV_DIR", venv.c_str(), 1);  // the transform venv, as Databox() sets
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    std::smatch match;
    std::string printed;
    const std::regex address(R"(http://127\.0\.0\.1:(\d+)/ )");
    for (int i = 0; i < 200 && !std::regex_search(printed, match, address); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      printed = Slurp(out);
    }
    return match.empty() ? 0 : std::stoi(match[1].str());
  }

  //! Sends SIGTERM to the server and returns its wait status.
  int StopServer() {
    kill(server_, SIGTERM);
    int status = 0;
    waitpid(server_, &status, 0);
    server_ = -1;
    return status;
  }

  fs::path dir_;
  pid_t server_ = -1;  //!< a `databox serve` this test started, until it is stopped
};

//! The text of the element whose opening tag matches `open_tag` (a regex), up to its close.
std::string ElementText(const std::string& dom, const std::string& open_tag,
                        const std::string& close_tag) {
  std::smatch match;
  if (!std::regex_search(dom, match, std::regex(open_tag))) return "";
  const auto start = static_cast<std::size_t>(match.position(0) + match.length(0));
  const auto end = dom.find(close_tag, start);
  return dom.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

TEST_F(ReportBrowser, PageOfARefreshWithAFailedSourceRendersInChromium) {
  ASSERT_TRUE(fs::exists(CHROMIUM_BINARY))
      << CHROMIUM_BINARY << " is missing: install Debian's chromium (scripts/setup lists it)";
  RefreshWithAFailedSource();
  if (HasFatalFailure()) return;

  const fs::path page = dir_ / "page.html";
  RunResult report = Databox({"report", "--out", page.string()});
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  ASSERT_TRUE(fs::exists(page));
  // Self-contained: nothing in the file makes the browser fetch (error texts may name URLs).
  const std::string html = Slurp(page);
  for (const char* fetch : {"src=", "href=", "url(", "@import", "<link", "<iframe", "<img"}) {
    EXPECT_FALSE(Contains(html, fetch)) << fetch;
  }

  RunResult dump = Chromium({"--dump-dom", "file://" + page.string()}, "profile-dom");
  ASSERT_EQ(dump.exit_code, 0) << "chromium could not start or render the page:\n" << dump.err;
  const std::string& dom = dump.out;
  ASSERT_TRUE(Contains(dom, "id=\"sources\"")) << "no page in chromium's output:\n"
                                               << dom.substr(0, 2000) << dump.err;

  // Made by the page's script: the summary, the filter switch, ages as of viewing.
  EXPECT_TRUE(std::regex_search(dom, std::regex(R"(<div id="summary"[^>]*data-ready="true")")))
      << dom;
  const std::string runs_summary =
      ElementText(dom, R"(<li class="summary-item" data-kind="runs">)", "</li>");
  EXPECT_TRUE(Contains(runs_summary, "1 runs shown, 1 failed; newest run failed")) << runs_summary;
  const std::string sources_summary =
      ElementText(dom, R"(<li class="summary-item" data-kind="sources">)", "</li>");
  EXPECT_TRUE(Contains(sources_summary, "8 sources: 1 fresh, 0 stale, 5 never loaded, 2 on demand"))
      << sources_summary;
  EXPECT_TRUE(Contains(dom, "id=\"failed-only\"")) << dom;
  const std::string age =
      ElementText(dom, R"(<td class="age" data-at-millis="\d+"[^>]*>)", "</td>");
  EXPECT_TRUE(std::regex_match(age, std::regex(R"(\d+ (s|min) ago)"))) << age;

  // Every source of the registry, judged.
  for (const char* source :
       {"ebird", "noaa", "usgs", "usgs_earthquakes", "gbif", "xeno_canto", "avonet", "usfws"}) {
    EXPECT_TRUE(std::regex_search(
        dom,
        std::regex(std::string(R"(<tr class="source [a-z_ ]+" data-source=")") + source + "\"")))
        << source;
  }
  EXPECT_TRUE(Contains(dom, R"(data-source="usgs_earthquakes" data-freshness="fresh")")) << dom;
  EXPECT_TRUE(Contains(dom, R"(data-source="avonet" data-freshness="on_demand")")) << dom;
  EXPECT_TRUE(Contains(dom, "taxonomy (disabled)")) << dom;

  // The run, failed, with noaa failed in extract and its error; the earthquakes loaded.
  EXPECT_TRUE(
      std::regex_search(dom, std::regex(R"(<section class="run failed" data-status="failed")")))
      << dom;
  EXPECT_TRUE(
      Contains(dom, R"(<tr class="source-run failed" data-source="noaa" data-status="failed">)"))
      << dom;
  EXPECT_TRUE(Contains(dom, R"(<tr class="source-run ok" data-source="usgs_earthquakes")")) << dom;
  const std::string error =
      ElementText(dom, R"(<tr class="source-error"><td colspan="8" class="error">)", "</td>");
  EXPECT_TRUE(Contains(error, "500")) << error;

  // Tables and lineage.
  EXPECT_TRUE(Contains(dom, R"(<tr class="table" data-table="raw_usgs_earthquakes.events">)"))
      << dom;
  EXPECT_TRUE(
      Contains(dom, R"(data-from="raw_noaa.daily_weather" data-to="analytics.fct_daily_weather")"))
      << dom;
  EXPECT_TRUE(
      Contains(dom, R"(data-from="usgs_earthquakes" data-to="raw_usgs_earthquakes.events")"))
      << dom;

  const fs::path png = dir_ / "page.png";
  RunResult shot = Chromium(
      {"--screenshot=" + png.string(), "--window-size=1280,2000", "file://" + page.string()},
      "profile-shot");
  ASSERT_EQ(shot.exit_code, 0) << "chromium could not take the screenshot:\n" << shot.err;
  ASSERT_TRUE(fs::exists(png)) << shot.err;
  EXPECT_GT(fs::file_size(png), 1000u);
  EXPECT_EQ(Slurp(png).substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST_F(ReportBrowser, ServeAnswersThePageAndTheRunHistoryOnLoopbackUntilSigterm) {
  ASSERT_TRUE(fs::exists(CHROMIUM_BINARY))
      << CHROMIUM_BINARY << " is missing: install Debian's chromium (scripts/setup lists it)";
  RefreshWithAFailedSource();
  if (HasFatalFailure()) return;

  const fs::path out = dir_ / "serve.out";
  const int port = StartServer({}, out);
  ASSERT_GT(port, 0) << "databox serve printed no address:\n" << Slurp(out);

  const std::string runs = HttpGet(port, "/runs.json");
  EXPECT_TRUE(Contains(runs, "HTTP/1.1 200 OK")) << runs;
  EXPECT_TRUE(Contains(runs, "Content-Type: application/json")) << runs;
  EXPECT_TRUE(Contains(runs, "\"status\": \"failed\"")) << runs;
  EXPECT_TRUE(Contains(runs, "\"source\": \"noaa\"")) << runs;
  EXPECT_TRUE(Contains(HttpGet(port, "/nothing"), "HTTP/1.1 404")) << "an unknown path";

  RunResult dump =
      Chromium({"--dump-dom", "http://127.0.0.1:" + std::to_string(port) + "/"}, "profile-serve");
  EXPECT_EQ(dump.exit_code, 0) << "chromium could not start or load the page:\n" << dump.err;
  EXPECT_TRUE(std::regex_search(dump.out, std::regex(R"(<div id="summary"[^>]*data-ready="true")")))
      << dump.out.substr(0, 3000) << dump.err;
  EXPECT_TRUE(Contains(dump.out, R"(<section class="run failed" data-status="failed")"))
      << dump.out.substr(0, 3000);

  const int status = StopServer();
  ASSERT_TRUE(WIFEXITED(status)) << Slurp(out);
  EXPECT_EQ(WEXITSTATUS(status), 143) << Slurp(out);
}

TEST_F(ReportBrowser, AFailedModelIsRedWithItsLineageEdgeAndItsErrorAtTheTopOfThePage) {
  ASSERT_TRUE(fs::exists(CHROMIUM_BINARY))
      << CHROMIUM_BINARY << " is missing: install Debian's chromium (scripts/setup lists it)";
  // A transform that succeeds, then a model that fails at run time over the earthquakes, and
  // one that reads it.
  RunResult first = Databox({"refresh", "--source", "usgs_earthquakes"});
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  const fs::path models = dir_ / "transform" / "models" / "analytics";
  std::ofstream(models / "broken_quakes.sql")
      << "MODEL (name analytics.broken_quakes, kind FULL);\n"
         "SELECT error('broken model: no magnitude for ' || id) AS m\n"
         "FROM polaris_aws.raw_usgs_earthquakes.events\n";
  std::ofstream(models / "after_broken.sql")
      << "MODEL (name analytics.after_broken, kind FULL);\nSELECT m FROM analytics.broken_quakes\n";
  RunResult refresh = Databox({"refresh", "--source", "usgs_earthquakes"});
  ASSERT_EQ(refresh.exit_code, 1) << refresh.out << refresh.err;

  // The run history holds each model's result, read from SQLMesh's output and state.
  const std::string history = Slurp(dir_ / ".databox" / "runs.jsonl");
  EXPECT_TRUE(std::regex_search(
      history, std::regex(R"("error":"[^"]*broken model: no magnitude for[^"]*","name":)"
                          R"("analytics.broken_quakes")")))
      << history;
  EXPECT_TRUE(std::regex_search(
      history,
      std::regex(R"("built_at":"\d{4}-[^"]+","error":"","name":"analytics.fct_earthquakes",)"
                 R"("rows":[1-9]\d*,"status":"ok")")))
      << history;
  EXPECT_TRUE(
      Contains(history, R"("name":"analytics.after_broken","rows":null,"status":"skipped")"))
      << history;

  const fs::path page = dir_ / "page.html";
  RunResult report = Databox({"report", "--out", page.string()});
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  RunResult dump = Chromium({"--dump-dom", "file://" + page.string()}, "profile-models");
  ASSERT_EQ(dump.exit_code, 0) << "chromium could not start or render the page:\n" << dump.err;
  const std::string& dom = dump.out;
  ASSERT_TRUE(Contains(dom, "id=\"sources\"")) << dom.substr(0, 2000) << dump.err;

  // The model red in the Models table, with its error; the one reading it skipped.
  const std::string row = ElementText(
      dom,
      R"(<tr class="model-health failed" data-model="analytics.broken_quakes" data-status="failed">)",
      "</tr>");
  EXPECT_TRUE(Contains(row, "broken model: no magnitude for")) << dom;
  // A model the failed plan did not reach: not run this time, its last build kept.
  const std::string quakes =
      ElementText(dom,
                  R"(<tr class="model-health not_run" )"
                  R"(data-model="analytics.fct_earthquakes" data-status="not_run">)",
                  "</tr>");
  EXPECT_TRUE(std::regex_search(quakes, std::regex(R"(<td class="nowrap">\d{4}-\d\d-\d\dT)")))
      << dom;
  // Its lineage: the raw table's edge into it red, its own edge to the model that reads it.
  EXPECT_TRUE(Contains(dom, R"(<path class="edge failed" data-from="raw_usgs_earthquakes.events" )"
                            R"(data-to="analytics.broken_quakes" data-status="failed")"))
      << dom;
  EXPECT_TRUE(Contains(dom, R"(<g class="node model failed" data-name="analytics.broken_quakes")"))
      << dom;
  EXPECT_TRUE(
      Contains(dom, R"(data-from="analytics.broken_quakes" data-to="analytics.after_broken")"))
      << dom;
  // The error above the fold: in the "Needs attention" box, which comes before every table.
  const auto attention = dom.find(R"(<section id="attention" class="failed">)");
  ASSERT_NE(attention, std::string::npos) << dom;
  const auto sources = dom.find("<table id=\"sources\">");
  const auto item = dom.find(R"(data-kind="model" data-name="analytics.broken_quakes")", attention);
  EXPECT_LT(item, sources) << dom;
  EXPECT_LT(dom.find("broken model: no magnitude for", attention), sources) << dom;
}

//! How often `pattern` occurs in `text`.
int Count(const std::string& text, const std::string& pattern) {
  int count = 0;
  for (std::size_t at = text.find(pattern); at != std::string::npos;
       at = text.find(pattern, at + pattern.size())) {
    ++count;
  }
  return count;
}

//! The pids of processes whose command line contains `needle` (other than this test).
std::vector<std::string> ProcessesNaming(const std::string& needle) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    if (pid == std::to_string(getpid())) continue;
    std::string cmdline = Slurp(entry.path() / "cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (Contains(cmdline, needle)) found.push_back(pid + ": " + cmdline);
  }
  return found;
}

TEST_F(ReportBrowser, ServeEverySecondRunsRefreshesOneAtATimeAndStopsTheRunningOneOnSigterm) {
  const fs::path out = dir_ / "serve.out";
  const int port = StartServer({"--every", "1s"}, out);
  ASSERT_GT(port, 0) << "databox serve printed no address:\n" << Slurp(out);

  // Until two scheduled refreshes have ended and their run records are served (a run record
  // appears when its refresh starts, so the schedule's count of finished ones is waited for too).
  std::string runs;
  std::string schedule;
  const std::regex two_finished(R"("finished": [2-9])");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(180);
  while (std::chrono::steady_clock::now() < deadline) {
    runs = HttpGet(port, "/runs.json");
    schedule = HttpGet(port, "/schedule.json");
    if (Count(runs, "\"run_id\"") >= 2 && std::regex_search(schedule, two_finished)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  const std::string page = HttpGet(port, "/");
  const std::string printed = Slurp(out);
  ASSERT_GE(Count(runs, "\"run_id\""), 2) << runs << printed;

  EXPECT_TRUE(Contains(schedule, "\"schedule\": \"every 1s\"")) << schedule;
  EXPECT_TRUE(std::regex_search(schedule, std::regex(R"("next_run_at": "\d{4}-\d\d-\d\dT)")))
      << schedule;
  EXPECT_TRUE(std::regex_search(schedule, two_finished)) << schedule;
  EXPECT_TRUE(std::regex_search(schedule, std::regex(R"("skipped": [1-9])"))) << schedule;
  EXPECT_TRUE(Contains(page, "id=\"schedule\"")) << page.substr(0, 3000);
  EXPECT_TRUE(Contains(page, "Scheduled refresh: every 1s; next run at")) << page.substr(0, 3000);

  // Each start and end on stdout and in the log of the state folder, and the run time that
  // came while one ran, skipped. Refreshes of this registry fail (noaa answers 500): exit 1.
  const std::string log = Slurp(dir_ / ".databox" / "serve.log");
  for (const std::string* text : {&printed, &log}) {
    EXPECT_GE(Count(*text, "scheduled refresh started\n"), 2) << *text;
    EXPECT_GE(Count(*text, "scheduled refresh finished: exit 1 after "), 2) << *text;
    EXPECT_TRUE(Contains(*text, "scheduled refresh skipped: the one started at ")) << *text;
  }
  EXPECT_TRUE(Contains(log, "SOURCE_END source=noaa")) << "the refresh's own output:\n" << log;

  const int status = StopServer();
  ASSERT_TRUE(WIFEXITED(status)) << Slurp(out);
  EXPECT_EQ(WEXITSTATUS(status), 143) << Slurp(out);
  const auto left = ProcessesNaming((dir_ / "databox.toml").string());
  EXPECT_TRUE(left.empty()) << "still running after the server stopped: " << left.front();
}

}  // namespace
