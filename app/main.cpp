// tilescope: the GUI when started bare or with `gui`; subcommands otherwise.
#include <cstdio>
#include <cstdlib>

#include "cli/cli.h"

#ifdef TILESCOPE_HAS_GUI
#include "ui/shell/gui_main.h"
#endif

int main(int argc, char** argv) {
#ifdef TILESCOPE_HAS_GUI
    const int status = tilescope::cli::main(argc, argv, tilescope::ui::gui_main);
#else
    const int status = tilescope::cli::main(argc, argv, nullptr);
#endif
    // Leave without running shared libraries' static destructors: Debian's CLBlast 1.5.3
    // aborts in its database destructor at exit in an optimised build once PoCL is loaded.
    // Everything we write is flushed and closed by now.
    std::fflush(nullptr);
    std::_Exit(status);
}
