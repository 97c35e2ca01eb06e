// The status page's health sections: "Needs attention" at the top (failed models with their
// errors, sources whose newest load failed or that are stale, a failed newest run) and the
// Models table (status, last built, rows, audits; failed models first, their error beside).
#pragma once

#include <string>

#include "report/report_model.h"

namespace databox::report {

//! <section id="attention">: one item per problem, or a line saying there is none.
std::string AttentionSection(const Report& report);

//! <h2>Models</h2> and <table id="model-health">.
std::string ModelsSection(const Report& report);

}  // namespace databox::report
