#include "normalize/normalizer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <map>
#include <set>
#include <type_traits>

#include "normalize/iso_datetime.h"

namespace databox::normalize {
namespace {

using ::testing::ElementsAre;

std::unique_ptr<Normalizer> MakeNormalizer(ResourceHints hints) {
  NormalizerOptions options;
  options.row_id_generator = [] { return std::string("ROOTID"); };
  auto normalizer = Normalizer::Make(std::move(hints), "1752600000.123456", options);
  EXPECT_TRUE(normalizer.has_value()) << normalizer.error().ToString();
  return std::move(*normalizer);
}

ResourceHints Hints(WriteDisposition disposition = WriteDisposition::kAppend) {
  ResourceHints hints;
  hints.resource = "things";
  hints.table_name = "t";
  hints.write_disposition = disposition;
  return hints;
}

std::vector<std::string> ColumnNames(const TableSchema& schema) {
  std::vector<std::string> names;
  for (const Column& column : schema.columns) names.push_back(column.name);
  return names;
}

const TableBatch* FindBatch(const std::vector<TableBatch>& batches, std::string_view name) {
  for (const TableBatch& batch : batches) {
    if (batch.schema.name == name) return &batch;
  }
  return nullptr;
}

template <typename Values>
const Values& ColumnOf(const TableBatch& batch, std::string_view name) {
  for (std::size_t i = 0; i < batch.schema.columns.size(); ++i) {
    if (batch.schema.columns[i].name == name) return std::get<Values>(batch.columns[i]);
  }
  ADD_FAILURE() << "no column " << name << " in " << batch.schema.name;
  static const Values kEmpty;
  return kEmpty;
}

TEST(NormalizerTest, FlattensObjectsAndNamesColumnsSnakeCase) {
  auto n = MakeNormalizer(Hints());
  ASSERT_TRUE(
      n->Add(Json::parse(R"({"eventId": 7, "geometry": {"type": "Point", "depthKm": 1.5}})")));
  auto schemas = n->Schemas();
  ASSERT_EQ(schemas.size(), 1u);
  EXPECT_THAT(
      ColumnNames(schemas[0]),
      ElementsAre("event_id", "geometry__type", "geometry__depth_km", "_dlt_load_id", "_dlt_id"));
  const Column* id = schemas[0].FindColumn("_dlt_id");
  ASSERT_NE(id, nullptr);
  EXPECT_TRUE(id->row_key && id->unique && !id->nullable);
  EXPECT_EQ(schemas[0].FindColumn("event_id")->data_type, DataType::kBigint);
  EXPECT_EQ(schemas[0].FindColumn("geometry__depth_km")->data_type, DataType::kDouble);
  auto batches = n->Flush();
  ASSERT_EQ(batches.size(), 1u);
  EXPECT_EQ(ColumnOf<StringValues>(batches[0], "_dlt_load_id")[0], "1752600000.123456");
}

TEST(NormalizerTest, ListsBecomeChildTablesWithDeterministicIds) {
  auto n = MakeNormalizer(Hints(WriteDisposition::kMerge));
  ASSERT_TRUE(n->Add(
      Json::parse(R"({"id": 1, "tags": ["a", "b"], "items": [{"x": 1, "sub": [10, 20]}]})")));
  auto schemas = n->Schemas();
  ASSERT_EQ(schemas.size(), 4u);
  EXPECT_EQ(schemas[0].name, "t");
  EXPECT_EQ(schemas[1].name, "t__tags");
  EXPECT_EQ(schemas[1].parent, "t");
  EXPECT_EQ(schemas[2].name, "t__items");
  EXPECT_EQ(schemas[3].name, "t__items__sub");
  EXPECT_EQ(schemas[3].parent, "t__items");
  // Root rows carry the load id; child rows carry parent, index and (merge) root id instead.
  EXPECT_THAT(ColumnNames(schemas[0]), ElementsAre("id", "_dlt_load_id", "_dlt_id"));
  EXPECT_THAT(ColumnNames(schemas[1]),
              ElementsAre("value", "_dlt_root_id", "_dlt_parent_id", "_dlt_list_idx", "_dlt_id"));
  EXPECT_THAT(ColumnNames(schemas[2]),
              ElementsAre("x", "_dlt_root_id", "_dlt_parent_id", "_dlt_list_idx", "_dlt_id"));
  const Column* root_id = schemas[1].FindColumn("_dlt_root_id");
  EXPECT_TRUE(root_id->root_key && !root_id->nullable);
  EXPECT_TRUE(schemas[1].FindColumn("_dlt_parent_id")->parent_key);
  EXPECT_EQ(schemas[1].FindColumn("_dlt_list_idx")->data_type, DataType::kBigint);

  auto batches = n->Flush();
  const TableBatch* tags = FindBatch(batches, "t__tags");
  ASSERT_NE(tags, nullptr);
  EXPECT_EQ(tags->num_rows, 2u);
  EXPECT_THAT(ColumnOf<StringValues>(*tags, "value"), ElementsAre("a", "b"));
  EXPECT_THAT(ColumnOf<StringValues>(*tags, "_dlt_parent_id"), ElementsAre("ROOTID", "ROOTID"));
  EXPECT_THAT(ColumnOf<StringValues>(*tags, "_dlt_root_id"), ElementsAre("ROOTID", "ROOTID"));
  EXPECT_THAT(ColumnOf<Int64Values>(*tags, "_dlt_list_idx"), ElementsAre(0, 1));
  // base64(shake_128(f"{parent_id}_{table}_{idx}").digest(10)), from Python's hashlib.
  EXPECT_EQ(ColumnOf<StringValues>(*tags, "_dlt_id")[0], "up74rXjQR/EjEA");
  const TableBatch* items = FindBatch(batches, "t__items");
  ASSERT_NE(items, nullptr);
  EXPECT_EQ(ColumnOf<StringValues>(*items, "_dlt_id")[0], "bOr1kAtAJatTNg");
  const TableBatch* sub = FindBatch(batches, "t__items__sub");
  ASSERT_NE(sub, nullptr);
  EXPECT_THAT(ColumnOf<StringValues>(*sub, "_dlt_parent_id"),
              ElementsAre("bOr1kAtAJatTNg", "bOr1kAtAJatTNg"));
  EXPECT_EQ(ColumnOf<StringValues>(*sub, "_dlt_id")[1], "a0OpULpiWniGJw");
  EXPECT_THAT(ColumnOf<StringValues>(*sub, "_dlt_root_id"), ElementsAre("ROOTID", "ROOTID"));
}

TEST(NormalizerTest, RootKeyIsPropagatedOnlyForMerge) {
  auto n = MakeNormalizer(Hints(WriteDisposition::kReplace));
  ASSERT_TRUE(n->Add(Json::parse(R"({"id": 1, "tags": ["a"]})")));
  auto schemas = n->Schemas();
  ASSERT_EQ(schemas.size(), 2u);
  EXPECT_EQ(schemas[1].FindColumn("_dlt_root_id"), nullptr);
  EXPECT_NE(schemas[1].FindColumn("_dlt_parent_id"), nullptr);
}

TEST(NormalizerTest, ListsOfListsGetAListTable) {
  auto n = MakeNormalizer(Hints());
  ASSERT_TRUE(n->Add(Json::parse(R"({"coords": [[1, 2], [3, 4]]})")));
  auto schemas = n->Schemas();
  ASSERT_EQ(schemas.size(), 3u);
  EXPECT_EQ(schemas[1].name, "t__coords");
  EXPECT_EQ(schemas[2].name, "t__coords__list");
  EXPECT_EQ(n->Flush()[2].num_rows, 4u);
}

TEST(NormalizerTest, ConflictingTypesCreateVariantColumns) {
  auto n = MakeNormalizer(Hints());
  ASSERT_TRUE(n->Add(Json::parse(R"({"a": 1})")));
  ASSERT_TRUE(n->Add(Json::parse(R"({"a": "12"})")));  // coerces to bigint
  ASSERT_TRUE(n->Add(Json::parse(R"({"a": "twelve"})")));
  ASSERT_TRUE(n->Add(Json::parse(R"({"a": 2.5})")));
  ASSERT_TRUE(n->Add(Json::parse(R"({"a": 3.0})")));  // integral double fits bigint
  auto schema = n->Schemas()[0];
  EXPECT_THAT(ColumnNames(schema),
              ElementsAre("a", "_dlt_load_id", "_dlt_id", "a__v_text", "a__v_double"));
  EXPECT_TRUE(schema.FindColumn("a__v_text")->variant);
  EXPECT_EQ(schema.FindColumn("a__v_text")->data_type, DataType::kText);
  auto batch = n->Flush()[0];
  EXPECT_THAT(ColumnOf<Int64Values>(batch, "a"), ElementsAre(1, 12, std::nullopt, std::nullopt, 3));
  EXPECT_THAT(ColumnOf<StringValues>(batch, "a__v_text"),
              ElementsAre(std::nullopt, std::nullopt, "twelve", std::nullopt, std::nullopt));
  EXPECT_THAT(ColumnOf<DoubleValues>(batch, "a__v_double"),
              ElementsAre(std::nullopt, std::nullopt, std::nullopt, 2.5, std::nullopt));
}

TEST(NormalizerTest, TextColumnsTakeOtherScalarsAsText) {
  auto n = MakeNormalizer(Hints());
  ASSERT_TRUE(n->Add(Json::parse(R"({"s": "x"})")));
  ASSERT_TRUE(n->Add(Json::parse(R"({"s": 5})")));
  ASSERT_TRUE(n->Add(Json::parse(R"({"s": 1.0})")));
  ASSERT_TRUE(n->Add(Json::parse(R"({"s": true})")));
  auto batch = n->Flush()[0];
  EXPECT_THAT(ColumnOf<StringValues>(batch, "s"), ElementsAre("x", "5", "1.0", "True"));
}

TEST(NormalizerTest, DetectsIsoTimestampsButNotDates) {
  auto n = MakeNormalizer(Hints());
  ASSERT_TRUE(n->Add(Json::parse(
      R"({"at": "2026-01-02T16:52:33+01:00", "day": "2022-05-29", "local": "2026-01-03T08:41"})")));
  auto schema = n->Schemas()[0];
  EXPECT_EQ(schema.FindColumn("at")->data_type, DataType::kTimestamp);
  EXPECT_EQ(schema.FindColumn("local")->data_type, DataType::kTimestamp);
  EXPECT_EQ(schema.FindColumn("day")->data_type, DataType::kText);
  auto batch = n->Flush()[0];
  // 2026-01-02T15:52:33Z: 20455 days since the epoch (date -d 2026-01-02 +%s / 86400).
  const int64_t expected = (20455LL * 86400 + 15 * 3600 + 52 * 60 + 33) * 1'000'000;
  EXPECT_EQ(ColumnOf<Int64Values>(batch, "at")[0], expected);
}

TEST(NormalizerTest, NullOnlyColumnsAreNotCreatedButHintedOnesAre) {
  ResourceHints hints = Hints();
  hints.columns.push_back(ColumnHint{"loadedAt", DataType::kTimestamp, std::nullopt, false});
  auto n = MakeNormalizer(hints);
  ASSERT_TRUE(n->Add(Json::parse(R"({"a": null, "b": 1})")));
  auto schema = n->Schemas()[0];
  EXPECT_THAT(ColumnNames(schema), ElementsAre("loaded_at", "b", "_dlt_load_id", "_dlt_id"));
  EXPECT_TRUE(schema.FindColumn("loaded_at")->nullable);
  ASSERT_TRUE(n->Add(Json::parse(R"({"a": "now seen"})")));
  EXPECT_NE(n->Schemas()[0].FindColumn("a"), nullptr);
}

TEST(NormalizerTest, HintsOverrideInference) {
  ResourceHints hints = Hints(WriteDisposition::kMerge);
  hints.primary_key = {"id"};
  hints.columns.push_back(ColumnHint{"eventDate", DataType::kText, std::nullopt, false});
  hints.columns.push_back(ColumnHint{"ratio", DataType::kDouble, std::nullopt, false});
  auto n = MakeNormalizer(hints);
  ASSERT_TRUE(
      n->Add(Json::parse(R"({"id": "x1", "eventDate": "2026-01-02T16:52:33", "ratio": 1})")));
  auto schema = n->Schemas()[0];
  EXPECT_EQ(schema.FindColumn("event_date")->data_type, DataType::kText);
  EXPECT_EQ(schema.FindColumn("ratio")->data_type, DataType::kDouble);
  const Column* id = schema.FindColumn("id");
  ASSERT_NE(id, nullptr);
  EXPECT_TRUE(id->primary_key);
  EXPECT_FALSE(id->nullable);
  EXPECT_EQ(id->data_type, DataType::kText);
  auto batch = n->Flush()[0];
  EXPECT_THAT(ColumnOf<DoubleValues>(batch, "ratio"), ElementsAre(1.0));
}

TEST(NormalizerTest, NullPrimaryKeyFailsAndStopsTheNormalizer) {
  ResourceHints hints = Hints(WriteDisposition::kMerge);
  hints.primary_key = {"id"};
  auto n = MakeNormalizer(hints);
  ASSERT_TRUE(n->Add(Json::parse(R"({"id": 1})")));
  auto status = n->Add(Json::parse(R"({"id": null})"));
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind, ErrorKind::kData);
  EXPECT_THAT(status.error().message, ::testing::HasSubstr("'id'"));
  EXPECT_FALSE(n->Add(Json::parse(R"({"id": 2})")));
}

TEST(NormalizerTest, AKeyOfTwoTypesNamesTheColumnBothTypesAndTheirFirstRecords) {
  ResourceHints hints = Hints(WriteDisposition::kMerge);
  hints.primary_key = {"id"};
  auto n = MakeNormalizer(hints);
  ASSERT_TRUE(n->Add(Json::parse(R"({"id": 41})")));
  ASSERT_TRUE(n->Add(Json::parse(R"({"id": 42})")));
  auto status = n->Add(Json::parse(R"({"id": "A-7"})"));
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind, ErrorKind::kData);
  EXPECT_THAT(status.error().message,
              ::testing::HasSubstr("primary key column 'id' has values of two types: bigint "
                                   "(first in record 1: 41) and text (first in record 3: A-7)"))
      << status.error().message;
}

TEST(NormalizerTest, JsonHintKeepsNestedValueWhole) {
  ResourceHints hints = Hints();
  hints.columns.push_back(ColumnHint{"geometry", DataType::kJson, std::nullopt, false});
  auto n = MakeNormalizer(hints);
  ASSERT_TRUE(n->Add(Json::parse(R"({"geometry": {"type": "Point", "coordinates": [1.5, 2]}})")));
  auto schemas = n->Schemas();
  ASSERT_EQ(schemas.size(), 1u);
  auto batch = n->Flush()[0];
  EXPECT_THAT(ColumnOf<StringValues>(batch, "geometry"),
              ElementsAre(R"({"type":"Point","coordinates":[1.5,2]})"));
}

TEST(NormalizerTest, MaxNestingKeepsDeeperValuesAsJson) {
  ResourceHints hints = Hints();
  hints.max_nesting = 1;
  auto n = MakeNormalizer(hints);
  ASSERT_TRUE(n->Add(Json::parse(R"({"a": {"b": {"c": 1}}, "l": [{"m": [1]}]})")));
  auto schemas = n->Schemas();
  ASSERT_EQ(schemas.size(), 2u);
  EXPECT_EQ(schemas[0].FindColumn("a__b")->data_type, DataType::kJson);
  EXPECT_EQ(schemas[1].name, "t__l");
  EXPECT_EQ(schemas[1].FindColumn("m")->data_type, DataType::kJson);
}

TEST(NormalizerTest, FlushKeepsSchemaGrowingAcrossBatches) {
  auto n = MakeNormalizer(Hints());
  ASSERT_TRUE(n->Add(Json::parse(R"({"a": 1})")));
  ASSERT_TRUE(n->Add(Json::parse(R"({"a": 2, "b": "x"})")));
  EXPECT_EQ(n->BufferedRows(), 2u);
  auto first = n->Flush();
  EXPECT_EQ(n->BufferedRows(), 0u);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_THAT(ColumnOf<StringValues>(first[0], "b"), ElementsAre(std::nullopt, "x"));
  ASSERT_TRUE(n->Add(Json::parse(R"({"c": true})")));
  auto second = n->Flush();
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].num_rows, 1u);
  EXPECT_EQ(second[0].schema.columns.size(), first[0].schema.columns.size() + 1);
  EXPECT_THAT(ColumnOf<BoolValues>(second[0], "c"), ElementsAre(true));
  EXPECT_THAT(ColumnOf<Int64Values>(second[0], "a"), ElementsAre(std::nullopt));
  EXPECT_TRUE(n->Flush().empty());
}

TEST(NormalizerTest, RejectsEmptyTableName) {
  ResourceHints hints = Hints();
  hints.table_name = "";
  auto n = Normalizer::Make(hints, "1.0");
  ASSERT_FALSE(n);
  EXPECT_EQ(n.error().kind, ErrorKind::kConfig);
}

TEST(IsoDateTimeTest, ParsesOnlyWellFormedValues) {
  EXPECT_TRUE(IsIsoTimestamp("2026-02-08T00:00:00"));
  EXPECT_TRUE(IsIsoTimestamp("2026-02-08 00:00:00.123Z"));
  EXPECT_TRUE(IsIsoTimestamp("20260208T000000+0100"));
  EXPECT_FALSE(IsIsoTimestamp("2026-02-08"));
  EXPECT_FALSE(IsIsoTimestamp("2026-02-30T00:00:00"));
  EXPECT_FALSE(IsIsoTimestamp("2026-02-08T25:00"));
  EXPECT_FALSE(IsIsoTimestamp("flight call"));
  EXPECT_FALSE(IsIsoTimestamp("12:30"));
  EXPECT_EQ(ParseIsoLike("1970-01-02")->value, 1);
  EXPECT_EQ(ParseIsoLike("12:30")->kind, IsoKind::kTime);
}

//! Every table's schema and rows, for comparing two runs of the normalizer.
struct Output {
  std::vector<TableSchema> schemas;
  std::vector<TableBatch> batches;
};

void ExpectSameOutput(const Output& a, const Output& b) {
  ASSERT_EQ(a.schemas.size(), b.schemas.size());
  for (std::size_t i = 0; i < a.schemas.size(); ++i) {
    EXPECT_EQ(a.schemas[i].name, b.schemas[i].name);
    EXPECT_EQ(a.schemas[i].parent, b.schemas[i].parent);
    EXPECT_EQ(a.schemas[i].columns, b.schemas[i].columns) << a.schemas[i].name;
  }
  ASSERT_EQ(a.batches.size(), b.batches.size());
  for (std::size_t i = 0; i < a.batches.size(); ++i) {
    const TableBatch& x = a.batches[i];
    const TableBatch& y = b.batches[i];
    EXPECT_EQ(x.schema.name, y.schema.name);
    ASSERT_EQ(x.num_rows, y.num_rows) << x.schema.name;
    ASSERT_EQ(x.columns.size(), y.columns.size()) << x.schema.name;
    for (std::size_t c = 0; c < x.columns.size(); ++c) {
      EXPECT_TRUE(x.columns[c] == y.columns[c])
          << x.schema.name << "." << x.schema.columns[c].name << " differs row by row";
    }
  }
}

enum class Entry { kParsed, kText, kElement };

//! Feeds `lines` through Add(Json::parse(line)), AddJsonText(line) or AddJsonElement of the line
//! parsed by simdjson (Add(Json::parse(line)) for a line simdjson refuses, as a page reader
//! leaves such pages to nlohmann); stops at the first error.
Output NormalizeLines(const std::vector<std::string>& lines, Entry entry, ResourceHints hints,
                      std::vector<std::string>* errors) {
  simdjson::dom::parser parser;
  int next_id = 0;
  NormalizerOptions options;
  options.row_id_generator = [&] { return "ROOT" + std::to_string(next_id++); };
  auto made = Normalizer::Make(std::move(hints), "1752600000.123456", options);
  EXPECT_TRUE(made) << made.error().ToString();
  auto& n = *made;
  Output out;
  for (const std::string& line : lines) {
    Status added;
    simdjson::dom::element element;
    if (entry == Entry::kText) {
      added = n->AddJsonText(line);
    } else if (entry == Entry::kElement &&
               parser.parse(line.data(), line.size()).get(element) == simdjson::SUCCESS) {
      added = n->AddJsonElement(element);
    } else {
      Json record = Json::parse(line, nullptr, /*allow_exceptions=*/false);
      added =
          record.is_discarded() ? Status(MakeError(ErrorKind::kData, "not JSON")) : n->Add(record);
    }
    if (!added) {
      errors->push_back(added.error().message);
      break;
    }
  }
  out.schemas = n->Schemas();
  out.batches = n->Flush();
  return out;
}

// The NDJSON entry point parses with simdjson and walks its document, and so does the one for
// records parsed elsewhere (JSON pages); the result must be the one the nlohmann entry point
// gives for the same records, row by row.
TEST(NormalizerTest, JsonTextAndParsedRecordsNormalizeIdentically) {
  const std::vector<std::string> lines = {
      R"({"id": 1, "eventId": "a", "geo": {"lat": 1.5, "lon": -2, "deep": {"x": null}}})",
      R"({"id": 2, "tags": ["x", null, 3], "items": [{"k": 1, "sub": [[1, 2], []]}, {}]})",
      R"({"id": "3", "when": "2024-05-01T10:00:00+02:00", "flag": true, "n": 1.0e3})",
      R"({"id": 4.0, "when": 5, "flag": "no", "big": 18446744073709551615, "neg": -9223372036854775808})",
      R"({"id": 5, "wider": 123456789012345678901234567890, "huge": 1e308})",
      R"({"id": 6, "text": "caf\u00e9 \ud83d\ude00 \"quoted\" \\ back", "empty": "", "e": {}, "l": []})",
      R"({"id": 7, "_dlt_id": "given", "geo": {"lat": "north"}, "hint": {"kept": [1, {"a": 2.50}]}})",
      R"([1, 2, {"a": 1}])",
      R"("just a string")",
      R"({"id": 8, "dup": 1, "dup": 2, "Camel Case Key": 0.1, "x-y": 1e-7})",
      R"({"id": 10, "o": {"a": 1}, "o": {"b": 2}, "l": [1], "l": [2, 3]})",
      R"({"id": 11, "items": [{"k": [1], "other": 2, "z": 3, "k": [4, 5]}], "y": 1})",
      R"({"id": 9, "deep": )" + std::string(1100, '[') + std::string(1100, ']') + "}",
  };
  for (const WriteDisposition disposition : {WriteDisposition::kAppend, WriteDisposition::kMerge}) {
    ResourceHints hints = Hints(disposition);
    hints.max_nesting = 4;
    ColumnHint hint;
    hint.name = "hint";
    hint.data_type = DataType::kJson;
    hints.columns.push_back(hint);
    std::vector<std::string> parsed_errors, text_errors, element_errors;
    const Output parsed = NormalizeLines(lines, Entry::kParsed, hints, &parsed_errors);
    const Output text = NormalizeLines(lines, Entry::kText, hints, &text_errors);
    const Output element = NormalizeLines(lines, Entry::kElement, hints, &element_errors);
    EXPECT_TRUE(parsed_errors.empty()) << parsed_errors[0];
    EXPECT_TRUE(text_errors.empty()) << text_errors[0];
    EXPECT_TRUE(element_errors.empty()) << element_errors[0];
    ExpectSameOutput(parsed, text);
    ExpectSameOutput(parsed, element);
    // The cases above are exercised: several tables, a variant column, a kept-whole value.
    EXPECT_GE(text.schemas.size(), 5u);
    EXPECT_NE(text.schemas[0].FindColumn("geo__lat__v_text"), nullptr);
    EXPECT_EQ(text.schemas[0].FindColumn("hint")->data_type, DataType::kJson);
  }
}

TEST(NormalizerTest, JsonTextThatIsNotJsonFailsTheNormalizer) {
  auto n = MakeNormalizer(Hints());
  ASSERT_TRUE(n->AddJsonText(R"({"a": 1})"));
  auto bad = n->AddJsonText(R"({"a": )");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::kData);
  EXPECT_NE(bad.error().message.find("record 2"), std::string::npos) << bad.error().message;
  EXPECT_FALSE(n->AddJsonText(R"({"a": 2})")) << "a failed normalizer refuses further records";
}

// Each list level is a child table (`__list` for a list in a list), so 1,000-deep lists make
// names of thousands of characters; table names become folders and files, so such records fail
// with an error that names the resource and points at max_nesting (a lower max_nesting loads).
TEST(NormalizerTest, DeeplyNestedListsFailClearlyUnlessMaxNestingKeepsThemWhole) {
  const std::string deep = std::string(1000, '[') + "1" + std::string(1000, ']');
  const std::string record = R"({"id": 1, "deep": )" + deep + "}";
  auto n = MakeNormalizer(Hints());
  auto failed = n->Add(Json::parse(record));
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().kind, ErrorKind::kData);
  const std::string& message = failed.error().message;
  EXPECT_NE(message.find("resource 'things'"), std::string::npos) << message;
  EXPECT_NE(message.find("t__deep__list__list"), std::string::npos) << message;
  EXPECT_NE(message.find("max_nesting"), std::string::npos) << message;
  for (const TableSchema& schema : n->Schemas()) EXPECT_LE(schema.name.size(), 200u);

  ResourceHints hints = Hints();
  hints.max_nesting = 10;
  auto bounded = MakeNormalizer(hints);
  ASSERT_TRUE(bounded->Add(Json::parse(record)));
  const auto schemas = bounded->Schemas();
  // Levels: the list (9), then per list-in-list the wrapper row and its list: tables t,
  // t__deep, t__deep__list, ... until the level runs out and the rest is one json value.
  ASSERT_EQ(schemas.size(), 6u);
  EXPECT_EQ(schemas[5].name, "t__deep__list__list__list__list");
  ASSERT_NE(schemas[5].FindColumn("list"), nullptr);
  EXPECT_EQ(schemas[5].FindColumn("list")->data_type, DataType::kJson);
}

}  // namespace
}  // namespace databox::normalize

namespace databox::normalize {
namespace {

//! The last `rows` values of every column of `batch`, by column name (as text for comparing).
std::map<std::string, std::vector<std::string>> Tail(const TableBatch& batch, std::size_t rows) {
  std::map<std::string, std::vector<std::string>> out;
  for (std::size_t c = 0; c < batch.columns.size(); ++c) {
    std::visit(
        [&](const auto& values) {
          for (std::size_t r = values.size() - rows; r < values.size(); ++r) {
            std::string text = "NULL";
            if (values[r]) {
              if constexpr (std::is_same_v<std::decay_t<decltype(*values[r])>, std::string_view>) {
                text = "'" + std::string(*values[r]) + "'";
              } else {
                text = std::to_string(*values[r]);
              }
            }
            out[batch.schema.columns[c].name].push_back(text);
          }
        },
        batch.columns[c]);
  }
  return out;
}

// A normalizer seeded with another's schemas continues its inference: the second part's rows,
// columns, types and variant columns are those one normalizer fed both parts gives.
TEST(NormalizerTest, KnownTablesContinueAnotherNormalizersInference) {
  ResourceHints hints = Hints();
  hints.primary_key = {"id"};
  ColumnHint code;
  code.name = "code";
  code.data_type = DataType::kText;
  hints.columns.push_back(code);
  const std::vector<std::string> first = {R"({"id": 1, "v": 1, "tags": ["a"], "at": 1.5})"};
  const std::vector<std::string> second = {
      R"({"id": 2, "v": "x", "tags": ["b", "c"], "w": true, "at": 2})",
      R"({"id": 3, "v": 2.5, "code": 7, "geo": {"lat": 1}})"};

  auto whole = MakeNormalizer(hints);
  for (const auto& r : first) ASSERT_TRUE(whole->AddJsonText(r));
  for (const auto& r : second) ASSERT_TRUE(whole->AddJsonText(r));

  auto part_a = MakeNormalizer(hints);
  for (const auto& r : first) ASSERT_TRUE(part_a->AddJsonText(r));
  NormalizerOptions options;
  options.row_id_generator = [] { return std::string("ROOTID"); };
  options.known_tables = part_a->Schemas();
  options.records_before = first.size();
  auto made = Normalizer::Make(hints, "1752600000.123456", options);
  ASSERT_TRUE(made) << made.error().ToString();
  auto part_b = std::move(*made);
  for (const auto& r : second) ASSERT_TRUE(part_b->AddJsonText(r));

  const auto want_schemas = whole->Schemas();
  const auto got_schemas = part_b->Schemas();
  ASSERT_EQ(got_schemas.size(), want_schemas.size());
  for (std::size_t t = 0; t < want_schemas.size(); ++t) {
    EXPECT_EQ(got_schemas[t].name, want_schemas[t].name);
    EXPECT_EQ(got_schemas[t].columns, want_schemas[t].columns) << want_schemas[t].name;
  }
  EXPECT_NE(want_schemas[0].FindColumn("v__v_text"), nullptr);  // the case is really exercised
  EXPECT_NE(want_schemas[0].FindColumn("v__v_double"), nullptr);

  const auto want = whole->Flush();
  const auto got = part_b->Flush();
  ASSERT_EQ(got.size(), want.size());
  EXPECT_EQ(Tail(got[0], 2), Tail(want[0], 2));  // root: the second part's two rows
  EXPECT_EQ(Tail(got[1], 2), Tail(want[1], 2));  // tags: its two items

  // Record numbers in messages continue from records_before.
  EXPECT_FALSE(part_b->AddJsonText("{bad"));
  auto failed = part_b->AddJsonText("{}");
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().message.find("(record 4)"), std::string::npos) << failed.error().message;
}

// Two keys of one record that name the same column: the later value wins, one row is stored.
TEST(NormalizerTest, KeysNamingTheSameColumnKeepTheLaterValue) {
  auto n = MakeNormalizer(Hints());
  ASSERT_TRUE(n->AddJsonText(R"({"a": 1, "b": "x"})"));
  ASSERT_TRUE(n->AddJsonText(R"({"a": "text", "a__v_text": "later", "B": "y", "b": "z"})"));
  const auto batches = n->Flush();
  ASSERT_EQ(batches.size(), 1u);
  EXPECT_EQ(batches[0].num_rows, 2u);
  const auto& variant = ColumnOf<StringValues>(batches[0], "a__v_text");
  EXPECT_THAT(variant, ElementsAre(std::nullopt, std::optional<std::string>("later")));
  EXPECT_THAT(ColumnOf<StringValues>(batches[0], "b"),
              ElementsAre(std::optional<std::string>("x"), std::optional<std::string>("z")));
  for (const auto& column : batches[0].columns) EXPECT_EQ(ValuesSize(column), 2u);
}

}  // namespace
}  // namespace databox::normalize
