// Factories of the subcommands that are built; see commands.cc for the full table.
#pragma once

#include "cli/command.h"

namespace databox::cli {

Command InitCommand();
Command ValidateCommand();
Command SourcesCommand();
Command RunCommand();
Command IngestCommand();
Command PublishCommand();
Command RefreshCommand();
Command TransformCommand();
Command StatusCommand();
Command RunsCommand();
Command ReportCommand();
Command ServeCommand();
Command LoadsCommand();
Command InspectCommand();
Command QueryCommand();
Command CatalogCommand();
Command MaintainCommand();
Command CompletionCommand();

}  // namespace databox::cli
