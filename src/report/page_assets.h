// The status page's own style sheet and script, inlined into every page (the page fetches
// nothing). The script works on what report/html_page.cc writes: it turns each
// `[data-at-millis]` cell into an age at viewing time, re-judges routine sources against
// body[data-stale-after-ms], fills #summary (setting data-ready="true" on it) and adds a
// "failed runs only" switch to #runs.
#pragma once

#include <string_view>

namespace databox::report {

std::string_view PageStyle();
std::string_view PageScript();

}  // namespace databox::report
