#include "core/presets/resources.h"

namespace ridgepoint {

const EmbeddedFile *embeddedFile(std::string_view path)
{
    for (const auto &file : embeddedFiles()) {
        if (file.path == path)
            return &file;
    }
    return nullptr;
}

std::vector<EmbeddedFile> embeddedFilesUnder(std::string_view directory)
{
    std::vector<EmbeddedFile> out;
    for (const auto &file : embeddedFiles()) {
        if (file.path.starts_with(directory))
            out.push_back(file);
    }
    return out;
}

} // namespace ridgepoint
