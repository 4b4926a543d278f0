#include "core/device/runner.h"

#include <algorithm>
#include <chrono>
#include <clblast.h>
#include <fcntl.h>
#include <unistd.h>
#include <sstream>
#include <ctime>

#include "core/base/input_budget.h"
#include "core/device/cl.h"
#include "core/base/errors.h"
#include "core/base/watchdog.h"
#include "core/device/contained_measure.h"
#include "core/device/contained_trial.h"
#include "core/kernel/catalog.h"

namespace tilescope {
namespace {

// CPU seconds of every thread of this process so far.
double process_cpu_seconds() {
    timespec ts{};
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0;
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::string human_bytes(uint64_t b) {
    char buf[64];
    if (b >= (1ull << 30)) std::snprintf(buf, sizeof buf, "%.1f GiB", b / double(1ull << 30));
    else if (b >= (1ull << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", b / double(1ull << 20));
    else if (b >= 1024) std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024.0);
    else std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(b));
    return buf;
}

// The first line of a build log that names an error, for one-line messages, with the
// compiler's temporary file name replaced by the kernel's own.
// How a refusal names the launch's tile: as typed (--tile N), as tuned (naming the file), or as the caller
// named the launch when nobody typed it (a lesson's set-up).
std::string tile_named(const LaunchConfig& config) {
    const std::string ts = std::to_string(config.tile);
    if (!config.named_as.empty()) return config.named_as + ", tile " + ts;
    if (!config.tuning_origin.empty()) return "tuned TS=" + ts + " (from '" + config.tuning_origin + "')";
    return "--tile " + ts;
}

std::string first_error_line(const std::string& log, const std::string& source_name) {
    std::istringstream in(log);
    std::string line, found;
    while (std::getline(in, line)) {
        if (line.find("error") != std::string::npos) { found = line; break; }
        if (found.empty() && !line.empty()) found = line;
    }
    if (found.empty()) return "no compiler log";
    const size_t cl = found.find(".cl:");
    if (cl != std::string::npos) {
        size_t start = found.rfind(' ', cl);
        start = start == std::string::npos ? 0 : start + 1;
        found.replace(start, cl + 3 - start, source_name);
    }
    return found;
}

// Some drivers (PoCL) print compiler diagnostics straight to the process's stderr; the
// build log has them too, so they are kept out of the terminal while a program builds.
class QuietStderr {
public:
    QuietStderr() {
        std::fflush(stderr);
        saved_ = dup(STDERR_FILENO);
        const int null = open("/dev/null", O_WRONLY);
        if (saved_ >= 0 && null >= 0) dup2(null, STDERR_FILENO);
        if (null >= 0) close(null);
    }
    ~QuietStderr() {
        if (saved_ >= 0) {
            std::fflush(stderr);
            dup2(saved_, STDERR_FILENO);
            close(saved_);
        }
    }

private:
    int saved_ = -1;
};

}  // namespace

TimeSummary summarize_times(std::vector<double> times_s) {
    if (times_s.empty()) return {};
    std::sort(times_s.begin(), times_s.end());
    const size_t n = times_s.size();
    return {n % 2 ? times_s[n / 2] : 0.5 * (times_s[n / 2 - 1] + times_s[n / 2]), times_s.front()};
}

std::optional<LaunchConfig> padded_config(const LaunchConfig& config, const DeviceInfo& device) {
    const KernelSpec& k = config.kernel;
    if (!config.pad || !k.pad || device.is_emulator || !k.library.empty() || !k.check) return std::nullopt;
    // INPLACE=1 (warp_tile, splitk): the kernel reads rows that are not float4-aligned where they are.
    if (const auto it = config.params.find("INPLACE"); it != config.params.end() && it->second != 0) return std::nullopt;
    for (const ArgSpec& a : k.args)
        if (a.kind == ArgSpec::Kind::Matrix && a.layout != Layout::RowMajor) return std::nullopt;
    // Up to the multiple, then one more where that lands on a multiple to avoid (PadSpec::avoid_*).
    const auto up = [](int64_t v, int64_t m, int64_t avoid) {
        const int64_t u = (v + m - 1) / m * m;
        return avoid > 0 && u % avoid == 0 ? u + m : u;
    };
    LaunchConfig p = config;
    p.size = ProblemSize{up(config.size.M, k.pad->M, k.pad->avoid_M), up(config.size.N, k.pad->N, k.pad->avoid_N),
                         up(config.size.K, k.pad->K, k.pad->avoid_K)};
    if (p.size == config.size) return std::nullopt;
    // C stored where it lies (ladder.json pad "C", PadSpec::c_in_place): the kernel learns the
    // user's N from that define and its C argument keeps the user's shape, so the runner binds
    // the user's C as it is, with no padded copy and no copy back. Only where M is not padded,
    // and only for the catalog's own source (a source from a file may not know the define).
    if (!k.pad->c_in_place.empty() && k.carried_by.empty() && !k.custom && p.size.M == config.size.M &&
        p.size.N != config.size.N) {
        p.kernel.defines.push_back({k.pad->c_in_place, std::to_string(config.size.N)});
        const auto user_shaped = [&](std::vector<ArgSpec>& args) {
            for (ArgSpec& a : args)
                if (a.kind == ArgSpec::Kind::Matrix && a.name == k.check->c) a.cols = std::to_string(config.size.N);
        };
        user_shaped(p.kernel.args);
        if (p.kernel.then) user_shaped(p.kernel.then->args);
        // C is verified at the user's shapes (the config's check, as every padded run is); the
        // padded launch's own shapes (M x N = M x Kp * Kp x Np) no longer read as a product.
        p.kernel.check.reset();
    }
    return p;
}

std::map<std::string, HostMatrix> make_matrices(const ResolvedLaunch& launch) {
    std::map<std::string, HostMatrix> m;
    for (const ResolvedArg& a : launch.args) {
        if (a.spec.kind != ArgSpec::Kind::Matrix) continue;
        if (a.spec.access == Access::In) {
            m[a.spec.name] = random_matrix(a.spec.name, a.rows, a.cols, a.spec.layout);
        } else {
            m[a.spec.name] = HostMatrix{a.rows, a.cols, a.spec.layout,
                                        std::vector<float>(static_cast<size_t>(a.rows * a.cols), 0.0f)};
        }
    }
    return m;
}

struct Runner::Impl {
    cl::Device device;
    cl::Context context;
    cl::CommandQueue queue;
    std::map<std::string, cl::Program> programs;  // by options + source

    // A launch ready to enqueue: kernel with every argument bound by name.
    struct Prepared {
        cl::Kernel kernel;
        cl::Kernel then;  // the second kernel (KernelSpec::then), when there is one
        std::map<std::string, cl::Buffer> buffers;
    };

    // A launch on padded copies (padded_config): the user's matrices whose padded shape
    // differs, their buffers at the user's shape, and the copies before and after the kernel.
    struct Padding {
        struct Copy {
            std::string name;
            int64_t rows = 0, cols = 0;    // the user's matrix
            int64_t prows = 0, pcols = 0;  // its padded copy (the kernel's buffer)
            bool in = true;                // copied in before the kernel, else back after it
        };
        std::vector<Copy> copies;
        std::map<std::string, cl::Buffer> user;  // by name, the user-shaped buffer of each copy
        cl::Kernel copy;                          // kernels/support/pad_copy.cl
        cl::Kernel copy2;                         // its pad_copy2: two copies in one launch
        cl::Kernel copy2x4;                       // pad_copy2_x4: the same, a float4 per work-item
    };

    cl::Kernel pad_copy_kernel(const DeviceInfo& info, const char* entry = "pad_copy") {
        KernelSpec k;
        k.name = "pad_copy";
        k.source_name = "support/pad_copy.cl";
        k.source = std::string(embedded_text("kernels/support/pad_copy.cl"));
        return cl::Kernel(build(k, "", info), entry);
    }

    // One copy: dst (rows x cols) from src (src_rows x src_cols), zeros where src has none.
    void enqueue_copy(Padding& pad, const cl::Buffer& src, int64_t src_rows, int64_t src_cols, const cl::Buffer& dst,
                      int64_t rows, int64_t cols, cl::Event* ev, const std::vector<cl::Event>* wait = nullptr) {
        pad.copy.setArg(0, static_cast<cl_int>(rows));
        pad.copy.setArg(1, static_cast<cl_int>(cols));
        pad.copy.setArg(2, src);
        pad.copy.setArg(3, static_cast<cl_int>(src_rows));
        pad.copy.setArg(4, static_cast<cl_int>(src_cols));
        pad.copy.setArg(5, dst);
        const size_t gx = static_cast<size_t>((cols + 63) / 64 * 64), gy = static_cast<size_t>((rows + 3) / 4 * 4);
        queue.enqueueNDRangeKernel(pad.copy, cl::NullRange, cl::NDRange(gx, gy), cl::NDRange(64, 4), wait, ev);
    }

    // The copies into padded buffers (one or two, all in) in one launch, after `wait`: pad_copy2_x4 (a float4
    // of a destination per work-item, 32-bit indices) where every destination's rows are whole float4s and the
    // work-items fit in 31 bits, else pad_copy2 for two and pad_copy for one (one work-item per element). A
    // single copy (B's alone: N not a multiple of 4, K one) takes pad_copy2_x4 too, its second copy empty:
    // 1.4-1.6 % faster on the H200 where B is large (docs/benchmarks.md, session 51). Only A and B are ever
    // copied in (the padded rungs have two inputs): a third is refused, loudly (it would need the loop of
    // single copies back).
    void enqueue_copies_in(Padding& pad, const std::vector<const Padding::Copy*>& in,
                           const std::map<std::string, cl::Buffer>& buffers, const std::vector<cl::Event>* wait,
                           cl::Event* ev) {
        if (in.empty() || in.size() > 2)
            throw std::logic_error("the padded copies in: " + std::to_string(in.size()) + " buffers; one launch copies one or two");
        int64_t n4 = 0;
        bool x4 = true;
        for (const Padding::Copy* c : in) {
            n4 += c->prows * c->pcols / 4;
            x4 = x4 && c->pcols % 4 == 0;
        }
        x4 = x4 && n4 < (int64_t{1} << 31);
        if (in.size() == 1 && !x4) {
            const Padding::Copy& c = *in[0];
            enqueue_copy(pad, pad.user.at(c.name), c.rows, c.cols, buffers.at(c.name), c.prows, c.pcols, ev, wait);
            return;
        }
        cl::Kernel& k = x4 ? pad.copy2x4 : pad.copy2;
        int arg = 0;
        size_t n = 0;  // work-items: one per element of the copies, or one per float4
        for (size_t i = 0; i < 2; ++i) {
            // The second of a single copy: no rows (and 4 columns, so the kernel divides by a whole float4).
            const Padding::Copy& c = *in[std::min(i, in.size() - 1)];
            const bool empty = i >= in.size();
            k.setArg(arg++, static_cast<cl_int>(empty ? 0 : c.prows));
            k.setArg(arg++, static_cast<cl_int>(empty ? 4 : c.pcols));
            k.setArg(arg++, pad.user.at(c.name));
            k.setArg(arg++, static_cast<cl_int>(empty ? 0 : c.rows));
            k.setArg(arg++, static_cast<cl_int>(empty ? 4 : c.cols));
            k.setArg(arg++, buffers.at(c.name));
            if (!empty) n += static_cast<size_t>(c.prows * c.pcols / (x4 ? 4 : 1));
        }
        queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange((n + 255) / 256 * 256), cl::NDRange(256), wait, ev);
    }

    cl::Program build(const KernelSpec& spec, const std::string& options, const DeviceInfo& info) {
        const std::string source = program_source(spec);  // the prelude, if any, then "#line 1"
        const std::string key = options + '\n' + source;
        if (auto it = programs.find(key); it != programs.end()) return it->second;
        cl::Program program(context, source);
        try {
            QuietStderr quiet;
            // A build cannot be interrupted: the watchdog bounds it (and Ctrl-C still works).
            const watchdog::Deadline limit("building kernel '" + spec.name + "' on " + info.label(),
                                           watchdog::build_limit_seconds(),
                                           "accepted: a kernel that builds within the limit (TILESCOPE_BUILD_TIMEOUT_S)");
            program.build({device}, options.c_str());
        } catch (const cl::Error&) {
            std::string log;
            try {
                log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
            } catch (const cl::Error&) {
            }
            throw InputError("kernel '" + spec.name + "' (" + spec.source_name + ") does not build on " + info.label() +
                             ": " + first_error_line(log, spec.source_name));
        }
        programs[key] = program;
        return program;
    }

    // Creates kernel `entry` of `program` and binds its parameters by name to the launch's
    // arguments; a matrix's buffer is made once (with `host`) and shared by both kernels of a
    // rung with a second one. Appends the parameter names to `params`.
    cl::Kernel bind(const cl::Program& program, const KernelSpec& spec, const std::string& entry,
                    const ResolvedLaunch& launch, std::map<std::string, HostMatrix>* host, Prepared& p,
                    std::vector<std::string>& params) {
        cl::Kernel kernel;
        try {
            kernel = cl::Kernel(program, entry.c_str());
        } catch (const cl::Error&) {
            throw InputError("--entry '" + entry + "': no kernel of that name in " + spec.source_name);
        }
        const cl_uint nargs = kernel.getInfo<CL_KERNEL_NUM_ARGS>();
        for (cl_uint i = 0; i < nargs; ++i) {
            std::string pname = kernel.getArgInfo<CL_KERNEL_ARG_NAME>(i);
            while (!pname.empty() && pname.back() == '\0') pname.pop_back();
            params.push_back(pname);
            const cl_kernel_arg_address_qualifier aq = kernel.getArgInfo<CL_KERNEL_ARG_ADDRESS_QUALIFIER>(i);
            const ResolvedArg* arg = launch.find(pname);
            if (!arg)
                throw InputError("kernel '" + entry + "' parameter '" + pname + "' has no --arg; give e.g. --arg " +
                                 pname + "=int:N or " + pname + "=matrix:MxK");
            const std::string spec_text = shown(to_string(arg->spec));
            switch (arg->spec.kind) {
            case ArgSpec::Kind::Int:
                if (aq != CL_KERNEL_ARG_ADDRESS_PRIVATE)
                    throw InputError("--arg " + spec_text + ": parameter '" + pname + "' is a pointer, not an int");
                kernel.setArg(i, static_cast<cl_int>(arg->value));
                break;
            case ArgSpec::Kind::Local:
                if (aq != CL_KERNEL_ARG_ADDRESS_LOCAL)
                    throw InputError("--arg " + spec_text + ": parameter '" + pname + "' is not a __local pointer");
                kernel.setArg(i, cl::Local(static_cast<size_t>(arg->bytes())));
                break;
            case ArgSpec::Kind::Matrix: {
                if (aq != CL_KERNEL_ARG_ADDRESS_GLOBAL && aq != CL_KERNEL_ARG_ADDRESS_CONSTANT)
                    throw InputError("--arg " + spec_text + ": parameter '" + pname +
                                     "' is not a __global or __constant pointer");
                if (!host) break;
                auto it = p.buffers.find(pname);
                if (it == p.buffers.end()) {
                    HostMatrix& m = host->at(pname);
                    it = p.buffers.emplace(pname, cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                                             m.data.size() * sizeof(float), m.data.data())).first;
                }
                kernel.setArg(i, it->second);
                break;
            }
            }
        }
        return kernel;
    }

    // Builds and binds every argument by name. With `host` null, only checks: no buffers.
    // `buffers`: buffers made already, bound by name instead of new ones (a padded launch's).
    Prepared prepare(const LaunchConfig& config, const ResolvedLaunch& launch, const DeviceInfo& info,
                     std::map<std::string, HostMatrix>* host, std::map<std::string, cl::Buffer> buffers = {}) {
        const KernelSpec& spec = config.kernel;
        Prepared p;
        p.buffers = std::move(buffers);
        if (!spec.library.empty()) {
            // A library call takes the matrices as buffers; it has no kernel of ours.
            for (const ResolvedArg& a : launch.args)
                if (a.spec.kind == ArgSpec::Kind::Matrix && host) {
                    HostMatrix& m = host->at(a.spec.name);
                    p.buffers[a.spec.name] = cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                                        m.data.size() * sizeof(float), m.data.data());
                }
            return p;
        }
        const std::string options = "-cl-kernel-arg-info " + launch.build_options;
        cl::Program program = build(spec, options, info);
        std::vector<std::string> params;
        p.kernel = bind(program, spec, spec.entry, launch, host, p, params);
        if (spec.then) p.then = bind(program, spec, spec.then->entry, launch, host, p, params);
        for (const ResolvedArg& a : launch.args)
            if (std::find(params.begin(), params.end(), a.spec.name) == params.end()) {
                std::string list;
                for (auto& n : params) list += (list.empty() ? "" : ", ") + n;
                throw InputError("--arg " + shown(to_string(a.spec)) + ": kernel '" + spec.entry + "' has no parameter '" +
                                 a.spec.name + "'; its parameters: " + list);
            }
        if (spec.then) {
            const size_t then_wg = p.then.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device);
            const size_t then_size = launch.then_local[0] * launch.then_local[1] * launch.then_local[2];
            if (then_size > then_wg)
                throw InputError("kernel '" + spec.name + "': its second kernel " + spec.then->entry + " needs work-groups of " +
                                 std::to_string(then_size) + " work-items, but once built it allows at most " +
                                 std::to_string(then_wg) + " on " + info.label());
        }
        // Limits known only once built: registers and static __local arrays.
        const size_t kernel_wg = p.kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device);
        if (launch.group_size() > kernel_wg)
            throw InputError(tile_named(config) + ": kernel '" + spec.name + "' needs work-groups of " +
                             std::to_string(launch.group_size()) + " work-items, but once built it allows at most " +
                             std::to_string(kernel_wg) + " on " + info.label() + " (registers or local memory)");
        const cl_ulong kernel_local = p.kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device);
        if (kernel_local > info.local_mem)
            throw InputError(tile_named(config) + ": kernel '" + spec.name + "' needs " +
                             human_bytes(kernel_local) + " of local memory per work-group; " + info.label() +
                             " has " + human_bytes(info.local_mem));
        return p;
    }

    cl::NDRange range(const std::array<size_t, 3>& v, int dims) {
        if (dims == 1) return cl::NDRange(v[0]);
        if (dims == 2) return cl::NDRange(v[0], v[1]);
        return cl::NDRange(v[0], v[1], v[2]);
    }

    // One launch; returns its device time in seconds (profiling events).
    // With `pad`, the copies into the padded buffers come first and the copy of C back last,
    // all timed with the kernels.
    double launch_once(const LaunchConfig& config, const ResolvedLaunch& launch, Prepared& p,
                       const std::map<std::string, HostMatrix>& host, Padding* pad = nullptr) {
        // Outputs start from zero every time, so a kernel that accumulates into C is
        // judged on one launch, not on the sum of all of them.
        for (const ResolvedArg& a : launch.args)
            if (a.spec.kind == ArgSpec::Kind::Matrix && a.spec.access == Access::Out)
                queue.enqueueFillBuffer(p.buffers.at(a.spec.name), 0.0f, 0, a.bytes());
        cl::Event ev;
        if (config.kernel.library == "clblast") {
            // CLBlast may run several kernels (padding, transposes, the GEMM) and its event
            // covers only the last one, so a library call is timed by the host clock from
            // an idle queue until the queue drains again.
            queue.finish();
            const auto t0 = std::chrono::steady_clock::now();
            cl_event raw = nullptr;
            cl_command_queue q = queue();
            const auto status = clblast::Gemm<float>(
                clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo,
                static_cast<size_t>(config.size.M), static_cast<size_t>(config.size.N), static_cast<size_t>(config.size.K),
                1.0f, p.buffers.at("A")(), 0, static_cast<size_t>(config.size.K), p.buffers.at("B")(), 0,
                static_cast<size_t>(config.size.N), 0.0f, p.buffers.at("C")(), 0, static_cast<size_t>(config.size.N),
                &q, &raw);
            if (status != clblast::StatusCode::kSuccess)
                throw InputError("CLBlast SGEMM failed with status " + std::to_string(static_cast<int>(status)));
            queue.finish();
            const auto t1 = std::chrono::steady_clock::now();
            if (raw) clReleaseEvent(raw);
            return std::chrono::duration<double>(t1 - t0).count();
        }
        // A padded launch's commands (the copies in, the kernel, the second kernel, the copy
        // back) wait behind one user event until all are enqueued, so the GPU runs them back to
        // back instead of waiting for the host to enqueue the next one (H200, 1009^3 to 1399^3:
        // 1-3 % on top of the single copy-in launch, docs/benchmarks.md).
        // Only a padded launch makes the event: unpadded ones enqueue exactly as before.
        struct Gate {  // opened on every way out, so that nothing stays queued behind it
            std::vector<cl::Event> events;  // the user event, when there is one
            bool open = false;
            void release() {
                if (!open && !events.empty()) clSetUserEventStatus(events.front()(), CL_COMPLETE);
                open = true;
            }
            ~Gate() {
                try { release(); } catch (...) {}
            }
        } gate;
        if (pad) gate.events.push_back(cl::UserEvent(context));
        const std::vector<cl::Event>* wait = pad ? &gate.events : nullptr;
        cl::Event first;
        bool copied_in = false;
        if (pad) {
            std::vector<const Padding::Copy*> in;
            for (const Padding::Copy& c : pad->copies)
                if (c.in) in.push_back(&c);
            if (!in.empty()) {
                enqueue_copies_in(*pad, in, p.buffers, wait, &first);
                copied_in = true;
                wait = nullptr;
            }
        }
        queue.enqueueNDRangeKernel(p.kernel, cl::NullRange, range(launch.global, launch.dims),
                                   range(launch.local, launch.dims), wait, &ev);
        if (!copied_in) first = ev;
        cl::Event last = ev;
        if (launch.then_dims > 0)  // the second kernel: the same in-order queue, timed with the first
            queue.enqueueNDRangeKernel(p.then, cl::NullRange, range(launch.then_global, launch.then_dims),
                                       range(launch.then_local, launch.then_dims), nullptr, &last);
        if (pad)
            for (const Padding::Copy& c : pad->copies)
                if (!c.in) enqueue_copy(*pad, p.buffers.at(c.name), c.prows, c.pcols, pad->user.at(c.name), c.rows, c.cols, &last);
        gate.release();
        last.wait();
        const cl_ulong t0 = first.getProfilingInfo<CL_PROFILING_COMMAND_START>();
        const cl_ulong t1 = last.getProfilingInfo<CL_PROFILING_COMMAND_END>();
        return static_cast<double>(t1 - t0) * 1e-9;
    }

    void read_back(const ResolvedLaunch& launch, Prepared& p, std::map<std::string, HostMatrix>& host) {
        for (auto& [name, buf] : p.buffers) {
            HostMatrix& m = host.at(name);
            queue.enqueueReadBuffer(buf, CL_TRUE, 0, m.data.size() * sizeof(float), m.data.data());
        }
    }
};

Runner::Runner(const DeviceInfo& device) : device_(device), impl_(std::make_unique<Impl>()) {
    impl_->device = cl_device(device);
    try {
        impl_->context = cl::Context(impl_->device);
        impl_->queue = cl::CommandQueue(impl_->context, impl_->device, CL_QUEUE_PROFILING_ENABLE);
    } catch (const cl::Error& e) {
        throw InputError("device " + device.label() + " cannot be used: " + e.what() + " " + cl_error_name(e.err()));
    }
}

Runner::~Runner() {
    // CLBlast caches programs built in our context; release them while it still exists.
    clblast::ClearCache();
}

void check_group_limits(const std::string& what, const ResolvedLaunch& launch, const DeviceInfo& d) {
    // A limit the device does not report (0: a device described by hand, as in the tests) is not checked.
    if (d.max_work_group > 0 && launch.group_size() > d.max_work_group)
        throw InputError(what + " needs work-groups of " + std::to_string(launch.group_size()) + " work-items (" +
                         launch.local_text() + "), but " + d.label() + " allows at most " +
                         std::to_string(d.max_work_group));
    for (int i = 0; i < launch.dims; ++i)
        if (i < static_cast<int>(d.max_work_item_sizes.size()) && launch.local[i] > d.max_work_item_sizes[i])
            throw InputError(what + " needs " + std::to_string(launch.local[i]) + " work-items in dimension " +
                             std::to_string(i) + ", but " + d.label() + " allows at most " +
                             std::to_string(d.max_work_item_sizes[i]));
    if (d.local_mem > 0 && launch.local_arg_bytes > d.local_mem)
        throw InputError(what + " needs " + human_bytes(launch.local_arg_bytes) + " of local memory per work-group; " +
                         d.label() + " has " + human_bytes(d.local_mem));
}

void Runner::check_limits(const LaunchConfig& config, const ResolvedLaunch& launch) const {
    const DeviceInfo& d = device_;
    // A tuned tile was not typed by the user: the message names the file it came from.
    const std::string tile = tile_named(config) + ": kernel '" + config.kernel.name + "'";
    if (config.kernel.library.empty()) check_group_limits(tile, launch, d);
    const std::string size = "--size " + config.size.label() + ":";
    for (const ResolvedArg& a : launch.args)
        // Oclgrind's 128 MiB per buffer is nominal too (it keeps buffers in host memory): a sampled
        // 6,144^3 trace allocates 144 MiB matrices and runs (issue 31, cache8); the trace's memory
        // estimate and the host check below bound the emulator instead.
        if (a.spec.kind == ArgSpec::Kind::Matrix && a.bytes() > d.max_alloc && !d.is_emulator)
            throw InputError(size + " matrix " + a.spec.name + " (" + std::to_string(a.rows) + "x" + std::to_string(a.cols) +
                             ") needs " + human_bytes(a.bytes()) + " but " + d.label() + " allocates at most " +
                             human_bytes(d.max_alloc) + " per buffer");
    // Oclgrind keeps buffers in host memory and enforces no total: its reported 128 MiB is
    // nominal (a sampled 4096^3 trace holds 192 MiB of matrices); the host check below holds.
    if (launch.buffer_bytes > d.global_mem && !d.is_emulator)
        throw InputError(size + " the matrices need " + human_bytes(launch.buffer_bytes) + " but " + d.label() + " has " +
                         human_bytes(d.global_mem) + " of global memory");
    // The host keeps a copy of every matrix (plus the reference's working set).
    const uint64_t host_mem = physical_memory_bytes();
    if (launch.buffer_bytes * 2 > host_mem)
        throw InputError(size + " the matrices need " + human_bytes(launch.buffer_bytes) + " twice over on the host, which has " +
                         human_bytes(host_mem));
}

// A kernel carried by a file (KernelSpec::carried_by) is built here only when trusted, and
// on a real device only inside the child that measure_contained() starts (issue 32).
// Returns false when it is to be built and run only in that child (validate then checks its
// limits and leaves the build to the child).
static bool check_carried(const LaunchConfig& config, const DeviceInfo& device, bool running) {
    if (config.kernel.carried_by.empty()) return true;
    check_trusted(config);
    if (!device.is_emulator && runs_contained(config.kernel)) {
        if (!running) return false;
        throw InputError("the kernel '" + shown(config.kernel.name, 60) + "' from " + config.kernel.carried_by +
                         " runs on " + device.label() + " only in a child process, when measured; nothing was run");
    }
    return true;
}

void Runner::validate(const LaunchConfig& config, const std::function<bool()>& cancelled) {
    const bool here = check_carried(config, device_, false);
    const ResolvedLaunch launch = resolve(config);
    check_limits(config, launch);
    if (!here) return;  // a kernel from a file is built only in the child that measures it
    // A rung that runs padded here is refused or accepted as it will run: at the padded size.
    const std::optional<LaunchConfig> padded = padded_config(config, device_);
    const LaunchConfig& run = padded ? *padded : config;
    const ResolvedLaunch run_launch = padded ? resolve(run) : launch;
    if (padded) check_limits(run, run_launch);
    // Built and run first where a crash inside the driver (its compiler or the kernel it
    // compiled) cannot take this process down; the build here then comes from its cache.
    run_contained_trial(run, device_, cancelled);
    try {
        impl_->prepare(run, run_launch, device_, nullptr);
    } catch (const cl::Error& e) {
        throw InputError("kernel '" + config.kernel.name + "' cannot be set up on " + device_.label() + ": " + e.what() +
                         " " + cl_error_name(e.err()));
    }
}

Measurement Runner::measure(const LaunchConfig& config, const RunOptions& options) {
    if (options.reps < 1) throw InputError("--reps " + std::to_string(options.reps) + ": accepted: an integer of at least 1");
    if (options.warmup < 0) throw InputError("--warmup " + std::to_string(options.warmup) + ": accepted: an integer of at least 0");
    if (!device_.is_emulator && runs_contained(config.kernel))
        return measure_contained(config, device_, options);  // refuses it first unless trusted
    return std::move(measure_interleaved({config}, options).front());
}

std::vector<Measurement> Runner::measure_interleaved(const std::vector<LaunchConfig>& configs, const RunOptions& options) {
    if (options.reps < 1) throw InputError("--reps " + std::to_string(options.reps) + ": accepted: an integer of at least 1");
    if (options.warmup < 0) throw InputError("--warmup " + std::to_string(options.warmup) + ": accepted: an integer of at least 0");
    if (configs.empty()) return {};
    // One launch ready to be timed again and again: its sizes, matrices, buffers and copies.
    struct Staged {
        LaunchConfig config;
        std::optional<LaunchConfig> padded;
        ResolvedLaunch launch, run_launch;
        std::map<std::string, HostMatrix> host;
        Impl::Prepared p;
        Impl::Padding pad;
        Measurement m;
        const LaunchConfig& run() const { return padded ? *padded : config; }
    };
    std::vector<std::unique_ptr<Staged>> staged;
    for (const LaunchConfig& config : configs) {
        if (!device_.is_emulator && runs_contained(config.kernel))
            throw InputError("the kernel '" + shown(config.kernel.name, 60) + "' from " + config.kernel.carried_by +
                             " runs only alone in a child process; it cannot be timed in turn with others");
        check_carried(config, device_, true);
        auto s = std::make_unique<Staged>();
        s->config = config;
        s->launch = resolve(config);  // the user's sizes: the matrices, the check, the flops
        check_limits(config, s->launch);
        // A rung that may run padded, at a size that is not a multiple of its pad, runs at the
        // padded size on copies (padded_config); everything else runs as asked.
        s->padded = padded_config(config, device_);
        s->run_launch = s->padded ? resolve(*s->padded) : s->launch;
        if (s->padded) check_limits(*s->padded, s->run_launch);
        run_contained_trial(s->run(), device_, options.cancelled);  // once per point and process; validate() may have tried it
        s->host = make_matrices(s->launch);
        Measurement& m = s->m;
        m.kernel = config.kernel.name;
        m.title = config.kernel.title;
        m.library = !config.kernel.library.empty();
        m.device = device_.label();
        m.size = config.size;
        m.ran_at = s->run().size;
        m.tile = config.tile;
        m.tile_used = config.kernel.uses_tile();
        m.launch = s->run_launch;
        m.launch.flops = s->launch.flops;  // the user's product: the padding's zeros are no work done
        m.params_source = config.params_source;
        m.tuning_note = config.tuning_note;
        m.reps = options.reps;
        staged.push_back(std::move(s));
    }
    const Staged* current = staged.front().get();
    try {
        for (auto& sp : staged) {
            Staged& s = *sp;
            current = &s;
            if (s.padded) {
                // Every matrix gets its buffer here: the user's own where the padded shape is the
                // same (bound directly), else a padded one with a copy in (inputs) or back (the
                // checked output; other outputs, splitk's W, are the kernel's scratch).
                std::map<std::string, cl::Buffer> buffers;
                s.pad.copy = impl_->pad_copy_kernel(device_);
                s.pad.copy2 = impl_->pad_copy_kernel(device_, "pad_copy2");
                s.pad.copy2x4 = impl_->pad_copy_kernel(device_, "pad_copy2_x4");
                for (const ResolvedArg& a : s.run_launch.args) {
                    if (a.spec.kind != ArgSpec::Kind::Matrix) continue;
                    const ResolvedArg* u = s.launch.find(a.spec.name);
                    HostMatrix& h = s.host.at(a.spec.name);
                    if (u && u->rows == a.rows && u->cols == a.cols) {
                        buffers.emplace(a.spec.name, cl::Buffer(impl_->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                                                h.data.size() * sizeof(float), h.data.data()));
                        continue;
                    }
                    buffers.emplace(a.spec.name, cl::Buffer(impl_->context, CL_MEM_READ_WRITE, a.bytes()));
                    const bool in = a.spec.access == Access::In;
                    if (!u || (!in && a.spec.name != s.config.kernel.check->c)) continue;
                    s.pad.copies.push_back({a.spec.name, u->rows, u->cols, a.rows, a.cols, in});
                    s.pad.user.emplace(a.spec.name, cl::Buffer(impl_->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                                               h.data.size() * sizeof(float), h.data.data()));
                }
                for (const Impl::Padding::Copy& c : s.pad.copies) s.m.padded_copies.push_back(c.name);
                std::map<std::string, HostMatrix> none;
                s.p = impl_->prepare(*s.padded, s.run_launch, device_, &none, std::move(buffers));
            } else {
                s.p = impl_->prepare(s.config, s.launch, device_, &s.host);
            }
        }
        // Round r launches every config once: in the given order on even rounds, reversed on
        // odd ones, so a slow drift of the machine's load weighs on each alike.
        const bool alone = staged.size() == 1;
        const int total = options.warmup + options.reps;
        for (int r = 0; r < total; ++r) {
            for (size_t i = 0; i < staged.size(); ++i) {
                if (options.cancelled && options.cancelled()) throw Cancelled();
                Staged& s = *staged[r % 2 == 0 ? i : staged.size() - 1 - i];
                current = &s;
                const double cpu0 = process_cpu_seconds();
                const double t = impl_->launch_once(s.run(), s.run_launch, s.p, s.host, s.padded ? &s.pad : nullptr);
                const double cpu1 = process_cpu_seconds();
                if (r >= options.warmup) {
                    s.m.times_s.push_back(t);
                    s.m.cpu_times_s.push_back(cpu1 - cpu0);
                }
            }
            if (options.progress)
                options.progress((r < options.warmup ? "warm-up " : alone ? "run " : "round ") +
                                 std::to_string(r < options.warmup ? r + 1 : r - options.warmup + 1) + "/" +
                                 std::to_string(r < options.warmup ? options.warmup : options.reps));
        }
        for (auto& sp : staged) {
            Staged& s = *sp;
            current = &s;
            if (s.padded) {
                // The user's matrices: the copied-back output and those bound directly.
                for (auto& [name, h] : s.host) {
                    auto u = s.pad.user.find(name);
                    const ResolvedArg* a = s.run_launch.find(name);
                    const cl::Buffer* b = u != s.pad.user.end() ? &u->second
                                          : (a && a->rows == h.rows && a->cols == h.cols) ? &s.p.buffers.at(name)
                                                                                          : nullptr;
                    if (b) impl_->queue.enqueueReadBuffer(*b, CL_TRUE, 0, h.data.size() * sizeof(float), h.data.data());
                }
            } else {
                impl_->read_back(s.launch, s.p, s.host);
            }
        }
    } catch (const cl::Error& e) {
        throw InputError("kernel '" + current->config.kernel.name + "' failed on " + device_.label() + ": " + e.what() + " " +
                         cl_error_name(e.err()));
    }
    std::vector<Measurement> out;
    for (auto& sp : staged) {
        Staged& s = *sp;
        Measurement& m = s.m;
        const TimeSummary times = summarize_times(m.times_s);
        m.median_s = times.median_s;
        m.min_s = times.min_s;
        if (s.config.kernel.check) {
            if (options.progress) options.progress("verifying against the CPU reference");
            const CheckSpec& c = *s.config.kernel.check;
            m.checked = true;
            m.verification = verify_product(s.host.at(c.a), s.host.at(c.b), s.host.at(c.c), options.cancelled);
        }
        if (m.verification.verified && m.median_s > 0) m.gflops = s.launch.flops / m.median_s * 1e-9;
        out.push_back(std::move(m));
    }
    return out;
}

RunResult Runner::run_once(const LaunchConfig& config, const RunOptions& options) {
    check_carried(config, device_, true);
    const ResolvedLaunch launch = resolve(config);
    check_limits(config, launch);
    RunResult result;
    result.matrices = make_matrices(launch);
    try {
        Impl::Prepared p = impl_->prepare(config, launch, device_, &result.matrices);
        const auto t0 = std::chrono::steady_clock::now();
        impl_->launch_once(config, launch, p, result.matrices);
        result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        impl_->read_back(launch, p, result.matrices);
    } catch (const cl::Error& e) {
        throw InputError("kernel '" + config.kernel.name + "' failed on " + device_.label() + ": " + e.what() + " " +
                         cl_error_name(e.err()));
    }
    return result;
}

}  // namespace tilescope
