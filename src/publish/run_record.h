// The run-history record of a publish (docs/run_history.md, command "publish"): one entry per
// relation (its name as the source, rows, its snapshot), ok when the version became current,
// failed otherwise with the read-back problem that names it or the error that stopped the
// publish; the read-back problems also as the inspection's. The first entry's notes say which
// version went where and what was copied.
#pragma once

#include <string>

#include "common/exit_code.h"
#include "publish/publisher.h"
#include "refresh/run_history.h"

namespace databox::publish {

refresh::RunRecord PublishRecord(const Outcome& outcome, const std::string& target_root,
                                 const std::string& started_at, ExitCode exit_code);

}  // namespace databox::publish
