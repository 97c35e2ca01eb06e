#include "sources/usfws/usfws_options.h"

#include <charconv>
#include <optional>
#include <string>

#include "sources/usfws/targets.h"

namespace databox::source {
namespace {

//! The option `name` of `options`, if given.
std::optional<std::string> Given(const KindOptions& options, const std::string& name) {
  auto it = options.find(name);
  if (it == options.end()) return std::nullopt;
  return it->second;
}

//! Sets `*value` to the whole number given as option `name`, if it was given.
Status SetWholeNumber(const KindOptions& options, const std::string& name, int* value) {
  const std::optional<std::string> text = Given(options, name);
  if (!text) return Ok();
  int parsed = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), parsed);
  if (ec != std::errc() || end != text->data() + text->size()) {
    return MakeError(ErrorKind::kConfig, "--" + name + " '" + *text + "' is not a whole number");
  }
  *value = parsed;
  return Ok();
}

}  // namespace

Result<TargetedRequest> TargetedRequestFrom(const registry::Source& source,
                                            const KindOptions& options) {
  const std::optional<std::string> file = Given(options, kTargetsOption);
  if (!file) {
    return MakeError(ErrorKind::kConfig,
                     "refusing to run without a caller-supplied target list; pass --targets FILE "
                     "(a CSV file with the header '" +
                         std::string(kTargetsHeader) + "', see docs/sources.md)");
  }
  const registry::TargetSettings settings = source.targets.value_or(registry::TargetSettings{});
  DATABOX_ASSIGN_OR_RETURN(auto targets, ParseTargets(*file, settings));
  TargetedRequest request{std::move(targets), UsfwsOptionsFromRegistry(settings)};
  UsfwsRunOptions& run = request.options;
  run.run_id = Given(options, kRunIdOption);
  run.loaded_at = Given(options, kLoadedAtOption);
  DATABOX_RETURN_IF_ERROR(SetWholeNumber(options, kMaxImagesOption, &run.max_images_per_target));
  DATABOX_RETURN_IF_ERROR(SetWholeNumber(options, kMaxAttemptsOption, &run.request_max_attempts));
  DATABOX_RETURN_IF_ERROR(SetWholeNumber(options, kDetailWorkersOption, &run.detail_workers));
  DATABOX_RETURN_IF_ERROR(ValidateRunOptions(run));
  return request;
}

}  // namespace databox::source
