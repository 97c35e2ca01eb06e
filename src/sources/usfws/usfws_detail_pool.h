// Fetching the detail pages of a USFWS run: each distinct safe URL once, `workers` at a time,
// each worker over its own transport (libcurl handles are not shared between threads).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "http/retry.h"
#include "http/transport.h"
#include "source/network.h"
#include "sources/usfws/usfws_http.h"
#include "sources/usfws/usfws_rows.h"

namespace databox::source {

//! Pages whose retries may run out before the run aborts.
inline constexpr int kMaxUnavailableDetails = 10;

//! Fetches and reads every page of `urls` (distinct, safe). A page whose retries ran out is
//! kUnavailableAfterRetries; the run aborts (kData, nothing returned) on any other failed
//! request, a page that is not UTF-8, or more than kMaxUnavailableDetails unavailable pages.
//! `timing` is shared by the workers and must be thread-safe.
Result<std::map<std::string, DetailOutcome>> FetchDetails(const std::vector<std::string>& urls,
                                                          int workers,
                                                          const TransportMaker& make_transport,
                                                          const RequestPolicy& policy,
                                                          http::RetryTiming& timing);

}  // namespace databox::source
