// Data files built into the program from resources/ (presets, model configurations, examples).
#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace ridgepoint {

struct EmbeddedFile {
    std::string_view path; // relative to resources/, e.g. "hardware/nvidia-h100-sxm.json"
    std::string_view content; // the file's bytes, exactly
};

std::span<const EmbeddedFile> embeddedFiles(); // sorted by path
const EmbeddedFile *embeddedFile(std::string_view path);
std::vector<EmbeddedFile> embeddedFilesUnder(std::string_view directory); // "hardware/"

} // namespace ridgepoint
