#include "sources/avonet/xlsx_workbook.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "duck/test_support.h"
#include "sources/avonet/xlsx_archive.h"
#include "sources/avonet/xlsx_test_support.h"

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

TEST(ZipArchiveTest, ReadsDeflatedEntriesAndStopsAtTheDeclaredSize) {
  const std::string text(100000, 'z');
  const std::string deflated = testing::RawDeflate(text);
  auto archive = ZipArchive::FromBytes(
      testing::RawZip({{.name = "ok.xml",
                        .data = deflated,
                        .method = 8,
                        .crc = testing::Crc32(text),
                        .size = static_cast<uint32_t>(text.size())},
                       // A bomb: 100,000 bytes inflate from an entry that claims 10.
                       {.name = "bomb.xml",
                        .data = deflated,
                        .method = 8,
                        .crc = testing::Crc32(text.substr(0, 10)),
                        .size = 10}}),
      "t.xlsx");
  ASSERT_TRUE(archive.has_value()) << archive.error().ToString();
  auto ok = archive->Read("ok.xml");
  ASSERT_TRUE(ok.has_value()) << ok.error().ToString();
  EXPECT_EQ(*ok, text);
  auto bomb = archive->Read("bomb.xml");
  ASSERT_FALSE(bomb.has_value());
  EXPECT_EQ(bomb.error().kind, ErrorKind::kData);
  EXPECT_THAT(bomb.error().message, HasSubstr("bomb.xml does not inflate to 10 bytes"));
  auto capped = archive->Read("ok.xml", 99999);
  ASSERT_FALSE(capped.has_value());
  EXPECT_THAT(capped.error().message, HasSubstr("more than the limit of 99999"));
}

TEST(ZipArchiveTest, RejectsDamagedArchivesAndEntries) {
  const std::string zip = StoredZip({{"a.txt", "hello"}});
  auto truncated = ZipArchive::FromBytes(zip.substr(0, zip.size() - 10), "cut.xlsx");
  ASSERT_FALSE(truncated.has_value());
  EXPECT_EQ(truncated.error().kind, ErrorKind::kData);
  EXPECT_THAT(truncated.error().message, HasSubstr("cut.xlsx: not a readable ZIP archive"));

  auto encrypted = ZipArchive::FromBytes(
      testing::RawZip({{.name = "s.xml", .data = "x", .flags = 1, .crc = 0, .size = 1}}), "t");
  ASSERT_FALSE(encrypted.has_value());
  EXPECT_THAT(encrypted.error().message, HasSubstr("entry s.xml is encrypted"));

  auto archive = ZipArchive::FromBytes(
      testing::RawZip({{.name = "bz.xml", .data = "x", .method = 12, .crc = 0, .size = 1},
                       {.name = "garbage.xml", .data = "not deflate", .method = 8, .size = 5}}),
      "t");
  ASSERT_TRUE(archive.has_value()) << archive.error().ToString();
  auto bzip2 = archive->Read("bz.xml");
  ASSERT_FALSE(bzip2.has_value());
  EXPECT_THAT(bzip2.error().message, HasSubstr("uses compression method 12"));
  auto garbage = archive->Read("garbage.xml");
  ASSERT_FALSE(garbage.has_value());
  EXPECT_EQ(garbage.error().kind, ErrorKind::kData);
  EXPECT_THAT(garbage.error().message, HasSubstr("garbage.xml"));
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

TEST(ListSheetsTest, AWorkbookPartThatIsNotWellFormedXmlIsAnError) {
  const std::string bad = R"(<workbook><sheets><sheet name="A"></sheets></workbook>)";
  auto archive = ZipArchive::FromBytes(StoredZip({{"xl/workbook.xml", bad}}), "t");
  ASSERT_TRUE(archive.has_value());
  auto sheets = ListSheets(*archive);
  ASSERT_FALSE(sheets.has_value());
  EXPECT_EQ(sheets.error().kind, ErrorKind::kData);
  EXPECT_THAT(sheets.error().message, HasSubstr("xl/workbook.xml is not well-formed XML (line 1"));

  auto bad_rels = ZipArchive::FromBytes(
      StoredZip({{"_rels/.rels", "<Relationships><Relationship"}, {"xl/workbook.xml", "<w/>"}}),
      "t");
  ASSERT_TRUE(bad_rels.has_value());
  auto from_bad_rels = ListSheets(*bad_rels);
  ASSERT_FALSE(from_bad_rels.has_value());
  EXPECT_THAT(from_bad_rels.error().message, HasSubstr("_rels/.rels is not well-formed XML"));
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
