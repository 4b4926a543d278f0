#include "core/io/live_page.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/base/embedded_files.h"
#include "core/io/html_export.h"

namespace tilescope {
namespace {

std::string_view asset(std::string_view name) {
    for (const EmbeddedFile& f : embedded_files())
        if (f.path == name) return f.text;
    throw std::logic_error("the hand-out's " + std::string(name) + " is not embedded");
}

}  // namespace

std::string_view handout_script() { return asset("assets/handout/handout.js"); }
std::string_view live_script() { return asset("assets/handout/live.js"); }

std::string live_shell_page() {
    // The exported page with no data, its inline script swapped for live.js (which loads
    // handout.js once the data is in).
    std::string page = handout_page(nlohmann::json(nullptr));
    const std::string inline_js = "<script>\n" + std::string(handout_script()) + "</script>";
    const size_t at = page.find(inline_js);
    if (at == std::string::npos) throw std::logic_error("the hand-out page no longer inlines handout.js as html_template.cpp did");
    page.replace(at, inline_js.size(), "<script src=\"live.js\"></script>");
    return page;
}

}  // namespace tilescope
