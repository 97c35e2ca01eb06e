// Exit codes: the numbers the process returns and the run history records.
#include "common/exit_code.h"

#include <gtest/gtest.h>

#include <charconv>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "common/test_paths.h"

namespace databox {
namespace {

constexpr ExitCode kEveryCode[] = {ExitCode::kOk, ExitCode::kRunFailed, ExitCode::kUsage,
                                   ExitCode::kInterrupted, ExitCode::kTerminated};

//! The rows of the table under "## Exit codes" in docs/cli.md: each code's number and the rest
//! of its row (the meaning).
std::map<int, std::string> DocumentedExitCodes() {
  std::ifstream in(std::filesystem::path(test_paths::SourceDir()) / "docs" / "cli.md");
  std::map<int, std::string> rows;
  bool in_section = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("## ")) {
      in_section = line == "## Exit codes";
      continue;
    }
    if (!in_section || !line.starts_with("| ")) continue;
    const std::size_t end = line.find(" |", 2);
    if (end == std::string::npos) continue;
    int number = 0;
    const char* first = line.data() + 2;
    const char* last = line.data() + end;
    const auto [ptr, ec] = std::from_chars(first, last, number);
    if (ec != std::errc() || ptr != last) continue;  // the header and separator rows
    rows[number] = line.substr(end + 2);
  }
  return rows;
}

// The process statuses are a contract with shells and schedulers: docs/cli.md documents them, so
// the code's numbers and the document's must be the same set, each with its meaning.
TEST(ExitCodeTest, NumbersAndMeaningsAreTheOnesDocsCliMdDocuments) {
  const std::map<int, std::string> documented = DocumentedExitCodes();
  ASSERT_FALSE(documented.empty()) << "no table under \"## Exit codes\" in docs/cli.md";
  std::set<int> documented_numbers;
  for (const auto& [number, row] : documented) documented_numbers.insert(number);
  std::set<int> numbers;
  for (ExitCode code : kEveryCode) numbers.insert(ExitCodeNumber(code));
  EXPECT_EQ(numbers, documented_numbers);
  const std::pair<ExitCode, std::string> meanings[] = {{ExitCode::kOk, "succeeded"},
                                                       {ExitCode::kRunFailed, "a run failed"},
                                                       {ExitCode::kUsage, "usage"},
                                                       {ExitCode::kInterrupted, "SIGINT"},
                                                       {ExitCode::kTerminated, "SIGTERM"}};
  for (const auto& [code, words] : meanings) {
    const auto row = documented.find(ExitCodeNumber(code));
    if (row == documented.end()) continue;  // the set comparison above names it
    EXPECT_NE(row->second.find(words), std::string::npos)
        << "docs/cli.md's row for " << ExitCodeNumber(code) << " does not say '" << words
        << "': " << row->second;
  }
}

// Shells report a process stopped by signal N as 128 + N; a run stopped by Ctrl-C or SIGTERM
// exits with the same number.
TEST(ExitCodeTest, StopsBySignalAreNumberedAsShellsReportThem) {
  EXPECT_EQ(ExitCodeNumber(ExitCode::kInterrupted), 128 + SIGINT);
  EXPECT_EQ(ExitCodeNumber(ExitCode::kTerminated), 128 + SIGTERM);
}

TEST(ExitCodeTest, SigintAndSigtermMapToTheShellsNumbers) {
  EXPECT_EQ(ExitCodeOfSignal(SIGINT), ExitCode::kInterrupted);
  EXPECT_EQ(ExitCodeOfSignal(SIGTERM), ExitCode::kTerminated);
  EXPECT_EQ(ExitCodeOfSignal(SIGHUP), std::nullopt);
}

TEST(ExitCodeTest, EveryNumberParsesBackToItsCode) {
  for (ExitCode code : kEveryCode) {
    auto parsed = ParseExitCode(ExitCodeNumber(code));
    ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
    EXPECT_EQ(*parsed, code);
  }
}

TEST(ExitCodeTest, AnUnknownNumberIsADataErrorNamingIt) {
  for (int number : {-1, 3, 77, 128, 131, 137}) {
    auto parsed = ParseExitCode(number);
    ASSERT_FALSE(parsed.has_value()) << number;
    EXPECT_EQ(parsed.error().kind, ErrorKind::kData);
    EXPECT_NE(parsed.error().message.find(std::to_string(number)), std::string::npos)
        << parsed.error().message;
  }
}

}  // namespace
}  // namespace databox
