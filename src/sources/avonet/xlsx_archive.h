// The ZIP container of an XLSX workbook, read with libzip: the entry list and the bytes of one
// entry. Only what XLSX files use: stored and deflated entries, no encryption. An entry is read
// only up to the size its directory entry declares (and never past a caller's limit), and its
// CRC-32 is checked, so a damaged archive or a zip bomb is an error, not a huge allocation.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
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
};

//! A ZIP archive held in memory. Move-only value; no fallible work in the constructor. Used by
//! one thread at a time (libzip's archive handle is not shared between threads).
class ZipArchive {
 public:
  //! Reads `path` and its central directory. kIo when the file cannot be read, kData when it is
  //! not a readable ZIP archive or holds an encrypted entry.
  static Result<ZipArchive> Open(const std::filesystem::path& path);
  //! The same over bytes already in memory (`where` names them in messages).
  static Result<ZipArchive> FromBytes(std::string bytes, std::string where);

  ZipArchive(ZipArchive&&) noexcept;
  ZipArchive& operator=(ZipArchive&&) noexcept;
  ~ZipArchive();

  const std::vector<ZipEntry>& entries() const;
  //! True when an entry has this exact name.
  bool Contains(const std::string& name) const;
  //! The uncompressed bytes of entry `name`, checked against its size and CRC-32. kNotFound
  //! when absent; kData when corrupt or larger than `max_bytes`.
  Result<std::string> Read(const std::string& name, uint64_t max_bytes = uint64_t{256} << 20) const;

 private:
  struct Impl;  //!< the bytes, libzip's handle on them, the entries
  explicit ZipArchive(std::unique_ptr<Impl> impl);

  std::unique_ptr<Impl> impl_;
};

}  // namespace databox::source
