// Durability of local files: a file's bytes and a folder's names reach the disk only when
// fsync'ed. Publishing a file by rename(2) or link(2) needs both: the file before, its folder
// after; a new folder needs its parent synced.
#pragma once

#include <filesystem>
#include <string_view>

#include "common/error.h"

namespace databox::fileio {

//! Writes all of `bytes` to the open file `fd` (short writes and EINTR are retried). kIo naming
//! `path` (the file's name, for the message) when write(2) fails.
Status WriteAllToFd(int fd, std::string_view bytes, std::string_view path);

//! fsyncs the file at `path` (its bytes and size). kNotFound when it is missing, else kIo,
//! naming the path.
Status SyncFile(std::string_view path);

//! fsyncs the folder `dir`, making the names created, renamed or linked in it durable. kNotFound
//! when it is missing, else kIo, naming the folder.
Status SyncFolder(std::string_view dir);

//! Creates `dir` and its missing ancestors (like mkdir -p) and fsyncs the parent of each folder
//! it created, so the new folders survive a crash. kIo naming the folder when one cannot be
//! created (e.g. a file is in the way).
Status CreateFoldersDurably(const std::filesystem::path& dir);

//! Publishes the written file `from` as `to` (replacing it) so that after a crash `to` is either
//! the old file or all of `from`: fsyncs `from`, renames it, fsyncs the folder of `to`. Both must
//! be in the same folder. `from` is left in place when the rename fails.
Status RenameDurably(const std::filesystem::path& from, const std::filesystem::path& to);

//! Replaces the file `path` with `bytes` atomically and durably: writes and fsyncs `path`.tmp in
//! the same folder (which must exist; one writer per path), then RenameDurably. The temporary is
//! removed on failure; errors name the path.
Status WriteFileDurably(const std::filesystem::path& path, std::string_view bytes);

}  // namespace databox::fileio
