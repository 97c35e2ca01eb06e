#include "source/xlsx_archive.h"

#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <limits>

namespace databox::source {
namespace {

constexpr uint32_t kEndOfCentralDirSig = 0x06054b50;
constexpr uint32_t kCentralEntrySig = 0x02014b50;
constexpr uint32_t kLocalHeaderSig = 0x04034b50;
constexpr std::size_t kEndOfCentralDirSize = 22;
constexpr std::size_t kCentralEntrySize = 46;
constexpr std::size_t kLocalHeaderSize = 30;
//! The end record may be followed by a comment of up to 65,535 bytes.
constexpr std::size_t kMaxCommentSize = 0xffff;
constexpr uint16_t kMethodStored = 0;
constexpr uint16_t kMethodDeflate = 8;

uint16_t U16(const std::string& b, std::size_t at) {
  return static_cast<uint16_t>(static_cast<unsigned char>(b[at]) |
                               (static_cast<unsigned char>(b[at + 1]) << 8));
}

uint32_t U32(const std::string& b, std::size_t at) {
  return static_cast<uint32_t>(U16(b, at)) | (static_cast<uint32_t>(U16(b, at + 2)) << 16);
}

Error Corrupt(const std::string& where, const std::string& what) {
  return Error{ErrorKind::kData, "xlsx " + where + ": not a readable ZIP archive (" + what +
                                     "); the file is damaged or not an .xlsx workbook"};
}

//! Raw-deflate `in` into exactly `expected` bytes.
Result<std::string> Inflate(std::string_view in, uint64_t expected, const std::string& where,
                            const std::string& name) {
  std::string out(expected, '\0');
  z_stream zs{};
  if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) {
    return MakeError(ErrorKind::kInternal, "xlsx " + where + ": zlib inflateInit2 failed");
  }
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&zs, Z_FINISH);
  const uint64_t produced = zs.total_out;
  inflateEnd(&zs);
  if (rc != Z_STREAM_END || produced != expected) {
    return std::unexpected(Corrupt(
        where, "entry " + name + " does not inflate to " + std::to_string(expected) + " bytes"));
  }
  return out;
}

}  // namespace

Result<ZipArchive> ZipArchive::Open(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return MakeError(ErrorKind::kIo,
                     "xlsx " + path.string() + ": cannot open the file for reading");
  }
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) {
    return MakeError(ErrorKind::kIo, "xlsx " + path.string() + ": read failed");
  }
  return FromBytes(std::move(bytes), path.string());
}

Result<ZipArchive> ZipArchive::FromBytes(std::string bytes, std::string where) {
  if (bytes.size() < kEndOfCentralDirSize) {
    return std::unexpected(Corrupt(where, "too short"));
  }
  // The end record is the last signature match that leaves room for its fixed part.
  std::size_t eocd = std::string::npos;
  const std::size_t lowest = bytes.size() > kEndOfCentralDirSize + kMaxCommentSize
                                 ? bytes.size() - kEndOfCentralDirSize - kMaxCommentSize
                                 : 0;
  for (std::size_t at = bytes.size() - kEndOfCentralDirSize + 1; at-- > lowest;) {
    if (U32(bytes, at) == kEndOfCentralDirSig) {
      eocd = at;
      break;
    }
  }
  if (eocd == std::string::npos)
    return std::unexpected(Corrupt(where, "no end of central directory"));
  const uint16_t count = U16(bytes, eocd + 10);
  const uint32_t cd_size = U32(bytes, eocd + 12);
  const uint32_t cd_offset = U32(bytes, eocd + 16);
  if (count == 0xffff || cd_offset == 0xffffffff) {
    return std::unexpected(Corrupt(where, "ZIP64 archives are not supported"));
  }
  if (uint64_t{cd_offset} + cd_size > eocd) {
    return std::unexpected(Corrupt(where, "central directory outside the file"));
  }
  std::vector<ZipEntry> entries;
  entries.reserve(count);
  std::size_t at = cd_offset;
  for (uint16_t i = 0; i < count; ++i) {
    if (at + kCentralEntrySize > eocd || U32(bytes, at) != kCentralEntrySig) {
      return std::unexpected(Corrupt(where, "central directory entry " + std::to_string(i)));
    }
    const uint16_t flags = U16(bytes, at + 8);
    ZipEntry e;
    e.method = U16(bytes, at + 10);
    e.crc32 = U32(bytes, at + 16);
    e.compressed = U32(bytes, at + 20);
    e.uncompressed = U32(bytes, at + 24);
    const uint16_t name_len = U16(bytes, at + 28);
    const uint16_t extra_len = U16(bytes, at + 30);
    const uint16_t comment_len = U16(bytes, at + 32);
    e.local_offset = U32(bytes, at + 42);
    if (at + kCentralEntrySize + name_len > eocd) {
      return std::unexpected(Corrupt(where, "entry name outside the directory"));
    }
    e.name = bytes.substr(at + kCentralEntrySize, name_len);
    if ((flags & 0x1) != 0) {
      return std::unexpected(Corrupt(where, "entry " + e.name + " is encrypted"));
    }
    entries.push_back(std::move(e));
    at += kCentralEntrySize + name_len + extra_len + comment_len;
  }
  return ZipArchive(std::move(bytes), std::move(where), std::move(entries));
}

bool ZipArchive::Contains(const std::string& name) const {
  return std::any_of(entries_.begin(), entries_.end(),
                     [&](const ZipEntry& e) { return e.name == name; });
}

Result<std::string> ZipArchive::Read(const std::string& name, uint64_t max_bytes) const {
  const auto it = std::find_if(entries_.begin(), entries_.end(),
                               [&](const ZipEntry& e) { return e.name == name; });
  if (it == entries_.end()) {
    return MakeError(ErrorKind::kNotFound, "xlsx " + where_ + ": no entry " + name);
  }
  const ZipEntry& e = *it;
  if (e.uncompressed > max_bytes) {
    return MakeError(ErrorKind::kData, "xlsx " + where_ + ": entry " + name + " has " +
                                           std::to_string(e.uncompressed) +
                                           " bytes, more than the limit of " +
                                           std::to_string(max_bytes));
  }
  const uint64_t lh = e.local_offset;
  if (lh + kLocalHeaderSize > bytes_.size() || U32(bytes_, lh) != kLocalHeaderSig) {
    return std::unexpected(Corrupt(where_, "local header of " + name));
  }
  const uint64_t data = lh + kLocalHeaderSize + U16(bytes_, lh + 26) + U16(bytes_, lh + 28);
  if (data + e.compressed > bytes_.size()) {
    return std::unexpected(Corrupt(where_, "entry " + name + " runs past the end"));
  }
  const std::string_view stored(bytes_.data() + data, e.compressed);
  std::string out;
  if (e.method == kMethodStored) {
    if (e.compressed != e.uncompressed) {
      return std::unexpected(Corrupt(where_, "stored entry " + name + " changes size"));
    }
    out.assign(stored);
  } else if (e.method == kMethodDeflate) {
    DATABOX_ASSIGN_OR_RETURN(out, Inflate(stored, e.uncompressed, where_, name));
  } else {
    return std::unexpected(
        Corrupt(where_, "entry " + name + " uses compression method " + std::to_string(e.method)));
  }
  const uLong crc =
      crc32(0L, reinterpret_cast<const Bytef*>(out.data()), static_cast<uInt>(out.size()));
  if (static_cast<uint32_t>(crc) != e.crc32) {
    return std::unexpected(Corrupt(where_, "CRC-32 mismatch in " + name));
  }
  return out;
}

}  // namespace databox::source
