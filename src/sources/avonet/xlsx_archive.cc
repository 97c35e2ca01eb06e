#include "sources/avonet/xlsx_archive.h"

#include <zip.h>

#include <algorithm>
#include <fstream>
#include <iterator>

namespace databox::source {
namespace {

struct ZipDiscard {
  void operator()(zip_t* zip) const { zip_discard(zip); }  // read-only: nothing to write back
};
struct ZipFileClose {
  void operator()(zip_file_t* file) const { zip_fclose(file); }
};

Error Corrupt(const std::string& where, const std::string& what) {
  return Error{ErrorKind::kData, "xlsx " + where + ": not a readable ZIP archive (" + what +
                                     "); the file is damaged or not an .xlsx workbook"};
}

//! The directory entry at `index`; kData when libzip cannot describe it or it is encrypted.
Result<ZipEntry> EntryAt(zip_t* zip, zip_uint64_t index, const std::string& where) {
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(zip, index, ZIP_FL_ENC_RAW, &st) != 0) {
    return std::unexpected(Corrupt(
        where, "central directory entry " + std::to_string(index) + ": " + zip_strerror(zip)));
  }
  ZipEntry entry{.name = st.name == nullptr ? "" : st.name,
                 .method = st.comp_method,
                 .crc32 = st.crc,
                 .compressed = st.comp_size,
                 .uncompressed = st.size};
  if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) != 0 && st.encryption_method != ZIP_EM_NONE) {
    return std::unexpected(Corrupt(where, "entry " + entry.name + " is encrypted"));
  }
  return entry;
}

//! Reads the open entry `file` into exactly the size its directory entry declares, then one byte
//! more: that read must meet the end of the entry, where libzip checks the CRC-32. So at most
//! one byte past the declared size is ever inflated, whatever the compressed data holds.
Result<std::string> ReadExactly(zip_file_t* file, const ZipEntry& entry, const std::string& where) {
  std::string out(entry.uncompressed, '\0');
  uint64_t done = 0;
  zip_int64_t n = 1;
  while (done < out.size() && (n = zip_fread(file, out.data() + done, out.size() - done)) > 0) {
    done += static_cast<uint64_t>(n);
  }
  char extra = 0;
  if (n > 0) n = zip_fread(file, &extra, 1);
  if (n < 0) {
    zip_error_t* error = zip_file_get_error(file);
    if (zip_error_code_zip(error) == ZIP_ER_CRC) {
      return std::unexpected(Corrupt(where, "CRC-32 mismatch in " + entry.name));
    }
    return std::unexpected(
        Corrupt(where, "entry " + entry.name + " is unreadable: " + zip_error_strerror(error)));
  }
  if (done != out.size() || n > 0) {
    return std::unexpected(Corrupt(where, "entry " + entry.name + " does not inflate to " +
                                              std::to_string(entry.uncompressed) + " bytes"));
  }
  return out;
}

}  // namespace

struct ZipArchive::Impl {
  std::string bytes;  //!< the whole archive; libzip reads it in place
  std::string where;  //!< file name for messages
  std::unique_ptr<zip_t, ZipDiscard> zip;
  std::vector<ZipEntry> entries;  //!< central directory, in archive order (libzip's indexes)
};

ZipArchive::ZipArchive(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ZipArchive::ZipArchive(ZipArchive&&) noexcept = default;
ZipArchive& ZipArchive::operator=(ZipArchive&&) noexcept = default;
ZipArchive::~ZipArchive() = default;

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
  auto impl = std::make_unique<Impl>();
  impl->bytes = std::move(bytes);
  impl->where = std::move(where);
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source =
      zip_source_buffer_create(impl->bytes.data(), impl->bytes.size(), 0, &error);
  if (source != nullptr) {
    impl->zip.reset(zip_open_from_source(source, ZIP_RDONLY, &error));
    if (impl->zip == nullptr) zip_source_free(source);
  }
  if (impl->zip == nullptr) {
    Error corrupt = Corrupt(impl->where, zip_error_strerror(&error));
    zip_error_fini(&error);
    return std::unexpected(std::move(corrupt));
  }
  zip_error_fini(&error);
  const zip_int64_t count = zip_get_num_entries(impl->zip.get(), 0);
  impl->entries.reserve(static_cast<std::size_t>(std::max<zip_int64_t>(count, 0)));
  for (zip_int64_t i = 0; i < count; ++i) {
    DATABOX_ASSIGN_OR_RETURN(ZipEntry entry, EntryAt(impl->zip.get(), i, impl->where));
    impl->entries.push_back(std::move(entry));
  }
  return ZipArchive(std::move(impl));
}

const std::vector<ZipEntry>& ZipArchive::entries() const { return impl_->entries; }

bool ZipArchive::Contains(const std::string& name) const {
  return std::any_of(impl_->entries.begin(), impl_->entries.end(),
                     [&](const ZipEntry& e) { return e.name == name; });
}

Result<std::string> ZipArchive::Read(const std::string& name, uint64_t max_bytes) const {
  const std::string& where = impl_->where;
  const auto it = std::find_if(impl_->entries.begin(), impl_->entries.end(),
                               [&](const ZipEntry& e) { return e.name == name; });
  if (it == impl_->entries.end()) {
    return MakeError(ErrorKind::kNotFound, "xlsx " + where + ": no entry " + name);
  }
  const ZipEntry& e = *it;
  if (e.uncompressed > max_bytes) {
    return MakeError(ErrorKind::kData, "xlsx " + where + ": entry " + name + " has " +
                                           std::to_string(e.uncompressed) +
                                           " bytes, more than the limit of " +
                                           std::to_string(max_bytes));
  }
  if (e.method != ZIP_CM_STORE && e.method != ZIP_CM_DEFLATE) {
    return std::unexpected(
        Corrupt(where, "entry " + name + " uses compression method " + std::to_string(e.method)));
  }
  if (e.method == ZIP_CM_STORE && e.compressed != e.uncompressed) {
    return std::unexpected(Corrupt(where, "stored entry " + name + " changes size"));
  }
  const auto index = static_cast<zip_uint64_t>(it - impl_->entries.begin());
  std::unique_ptr<zip_file_t, ZipFileClose> file(zip_fopen_index(impl_->zip.get(), index, 0));
  if (file == nullptr) {
    return std::unexpected(
        Corrupt(where, "entry " + name + " cannot be opened: " + zip_strerror(impl_->zip.get())));
  }
  return ReadExactly(file.get(), e, where);
}

}  // namespace databox::source
