// The hand-out page is an asset (assets/handout/: handout.html, handout.css, handout.js,
// embedded into the binary by cmake/embed.cmake); this file makes one self-contained page
// of it: the stylesheet and the script inline, the trace's data in the data element.
#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string_view>

#include "core/base/embedded_files.h"
#include "core/io/html_export.h"
#include "core/teach/palette.h"

namespace tilescope {
namespace {

std::string_view handout_asset(std::string_view name) {
    for (const EmbeddedFile& f : embedded_files())
        if (f.path == name) return f.text;
    throw std::logic_error("the hand-out's " + std::string(name) + " is not embedded");
}

bool contains_nocase(std::string_view text, std::string_view needle) {
    for (size_t i = 0; i + needle.size() <= text.size(); ++i) {
        size_t k = 0;
        while (k < needle.size() && std::tolower(static_cast<unsigned char>(text[i + k])) == needle[k]) ++k;
        if (k == needle.size()) return true;
    }
    return false;
}

// Replaces the one `marker` of the page; the assets are ours, so a missing or repeated
// marker is a bug, not an input error.
void replace_marker(std::string& page, std::string_view marker, std::string_view with) {
    const size_t at = page.find(marker);
    if (at == std::string::npos || page.find(marker, at + 1) != std::string::npos)
        throw std::logic_error("assets/handout/handout.html must hold '" + std::string(marker) + "' once");
    page.replace(at, marker.size(), with);
}

}  // namespace

std::string handout_json_for_script(const nlohmann::json& data) {
    // Invalid UTF-8 (a kernel's comment in Latin-1) becomes U+FFFD rather than an error.
    const std::string text = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    // Inside <script>, "</script", "<!--" and "<script" change how the HTML parser reads
    // on. In JSON, "<", ">" and "&" occur only inside strings, where \u escapes mean the
    // same, so the element's text holds none of them and JSON.parse gives the data back.
    std::string out;
    out.reserve(text.size() + text.size() / 16);
    for (const char c : text) {
        if (c == '<') out += "\\u003c";
        else if (c == '>') out += "\\u003e";
        else if (c == '&') out += "\\u0026";
        else out.push_back(c);
    }
    return out;
}

// The one palette (core/teach/palette.h) for the page: CSS variables for the legend, and a
// JSON object the script paints with, so the hand-out draws the GUI's colours.
static nlohmann::json handout_palette() {
    nlohmann::json j = nlohmann::json::object();
    for (const palette::Entry& e : palette::entries()) j[e.key] = (palette::light().*(e.field)).hex();
    nlohmann::json heat = nlohmann::json::array();
    for (const palette::Rgb& c : palette::heat_stops()) heat.push_back({c.r, c.g, c.b});
    j["heat"] = heat;
    return j;
}

static std::string handout_palette_css() {
    std::string css = ":root {";
    for (const palette::Entry& e : palette::entries()) {
        std::string name = e.key;
        std::replace(name.begin(), name.end(), '_', '-');
        css += " --" + name + ": " + (palette::light().*(e.field)).hex() + ";";
    }
    return css + " }\n";
}

std::string handout_page(const nlohmann::json& data) {
    const std::string_view css = handout_asset("assets/handout/handout.css");
    const std::string_view js = handout_asset("assets/handout/handout.js");
    if (contains_nocase(css, "</style")) throw std::logic_error("assets/handout/handout.css may not hold '</style'");
    for (const char* bad : {"</script", "<script", "<!--"})
        if (contains_nocase(js, bad)) throw std::logic_error("assets/handout/handout.js may not hold '" + std::string(bad) + "'");
    std::string page(handout_asset("assets/handout/handout.html"));
    replace_marker(page, "<link rel=\"stylesheet\" href=\"handout.css\">", "<style>\n" + handout_palette_css() + std::string(css) + "</style>");
    replace_marker(page, "<script id=\"tilescope-palette\" type=\"application/json\">null</script>",
                   "<script id=\"tilescope-palette\" type=\"application/json\">" + handout_json_for_script(handout_palette()) + "</script>");
    replace_marker(page, "<script src=\"handout.js\"></script>", "<script>\n" + std::string(js) + "</script>");
    replace_marker(page, "<script id=\"tilescope-data\" type=\"application/json\">null</script>",
                   "<script id=\"tilescope-data\" type=\"application/json\">" + handout_json_for_script(data) + "</script>");
    return page;
}

}  // namespace tilescope
