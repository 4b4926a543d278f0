#include "ui/shell/window_png.h"

#include "core/base/atomic_file.h"
#include "gfx/backend.h"

namespace tilescope::ui {

bool save_window_png(gfx::Backend& backend, const std::string& path, std::string& error, int max_width,
                     const std::string& option) {
    std::string png;
    if (!backend.png(png, error, max_width)) {
        error = option + " '" + path + "': " + error;
        return false;
    }
    write_file_atomically(path, png, option);
    return true;
}

}  // namespace tilescope::ui
