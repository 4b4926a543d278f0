#pragma once
// Output files are written whole or not at all: the text goes to a temporary file in
// the same directory, which is renamed over the target only once complete.
#include <string>

namespace tilescope {

// PATH "-" writes to standard output. Throws InputError when the file cannot be written.
void write_file_atomically(const std::string& path, const std::string& text);

// Fails early (InputError) if `path` could not be written later: its directory is missing
// or not writable. Call before long work so a typo does not cost a whole benchmark.
void check_writable(const std::string& path, const std::string& option);

}  // namespace tilescope
