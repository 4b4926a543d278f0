#pragma once
// Files from other people (saved traces, lessons, tuning files, cache profiles, control
// files, kernel sources, scene files) are untrusted input: bounded before they are read,
// their structure checked before it is built, never fatal. Every reader goes through here
// (issue 23): a hostile file gives one InputError line naming the file and what is
// accepted, never a crash, a hang on a FIFO or a gigabyte read of /dev/zero.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope {

class InputCost;  // core/base/input_budget.h

// Reads the whole file at `path`, which must be a regular file (symlinks followed) of at
// most `max_bytes` bytes; both are checked on the opened descriptor before any byte is
// read, and a file that grows past the limit while being read is refused too. A FIFO,
// device, socket or directory is refused without blocking. `label` names the file in
// messages, e.g. "--open 'x.tstrace'". When `check_head` is given it sees the first
// bytes (up to 256) before the rest is read, so a file of the wrong kind is refused
// without reading it whole. Throws InputError.
std::string read_untrusted_file(const std::string& path, uint64_t max_bytes, std::string_view label,
                                const std::function<void(std::string_view head)>& check_head = {});

// Every path read_untrusted_file has read in this process (traces, lessons, sources,
// scenes): write_file_atomically refuses to replace one of them, so an output named like
// an input (`export --html x.tstrace x.tstrace`) cannot destroy it.
std::vector<std::string> input_files_read();
// Adds a file read some other way (a tuning file in use) to input_files_read().
void note_input_file(const std::string& path);

// Like read_untrusted_file, but a missing file reads as "" (tuning files, settings).
std::string read_untrusted_file_or_empty(const std::string& path, uint64_t max_bytes, std::string_view label);

// "1 MiB", "256 MiB", "4,096 bytes": a limit as a message states it.
std::string limit_text(uint64_t bytes);

// What a path that is not a regular file is, for a message: "a directory", "a FIFO", "a
// character device", "a block device", "a socket", else "not a regular file" (st_mode).
const char* file_kind(unsigned mode);

// Nesting depth of JSON text ([ and { outside strings), computed without recursion and
// stopping as soon as `max_depth` is exceeded. Returns the depth found (at most
// max_depth + 1).
int json_depth(std::string_view text, int max_depth);

// Throws InputError "<label>: nested deeper than N levels; accepted: ..." when the JSON
// text nests deeper than `max_depth`. Call before json::parse: nlohmann's values are
// copied, compared and printed recursively, so depth must be bounded before one is built.
void check_json_depth(std::string_view text, int max_depth, std::string_view label);

// Walks CBOR bytes without recursion and checks what nlohmann's reader (which recurses)
// would otherwise meet unprepared: nesting at most `max_depth`, every length within the
// bytes that remain, text strings valid UTF-8, no trailing bytes. Throws InputError
// naming `label` and the byte offset.
// With `cost`, also charges what nlohmann's document of these bytes will take (memory
// and work, issue 32) before one is built.
void check_cbor(std::string_view bytes, int max_depth, std::string_view label, InputCost* cost = nullptr);

bool valid_utf8(std::string_view text);
// `text` with every byte that does not start a valid UTF-8 sequence replaced by U+FFFD:
// what every JSON and CBOR writer stores, so the readers accept what the writers write
// (a Latin-1 byte in a kernel file's name, issue 32).
std::string utf8_replaced(std::string_view text);

// 64-bit FNV-1a: catches any single changed byte (each step is a bijection of the state),
// not an adversary; what the .tstrace header carries.
uint64_t fnv1a64(std::string_view bytes);

}  // namespace tilescope
