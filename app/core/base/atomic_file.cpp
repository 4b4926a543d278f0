#include "core/base/atomic_file.h"

#include <fcntl.h>
#include <sys/file.h>
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

}  // namespace

void check_writable(const std::string& path, const std::string& option) {
    if (path == "-") return;
    if (path.empty()) throw InputError(option + ": needs a file name or - for standard output");
    const fs::path dir = directory_of(path);
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw InputError(option + " '" + shown(path) + "': directory '" + shown(dir.string()) + "' does not exist");
    if (access(dir.c_str(), W_OK) != 0)
        throw InputError(option + " '" + shown(path) + "': directory '" + shown(dir.string()) + "' is not writable");
    if (fs::is_directory(path, ec)) throw InputError(option + " '" + shown(path) + "': is a directory");
}

void write_file_atomically(const std::string& path, const std::string& text) {
    if (path == "-") {
        std::cout << text << std::flush;
        return;
    }
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
        std::string current;
        if (std::ifstream in{path, std::ios::binary}) {
            std::stringstream s;
            s << in.rdbuf();
            current = s.str();
        }
        write_file_atomically(path, merge(current));
    } catch (...) {
        ::close(lock);  // closing releases the lock
        throw;
    }
    ::close(lock);
}

}  // namespace tilescope
