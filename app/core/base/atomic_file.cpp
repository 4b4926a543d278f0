#include "core/base/atomic_file.h"
#include "core/base/environment.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <random>
#include <thread>
#include <vector>

#include "core/base/errors.h"
#include "core/base/untrusted_file.h"
#include "core/base/watchdog.h"

namespace tilescope {
namespace fs = std::filesystem;

namespace {

fs::path directory_of(const std::string& path) {
    fs::path dir = fs::path(path).parent_path();
    return dir.empty() ? fs::path(".") : dir;
}

// Writes all of `text` to `fd`; false on any error.
bool write_all(int fd, const std::string& text) {
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<size_t>(n);
    }
    return true;
}

// For the kill -9 test only: holds the finished temporary file this long before the
// rename, so a test can kill the process mid-write deterministically.
void test_pause_before_rename() {
    if (const auto ms = env_number("TILESCOPE_TEST_PAUSE_BEFORE_RENAME_MS", 0, 600000, "milliseconds"))
        std::this_thread::sleep_for(std::chrono::milliseconds(int64_t(*ms)));
}

// The standard streams by name: written through, never replaced by a file.
int standard_stream(const std::string& path) {
    if (path == "-" || path == "/dev/stdout" || path == "/dev/fd/1" || path == "/proc/self/fd/1") return 1;
    if (path == "/dev/stderr" || path == "/dev/fd/2" || path == "/proc/self/fd/2") return 2;
    if (path == "/dev/null") return 3;  // the usual way to discard an output
    return -1;
}

// The file a write to `path` must replace: symlinks followed (a link is written through to
// its target, which may not exist yet), so the rename never replaces the link itself.
std::string write_target(const std::string& path, const std::string& option) {
    std::string at = path;
    for (int hops = 0; hops < 40; ++hops) {
        struct stat st{};
        if (::lstat(at.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return at;
        std::error_code ec;
        const fs::path link = fs::read_symlink(at, ec);
        if (ec) throw InputError(option + " '" + shown_path(path) + "': cannot follow the link (" + ec.message() + ")");
        at = link.is_absolute() ? link.string() : (directory_of(at) / link).string();
    }
    throw InputError(option + " '" + shown_path(path) + "': too many levels of symbolic links");
}

// Refuses a target that exists and is not a regular file: renaming over a device, a FIFO
// or a socket would replace it with a file its reader never sees.
void check_target_kind(const std::string& target, const std::string& path, const std::string& option) {
    struct stat st{};
    if (::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw InputError(option + " '" + shown_path(path) + "': is " + file_kind(st.st_mode) +
                         "; accepted: a regular file, or - for standard output");
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
    struct stat sa{}, sb{};
    if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void check_not_input(const std::string& output, const std::string& option, const std::string& input,
                     const std::string& input_name) {
    if (standard_stream(output) >= 0 || input.empty()) return;
    if (same_file(output, input) || output == input)
        throw InputError(option + " '" + shown_path(output) + "': is the input " + input_name +
                         "; accepted: an output file other than the inputs");
}

void check_writable(const std::string& path, const std::string& option, bool merged_in_place) {
    if (standard_stream(path) >= 0) return;
    if (path.empty()) throw InputError(option + ": needs a file name or - for standard output");
    const std::string target = write_target(path, option);
    check_target_kind(target, path, option);
    const fs::path dir = directory_of(target);
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw InputError(option + " '" + shown_path(path) + "': directory '" + shown_path(dir.string()) + "' does not exist");
    if (access(dir.c_str(), W_OK) != 0)
        throw InputError(option + " '" + shown_path(path) + "': directory '" + shown_path(dir.string()) + "' is not writable");
    if (fs::is_directory(path, ec)) throw InputError(option + " '" + shown_path(path) + "': is a directory");
    for (const std::string& input : input_files_read()) {
        if (merged_in_place && same_file(input, path)) continue;
        check_not_input(path, option, input, "'" + shown_path(input) + "'");
    }
}

namespace {

// A fresh name beside `path`, made with O_EXCL so nothing planted there (a symlink, a
// file) is ever opened: random suffix, retried on collision. Returns the open descriptor.
int create_temporary(const std::string& path, std::string& tmp, const std::string& option) {
    static std::atomic<unsigned> serial{0};
    thread_local std::mt19937_64 rng{std::random_device{}() ^ (uint64_t(getpid()) << 32) ^ serial++};
    const fs::path target(path);
    const std::string base = (directory_of(path) / ("." + target.filename().string())).string();
    for (int attempt = 0; attempt < 64; ++attempt) {
        char suffix[24];
        std::snprintf(suffix, sizeof suffix, ".%012llx.tmp", (unsigned long long)(rng() & 0xffffffffffffULL));
        tmp = base + suffix;
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd >= 0) return fd;
        if (errno != EEXIST) throw InputError(option + " '" + shown_path(path) + "': cannot create a file in '" +
                                              shown_path(directory_of(path).string()) + "' (" + std::strerror(errno) + ")");
    }
    throw InputError(option + " '" + shown_path(path) + "': no free temporary name in '" + shown_path(directory_of(path).string()) + "'");
}

void write_impl(const std::string& named, const std::string& bytes, const std::string& option, const std::string& own_input) {
    if (const int stream = standard_stream(named); stream == 1 || stream == 2) {
        std::ostream& out = stream == 1 ? std::cout : std::cerr;
        errno = 0;
        out.write(bytes.data(), std::streamsize(bytes.size()));
        out.flush();
        int e = errno;  // ENOSPC from the flush, before anything else can reset it
        std::FILE* f = stream == 1 ? stdout : stderr;
        if (!out || std::fflush(f) != 0 || std::ferror(f)) {
            if (!e) e = errno;
            throw OutputError(option + " '" + shown_path(named) + "': cannot write standard " + (stream == 1 ? "output" : "error") +
                              " (" + (e ? std::strerror(e) : "write error") + ")");
        }
        return;
    } else if (stream == 3) {
        return;
    }
    if (named.empty()) throw InputError(option + ": needs a file name or - for standard output");
    const std::string path = write_target(named, option);
    check_target_kind(path, named, option);
    for (const std::string& input : input_files_read()) {
        if (!own_input.empty() && same_file(input, own_input)) continue;
        check_not_input(named, option, input, "'" + shown_path(input) + "'");
    }
    std::string tmp;
    const int fd = create_temporary(path, tmp, option);
    const watchdog::TempPath remove_if_killed(tmp);
    // fsync before the rename: after a power cut the name points at complete data.
    errno = 0;
    bool ok = write_all(fd, bytes);
    int e = errno;
    if (ok && ::fsync(fd) != 0) ok = false, e = errno;
    if (::close(fd) != 0 && ok) ok = false, e = errno;
    if (!ok) {
        std::remove(tmp.c_str());
        throw OutputError(option + " '" + shown(named) + "': cannot write (" + (e ? std::strerror(e) : "short write") +
                          "); nothing was written");
    }
    test_pause_before_rename();
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        e = errno;
        std::remove(tmp.c_str());
        throw OutputError(option + " '" + shown(named) + "': cannot replace it (" + std::strerror(e) + "); nothing was written");
    }
}

}  // namespace

void write_file_atomically(const std::string& named, const std::string& bytes, const std::string& option) {
    write_impl(named, bytes, option, "");
}

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
    for (size_t i = 0; i < outputs.size(); ++i)
        for (size_t j = i + 1; j < outputs.size(); ++j) {
            const auto& [oa, a] = outputs[i];
            const auto& [ob, b] = outputs[j];
            if (a.empty() || b.empty() || standard_stream(a) == 3 || standard_stream(b) == 3) continue;
            const bool both_stdout = standard_stream(a) == 1 && standard_stream(b) == 1;
            if (both_stdout || a == b || same_file(a, b) ||
                (standard_stream(a) < 0 && standard_stream(b) < 0 && write_target(a, oa) == write_target(b, ob)))
                throw InputError(ob + " '" + shown(b) + "': names the same file as " + oa + " '" + shown(a) +
                                 "'; accepted: a different file for each output");
        }
}

void update_file_locked(const std::string& path, const std::function<std::string(const std::string& current)>& merge) {
    // The directory, not the file, is locked: the rename replaces the file's inode, so a
    // lock on the file would not exclude a writer that opened the new one.
    const fs::path dir = directory_of(path);
    const int lock = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (lock < 0) throw InputError("cannot write '" + shown_path(path) + "': " + std::strerror(errno));
    while (::flock(lock, LOCK_EX) != 0) {
        if (errno == EINTR) continue;
        const std::string why = std::strerror(errno);
        ::close(lock);
        throw InputError("cannot lock '" + shown_path(dir.string()) + "': " + why);
    }
    try {
        // Bounded like any file from elsewhere; a missing file is new.
        const std::string current = read_untrusted_file_or_empty(path, 16u << 20, "'" + shown_path(path) + "'");
        write_impl(path, merge(current), "output", path);
    } catch (...) {
        ::close(lock);  // closing releases the lock
        throw;
    }
    ::close(lock);
}

}  // namespace tilescope
