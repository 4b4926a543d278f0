#include "core/base/atomic_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

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
    if (const char* ms = std::getenv("TILESCOPE_TEST_PAUSE_BEFORE_RENAME_MS"); ms && *ms)
        std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(ms)));
}

// The standard streams by name: written through, never replaced by a file.
int standard_stream(const std::string& path) {
    if (path == "-" || path == "/dev/stdout" || path == "/dev/fd/1" || path == "/proc/self/fd/1") return 1;
    if (path == "/dev/stderr" || path == "/dev/fd/2" || path == "/proc/self/fd/2") return 2;
    if (path == "/dev/null") return 3;  // the usual way to discard an output
    return -1;
}

const char* kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
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
        if (ec) throw InputError(option + " '" + shown(path) + "': cannot follow the link (" + ec.message() + ")");
        at = link.is_absolute() ? link.string() : (directory_of(at) / link).string();
    }
    throw InputError(option + " '" + shown(path) + "': too many levels of symbolic links");
}

// Refuses a target that exists and is not a regular file: renaming over a device, a FIFO
// or a socket would replace it with a file its reader never sees.
void check_target_kind(const std::string& target, const std::string& path, const std::string& option) {
    struct stat st{};
    if (::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw InputError(option + " '" + shown(path) + "': is " + kind_of(st.st_mode) +
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
        throw InputError(option + " '" + shown(output) + "': is the input " + input_name +
                         "; accepted: an output file other than the inputs");
}

void check_writable(const std::string& path, const std::string& option) {
    if (standard_stream(path) >= 0) return;
    if (path.empty()) throw InputError(option + ": needs a file name or - for standard output");
    const std::string target = write_target(path, option);
    check_target_kind(target, path, option);
    const fs::path dir = directory_of(target);
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw InputError(option + " '" + shown(path) + "': directory '" + shown(dir.string()) + "' does not exist");
    if (access(dir.c_str(), W_OK) != 0)
        throw InputError(option + " '" + shown(path) + "': directory '" + shown(dir.string()) + "' is not writable");
    if (fs::is_directory(path, ec)) throw InputError(option + " '" + shown(path) + "': is a directory");
}

void write_file_atomically(const std::string& named, const std::string& text) {
    if (const int stream = standard_stream(named); stream == 1) {
        std::cout << text << std::flush;
        return;
    } else if (stream == 2) {
        std::cerr << text << std::flush;
        return;
    } else if (stream == 3) {
        return;
    }
    const std::string path = write_target(named, "output");
    check_target_kind(path, named, "output");
    for (const std::string& input : input_files_read()) check_not_input(path, "output", input, "'" + shown(input) + "'");
    // Unique per process and call, so concurrent writers never share a temporary file.
    static std::atomic<unsigned> serial{0};
    const std::string tmp = path + ".tmp-" + std::to_string(getpid()) + "-" + std::to_string(serial++);
    const watchdog::TempPath remove_if_killed(tmp);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) throw InputError("cannot write '" + shown(path) + "': " + std::strerror(errno));
    // fsync before the rename: after a power cut the name points at complete data.
    const bool ok = write_all(fd, text) && ::fsync(fd) == 0;
    if (::close(fd) != 0 || !ok) {
        const std::string why = std::strerror(errno);
        std::remove(tmp.c_str());
        throw InputError("cannot write '" + shown(path) + "': " + why);
    }
    test_pause_before_rename();
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        std::remove(tmp.c_str());
        throw InputError("cannot write '" + shown(path) + "': " + why);
    }
}

void update_file_locked(const std::string& path, const std::function<std::string(const std::string& current)>& merge) {
    // The directory, not the file, is locked: the rename replaces the file's inode, so a
    // lock on the file would not exclude a writer that opened the new one.
    const fs::path dir = directory_of(path);
    const int lock = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (lock < 0) throw InputError("cannot write '" + shown(path) + "': " + std::strerror(errno));
    while (::flock(lock, LOCK_EX) != 0) {
        if (errno == EINTR) continue;
        const std::string why = std::strerror(errno);
        ::close(lock);
        throw InputError("cannot lock '" + shown(dir.string()) + "': " + why);
    }
    try {
        // Bounded like any file from elsewhere; a missing file is new.
        const std::string current = read_untrusted_file_or_empty(path, 16u << 20, "'" + shown(path) + "'");
        write_file_atomically(path, merge(current));
    } catch (...) {
        ::close(lock);  // closing releases the lock
        throw;
    }
    ::close(lock);
}

}  // namespace tilescope
