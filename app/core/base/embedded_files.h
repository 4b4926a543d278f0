#pragma once
// Files under kernels/ compiled into the binary by cmake/embed.cmake.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope {

struct EmbeddedFile {
    std::string_view path;  // relative to the source root, e.g. "kernels/tiled.cl"
    std::string_view text;
};

const std::vector<EmbeddedFile>& embedded_files();

// The names (without folder and extension) of the embedded files directly in a folder that
// end in ext, sorted: the profiles of assets/caches/ or assets/occupancy/, for example.
inline std::vector<std::string> embedded_names_in(std::string_view folder, std::string_view ext) {
    std::vector<std::string> names;
    for (const EmbeddedFile& f : embedded_files())
        if (f.path.starts_with(folder) && f.path.ends_with(ext)) {
            const std::string_view n = f.path.substr(folder.size());
            names.emplace_back(n.substr(0, n.size() - ext.size()));
        }
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace tilescope
