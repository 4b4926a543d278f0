#pragma once
// Files under kernels/ compiled into the binary by cmake/embed.cmake.
#include <string_view>
#include <vector>

namespace tilescope {

struct EmbeddedFile {
    std::string_view path;  // relative to the source root, e.g. "kernels/tiled.cl"
    std::string_view text;
};

const std::vector<EmbeddedFile>& embedded_files();

}  // namespace tilescope
