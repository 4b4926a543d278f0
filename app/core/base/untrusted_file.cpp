#include "core/base/untrusted_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <vector>

#include "core/base/errors.h"
#include "core/base/input_budget.h"

namespace tilescope {
namespace {


std::string with_commas(uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(size_t(i), ",");
    return s;
}

struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

// Opens and checks; returns false (errno set) when the file does not exist or cannot be opened.
std::string read_checked(const std::string& path, uint64_t max_bytes, std::string_view label,
                         const std::function<void(std::string_view)>& check_head, bool missing_is_empty) {
    const std::string who(label);
    struct stat st{};
    // stat before open: opening a device or a FIFO can block or have effects of its own.
    if (::stat(path.c_str(), &st) != 0) {
        if (missing_is_empty && errno == ENOENT) return {};
        if (errno == ENOENT || errno == EACCES || errno == ENOTDIR)
            throw InputError(who + ": cannot be read (no such file, or no permission)");
        throw InputError(who + ": cannot be read (" + std::strerror(errno) + ")");
    }
    if (!S_ISREG(st.st_mode)) throw InputError(who + ": is " + file_kind(st.st_mode) + "; accepted: a regular file");
    Fd f;
    // O_NONBLOCK: should a FIFO be swapped in after the stat, opening it does not wait for a writer.
    f.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (f.fd < 0) {
        if (missing_is_empty && errno == ENOENT) return {};
        throw InputError(who + ": cannot be read (" + std::strerror(errno) + ")");
    }
    if (::fstat(f.fd, &st) != 0) throw InputError(who + ": cannot be read (" + std::strerror(errno) + ")");
    if (!S_ISREG(st.st_mode)) throw InputError(who + ": is " + file_kind(st.st_mode) + "; accepted: a regular file");
    if (uint64_t(st.st_size) > max_bytes)
        throw InputError(who + ": " + with_commas(uint64_t(st.st_size)) + " bytes; accepted: a file of at most " +
                         limit_text(max_bytes));
    std::string out;
    out.reserve(size_t(st.st_size));
    std::vector<char> buf(1 << 16);
    bool head_checked = !check_head;
    for (;;) {
        const ssize_t n = ::read(f.fd, buf.data(), buf.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw InputError(who + ": read error (" + std::strerror(errno) + ")");
        if (n == 0) break;
        if (out.size() + size_t(n) > max_bytes)
            throw InputError(who + ": grew past " + limit_text(max_bytes) + " while being read; accepted: a file of at most " +
                             limit_text(max_bytes));
        out.append(buf.data(), size_t(n));
        if (!head_checked && out.size() >= 256) {
            check_head(std::string_view(out).substr(0, 256));
            head_checked = true;
        }
    }
    if (!head_checked) check_head(out);
    return out;
}

}  // namespace

const char* file_kind(unsigned mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

std::string limit_text(uint64_t bytes) {
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return with_commas(bytes >> 20) + " MiB";
    if (bytes >= 1024 && bytes % 1024 == 0) return with_commas(bytes >> 10) + " KiB";
    return with_commas(bytes) + " bytes";
}

namespace {
std::mutex inputs_mutex;
std::vector<std::string> inputs_read;
}  // namespace

std::string read_untrusted_file(const std::string& path, uint64_t max_bytes, std::string_view label,
                                const std::function<void(std::string_view head)>& check_head) {
    std::string text = read_checked(path, max_bytes, label, check_head, false);
    const std::lock_guard<std::mutex> lock(inputs_mutex);
    inputs_read.push_back(path);
    return text;
}

void note_input_file(const std::string& path) {
    const std::lock_guard<std::mutex> lock(inputs_mutex);
    inputs_read.push_back(path);
}

std::vector<std::string> input_files_read() {
    const std::lock_guard<std::mutex> lock(inputs_mutex);
    return inputs_read;
}

std::string read_untrusted_file_or_empty(const std::string& path, uint64_t max_bytes, std::string_view label) {
    return read_checked(path, max_bytes, label, {}, true);
}

int json_depth(std::string_view text, int max_depth) {
    int depth = 0, deepest = 0;
    bool in_string = false, escaped = false;
    for (const char c : text) {
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') in_string = true;
        else if (c == '[' || c == '{') {
            if (++depth > deepest) deepest = depth;
            if (deepest > max_depth) return deepest;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

void check_json_depth(std::string_view text, int max_depth, std::string_view label) {
    if (json_depth(text, max_depth) > max_depth)
        throw InputError(std::string(label) + ": nested deeper than " + std::to_string(max_depth) +
                         " levels; accepted: JSON nested at most " + std::to_string(max_depth) + " levels deep");
}

namespace {
// Length of the valid UTF-8 sequence starting at s[i], or 0 when none starts there.
size_t utf8_sequence_length(std::string_view s, size_t i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) return 1;
    int len;
    uint32_t cp;
    if (c >= 0xc2 && c <= 0xdf) len = 2, cp = c & 0x1f;
    else if (c >= 0xe0 && c <= 0xef) len = 3, cp = c & 0x0f;
    else if (c >= 0xf0 && c <= 0xf4) len = 4, cp = c & 0x07;
    else return 0;
    if (i + size_t(len) > s.size()) return 0;
    for (int k = 1; k < len; ++k) {
        const unsigned char d = static_cast<unsigned char>(s[i + size_t(k)]);
        if ((d & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (d & 0x3f);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return size_t(len);
}
}  // namespace

std::string utf8_replaced(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        if (const size_t n = utf8_sequence_length(s, i)) {
            out.append(s.substr(i, n));
            i += n;
        } else {
            out += "\xEF\xBF\xBD";  // U+FFFD, as nlohmann's error_handler_t::replace writes it
            ++i;
        }
    }
    return out;
}

bool valid_utf8(std::string_view s) {
    size_t i = 0;
    const size_t n = s.size();
    while (i < n) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        int len;
        uint32_t cp;
        if (c >= 0xc2 && c <= 0xdf) len = 2, cp = c & 0x1f;
        else if (c >= 0xe0 && c <= 0xef) len = 3, cp = c & 0x0f;
        else if (c >= 0xf0 && c <= 0xf4) len = 4, cp = c & 0x07;
        else return false;
        if (i + size_t(len) > n) return false;
        for (int k = 1; k < len; ++k) {
            const unsigned char d = static_cast<unsigned char>(s[i + size_t(k)]);
            if ((d & 0xc0) != 0x80) return false;
            cp = (cp << 6) | (d & 0x3f);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        i += size_t(len);
    }
    return true;
}

uint64_t fnv1a64(std::string_view bytes) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (const char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ull;
    }
    return h;
}

void check_cbor(std::string_view in, int max_depth, std::string_view label, InputCost* cost) {
    const std::string who(label);
    // What nlohmann's document will take in memory (issue 32): a value is 16 bytes in
    // its parent; an array adds its vector, a map a tree node per entry, a string or a
    // binary block its heap copy. An empty map is one byte of CBOR but ~100 bytes here.
    uint64_t item_count = 0, dom_bytes = 0;
    size_t at = 0;
    auto fail = [&](const std::string& what) -> void {
        throw InputError(who + ": damaged trace file (" + what + " at byte " + std::to_string(at) + ")");
    };
    // Open containers: items still expected (UINT64_MAX: indefinite, ends with 0xff).
    struct Open {
        uint64_t left;
        bool indefinite;
        bool map = false;
    };
    std::vector<Open> open;
    auto argument = [&](uint8_t info) -> uint64_t {
        if (info < 24) return info;
        int bytes = info == 24 ? 1 : info == 25 ? 2 : info == 26 ? 4 : info == 27 ? 8 : 0;
        if (bytes == 0) fail("reserved length encoding");
        if (in.size() - at < size_t(bytes)) fail("length past the end");
        uint64_t v = 0;
        for (int k = 0; k < bytes; ++k) v = (v << 8) | static_cast<unsigned char>(in[at++]);
        return v;
    };
    open.push_back({1, false, false});  // the root: one item
    for (;;) {
        while (!open.empty() && !open.back().indefinite && open.back().left == 0) open.pop_back();
        if (open.empty()) break;
        if (at >= in.size()) fail("ends early");
        const uint8_t head = static_cast<unsigned char>(in[at++]);
        if (head == 0xff) {
            if (!open.back().indefinite) fail("stray break");
            open.pop_back();
            continue;
        }
        if (!open.back().indefinite) --open.back().left;
        const uint8_t major = head >> 5, info = head & 31;
        ++item_count;
        // In a map: half of an entry's tree node. In an array: the 16-byte value, and what the
        // array's growth takes while it is decoded (nlohmann reserves nothing: up to twice the
        // values, and the old block beside the new at each doubling): 40 bytes an item. At 16, a
        // 98 MB trace of 32 million numbers was charged 0.5 GB and took 2 GB to read (session 57).
        dom_bytes += open.back().map ? 48 : 40;
        switch (major) {
            case 0:
            case 1:
                (void)argument(info);
                break;
            case 2:
            case 3: {
                if (info == 31) {  // indefinite string: definite chunks of the same type, then 0xff
                    for (;;) {
                        if (at >= in.size()) fail("ends early");
                        const uint8_t h = static_cast<unsigned char>(in[at++]);
                        if (h == 0xff) break;
                        if ((h >> 5) != major || (h & 31) == 31) fail("bad string chunk");
                        const uint64_t len = argument(h & 31);
                        if (len > in.size() - at) fail("string longer than the file");
                        if (major == 3 && !valid_utf8(in.substr(at, size_t(len)))) fail("text that is not valid UTF-8");
                        at += size_t(len);
                        dom_bytes += len;
                    }
                    dom_bytes += 64;
                    break;
                }
                const uint64_t len = argument(info);
                if (len > in.size() - at) fail("string longer than the file");
                dom_bytes += 64 + len;
                if (major == 3 && !valid_utf8(in.substr(at, size_t(len)))) fail("text that is not valid UTF-8");
                at += size_t(len);
                break;
            }
            case 4:
            case 5: {
                if (int(open.size()) > max_depth) fail("nested deeper than " + std::to_string(max_depth) + " levels");
                dom_bytes += 64;
                if (info == 31) {
                    open.push_back({0, true, major == 5});
                } else {
                    const uint64_t n = argument(info);
                    // Each item takes at least one byte; a map's entries two.
                    const uint64_t items = major == 5 ? (n > UINT64_MAX / 2 ? UINT64_MAX : n * 2) : n;
                    if (items > in.size() - at) fail("container longer than the file");
                    open.push_back({items, false, major == 5});
                }
                break;
            }
            case 6:  // a tag: the item that follows is its content
                (void)argument(info);
                if (!open.back().indefinite) ++open.back().left;
                break;
            default:  // 7: simple values and floats
                if (info == 31) fail("stray break");
                if (info >= 24 && info <= 27) (void)argument(info);
                else if (info > 27) fail("reserved simple value");
                break;
        }
    }
    if (at != in.size()) fail("trailing bytes after the content");
    if (cost) {
        const std::string field = "its document (" + std::to_string(item_count) + " CBOR items)";
        cost->bytes(field, dom_bytes);
        cost->steps(field, item_count, 10);
    }
}

}  // namespace tilescope
