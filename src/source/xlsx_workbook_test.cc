#include "source/xlsx_workbook.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "duck/test_support.h"
#include "source/xlsx_archive.h"
#include "source/xlsx_test_support.h"

namespace databox::source {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::StoredZip;

TEST(ZipArchiveTest, ReadsDeflatedEntriesWrittenByDuckDb) {
  duck::testing::TempDir dir;
  const auto path = dir.path() / "book.xlsx";
  testing::WriteXlsx(path, "Data", {"Name", "Mass"}, {{"a", "1.5"}});
  auto archive = ZipArchive::Open(path);
  ASSERT_TRUE(archive.has_value()) << archive.error().ToString();
  EXPECT_TRUE(archive->Contains("xl/workbook.xml"));
  auto workbook = archive->Read("xl/workbook.xml");
  ASSERT_TRUE(workbook.has_value()) << workbook.error().ToString();
  EXPECT_THAT(*workbook, HasSubstr("<sheet name=\"Data\""));
}

TEST(ZipArchiveTest, StoredEntriesAndMissingEntry) {
  auto archive = ZipArchive::FromBytes(StoredZip({{"a.txt", "hello"}, {"b/c.xml", "<x/>"}}), "t");
  ASSERT_TRUE(archive.has_value()) << archive.error().ToString();
  ASSERT_EQ(archive->entries().size(), 2u);
  EXPECT_EQ(*archive->Read("a.txt"), "hello");
  EXPECT_EQ(*archive->Read("b/c.xml"), "<x/>");
  auto missing = archive->Read("nope");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
  auto capped = archive->Read("a.txt", 4);
  ASSERT_FALSE(capped.has_value());
  EXPECT_EQ(capped.error().kind, ErrorKind::kData);
}

TEST(ZipArchiveTest, RejectsNonZipAndCorruptEntries) {
  auto not_zip = ZipArchive::FromBytes(std::string(100, 'x'), "junk.xlsx");
  ASSERT_FALSE(not_zip.has_value());
  EXPECT_EQ(not_zip.error().kind, ErrorKind::kData);
  EXPECT_THAT(not_zip.error().message, HasSubstr("junk.xlsx"));

  std::string bytes = StoredZip({{"a.txt", "hello"}});
  bytes[bytes.find("hello")] = 'j';  // data no longer matches the stored CRC-32
  auto archive = ZipArchive::FromBytes(bytes, "t");
  ASSERT_TRUE(archive.has_value());
  auto read = archive->Read("a.txt");
  ASSERT_FALSE(read.has_value());
  EXPECT_THAT(read.error().message, HasSubstr("CRC-32"));
}

TEST(ListSheetsTest, FindsTheWorkbookThroughRelationshipsAndDecodesNames) {
  const std::string rels =
      R"(<?xml version="1.0"?><Relationships xmlns="x"><Relationship Id="r1" )"
      R"(Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" )"
      R"(Target="/book/main.xml"/></Relationships>)";
  const std::string workbook =
      R"(<x:workbook xmlns:x="m"><!-- <x:sheet name="commented"/> --><x:sheets>)"
      R"(<x:sheet name="A &amp; B" sheetId="1"/><x:sheet sheetId='2' name='Z&#x20AC;'/>)"
      R"(</x:sheets><x:sheetsExtra name="no"/></x:workbook>)";
  auto archive =
      ZipArchive::FromBytes(StoredZip({{"_rels/.rels", rels}, {"book/main.xml", workbook}}), "t");
  ASSERT_TRUE(archive.has_value());
  auto sheets = ListSheets(*archive);
  ASSERT_TRUE(sheets.has_value()) << sheets.error().ToString();
  EXPECT_THAT(*sheets, ElementsAre("A & B", "Z\xE2\x82\xAC"));
}

TEST(ListSheetsTest, NoWorkbookPartIsAnError) {
  auto archive = ZipArchive::FromBytes(StoredZip({{"other.xml", "<a/>"}}), "t");
  ASSERT_TRUE(archive.has_value());
  auto sheets = ListSheets(*archive);
  ASSERT_FALSE(sheets.has_value());
  EXPECT_EQ(sheets.error().kind, ErrorKind::kData);
}

TEST(ListSheetsTest, SecondSheetAddedToADuckDbWorkbook) {
  duck::testing::TempDir dir;
  const auto path = dir.path() / "two.xlsx";
  testing::WriteXlsx(path, "First", {"Name"}, {{"a"}});
  testing::AddSecondSheet(path, "Second");
  auto archive = ZipArchive::Open(path);
  ASSERT_TRUE(archive.has_value());
  auto sheets = ListSheets(*archive);
  ASSERT_TRUE(sheets.has_value());
  EXPECT_THAT(*sheets, ElementsAre("First", "Second"));
  // DuckDB (an independent reader) reads the added sheet, so the rewritten workbook is valid.
  auto rows = ReadSheetRows(path, "Second");
  ASSERT_TRUE(rows.has_value()) << rows.error().ToString();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[1][0], "a");
}

TEST(ReadSheetRowsTest, CellsAsWrittenEmptyCellsAndEmptyRows) {
  duck::testing::TempDir dir;
  const auto path = dir.path() / "rows.xlsx";
  testing::WriteXlsx(path, "S", {"Name", "Mass", "Note"},
                     {{"a", "1.25", std::nullopt},
                      {std::nullopt, std::nullopt, std::nullopt},
                      {"c", "27.7", "x & <y>"}});
  auto rows = ReadSheetRows(path, "S");
  ASSERT_TRUE(rows.has_value()) << rows.error().ToString();
  ASSERT_EQ(rows->size(), 4u);
  EXPECT_THAT((*rows)[0], ElementsAre("Name", "Mass", "Note"));
  EXPECT_THAT((*rows)[1], ElementsAre("a", "1.25", std::nullopt));
  EXPECT_THAT((*rows)[2], ElementsAre(std::nullopt, std::nullopt, std::nullopt));
  EXPECT_THAT((*rows)[3], ElementsAre("c", "27.7", "x & <y>"));
}

TEST(ReadSheetRowsTest, UnknownSheetIsAnError) {
  duck::testing::TempDir dir;
  const auto path = dir.path() / "rows.xlsx";
  testing::WriteXlsx(path, "S", {"Name"}, {{"a"}});
  auto rows = ReadSheetRows(path, "Missing");
  ASSERT_FALSE(rows.has_value());
  EXPECT_THAT(rows.error().message, HasSubstr("Missing"));
}

}  // namespace
}  // namespace databox::source
