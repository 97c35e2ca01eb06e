#include "source/targeted_source.h"

namespace databox::source {

Status TargetedSource::CanRun() const {
  return MakeError(ErrorKind::kConfig,
                   "source " + source_->name +
                       ": targeted sources (image search) are not built yet; the target list "
                       "can be checked with `databox run " +
                       source_->name + " --targets FILE`");
}

Result<StepReport> TargetedSource::Extract(const Package&, const ExtractProgress&) {
  DATABOX_RETURN_IF_ERROR(CanRun());
  return StepReport{};
}

Result<StepReport> TargetedSource::Feed(const registry::Resource&, const Package&,
                                        const RecordSink&) {
  DATABOX_RETURN_IF_ERROR(CanRun());
  return StepReport{};
}

}  // namespace databox::source
