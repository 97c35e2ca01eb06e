// The files `databox init` writes into a new project: a registry with one offline source (a
// recorded response replayed), its SQLMesh project, .env.example and .gitignore. They are the
// files under templates/init/ of the repository, embedded in the binary when it is built
// (cmake/EmbedTemplates.cmake), so an installed databox needs no source tree.
#pragma once

#include <span>
#include <string_view>

namespace databox::cli {

//! One file of the new project.
struct TemplateFile {
  std::string_view path;     //!< relative to the project folder, '/'-separated
  std::string_view content;  //!< written byte for byte
};

//! Every file of a new project, sorted by path.
std::span<const TemplateFile> InitTemplates();

}  // namespace databox::cli
