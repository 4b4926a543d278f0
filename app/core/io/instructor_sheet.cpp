#include "core/io/instructor_sheet.h"

#include "core/teach/palette.h"

namespace tilescope {

std::string html_escaped(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

namespace {

std::string text_of(const nlohmann::json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::string instructor_sheet_html(const nlohmann::json& page) {
    const palette::Colours& pal = palette::light();
    const std::string title = html_escaped(text_of(page, "lesson_title"));
    std::string out =
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<title>" + title + " (instructor's sheet)</title>\n<style>\n"
        "body{font-family:sans-serif;max-width:46em;margin:1.5em auto;padding:0 1em;color:" + pal.text.hex() + ";line-height:1.45}\n"
        "h1{font-size:1.5em;margin-bottom:0.2em} .sub{color:" + pal.faint_text.hex() + ";margin-top:0}\n"
        "section{border-top:1px solid #bbb;padding:0.6em 0;break-inside:avoid}\n"
        "h2{font-size:1.15em;margin:0.2em 0} .opens{color:" + pal.faint_text.hex() + ";font-size:0.9em}\n"
        ".script{margin:0.5em 0} .q{margin:0.4em 0 0.2em 0} .q b{color:" + pal.a_loaded.hex() + "}\n"
        ".a{margin:0.2em 0 0.2em 1.2em} .kind{color:" + pal.faint_text.hex() + "}\n"
        "@media print{body{max-width:none;margin:0} a{color:inherit}}\n"
        "</style></head><body>\n"
        "<h1>" + title + "</h1>\n"
        "<p class=\"sub\">The instructor's sheet: every step's script, question and answer on one page, to print. "
        "The projected picture (tilescope gui --lesson FILE --presenter) shows each step's title and question; "
        "the answers here are traced on the emulator (or modelled, where the step says so), as Reveal shows them.</p>\n";
    const auto steps = page.find("lesson_steps");
    if (steps == page.end() || !steps->is_array()) return out + "</body></html>\n";
    int n = 0;
    for (const nlohmann::json& s : *steps) {
        ++n;
        out += "<section id=\"step" + std::to_string(n) + "\">\n<h2>" + std::to_string(n) + ". " + html_escaped(text_of(s, "title")) +
               "</h2>\n";
        const std::string view = text_of(s, "view");
        if (!view.empty()) out += "<div class=\"opens\">view: " + html_escaped(view) + "</div>\n";
        if (const std::string script = text_of(s, "script"); !script.empty())
            out += "<p class=\"script\">" + html_escaped(script) + "</p>\n";
        const auto q = s.find("question");
        if (q != s.end() && q->is_object()) {
            out += "<p class=\"q\"><b>Question:</b> " + html_escaped(text_of(*q, "text")) + "</p>\n";
            const auto a = q->find("answer");
            if (a != q->end() && a->is_object()) {
                const bool modelled = a->value("modelled", false);
                out += "<p class=\"a\"><b>Answer: " + html_escaped(text_of(*a, "value")) + "</b> <span class=\"kind\">(" +
                       (modelled ? "modelled" : "traced") + ")</span>";
                if (const std::string f = text_of(*a, "formula"); !f.empty()) out += "; closed form " + html_escaped(f);
                if (const std::string e = text_of(*a, "explanation"); !e.empty()) out += ". " + html_escaped(e);
                out += "</p>\n";
            }
        }
        out += "</section>\n";
    }
    return out + "</body></html>\n";
}

}  // namespace tilescope
