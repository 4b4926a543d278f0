#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "args/options.h"
#include "core/base/atomic_file.h"
#include "core/base/errors.h"
#include "core/caches/occupancy.h"

namespace tilescope::cli {
namespace {

// "16" (a 16x16 group) or "32x16" (TSX x TSY): each side 1 to 4096.
std::pair<uint32_t, uint32_t> parse_group(const std::string& v) {
    const std::string accepted = "; accepted: T or TSXxTSY, each side a whole number from 1 to 4096 (16, 32x16)";
    auto side = [&](const std::string& s) -> uint32_t {
        if (s.empty() || s.size() > 4 || s.find_first_not_of("0123456789") != std::string::npos)
            throw InputError("--group " + shown(v) + accepted);
        const unsigned long n = std::stoul(s);
        if (n < 1 || n > 4096) throw InputError("--group " + shown(v) + accepted);
        return static_cast<uint32_t>(n);
    };
    const size_t x = v.find('x');
    if (x == std::string::npos) {
        const uint32_t t = side(v);
        return {t, t};
    }
    return {side(v.substr(0, x)), side(v.substr(x + 1))};
}

}  // namespace

int cmd_occupancy(const std::vector<std::string>& args) {
    Options o("occupancy", {"profile", "group", "json"}, {"help"});
    o.parse(args);
    if (o.has("help")) {
        std::cout << "usage: tilescope occupancy [--profile P[,P..]] [--group T|TSXxTSY[,..]] [--json PATH|-]\n"
                     "Work-groups one compute unit (an SM) holds at once for the tiled rung's work-groups of\n"
                     "TSX x TSY work-items, each taking two float tiles of TSX x TSY in local memory, as the\n"
                     "slides' shared-memory table counts them: limited by local memory, by threads and by the\n"
                     "unit's cap on groups, each shown. Profiles are data (assets/occupancy/*.json): slide (the\n"
                     "slides' 16 KB / 1536-thread SM), h100, h200, cpu (PoCL here). Default: every profile,\n"
                     "groups 4,8,16,32,32x16.\n";
        return 0;
    }
    const auto json_path = o.get("json");
    if (json_path) check_writable(*json_path, "--json");
    std::vector<std::string> names = o.list("profile");
    if (names.empty()) names = occupancy_profile_names();
    std::vector<std::string> groups = o.list("group");
    if (groups.empty()) groups = {"4", "8", "16", "32", "32x16"};
    std::vector<std::pair<uint32_t, uint32_t>> sizes;
    for (const std::string& g : groups) sizes.push_back(parse_group(g));
    std::vector<OccupancyProfile> profiles;
    for (const std::string& n : names) profiles.push_back(load_occupancy_profile(n));

    nlohmann::json all = nlohmann::json::array();
    std::string table;
    for (const OccupancyProfile& p : profiles) {
        std::vector<Occupancy> rows;
        for (const auto& [tx, ty] : sizes) {
            Occupancy r = occupancy(p, tx * ty, tiled_local_bytes(tx, ty));
            r.group = std::to_string(tx) + "x" + std::to_string(ty);
            rows.push_back(std::move(r));
        }
        all.push_back(occupancy_json(p, rows));
        table += occupancy_table(p, rows) + "\n";
    }
    if (json_path)
        write_file_atomically(*json_path, nlohmann::json{{"profiles", all}}.dump(2) + "\n", "--json");
    if (!json_path || *json_path != "-") std::cout << table;
    return 0;
}

}  // namespace tilescope::cli
