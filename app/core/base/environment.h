#pragma once
// Every environment variable tilescope reads goes through here, checked like an option
// (issue 32 item 5): a bad value is one InputError line naming the variable, the value
// and what is accepted (exit 2), never a silent default or a hang.
#include <optional>
#include <string>

namespace tilescope {

// The variable's text; unset and empty are both "not set". Control characters are kept
// (messages quote them with shown()).
std::optional<std::string> env_text(const char* name);

// A finite decimal number in [lo, hi]; `unit` words the range ("seconds"). Throws
// InputError "NAME='VALUE': accepted: a number of seconds from LO to HI".
std::optional<double> env_number(const char* name, double lo, double hi, const char* unit);

// A folder tilescope reads from (TILESCOPE_TUNING_DIR, XDG_DATA_HOME): when it exists it
// must be a directory this process can list. A missing folder is fine (nothing in it).
std::optional<std::string> env_folder(const char* name);

// A whole number in [lo, hi] of the emulator's own settings that Oclgrind reads itself and
// aborts on when it cannot (OCLGRIND_NUM_THREADS, OCLGRIND_MAX_ERRORS): digits only. Throws
// InputError "NAME='VALUE': accepted: a whole number from LO to HI (or leave it unset)".
std::optional<unsigned long> env_count(const char* name, unsigned long lo, unsigned long hi);

// A mkstemp/mkdtemp template for a temporary file or folder of tilescope's: under TMPDIR when
// it names a folder (the tests give each run a folder of its own there), else /tmp; `stem` names the user
// ("tilescope-icd" gives "/tmp/tilescope-icd-XXXXXX").
std::string temp_template(const std::string& stem);

// Oclgrind's worker threads: OCLGRIND_NUM_THREADS when set (checked), else one per hardware thread.
unsigned emulator_workers();

// TILESCOPE_ICDS: ':'-separated .icd files (regular files of at most 4 KiB) or OpenCL
// libraries (regular files). Returns why the value cannot be used, or nothing when it can.
std::optional<std::string> env_icds_problem();

// Checks every variable tilescope reads, once at start-up, so a bad value stops the run
// before any work with one line. Throws InputError.
void check_environment();

}  // namespace tilescope
