// Issue 32, item 1, in the GUI (the Xvfb of gui_files_tests): opening a saved trace whose
// kernel came in the file builds and runs nothing. Its kernel loops for ever, so a GUI that
// ran it would never draw its screenshot; the performance view asks first instead.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <vector>

#include "gui_test_support.h"
#include "hardening/carried_kernel.h"

namespace fs = std::filesystem;
using namespace tilescope;

TEST(GuiCarriedKernel, OpeningATraceWithAnEndlessKernelRunsNothingAndAsksFirstAndABadLaunchIsOneLine) {
    ASSERT_FALSE(tilescope::testing::XvfbEnvironment::display().empty()) << "no Xvfb: the GUI cannot be tested";
    const fs::path dir = fs::temp_directory_path() / ("tilescope-gui-carried-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string trace = tilescope::testing::carried_kernel_trace(
        dir, "endless.tstrace", tilescope::testing::slurp_text(std::string(TILESCOPE_HARDENING_DATA) + "/endless.cl"));
    for (const std::string view : {"performance", "compare", "emulation"}) {
        const fs::path png = dir / (view + ".png"), text = dir / (view + ".txt"), err = dir / "stderr";
        const auto t0 = std::chrono::steady_clock::now();
        const int raw = std::system(("timeout -s KILL 90 " + std::string(TILESCOPE_BIN) + " gui --open " + trace + " --view " + view +
                                     " --device pocl --screenshot " + png.string() + " --text " + text.string() + " >/dev/null 2>" +
                                     err.string())
                                        .c_str());
        const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        ASSERT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 0) << view << ": status " << raw << ": " << tilescope::testing::slurp_text(err);
        EXPECT_LT(took, 60.0) << view;
        EXPECT_TRUE(fs::exists(png)) << view;
        std::string drawn = tilescope::testing::slurp_text(text);
        std::replace(drawn.begin(), drawn.end(), '\n', ' ');  // wrapped lines read as one
        if (view == "performance") {
            EXPECT_NE(drawn.find("Run the kernel this file carries?"), std::string::npos) << drawn;
            EXPECT_NE(drawn.find("Run it in a child process"), std::string::npos) << drawn;
            EXPECT_NE(drawn.find("Measure the ladder without it"), std::string::npos) << drawn;
            EXPECT_NE(drawn.find("nothing of it has been built or run"), std::string::npos) << drawn;
            EXPECT_EQ(drawn.find("Measuring on the device"), std::string::npos) << drawn;
        }
    }
    // The launches that crashed the GUI's resolve(): one line, exit 2, no window.
    const std::vector<std::pair<std::string, std::function<void(KernelSpec&)>>> edits = {
        {"launch.kernel.local", [](KernelSpec& k) { k.local.push_back("1"); }},
        {"launch.kernel.global: 4 sizes", [](KernelSpec& k) { k.global = k.local = {"1", "1", "1", "1"}; }},
        {"launch.kernel.args", [](KernelSpec& k) { k.args.clear(); }},
    };
    for (const auto& [field, edit] : edits) {
        TraceFile f = load_trace_file(trace);
        edit(f.launch.kernel);
        const fs::path bad = dir / "bad.tstrace", err = dir / "stderr", png = dir / "bad.png";
        save_trace_file(bad.string(), f);
        const int raw = std::system(("timeout -s KILL 60 " + std::string(TILESCOPE_BIN) + " gui --open " + bad.string() +
                                     " --screenshot " + png.string() + " >/dev/null 2>" + err.string())
                                        .c_str());
        const std::string said = tilescope::testing::slurp_text(err);
        EXPECT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 2) << field << ": status " << raw << ": " << said;
        EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1) << said;
        EXPECT_NE(said.find(field), std::string::npos) << said;
        EXPECT_FALSE(fs::exists(png)) << field;
    }
    fs::remove_all(dir);
}
