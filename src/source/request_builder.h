// Building the HTTP requests of a resource: placeholders, merged params and headers, auth.
#pragma once

#include <map>
#include <string>

#include "common/error.h"
#include "http/message.h"
#include "registry/model.h"

namespace databox::source {

//! Replaces every {name} in `text` with vars[name]; kConfig error naming the placeholder when
//! a name has no value (e.g. a window placeholder in a source without a window).
Result<std::string> FillPlaceholders(const std::string& text,
                                     const std::map<std::string, std::string>& vars);

//! True when `text` holds a window placeholder ({start}, {end}, {year}, {month}, {day}).
bool UsesWindowPlaceholder(const std::string& text);

//! `base` with the entries of `over` added, replacing those of the same name.
std::map<std::string, std::string> MergeVars(std::map<std::string, std::string> base,
                                             const std::map<std::string, std::string>& over);

//! `url` with `params` appended as a query ("?" or "&"), names and values percent-encoded.
std::string AppendQuery(std::string url, const std::map<std::string, std::string>& params);

//! The host part ("scheme://host[:port]") of an absolute URL, lower-cased; "" if not absolute.
std::string UrlOrigin(const std::string& url);

//! The first request of a resource for one set of placeholder values: base_url + path, the
//! source's params overlaid by the resource's and by its refinement's (when on), plus
//! `extra_params` (a reserved query's, pagination), the source's
//! and the resource's headers, and auth. Values are filled from `vars`.
Result<http::Request> BuildRequest(const registry::Source& source,
                                   const registry::Resource& resource,
                                   const std::map<std::string, std::string>& vars,
                                   const std::map<std::string, std::string>& extra_params);

//! Adds the source's credential to `request` (header, bearer or query parameter, unless the URL
//! already carries that parameter). An unset secret (replay mode) adds nothing. The secret
//! value is registered with the redactor first.
void ApplyAuth(const registry::AuthSettings& auth, http::Request* request);

}  // namespace databox::source
