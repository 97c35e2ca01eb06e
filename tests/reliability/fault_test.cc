// Dependency faults: the REST catalog and the S3 store fail while `databox run`
// loads. Real services (scripts/services: SeaweedFS S3, PostgreSQL, and the FALLBACK Iceberg REST
// catalog, which is NOT Apache Polaris) sit behind two loopback fault proxies (fault_proxy.h);
// the test's registry points the catalog URI and the S3 endpoint at the proxies, with small
// timeouts and 2 retries, and each scenario schedules faults on chosen requests.
//
// Every table of the test source is append-only, so a load committed twice shows as duplicate
// rows. After every run pyiceberg reads the namespace straight from the catalog and the store
// (not through the proxies) and the test checks: every load listed in _dlt_load_status has
// exactly its rows in every data table, and no data table holds rows of an unlisted load
// (nothing partial, nothing twice). Transient faults (fewer than the retry budget, or a lost
// commit answer the loader must reconcile) must end in a successful load; persistent faults in
// exit 1 within a bounded time, with an error naming the dependency, the operation and the
// redacted URL, and no new snapshot anywhere; then a clean run must load once.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/test_paths.h"
#include "fault_proxy.h"
#include "harness.h"

namespace databox::reliability {
namespace {

using cli::testing::Contains;
using std::chrono::milliseconds;

constexpr char kCategory[] = "dependency faults";
//! A failing run must end within this (client timeouts are 2 s, 2 retries).
constexpr auto kFailureBound = std::chrono::seconds(60);
//! The client timeout the registry sets for both dependencies, and a hold past it.
constexpr double kClientTimeoutS = 2;
constexpr milliseconds kPastTimeout{3000};

const fs::path kServices = fs::path(test_paths::SourceDir()) / "scripts" / "services";

std::map<std::string, std::string> ReadEnvFile(const fs::path& path) {
  std::map<std::string, std::string> values;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const auto eq = line.find('=');
    if (eq != std::string::npos) values[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return values;
}

int PortOf(const std::string& url) {
  const auto colon = url.rfind(':');
  return colon == std::string::npos ? 0 : std::atoi(url.c_str() + colon + 1);
}

//! The services and the proxies in front of them, for the whole test program.
struct Services {
  fs::path dir;
  std::map<std::string, std::string> env;  //!< s3.env + polaris.env
  std::string error;                       //!< why they could not start
  std::unique_ptr<FaultProxy> catalog;     //!< in front of CATALOG_URI
  std::unique_ptr<FaultProxy> s3;          //!< in front of S3_ENDPOINT

  std::string Get(const std::string& key) const {
    auto it = env.find(key);
    return it == env.end() ? "" : it->second;
  }
};

Services* g_services = nullptr;

//! Runs a services script; on failure returns its output as the reason.
std::string RunScript(const std::string& script, const std::string& args, const fs::path& dir) {
  const fs::path out = dir / (script + ".out");
  const std::string command = "'" + (kServices / script).string() + "' --dir '" + dir.string() +
                              "' " + args + " >'" + out.string() + "' 2>&1";
  if (std::system(command.c_str()) == 0) return "";
  return script + " failed:\n" + cli::testing::Slurp(out);
}

class DependencyFaults : public ::testing::Test {
 public:
  static void SetUpTestSuite() {
    auto* s = new Services;
    g_services = s;
    s->dir = fs::temp_directory_path() /
             ("databox_reliability_" + std::to_string(getpid()) + "_services");
    fs::remove_all(s->dir);
    fs::create_directories(s->dir);
    // PostgreSQL runs as user postgres when we are root: the folder must be traversable.
    ::chmod(s->dir.c_str(), 0755);
    std::cout << "dependency faults: starting SeaweedFS S3 and the FALLBACK Iceberg REST catalog "
                 "(Iceberg's reference REST server over PostgreSQL; NOT Apache Polaris)"
              << std::endl;
    s->error = RunScript("start-s3", "", s->dir);
    if (s->error.empty()) s->error = RunScript("start-polaris", "--allow-fallback", s->dir);
    if (!s->error.empty()) return;
    s->env = ReadEnvFile(s->dir / "s3.env");
    for (const auto& [k, v] : ReadEnvFile(s->dir / "polaris.env")) s->env[k] = v;
    if (s->Get("CATALOG_FALLBACK") != "1") {
      s->error = "start-polaris did not start the FALLBACK catalog (CATALOG_KIND=" +
                 s->Get("CATALOG_KIND") + "); these tests drive the no-auth FALLBACK";
      return;
    }
    s->catalog = std::make_unique<FaultProxy>(PortOf(s->Get("CATALOG_URI")));
    s->s3 = std::make_unique<FaultProxy>(PortOf(s->Get("S3_ENDPOINT")));
    std::cout << "catalog: FALLBACK at " << s->Get("CATALOG_URI") << " behind proxy "
              << s->catalog->Url() << "; S3 (SeaweedFS): " << s->Get("S3_ENDPOINT")
              << " behind proxy " << s->s3->Url() << std::endl;
  }

  static void TearDownTestSuite() {
    if (g_services == nullptr) return;
    g_services->catalog.reset();
    g_services->s3.reset();
    const std::string stopped = RunScript("stop", "", g_services->dir);
    if (!stopped.empty()) std::cout << "WARNING: " << stopped << std::endl;
    std::error_code ignored;
    fs::remove_all(g_services->dir, ignored);
    delete g_services;
    g_services = nullptr;
  }

 protected:
  void SetUp() override {
    ASSERT_NE(g_services, nullptr);
    ASSERT_TRUE(g_services->error.empty())
        << "the services for the dependency-fault tests could not start (FAILED, not "
           "skipped):\n"
        << g_services->error;
  }
  void TearDown() override {
    Tally& tally = TallyFor(kCategory);
    tally.faults += faults_;
    tally.runs += runs_;
    tally.violations += violations_;
    if (g_services != nullptr && g_services->catalog) {
      g_services->catalog->SetRules({});
      g_services->s3->SetRules({});
    }
  }

  int faults_ = 0;
  int runs_ = 0;
  int violations_ = 0;
};

//! The registry text: the example registry's catalog replaced by the REST catalog behind the
//! proxy and an S3 warehouse behind the other proxy, then the test source `source`.
std::string SourceToml(const std::string& source) {
  return R"(
[[source]]
name = ")" +
         source +
         R"("
description = "dependency-fault tests: a paginated JSON source served from test cassettes"
eligibility = "routine"
kind = "rest_json"
base_url = "https://faulty.example.test/api"
retries = 0

[[source.resource]]
name = "notes"
path = "/notes"
records_path = "results"
write_disposition = "append"

[[source.resource]]
name = "items"
path = "/items"
records_path = "results"
pagination = { type = "page_number", page_param = "page", page_size_param = "per_page", page_size = 2 }
write_disposition = "append"
)";
}

std::string TimeoutKeys() {
  std::ostringstream keys;
  keys << "timeout_s = " << kClientTimeoutS << "\nconnect_timeout_s = " << kClientTimeoutS
       << "\nretries = 2\nbackoff_initial_s = 0.05\nbackoff_max_s = 0.2\n";
  return keys.str();
}

void WriteRestRegistry(Workspace& ws, const std::string& source) {
  ws.WriteRegistry(SourceToml(source));
  const fs::path file = ws.dir() / "databox.toml";
  std::string text = cli::testing::Slurp(file);
  const auto begin = text.find("[project.catalog]");
  const auto end = text.find("[project.analytics]");
  ASSERT_TRUE(begin != std::string::npos && end != std::string::npos && begin < end)
      << "the example registry no longer has [project.catalog] before [project.analytics]";
  const Services& s = *g_services;
  const std::string block =
      "[project.catalog]\ntype = \"rest\"\nname = \"databox_lake\"\nuri = \"" + s.catalog->Url() +
      "\"\nwarehouse = \"databox_lake\"\n" + TimeoutKeys() +
      "\n[project.warehouse]\nlocation = \"s3://" + s.Get("S3_BUCKET") +
      "/warehouse\"\n\n[project.warehouse.s3]\n" + "endpoint = \"" + s.s3->Url() +
      "\"\nregion = \"" + s.Get("S3_REGION") +
      "\"\npath_style = true\naccess_key_id = \"${AWS_ACCESS_KEY_ID}\"\n"
      "secret_access_key = \"${AWS_SECRET_ACCESS_KEY}\"\n" +
      TimeoutKeys() + "\n";
  text.replace(begin, end - begin, block);
  std::ofstream(file) << text;
}

//! The source's responses: one note, three items on two pages (the second is short).
std::vector<Interaction> Responses() {
  const std::string items = "https://faulty.example.test/api/items?page=";
  return {Respond("https://faulty.example.test/api/notes", R"({"results":[{"id":1,"t":"n"}]})"),
          Respond(items + "1&per_page=2", R"({"results":[{"id":1,"v":"a"},{"id":2,"v":"b"}]})"),
          Respond(items + "2&per_page=2", R"({"results":[{"id":3,"v":"c"}]})")};
}

//! What pyiceberg sees in the namespace through the real catalog and store (no proxy).
nlohmann::json ReadNamespace(const Workspace& ws, const std::string& ns, std::string& error) {
  const Services& s = *g_services;
  const fs::path script =
      fs::path(test_paths::SourceDir()) / "tests/reliability/check_rest_tables.py";
  const fs::path err = ws.dir() / "check_rest_tables.err";
  const std::string command =
      "S3_ACCESS_KEY_ID='" + s.Get("S3_ACCESS_KEY_ID") + "' S3_SECRET_ACCESS_KEY='" +
      s.Get("S3_SECRET_ACCESS_KEY") + "' S3_REGION='" + s.Get("S3_REGION") + "' '" +
      test_paths::VenvDir() + "/bin/python' '" + script.string() + "' '" + s.Get("CATALOG_URI") +
      "' databox_lake '" + s.Get("S3_ENDPOINT") + "' '" + ns + "' 2>'" + err.string() + "'";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  std::string out;
  char buffer[4096];
  for (std::size_t n; pipe && (n = fread(buffer, 1, sizeof buffer, pipe.get())) > 0;) {
    out.append(buffer, n);
  }
  const int status = pipe ? pclose(pipe.release()) : -1;
  const auto parsed = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
  if (status != 0 || parsed.is_discarded() || !parsed.contains("tables")) {
    error = "pyiceberg could not read " + ns + ": " + cli::testing::Slurp(err) + out;
    return nullptr;
  }
  return parsed["tables"];
}

//! Problems with the published state: every load in _dlt_load_status (once) has exactly the
//! source's rows in `notes` and `items`, and those tables hold no rows of any other load.
std::vector<std::string> PublicationProblems(const nlohmann::json& tables) {
  std::vector<std::string> problems;
  if (!tables.contains("_dlt_load_status")) return {"_dlt_load_status is missing"};
  std::set<std::string> published;
  for (const auto& [load, count] : tables["_dlt_load_status"]["status_loads"].items()) {
    published.insert(load);
    if (count != 1) problems.push_back("load " + load + " is listed " + count.dump() + " times");
  }
  const std::map<std::string, nlohmann::json> expected = {
      {"notes", nlohmann::json::array({1})}, {"items", nlohmann::json::array({1, 2, 3})}};
  for (const auto& [table, keys] : expected) {
    if (!tables.contains(table)) {
      problems.push_back(table + " is missing");
      continue;
    }
    const nlohmann::json& by_load = tables[table]["by_load"];
    for (const auto& [load, ids] : by_load.items()) {
      if (!published.contains(load)) {
        problems.push_back(table + " holds rows of load " + load +
                           ", which _dlt_load_status does not list (partial publication)");
      } else if (ids != keys) {
        problems.push_back(table + " holds ids " + ids.dump() + " for load " + load +
                           ", expected " + keys.dump() + " (lost or duplicated rows)");
      }
    }
    for (const auto& load : published) {
      if (!by_load.contains(load)) {
        problems.push_back(table + " has no rows of published load " + load);
      }
    }
  }
  return problems;
}

std::map<std::string, std::string> MetadataLocations(const nlohmann::json& tables) {
  std::map<std::string, std::string> out;
  for (const auto& [name, entry] : tables.items()) out[name] = entry["metadata_location"];
  return out;
}

std::size_t PublishedLoads(const nlohmann::json& tables) {
  return tables.contains("_dlt_load_status") ? tables["_dlt_load_status"]["status_loads"].size()
                                             : 0;
}

enum class Dependency { kCatalog, kStorage };

struct Scenario {
  std::string name;
  Dependency dependency;
  std::vector<FaultRule> rules;
  bool persistent = false;                //!< the run must fail
  std::vector<std::string> must_mention;  //!< in the error of a failing run
};

Fault Status(int status, std::string retry_after = "") {
  return Fault{FaultKind::kStatus, status, std::move(retry_after), milliseconds(0)};
}
Fault Drop(FaultKind kind) { return Fault{kind, 0, "", milliseconds(0)}; }
Fault Slow() { return Fault{FaultKind::kSlow, 0, "", kPastTimeout}; }

constexpr int kAlways = -1;
// Request patterns (FALLBACK paths: /v1/namespaces/..., SeaweedFS path-style /<bucket>/<key>).
constexpr char kCreateCommitItems[] = "/v1/namespaces/[^/]+/tables/items$";
constexpr char kTransaction[] = "/v1/transactions/commit$";
constexpr char kLoadItems[] = "/v1/namespaces/[^/]+/tables/items(\\?|$)";
constexpr char kDataFile[] = "/data/[^/]+\\.parquet$";
constexpr char kManifest[] = "/metadata/[^/]+-m[0-9]+\\.avro$";
constexpr char kManifestList[] = "/metadata/snap-[^/]+\\.avro$";

//! The first scenario runs the source's first load (tables created); the others load into
//! existing tables (one transaction per load). Transient scenarios stay within the registry's
//! 2 retries; a lost or late commit answer is transient because the loader reconciles.
Scenario Transient(std::string name, Dependency dependency, std::vector<FaultRule> rules) {
  return Scenario{std::move(name), dependency, std::move(rules), false, {}};
}
Scenario Persistent(std::string name, Dependency dependency, std::vector<FaultRule> rules,
                    std::vector<std::string> must_mention) {
  return Scenario{std::move(name), dependency, std::move(rules), true, std::move(must_mention)};
}

std::vector<Scenario> Scenarios() {
  using K = FaultKind;
  const auto catalog = Dependency::kCatalog;
  const auto storage = Dependency::kStorage;
  return {
      Transient("first_load_create_commit_answer_lost", catalog,
                {{"POST", kCreateCommitItems, 1, kAlways, Drop(K::kDropAfterForward)}}),
      Transient("catalog_transaction_commit_503_once", catalog,
                {{"POST", kTransaction, 1, 1, Status(503)}}),
      Transient("catalog_transaction_commit_answer_lost_after_commit", catalog,
                {{"POST", kTransaction, 1, kAlways, Drop(K::kDropAfterForward)}}),
      Transient("catalog_transaction_commit_answer_slower_than_timeout", catalog,
                {{"POST", kTransaction, 1, 1, Slow()}}),
      Transient(
          "catalog_load_table_429_retry_after_then_503", catalog,
          {{"GET", kLoadItems, 1, 1, Status(429, "1")}, {"GET", kLoadItems, 2, 1, Status(503)}}),
      Transient("s3_put_data_file_dropped_and_manifest_500_twice", storage,
                {{"PUT", kDataFile, 1, 1, Drop(K::kDropBeforeForward)},
                 {"PUT", kManifest, 1, 2, Status(500)}}),
      // The loader reads the previous manifest list before it commits (fast append).
      Transient(
          "s3_get_manifest_list_truncated_then_slow", storage,
          {{"GET", kManifestList, 1, 1, Drop(K::kTruncate)}, {"GET", kManifestList, 2, 1, Slow()}}),
      Persistent("catalog_transaction_commit_503_always", catalog,
                 {{"POST", kTransaction, 1, kAlways, Status(503)}},
                 {"catalog", "committing a transaction", "POST"}),
      Persistent("catalog_load_table_503_always", catalog,
                 {{"GET", kLoadItems, 1, kAlways, Status(503)}},
                 {"catalog", "loading table", "GET"}),
      Persistent("s3_put_data_file_503_always", storage,
                 {{"PUT", kDataFile, 1, kAlways, Status(503)}}, {"S3 PUT", "s3://"}),
      Persistent("s3_get_manifest_list_truncated_always", storage,
                 {{"GET", kManifestList, 1, kAlways, Drop(K::kTruncate)}}, {"S3 GET", "s3://"}),
  };
}

std::string ProxyLog(const FaultProxy& proxy) {
  std::string out;
  for (const auto& r : proxy.log())
    out += "  " + r.method + " " + r.target + " -> " + r.outcome + "\n";
  return out;
}

TEST_F(DependencyFaults, TransientFaultsLoadOnceAndPersistentFaultsPublishNothing) {
  const std::string source = "depfault";
  const std::string ns = "raw_" + source;
  Workspace ws("dependency_faults");
  WriteRestRegistry(ws, source);
  ws.WriteCassette(source, Responses());
  const Services& s = *g_services;
  const std::vector<std::string> env = {"AWS_ACCESS_KEY_ID=" + s.Get("S3_ACCESS_KEY_ID"),
                                        "AWS_SECRET_ACCESS_KEY=" + s.Get("S3_SECRET_ACCESS_KEY")};
  auto run = [&] {
    ++runs_;
    return ws.Databox({"run", source}, env);
  };
  auto read = [&](const std::string& when) {
    std::string error;
    nlohmann::json tables = ReadNamespace(ws, ns, error);
    EXPECT_TRUE(error.empty()) << when << ": " << error;
    if (!error.empty()) return nlohmann::json();
    const auto problems = PublicationProblems(tables);
    for (const auto& p : problems) ADD_FAILURE() << when << ": " << p;
    violations_ += static_cast<int>(problems.size());
    return tables;
  };

  nlohmann::json before = nlohmann::json::object();  // nothing published yet
  for (const Scenario& sc : Scenarios()) {
    SCOPED_TRACE(sc.name);
    FaultProxy& target = sc.dependency == Dependency::kCatalog ? *s.catalog : *s.s3;
    target.SetRules(sc.rules);
    const auto started = std::chrono::steady_clock::now();
    RunResult r = run();
    const auto took =
        std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - started);
    const int injected = target.injected();
    const std::string log = ProxyLog(target);
    target.SetRules({});
    faults_ += injected;
    std::cout << "[" << sc.name << "] exit " << r.exit_code << " in " << took.count() << " ms, "
              << injected << " fault(s) injected" << std::endl;
    if (injected == 0) {
      ++violations_;
      ADD_FAILURE() << "the schedule never matched a request; requests seen:\n" << log;
    }

    nlohmann::json after = read("after the faulty run");
    if (!sc.persistent) {
      if (r.exit_code != 0) ++violations_;
      EXPECT_EQ(r.exit_code, 0) << "a transient fault failed the load:\n" << r.err << "\n" << log;
      if (PublishedLoads(after) != PublishedLoads(before) + 1) ++violations_;
      EXPECT_EQ(PublishedLoads(after), PublishedLoads(before) + 1);
      before = after;
      continue;
    }

    std::cout << "  error: " << r.err.substr(0, r.err.find('\n')) << std::endl;
    bool ok = r.exit_code == 1 && took < kFailureBound;
    EXPECT_EQ(r.exit_code, 1) << r.err << "\n" << log;
    EXPECT_LT(took, kFailureBound) << "a persistent fault must fail within a bounded time";
    for (const std::string& text : sc.must_mention) {
      ok = ok && Contains(r.err, text);
      EXPECT_TRUE(Contains(r.err, text)) << "the error does not mention '" << text << "':\n"
                                         << r.err;
    }
    // The catalog request's redacted URL (the proxy's address, which the client used); S3
    // errors name the object's s3:// URL (in must_mention).
    if (sc.dependency == Dependency::kCatalog) {
      ok = ok && Contains(r.err, target.Url());
      EXPECT_TRUE(Contains(r.err, target.Url())) << "the error does not name the URL:\n" << r.err;
    }
    // Nothing published: every table still at its previous metadata (no new snapshot).
    if (MetadataLocations(after) != MetadataLocations(before)) {
      ok = false;
      ADD_FAILURE() << "a failed run moved tables:\nbefore " << before.dump() << "\nafter "
                    << after.dump();
    }
    if (!ok) ++violations_;

    RunResult clean = run();
    if (clean.exit_code != 0) ++violations_;
    EXPECT_EQ(clean.exit_code, 0) << "the clean run after the fault failed:\n" << clean.err;
    nlohmann::json recovered = read("after the clean run");
    if (PublishedLoads(recovered) != PublishedLoads(after) + 1) ++violations_;
    EXPECT_EQ(PublishedLoads(recovered), PublishedLoads(after) + 1);
    before = recovered;
  }
}

}  // namespace
}  // namespace databox::reliability
