// Feeds recorded upstream responses through the normalizer and compares the resulting schemas
// with the schemas dlt inferred from the same responses (fixtures/recordings/*/dlt_schema.ambr).
// Expectations are read from the .ambr files, never written down here.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/test_paths.h"
#include "normalize/naming.h"
#include "normalize/normalizer.h"

namespace databox::normalize {
namespace {

const std::string kRecordings = test_paths::RecordingsDir() + "/";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

//! The dlt schema YAML held between the ''' quotes of a syrupy .ambr snapshot.
YAML::Node LoadAmbrSchema(const std::string& source) {
  std::istringstream in(ReadFile(kRecordings + source + "/dlt_schema.ambr"));
  std::string line;
  std::string yaml;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == "  '''") {
      if (inside) break;
      inside = true;
      continue;
    }
    if (inside) yaml += (line.size() >= 2 ? line.substr(2) : std::string()) + "\n";
  }
  return YAML::Load(yaml);
}

//! Response bodies of a VCR recording, keyed by request URI.
std::vector<std::pair<std::string, Json>> LoadResponses(const std::string& source,
                                                        const std::string& file) {
  YAML::Node root = YAML::LoadFile(kRecordings + source + "/" + file);
  std::vector<std::pair<std::string, Json>> out;
  for (const YAML::Node& interaction : root["interactions"]) {
    out.emplace_back(interaction["request"]["uri"].as<std::string>(),
                     Json::parse(interaction["response"]["body"]["string"].as<std::string>()));
  }
  return out;
}

//! One resource to replay: which responses, where its records are, how the source renames.
struct Case {
  std::string source;
  std::string recording;
  std::string table;
  std::string uri_part;                       //!< responses whose URI contains this
  std::string records_member;                 //!< array member holding records; "" = whole body
  std::map<std::string, std::string> rename;  //!< upstream key -> the source's field name
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.source << "/" << c.table; }

std::vector<Json> Records(const Case& c) {
  std::vector<Json> records;
  for (auto& [uri, body] : LoadResponses(c.source, c.recording)) {
    if (uri.find(c.uri_part) == std::string::npos) continue;
    std::vector<Json> items;
    if (c.records_member.empty()) {
      items.push_back(body);
    } else {
      for (const Json& item : body.at(c.records_member)) items.push_back(item);
    }
    for (const Json& item : items) {
      Json renamed = Json::object();
      for (auto it = item.begin(); it != item.end(); ++it) {
        auto r = c.rename.find(it.key());
        renamed[r == c.rename.end() ? it.key() : r->second] = it.value();
      }
      records.push_back(renamed);
    }
  }
  return records;
}

bool IsDltColumn(const std::string& name) { return name.rfind("_dlt_", 0) == 0; }

bool Flag(const YAML::Node& column, const char* key, bool fallback) {
  return column[key] ? column[key].as<bool>() : fallback;
}

//! Hints as the source declared them: taken from the oracle's columns (all of them, or only
//! the primary key).
ResourceHints HintsFromOracle(const YAML::Node& table, const Case& c, bool all_columns) {
  ResourceHints hints;
  hints.resource = table["resource"].as<std::string>();
  hints.table_name = c.table;
  hints.write_disposition = *ParseWriteDisposition(table["write_disposition"].as<std::string>());
  for (const auto& entry : table["columns"]) {
    const std::string name = entry.first.as<std::string>();
    const YAML::Node& column = entry.second;
    if (IsDltColumn(name)) continue;
    if (Flag(column, "primary_key", false)) hints.primary_key.push_back(name);
    if (!all_columns) continue;
    ColumnHint hint;
    hint.name = name;
    hint.data_type = ParseDataType(column["data_type"].as<std::string>());
    if (column["nullable"]) hint.nullable = column["nullable"].as<bool>();
    hints.columns.push_back(hint);
  }
  return hints;
}

std::vector<Case> Cases() {
  return {
      {"gbif",
       "test_schema__test_gbif_schema_snapshot.yaml",
       "occurrences",
       "occurrence/search",
       "results",
       {{"class", "class_name"}, {"order", "order_name"}}},
      {"noaa",
       "test_schema__test_noaa_schema_snapshot.yaml",
       "daily_weather",
       "/data?",
       "results",
       {}},
      {"noaa",
       "test_schema__test_noaa_schema_snapshot.yaml",
       "stations",
       "/stations?",
       "results",
       {}},
      {"noaa", "test_schema__test_noaa_schema_snapshot.yaml", "datasets", "/datasets/", "", {}},
      {"xeno_canto",
       "test_schema__test_xeno_canto_schema_snapshot.yaml",
       "recordings",
       "recordings?",
       "recordings",
       {{"gen", "genus"},
        {"sp", "species"},
        {"en", "english_name"},
        {"cnt", "country"},
        {"type", "recording_type"},
        {"url", "recording_url"},
        {"file", "audio_file_url"},
        {"lic", "license"},
        {"q", "quality"},
        {"date", "recording_date"}}},
  };
}

class OracleTest : public ::testing::TestWithParam<Case> {};

// With the source's declared columns as hints, the table dlt wrote must come out identical:
// same columns (hinted, inferred and dlt's own), types, nullability and keys; no extra tables.
TEST_P(OracleTest, HintedSchemaMatchesDlt) {
  const Case& c = GetParam();
  const YAML::Node table = LoadAmbrSchema(c.source)["tables"][c.table];
  ASSERT_TRUE(table) << c.table << " missing in the oracle";
  auto normalizer = Normalizer::Make(HintsFromOracle(table, c, true), "1784070690.1234567");
  ASSERT_TRUE(normalizer) << normalizer.error().ToString();
  const std::vector<Json> records = Records(c);
  ASSERT_FALSE(records.empty());
  for (const Json& record : records) ASSERT_TRUE((*normalizer)->Add(record));

  const std::vector<TableSchema> schemas = (*normalizer)->Schemas();
  ASSERT_EQ(schemas.size(), 1u) << "dlt made no child tables for " << c.table;
  const TableSchema& ours = schemas[0];
  EXPECT_EQ(ours.name, c.table);
  EXPECT_EQ(std::string(WriteDispositionName(ours.write_disposition)),
            table["write_disposition"].as<std::string>());
  std::set<std::string> expected_names;
  for (const auto& entry : table["columns"]) {
    const std::string name = entry.first.as<std::string>();
    const YAML::Node& expected = entry.second;
    expected_names.insert(name);
    const Column* column = ours.FindColumn(name);
    ASSERT_NE(column, nullptr) << c.table << "." << name;
    EXPECT_EQ(DataTypeName(column->data_type), expected["data_type"].as<std::string>())
        << c.table << "." << name;
    EXPECT_EQ(column->nullable, Flag(expected, "nullable", true)) << c.table << "." << name;
    EXPECT_EQ(column->primary_key, Flag(expected, "primary_key", false)) << c.table << "." << name;
    EXPECT_EQ(column->row_key, Flag(expected, "row_key", false)) << c.table << "." << name;
    EXPECT_EQ(column->unique, Flag(expected, "unique", false)) << c.table << "." << name;
  }
  for (const Column& column : ours.columns) {
    EXPECT_TRUE(expected_names.contains(column.name))
        << "extra column " << c.table << "." << column.name;
  }
  auto batches = (*normalizer)->Flush();
  ASSERT_EQ(batches.size(), 1u);
  EXPECT_EQ(batches[0].num_rows, records.size());
}

// With only the primary key hinted, every column we infer from the raw records must be one dlt
// has (naming), with dlt's type — except where the source declared a type that differs from
// what dlt infers from these values, listed here with the reason.
TEST_P(OracleTest, InferredColumnsMatchDltNamesAndTypes) {
  const Case& c = GetParam();
  const YAML::Node table = LoadAmbrSchema(c.source)["tables"][c.table];
  ASSERT_TRUE(table);
  // Source hints that override inference: ISO date-times the source keeps as text (dlt would
  // detect a timestamp), and a double column whose recorded value is the integer 1.
  const std::map<std::string, DataType> overridden = {
      {"occurrences.event_date", DataType::kTimestamp},
      {"daily_weather.date", DataType::kTimestamp},
      {"datasets.datacoverage", DataType::kBigint},
  };
  auto normalizer = Normalizer::Make(HintsFromOracle(table, c, false), "1784070690.1234567");
  ASSERT_TRUE(normalizer);
  for (const Json& record : Records(c)) ASSERT_TRUE((*normalizer)->Add(record));
  const std::vector<TableSchema> schemas = (*normalizer)->Schemas();
  ASSERT_EQ(schemas.size(), 1u);
  int compared = 0;
  for (const Column& column : schemas[0].columns) {
    const YAML::Node expected = table["columns"][column.name];
    ASSERT_TRUE(expected) << "dlt has no column " << c.table << "." << column.name;
    const std::string key = c.table + "." + column.name;
    if (auto it = overridden.find(key); it != overridden.end()) {
      EXPECT_EQ(column.data_type, it->second) << key;
      continue;
    }
    EXPECT_EQ(DataTypeName(column.data_type), expected["data_type"].as<std::string>()) << key;
    EXPECT_EQ(column.nullable, Flag(expected, "nullable", true)) << key;
    EXPECT_EQ(column.primary_key, Flag(expected, "primary_key", false)) << key;
    ++compared;
  }
  EXPECT_GE(compared, 5) << "too few columns compared for " << c.table;
}

INSTANTIATE_TEST_SUITE_P(Recordings, OracleTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& param_info) {
                           return param_info.param.source + "_" + param_info.param.table;
                         });

}  // namespace
}  // namespace databox::normalize
