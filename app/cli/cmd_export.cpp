#include <iostream>

#include "cli/cli.h"
#include "args/options.h"
#include "core/base/atomic_file.h"
#include "core/base/errors.h"
#include "core/io/html_export.h"
#include "core/io/trace_file.h"

namespace tilescope::cli {
namespace {

const char* kHelp =
    "usage: tilescope export --html OUT.html FILE.tstrace\n"
    "Writes one self-contained HTML page (no network, no server) that plays a saved trace:\n"
    "the three matrices, each work-group's tiles phase by phase, the timeline with its\n"
    "barriers, hover on a cell, the counters, the diagnostics and the wrong cells of P.\n"
    "Make FILE.tstrace with: tilescope trace ... --save FILE.tstrace\n"
    "The page starts where its address says: OUT.html#group=1,2&phase=0 (&heat=1).\n";

}  // namespace

int cmd_export(const std::vector<std::string>& args) {
    Options o("export", {"html"}, {"help"});
    std::vector<std::string> options, files;
    // One positional argument: the trace file; everything else goes to Options.
    for (size_t i = 0; i < args.size(); ++i) {
        const bool takes_value = args[i] == "--html";
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
    const auto out = o.get("html");
    if (!out) throw InputError("--html: missing; accepted: --html OUT.html FILE.tstrace");
    if (files.size() != 1)
        throw InputError(std::string("FILE.tstrace: ") + (files.empty() ? "missing" : "more than one given") +
                         "; accepted: exactly one saved trace (tilescope trace ... --save FILE.tstrace)");
    check_writable(*out, "--html");
    check_not_input(*out, "--html", files.front(), "FILE.tstrace");
    const TraceFile trace = load_trace_file(files.front());
    write_file_atomically(*out, handout_html(trace));
    if (*out != "-") std::cerr << "export: wrote " << *out << "\n";
    return 0;
}

}  // namespace tilescope::cli
