// Fuzz-only helper: APIs that read files get the fuzz input through a private temporary file.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace databox::fuzz {

//! A file holding one fuzz input, removed when this goes out of scope. One per process and
//! suffix, so parallel fuzzing jobs (-jobs=N) do not share it.
class InputFile {
 public:
  InputFile(const uint8_t* data, std::size_t size, const std::string& suffix)
      : dir_(std::filesystem::temp_directory_path() / ("databox_fuzz_" + std::to_string(getpid()))),
        path_(dir_ / ("input" + suffix)) {
    std::filesystem::create_directories(dir_);
    std::ofstream(path_, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  ~InputFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
    std::filesystem::remove(dir_, ignored);  // only when empty (another input may be open)
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path dir_;
  std::filesystem::path path_;
};

}  // namespace databox::fuzz
