// The run timeline of the status page: one row per run shown (newest first), its length drawn
// as a track on which each source's load is a bar from its start to its end, coloured by its
// status, and the transform a bar at the run's end; a slow or failing source stands out. Pure
// HTML and CSS (percent positions), no script.
#pragma once

#include <string>

#include "report/report_model.h"

namespace databox::report {

//! <h2>Timeline</h2> and <div id="timeline">.
std::string TimelineSection(const Report& report);

}  // namespace databox::report
