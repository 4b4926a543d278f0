#pragma once
// The two kinds of failure the CLI and GUI tell apart.
#include <stdexcept>
#include <string>

namespace tilescope {

// Something the user asked for is wrong or impossible (a bad size, an unknown kernel,
// a tile beyond the device's limits, a kernel that does not build). The CLI prints the
// message as one line and exits 2; the GUI shows it in the set-up panel.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The user was cancelled the work (Ctrl-C, the GUI's cancel button).
struct Cancelled : std::runtime_error {
    Cancelled() : std::runtime_error("cancelled") {}
};

}  // namespace tilescope
