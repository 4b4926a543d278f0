#include "ui/state/setup_form.h"

#include "core/base/number_text.h"

#include <cctype>
#include <cstring>

#include "core/trace/analysis.h"
#include "core/kernel/catalog.h"
#include "core/base/errors.h"

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
        if (!k) throw InputError("Kernel '" + f.kernel + "': unknown; accepted: " + rung_names());
        c.kernel = *k;
    } else {
        CustomKernelOptions o;
        o.source_path = f.source;
        if (o.source_path.empty()) throw InputError("File: give the path of a .cl file for the custom kernel");
        o.entry = f.entry;
        o.global = split(f.global, ',');
        o.local = split(f.local, ',');
        o.args = split(f.args, ' ');
        o.defines = split(f.defines, ' ');
        o.check = f.check;
        c.kernel = load_custom_kernel(o);
    }
    c.size = parse_size(f.size, "size");
    if (f.tile <= 0) throw InputError("Tile size " + std::to_string(f.tile) + ": accepted: a positive integer such as 4, 8, 16, 32");
    if (f.tile > 32768)  // beyond this TS*TS overflows the NDRange arithmetic; no device comes near it
        throw InputError("Tile size " + std::to_string(f.tile) + " is too large: a work-group of TSxTS work-items; devices allow at most a few thousand");
    c.tile = f.tile;
    for (const auto& [name, value] : f.params)  // only the chosen rung's own: another rung's would be refused
        for (const TunableParam& p : c.kernel.params)
            if (p.name == name) c.params[name] = value;
    if (!c.params.empty()) c.params_source = "given";
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

namespace {

// Core and custom-kernel errors name command-line options; the form names fields.
std::string in_form_words(std::string text) {
    static const std::pair<const char*, const char*> words[] = {
        {"--tile", "Tile size"}, {"--size", "Size"},       {"--kernel", "Kernel"}, {"--source", "File"},
        {"--entry", "Entry"},    {"--global", "Global"},   {"--local", "Local"},   {"--arg", "Args"},
        {"--define", "Defines"}, {"--check", "Check"},     {"--param", "Parameter"}};
    for (const auto& [flag, field] : words)
        for (size_t at = text.find(flag); at != std::string::npos; at = text.find(flag, at)) text.replace(at, std::strlen(flag), field);
    if (!text.empty()) text[0] = char(std::toupper(static_cast<unsigned char>(text[0])));
    return text;
}

// Whether `who` can run the launch: work-items per group and local memory.
std::string limit_problem(const LaunchConfig& c, const ResolvedLaunch& r, const DeviceInfo* dev, const std::string& who) {
    if (!dev) return "";
    if (r.group_size() > dev->max_work_group) {
        const std::string items = r.local_text() + " = " + std::to_string(r.group_size()) + " work-items";
        const std::string limit = who + " allows " + std::to_string(dev->max_work_group) + " per work-group";
        if (c.kernel.custom) return "Local " + r.local_text() + " is too large: work-groups of " + items + "; " + limit;
        return "Tile size " + std::to_string(c.tile) + " is too large: work-groups would be " + items + "; " + limit;
    }
    if (r.local_arg_bytes > dev->local_mem)
        return "Local memory of " + std::to_string(r.local_arg_bytes) + " B per work-group is too much; " + who + " has " +
               std::to_string(dev->local_mem) + " B";
    return "";
}

// What the timeline will show: phases (trips round the tile loop, the rung's term P) and
// barriers per work-group, from the rung's closed forms (all groups of a rung pass the
// same barriers). A custom kernel's phases are known once traced.
std::optional<std::string> phases_line(const LaunchConfig& c, const ResolvedLaunch& r) {
    const std::optional<ExpectedTraffic> e = expected_traffic(c.kernel, c.size, c.tile, c.params);
    if (!e || r.total_groups() == 0) return std::nullopt;
    const uint64_t barriers = e->barriers / r.total_groups();
    const std::string per = std::to_string(barriers) + (barriers == 1 ? " barrier" : " barriers") + " per work-group";
    if (barriers == 0) return "no phases: no barrier (" + per + ")";
    if (!e->phases) return per;
    return std::to_string(*e->phases) + (*e->phases == 1 ? " phase" : " phases") +
           " per work-group (trips round the tile loop; " + per + ")";
}

}  // namespace

SetupCheck check_setup(const SetupForm& form, const DeviceInfo* dev, const DeviceInfo* emulator, const HiddenFigures& hide) {
    SetupCheck out;
    try {
        LaunchConfig config = form_config(form);
        const ResolvedLaunch r = resolve(config);
        out.implied.push_back("NDRange " + r.global_text() + ", work-group " + r.local_text());
        out.implied.push_back(hide(Figure::WorkGroups)
                                  ? std::string("work-groups: ") + kHiddenUntilReveal + " (" + std::to_string(r.group_size()) + " work-items each)"
                                  : std::to_string(r.total_groups()) + " work-groups of " + std::to_string(r.group_size()) + " work-items");
        if (auto phases = phases_line(config, r))
            out.implied.push_back(hide(Figure::PhaseCount) ? std::string("phases per work-group: ") + kHiddenUntilReveal : *phases);
        if (r.local_arg_bytes) out.implied.push_back(std::to_string(r.local_arg_bytes) + " B of local arguments per group");
        out.problem = limit_problem(config, r, emulator, "the emulator (Oclgrind)");
        out.device_problem = limit_problem(config, r, dev, dev ? dev->label() : "");
        if (out.problem.empty() && !emulator) out.problem = out.device_problem;  // no emulator listed yet: the device's limits
        out.config = std::move(config);
    } catch (const std::exception& e) {
        out.problem = in_form_words(e.what());
    }
    return out;
}

std::string local_memory_line(const Trace& t, const DeviceInfo* dev, const HiddenFigures& hide) {
    if (!t.local_buffers.empty() && hide(Figure::LocalBytes)) return std::string("local memory per work-group: ") + kHiddenUntilReveal;
    uint64_t bytes = 0;
    std::string arrays;
    for (const LocalBuffer& l : t.local_buffers) {
        bytes += l.bytes;
        arrays += (arrays.empty() ? "" : " + ") + l.name + " " + grouped(l.bytes) + " B";
    }
    if (bytes == 0) return "";
    std::string line = "local memory per work-group: " + grouped(bytes) + " B (" + arrays + ", traced)";
    // OpenCL's CL_DEVICE_LOCAL_MEM_SIZE is what one work-group may use (48 KB on the H100,
    // whose SM holds 228 KB; 1 MB on PoCL, which runs one group per core): dividing it does
    // not say how many groups share a compute unit. `tilescope occupancy` does, per profile.
    if (dev && dev->local_mem > 0)
        line += "; " + dev->name + " lets a work-group use up to " + grouped(dev->local_mem / 1024) +
                " KB (groups per compute unit: tilescope occupancy)";
    return line;
}

}  // namespace tilescope::ui
