// The lineage of a report drawn as one inline <svg> element: three columns of boxes, sources,
// their raw tables and the transform models, with a curve from each source to each of its
// tables and from each table to each model that reads it. Every name is escaped; the drawing
// names no external resource.
#pragma once

#include <string>

#include "report/report_model.h"

namespace databox::report {

//! The raw tables of a source: its declared resources (a disabled one marked), the catalog's
//! tables in its namespace except dlt's bookkeeping (`_dlt_*`), and those the models read.
struct LineageTable {
  std::string name;    //!< "raw_noaa.daily_weather"
  std::string source;  //!< "" when no source of the registry has its namespace
  bool disabled = false;
};

//! The tables column, grouped by source in registry order, then tables of no known source.
std::vector<LineageTable> LineageTables(const Report& report);

//! The <svg> element (no XML declaration; for inline use in HTML).
std::string LineageSvg(const Report& report);

}  // namespace databox::report
