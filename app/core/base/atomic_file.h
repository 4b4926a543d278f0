#pragma once
// Output and state files are written whole or not at all: the text goes to a temporary
// file in the same directory, flushed to disk, then renamed over the target. A process
// killed at any moment (kill -9 included) leaves either the previous file or the new one.
// Every writer of a file the user keeps (results, tuning files, settings, saved traces)
// goes through here.
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tilescope {

// The one writer of every output (--json, --csv, --save, --html, --sheet, --screenshot,
// --record, the control file's screenshot, F12). PATH "-" (and /dev/stdout, /dev/stderr)
// writes to that stream, checked after the flush. Otherwise the bytes go to a fresh
// temporary name (random suffix, O_EXCL|O_NOFOLLOW, retried) in the target's folder,
// fsynced, then renamed over the target. A symlink is written through: the link stays, its
// target is replaced in the target's own folder. Refused (InputError, exit 2) when the
// target is a device, FIFO, socket or directory, or any file this process has read as
// input (input_files_read()). A short write, a full disk or a failed rename is an
// OutputError (exit 1) and removes the temporary file. `option` names the output in
// messages ("--json").
void write_file_atomically(const std::string& path, const std::string& bytes, const std::string& option = "output");

// Refuses two outputs of one run that name the same file (or both standard output):
// InputError naming both options. Pairs are (option, path); empty paths are ignored.
void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);

// Whether two paths name one existing file (symlinks followed).
bool same_file(const std::string& a, const std::string& b);
// Throws InputError "<option> 'OUT': is the input <input_name>; ..." when writing `output`
// would overwrite `input` (an empty `input` is no input).
void check_not_input(const std::string& output, const std::string& option, const std::string& input,
                     const std::string& input_name);

// Read-merge-write under an exclusive lock (flock on the file's directory), so two
// processes updating one file (two `tune` runs) each keep the other's results:
// `merge` receives the file's current text (empty when there is none) and returns the
// new text, which is written atomically before the lock is released. Waits for the lock.
void update_file_locked(const std::string& path, const std::function<std::string(const std::string& current)>& merge);

// Fails early (InputError) if `path` could not be written later: its directory is missing
// or not writable, or it is an input of this run. Call before long work so a typo does not
// cost a whole benchmark. `merged_in_place`: the file will be updated by update_file_locked
// (read, merged, replaced: a tuning file), so having read it is no reason to refuse it.
void check_writable(const std::string& path, const std::string& option, bool merged_in_place = false);

}  // namespace tilescope
