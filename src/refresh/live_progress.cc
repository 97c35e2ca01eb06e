#include "refresh/live_progress.h"

#include <string_view>

#include "common/redact.h"
#include "common/terminal_style.h"
#include "refresh/protocol.h"

namespace databox::refresh {
namespace {

//! Text padded with spaces to `width` characters (never cut).
std::string Padded(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

using State = LiveProgress::State;

std::string_view StateName(State state) {
  switch (state) {
    case State::kWaiting:
      return "waiting";
    case State::kRunning:
      return "running";
    case State::kDone:
      return "done";
    case State::kFailed:
      return "FAILED";
    case State::kInterrupted:
      return "interrupted";
  }
  return "waiting";
}

Style StyleOfState(State state) {
  switch (state) {
    case State::kDone:
      return Style::kGreen;
    case State::kFailed:
    case State::kInterrupted:
      return Style::kRed;
    case State::kRunning:
      return Style::kYellow;
    case State::kWaiting:
      return Style::kPlain;
  }
  return Style::kPlain;
}

}  // namespace

LiveProgress::Row& LiveProgress::RowFor(const std::string& source) {
  if (!rows_.contains(source)) order_.push_back(source);
  return rows_[source];
}

void LiveProgress::OnSourceStart(const SourceStart& event) {
  std::lock_guard<std::mutex> guard(mutex_);
  Row& row = RowFor(event.source);
  row.state = State::kRunning;
  row.started = options_.now();
  Redraw();
}

void LiveProgress::OnPhaseStart(const PhaseStart& event) {
  std::lock_guard<std::mutex> guard(mutex_);
  footer_ = Footer{.phase = event.phase,
                   .state = State::kRunning,
                   .started = options_.now(),
                   .seconds = std::nullopt};
  Redraw();
}

void LiveProgress::OnPhaseEnd(const PhaseEnd& event) {
  std::lock_guard<std::mutex> guard(mutex_);
  if (!footer_ || footer_->phase != event.phase) {
    footer_ = Footer{
        .phase = event.phase, .state = State::kRunning, .started = options_.now(), .seconds = 0.0};
  }
  footer_->state = event.ok ? State::kDone : State::kFailed;
  footer_->seconds = std::chrono::duration<double>(options_.now() - footer_->started).count();
  Redraw();
}

void LiveProgress::OnProgress(const load::LoadProgress& progress) {
  std::lock_guard<std::mutex> guard(mutex_);
  Row& row = RowFor(progress.source);
  if (!row.started) row.started = options_.now();
  if (row.state == State::kWaiting) row.state = State::kRunning;
  row.phase = progress.phase;
  row.requests = progress.requests;
  row.records = progress.records;
  Redraw();
}

void LiveProgress::OnSourceFinished(const SourceFinished& event) {
  std::lock_guard<std::mutex> guard(mutex_);
  const SourceRun& run = event.run;
  Row& row = RowFor(run.source);
  row.seconds = run.seconds;
  std::string text;
  switch (run.status) {
    case SourceStatus::kOk:
      row.state = State::kDone;
      row.rows = run.rows;
      break;
    case SourceStatus::kInterrupted:
      row.state = State::kInterrupted;
      break;
    case SourceStatus::kNotStarted:
      return;
    case SourceStatus::kFailed: {
      row.state = State::kFailed;
      if (!options_.print_failures) break;
      const std::string phase(load::OptionalPhaseName(run.phase));
      text = Styled(run.source, Style::kBold, options_.colour) + " " +
             Styled("FAILED", Style::kRed, options_.colour) + " [" + phase + "] " +
             Redact(run.error) + "\n";
      break;
    }
  }
  Redraw(text);
}

void LiveProgress::Tick() {
  std::lock_guard<std::mutex> guard(mutex_);
  Redraw();
}

std::string LiveProgress::Elapsed(Clock::time_point started, std::optional<double> seconds) const {
  if (seconds) return SecondsText(*seconds) + "s";
  const auto running = std::chrono::duration_cast<std::chrono::seconds>(options_.now() - started);
  return std::to_string(running.count()) + "s";
}

std::string LiveProgress::Fit(std::string line) const {
  if (options_.width && *options_.width > 1 && line.size() >= *options_.width) {
    line.resize(*options_.width - 1);
  }
  return line;
}

std::string LiveProgress::StateText(State state, std::optional<Clock::time_point> started,
                                    std::optional<double> seconds) const {
  std::string text(StateName(state));
  if (started && state != State::kWaiting) text += " " + Elapsed(*started, seconds);
  return text;
}

std::string LiveProgress::Line(const std::string& source, const Row& row) const {
  const std::string state = StateText(row.state, row.started, row.seconds);
  const std::string phase(load::OptionalPhaseName(row.phase));
  std::string rest = Padded(phase, 10) + " requests=" + Padded(std::to_string(row.requests), 6) +
                     " records=" + std::to_string(row.records);
  if (row.rows) rest += " rows=" + std::to_string(*row.rows);
  // Cut the plain text, then colour the state: an escape sequence never gets cut in half.
  const std::string head = Padded(source, 18) + " ";
  const std::string padded_state = Padded(state, 16) + " ";
  const std::string fitted = Fit(head + padded_state + rest);
  if (fitted.size() <= head.size() + state.size()) return fitted;
  return head + Styled(state, StyleOfState(row.state), options_.colour) +
         fitted.substr(head.size() + state.size());
}

std::string LiveProgress::FooterLine() const {
  const std::string state = StateText(footer_->state, footer_->started, footer_->seconds);
  return std::string(load::PhaseName(footer_->phase)) + " " +
         Styled(state, StyleOfState(footer_->state), options_.colour);
}

void LiveProgress::Redraw(const std::string& text) {
  if (finished_) {
    std::fputs(text.c_str(), out_);
    std::fflush(out_);
    return;
  }
  std::string frame;
  if (drawn_ > 0) frame += "\x1b[" + std::to_string(drawn_) + "A";
  frame += "\x1b[J" + text;
  std::size_t lines = 0;
  for (const std::string& source : order_) {
    frame += Line(source, rows_.at(source)) + "\n";
    ++lines;
  }
  if (footer_) {
    frame += FooterLine() + "\n";
    ++lines;
  }
  drawn_ = lines;
  std::fputs(frame.c_str(), out_);
  std::fflush(out_);
}

void LiveProgress::Finish() {
  std::lock_guard<std::mutex> guard(mutex_);
  Redraw();
  finished_ = true;
  drawn_ = 0;
}

LiveTicker::LiveTicker(LiveProgress& live, std::chrono::milliseconds interval)
    : thread_([this, &live, interval] {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!wake_.wait_for(lock, interval, [this] { return stop_; })) {
          lock.unlock();
          live.Tick();
          lock.lock();
        }
      }) {}

LiveTicker::~LiveTicker() {
  {
    std::lock_guard<std::mutex> guard(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

}  // namespace databox::refresh
