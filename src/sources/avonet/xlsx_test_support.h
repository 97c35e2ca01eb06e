// Synthetic workbooks for the AVONET module's tests only (header-only; not part of the API).
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "duck/connection.h"
#include "duck/database.h"
#include "duck/extensions.h"
#include "duck/quote.h"
#include "source/source_test_support.h"
#include "sources/avonet/xlsx_archive.h"

namespace databox::source::testing {

using Cells = std::vector<std::optional<std::string>>;

inline bool LooksNumeric(const std::string& s) {
  double v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && ptr == s.data() + s.size();
}

//! Writes a one-sheet workbook with DuckDB's excel extension (an independent writer): row 1 is
//! `header`, then `rows`. A column whose values are all numbers (or null) becomes numeric cells,
//! as in real workbooks; nullopt leaves the cell empty.
inline void WriteXlsx(const std::filesystem::path& path, const std::string& sheet,
                      const std::vector<std::string>& header, const std::vector<Cells>& rows) {
  ASSERT_FALSE(rows.empty());
  std::vector<bool> numeric(header.size(), true);
  for (const Cells& row : rows) {
    ASSERT_EQ(row.size(), header.size());
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (row[c] && !LooksNumeric(*row[c])) numeric[c] = false;
    }
  }
  std::string values;
  for (const Cells& row : rows) {
    values += values.empty() ? "(" : ", (";
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c > 0) values += ", ";
      if (!row[c]) {
        values += numeric[c] ? "NULL::DOUBLE" : "NULL::VARCHAR";
      } else {
        values += numeric[c] ? "CAST(" + *row[c] + " AS DOUBLE)" : duck::QuoteLiteral(*row[c]);
      }
    }
    values += ")";
  }
  std::string names;
  for (const std::string& h : header)
    names += (names.empty() ? "" : ", ") + duck::QuoteIdentifier(h);
  auto db = duck::Database::Open("", duck::DatabaseOptions{.threads = 1});
  ASSERT_TRUE(db.has_value()) << db.error().ToString();
  auto conn = duck::Connection::Open(*db);
  ASSERT_TRUE(conn.has_value());
  auto loaded = duck::LoadExtension(*conn, "excel");
  ASSERT_TRUE(loaded.has_value()) << loaded.error().ToString();
  const std::string sql = "COPY (SELECT * FROM (VALUES " + values + ") t(" + names + ")) TO " +
                          duck::QuoteLiteral(path.string()) + " (FORMAT xlsx, HEADER true, SHEET " +
                          duck::QuoteLiteral(sheet) + ")";
  auto copied = conn->Execute(sql);
  ASSERT_TRUE(copied.has_value()) << copied.error().ToString();
}

inline void PutU16(std::string& out, uint32_t v) {
  out += static_cast<char>(v & 0xff);
  out += static_cast<char>((v >> 8) & 0xff);
}
inline void PutU32(std::string& out, uint32_t v) {
  PutU16(out, v & 0xffff);
  PutU16(out, v >> 16);
}

//! One entry as RawZip writes it: the fields of both its headers, as given (they may lie).
struct RawZipEntry {
  std::string name;
  std::string data;     //!< the bytes stored in the archive (compressed or not)
  uint16_t method = 0;  //!< 0 stored, 8 deflate, anything else
  uint16_t flags = 0;   //!< general purpose flags (bit 0: encrypted)
  uint32_t crc = 0;     //!< CRC-32 claimed for the uncompressed bytes
  uint32_t size = 0;    //!< uncompressed size claimed
};

inline uint32_t Crc32(const std::string& data) {
  return static_cast<uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
}

//! `data` raw-deflated (no zlib header), as ZIP stores it.
inline std::string RawDeflate(const std::string& data) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
            Z_OK);
  std::string out(deflateBound(&zs, static_cast<uLong>(data.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

//! A ZIP archive of `entries`, headers written from their fields (APPNOTE 4.3: local headers
//! and data, central directory, end record).
inline std::string RawZip(const std::vector<RawZipEntry>& entries) {
  std::string out;
  std::string central;
  for (const RawZipEntry& e : entries) {
    const auto offset = static_cast<uint32_t>(out.size());
    PutU32(out, 0x04034b50);
    for (uint32_t v : {20u, uint32_t{e.flags}, uint32_t{e.method}, 0u, 0u}) {
      PutU16(out, v);  // version, flags, method, time, date
    }
    PutU32(out, e.crc);
    PutU32(out, static_cast<uint32_t>(e.data.size()));
    PutU32(out, e.size);
    PutU16(out, static_cast<uint32_t>(e.name.size()));
    PutU16(out, 0);
    out += e.name;
    out += e.data;
    PutU32(central, 0x02014b50);
    for (uint32_t v : {20u, 20u, uint32_t{e.flags}, uint32_t{e.method}, 0u, 0u}) {
      PutU16(central, v);
    }
    PutU32(central, e.crc);
    PutU32(central, static_cast<uint32_t>(e.data.size()));
    PutU32(central, e.size);
    PutU16(central, static_cast<uint32_t>(e.name.size()));
    for (uint32_t v : {0u, 0u, 0u, 0u}) PutU16(central, v);  // extra, comment, disk, attributes
    PutU32(central, 0);
    PutU32(central, offset);
    central += e.name;
  }
  const auto central_offset = static_cast<uint32_t>(out.size());
  out += central;
  PutU32(out, 0x06054b50);
  PutU16(out, 0);
  PutU16(out, 0);
  PutU16(out, static_cast<uint32_t>(entries.size()));
  PutU16(out, static_cast<uint32_t>(entries.size()));
  PutU32(out, static_cast<uint32_t>(central.size()));
  PutU32(out, central_offset);
  PutU16(out, 0);
  return out;
}

//! A ZIP archive of stored (uncompressed) entries.
inline std::string StoredZip(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::vector<RawZipEntry> raw;
  for (const auto& [name, data] : entries) {
    raw.push_back({.name = name,
                   .data = data,
                   .crc = Crc32(data),
                   .size = static_cast<uint32_t>(data.size())});
  }
  return RawZip(raw);
}

//! Rewrites the workbook at `path` (stored entries) with a second sheet `name` listed in its
//! workbook part, a copy of the first sheet's data.
inline void AddSecondSheet(const std::filesystem::path& path, const std::string& name) {
  auto archive = ZipArchive::Open(path);
  ASSERT_TRUE(archive.has_value()) << archive.error().ToString();
  std::vector<std::pair<std::string, std::string>> entries;
  for (const ZipEntry& e : archive->entries()) {
    auto data = archive->Read(e.name);
    ASSERT_TRUE(data.has_value());
    std::string bytes = *data;
    if (e.name == "xl/workbook.xml") {
      const std::size_t at = bytes.find("</sheets>");
      ASSERT_NE(at, std::string::npos);
      bytes.insert(at, "<sheet name=\"" + name + "\" sheetId=\"2\" r:id=\"rIdExtra\"/>");
    } else if (e.name == "xl/_rels/workbook.xml.rels") {
      const std::size_t at = bytes.find("</Relationships>");
      ASSERT_NE(at, std::string::npos);
      bytes.insert(at,
                   "<Relationship Id=\"rIdExtra\" Type=\"http://schemas.openxmlformats.org/"
                   "officeDocument/2006/relationships/worksheet\" Target=\"worksheets/"
                   "sheet2.xml\"/>");
    } else if (e.name == "[Content_Types].xml") {
      const std::size_t at = bytes.find("</Types>");
      ASSERT_NE(at, std::string::npos);
      bytes.insert(at,
                   "<Override PartName=\"/xl/worksheets/sheet2.xml\" ContentType=\"application/"
                   "vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>");
    }
    entries.emplace_back(e.name, std::move(bytes));
    if (e.name == "xl/worksheets/sheet1.xml")
      entries.emplace_back("xl/worksheets/sheet2.xml", *data);
  }
  WriteBytes(path, StoredZip(entries));
}

}  // namespace databox::source::testing
