#include "sources/avonet/avonet.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include "common/test_paths.h"
#include "duck/test_support.h"
#include "registry/registry.h"
#include "source/source_test_support.h"
#include "sources/avonet/avonet_test_support.h"
#include "sources/avonet/pinned_file_source.h"
#include "sources/avonet/xlsx_test_support.h"

namespace databox::source {
namespace {

using testing::Cells;
using ::testing::HasSubstr;
using ::testing::Not;

using testing::Header;
using testing::Row;
using testing::Rows;

std::size_t Col(const std::string& header) {
  const auto h = Header();
  return static_cast<std::size_t>(std::find(h.begin(), h.end(), header) - h.begin());
}

class AvonetTest : public ::testing::Test {
 protected:
  //! Writes the workbook and returns options pinned to it (size, md5, row count).
  AvonetOptions Write(const std::vector<Cells>& rows, const std::vector<std::string>& header,
                      const std::string& sheet = "AVONET2_eBird") {
    testing::WriteXlsx(path_, sheet, header, rows);
    AvonetOptions options;
    auto facts = ComputeFileFacts(path_);
    EXPECT_TRUE(facts.has_value());
    options.pinned = {facts->size_bytes, facts->md5};
    options.row_count = static_cast<int64_t>(rows.size());
    return options;
  }
  Result<std::vector<Json>> Read(const AvonetOptions& options) {
    return ReadAvonetWorkbook(path_, options, origin_);
  }
  std::string ErrorOf(const AvonetOptions& options) {
    auto got = Read(options);
    EXPECT_FALSE(got.has_value());
    if (got) return "";
    EXPECT_EQ(got.error().kind, ErrorKind::kData);
    return got.error().message;
  }

  duck::testing::TempDir dir_;
  std::filesystem::path path_ = dir_.path() / "avonet.xlsx";
  AvonetOrigin origin_{"https://ndownloader.figshare.com/files/34480856",
                       std::chrono::sys_days{std::chrono::year{2026} / 2 / 3} +
                           std::chrono::hours{4} + std::chrono::minutes{5}};
};

TEST(DefaultAvonetColumnsTest, The31ColumnsOfTheEbirdSheet) {
  const auto header = Header();
  ASSERT_EQ(header.size(), 31u);
  EXPECT_EQ(header[0], "Species2");
  EXPECT_EQ(header[3], "Avibase.ID2");
  EXPECT_EQ(header[9], "Beak.Length_Culmen");
  EXPECT_EQ(header[17], "Hand-Wing.Index");
  EXPECT_EQ(header[19], "Mass");
  EXPECT_EQ(header[30], "Primary.Lifestyle");
  EXPECT_EQ(DefaultAvonetColumns()[3].name, "avibase_id");
}

TEST(AvonetTableColumnsTest, TheReferenceLayoutNamesTypesAndNotNullColumns) {
  // The reference's raw_avonet.species_traits, column for column.
  const std::vector<AvonetTableColumn> expected = {
      {"source_scientific_name", "text", false},
      {"family", "text", false},
      {"order_name", "text", false},
      {"avibase_id", "text", false},
      {"total_individuals", "bigint", false},
      {"female_individuals", "bigint", false},
      {"male_individuals", "bigint", false},
      {"unknown_sex_individuals", "bigint", false},
      {"complete_measures", "bigint", false},
      {"beak_length_culmen_mm", "double", true},
      {"beak_length_nares_mm", "double", true},
      {"beak_width_mm", "double", true},
      {"beak_depth_mm", "double", true},
      {"tarsus_length_mm", "double", true},
      {"wing_length_mm", "double", true},
      {"kipps_distance_mm", "double", true},
      {"secondary_length_mm", "double", true},
      {"hand_wing_index", "double", true},
      {"tail_length_mm", "double", true},
      {"mass_g", "double", true},
      {"mass_source", "text", true},
      {"mass_reference_other", "text", true},
      {"traits_inferred", "text", true},
      {"reference_species", "text", true},
      {"habitat", "text", true},
      {"trophic_level", "text", true},
      {"trophic_niche", "text", true},
      {"primary_lifestyle", "text", false},
      {"inference", "bool", false},
      {"habitat_density_code", "bigint", false},
      {"migration_code", "bigint", true},
      {"dataset_doi", "text", false},
      {"dataset_version", "text", false},
      {"dataset_license", "text", false},
      {"source_file_id", "bigint", false},
      {"source_file_md5", "text", false},
      {"source_url", "text", false},
      {"loaded_at", "timestamp", false},
  };
  const std::vector<AvonetTableColumn>& got = AvonetTableColumns();
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(expected[i].name);
    EXPECT_EQ(got[i].name, expected[i].name);
    EXPECT_EQ(got[i].type, expected[i].type);
    EXPECT_EQ(got[i].nullable, expected[i].nullable);
  }
  registry::Resource declared;
  declared.name = "species_traits";
  declared.primary_key = {"avibase_id"};
  const registry::Resource typed = AvonetResource(declared);
  EXPECT_EQ(typed.primary_key, declared.primary_key);
  ASSERT_EQ(typed.column_order.size(), expected.size());
  EXPECT_EQ(typed.column_order.front(), "source_scientific_name");
  EXPECT_EQ(typed.columns.at("inference").type, "bool");
  EXPECT_EQ(typed.columns.at("inference").nullable, false);
  EXPECT_EQ(typed.columns.at("mass_g").nullable, true);
}

TEST_F(AvonetTest, ValidWorkbookGivesTypedSnakeCaseRecordsWithProvenance) {
  std::vector<Cells> rows = Rows(3);
  rows[1][Col("Beak.Width")] = "NA";  // NA in a numeric column
  rows[2][Col("Habitat")] = "  ";     // blank text
  const AvonetOptions options = Write(rows, Header());
  auto records = Read(options);
  ASSERT_TRUE(records.has_value()) << records.error().ToString();
  ASSERT_EQ(records->size(), 3u);
  const Json& first = (*records)[0];
  EXPECT_EQ(first["source_scientific_name"], "Genus species1");
  EXPECT_EQ(first["family"], "Accipitridae");
  EXPECT_EQ(first["avibase_id"], "AVIBASE-00000001");
  EXPECT_TRUE(first["female_individuals"].is_number_integer());
  EXPECT_EQ(first["female_individuals"].get<int64_t>(), 2);
  EXPECT_EQ(first["unknown_sex_individuals"].get<int64_t>(), 0);
  EXPECT_TRUE(first["complete_measures"].is_number_integer());
  EXPECT_TRUE(first["tarsus_length_mm"].is_number_float());
  EXPECT_DOUBLE_EQ(first["tarsus_length_mm"].get<double>(), 62.0);
  EXPECT_DOUBLE_EQ(first["mass_g"].get<double>(), 248.8);
  EXPECT_DOUBLE_EQ(first["hand_wing_index"].get<double>(), 33.9);
  EXPECT_DOUBLE_EQ(first["secondary_length_mm"].get<double>(), 159.5);
  EXPECT_EQ(first["habitat_density_code"].get<int64_t>(), 1);
  EXPECT_EQ(first["migration_code"].get<int64_t>(), 2);
  EXPECT_EQ(first["inference"], false);
  EXPECT_TRUE(first["mass_reference_other"].is_null());
  EXPECT_TRUE(first["traits_inferred"].is_null());
  EXPECT_EQ(first["primary_lifestyle"], "Insessorial");
  EXPECT_TRUE((*records)[1]["beak_width_mm"].is_null());
  EXPECT_DOUBLE_EQ((*records)[2]["beak_width_mm"].get<double>(), 10.6);
  EXPECT_TRUE((*records)[2]["habitat"].is_null());
  // Provenance columns follow the 31 data columns.
  EXPECT_EQ(first.size(), 31u + 7u);
  EXPECT_EQ(first["dataset_doi"], "10.6084/m9.figshare.16586228.v7");
  EXPECT_EQ(first["dataset_version"], "v7");
  EXPECT_EQ(first["dataset_license"], "CC BY 4.0");
  EXPECT_EQ(first["source_file_id"], 34480856);
  EXPECT_EQ(first["source_file_md5"], options.pinned.md5);
  EXPECT_EQ(first["source_url"], "https://ndownloader.figshare.com/files/34480856");
  EXPECT_EQ(first["loaded_at"], "2026-02-03 04:05:00.000000");
  EXPECT_EQ(first.begin().key(), "source_scientific_name");
  // Every record holds exactly the table's columns.
  for (const AvonetTableColumn& column : AvonetTableColumns()) {
    EXPECT_TRUE(first.contains(column.name)) << column.name;
  }
}

TEST_F(AvonetTest, InferenceIsYesOrNo) {
  std::vector<Cells> rows = Rows(4);
  rows[1][Col("Inference")] = "YES";
  rows[2][Col("Inference")] = "yes";
  rows[3][Col("Inference")] = "NA";
  auto good = Read(Write({rows[0], rows[1]}, Header()));
  ASSERT_TRUE(good.has_value()) << good.error().ToString();
  EXPECT_EQ((*good)[0]["inference"], false);
  EXPECT_EQ((*good)[1]["inference"], true);
  const std::string message = ErrorOf(Write(rows, Header()));
  EXPECT_THAT(message, HasSubstr("avonet: 2 problems in sheet AVONET2_eBird"));
  EXPECT_THAT(message,
              HasSubstr("value check: row 4 column 'Inference' is 'yes', expected YES or NO"));
  EXPECT_THAT(message, HasSubstr("value check: row 5 column 'Inference' is NA or blank, a value is "
                                 "required"));
}

TEST_F(AvonetTest, EveryNotNullColumnRequiresAValue) {
  for (const AvonetColumn& column : DefaultAvonetColumns()) {
    const bool not_null =
        std::ranges::find_if(AvonetTableColumns(), [&](const AvonetTableColumn& c) {
          return c.name == column.name && !c.nullable;
        }) != AvonetTableColumns().end();
    EXPECT_EQ(column.required, not_null) << column.name;
    if (!not_null) continue;
    SCOPED_TRACE(column.header);
    std::vector<Cells> rows = Rows(2);
    rows[1][Col(column.header)] = std::nullopt;
    EXPECT_THAT(ErrorOf(Write(rows, Header())),
                HasSubstr("value check: row 3 column '" + column.header +
                          "' is NA or blank, a value is required"));
  }
}

TEST_F(AvonetTest, WrongHeaderNamesTheColumn) {
  std::vector<std::string> header = Header();
  header[9] = "Foo";
  const AvonetOptions options = Write(Rows(2), header);
  EXPECT_THAT(ErrorOf(options),
              HasSubstr("avonet: header check failed: column 10 is 'Foo', expected "
                        "'Beak.Length_Culmen'"));
}

TEST_F(AvonetTest, ExtraHeaderColumnIsRefused) {
  std::vector<std::string> header = Header();
  header.push_back("Extra");
  std::vector<Cells> rows = Rows(1);
  rows[0].push_back("x");
  const AvonetOptions options = Write(rows, header);
  EXPECT_THAT(ErrorOf(options),
              HasSubstr("header check failed: extra column 32 'Extra', expected 31 columns"));
}

TEST_F(AvonetTest, DuplicateIdsAndNamesAreReported) {
  std::vector<Cells> rows = Rows(3);
  rows[2][Col("Avibase.ID2")] = "AVIBASE-00000001";
  rows[2][Col("Species2")] = "Genus species2";
  const std::string message = ErrorOf(Write(rows, Header()));
  EXPECT_THAT(message, HasSubstr("avonet: 2 problems in sheet AVONET2_eBird"));
  EXPECT_THAT(message, HasSubstr("unique check: avibase_id 'AVIBASE-00000001' appears in row 2 "
                                 "and row 4"));
  EXPECT_THAT(message, HasSubstr("unique check: source_scientific_name 'Genus species2' appears "
                                 "in row 3 and row 4"));
}

TEST_F(AvonetTest, WrongRowCount) {
  AvonetOptions options = Write(Rows(3), Header());
  options.row_count = 4;
  EXPECT_THAT(ErrorOf(options), HasSubstr("avonet: row count check failed: sheet AVONET2_eBird "
                                          "has 3 data rows, expected 4"));
}

TEST_F(AvonetTest, WrongChecksumAndSizeAreCheckedBeforeReading) {
  AvonetOptions options = Write(Rows(2), Header());
  options.pinned.md5 = "1445afdcfb6df784010c2ca034544bc8";
  EXPECT_THAT(ErrorOf(options), HasSubstr("avonet: md5 check failed"));
  options.pinned.size_bytes = kAvonetSizeBytes;
  EXPECT_THAT(ErrorOf(options), HasSubstr("avonet: size check failed"));
}

TEST_F(AvonetTest, TwoSheetsAreRefused) {
  Write(Rows(2), Header());
  testing::AddSecondSheet(path_, "Notes");
  AvonetOptions options;  // pinned to the rewritten file
  auto facts = ComputeFileFacts(path_);
  ASSERT_TRUE(facts.has_value());
  options.pinned = {facts->size_bytes, facts->md5};
  options.row_count = 2;
  EXPECT_THAT(ErrorOf(options),
              HasSubstr("avonet: sheet check failed: the workbook has 2 sheets ('AVONET2_eBird', "
                        "'Notes'), expected exactly one sheet 'AVONET2_eBird'"));
}

TEST_F(AvonetTest, WronglyNamedSheetIsRefused) {
  const AvonetOptions options = Write(Rows(1), Header(), "AVONET1_BirdLife");
  EXPECT_THAT(ErrorOf(options), HasSubstr("sheet check failed: the workbook has 1 sheet "
                                          "('AVONET1_BirdLife')"));
}

TEST_F(AvonetTest, ValuesOutOfRangeNotNumbersOrMissingAreAllReported) {
  std::vector<Cells> rows = Rows(3);
  rows[0][Col("Mass")] = "0";
  rows[0][Col("Female")] = "2.5";
  rows[1][Col("Habitat.Density")] = "4";
  rows[1][Col("Wing.Length")] = "long";
  rows[2][Col("Species2")] = "NA";
  rows[2][Col("Hand-Wing.Index")] = "100.5";
  const std::string message = ErrorOf(Write(rows, Header()));
  EXPECT_THAT(message, HasSubstr("6 problems"));
  EXPECT_THAT(message, HasSubstr("value check: row 2 column 'Mass' is '0.0', expected > 0"));
  EXPECT_THAT(message, HasSubstr("row 2 column 'Female' is '2.5', expected a whole number"));
  EXPECT_THAT(message,
              HasSubstr("row 3 column 'Habitat.Density' is '4.0', expected >= 1 and <= 3"));
  EXPECT_THAT(message, HasSubstr("row 3 column 'Wing.Length' is 'long', expected a number"));
  EXPECT_THAT(message, HasSubstr("row 4 column 'Species2' is NA or blank, a value is required"));
  EXPECT_THAT(message, HasSubstr("row 4 column 'Hand-Wing.Index' is '100.5', expected >= 0 and "
                                 "<= 100"));
}

TEST_F(AvonetTest, ProblemListIsCapped) {
  std::vector<Cells> rows = Rows(5);
  for (Cells& row : rows) row[Col("Mass")] = "-1";
  AvonetOptions options = Write(rows, Header());
  options.max_reported_problems = 2;
  const std::string message = ErrorOf(options);
  EXPECT_THAT(message, HasSubstr("5 problems"));
  EXPECT_THAT(message, HasSubstr("... and 3 more"));
  EXPECT_THAT(message, Not(HasSubstr("row 4 column")));
}

TEST_F(AvonetTest, EmptyRowInsideTheDataIsReportedTrailingOnesIgnored) {
  std::vector<Cells> rows = Rows(3);
  rows[1] = Cells(31, std::nullopt);
  rows.push_back(Cells(31, std::nullopt));
  AvonetOptions options = Write(rows, Header());
  options.row_count = 3;  // the trailing empty row is not data
  EXPECT_THAT(ErrorOf(options), HasSubstr("value check: row 3 is empty"));
}

TEST_F(AvonetTest, LatitudeRangeOfAConfiguredLayout) {
  AvonetOptions options = Write({{"A a", "AVIBASE-1", "45.5"}, {"B b", "AVIBASE-2", "91"}},
                                {"Species1", "Avibase.ID1", "Centroid.Latitude"});
  options.columns = {
      {"Species1", "scientific_name", CellType::kText, true, std::nullopt, false, std::nullopt},
      {"Avibase.ID1", "avibase_id", CellType::kText, true, std::nullopt, false, std::nullopt},
      {"Centroid.Latitude", "centroid_latitude", CellType::kNumber, false, -90.0, false, 90.0}};
  EXPECT_THAT(ErrorOf(options),
              HasSubstr("row 3 column 'Centroid.Latitude' is '91.0', expected >= -90 and <= 90"));
}

registry::Source FileSource() {
  registry::Source source;
  source.name = "avonet";
  source.kind = registry::SourceKind::kFile;
  source.eligibility = registry::Eligibility::kExplicit;
  source.file = registry::FileSettings{};
  source.file->url = "https://ndownloader.figshare.com/files/34480856";
  source.file->redirect_url =
      "https://s3-eu-west-1.amazonaws.com/pfigshare-u-files/34480856/"
      "AVONETSupplementarydataset1.xlsx";
  registry::Resource resource;
  resource.name = "species_traits";
  resource.primary_key = {"avibase_id"};
  resource.write_disposition = registry::WriteDisposition::kReplace;
  source.resources.push_back(resource);
  return source;
}

TEST(AvonetOptionsForTest, DefaultsAreTheRealSnapshot) {
  auto options = AvonetOptionsFor(FileSource());
  ASSERT_TRUE(options.has_value()) << options.error().ToString();
  EXPECT_EQ(options->pinned.size_bytes, 21524673);
  EXPECT_EQ(options->pinned.md5, "1445afdcfb6df784010c2ca034544bc8");
  EXPECT_EQ(options->sheet, "AVONET2_eBird");
  EXPECT_EQ(options->row_count, 10661);
  EXPECT_EQ(options->provenance.dataset_doi, "10.6084/m9.figshare.16586228.v7");
  EXPECT_EQ(options->provenance.dataset_version, "v7");
  EXPECT_EQ(options->provenance.dataset_license, "CC BY 4.0");
  EXPECT_EQ(options->provenance.source_file_id, 34480856);
}

TEST(AvonetOptionsForTest, RegistryValuesOverrideAndCollisionsAreConfigErrors) {
  registry::Source source = FileSource();
  source.file->size_bytes = 100;
  source.file->md5 = "d41d8cd98f00b204e9800998ecf8427e";
  source.file->sheet = "S";
  source.file->row_count = 2;
  source.file->provenance = {{"dataset_license", "CC0"}, {"source_file_id", "7"}};
  auto options = AvonetOptionsFor(source);
  ASSERT_TRUE(options.has_value());
  EXPECT_EQ(options->pinned.size_bytes, 100);
  EXPECT_EQ(options->pinned.md5, "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(options->sheet, "S");
  EXPECT_EQ(options->row_count, 2);
  EXPECT_EQ(options->provenance.dataset_license, "CC0");
  EXPECT_EQ(options->provenance.source_file_id, 7);

  source.file->provenance = {{"license", "CC0"}};
  auto unknown = AvonetOptionsFor(source);
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().kind, ErrorKind::kConfig);
  EXPECT_THAT(unknown.error().message, HasSubstr("unknown provenance key 'license'"));

  source.file->provenance = {{"source_file_id", "34480856x"}};
  auto not_a_number = AvonetOptionsFor(source);
  ASSERT_FALSE(not_a_number.has_value());
  EXPECT_THAT(not_a_number.error().message,
              HasSubstr("provenance source_file_id is '34480856x', expected a whole number"));

  source.kind = registry::SourceKind::kRestJson;
  EXPECT_FALSE(AvonetOptionsFor(source).has_value());
}

TEST(AvonetOptionsForTest, ExampleRegistryDeclaresTheRealSnapshot) {
  auto reg = registry::LoadRegistry(std::filesystem::path(test_paths::SourceDir()) / "examples" /
                                    "databox" / "databox.toml");
  ASSERT_TRUE(reg.has_value()) << reg.error().ToString();
  const registry::Source* source = reg->FindSource("avonet");
  ASSERT_NE(source, nullptr);
  auto options = AvonetOptionsFor(*source);
  ASSERT_TRUE(options.has_value()) << options.error().ToString();
  EXPECT_EQ(options->pinned.size_bytes, kAvonetSizeBytes);
  EXPECT_EQ(options->pinned.md5, kAvonetMd5);
  EXPECT_EQ(options->row_count, kAvonetRowCount);
  EXPECT_EQ(options->provenance.dataset_license, "CC BY 4.0");
  EXPECT_EQ(options->provenance.source_file_id, 34480856);
  EXPECT_EQ(source->file->redirect_url,
            "https://s3-eu-west-1.amazonaws.com/pfigshare-u-files/34480856/"
            "AVONETSupplementarydataset1.xlsx");
}

class ExtractAvonetTest : public AvonetTest {
 protected:
  //! A source pinned to the synthetic workbook at path_.
  registry::Source Pinned(int rows) {
    registry::Source source = FileSource();
    auto facts = ComputeFileFacts(path_);
    EXPECT_TRUE(facts.has_value());
    source.file->size_bytes = facts->size_bytes;
    source.file->md5 = facts->md5;
    source.file->row_count = rows;
    return source;
  }
};

TEST_F(ExtractAvonetTest, LocalFile) {
  Write(Rows(2), Header());
  AvonetInput input;
  input.local_file = path_;
  auto got = ExtractAvonet(Pinned(2), input, MakeLoadContext("1.5"));
  ASSERT_TRUE(got.has_value()) << got.error().ToString();
  EXPECT_EQ(got->table, "species_traits");
  EXPECT_EQ(got->primary_key, std::vector<std::string>{"avibase_id"});
  ASSERT_EQ(got->records.size(), 2u);
  EXPECT_EQ(got->records[1]["avibase_id"], "AVIBASE-00000002");
  EXPECT_EQ(got->records[1]["source_file_id"], 34480856);
}

TEST_F(ExtractAvonetTest, DownloadThroughTheOneRedirect) {
  Write(Rows(2), Header());
  const registry::Source source = Pinned(2);
  const std::string workbook = testing::ReadBytes(path_);
  const std::string signed_url =
      source.file->redirect_url +
      "?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20260803%2Feu-west-1"
      "%2Fs3%2Faws4_request&X-Amz-Date=20260803T120000Z&X-Amz-Expires=10"
      "&X-Amz-SignedHeaders=host&X-Amz-Signature=SecretSig9876";
  auto transport = std::make_shared<testing::FakeTransport>([&](const http::Request& r) {
    http::Response response;
    if (r.url == source.file->url) {
      response.status = 302;
      response.headers.Add("Location", signed_url);
    } else if (r.url == signed_url) {
      response.status = 200;
      response.body = workbook;
    } else {
      response.status = 404;
    }
    return response;
  });
  http::ClientOptions options;
  options.redirects.follow = false;  // as platform's MakeFileClient: the download checks it
  http::HttpClient client = http::HttpClient::WithTransport(transport, options);
  AvonetInput input;
  input.client = &client;
  input.work_dir = dir_.path() / "work";
  auto got = ExtractAvonet(source, input, MakeLoadContext("1.5"));
  ASSERT_TRUE(got.has_value()) << got.error().ToString();
  EXPECT_EQ(got->records.size(), 2u);
  EXPECT_EQ(got->facts.md5, source.file->md5);
  EXPECT_EQ(got->records[0]["source_url"], source.file->url);
  EXPECT_THAT(got->records[0].dump(), Not(HasSubstr("SecretSig9876")));
}

TEST_F(ExtractAvonetTest, FailedValidationReturnsNoRecords) {
  Write(Rows(2), Header());
  AvonetInput input;
  input.local_file = path_;
  registry::Source source = Pinned(2);
  source.file->row_count = 10661;
  auto got = ExtractAvonet(source, input, MakeLoadContext("1.5"));
  ASSERT_FALSE(got.has_value());
  EXPECT_THAT(got.error().message, HasSubstr("row count check failed"));
}

// PinnedFileSource: the source::Source of kind file around ExtractAvonet.
TEST_F(ExtractAvonetTest, PinnedFileSourceWithALocalFileMakesNoClientAndFeedsTheRecords) {
  Write(Rows(2), Header());
  const registry::Source source = Pinned(2);
  int clients_made = 0;
  PinnedFileSource pinned(source, path_, [&]() -> Result<http::HttpClient> {
    ++clients_made;
    return MakeError(ErrorKind::kNotFound, "no recording");
  });
  EXPECT_TRUE(pinned.CanRun().has_value());
  EXPECT_FALSE(pinned.Resumable());
  EXPECT_TRUE(pinned.Resources().empty()) << "nothing to feed before extraction";
  const Package package{"1.5", dir_.path() / "package", dir_.path() / "package" / "extract"};
  std::vector<std::string> progress;
  auto extracted = pinned.Extract(
      package, [&](const std::string& name, int64_t, int64_t) { progress.push_back(name); });
  ASSERT_TRUE(extracted.has_value()) << extracted.error().ToString();
  EXPECT_EQ(clients_made, 0);
  EXPECT_EQ(progress, std::vector<std::string>{"avonet"});
  ASSERT_EQ(pinned.Resources().size(), 1u);
  const registry::Resource& fed_table = *pinned.Resources()[0];
  EXPECT_EQ(fed_table.name, "species_traits");
  EXPECT_EQ(fed_table.primary_key, std::vector<std::string>{"avibase_id"});
  EXPECT_EQ(fed_table.column_order.size(), AvonetTableColumns().size());
  EXPECT_EQ(fed_table.columns.at("loaded_at").type, "timestamp");
  std::vector<Json> records;
  auto fed = pinned.Feed(source.resources[0], package, [&](Json record) {
    records.push_back(std::move(record));
    return Ok();
  });
  ASSERT_TRUE(fed.has_value()) << fed.error().ToString();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0]["avibase_id"], "AVIBASE-00000001");
}

TEST_F(ExtractAvonetTest, PinnedFileSourceWithoutAFileReportsWhyNoClientCouldBeMade) {
  Write(Rows(2), Header());
  const registry::Source source = Pinned(2);
  PinnedFileSource pinned(source, std::nullopt, []() -> Result<http::HttpClient> {
    return MakeError(ErrorKind::kNotFound, "source avonet: replay needs recordings in /r/avonet");
  });
  const Package package{"1.5", dir_.path() / "package", dir_.path() / "package" / "extract"};
  auto extracted = pinned.Extract(package, [](const std::string&, int64_t, int64_t) {});
  ASSERT_FALSE(extracted.has_value());
  EXPECT_EQ(extracted.error().kind, ErrorKind::kNotFound);
  EXPECT_THAT(extracted.error().message, HasSubstr("replay needs recordings"));
  EXPECT_TRUE(pinned.Resources().empty());
}

}  // namespace
}  // namespace databox::source
