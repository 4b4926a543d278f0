// tilescope: the GUI when started bare or with `gui`; subcommands otherwise.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "core/base/crash_report.h"
#include "cli/cli.h"

#ifdef TILESCOPE_HAS_GUI
#include "ui/shell/gui_main.h"
#endif

int main(int argc, char** argv) {
    tilescope::crash_report::install();
#ifdef TILESCOPE_HAS_GUI
    const int status = tilescope::cli::main(argc, argv, tilescope::ui::gui_main);
#else
    const int status = tilescope::cli::main(argc, argv, nullptr);
#endif
    // Leave without running shared libraries' static destructors: Debian's CLBlast 1.5.3
    // aborts in its database destructor at exit in an optimised build once PoCL is loaded.
    // Everything we write is flushed and closed by now.
    // Standard output is an output like any other: a full disk or a closed pipe behind
    // `--json -` is an error (exit 1), not a success with half the text.
    int code = status;
    std::cout.flush();
    errno = 0;
    // Said once: a run that failed already said why (an output's own line).
    if ((std::fflush(stdout) != 0 || std::ferror(stdout) || std::cout.fail()) && code == 0) {
        const int e = errno;
        std::fprintf(stderr, "tilescope: cannot write standard output (%s)\n", e ? std::strerror(e) : "write error");
        code = 1;
    }
    std::fflush(nullptr);
    std::_Exit(code);
}
