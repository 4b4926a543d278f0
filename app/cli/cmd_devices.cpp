#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "args/options.h"
#include "core/caches/cache_trace.h"
#include "core/device/opencl_env.h"

namespace tilescope::cli {
namespace {

// "global memory cache 1024 KiB, 64-B lines (reported by OpenCL); cache profile cpu: ..."
std::string cache_line_text(const DeviceInfo& d) {
    const auto rc = reported_cache(d);
    const std::string name = cache_profile_for(d);
    if (!rc && name.empty()) return "";
    char buf[320] = "     ";
    if (rc)
        std::snprintf(buf, sizeof buf, "     global memory cache %llu KiB, %u-B lines (reported by OpenCL)",
                      static_cast<unsigned long long>(rc->bytes / 1024), rc->line_bytes);
    std::string out = buf;
    if (!name.empty()) {
        const CacheProfile p = load_cache_profile(name);
        std::snprintf(buf, sizeof buf, "%scache model profile %s: L1 %llu KiB x %u, L2 %llu KiB, %u-B lines",
                      rc ? "; " : "", name.c_str(), static_cast<unsigned long long>(p.params.l1_bytes / 1024),
                      p.params.cus, static_cast<unsigned long long>(p.params.l2_bytes / 1024), p.params.line_bytes);
        out += buf;
    }
    return out + "\n";
}

}  // namespace

int cmd_devices(const std::vector<std::string>& args) {
    Options o("devices", {}, {"json", "help"});
    o.parse(args);
    if (o.has("help")) {
        std::cout << "usage: tilescope devices [--json]\n"
                     "Lists every OpenCL device: those the ICD loader sees, the Oclgrind emulator (registered\n"
                     "by tilescope itself), and drivers named in TILESCOPE_ICDS (colon-separated .icd files\n"
                     "or libraries, e.g. TILESCOPE_ICDS=libnvidia-opencl.so.1). SEL for --device is the\n"
                     "P:D index, 'emulator', or part of the name.\n";
        return 0;
    }
    const auto& devs = all_devices();
    if (o.has("json")) {
        nlohmann::json list = nlohmann::json::array();
        for (const DeviceInfo& d : devs) {
            list.push_back({{"selector", d.selector()},
                            {"platform", d.platform},
                            {"name", d.name},
                            {"vendor", d.vendor},
                            {"type", d.type},
                            {"emulator", d.is_emulator},
                            {"compute_units", d.compute_units},
                            {"clock_mhz", d.clock_mhz},
                            {"native_vector_width_float", d.native_vector_width_float},
                            {"global_mem_bytes", d.global_mem},
                            {"local_mem_bytes", d.local_mem},
                            {"max_alloc_bytes", d.max_alloc},
                            {"max_work_group_size", d.max_work_group},
                            {"max_work_item_sizes", d.max_work_item_sizes},
                            {"version", d.version},
                            {"opencl_c_version", d.opencl_c_version},
                            {"driver", d.driver}});
            // The device's own word on its cache, beside the cache model's profile for it.
            if (const auto rc = reported_cache(d)) {
                list.back()["global_mem_cache_bytes"] = rc->bytes;
                list.back()["global_mem_cacheline_bytes"] = rc->line_bytes;
            }
            if (const std::string profile = cache_profile_for(d); !profile.empty()) list.back()["cache_profile"] = profile;
        }
        std::cout << list.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        return 0;
    }
    if (devs.empty()) {
        std::cout << device_list_text() << "\n";
        return 0;
    }
    for (const DeviceInfo& d : devs) {
        std::printf("%s  %s%s\n", d.selector().c_str(), d.label().c_str(), d.is_emulator ? "  [emulator: traced, not timed]" : "");
        std::printf("     vendor %s, type %s, %u compute units at %u MHz\n", d.vendor.c_str(), d.type.c_str(),
                    d.compute_units, d.clock_mhz);
        std::printf("     global memory %.1f GiB (max buffer %.1f GiB), local memory %.0f KiB per work-group\n",
                    d.global_mem / double(1ull << 30), d.max_alloc / double(1ull << 30), d.local_mem / 1024.0);
        std::string sizes;
        for (size_t s : d.max_work_item_sizes) sizes += (sizes.empty() ? "" : "x") + std::to_string(s);
        std::printf("     work-groups up to %zu work-items (per dimension %s); %s\n", d.max_work_group, sizes.c_str(),
                    d.opencl_c_version.c_str());
        std::cout << cache_line_text(d);
    }
    return 0;
}

}  // namespace tilescope::cli
