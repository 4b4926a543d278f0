#include "core/atomic_file.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "core/errors.h"

namespace tilescope {
namespace fs = std::filesystem;

void check_writable(const std::string& path, const std::string& option) {
    if (path == "-") return;
    if (path.empty()) throw InputError(option + ": needs a file name or - for standard output");
    fs::path dir = fs::path(path).parent_path();
    if (dir.empty()) dir = ".";
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw InputError(option + " '" + path + "': directory '" + dir.string() + "' does not exist");
    if (access(dir.c_str(), W_OK) != 0)
        throw InputError(option + " '" + path + "': directory '" + dir.string() + "' is not writable");
    if (fs::is_directory(path, ec)) throw InputError(option + " '" + path + "': is a directory");
}

void write_file_atomically(const std::string& path, const std::string& text) {
    if (path == "-") {
        std::cout << text << std::flush;
        return;
    }
    const std::string tmp = path + ".tmp-" + std::to_string(getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) {
            std::remove(tmp.c_str());
            throw InputError("cannot write '" + path + "'");
        }
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        throw InputError("cannot write '" + path + "': " + ec.message());
    }
}

}  // namespace tilescope
