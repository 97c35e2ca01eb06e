// Folders databox writes into must be folders of their own: never the filesystem root, a system
// folder, a shared top-level folder itself or the user's home folder (docs/registry.md, "Paths").
#include <array>
#include <string_view>
#include <system_error>

#include "registry/parse_internal.h"

namespace databox::registry::internal {
namespace {

namespace fs = std::filesystem;

//! Folders that belong to the operating system: nothing in or below them is databox's.
constexpr std::array<std::string_view, 12> kSystemFolders = {"/bin",  "/boot",  "/dev",   "/etc",
                                                             "/lib",  "/lib32", "/lib64", "/libx32",
                                                             "/proc", "/sbin",  "/sys",   "/usr"};
//! Top-level folders that hold other people's folders: a folder below them is fine, the folder
//! itself is not.
constexpr std::array<std::string_view, 9> kSharedFolders = {
    "/home", "/media", "/mnt", "/opt", "/root", "/run", "/srv", "/tmp", "/var"};

//! `path` with symlinks of its existing part resolved, so a link cannot hide /etc.
fs::path Resolved(const fs::path& path) {
  std::error_code ec;
  fs::path resolved = fs::weakly_canonical(path, ec);
  if (ec) resolved = path;
  resolved = resolved.lexically_normal();
  if (resolved.has_relative_path() && !resolved.has_filename()) resolved = resolved.parent_path();
  return resolved;
}

//! True when `path` is `folder` or below it.
bool Within(const fs::path& path, const fs::path& folder) {
  const fs::path relative = path.lexically_relative(folder);
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

std::string WhyNotOwnFolder(const ParseContext& ctx, const fs::path& path) {
  const fs::path resolved = Resolved(path);
  const std::string shown = resolved.string();
  if (resolved == resolved.root_path()) return shown + " is the filesystem root";
  for (std::string_view system : kSystemFolders) {
    if (Within(resolved, fs::path(system))) {
      return shown + " is inside the system folder " + std::string(system);
    }
  }
  for (std::string_view shared : kSharedFolders) {
    if (resolved == fs::path(shared)) return shown + " is the shared folder " + shown + " itself";
  }
  if (auto home = ctx.env("HOME"); home && !home->empty() && resolved == Resolved(*home)) {
    return shown + " is your home folder";
  }
  return "";
}

std::string WhyNotStateFolder(const ParseContext& ctx, const fs::path& path) {
  if (std::string why = WhyNotOwnFolder(ctx, path); !why.empty()) return why;
  // The first part of the path that exists must be a folder: a file there (the state folder
  // itself or one above it) would fail the first write, after the run had started.
  std::error_code ec;
  for (fs::path part = fs::absolute(path, ec).lexically_normal(); !part.empty();
       part = part.parent_path()) {
    const fs::file_status status = fs::status(part, ec);
    if (!fs::exists(status)) {
      if (part == part.parent_path()) break;
      continue;
    }
    if (!fs::is_directory(status)) {
      return part.string() + " is an existing file, not a folder";
    }
    break;
  }
  const fs::path resolved = Resolved(path);
  if (Within(Resolved(ctx.config_dir), resolved)) {
    return resolved.string() + " holds the registry's own folder " + ctx.config_dir.string();
  }
  return "";
}

}  // namespace databox::registry::internal
