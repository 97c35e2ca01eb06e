#include "cli/cli.h"

int main(int argc, char** argv) { return databox::cli::Main(argc, argv); }
