#include "core/base/environment.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

#include "core/base/errors.h"
#include "core/base/untrusted_file.h"
#include "core/base/number_text.h"

namespace tilescope {

namespace {

std::string quoted(const char* name, const std::string& value) { return std::string(name) + "='" + shown(value) + "'"; }

}  // namespace

std::optional<std::string> env_text(const char* name) {
    const char* v = std::getenv(name);  // the one getenv of tilescope's own settings
    if (!v || !*v) return std::nullopt;
    return std::string(v);
}

std::optional<double> env_number(const char* name, double lo, double hi, const char* unit) {
    const auto text = env_text(name);
    if (!text) return std::nullopt;
    const std::string accepted = std::string("; accepted: a number of ") + unit + " from " + fixed(lo, lo == std::floor(lo) ? 0 : 2) +
                                 " to " + fixed(hi, hi == std::floor(hi) ? 0 : 2) + " (or leave it unset)";
    // Decimal digits only: strtod alone takes inf, nan, hex floats and leading blanks.
    for (const char c : *text)
        if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+'))
            throw InputError(quoted(name, *text) + ": not a number" + accepted);
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text->c_str(), &end);
    if (!end || *end != '\0' || end == text->c_str() || errno == ERANGE || !std::isfinite(v))
        throw InputError(quoted(name, *text) + ": not a number" + accepted);
    if (v < lo || v > hi) throw InputError(quoted(name, *text) + ": out of range" + accepted);
    return v;
}

std::optional<std::string> env_folder(const char* name) {
    const auto text = env_text(name);
    if (!text) return std::nullopt;
    struct stat st{};
    if (::stat(text->c_str(), &st) != 0) {
        if (errno == ENOENT) return text;  // nothing there yet: nothing to read
        throw InputError(quoted(name, *text) + ": cannot be read (" + std::strerror(errno) + "); accepted: a folder you can read");
    }
    if (!S_ISDIR(st.st_mode))
        throw InputError(quoted(name, *text) + ": is " + file_kind(st.st_mode) + "; accepted: a folder you can read");
    if (::access(text->c_str(), R_OK | X_OK) != 0)
        throw InputError(quoted(name, *text) + ": cannot be read (" + std::strerror(errno) + "); accepted: a folder you can read");
    return text;
}

std::optional<std::string> env_icds_problem() {
    const auto text = env_text("TILESCOPE_ICDS");
    if (!text) return std::nullopt;
    size_t start = 0;
    while (start <= text->size()) {
        const size_t colon = text->find(':', start);
        const std::string item = text->substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        if (!item.empty()) {
            struct stat st{};
            if (::stat(item.c_str(), &st) != 0)
                return "TILESCOPE_ICDS entry '" + shown(item) + "': cannot be read (" + std::strerror(errno) +
                       "); accepted: .icd files or OpenCL libraries, separated by ':'";
            if (!S_ISREG(st.st_mode))
                return "TILESCOPE_ICDS entry '" + shown_path(item) + "': is " + file_kind(st.st_mode) +
                       "; accepted: regular .icd files or OpenCL libraries, separated by ':'";
            if (item.size() > 4 && item.compare(item.size() - 4, 4, ".icd") == 0 && st.st_size > 4096)
                return "TILESCOPE_ICDS entry '" + shown(item) + "': " + grouped(uint64_t(st.st_size)) +
                       " bytes; accepted: an .icd file of at most 4 KiB (one library path)";
        }
        if (colon == std::string::npos) break;
        start = colon + 1;
    }
    return std::nullopt;
}

std::optional<unsigned long> env_count(const char* name, unsigned long lo, unsigned long hi) {
    const auto text = env_text(name);
    if (!text) return std::nullopt;
    const std::string accepted = "; accepted: a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                                 " (or leave it unset)";
    if (text->size() > 9 || !std::all_of(text->begin(), text->end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        throw InputError(quoted(name, *text) + ": not a whole number" + accepted);
    const unsigned long n = std::stoul(*text);
    if (n < lo || n > hi) throw InputError(quoted(name, *text) + ": out of range" + accepted);
    return n;
}

// Oclgrind starts this many threads for every launch: past about a thousand the system
// refuses one and the process ends (99,999 measured here); 0 or text it aborts on.
std::string temp_template(const std::string& stem) {
    std::error_code ec;
    const std::optional<std::string> tmpdir = env_text("TMPDIR");
    const bool usable = tmpdir && std::filesystem::is_directory(*tmpdir, ec);
    return (usable ? *tmpdir : std::string("/tmp")) + "/" + stem + "-XXXXXX";
}

unsigned emulator_workers() {
    if (const auto n = env_count("OCLGRIND_NUM_THREADS", 1, 1024)) return static_cast<unsigned>(*n);
    return std::max(1u, std::thread::hardware_concurrency());
}

void check_environment() {
    // Oclgrind reads its own variables and aborts the process on a value it cannot use
    // (an empty one included, which tilescope's rule reads as unset: so it is unset here).
    for (const char* name : {"OCLGRIND_NUM_THREADS", "OCLGRIND_MAX_ERRORS"})
        if (const char* v = std::getenv(name); v && !*v) ::unsetenv(name);
    (void)emulator_workers();
    (void)env_count("OCLGRIND_MAX_ERRORS", 0, 999999999);
    (void)env_number("TILESCOPE_BUILD_TIMEOUT_S", 0.1, 3600, "seconds");
    (void)env_number("TILESCOPE_CHILD_TIMEOUT_S", 0.1, 86400, "seconds");
    (void)env_folder("TILESCOPE_TUNING_DIR");
    if (const auto xdg = env_text("XDG_DATA_HOME"); xdg && (*xdg)[0] == '/') {
        // Only its tilescope/tuning folder is read.
        const std::string dir = *xdg + "/tilescope/tuning";
        struct stat st{};
        if (::stat(dir.c_str(), &st) == 0 && (!S_ISDIR(st.st_mode) || ::access(dir.c_str(), R_OK | X_OK) != 0))
            throw InputError("XDG_DATA_HOME='" + shown(*xdg) + "': its tilescope/tuning " +
                             (S_ISDIR(st.st_mode) ? std::string("folder cannot be read") : "is " + std::string(file_kind(st.st_mode))) +
                             "; accepted: a folder you can read");
    }
    if (const auto why = env_icds_problem()) throw InputError(*why);
    // The emulator's plugin is opened with dlopen, which blocks for ever on a FIFO; a value
    // that is not a regular file used to be passed over in silence for the built-in one.
    if (const auto plugin = env_text("TILESCOPE_TRACE_PLUGIN")) {
        struct stat st{};
        const std::string accepted = "; accepted: the path of the trace plugin, libtilescope_trace.so";
        if (::stat(plugin->c_str(), &st) != 0)
            throw InputError(quoted("TILESCOPE_TRACE_PLUGIN", *plugin) + ": no such file" + accepted);
        if (!S_ISREG(st.st_mode))
            throw InputError(quoted("TILESCOPE_TRACE_PLUGIN", *plugin) + ": is " + file_kind(st.st_mode) + accepted);
    }
    (void)env_number("TILESCOPE_TEST_PAUSE_BEFORE_RENAME_MS", 0, 600000, "milliseconds");
}

}  // namespace tilescope
