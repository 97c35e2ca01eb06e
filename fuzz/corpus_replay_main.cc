// Without libFuzzer (e.g. GCC builds): runs a fuzz target once over every file given on the
// command line (folders are walked), so the seed corpus is a regression test in ctest.
// Prints how many inputs ran; a crash fails the test like any crash.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size);

namespace {

int RunOne(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string bytes = ss.str();
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  // Every prefix length that halves the input too: truncation is the commonest corruption.
  for (std::size_t n = bytes.size() / 2; n > 0; n /= 2) {
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), n);
  }
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  int inputs = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    if (std::filesystem::is_directory(arg)) {
      std::vector<std::filesystem::path> files;
      for (const auto& e : std::filesystem::recursive_directory_iterator(arg)) {
        if (e.is_regular_file()) files.push_back(e.path());
      }
      for (const auto& f : files) inputs += RunOne(f);
    } else if (std::filesystem::is_regular_file(arg)) {
      inputs += RunOne(arg);
    } else {
      std::cerr << "no such input: " << arg << "\n";
      return 2;
    }
  }
  std::cout << inputs << " inputs (and their halved prefixes) ran without a crash\n";
  return inputs > 0 ? 0 : 2;
}
