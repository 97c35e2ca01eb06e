#include "cli/cli.h"

#include <cstdio>

namespace databox::cli {

int Main(int argc, char** argv) {
  (void)argc;
  (void)argv;
  std::fputs("databox: not built yet\n", stderr);
  return kExitUsage;
}

}  // namespace databox::cli
