#include "core/emulator/contained_trace.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>

#include <nlohmann/json.hpp>

#include "core/base/environment.h"
#include "core/base/errors.h"
#include "core/base/untrusted_file.h"
#include "core/base/watchdog.h"
#include "core/device/contained_measure.h"
#include "core/io/trace_file.h"
#include "core/io/trace_file_check.h"

namespace tilescope {
namespace {

using json = nlohmann::json;

json groups_json(const std::vector<GroupId>& groups) {
    json out = json::array();
    for (const GroupId& g : groups) out.push_back({g[0], g[1], g[2]});
    return out;
}

std::vector<GroupId> groups_from(const json& j) {
    std::vector<GroupId> out;
    for (const json& g : j) out.push_back({g.at(0).get<uint32_t>(), g.at(1).get<uint32_t>(), g.at(2).get<uint32_t>()});
    return out;
}

// Everything of TraceOptions the run depends on (not its callbacks).
json options_json(const TraceOptions& o) {
    return {{"checks", o.checks},
            {"uninitialized", o.uninitialized},
            {"groups", groups_json(o.groups)},
            {"early_groups", groups_json(o.early_groups)},
            {"geometry", {o.geometry.warp, o.geometry.sector_bytes, o.geometry.banks, o.geometry.bank_bytes}},
            {"cache_requests", o.cache_requests},
            {"verify", o.verify},
            {"max_memory_bytes", o.max_memory_bytes},
            {"max_seconds", o.max_seconds},
            {"detail_budget_bytes", o.detail_budget_bytes},
            {"plugin_path", o.plugin_path},
            {"sample", {o.sample[0], o.sample[1], o.sample[2]}}};
}

TraceOptions options_from(const json& j) {
    TraceOptions o;
    o.checks = j.at("checks").get<bool>();
    o.uninitialized = j.at("uninitialized").get<bool>();
    o.groups = groups_from(j.at("groups"));
    o.early_groups = groups_from(j.at("early_groups"));
    const json& g = j.at("geometry");
    o.geometry = {g.at(0).get<uint32_t>(), g.at(1).get<uint32_t>(), g.at(2).get<uint32_t>(), g.at(3).get<uint32_t>()};
    o.cache_requests = j.at("cache_requests").get<bool>();
    o.verify = j.at("verify").get<bool>();
    o.max_memory_bytes = j.at("max_memory_bytes").get<uint64_t>();
    o.max_seconds = j.at("max_seconds").get<double>();
    o.detail_budget_bytes = j.at("detail_budget_bytes").get<uint64_t>();
    o.plugin_path = j.at("plugin_path").get<std::string>();
    const json& s = j.at("sample");
    o.sample = {s.at(0).get<uint32_t>(), s.at(1).get<uint32_t>(), s.at(2).get<uint32_t>()};
    return o;
}

}  // namespace

Trace trace_contained(const LaunchConfig& config, const TraceOptions& options, double estimated_seconds,
                      uint64_t memory_limit_bytes) {
    check_trusted(config);
    ContainedLimits limits;
    // The trace's own estimate bounds it (at most options.max_seconds); twice that and the
    // build's limit leave room for a slow machine. TILESCOPE_CHILD_TIMEOUT_S replaces it.
    limits.wall_s = 2 * watchdog::build_limit_seconds() + 120 + 2 * std::min(estimated_seconds, options.max_seconds);
    if (const double asked = child_wall_limit_override(); asked > 0) limits.wall_s = asked;
#if !defined(__SANITIZE_ADDRESS__)
    // The emulator's budget plus room for LLVM, Oclgrind's threads and their stacks.
    limits.memory_bytes = (uint64_t(4) << 30) + memory_limit_bytes;
#endif
    const std::string who = contained_who(config);
    const std::string where = " on the emulator in a child process";

    std::string dir = env_text("TMPDIR").value_or("/tmp") + "/tilescope-trace-XXXXXX";
    const int fd = mkstemp(dir.data());
    if (fd < 0) throw InputError("cannot make a temporary file in " + dir.substr(0, dir.rfind('/')) + ": " + std::strerror(errno));
    struct Remove {
        std::string p;
        int fd;
        ~Remove() {
            close(fd);
            unlink(p.c_str());
        }
    } remove{dir, fd};
    json request = launch_request(config);
    request["options"] = options_json(options);
    const std::string body = request.dump(-1, ' ', false, json::error_handler_t::replace);
    if (write(fd, body.data(), body.size()) != ssize_t(body.size()))
        throw InputError("cannot write a temporary file " + dir + ": " + std::strerror(errno));

    const std::string bytes =
        run_in_child({"__trace", dir}, limits, options.cancelled, who, where, "nothing was traced", kMaxTraceFileBytes);
    // Read back as any saved trace is: bounded, every field validated.
    TraceFile back = parse_trace_file(bytes, who + "'s trace from its child process");
    return std::move(back.trace);
}

int trace_child_main(const std::vector<std::string>& args) {
    try {
        if (args.size() != 1) throw InputError("REQUEST_FILE expected");
        mark_contained_child();
        const json r = json::parse(read_untrusted_file(args[0], uint64_t(16) << 20, "request"));
        TraceFile file;
        file.launch = launch_from_request(r);
        const TraceOptions options = options_from(r.at("options"));
        file.trace = run_trace(file.launch, options);
        std::cout << serialize_trace_file(file) << std::flush;
        return std::cout ? 0 : 3;
    } catch (const InputError& e) {
        std::cerr << "tilescope __trace: " << shown(e.what(), 400) << "\n";
        return 2;
    } catch (const std::bad_alloc&) {
        std::cerr << "tilescope __trace: out of memory\n";
        return 4;
    } catch (const std::exception& e) {
        std::cerr << "tilescope __trace: " << shown(e.what(), 400) << "\n";
        return 3;
    }
}

}  // namespace tilescope
