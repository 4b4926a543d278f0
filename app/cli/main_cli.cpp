#include <algorithm>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <new>

#include "cli/cli.h"
#include "core/base/environment.h"
#include "core/base/plain_errors.h"
#include "core/base/errors.h"
#include "core/base/watchdog.h"
#include "core/device/contained_measure.h"
#include "core/device/contained_trial.h"
#include "core/io/contained_trace.h"

namespace tilescope::cli {
namespace {

volatile std::sig_atomic_t g_interrupts = 0;

void on_interrupt(int) {
    watchdog::request_cancel();  // ends the process if the work does not notice in time
    if (++g_interrupts > 1) std::_Exit(130);
}

// Every subcommand, once: the usage text and the "accepted" lists are made from this table.
struct Subcommand {
    const char* name;
    int (*run)(const std::vector<std::string>&);
    const char* what;
};
const Subcommand kSubcommands[] = {
    {"devices", cmd_devices, "list OpenCL devices, the emulator included"},
    {"bench", cmd_bench, "measure verified GFLOP/s of kernels on a device"},
    {"trace", cmd_trace, "run a kernel on the emulator and count its memory traffic"},
    {"frame", cmd_frame, "one frame of the slides' tiling animation: highlighted cells, labels, a work-item's story"},
    {"tour", cmd_tour, "a terminal walk through the lesson"},
    {"ceilings", cmd_ceilings, "measure a device's peak FLOP/s and memory bandwidth"},
    {"tune", cmd_tune, "sweep a rung's parameters on a device; store the best for bench and the GUI"},
    {"export", cmd_export, "turn a saved trace (.tstrace) into a self-contained HTML hand-out"},
    {"class", cmd_class, "serve a lesson to the room's browsers: they follow, guess, and see the answer on Reveal"},
    {"occupancy", cmd_occupancy, "work-groups per compute unit (the slides' blocks per SM) from device profiles"},
    {"version", cmd_version, "the version, git revision, OpenCL loader, platforms and Oclgrind found (also --version)"},
};

std::string usage() {
    std::string text =
        "tilescope: see GPU memory traffic in OpenCL matrix multiplication\n"
        "\n"
        "usage: tilescope [SUBCOMMAND] [options]\n"
        "  (none)     the GUI (needs a display)\n"
        "  gui        the GUI, with set-up options and a scripted mode (tilescope gui --help)\n";
    for (const auto& sub : kSubcommands) {
        std::string name = sub.name;
        name.resize(std::max<size_t>(name.size() + 1, 11), ' ');
        text += "  " + name + sub.what + "\n";
    }
    return text + "Every subcommand has --help.\n";
}

// "devices, bench, ..." (with_gui: "gui, " first).
std::string accepted_subcommands(bool with_gui) {
    std::string list = with_gui ? "gui" : "";
    for (const auto& sub : kSubcommands) list += (list.empty() ? "" : ", ") + std::string(sub.name);
    return list;
}

int cancelled(const std::string& cmd) {
    std::cerr << "tilescope " << shown(cmd, 40) << ": cancelled; nothing was written\n";
    return 130;
}

}  // namespace

void install_interrupt_handler() { std::signal(SIGINT, on_interrupt); }
bool interrupted() { return g_interrupts > 0; }

int main(int argc, char** argv, const GuiEntry& gui) {
    std::vector<std::string> args(argv + 1, argv + argc);
    std::string cmd = args.empty() ? "" : args[0];
    if (!args.empty()) args.erase(args.begin());
    try {
        if (cmd == "-h" || cmd == "--help" || cmd == "help") {
            std::cout << usage();
            return 0;
        }
        if (cmd == "--version" || cmd == "version") return cmd_version(args);
        if (cmd == "__measure") {  // a kernel from a file, measured in a child process (core/device/contained_measure.h)
            watchdog::enable("tilescope __measure");
            return measure_child_main(args);
        }
        if (cmd == "__trace") {  // a kernel from a file, traced in a child process (core/io/contained_trace.h)
            watchdog::enable("tilescope __trace");
            return trace_child_main(args);
        }
        if (cmd == "__trial") {  // a point tried in a child process (core/device/contained_trial.h)
            watchdog::enable("tilescope __trial");
            return trial_main(args);
        }
        // Tuned and typed points on a CPU driver are tried in a child (this program) first,
        // and kernels from files are measured and traced in one.
        std::error_code ec;
        if (const auto self = std::filesystem::read_symlink("/proc/self/exe", ec); !ec) use_child_program(self.string());
        if (!cmd.empty() && cmd != "gui") {
            // From the start, so Ctrl-C during device set-up or a build is ours to handle
            // (LLVM's own handlers, installed by the drivers' compilers, pass it on to it).
            watchdog::enable("tilescope " + shown(cmd, 40));
            install_interrupt_handler();
        }
        // Environment variables are checked like options, before any work (issue 32).
        check_environment();
        for (const auto& sub : kSubcommands)
            if (cmd == sub.name) return sub.run(args);
        if (cmd.empty() || cmd == "gui") {
            if (!gui) {
                std::cerr << "tilescope: this build has no GUI; accepted subcommands: " << accepted_subcommands(false) << "\n";
                return 2;
            }
            return gui(args);
        }
        std::cerr << "tilescope: unknown subcommand '" << shown(cmd, 40) << "'; accepted: " << accepted_subcommands(true) << " (see --help)\n";
        return 2;
    } catch (const Cancelled&) {
        return cancelled(cmd);
    } catch (const InputError& e) {
        // After Ctrl-C a failure is the interruption's doing: LLVM's signal handler, in the
        // drivers' compilers, deletes the build's temporary files before it passes the
        // signal on, so a build under way fails ("unable to rename temporary ...").
        if (interrupted()) return cancelled(cmd);
        // One line whatever the input held: control characters in quoted values are escaped.
        std::cerr << "tilescope " << shown(cmd, 40) << ": " << shown(e.what(), std::string::npos) << "\n";
        return 2;
    } catch (const OutputError& e) {
        if (interrupted()) return cancelled(cmd);
        std::cerr << "tilescope " << shown(cmd, 40) << ": " << shown(e.what(), std::string::npos) << "\n";
        return 1;
    } catch (const std::exception& e) {
        if (interrupted()) return cancelled(cmd);
        std::cerr << "tilescope " << shown(cmd, 40) << ": " << unexpected_failure(args, e) << "\n";
        return 3;
    }
}

}  // namespace tilescope::cli
