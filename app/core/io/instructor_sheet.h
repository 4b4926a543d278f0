#pragma once
// The instructor's sheet of a lesson: every step on one printable page (no script, no
// network): its number and title, what it opens, the script to say, the question and its
// answer (traced or modelled, with the closed form). The projected picture never shows the
// script (gui --presenter); this page is where the instructor reads it.
#include <string>

#include <nlohmann/json.hpp>

namespace tilescope {

// `page`: the lesson page's data (cli export's lesson_page_data: lesson_title and
// lesson_steps with title, script, view, question.text, question.answer).
std::string instructor_sheet_html(const nlohmann::json& page);

// `text` safe inside HTML elements and attribute values: & < > " ' escaped.
std::string html_escaped(const std::string& text);

}  // namespace tilescope
