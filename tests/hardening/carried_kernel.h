#pragma once
// A saved trace that carries its own kernel (issue 32): a harmless kernel of endless.cl's
// signature, traced on the emulator, then saved with `source` in its place. Every field
// is valid and the checksum is recomputed, so the file passes every check a reader makes;
// only running it would show what it does.
#include <filesystem>
#include <fstream>
#include <string>

#include "core/emulator/trace_runner.h"
#include "core/io/trace_file.h"
#include "core/kernel/kernel_spec.h"

namespace tilescope::testing {

inline std::string carried_kernel_trace(const std::filesystem::path& dir, const std::string& name, const std::string& source) {
    const std::filesystem::path benign = dir / "endless.cl";
    std::ofstream(benign) << "__kernel void endless(__global volatile float* C, int n)\n{\n    C[0] = (float)n;\n}\n";
    CustomKernelOptions o;
    o.source_path = benign.string();
    o.entry = "endless";
    o.global = {"1"};
    o.local = {"1"};
    o.args = {"C=matrix:1x2:out", "n=int:1"};
    TraceFile f;
    f.launch = LaunchConfig{load_custom_kernel(o), ProblemSize{16, 16, 16}, 16};
    f.trace = run_trace(f.launch);
    f.launch.kernel.source = source;
    const std::string path = (dir / name).string();
    save_trace_file(path, f);
    return path;
}

inline std::string slurp_text(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace tilescope::testing
