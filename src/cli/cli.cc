#include "cli/cli.h"

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "cli/command_line.h"
#include "common/exit_code.h"

namespace databox::cli {

int Main(int argc, char** argv) {
  GlobalOptions defaults;
  if (const char* env = std::getenv("DATABOX_CONFIG"); env != nullptr && *env != '\0') {
    defaults.config_path = env;
  }
  CommandLine command_line(std::move(defaults));
  return ExitCodeNumber(command_line.Run(std::vector<std::string>(argv + 1, argv + argc)));
}

}  // namespace databox::cli
