#include <gtest/gtest.h>

#include "core/kernel/catalog.h"
#include "core/base/errors.h"
#include "core/kernel/launch_config.h"

using namespace tilescope;

TEST(ArgSpec, ParsesEveryKind) {
    ArgSpec a = parse_arg_spec("A=matrix:MxK:colmajor:in");
    EXPECT_EQ(a.kind, ArgSpec::Kind::Matrix);
    EXPECT_EQ(a.rows, "M");
    EXPECT_EQ(a.cols, "K");
    EXPECT_EQ(a.layout, Layout::ColMajor);
    ArgSpec c = parse_arg_spec("C=matrix:MxN:out");
    EXPECT_EQ(c.access, Access::Out);
    EXPECT_EQ(c.layout, Layout::RowMajor);
    ArgSpec w = parse_arg_spec("wA=int:K");
    EXPECT_EQ(w.kind, ArgSpec::Kind::Int);
    ArgSpec l = parse_arg_spec("tile=local:TS*TS");
    EXPECT_EQ(l.kind, ArgSpec::Kind::Local);
    EXPECT_EQ(to_string(a), "A=matrix:MxK:colmajor:in");
}

TEST(ArgSpec, RejectsMalformed) {
    for (const char* bad : {"A", "=int:3", "A=float:3", "A=matrix:M", "A=matrix:MxK:sideways", "A=int:", "A=int:M+",
                            "A=matrix:MxKxN", "1A=int:3", "A=local:TS:TS"})
        EXPECT_THROW(parse_arg_spec(bad), InputError) << bad;
}

TEST(Catalog, HoldsTheLadderInLessonOrder) {
    std::vector<std::string> names;
    for (const KernelSpec& k : ladder()) names.push_back(k.name);
    ASSERT_GE(names.size(), 5u);
    EXPECT_EQ(names[0], "naive");
    EXPECT_EQ(names[1], "row");
    EXPECT_EQ(names[2], "row_private");
    EXPECT_EQ(names[3], "row_private_local");
    EXPECT_EQ(names[4], "tiled");
    for (const KernelSpec& k : ladder()) {
        if (!k.library.empty()) continue;
        EXPECT_FALSE(k.source.empty()) << k.name;
        EXPECT_EQ(k.source.rfind("// Rung", 0), 0u) << k.name << " must open with the lesson it teaches";
        EXPECT_TRUE(k.check.has_value()) << k.name;
    }
}

TEST(LaunchConfig, TiledNDRangeRoundsUpToWholeGroups) {
    LaunchConfig c{*find_rung("tiled"), parse_size("37x29x45"), 8};
    const ResolvedLaunch r = resolve(c);
    EXPECT_EQ(r.dims, 2);
    EXPECT_EQ(r.global[0], 32u);  // N=29 -> 32
    EXPECT_EQ(r.global[1], 40u);  // M=37 -> 40
    EXPECT_EQ(r.local[0], 8u);
    EXPECT_EQ(r.total_groups(), 20u);
    EXPECT_NE(r.build_options.find("-D TS=8"), std::string::npos);
    EXPECT_DOUBLE_EQ(r.flops, 2.0 * 37 * 29 * 45);
    const ResolvedArg* a = r.find("A");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->rows, 37);
    EXPECT_EQ(a->cols, 45);
}

TEST(LaunchConfig, RowPrivateLocalSizesItsLocalColumnByK) {
    LaunchConfig c{*find_rung("row_private_local"), parse_size("64x32x48"), 16};
    const ResolvedLaunch r = resolve(c);
    EXPECT_EQ(r.local_arg_bytes, 48u * 4);
    EXPECT_NE(r.build_options.find("-D KMAX=48"), std::string::npos);
}

TEST(LaunchConfig, CustomCheckCountsFlopsOfTheProduct) {
    KernelSpec k = *find_rung("naive");
    k.args = {parse_arg_spec("A=matrix:MxK"), parse_arg_spec("B=matrix:KxN"), parse_arg_spec("C=matrix:MxK")};
    k.check = parse_check_spec("C=A*B");
    LaunchConfig c{k, parse_size("8x8x4"), 4};
    EXPECT_THROW(resolve(c), InputError);  // C is 8x4 but A*B is 8x8
}
