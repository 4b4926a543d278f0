// Work-groups per compute unit (issue 33, item 3): the slides' shared-memory table worked
// by hand (16 KB and 1536 threads per SM: 8 blocks of 2 KB, 2 blocks of 8 KB, 1 block of
// 1024 threads), each limit's closed form on made-up profiles, groups that cannot launch,
// and profiles that are wrong (one InputError naming the field).
#include <gtest/gtest.h>

#include <algorithm>

#include "core/base/errors.h"
#include "core/base/number_text.h"
#include "core/caches/occupancy.h"

using namespace tilescope;

namespace {

OccupancyProfile made_up(uint64_t local_kb, uint32_t threads, uint32_t groups, uint32_t reserved = 0) {
    OccupancyProfile p;
    p.name = "made-up";
    p.local_bytes_per_cu = local_kb * 1024;
    p.threads_per_cu = threads;
    p.groups_per_cu = groups;
    p.group_threads_max = 1024;
    p.group_local_max = local_kb * 1024;
    p.reserved_bytes_per_group = reserved;
    return p;
}

Occupancy tiled(const OccupancyProfile& p, uint32_t tsx, uint32_t tsy) {
    return occupancy(p, tsx * tsy, tiled_local_bytes(tsx, tsy));
}

}  // namespace

TEST(Occupancy, TiledLocalBytesAreTwoFloatTiles) {
    EXPECT_EQ(tiled_local_bytes(16, 16), 2u * 256 * 4);  // the slide's 2 KB
    EXPECT_EQ(tiled_local_bytes(32, 32), 8192u);         // the slide's 8 KB
    EXPECT_EQ(tiled_local_bytes(32, 16), 4096u);
}

TEST(Occupancy, TheSlidesTableFromTheSlideProfile) {
    const OccupancyProfile p = load_occupancy_profile("slide");
    EXPECT_EQ(p.local_bytes_per_cu, 16u * 1024);
    EXPECT_EQ(p.threads_per_cu, 1536u);
    // TILE_WIDTH 16: 16 KB / 2 KB = 8 blocks by shared memory, as the slide says; the
    // 1536 threads hold 6 of 256, which the slide does not add, so 6 are resident.
    const Occupancy t16 = tiled(p, 16, 16);
    EXPECT_EQ(t16.by_local, 8u);
    EXPECT_EQ(t16.by_threads, 6u);
    EXPECT_EQ(t16.groups, 6u);
    EXPECT_EQ(t16.limit, "threads");
    // TILE_WIDTH 32: 16 KB / 8 KB = 2 by shared memory, 1536 / 1024 = 1 by threads.
    const Occupancy t32 = tiled(p, 32, 32);
    EXPECT_EQ(t32.by_local, 2u);
    EXPECT_EQ(t32.by_threads, 1u);
    EXPECT_EQ(t32.groups, 1u);
    EXPECT_EQ(t32.limit, "threads");
    EXPECT_DOUBLE_EQ(t32.thread_share, 1024.0 / 1536.0);
    EXPECT_TRUE(t32.launches);
    // Quiz 1's blocks of 512 threads (32x16): 4 by 4 KB each, 3 by threads.
    const Occupancy q = tiled(p, 32, 16);
    EXPECT_EQ(q.by_local, 4u);
    EXPECT_EQ(q.by_threads, 3u);
    EXPECT_EQ(q.groups, 3u);
    EXPECT_DOUBLE_EQ(q.thread_share, 1.0);
}

TEST(Occupancy, EachLimitIsItsOwnClosedForm) {
    // Over a grid of made-up units and groups, each limit is the floor the header states
    // and the result is the least of them.
    for (uint64_t kb : {1u, 16u, 48u, 100u})
        for (uint32_t threads : {0u, 1000u, 2048u})
            for (uint32_t cap : {0u, 3u, 32u})
                for (uint32_t reserved : {0u, 1024u})
                    for (uint32_t t : {1u, 7u, 64u, 256u, 1024u}) {
                        const OccupancyProfile p = made_up(kb, threads, cap, reserved);
                        const uint64_t local = 12ull * t;
                        const Occupancy o = occupancy(p, t, local);
                        if (local > p.group_local_max) {
                            EXPECT_FALSE(o.launches);
                            continue;
                        }
                        const uint64_t by_local = kb * 1024 / (local + reserved);
                        EXPECT_EQ(o.by_local, by_local);
                        EXPECT_EQ(o.by_threads, threads ? threads / t : kNoLimit);
                        EXPECT_EQ(o.by_groups, cap ? cap : kNoLimit);
                        const uint64_t least = std::min<uint64_t>({by_local, threads ? threads / t : kNoLimit,
                                                                    cap ? cap : kNoLimit});
                        EXPECT_EQ(o.groups, least) << kb << " KB, " << threads << " threads, cap " << cap << ", " << t;
                        EXPECT_EQ(o.launches, least > 0);
                    }
}

TEST(Occupancy, TheCapOnGroupsBindsOnTheH100) {
    // 4x4 groups: 128 B of tiles + 1 KB reserved -> 228 KB / 1152 B = 202; 2048 / 16 = 128
    // threads; the SM's 32 blocks bind.
    const OccupancyProfile p = load_occupancy_profile("h100");
    const Occupancy o = tiled(p, 4, 4);
    EXPECT_EQ(o.by_local, 228u * 1024 / (128 + 1024));
    EXPECT_EQ(o.by_threads, 128u);
    EXPECT_EQ(o.groups, 32u);
    EXPECT_EQ(o.limit, "groups per unit");
    // 32x32: 8 KB + 1 KB -> 25 by local memory, 2 by threads.
    const Occupancy big = tiled(p, 32, 32);
    EXPECT_EQ(big.by_local, 25u);
    EXPECT_EQ(big.groups, 2u);
}

TEST(Occupancy, PoclHoldsOneGroupPerCoreThoughItsLocalMemoryFits512) {
    const OccupancyProfile p = load_occupancy_profile("cpu");
    const Occupancy o = tiled(p, 16, 16);
    EXPECT_EQ(o.by_local, 512u);  // the 512 the issue saw PoCL report room for
    EXPECT_EQ(o.by_threads, kNoLimit);
    EXPECT_EQ(o.groups, 1u);
    EXPECT_EQ(o.limit, "groups per unit");
}

TEST(Occupancy, GroupsPastAPerGroupLimitDoNotLaunch) {
    const OccupancyProfile p = load_occupancy_profile("slide");
    const Occupancy o = tiled(p, 64, 32);  // 2048 work-items > 1024
    EXPECT_FALSE(o.launches);
    EXPECT_EQ(o.groups, 0u);
    EXPECT_NE(o.why_not.find("1024"), std::string::npos);
    const Occupancy too_much_local = occupancy(p, 64, 17 * 1024);
    EXPECT_FALSE(too_much_local.launches);
    EXPECT_NE(too_much_local.why_not.find("local memory"), std::string::npos);
    EXPECT_FALSE(occupancy(p, 0, 0).launches);
}

TEST(Occupancy, EveryProfileLoadsAndTheTableNamesEachLimit) {
    const auto names = occupancy_profile_names();
    for (const char* want : {"slide", "h100", "h200", "cpu"})
        EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
    for (const std::string& n : names) {
        const OccupancyProfile p = load_occupancy_profile(n);
        EXPECT_FALSE(p.source.empty()) << n;
        const std::string table = occupancy_table(p, {tiled(p, 16, 16)});
        EXPECT_NE(table.find("by local"), std::string::npos);
        const auto j = occupancy_json(p, {tiled(p, 16, 16)});
        EXPECT_EQ(j.at("rows").size(), 1u);
    }
}

TEST(Occupancy, BadProfilesNameTheField) {
    auto message = [](const std::string& text) {
        try {
            parse_occupancy_profile("bad", text);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    const std::string good = R"({"local_kb_per_cu": 16, "threads_per_cu": 1536, "groups_per_cu": 0,
        "group_threads_max": 1024, "group_local_kb_max": 16, "reserved_bytes_per_group": 0, "cus": 0})";
    EXPECT_EQ(message(good), "accepted");
    EXPECT_NE(message("[1]").find("not a JSON object"), std::string::npos);
    EXPECT_NE(message("{").find("not a JSON object"), std::string::npos);
    std::string zero = good;
    zero.replace(zero.find("16"), 2, "0");
    EXPECT_NE(message(zero).find("local_kb_per_cu"), std::string::npos);
    std::string negative = good;
    negative.replace(negative.find("1536"), 4, "-1");
    EXPECT_NE(message(negative).find("threads_per_cu"), std::string::npos);
    std::string text = good;
    text.replace(text.find("1024"), 4, "\"many\"");
    EXPECT_NE(message(text).find("group_threads_max"), std::string::npos);
    std::string bigger = good;
    bigger.replace(bigger.find("\"group_local_kb_max\": 16"), 24, "\"group_local_kb_max\": 32");
    EXPECT_NE(message(bigger).find("exceeds"), std::string::npos);
    EXPECT_THROW(load_occupancy_profile("nope"), InputError);
}

// The table the set-up panel and the hand-out draw for the launch on screen: one row per
// built-in profile, each the same occupancy() as the profile's own (so the slide's 8 and 6
// at TILE_WIDTH 16, 2 and 1 at 32), cells in the headings' order.
TEST(Occupancy, AcrossProfilesIsOneRowPerProfileWithTheSlidesFigures) {
    const auto names = occupancy_profile_names();
    for (const auto& [t, bytes] : {std::pair{256u, 2048ull}, std::pair{1024u, 8192ull}, std::pair{512u, 4096ull},
                                   std::pair{4u, 32ull}, std::pair{2048u, 8192ull}}) {
        const auto rows = occupancy_across_profiles(t, bytes);
        ASSERT_EQ(rows.size(), names.size());
        for (size_t i = 0; i < rows.size(); ++i) {
            const OccupancyProfile p = load_occupancy_profile(names[i]);
            const Occupancy want = occupancy(p, t, bytes);
            const ProfileOccupancy& r = rows[i];
            EXPECT_EQ(r.profile, names[i]);
            EXPECT_EQ(r.occupancy.groups, want.groups);
            EXPECT_EQ(r.occupancy.by_local, want.by_local);
            EXPECT_EQ(r.occupancy.by_threads, want.by_threads);
            EXPECT_EQ(r.occupancy.launches, want.launches);
            // The unit's local memory in KB, as the profile gives it.
            EXPECT_EQ(r.unit.rfind(grouped(p.local_bytes_per_cu / 1024) + " KB", 0), 0u) << r.unit;
            const auto cells = occupancy_row_cells(r);
            ASSERT_EQ(cells.size(), occupancy_row_headings().size());
            EXPECT_EQ(cells[1], occupancy_limit_text(want.by_local));
            EXPECT_EQ(cells[2], occupancy_limit_text(want.by_threads));
            EXPECT_EQ(cells[4], want.launches ? std::to_string(want.groups) : "-");
            if (!want.launches) EXPECT_NE(cells[5].find("does not launch"), std::string::npos);
        }
        const auto j = occupancy_across_json(rows);
        ASSERT_EQ(j.size(), rows.size());
        EXPECT_EQ(j[0].at("cells").size(), occupancy_row_headings().size());
    }
    auto slide = [](uint32_t t, uint64_t bytes) {
        for (const ProfileOccupancy& r : occupancy_across_profiles(t, bytes))
            if (r.profile == "slide") return r;
        ADD_FAILURE() << "no slide profile";
        return ProfileOccupancy{};
    };
    // The slide: 16 KB / 2 KB = 8 blocks by shared memory (1536 / 256 = 6 by threads);
    // 16 KB / 8 KB = 2, and 1536 threads hold one block of 1024.
    const auto t16 = occupancy_row_cells(slide(256, 2048));
    EXPECT_EQ(t16[0], "slide (16 KB, 1,536 work-items)");
    EXPECT_EQ(t16[1], "8");
    EXPECT_EQ(t16[2], "6");
    EXPECT_EQ(t16[3], "-");
    EXPECT_EQ(occupancy_sentence(slide(256, 2048)), "slide (16 KB, 1,536 work-items): 8 by local memory, 6 by threads, 6 at once");
    EXPECT_EQ(occupancy_sentence(slide(1024, 8192)), "slide (16 KB, 1,536 work-items): 2 by local memory, 1 by threads, 1 at once");
    EXPECT_EQ(occupancy_sentence(slide(2048, 8192)).rfind("slide (16 KB, 1,536 work-items): does not launch: 2048 work-items", 0), 0u);
    const auto t32 = occupancy_row_cells(slide(1024, 8192));
    EXPECT_EQ(t32[1], "2");
    EXPECT_EQ(t32[4], "1");
    EXPECT_EQ(t32[5], "threads");
}
