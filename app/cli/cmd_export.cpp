#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>

#include "cli/cli.h"
#include "args/options.h"
#include "core/base/atomic_file.h"
#include "core/base/errors.h"
#include "core/io/html_export.h"
#include "core/io/trace_file.h"
#include "core/emulator/trace_runner.h"
#include "core/teach/exercise_notes.h"
#include "core/io/instructor_sheet.h"
#include "core/teach/lesson.h"
#include "core/tasks/lesson_page.h"

namespace tilescope::cli {
namespace {

const char* kHelp =
    "usage: tilescope export --html OUT.html FILE.tstrace\n"
    "       tilescope export --html OUT.html --lesson FILE.json [--sheet SHEET.html]\n"
    "Writes one self-contained HTML page (no network, no server) that plays a saved trace:\n"
    "the three matrices, each work-group's tiles phase by phase, the timeline with its\n"
    "barriers, hover on a cell, the counters, the diagnostics and the wrong cells of P.\n"
    "Make FILE.tstrace with: tilescope trace ... --save FILE.tstrace\n"
    "It steps as the slides do: part by part and, in a use part, iteration by iteration.\n"
    "The page starts where its address says:\n"
    "  OUT.html#group=1,2&phase=1&part=use&iteration=0 (&item=0,1 &naming=abc &heat=1)\n"
    "--lesson FILE.json (assets/lessons/*.json): one page with every step of the lesson, its\n"
    "script, question and a Reveal button for the answer; each step's set-up is traced on the\n"
    "emulator now. A step whose view the page cannot show (performance, measured on a\n"
    "device) says so. The page opens step N (counted from 1, as gui --step) with OUT.html#lessonstep=N\n"
    "(&item=X,Y adds that work-item's story).\n"
    "--sheet SHEET.html (with --lesson; --html may then be left out): the instructor's sheet,\n"
    "every step's script, question and answer on one printable page (the projected picture,\n"
    "gui --presenter, shows no script).\n";

}  // namespace

int cmd_export(const std::vector<std::string>& args) {
    Options o("export", {"html", "lesson", "sheet"}, {"help"});
    std::vector<std::string> options, files;
    // One positional argument: the trace file; everything else goes to Options.
    for (size_t i = 0; i < args.size(); ++i) {
        const bool takes_value = args[i] == "--html" || args[i] == "--lesson" || args[i] == "--sheet";
        if (args[i].rfind("-", 0) == 0 && args[i] != "-") {
            options.push_back(args[i]);
            if (takes_value && i + 1 < args.size()) options.push_back(args[++i]);
        } else {
            files.push_back(args[i]);
        }
    }
    o.parse(options);
    if (o.has("help")) {
        std::cout << kHelp;
        return 0;
    }
    const auto out = o.get("html"), sheet = o.get("sheet");
    if (sheet && !o.get("lesson"))
        throw InputError("--sheet " + *sheet + ": the instructor's sheet is a lesson's; accepted: --sheet SHEET.html --lesson FILE.json");
    if (!out && !sheet)
        throw InputError("--html: missing; accepted: --html OUT.html FILE.tstrace, or --html OUT.html --lesson FILE.json [--sheet SHEET.html]");
    if (const auto lesson_path = o.get("lesson")) {
        if (!files.empty())
            throw InputError("--lesson " + *lesson_path + ": give a lesson or a saved trace, not both (" + files.front() + ")");
        if (out) check_writable(*out, "--html");
        if (sheet) check_writable(*sheet, "--sheet");
        check_distinct_outputs({{"--html", out ? *out : ""}, {"--sheet", sheet ? *sheet : ""}});
        if (out && sheet && *out == *sheet && *out != "-")
            throw InputError("--sheet " + *sheet + ": the same file as --html; accepted: two different files");
        const Lesson lesson = load_lesson(*lesson_path);
        const nlohmann::json page = tasks::lesson_page_data(
            lesson, {interrupted, [](const std::string& line) { std::cerr << "export: " << line << "\n"; }, {}});
        if (out) {
            write_file_atomically(*out, handout_page(page), "--html");
            if (*out != "-") std::cerr << "export: wrote " << *out << " (" << lesson.steps.size() << " steps)\n";
        }
        if (sheet) {
            write_file_atomically(*sheet, instructor_sheet_html(page), "--sheet");
            if (*sheet != "-") std::cerr << "export: wrote the instructor's sheet " << *sheet << "\n";
        }
        return 0;
    }
    if (!out) throw InputError("--html: missing; accepted: --html OUT.html FILE.tstrace");
    if (files.size() != 1)
        throw InputError(std::string("FILE.tstrace: ") + (files.empty() ? "missing" : "more than one given") +
                         "; accepted: exactly one saved trace (tilescope trace ... --save FILE.tstrace)");
    check_writable(*out, "--html");
    check_not_input(*out, "--html", files.front(), "FILE.tstrace");
    const TraceFile trace = load_trace_file(files.front());
    write_file_atomically(*out, handout_html(trace), "--html");
    if (*out != "-") std::cerr << "export: wrote " << *out << "\n";
    return 0;
}

}  // namespace tilescope::cli
