// A real small file system for the reliability suite (test-only): a tmpfs mounted on a folder
// in a private mount namespace of the test process (as root directly; otherwise inside a new
// user namespace), which every process the test starts afterwards inherits. A filler file
// leaves exactly the free space a case needs, so every write meets a real ENOSPC.
// Start any helper process that must see the mount (e.g. PyicebergServer) after the disk.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace databox::reliability {

class SmallDisk {
 public:
  //! Mounts a tmpfs of `size` bytes on `dir` (created if needed) until the object ends;
  //! error() says why when it could not.
  SmallDisk(const std::filesystem::path& dir, std::size_t size);
  ~SmallDisk();
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;

  //! "" when mounted, else why not.
  const std::string& error() const { return error_; }
  //! Free bytes on the file system now.
  std::size_t Free() const;
  //! Fills the disk until `free` bytes are left (the filler replaces an earlier one).
  bool LeaveFree(std::size_t free);
  //! Removes the filler.
  void Unfill();

 private:
  std::filesystem::path Filler() const { return dir_ / "filler"; }
  std::filesystem::path dir_;
  std::string error_;
  bool mounted_ = false;
};

}  // namespace databox::reliability
