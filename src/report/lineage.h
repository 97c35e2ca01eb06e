// Which raw tables each transform model reads, found by reading the model files, not by running
// SQLMesh: every `*.sql` file under <project_dir>/models is one model, named by its
// `MODEL ( name x.y` header (else by its path), and reads every `<alias>.raw_<source>.<table>`
// it names outside `--` comments (alias: [project.analytics] catalog_alias, any case).
// References built at run time (macros, Python models) are not seen (docs/report.md).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "report/report_model.h"

namespace databox::report {

//! The raw tables `sql` names through `alias`, as "raw_<source>.<table>", sorted and unique.
std::vector<std::string> RawTablesRead(std::string_view sql, std::string_view alias);

//! The names of `models` that `sql` names (as schema.table, any case, outside `--` comments and
//! not as part of a longer dotted name), except `self`; sorted.
std::vector<std::string> ModelsRead(std::string_view sql, const std::vector<std::string>& models,
                                    const std::string& self);

//! The model name a file declares in its MODEL header; "" when it has none.
std::string DeclaredModelName(std::string_view sql);

//! Every model under `project_dir`/models with the raw tables and other models it reads (the
//! transform's DAG between models), sorted by name; a kIo error naming the folder when
//! it cannot be listed or a file cannot be read.
Result<std::vector<ModelReads>> ScanModels(const std::filesystem::path& project_dir,
                                           std::string_view alias);

}  // namespace databox::report
