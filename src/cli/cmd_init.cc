// `databox init DIR`: starts a new project from the templates embedded in the binary.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "cli/commands.h"
#include "cli/init_templates.h"
#include "cli/output.h"
#include "common/exit_code.h"
#include "refresh/sqlmesh_install.h"

namespace databox::cli {
namespace {

namespace fs = std::filesystem;

enum class WriteOutcome { kWritten, kKept, kFailed };

//! Writes `content` to a new file `path`; an existing file is kept as it is (O_EXCL).
WriteOutcome WriteNewFile(const fs::path& path, std::string_view content, std::string& error) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) {
    error = "cannot create folder " + path.parent_path().string() + ": " + ec.message();
    return WriteOutcome::kFailed;
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (errno == EEXIST) return WriteOutcome::kKept;
    error = "cannot create " + path.string() + ": " + std::strerror(errno);
    return WriteOutcome::kFailed;
  }
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = "cannot write " + path.string() + ": " + std::strerror(errno);
      ::close(fd);
      return WriteOutcome::kFailed;
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) {
    error = "cannot write " + path.string() + ": " + std::strerror(errno);
    return WriteOutcome::kFailed;
  }
  return WriteOutcome::kWritten;
}

//! Empty string when `dir` may receive the project; else why not.
std::string WhyNotTarget(const fs::path& dir, bool force) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return "";
  if (!fs::is_directory(dir, ec)) return dir.string() + " exists and is not a folder";
  if (!force && !fs::is_empty(dir, ec)) {
    return dir.string() +
           " is not empty: choose a new folder, or add --force to write the missing files "
           "(existing files are never overwritten)";
  }
  return "";
}

ExitCode Init(const std::string& dir_text, bool force) {
  const fs::path dir(dir_text);
  if (std::string why = WhyNotTarget(dir, force); !why.empty()) {
    Err("databox init: " + why + "\n");
    return ExitCode::kUsage;
  }
  std::error_code ec;
  const bool existing = fs::exists(dir, ec) && !fs::is_empty(dir, ec);
  std::string written, kept;
  for (const TemplateFile& file : InitTemplates()) {
    std::string error;
    switch (WriteNewFile(dir / file.path, file.content, error)) {
      case WriteOutcome::kWritten:
        written += "  " + std::string(file.path) + "\n";
        break;
      case WriteOutcome::kKept:
        kept += "  " + std::string(file.path) + "\n";
        break;
      case WriteOutcome::kFailed:
        Err("databox init: " + error + "\n");
        return ExitCode::kRunFailed;
    }
  }
  if (!existing) {
    Out("databox init: new project in " + dir.string() + "\n" + written);
  } else {
    // --force into a folder with files: nothing was overwritten, so say what was added.
    Out("databox init: re-initialised " + dir.string() + "; no file was overwritten\n" +
        (written.empty() ? "no file was missing\n" : "wrote the missing:\n" + written));
  }
  if (!kept.empty()) Out("kept the existing (not overwritten):\n" + kept);
  Out("next:\n  cd " + dir.string() +
      "\n  databox validate\n  databox refresh              # load usgs_earthquakes (offline "
      "replay) and run the SQLMesh models\n  databox query \"SELECT count(*) FROM "
      "analytics.fct_earthquakes\"\n"
      "The models need SQLMesh: " +
      std::string(refresh::kSqlMeshPipInstall) +
      " (in .venv beside databox.toml or on PATH); `databox run usgs_earthquakes` loads "
      "without it.\n");
  return ExitCode::kOk;
}

}  // namespace

Command InitCommand() {
  return Command{
      "init", "Start a new project in a folder (registry, SQLMesh project, offline example)",
      "Creates DIR with databox.toml (one source, usgs_earthquakes, replayed from a recorded\n"
      "response in recordings/ so it runs offline), the SQLMesh project in transform/ (a model\n"
      "over the source's table and analytics.platform_health), .env.example and .gitignore.\n"
      "Refuses a non-empty DIR unless --force; never overwrites an existing file. The files are\n"
      "built into databox: no source tree is needed. --config plays no part (the registry\n"
      "written is DIR/databox.toml).",
      [](CLI::App& app) -> Runner {
        auto dir = std::make_shared<std::string>();
        auto force = std::make_shared<bool>(false);
        app.add_option("DIR", *dir, "the project folder to create")->required();
        app.add_flag("--force", *force,
                     "write into a non-empty DIR (only the missing files; none is overwritten)");
        return [dir, force](const GlobalOptions&) { return Init(*dir, *force); };
      }};
}

}  // namespace databox::cli
