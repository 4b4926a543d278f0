#pragma once
// tilescope's command line: `tilescope SUBCOMMAND [options]`.
#include <functional>
#include <string>
#include <vector>

#include "args/options.h"
#include "args/setup.h"

namespace tilescope::cli {

// Option parsing lives in app/args, shared with the GUI; the subcommands use it unqualified.
using args::configs_from;
using args::custom_kernel_options;
using args::kernels_from;
using args::Options;
using args::sizes_from;
using args::tiles_from;

// The GUI's entry point, given the arguments after "gui" (or none for a bare
// `tilescope`); null when the binary was built without the GUI.
using GuiEntry = std::function<int(const std::vector<std::string>&)>;

// Dispatches argv; returns the process exit status (0 ok, 1 a result did not verify,
// 2 bad input, 130 cancelled).
int main(int argc, char** argv, const GuiEntry& gui);

// Subcommands, each given the arguments after its name.
int cmd_devices(const std::vector<std::string>& args);
int cmd_bench(const std::vector<std::string>& args);
int cmd_trace(const std::vector<std::string>& args);
int cmd_frame(const std::vector<std::string>& args);
int cmd_tour(const std::vector<std::string>& args);
int cmd_ceilings(const std::vector<std::string>& args);
int cmd_tune(const std::vector<std::string>& args);
int cmd_export(const std::vector<std::string>& args);
int cmd_version(const std::vector<std::string>& args);
int cmd_class(const std::vector<std::string>& args);  // class mode (issue 34)

int cmd_occupancy(const std::vector<std::string>& args);

// Ctrl-C sets a flag long work polls; a second Ctrl-C ends the process at once.
void install_interrupt_handler();
bool interrupted();

}  // namespace tilescope::cli
