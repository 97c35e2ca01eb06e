// Durability of local files: a file's bytes and a folder's names reach the disk only when
// fsync'ed. Publishing a file by rename(2) or link(2) needs both: the file before, its folder
// after.
#pragma once

#include <string_view>

#include "common/error.h"

namespace databox::fileio {

//! fsyncs the file at `path` (its bytes and size). kNotFound when it is missing, else kIo,
//! naming the path.
Status SyncFile(std::string_view path);

//! fsyncs the folder `dir`, making the names created, renamed or linked in it durable. kNotFound
//! when it is missing, else kIo, naming the folder.
Status SyncFolder(std::string_view dir);

}  // namespace databox::fileio
