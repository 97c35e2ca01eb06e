// The status page as one self-contained HTML document: its style sheet, script and lineage
// drawing are inline and a Content-Security-Policy forbids every fetch, so the file opens the
// same from disk, a mail attachment or any static file host. Every text the report
// holds is escaped. Readable without script; the script (report/page_assets.h) adds the
// summary, ages as of viewing time and a filter. Layout in docs/report.md.
#pragma once

#include <string>

#include "report/report_model.h"

namespace databox::report {

//! The page for `report`, a pure function of it (the page's own time is report.generated_at).
std::string RenderReportHtml(const Report& report);

}  // namespace databox::report
