#include "core/caches/occupancy.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "core/base/embedded_files.h"
#include "core/base/errors.h"
#include "core/base/number_text.h"
#include "core/trace/trace.h"

namespace tilescope {
using nlohmann::json;

namespace {

constexpr std::string_view kProfileDir = "assets/occupancy/";

// A field that must be a whole number in [lo, hi]; names the profile and the field when not.
uint64_t whole(const json& j, const std::string& profile, const char* field, uint64_t lo, uint64_t hi) {
    if (!j.contains(field) || !j.at(field).is_number_unsigned())
        throw InputError("occupancy profile " + profile + ": \"" + field + "\" must be a whole number from " +
                         std::to_string(lo) + " to " + std::to_string(hi));
    const uint64_t v = j.at(field).get<uint64_t>();
    if (v < lo || v > hi)
        throw InputError("occupancy profile " + profile + ": \"" + field + "\" is " + std::to_string(v) +
                         "; accepted: " + std::to_string(lo) + " to " + std::to_string(hi));
    return v;
}

std::string text(const json& j, const char* field, const std::string& fallback) {
    return j.contains(field) && j.at(field).is_string() ? j.at(field).get<std::string>() : fallback;
}

std::string limit_text(uint32_t v) { return v == kNoLimit ? "-" : std::to_string(v); }

std::string unit_words(const OccupancyProfile& p) {
    std::string s = grouped(p.local_bytes_per_cu / 1024) + " KB";
    if (p.threads_per_cu) s += ", " + grouped(p.threads_per_cu) + " work-items";
    if (p.groups_per_cu) s += ", " + grouped(p.groups_per_cu) + (p.groups_per_cu == 1 ? " group" : " groups");
    return s;
}

}  // namespace

std::vector<std::string> occupancy_profile_names() {
    return embedded_names_in(kProfileDir, ".json");
}

OccupancyProfile parse_occupancy_profile(const std::string& name, const std::string& body) {
    const json j = json::parse(body, nullptr, false);
    if (!j.is_object()) throw InputError("occupancy profile " + name + ": not a JSON object");
    OccupancyProfile p;
    p.name = name;
    p.title = text(j, "title", name);
    p.source = text(j, "source", "");
    p.notes = text(j, "notes", "");
    constexpr uint64_t kMaxKb = 1 << 20;  // 1 GiB of local memory: far past any device
    p.local_bytes_per_cu = whole(j, name, "local_kb_per_cu", 1, kMaxKb) * 1024;
    p.threads_per_cu = static_cast<uint32_t>(whole(j, name, "threads_per_cu", 0, 1 << 20));
    p.groups_per_cu = static_cast<uint32_t>(whole(j, name, "groups_per_cu", 0, 1 << 20));
    p.group_threads_max = static_cast<uint32_t>(whole(j, name, "group_threads_max", 1, 1 << 20));
    p.group_local_max = whole(j, name, "group_local_kb_max", 1, kMaxKb) * 1024;
    p.reserved_bytes_per_group = static_cast<uint32_t>(whole(j, name, "reserved_bytes_per_group", 0, 1 << 20));
    p.cus = static_cast<uint32_t>(whole(j, name, "cus", 0, 1 << 20));
    if (p.group_local_max > p.local_bytes_per_cu)
        throw InputError("occupancy profile " + name + ": \"group_local_kb_max\" exceeds \"local_kb_per_cu\"");
    return p;
}

OccupancyProfile load_occupancy_profile(const std::string& name, const std::string& option) {
    const std::string path = std::string(kProfileDir) + name + ".json";
    for (const EmbeddedFile& f : embedded_files())
        if (f.path == path) return parse_occupancy_profile(name, std::string(f.text));
    std::string accepted;
    for (const std::string& n : occupancy_profile_names()) accepted += (accepted.empty() ? "" : ", ") + n;
    throw InputError(option + " " + shown(name) + ": no such occupancy profile; accepted: " + accepted);
}

uint64_t tiled_local_bytes(uint32_t tsx, uint32_t tsy) { return 2ull * tsx * tsy * sizeof(float); }

Occupancy occupancy(const OccupancyProfile& p, uint32_t group_threads, uint64_t group_local_bytes) {
    Occupancy o;
    o.group_threads = group_threads;
    o.group_local_bytes = group_local_bytes;
    if (group_threads == 0) {
        o.launches = false;
        o.why_not = "a work-group needs at least one work-item";
        return o;
    }
    if (group_threads > p.group_threads_max) {
        o.launches = false;
        o.why_not = std::to_string(group_threads) + " work-items exceed the " + std::to_string(p.group_threads_max) +
                    " a work-group may have";
    } else if (group_local_bytes > p.group_local_max) {
        o.launches = false;
        o.why_not = std::to_string(group_local_bytes) + " B of local memory exceed the " +
                    std::to_string(p.group_local_max) + " B a work-group may take";
    }
    const uint64_t taken = group_local_bytes + p.reserved_bytes_per_group;
    if (taken > 0) o.by_local = static_cast<uint32_t>(std::min<uint64_t>(p.local_bytes_per_cu / taken, kNoLimit - 1));
    if (p.threads_per_cu > 0) o.by_threads = p.threads_per_cu / group_threads;
    if (p.groups_per_cu > 0) o.by_groups = p.groups_per_cu;
    if (!o.launches) return o;
    o.groups = std::min({o.by_local, o.by_threads, o.by_groups});
    if (o.groups == kNoLimit) {  // nothing binds: a profile with no thread or group cap and no local memory taken
        o.groups = 0;
        o.limit = "none (the profile states no limit this group meets)";
        return o;
    }
    o.limit = o.groups == o.by_local ? "local memory" : o.groups == o.by_threads ? "threads" : "groups per unit";
    if (o.groups == 0) {
        o.launches = false;
        o.why_not = "one work-group needs more " + o.limit + " than a unit has";
    }
    if (p.threads_per_cu > 0)
        o.thread_share = static_cast<double>(o.groups) * group_threads / p.threads_per_cu;
    return o;
}

json occupancy_json(const OccupancyProfile& p, const std::vector<Occupancy>& rows) {
    auto limit = [](uint32_t v) { return v == kNoLimit ? json(nullptr) : json(v); };
    json list = json::array();
    for (const Occupancy& o : rows) {
        json r = {{"group", o.group},
                  {"group_threads", o.group_threads},
                  {"group_local_bytes", o.group_local_bytes},
                  {"launches", o.launches},
                  {"by_local", limit(o.by_local)},
                  {"by_threads", limit(o.by_threads)},
                  {"by_groups", limit(o.by_groups)},
                  {"groups_per_cu", o.groups},
                  {"limit", o.limit},
                  {"thread_share", o.thread_share}};
        if (!o.launches) r["why_not"] = o.why_not;
        list.push_back(std::move(r));
    }
    return {{"profile", p.name},
            {"title", p.title},
            {"source", p.source},
            {"notes", p.notes},
            {"local_bytes_per_cu", p.local_bytes_per_cu},
            {"threads_per_cu", p.threads_per_cu},
            {"groups_per_cu", p.groups_per_cu},
            {"group_threads_max", p.group_threads_max},
            {"group_local_max", p.group_local_max},
            {"reserved_bytes_per_group", p.reserved_bytes_per_group},
            {"cus", p.cus},
            {"rows", list}};
}

std::string occupancy_table(const OccupancyProfile& p, const std::vector<Occupancy>& rows) {
    std::string out = p.name + ": " + p.title + "\n";
    char buf[256];
    const std::string threads = p.threads_per_cu ? "at most " + std::to_string(p.threads_per_cu) + " work-items" : "no cap on work-items";
    const std::string groups = p.groups_per_cu ? "at most " + std::to_string(p.groups_per_cu) + " groups" : "no cap on groups";
    std::snprintf(buf, sizeof buf, "  a unit: %llu KB of local memory, %s, %s; a group: up to %u work-items and %llu KB\n",
                  static_cast<unsigned long long>(p.local_bytes_per_cu / 1024), threads.c_str(), groups.c_str(),
                  p.group_threads_max, static_cast<unsigned long long>(p.group_local_max / 1024));
    out += buf;
    std::snprintf(buf, sizeof buf, "  %-9s %10s %10s | %9s %10s %10s | %13s  %s\n", "group", "work-items", "local B",
                  "by local", "by threads", "by groups", "groups per CU", "limited by");
    out += buf;
    for (const Occupancy& o : rows) {
        std::snprintf(buf, sizeof buf, "  %-9s %10u %10llu | %9s %10s %10s | %13s  %s\n", o.group.c_str(), o.group_threads,
                      static_cast<unsigned long long>(o.group_local_bytes), limit_text(o.by_local).c_str(),
                      limit_text(o.by_threads).c_str(), limit_text(o.by_groups).c_str(),
                      o.launches ? std::to_string(o.groups).c_str() : "-",
                      o.launches ? o.limit.c_str() : ("does not launch: " + o.why_not).c_str());
        out += buf;
    }
    return out;
}

std::string occupancy_limit_text(uint32_t limit) { return limit_text(limit); }

std::vector<ProfileOccupancy> occupancy_across_profiles(uint32_t group_threads, uint64_t group_local_bytes) {
    std::vector<ProfileOccupancy> rows;
    for (const std::string& name : occupancy_profile_names()) {
        const OccupancyProfile p = load_occupancy_profile(name);
        rows.push_back({p.name, unit_words(p), occupancy(p, group_threads, group_local_bytes)});
    }
    return rows;
}

std::vector<ProfileOccupancy> occupancy_of_trace(const Trace& t) {
    uint64_t bytes = 0;
    for (const LocalBuffer& l : t.local_buffers) bytes += l.bytes;
    const uint64_t items = t.local[0] * t.local[1] * t.local[2];
    if (bytes == 0 || items == 0 || items > kNoLimit) return {};
    return occupancy_across_profiles(static_cast<uint32_t>(items), bytes);
}

std::vector<std::string> occupancy_row_headings() {
    return {"profile (one unit)", "by local memory", "by threads", "unit's cap", "groups at once", "limited by"};
}

std::vector<std::string> occupancy_row_cells(const ProfileOccupancy& r) {
    const Occupancy& o = r.occupancy;
    return {r.profile + " (" + r.unit + ")", limit_text(o.by_local), limit_text(o.by_threads), limit_text(o.by_groups),
            o.launches ? std::to_string(o.groups) : "-", o.launches ? o.limit : "does not launch: " + o.why_not};
}

std::string occupancy_sentence(const ProfileOccupancy& r) {
    const Occupancy& o = r.occupancy;
    std::string out = r.profile + " (" + r.unit + "): ";
    if (!o.launches) return out + "does not launch: " + o.why_not;
    std::string limits;
    for (const auto& [v, what] : {std::pair{o.by_local, "by local memory"}, std::pair{o.by_threads, "by threads"},
                                  std::pair{o.by_groups, "by the unit's cap"}})
        if (v != kNoLimit) limits += (limits.empty() ? "" : ", ") + std::to_string(v) + " " + what;
    return out + limits + ", " + std::to_string(o.groups) + " at once";
}

json occupancy_across_json(const std::vector<ProfileOccupancy>& rows) {
    auto limit = [](uint32_t v) { return v == kNoLimit ? json(nullptr) : json(v); };
    json list = json::array();
    for (const ProfileOccupancy& r : rows)
        list.push_back({{"profile", r.profile},
                        {"unit", r.unit},
                        {"cells", occupancy_row_cells(r)},
                        {"groups_per_cu", r.occupancy.groups},
                        {"by_local", limit(r.occupancy.by_local)},
                        {"by_threads", limit(r.occupancy.by_threads)},
                        {"by_groups", limit(r.occupancy.by_groups)},
                        {"limit", r.occupancy.limit},
                        {"launches", r.occupancy.launches}});
    return list;
}

}  // namespace tilescope
