#include "cli/cli.h"

#include <sys/stat.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "cli/command_line.h"
#include "cli/fatal_error.h"
#include "common/exit_code.h"
#include "platform/source_kinds.h"

namespace databox::cli {

int Main(int argc, char** argv) {
  InstallFatalErrorHandler();
  // Everything databox writes (catalog, warehouse files, load packages with raw pages, analytics
  // databases, run history, backups) is its owner's alone: files 0600, folders 0700. Children
  // (SQLMesh) inherit it.
  ::umask(0077);
  // The commands and their checks ask sources' kinds (the options of `databox run` among them).
  platform::RegisterSourceKinds();
  GlobalOptions defaults;
  if (const char* env = std::getenv("DATABOX_CONFIG"); env != nullptr && *env != '\0') {
    defaults.config_path = env;
  }
  CommandLine command_line(std::move(defaults));
  return ExitCodeNumber(command_line.Run(std::vector<std::string>(argv + 1, argv + argc)));
}

}  // namespace databox::cli
