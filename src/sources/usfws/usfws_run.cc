#include "sources/usfws/usfws_run.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "common/clock.h"
#include "common/sha256.h"
#include "sources/usfws/python_text.h"

namespace databox::source {
namespace {

constexpr int kMaxTargets = 500;

Status CheckRange(std::string_view name, int value, int low, int high) {
  if (value >= low && value <= high) return Ok();
  return MakeError(ErrorKind::kConfig, "usfws: " + std::string(name) + " = " +
                                           std::to_string(value) + " is out of range; use " +
                                           std::to_string(low) + ".." + std::to_string(high));
}

//! A target and one of its candidates, for sorting the records.
struct Pairing {
  const Target* target;
  const Candidate* candidate;
};

//! The candidates of every target (in target order), searched over one transport.
Result<std::vector<std::vector<Candidate>>> SearchAll(const std::vector<Target>& targets,
                                                      int max_images,
                                                      const TransportMaker& make_transport,
                                                      const RequestPolicy& policy,
                                                      http::RetryTiming& timing) {
  DATABOX_ASSIGN_OR_RETURN(auto transport, make_transport());
  UsfwsFetcher fetcher(*transport, policy, timing);
  std::vector<std::vector<Candidate>> found;
  std::size_t candidates = 0;
  for (const Target& target : targets) {
    DATABOX_ASSIGN_OR_RETURN(auto merged, SearchTarget(fetcher, target, max_images));
    candidates += merged.size();
    if (candidates > kMaxRunCandidates) {
      return MakeError(ErrorKind::kData, "usfws: more than " + std::to_string(kMaxRunCandidates) +
                                             " images over all targets; the run was aborted, "
                                             "nothing is loaded (split the target list)");
    }
    found.push_back(std::move(merged));
  }
  return found;
}

//! The distinct safe detail URLs of all candidates, in the order first met.
Result<std::vector<std::string>> SafeDetailUrls(const std::vector<std::vector<Candidate>>& found) {
  std::vector<std::string> urls;
  std::set<std::string> seen;
  for (const auto& merged : found) {
    for (const Candidate& c : merged) {
      const std::string& url = c.card.source_page_url;
      if (IsSafeDetailUrl(url) && seen.insert(url).second) urls.push_back(url);
    }
  }
  if (urls.size() > kMaxRunCandidates) {
    return MakeError(ErrorKind::kData, "usfws: more than " + std::to_string(kMaxRunCandidates) +
                                           " media pages to read; the run was aborted, nothing "
                                           "is loaded (split the target list)");
  }
  return urls;
}

//! One record per target and candidate, sorted by species_code, then source_page_url.
std::vector<Json> RecordRows(const std::string& run_id, const std::string& loaded_at,
                             const std::vector<Target>& targets,
                             const std::vector<std::vector<Candidate>>& found,
                             const std::map<std::string, DetailOutcome>& details) {
  std::vector<Pairing> pairings;
  for (std::size_t t = 0; t < targets.size(); ++t) {
    for (const Candidate& c : found[t]) pairings.push_back({&targets[t], &c});
  }
  std::ranges::sort(pairings, [](const Pairing& a, const Pairing& b) {
    return std::tie(a.target->code, a.candidate->card.source_page_url) <
           std::tie(b.target->code, b.candidate->card.source_page_url);
  });
  std::vector<Json> records;
  for (const Pairing& p : pairings) {
    const auto detail = details.find(p.candidate->card.source_page_url);
    const DetailOutcome outcome = detail != details.end() ? detail->second : DetailOutcome{};
    records.push_back(RecordRow(run_id, loaded_at, *p.target, *p.candidate, outcome));
  }
  return records;
}

}  // namespace

Status ValidateRunOptions(const UsfwsRunOptions& options) {
  DATABOX_RETURN_IF_ERROR(
      CheckRange("max_images_per_target", options.max_images_per_target, 1, 500));
  DATABOX_RETURN_IF_ERROR(CheckRange("request_max_attempts", options.request_max_attempts, 1, 6));
  DATABOX_RETURN_IF_ERROR(CheckRange("detail_workers", options.detail_workers, 1, 4));
  if (options.run_id && options.run_id->empty()) {
    return MakeError(ErrorKind::kConfig, "usfws: the run id is empty; give one or leave it out");
  }
  if (options.loaded_at) {
    if (!IsoToMillis(*options.loaded_at)) {
      return MakeError(ErrorKind::kConfig,
                       "usfws: loaded_at '" + *options.loaded_at +
                           "' is not an ISO-8601 UTC time (e.g. 2026-08-03T12:00:00Z)");
    }
  }
  return Ok();
}

std::string DefaultRunId(std::string_view loaded_at, const std::vector<Target>& targets) {
  std::string identity = "[";
  for (const Target& t : targets) {
    if (identity.size() > 1) identity += ", ";
    identity += "(" + PythonRepr(t.code) + ", " + PythonRepr(t.scientific_name) + ")";
  }
  identity += "]";
  return Sha256Hex(std::string(loaded_at) + "|" + identity);
}

std::string UsfwsUserAgent(std::string_view contact) {
  std::string agent = "Databox/0.1 (USFWS image search";
  if (!contact.empty()) agent += "; contact: " + std::string(contact);
  return agent + ")";
}

Result<UsfwsImageSearch> UsfwsImageSearch::Make(std::vector<Target> targets,
                                                UsfwsRunOptions options,
                                                TransportMaker make_transport,
                                                http::RetryTiming* timing) {
  DATABOX_RETURN_IF_ERROR(ValidateRunOptions(options));
  registry::TargetSettings settings;
  settings.max_targets = kMaxTargets;
  DATABOX_RETURN_IF_ERROR(NormalizeTargets(targets, settings, "usfws target_species"));
  auto state = std::make_unique<State>();
  state->loaded_at = options.loaded_at.value_or(NowIso());
  state->run_id = options.run_id.value_or(DefaultRunId(state->loaded_at, targets));
  state->targets = std::move(targets);
  state->options = std::move(options);
  state->make_transport = std::move(make_transport);
  state->timing = timing;
  return UsfwsImageSearch(std::move(state));
}

Result<const UsfwsRows*> UsfwsImageSearch::Rows() {
  if (!state_->outcome) state_->outcome = Run();
  if (!*state_->outcome) return std::unexpected(state_->outcome->error());
  return &**state_->outcome;
}

Result<UsfwsRows> UsfwsImageSearch::Run() {
  const State& s = *state_;
  if (s.targets.empty()) {
    return MakeError(ErrorKind::kConfig,
                     "usfws: target_species must be supplied (pass --targets FILE)");
  }
  const std::string started_at = NowIso();
  http::RetryTiming& timing = s.timing != nullptr ? *s.timing : http::SystemRetryTiming();
  const RequestPolicy policy{.max_attempts = s.options.request_max_attempts,
                             .user_agent = UsfwsUserAgent(s.options.contact)};
  DATABOX_ASSIGN_OR_RETURN(auto found, SearchAll(s.targets, s.options.max_images_per_target,
                                                 s.make_transport, policy, timing));
  DATABOX_ASSIGN_OR_RETURN(const std::vector<std::string> urls, SafeDetailUrls(found));
  DATABOX_ASSIGN_OR_RETURN(
      auto details, FetchDetails(urls, s.options.detail_workers, s.make_transport, policy, timing));
  UsfwsRows rows;
  rows.records = RecordRows(s.run_id, s.loaded_at, s.targets, found, details);
  rows.runs.push_back(RunRow(RunFacts{.run_id = s.run_id,
                                      .loaded_at = s.loaded_at,
                                      .started_at = started_at,
                                      .completed_at = NowIso(),
                                      .target_count = static_cast<int64_t>(s.targets.size()),
                                      .record_count = static_cast<int64_t>(rows.records.size()),
                                      .max_images_per_target = s.options.max_images_per_target,
                                      .request_max_attempts = s.options.request_max_attempts,
                                      .detail_workers = s.options.detail_workers}));
  return rows;
}

}  // namespace databox::source
