#include "sources/usfws/usfws_kind.h"

#include <optional>
#include <utility>

#include "sources/usfws/targeted_source.h"
#include "sources/usfws/usfws_options.h"
#include "sources/usfws/usfws_rows.h"

namespace databox::source {

Result<std::unique_ptr<Source>> UsfwsKind::Make(const registry::Source& source,
                                                const SourceInput& input, Network network) const {
  std::optional<TargetedRequest> request;
  if (input.options.contains(kTargetsOption)) {
    DATABOX_ASSIGN_OR_RETURN(request, TargetedRequestFrom(source, input.options));
  }
  return std::make_unique<TargetedSource>(source, std::move(request), std::move(network.transports),
                                          network.replay);
}

registry::Resource UsfwsKind::DeclaredResource(const registry::Resource& declared) const {
  for (const registry::Resource& own : UsfwsResources()) {
    if (own.name != declared.name) continue;
    registry::Resource typed = declared;
    typed.columns = own.columns;
    typed.column_order = own.column_order;
    return typed;
  }
  return declared;
}

std::vector<RunOption> UsfwsKind::RunOptions() const {
  return {
      {.name = kTargetsOption,
       .value_name = "FILE",
       .help = "usfws: the caller-supplied target list (CSV: species_code,common_name,"
               "scientific_name)",
       .range = std::nullopt},
      {.name = kRunIdOption,
       .value_name = "ID",
       .help = "usfws: the run id (default: a hash of --loaded-at and the targets)",
       .range = std::nullopt},
      {.name = kLoadedAtOption,
       .value_name = "TIME",
       .help = "usfws: the load time, ISO-8601 UTC (default: now), e.g. 2026-08-03T12:00:00Z",
       .range = std::nullopt},
      {.name = kMaxImagesOption,
       .value_name = "N",
       .help = "usfws: more results for one target abort the run (1-500; default: "
               "[source.targets] max_images_per_target, else 500)",
       .range = std::pair{1, 500}},
      {.name = kMaxAttemptsOption,
       .value_name = "N",
       .help = "usfws: tries per request (1-6; default: [source.targets], else 6)",
       .range = std::pair{1, 6}},
      {.name = kDetailWorkersOption,
       .value_name = "N",
       .help = "usfws: media pages fetched in parallel (1-4; default: [source.targets], else 3)",
       .range = std::pair{1, 4}},
  };
}

std::string UsfwsKind::ForeignOptionsMessage() const {
  return "--targets, --run-id, --loaded-at, --max-images-per-target, --request-max-attempts and "
         "--detail-workers apply to targeted sources (usfws) only";
}

Status UsfwsKind::CheckRun(const registry::Source& source, const KindOptions& options,
                           bool resume) const {
  if (resume) {
    return MakeError(ErrorKind::kConfig, "--resume does not apply to targeted sources; run again");
  }
  DATABOX_RETURN_IF_ERROR(TargetedRequestFrom(source, options));
  return Ok();
}

}  // namespace databox::source
