// The options of `databox run` the USFWS kind owns (`--targets FILE`, `--run-id`, ...), by name,
// and the caller's request they make with [source.targets] (docs/sources.md, "Running it").
#pragma once

#include "common/error.h"
#include "registry/model.h"
#include "source/source.h"
#include "sources/usfws/usfws_setup.h"

namespace databox::source {

inline constexpr const char* kTargetsOption = "targets";  //!< the target file
inline constexpr const char* kRunIdOption = "run-id";
inline constexpr const char* kLoadedAtOption = "loaded-at";
//! These three override [source.targets].
inline constexpr const char* kMaxImagesOption = "max-images-per-target";
inline constexpr const char* kMaxAttemptsOption = "request-max-attempts";
inline constexpr const char* kDetailWorkersOption = "detail-workers";

//! The caller's request from the options above: kConfig without kTargetsOption (saying how to
//! pass one), or naming the first problem of the target file or of the run options.
Result<TargetedRequest> TargetedRequestFrom(const registry::Source& source,
                                            const KindOptions& options);

}  // namespace databox::source
