#include "harness.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "common/test_paths.h"

namespace databox::reliability {

namespace {

const fs::path kExampleDir = fs::path(test_paths::SourceDir()) / "examples" / "databox";
const fs::path kRecordings = fs::path(test_paths::RecordingsDir());

std::string ReplaceOnce(std::string text, const std::string& from, const std::string& to) {
  const auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << "example registry no longer contains: " << from;
  if (pos != std::string::npos) text.replace(pos, from.size(), to);
  return text;
}

//! Prints the tally table after every test of the program ran.
class TallyPrinter : public ::testing::Environment {
 public:
  static std::vector<Tally>& All() {
    static std::vector<Tally> all;
    return all;
  }
  void TearDown() override {
    if (All().empty()) return;
    std::cout << "\nreliability summary\n";
    std::cout << std::left << std::setw(19) << "category" << std::setw(17) << "faults injected"
              << std::setw(7) << "runs"
              << "violations\n";
    int violations = 0;
    for (const auto& t : All()) {
      std::cout << std::setw(19) << t.category << std::setw(17) << t.faults << std::setw(7)
                << t.runs << t.violations << "\n";
      violations += t.violations;
    }
    std::cout << "total violations: " << violations << std::endl;
  }
};

[[maybe_unused]] const auto* const kPrinter = ::testing::AddGlobalTestEnvironment(new TallyPrinter);

}  // namespace

Tally& TallyFor(const std::string& category) {
  auto& all = TallyPrinter::All();
  for (auto& t : all) {
    if (t.category == category) return t;
  }
  all.push_back(Tally{category});
  return all.back();
}

Interaction Respond(std::string uri, std::string body, int status) {
  Interaction i;
  i.uri = std::move(uri);
  i.body = std::move(body);
  i.status = status;
  return i;
}

std::string FaultyItemsUri(int page) {
  return "https://faulty.example.test/api/items?page=" + std::to_string(page) + "&per_page=2";
}

std::string Base64(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()),
                                static_cast<int>(bytes.size()));
  out.resize(n);
  return out;
}

std::string ReadTestData(const std::string& relative) {
  const fs::path path = fs::path(test_paths::SourceDir()) / "tests" / "data" / relative;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing test data " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::map<std::string, std::string> CatalogTables(const fs::path& catalog_db,
                                                 const std::string& ns) {
  std::map<std::string, std::string> tables;
  if (!fs::exists(catalog_db)) return tables;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(catalog_db.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << "cannot open " << catalog_db << ": " << sqlite3_errmsg(db);
    sqlite3_close(db);
    return tables;
  }
  sqlite3_busy_timeout(db, 5000);
  sqlite3_stmt* stmt = nullptr;
  const char* sql =
      "SELECT table_name, metadata_location FROM iceberg_tables WHERE table_namespace = ?";
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK) {
    sqlite3_bind_text(stmt, 1, ns.c_str(), -1, SQLITE_TRANSIENT);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      const auto* name = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
      const auto* location = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1));
      tables[name ? name : ""] = location ? location : "";
    }
  } else {
    ADD_FAILURE() << "cannot read iceberg_tables in " << catalog_db << ": " << sqlite3_errmsg(db);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return tables;
}

std::vector<fs::path> FilesContaining(const fs::path& root, const std::string& needle,
                                      const std::vector<fs::path>& except) {
  std::vector<fs::path> found;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.is_symlink()) continue;
    bool skipped = false;
    for (const auto& e : except) skipped = skipped || entry.path() == e;
    if (skipped) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    if (ss.str().find(needle) != std::string::npos) found.push_back(entry.path());
  }
  return found;
}

ReaderView ReadWithPyiceberg(const fs::path& state_dir, const std::string& ns,
                             const std::vector<std::string>& columns) {
  const fs::path script = fs::path(test_paths::SourceDir()) / "tests/reliability/check_tables.py";
  const fs::path err = state_dir.parent_path() / "check_tables.err";
  std::string command = "'" + test_paths::VenvDir() + "/bin/python' '" + script.string() + "' '" +
                        state_dir.string() + "' '" + ns + "'";
  for (const auto& c : columns) command += " '" + c + "'";
  command += " 2>'" + err.string() + "'";
  ReaderView view;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) {
    view.error = "cannot start " + command;
    return view;
  }
  std::string out;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe.get())) > 0;) out.append(buffer, n);
  const int status = pclose(pipe.release());
  view.error = cli::testing::Slurp(err);
  fs::remove(err);
  if (status != 0) {
    if (view.error.empty()) view.error = "check_tables.py exited with " + std::to_string(status);
    return view;
  }
  const auto parsed = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.contains("tables")) {
    view.error = "check_tables.py printed no JSON: " + out;
    return view;
  }
  view.tables = parsed["tables"];
  view.error.clear();
  return view;
}

PyicebergServer::PyicebergServer()
    : err_(fs::temp_directory_path() /
           ("databox_reliability_" + std::to_string(getpid()) + "_check_tables.err")) {
  signal(SIGPIPE, SIG_IGN);  // a dead reader is reported by Ask, not by killing the test
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
    return;  // kept from databox children
  const std::string python = test_paths::VenvDir() + "/bin/python";
  const std::string script =
      (fs::path(test_paths::SourceDir()) / "tests/reliability/check_tables.py").string();
  pid_ = fork();
  if (pid_ == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    const int err = open(err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (err >= 0) dup2(err, 2);
    for (int fd : {in[0], in[1], out[0], out[1]}) close(fd);
    execl(python.c_str(), python.c_str(), script.c_str(), "--serve", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  to_ = in[1];
  from_ = fdopen(out[0], "r");
}

PyicebergServer::~PyicebergServer() {
  if (to_ >= 0) close(to_);
  if (from_ != nullptr) fclose(from_);
  if (pid_ > 0) waitpid(pid_, nullptr, 0);
  std::error_code ignored;
  fs::remove(err_, ignored);
}

nlohmann::json PyicebergServer::Ask(const nlohmann::json& request) {
  auto failed = [&](const std::string& what) {
    return nlohmann::json{{"error", what + ": " + cli::testing::Slurp(err_)}};
  };
  if (pid_ <= 0 || from_ == nullptr) return failed("cannot start check_tables.py --serve");
  const std::string line = request.dump() + "\n";
  for (std::size_t done = 0; done < line.size();) {
    const ssize_t n = write(to_, line.data() + done, line.size() - done);
    if (n <= 0) return failed("check_tables.py --serve is gone");
    done += static_cast<std::size_t>(n);
  }
  std::string answer;
  char buffer[65536];
  while (answer.empty() || answer.back() != '\n') {
    if (fgets(buffer, sizeof buffer, from_) == nullptr) {
      return failed("check_tables.py --serve ended without an answer");
    }
    answer += buffer;
  }
  const auto parsed = nlohmann::json::parse(answer, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return failed("check_tables.py --serve printed no JSON: " + answer);
  return parsed;
}

Workspace::Workspace(const std::string& name)
    : dir_(fs::temp_directory_path() /
           ("databox_reliability_" + std::to_string(getpid()) + "_" + name)) {
  fs::remove_all(dir_);
  fs::create_directories(dir_ / "recordings");
  fs::copy(kExampleDir / "transform", dir_ / "transform", fs::copy_options::recursive);
}

Workspace::~Workspace() {
  std::error_code ignored;
  fs::remove_all(dir_, ignored);
}

void Workspace::WriteRegistry(const std::string& extra_toml) {
  std::string text = cli::testing::Slurp(kExampleDir / "databox.toml");
  text = ReplaceOnce(text, "replay = \"../../fixtures/recordings\"",
                     "replay = \"" + (dir_ / "recordings").string() + "\"");
  text = ReplaceOnce(text, "retries = 5", "retries = 0");
  std::ofstream(dir_ / "databox.toml") << text << "\n" << extra_toml;
}

void Workspace::AddProjectSetting(const std::string& line) {
  const fs::path registry = dir_ / "databox.toml";
  std::string text = cli::testing::Slurp(registry);
  // max_workers is a [project] key of the example registry.
  std::ofstream(registry) << ReplaceOnce(text, "max_workers = 4\n", line + "\nmax_workers = 4\n");
}

void Workspace::UseSharedRecordings(const std::string& source) {
  const fs::path link = dir_ / "recordings" / source;
  if (!fs::exists(link)) fs::create_directory_symlink(kRecordings / source, link);
}

void Workspace::WriteCassette(const std::string& source,
                              const std::vector<Interaction>& interactions) {
  const fs::path folder = dir_ / "recordings" / source;
  fs::remove_all(folder);
  fs::create_directories(folder);
  std::ofstream out(folder / "cassette.yaml", std::ios::binary);
  out << "interactions:\n";
  for (const auto& i : interactions) {
    out << "- request:\n    body: null\n    headers: {}\n    method: GET\n    uri: " << i.uri
        << "\n  response:\n    body:\n      string: !!binary |\n        " << Base64(i.body)
        << "\n    headers:\n      Content-Type:\n      - " << i.content_type << "\n";
    if (!i.content_encoding.empty()) {
      out << "      Content-Encoding:\n      - " << i.content_encoding << "\n";
    }
    out << "    status:\n      code: " << i.status << "\n      message: test\n";
  }
  out << "version: 1\n";
}

RunResult Workspace::Databox(const std::vector<std::string>& args,
                             const std::vector<std::string>& env) const {
  std::vector<std::string> full = {"--config", (dir_ / "databox.toml").string()};
  full.insert(full.end(), args.begin(), args.end());
  std::vector<std::string> full_env = {"DATABOX_VENV_DIR=" + test_paths::VenvDir()};
  full_env.insert(full_env.end(), env.begin(), env.end());
  return cli::testing::RunDatabox(full, full_env, dir_);
}

pid_t StartDatabox(const Workspace& ws, const std::vector<std::string>& args,
                   const fs::path& out_path) {
  const std::string config = (ws.dir() / "databox.toml").string();
  const std::string out = out_path.string();
  std::vector<std::string> argv = {test_paths::DataboxBinary(), "--config", config};
  argv.insert(argv.end(), args.begin(), args.end());
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 1);
    dup2(fd, 2);
    if (chdir(ws.dir().c_str()) != 0) _exit(127);
    std::vector<char*> raw;
    for (auto& a : argv) raw.push_back(a.data());
    raw.push_back(nullptr);
    execv(test_paths::DataboxBinary().c_str(), raw.data());
    _exit(127);
  }
  return pid;
}

std::map<std::string, std::string> Workspace::Tables(const std::string& ns) const {
  return CatalogTables(state_dir() / "catalog.sqlite", ns);
}

std::optional<std::vector<std::string>> Workspace::QueryRows(const std::string& sql) const {
  RunResult r = Databox({"query", sql, "--json"});
  if (r.exit_code != 0) {
    ADD_FAILURE() << "query failed: " << sql << "\n" << r.err;
    return std::nullopt;
  }
  std::vector<std::string> rows;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) rows.push_back(line);
  }
  return rows;
}

std::string FaultySourceToml(const std::string& transform, const std::string& extra_resources,
                             const std::string& leading_resources) {
  std::string toml = R"(
[[source]]
name = "faulty"
description = "reliability suite: a paginated JSON source served from test cassettes"
eligibility = "routine"
kind = "rest_json"
base_url = "https://faulty.example.test/api"
retries = 2
backoff_initial_s = 0.01
backoff_max_s = 0.02

[source.auth]
type = "query"
name = "key"
secret = "${FAULTY_API_KEY}"
)" + leading_resources +
                     R"(
[[source.resource]]
name = "items"
path = "/items"
records_path = "results"
pagination = { type = "page_number", page_param = "page", page_size_param = "per_page", page_size = 2 }
primary_key = ["id"]
write_disposition = "merge"
merge_duplicates = "reject"
)";
  if (!transform.empty()) toml += "transform = '''\n" + transform + "\n'''\n";
  return toml + extra_resources;
}

}  // namespace databox::reliability
