#pragma once
// The text a frame drew, read back from ImGui's draw data: every glyph quad of the font
// atlas is mapped back to its character, and glyphs are joined into words and lines by
// where they sit. What a test searches to know what a student sees (issue 21: an answer
// must not be on screen before Reveal), whatever widget or draw call put it there.
#include <string>

struct ImDrawData;

namespace tilescope::ui {

// One line per run of text, in draw order (a window's text before the windows drawn over
// it); words separated by single spaces. Text clipped away entirely is not included.
std::string screen_text(const ImDrawData& draw_data);

}  // namespace tilescope::ui
