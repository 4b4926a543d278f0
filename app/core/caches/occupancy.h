#pragma once
// How many work-groups one compute unit holds at once (the slides' "blocks per SM"), from
// a device profile kept as data (assets/occupancy/*.json), as the cache profiles are for
// caches. Three limits are counted apart, each its own closed form: the unit's local
// memory over what a group takes, the unit's thread slots over the group's work-items,
// and the unit's cap on resident groups. Registers are not modelled (the profiles say so).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tilescope {

struct OccupancyProfile {
    std::string name;    // file name without .json: "slide", "h100", "cpu"
    std::string title;
    std::string source;  // where the figures come from
    std::string notes;   // what the table leaves out for this device
    uint64_t local_bytes_per_cu = 0;     // local (shared) memory a compute unit holds
    uint32_t threads_per_cu = 0;         // resident work-items per unit; 0: no such limit
    uint32_t groups_per_cu = 0;          // resident work-groups per unit; 0: no such limit
    uint32_t group_threads_max = 0;      // work-items per work-group
    uint64_t group_local_max = 0;        // local bytes one work-group may take
    uint32_t reserved_bytes_per_group = 0;  // local memory the system keeps per group (CUDA: 1 KB)
    uint32_t cus = 0;                    // compute units; 0: not stated
};

// Profiles compiled into the binary (assets/occupancy/), by name, sorted.
std::vector<std::string> occupancy_profile_names();
// Throws InputError naming `option` and the accepted names when unknown.
OccupancyProfile load_occupancy_profile(const std::string& name, const std::string& option = "--profile");
// Parses and validates one profile's text; throws InputError naming the field that is wrong.
OccupancyProfile parse_occupancy_profile(const std::string& name, const std::string& text);

constexpr uint32_t kNoLimit = std::numeric_limits<uint32_t>::max();

struct Occupancy {
    std::string group;        // how the caller names the work-group: "16x16"
    uint32_t group_threads = 0;
    uint64_t group_local_bytes = 0;
    bool launches = true;     // false: the group exceeds a per-group limit (why_not says which)
    std::string why_not;
    uint32_t by_local = kNoLimit;    // floor(local per unit / (group's local + reserved))
    uint32_t by_threads = kNoLimit;  // floor(threads per unit / group's work-items)
    uint32_t by_groups = kNoLimit;   // the unit's cap on resident groups
    uint32_t groups = 0;             // the least of the three (0 when it does not launch)
    std::string limit;               // "local memory", "threads" or "groups per unit" (the first that binds)
    double thread_share = 0;         // groups * work-items / threads per unit (0 when no thread limit)
};

// Work-groups of `group_threads` work-items taking `group_local_bytes` of local memory each.
Occupancy occupancy(const OccupancyProfile& profile, uint32_t group_threads, uint64_t group_local_bytes);

// The tiled rung's local memory for a TSX x TSY work-group: a float tile of A and one of B,
// each TSX x TSY (the slide's 2 x TILE_WIDTH^2 x 4 B).
uint64_t tiled_local_bytes(uint32_t tsx, uint32_t tsy);

nlohmann::json occupancy_json(const OccupancyProfile& profile, const std::vector<Occupancy>& rows);
// The terminal table: one line per row, each limit in its own column.
std::string occupancy_table(const OccupancyProfile& profile, const std::vector<Occupancy>& rows);

// One work-group on every built-in profile (profile-name order): the table the set-up panel
// and the hand-out draw beside a trace's local memory, so the room sees the slides' "blocks
// per SM" (the slide's SM, the H100, the H200, this workplace's CPU) for the launch on screen.
struct ProfileOccupancy {
    std::string profile;  // "slide"
    std::string unit;     // the unit in a few words: "16 KB, 1,536 work-items"
    Occupancy occupancy;
};
std::vector<ProfileOccupancy> occupancy_across_profiles(uint32_t group_threads, uint64_t group_local_bytes);
// The same for a trace's own work-group: its work-items (the local size) and the bytes of its
// local arrays and arguments, as traced. Empty when it takes no local memory.
struct Trace;
std::vector<ProfileOccupancy> occupancy_of_trace(const Trace& trace);
// A limit as a table shows it: the number, or "-" for kNoLimit.
std::string occupancy_limit_text(uint32_t limit);
// The cells of one row: profile (unit), by local memory, by threads, by the unit's cap,
// groups at once, limited by (or why the group does not launch).
std::vector<std::string> occupancy_row_cells(const ProfileOccupancy& row);
// The column headings of occupancy_row_cells.
std::vector<std::string> occupancy_row_headings();
// One row in words, for a narrow column (the lesson strip): "slide (16 KB, 1,536 work-items):
// 8 by local memory, 6 by threads, 6 at once". Limits the profile does not state are left out.
std::string occupancy_sentence(const ProfileOccupancy& row);
// {profile, unit, cells, groups_per_cu, by_local, by_threads, by_groups, limit, launches} per row.
nlohmann::json occupancy_across_json(const std::vector<ProfileOccupancy>& rows);

}  // namespace tilescope
