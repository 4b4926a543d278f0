#include "ui/setup_form.h"

#include "core/catalog.h"
#include "core/errors.h"

namespace tilescope::ui {
namespace {

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : text) {
        if (c == sep || (sep == ' ' && c == '\t')) {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else if (!(c == ' ' && cur.empty())) {
            cur += c;
        }
    }
    while (!cur.empty() && cur.back() == ' ') cur.pop_back();
    if (!cur.empty()) out.push_back(cur);
    return out;
}

LaunchConfig form_config(const SetupForm& f) {
    LaunchConfig c;
    if (!f.kernel.empty()) {
        const KernelSpec* k = find_kernel(f.kernel);
        if (!k) throw InputError("kernel '" + f.kernel + "': unknown; accepted: " + rung_names());
        c.kernel = *k;
    } else {
        CustomKernelOptions o;
        o.source_path = f.source;
        if (o.source_path.empty()) throw InputError("custom kernel: give the path of a .cl file");
        o.entry = f.entry;
        o.global = split(f.global, ',');
        o.local = split(f.local, ',');
        o.args = split(f.args, ' ');
        o.defines = split(f.defines, ' ');
        o.check = f.check;
        c.kernel = load_custom_kernel(o);
    }
    c.size = parse_size(f.size, "size");
    if (f.tile <= 0 || f.tile > 1024)
        throw InputError("tile " + std::to_string(f.tile) + ": accepted: a positive integer such as 4, 8, 16, 32");
    c.tile = f.tile;
    return c;
}

}  // namespace

const std::vector<KernelSpec>& kernel_menu() {
    static const std::vector<KernelSpec> all = [] {
        std::vector<KernelSpec> v = ladder();
        for (const KernelSpec& k : exercises()) v.push_back(k);
        return v;
    }();
    return all;
}

SetupCheck check_setup(const SetupForm& form, const DeviceInfo* dev) {
    SetupCheck out;
    try {
        LaunchConfig config = form_config(form);
        const ResolvedLaunch r = resolve(config);
        out.implied.push_back("NDRange " + r.global_text() + ", work-group " + r.local_text());
        out.implied.push_back(std::to_string(r.total_groups()) + " work-groups of " + std::to_string(r.group_size()) + " work-items");
        uint64_t local_bytes = r.local_arg_bytes;
        const bool tiled = !config.kernel.custom && config.kernel.name == "tiled";
        if (tiled) {
            local_bytes += 2ull * uint64_t(config.tile) * uint64_t(config.tile) * 4;  // atile and btile
            const int64_t phases = (config.size.K + config.tile - 1) / config.tile;
            out.implied.push_back(std::to_string(phases) + " phases, " + std::to_string(local_bytes) + " B local memory per group");
        }
        if (dev) {
            if (r.group_size() > dev->max_work_group)
                out.problem = "a work-group of " + std::to_string(r.group_size()) + " work-items exceeds the device's " +
                              std::to_string(dev->max_work_group);
            else if (local_bytes > dev->local_mem)
                out.problem = "local memory of " + std::to_string(local_bytes) + " B exceeds the device's " + std::to_string(dev->local_mem) + " B";
        }
        out.config = std::move(config);
    } catch (const std::exception& e) {
        out.problem = e.what();
    }
    return out;
}

}  // namespace tilescope::ui
