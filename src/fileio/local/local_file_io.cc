#include "fileio/local/local_file_io.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <set>
#include <system_error>

#include "common/sha256.h"
#include "fileio/durable.h"
#include "fileio/fd.h"
#include "fileio/leftovers.h"
#include "fileio/location.h"

namespace databox::fileio {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTempMarker = ".databox-tmp-";
constexpr size_t kCopyBufferBytes = size_t{1} << 20;

std::unexpected<Error> ErrnoError(std::string_view what, std::string_view path, int err) {
  ErrorKind kind = err == ENOENT ? ErrorKind::kNotFound : ErrorKind::kIo;
  return MakeError(kind, "could not " + std::string(what) + " '" + std::string(path) +
                             "': " + std::strerror(err) +
                             "; check that the path exists and is accessible to this user");
}

//! Writes a fsync'ed temporary file beside `final_path` with `fill`; returns its path.
Result<std::string> WriteTemp(const fs::path& final_path,
                              const std::function<Status(int fd, std::string_view tmp)>& fill) {
  DATABOX_RETURN_IF_ERROR(CreateFoldersDurably(final_path.parent_path()));
  // The temporary name carries this process's pid: one a killed writer left is removed by the
  // next write into the same folder, never one a live writer is filling.
  RemoveLeftoversOfDeadProcessesOnce(final_path.parent_path(), kTempMarker);
  std::string tmp =
      (final_path.parent_path() / (std::string(kTempMarker) + std::to_string(::getpid()) + "-" +
                                   final_path.filename().native() + "-XXXXXX"))
          .native();
  Fd fd(::mkstemp(tmp.data()));
  if (fd.get() < 0)
    return ErrnoError("create a temporary file in the folder of", final_path.native(), errno);
  Status written = fill(fd.get(), tmp);
  if (written && ::fsync(fd.get()) != 0) written = ErrnoError("fsync", tmp, errno);
  if (written) {
    // close(2) can report a deferred write error.
    if (const int err = fd.Close(); err != 0) written = ErrnoError("close", tmp, err);
  }
  if (!written) {
    ::unlink(tmp.c_str());
    return std::unexpected(written.error());
  }
  return tmp;
}

Status Fill(int fd, std::string_view bytes, std::string_view tmp) {
  return WriteAllToFd(fd, bytes, tmp);
}

Status CopyFrom(const std::string& source, int fd, std::string_view tmp) {
  Fd in(::open(source.c_str(), O_RDONLY | O_CLOEXEC));
  if (in.get() < 0) return ErrnoError("open", source, errno);
  std::string buffer(kCopyBufferBytes, '\0');
  while (true) {
    ssize_t n = ::read(in.get(), buffer.data(), buffer.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError("read", source, errno);
    }
    if (n == 0) return Ok();
    DATABOX_RETURN_IF_ERROR(
        WriteAllToFd(fd, std::string_view(buffer.data(), static_cast<size_t>(n)), tmp));
  }
}

//! Links `tmp` as `final_path` without overwriting (the folder is not synced); removes `tmp`
//! either way.
Status LinkNew(const std::string& tmp, const fs::path& final_path) {
  int rc = ::link(tmp.c_str(), final_path.c_str());
  int err = errno;
  ::unlink(tmp.c_str());
  if (rc != 0) {
    if (err == EEXIST) {
      return MakeError(ErrorKind::kAlreadyExists,
                       "'" + final_path.native() +
                           "' already exists and must not be overwritten; write to a new "
                           "location");
    }
    return ErrnoError("publish", final_path.native(), err);
  }
  return Ok();
}

//! Publishes `tmp` as `final_path` without overwriting; removes `tmp` either way.
Status PublishNew(const std::string& tmp, const fs::path& final_path) {
  DATABOX_RETURN_IF_ERROR(LinkNew(tmp, final_path));
  return SyncFolder(final_path.parent_path().native());
}

//! Publishes `tmp` as `final_path`, replacing it if present.
Status PublishReplace(const std::string& tmp, const fs::path& final_path) {
  if (::rename(tmp.c_str(), final_path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return ErrnoError("publish", final_path.native(), err);
  }
  return SyncFolder(final_path.parent_path().native());
}

Result<struct stat> Stat(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return ErrnoError("stat", path, errno);
  if (!S_ISREG(st.st_mode)) {
    return MakeError(ErrorKind::kData, "'" + path + "' is not a regular file");
  }
  return st;
}

Result<std::string> PRead(const std::string& path, uint64_t offset, uint64_t length) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return ErrnoError("open", path, errno);
  std::string out;
  out.resize(length);
  uint64_t done = 0;
  while (done < length) {
    ssize_t n =
        ::pread(fd.get(), out.data() + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError("read", path, errno);
    }
    if (n == 0) break;
    done += static_cast<uint64_t>(n);
  }
  out.resize(done);
  return out;
}

//! A file time as milliseconds since the Unix epoch.
int64_t ModifiedMs(fs::file_time_type time) {
  const auto system = std::chrono::file_clock::to_sys(time);
  return std::chrono::duration_cast<std::chrono::milliseconds>(system.time_since_epoch()).count();
}

bool IsTempFile(const fs::path& path) {
  std::string name = path.filename().native();
  return name.starts_with('.') && name.find(kTempMarker) != std::string::npos;
}

}  // namespace

Result<std::string> LocalFileIO::Read(std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(std::string path, LocalPathOf(location));
  DATABOX_ASSIGN_OR_RETURN(struct stat st, Stat(path));
  return PRead(path, 0, static_cast<uint64_t>(st.st_size));
}

Result<std::string> LocalFileIO::ReadRange(std::string_view location, uint64_t offset,
                                           uint64_t length) {
  DATABOX_ASSIGN_OR_RETURN(std::string path, LocalPathOf(location));
  DATABOX_ASSIGN_OR_RETURN(struct stat st, Stat(path));
  uint64_t size = static_cast<uint64_t>(st.st_size);
  if (offset >= size) return std::string();
  return PRead(path, offset, std::min(length, size - offset));
}

Result<uint64_t> LocalFileIO::Size(std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(std::string path, LocalPathOf(location));
  DATABOX_ASSIGN_OR_RETURN(struct stat st, Stat(path));
  return static_cast<uint64_t>(st.st_size);
}

Result<bool> LocalFileIO::Exists(std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(std::string path, LocalPathOf(location));
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return true;
  if (errno == ENOENT || errno == ENOTDIR) return false;
  return ErrnoError("stat", path, errno);
}

Status LocalFileIO::WriteNew(std::string_view location, std::string_view bytes) {
  DATABOX_ASSIGN_OR_RETURN(std::string path, LocalPathOf(location));
  DATABOX_ASSIGN_OR_RETURN(std::string tmp, WriteTemp(path, [bytes](int fd, std::string_view t) {
                             return Fill(fd, bytes, t);
                           }));
  return PublishNew(tmp, path);
}

Status LocalFileIO::WriteNewBatch(std::span<const NewObject> objects) {
  std::set<fs::path> folders;
  for (const auto& object : objects) {
    DATABOX_ASSIGN_OR_RETURN(std::string path, LocalPathOf(object.location));
    DATABOX_ASSIGN_OR_RETURN(std::string tmp,
                             WriteTemp(path, [&object](int fd, std::string_view t) {
                               return Fill(fd, object.bytes, t);
                             }));
    DATABOX_RETURN_IF_ERROR(LinkNew(tmp, path));
    folders.insert(fs::path(path).parent_path());
  }
  // One sync per folder makes every link in it durable.
  for (const auto& folder : folders) DATABOX_RETURN_IF_ERROR(SyncFolder(folder.native()));
  return Ok();
}

Status LocalFileIO::Write(std::string_view location, std::string_view bytes) {
  DATABOX_ASSIGN_OR_RETURN(std::string path, LocalPathOf(location));
  DATABOX_ASSIGN_OR_RETURN(std::string tmp, WriteTemp(path, [bytes](int fd, std::string_view t) {
                             return Fill(fd, bytes, t);
                           }));
  return PublishReplace(tmp, path);
}

Status LocalFileIO::ReplaceIfTag(std::string_view location, std::string_view bytes,
                                 std::string_view tag) {
  DATABOX_ASSIGN_OR_RETURN(std::string path, LocalPathOf(location));
  const std::string folder = fs::path(path).parent_path().string();
  Fd dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.get() < 0) return ErrnoError("open the folder", folder, errno);
  // Held until `dir` closes: writers of this folder that use ReplaceIfTag take turns.
  if (::flock(dir.get(), LOCK_EX) != 0) return ErrnoError("lock the folder", folder, errno);
  auto current = Read(location);
  if (!current) {
    if (current.error().kind != ErrorKind::kNotFound) return std::unexpected(current.error());
    return MakeError(ErrorKind::kConflict, "'" + path + "' was removed by another writer");
  }
  if (Sha256Hex(*current) != tag) {
    return MakeError(ErrorKind::kConflict, "'" + path + "' was changed by another writer");
  }
  return Write(location, bytes);
}

Status LocalFileIO::UploadFile(std::string_view local_path, std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(std::string source, LocalPathOf(local_path));
  DATABOX_ASSIGN_OR_RETURN(std::string path, LocalPathOf(location));
  DATABOX_ASSIGN_OR_RETURN(std::string tmp, WriteTemp(path, [&source](int fd, std::string_view t) {
                             return CopyFrom(source, fd, t);
                           }));
  return PublishReplace(tmp, path);
}

Status LocalFileIO::Delete(std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(std::string path, LocalPathOf(location));
  if (::unlink(path.c_str()) != 0) return ErrnoError("delete", path, errno);
  return Ok();
}

Result<std::vector<FileInfo>> LocalFileIO::List(std::string_view prefix) {
  return ListFiles(prefix, /*with_temporary=*/false);
}

Result<std::vector<FileInfo>> LocalFileIO::ListWithTemporaryFiles(std::string_view prefix) {
  return ListFiles(prefix, /*with_temporary=*/true);
}

Status LocalFileIO::RemoveEmptyFolders(std::string_view prefix) {
  DATABOX_ASSIGN_OR_RETURN(std::string path, LocalPathOf(prefix));
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return Ok();
  std::vector<fs::path> folders{fs::path(path)};
  for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec) && !it->is_symlink(ec)) folders.push_back(it->path());
  }
  // Deepest first, so a folder whose only entries were empty folders goes too; rmdir refuses a
  // folder that holds anything, which then stays.
  std::sort(folders.begin(), folders.end(),
            [](const fs::path& a, const fs::path& b) { return a.native() > b.native(); });
  for (const fs::path& folder : folders) ::rmdir(folder.c_str());
  return Ok();
}

Result<std::vector<FileInfo>> LocalFileIO::ListFiles(std::string_view prefix, bool with_temporary) {
  DATABOX_ASSIGN_OR_RETURN(std::string path_prefix, LocalPathOf(prefix));
  // The location form (e.g. "file://") is whatever precedes the path in `prefix`.
  std::string_view scheme = prefix.substr(0, prefix.size() - path_prefix.size());
  fs::path root =
      path_prefix.ends_with('/') ? fs::path(path_prefix) : fs::path(path_prefix).parent_path();
  std::vector<FileInfo> out;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return out;
  fs::recursive_directory_iterator it(root, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const std::string& p = it->path().native();
    bool is_dir = it->is_directory(ec);
    if (ec == std::errc::no_such_file_or_directory) {  // removed while we list: skip it
      ec.clear();
      continue;
    }
    if (is_dir) {
      // Descend only into folders that can hold matches.
      std::string dir = p + "/";
      if (!dir.starts_with(path_prefix) && !path_prefix.starts_with(dir)) {
        it.disable_recursion_pending();
      }
      continue;
    }
    if (!it->is_regular_file(ec) || !p.starts_with(path_prefix)) continue;
    if (!with_temporary && IsTempFile(it->path())) continue;
    uint64_t size = it->file_size(ec);
    if (ec == std::errc::no_such_file_or_directory) {
      ec.clear();
      continue;
    }
    if (ec) break;
    const auto modified = it->last_write_time(ec);
    if (ec == std::errc::no_such_file_or_directory) {
      ec.clear();
      continue;
    }
    if (ec) break;
    out.push_back({std::string(scheme) + p, size, ModifiedMs(modified)});
  }
  if (ec) {
    return MakeError(ErrorKind::kIo, "could not list '" + root.native() + "': " + ec.message());
  }
  std::ranges::sort(out, {}, &FileInfo::location);
  return out;
}

}  // namespace databox::fileio
