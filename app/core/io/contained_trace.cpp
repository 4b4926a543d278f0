#include "core/io/contained_trace.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <iostream>

#include <nlohmann/json.hpp>

#include "core/base/environment.h"
#include "core/base/errors.h"
#include "core/base/untrusted_file.h"
#include "core/base/watchdog.h"
#include "core/device/contained_measure.h"
#include "core/device/contained_trial.h"
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

// The cache model's requests ride after the saved trace, which does not hold them: the
// child's answer is "TSCHILD TRACE_BYTES CACHE_BYTES\n", the saved trace, then the requests
// in a binary layout of our own (little-endian counts and records), read back as untrusted:
// every count bounded by the bytes left, every range inside what it indexes.
// The in-process trace keeps at most 1 GiB / 64 sectors (128 MiB of them) and their requests.
constexpr uint64_t kMaxCacheRequestBytes = uint64_t(192) << 20;

struct Out {
    std::string bytes;
    template <class T>
    void put(T v) {
        bytes.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
};

std::string cache_requests_bytes(const Trace& t) {
    if (!t.cache_requests) return {};
    const CacheRequestStream& c = *t.cache_requests;
    Out o;
    o.put<uint8_t>(t.cache_requests_truncated);
    o.put<uint32_t>(c.sector_bytes);
    o.put<uint64_t>(c.buffers.size());
    for (const std::string& b : c.buffers) {
        o.put<uint64_t>(b.size());
        o.bytes += b;
    }
    o.put<uint64_t>(c.buffer_first_sector.size());
    for (uint64_t f : c.buffer_first_sector) o.put<uint64_t>(f);
    o.put<uint64_t>(c.groups.size());
    for (const auto& g : c.groups) {
        o.put<uint32_t>(g.request_begin);
        o.put<uint32_t>(g.request_count);
    }
    o.put<uint64_t>(c.requests.size());
    for (const auto& r : c.requests) {
        o.put<uint32_t>(r.sector_begin);
        o.put<uint32_t>(r.sector_count);
        o.put<int32_t>(r.line);
        o.put<uint16_t>(r.buffer);
        o.put<uint8_t>(uint8_t(r.load) | uint8_t(r.store) << 1);
    }
    o.put<uint64_t>(c.sectors.size());
    for (uint64_t s : c.sectors) o.put<uint64_t>(s);
    return std::move(o.bytes);
}

struct In {
    std::string_view bytes;
    size_t at = 0;
    template <class T>
    T get() {
        if (bytes.size() - at < sizeof(T)) throw InputError("the cache requests end early");
        T v;
        std::memcpy(&v, bytes.data() + at, sizeof v);
        at += sizeof v;
        return v;
    }
    // A count of records of `each` bytes, bounded by what is left.
    uint64_t count(size_t each) {
        const uint64_t n = get<uint64_t>();
        if (n > (bytes.size() - at) / each) throw InputError("the cache requests hold a count larger than their bytes");
        return n;
    }
};

void read_cache_requests(std::string_view bytes, Trace& t) {
    In in{bytes};
    auto c = std::make_shared<CacheRequestStream>();
    t.cache_requests_truncated = in.get<uint8_t>() != 0;
    c->sector_bytes = in.get<uint32_t>();
    if (c->sector_bytes == 0) throw InputError("the cache requests have 0-byte sectors");
    c->buffers.resize(in.count(8));
    for (std::string& b : c->buffers) {
        const uint64_t n = in.count(1);
        b.assign(bytes.substr(in.at, n));
        in.at += n;
    }
    c->buffer_first_sector.resize(in.count(8));
    for (uint64_t& f : c->buffer_first_sector) f = in.get<uint64_t>();
    c->groups.resize(in.count(8));
    for (auto& g : c->groups) {
        g.request_begin = in.get<uint32_t>();
        g.request_count = in.get<uint32_t>();
    }
    c->requests.resize(in.count(15));
    for (auto& r : c->requests) {
        r.sector_begin = in.get<uint32_t>();
        r.sector_count = in.get<uint32_t>();
        r.line = in.get<int32_t>();
        r.buffer = in.get<uint16_t>();
        const uint8_t flags = in.get<uint8_t>();
        r.load = flags & 1;
        r.store = flags & 2;
        if (r.buffer >= std::max<size_t>(1, c->buffers.size())) throw InputError("a cache request names a buffer that is not there");
    }
    c->sectors.resize(in.count(8));
    for (uint64_t& s : c->sectors) s = in.get<uint64_t>();
    if (in.at != bytes.size()) throw InputError("the cache requests have bytes past their end");
    for (const auto& g : c->groups)
        if (uint64_t(g.request_begin) + g.request_count > c->requests.size())
            throw InputError("a work-group's cache requests lie past the list");
    for (const auto& r : c->requests) {
        if (uint64_t(r.sector_begin) + r.sector_count > c->sectors.size())
            throw InputError("a cache request's sectors lie past the list");
        for (uint32_t i = 1; i < r.sector_count; ++i)
            if (c->sectors[r.sector_begin + i - 1] >= c->sectors[r.sector_begin + i])
                throw InputError("a cache request's sectors are not in ascending order");
    }
    t.cache_requests = std::move(c);
}

// The child's answer: the header line, the saved trace, the cache requests.
std::string child_answer(const TraceFile& file) {
    std::string caches = cache_requests_bytes(file.trace);
    if (caches.size() > kMaxCacheRequestBytes) caches = std::string(1, '\1');  // too many to hand back: said as truncated
    const std::string trace = serialize_trace_file(file);
    return "TSCHILD " + std::to_string(trace.size()) + " " + std::to_string(caches.size()) + "\n" + trace + caches;
}

Trace read_child_answer(const std::string& bytes, const std::string& who) {
    const std::string name = who + "'s trace from its child process";
    const size_t eol = bytes.find('\n');
    uint64_t trace_bytes = 0, cache_bytes = 0;
    char tag[8] = {};
    if (eol == std::string::npos || eol > 64 ||
        std::sscanf(bytes.substr(0, eol).c_str(), "%7s %" SCNu64 " %" SCNu64, tag, &trace_bytes, &cache_bytes) != 3 ||
        std::string(tag) != "TSCHILD" || trace_bytes > bytes.size() || cache_bytes != bytes.size() - eol - 1 - trace_bytes)
        throw InputError(name + ": not the answer a tracing child gives");
    // Read back as any saved trace is: bounded, every field validated.
    TraceFile back = parse_trace_file(std::string_view(bytes).substr(eol + 1, trace_bytes), name);
    if (cache_bytes == 1) back.trace.cache_requests_truncated = true;
    else if (cache_bytes > 0) {
        try {
            read_cache_requests(std::string_view(bytes).substr(eol + 1 + trace_bytes), back.trace);
        } catch (const InputError& e) {
            throw InputError(name + ": " + e.what());
        }
    }
    return std::move(back.trace);
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

    std::string dir = temp_template("tilescope-trace");
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

    const std::string bytes = run_in_child({"__trace", dir}, limits, options.cancelled, who, where, "nothing was traced",
                                           kMaxTraceFileBytes + kMaxCacheRequestBytes + 64);
    return read_child_answer(bytes, who);
}

void use_child_program(const std::string& path) {
    set_trial_program(path);
    set_contained_tracer(&trace_contained);
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
        // A sampled trace ran a block of the launch's groups (trace --sample): the launch it
        // hands back is that block's, so that its NDRange and the trace's agree when read back.
        if (options.sampled()) {
            file.launch.kernel.global.clear();
            for (int d = 0; d < file.trace.dims; ++d) file.launch.kernel.global.push_back(std::to_string(file.trace.global[size_t(d)]));
        }
        std::cout << child_answer(file) << std::flush;
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
