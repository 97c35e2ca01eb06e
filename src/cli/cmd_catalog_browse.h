// `databox catalog list` and `databox catalog describe TABLE`: browsing the catalog's tables.
// Declared apart from the other `catalog` subcommands (cmd_catalog.cc), which call this.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>

#include "cli/command.h"

namespace databox::cli {

//! Runs the browsing subcommand the command line chose; nullopt when it chose another one.
using CatalogBrowseRunner = std::function<std::optional<ExitCode>(const GlobalOptions&)>;

//! Adds `list` and `describe` to the `catalog` command `catalog`.
CatalogBrowseRunner DeclareCatalogBrowse(CLI::App& catalog);

}  // namespace databox::cli
