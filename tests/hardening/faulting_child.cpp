// A stand-in for `tilescope` as the program of contained children (issue 32), built for the
// tests only and never installed: `faulting_child __trace REQUEST` reads the request as the
// real child does, starts its answer, then faults on a null pointer inside the child: a
// real SIGSEGV from within, not a kill from outside. No kernel tried so far crashes
// Oclgrind itself (it interprets the kernel), so this is how the tests see what a crash of
// the tracing child costs the parent: one line, nothing traced.
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/base/untrusted_file.h"
#include "core/device/contained_measure.h"

// Under AddressSanitizer (the sanitizer build) the fault stays a signal, as in a release build.
extern "C" const char* __asan_default_options() { return "handle_segv=0"; }

// Not instrumented: under UBSan (-fno-sanitize-recover) the store would be reported and the
// child would exit instead of taking the fault.
__attribute__((noinline, no_sanitize("undefined", "address"))) void fault() {
    volatile int* volatile nowhere = nullptr;  // volatile: the compiler can neither see nor drop the fault
    *nowhere = 1;
}

int main(int argc, char** argv) {
    if (argc != 3 || std::string(argv[1]) != "__trace") return 2;
    tilescope::mark_contained_child();
    const nlohmann::json request = nlohmann::json::parse(tilescope::read_untrusted_file(argv[2], uint64_t(16) << 20, "request"));
    const tilescope::LaunchConfig launch = tilescope::launch_from_request(request);
    std::cout << "tilescope-trace " << launch.kernel.entry << std::flush;  // half an answer
    fault();
    return 5;  // not reached
}
