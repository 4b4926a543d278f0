#pragma once
// The two kinds of failure the CLI and GUI tell apart.
#include <stdexcept>
#include <string>
#include <string_view>

namespace tilescope {

// Something the user asked for is wrong or impossible (a bad size, an unknown kernel,
// a tile beyond the device's limits, a kernel that does not build). The CLI prints the
// message as one line and exits 2; the GUI shows it in the set-up panel.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// An output could not be written whole (a full disk, a short write, standard output
// closed): the CLI prints one line and exits 1; nothing half-written is left behind.
struct OutputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The user was cancelled the work (Ctrl-C, the GUI's cancel button).
struct Cancelled : std::runtime_error {
    Cancelled() : std::runtime_error("cancelled") {}
};

// C0 controls, DEL, or a C1 control as UTF-8 writes it (U+0080..U+009F; U+009B is a terminal's CSI).
inline bool has_control_character(std::string_view text) {
    for (size_t i = 0; i < text.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f) return true;
        if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
            static_cast<unsigned char>(text[i + 1]) < 0xa0)
            return true;
    }
    return false;
}

// User text quoted in a message: control characters escaped (C0, DEL, and C1 as UTF-8
// writes them, U+0080..U+009F: U+009B is a terminal's CSI) and anything past `max_chars`
// elided, so a hostile value still gives one readable line.
inline std::string shown(std::string_view text, size_t max_chars = 80) {
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (size_t i = 0; i < text.size() && i < max_chars; ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
            static_cast<unsigned char>(text[i + 1]) < 0xa0) {
            const unsigned char c1 = static_cast<unsigned char>(text[++i]);  // a continuation byte: 0x80..0x9f
            out += "\\u00";
            out += hex[c1 >> 4];
            out += hex[c1 & 15];
        } else if (c < 0x20 || c == 0x7f) {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    if (text.size() > max_chars) out += "... (" + std::to_string(text.size()) + " characters)";
    return out;
}

// A path quoted in a message: as shown(), but a long one keeps its end, where the file's name
// is, and elides the middle ("/tmp/a-long-folder.../defaults-cpu.json (131 characters)").
inline std::string shown_path(std::string_view path, size_t max_chars = 120) {
    if (path.size() <= max_chars) return shown(path, max_chars);
    const size_t tail = max_chars * 2 / 3, head = max_chars - tail;
    return shown(path.substr(0, head), head) + "..." + shown(path.substr(path.size() - tail), tail) + " (" +
           std::to_string(path.size()) + " characters)";
}

}  // namespace tilescope
