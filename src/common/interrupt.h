// Stopping a run cleanly on SIGINT (Ctrl-C) or SIGTERM. InstallInterruptHandlers() makes both
// signals only record which one arrived (one store into a lock-free atomic: async-signal-safe);
// the load and refresh loops call CheckInterrupted at safe points (between requests, pages,
// resources, phases and sources) and unwind with its error, so that the run record
// and the load package are written before the command exits with 128 + the signal
// (common/exit_code.h). The handlers are one-shot (SA_RESETHAND): a second signal of the same
// kind ends the process at once, as if no handler had been installed.
#pragma once

#include <string>
#include <string_view>

#include "common/error.h"

namespace databox {

//! Installs the recording handlers for SIGINT and SIGTERM. Only the commands that load call it:
//! every other command keeps the default (immediate) ending.
void InstallInterruptHandlers();

//! The signal that interrupted the run (SIGINT or SIGTERM), 0 while none has.
int InterruptSignal();

//! An error "<where>: interrupted by SIGINT" once a signal has arrived; Ok before. Its kind is
//! kInternal (never retried nor reconciled); callers tell it apart with IsInterruption.
Status CheckInterrupted(std::string_view where);

//! Whether `error` ended a load because of SIGINT or SIGTERM: true for every error once a
//! signal has arrived (the load was unwinding, or failed meanwhile: either way the run was
//! interrupted).
bool IsInterruption(const Error& error);

//! "SIGINT" or "SIGTERM" (another number: "signal N").
std::string SignalName(int signal_number);

//! Forgets a recorded signal (tests).
void ClearInterruptForTest();

}  // namespace databox
