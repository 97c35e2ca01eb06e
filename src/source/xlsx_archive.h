// The ZIP container of an XLSX workbook: the entry list and the bytes of one entry. Only what
// XLSX files use: stored and deflated entries, no ZIP64, no encryption, no multi-disk archives.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "common/error.h"

namespace databox::source {

//! One entry of the archive's central directory.
struct ZipEntry {
  std::string name;           //!< path inside the archive, e.g. "xl/workbook.xml"
  uint16_t method = 0;        //!< 0 = stored, 8 = deflate
  uint32_t crc32 = 0;         //!< of the uncompressed bytes
  uint64_t compressed = 0;    //!< bytes stored in the archive
  uint64_t uncompressed = 0;  //!< bytes after inflating
  uint64_t local_offset = 0;  //!< offset of the entry's local file header
};

//! A ZIP archive held in memory. Move-only value; no fallible work in the constructor.
class ZipArchive {
 public:
  //! Reads `path` and its central directory. kIo when the file cannot be read, kData when it is
  //! not a ZIP archive (or uses ZIP64, which no workbook of the sizes we load needs).
  static Result<ZipArchive> Open(const std::filesystem::path& path);
  //! The same over bytes already in memory (`where` names them in messages).
  static Result<ZipArchive> FromBytes(std::string bytes, std::string where);

  const std::vector<ZipEntry>& entries() const { return entries_; }
  //! True when an entry has this exact name.
  bool Contains(const std::string& name) const;
  //! The uncompressed bytes of entry `name`, checked against its size and CRC-32. kNotFound
  //! when absent; kData when corrupt or larger than `max_bytes`.
  Result<std::string> Read(const std::string& name, uint64_t max_bytes = uint64_t{256} << 20) const;

 private:
  ZipArchive(std::string bytes, std::string where, std::vector<ZipEntry> entries)
      : bytes_(std::move(bytes)), where_(std::move(where)), entries_(std::move(entries)) {}

  std::string bytes_;              //!< the whole archive
  std::string where_;              //!< file name for messages
  std::vector<ZipEntry> entries_;  //!< central directory, in archive order
};

}  // namespace databox::source
