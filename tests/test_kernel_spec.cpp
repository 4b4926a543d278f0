#include <gtest/gtest.h>

#include "core/kernel/catalog.h"
#include "core/base/errors.h"
#include "core/kernel/launch_config.h"
#include "core/device/runner.h"

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

// The ladder's order rules are properties of its data (kernels/ladder.json), checked when
// the catalog is read: "compares_with" names an earlier rung written in OpenCL C, and a
// rung with "library" comes after every OpenCL C rung.
TEST(Catalog, OrderRulesAreStatedByTheData) {
    bool library_seen = false;
    for (size_t i = 0; i < ladder().size(); ++i) {
        const KernelSpec& k = ladder()[i];
        if (!k.library.empty()) library_seen = true;
        else EXPECT_FALSE(library_seen) << k.name << " follows a library rung";
        if (k.compares_with.empty()) continue;
        const KernelSpec* before = find_rung(k.compares_with);
        ASSERT_NE(before, nullptr) << k.name;
        EXPECT_LT(before - ladder().data(), std::ptrdiff_t(i)) << k.name << " compares with a later rung";
        EXPECT_TRUE(before->library.empty()) << k.name;
    }
    // The same rules hold any catalog: each broken one is refused with one line naming the field.
    auto rung = [](const std::string& name, const std::string& extra) {
        return R"({"name": ")" + name + R"(", "file": "naive.cl", "entry": "mm_naive", "global": ["N", "M"],
                  "local": ["TS", "TS"], "args": ["M=int:M", "N=int:N", "K=int:K", "A=matrix:MxK:in",
                  "B=matrix:KxN:in", "C=matrix:MxN:out"], "check": "C=A*B")" + extra + "}";
    };
    const std::string library = R"({"name": "lib", "library": "clblast", "global": ["N", "M"], "local": ["TS", "TS"],
                                    "args": ["A=matrix:MxK:in", "B=matrix:KxN:in", "C=matrix:MxN:out"]})";
    auto catalog = [](const std::vector<std::string>& rungs) {
        std::string s = R"({"rungs": [)";
        for (size_t i = 0; i < rungs.size(); ++i) s += (i ? ", " : "") + rungs[i];
        return s + "]}";
    };
    EXPECT_EQ(parse_catalog(catalog({rung("a", ""), rung("b", R"(, "compares_with": "a")"), library}), "kernels").size(), 3u);
    struct Bad {
        std::vector<std::string> rungs;
        const char* must_mention;
    };
    for (const Bad& bad : std::vector<Bad>{
             {{rung("a", ""), library, rung("b", "")}, "library"},                          // an OpenCL rung after the library
             {{rung("a", R"(, "compares_with": "b")"), rung("b", "")}, "compares_with"},   // a later rung
             {{rung("a", R"(, "compares_with": "a")")}, "compares_with"},                  // itself
             {{rung("a", R"(, "compares_with": "nope")")}, "compares_with"},               // no such rung
             {{rung("a", ""), library, rung("b", R"(, "compares_with": "lib")")}, "library"},  // the library
             {{rung("a", ""), rung("a", "")}, "twice"}}) {                                 // a name twice
        try {
            parse_catalog(catalog(bad.rungs), "kernels");
            ADD_FAILURE() << "accepted: " << catalog(bad.rungs);
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(bad.must_mention), std::string::npos) << e.what();
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        }
    }
}

// ladder.json "pad" may name, under "avoid", multiples a padded extent must not be (cpu_panel:
// N never a multiple of 128 floats, so a column of B spreads over the cache's sets). Read when
// the catalog is; a value that is no multiple of the dimension's pad, not above it, or of no
// dimension is refused in one line naming "avoid".
TEST(Catalog, PadAvoidIsReadAndCheckedWhenTheCatalogIs) {
    auto catalog = [](const std::string& pad) {
        return R"({"rungs": [{"name": "a", "file": "naive.cl", "entry": "mm_naive", "global": ["N", "M"],
                  "local": ["TS", "TS"], "args": ["M=int:M", "N=int:N", "K=int:K", "A=matrix:MxK:in",
                  "B=matrix:KxN:in", "C=matrix:MxN:out"], "check": "C=A*B", "pad": )" + pad + "}]}";
    };
    const std::vector<KernelSpec> ok = parse_catalog(catalog(R"({"N": 16, "avoid": {"N": 128}})"), "kernels");
    ASSERT_TRUE(ok.at(0).pad.has_value());
    EXPECT_EQ(ok[0].pad->N, 16);
    EXPECT_EQ(ok[0].pad->avoid_N, 128);
    EXPECT_EQ(ok[0].pad->avoid_M, 0);
    EXPECT_EQ(ok[0].pad->avoid_K, 0);
    for (const char* bad : {R"({"N": 16, "avoid": {"N": 100}})", R"({"N": 16, "avoid": {"N": 16}})",
                            R"({"N": 16, "avoid": {"X": 128}})", R"({"N": 16, "avoid": {"N": 131072}})"}) {
        try {
            parse_catalog(catalog(bad), "kernels");
            ADD_FAILURE() << "accepted: " << bad;
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("avoid"), std::string::npos) << e.what();
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        }
    }
}

// ladder.json "pad" may name, under "C", the define through which the kernel learns the user's N
// so that C is stored in place on padded copies (warp_tile, splitk: "CN"); anything but the name
// of a define is refused in one line naming "C".
TEST(Catalog, PadCNamesTheDefineThatStoresCInPlace) {
    auto catalog = [](const std::string& pad) {
        return R"({"rungs": [{"name": "a", "file": "naive.cl", "entry": "mm_naive", "global": ["N", "M"],
                  "local": ["TS", "TS"], "args": ["M=int:M", "N=int:N", "K=int:K", "A=matrix:MxK:in",
                  "B=matrix:KxN:in", "C=matrix:MxN:out"], "check": "C=A*B", "pad": )" + pad + "}]}";
    };
    EXPECT_EQ(parse_catalog(catalog(R"({"N": 4, "C": "CN"})"), "kernels").at(0).pad->c_in_place, "CN");
    EXPECT_EQ(parse_catalog(catalog(R"({"N": 4})"), "kernels").at(0).pad->c_in_place, "");
    EXPECT_EQ(find_rung("warp_tile")->pad->c_in_place, "CN");
    EXPECT_EQ(find_rung("splitk")->pad->c_in_place, "CN");
    EXPECT_EQ(find_rung("cpu_panel")->pad->c_in_place, "");  // its C is copied back
    for (const char* bad : {R"({"N": 4, "C": 4})", R"({"N": 4, "C": ""})", R"({"N": 4, "C": "1CN"})",
                            R"({"N": 4, "C": "C N"})", R"({"N": 4, "C": "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFG"})"}) {
        try {
            parse_catalog(catalog(bad), "kernels");
            ADD_FAILURE() << "accepted: " << bad;
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("pad's C"), std::string::npos) << e.what();
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        }
    }
}

// Issue 30 item 4: cpu_panel runs on copies whose rows are a multiple of 16 floats (64-byte
// lines) and never of 128 (512 bytes): at N = 1024 a column of B read every k fell on 32 of
// the 2,048 sets of a 1 MiB 8-way L2, so its panel left the cache however small it was. The
// launch the runner makes instead (padded_config), on a real CPU device; warp_tile as before.
TEST(LaunchConfig, CpuPanelPadsRowsOfBAwayFromMultiplesOf128) {
    DeviceInfo cpu;
    cpu.is_cpu = true;
    const KernelSpec& k = *find_rung("cpu_panel");
    const auto ran_at = [&](const std::string& size) -> std::string {
        const auto p = padded_config(LaunchConfig{k, parse_size(size), k.default_tile}, cpu);
        return p ? p->size.label() : "as asked";
    };
    EXPECT_EQ(ran_at("1024"), "1024x1040x1024");
    EXPECT_EQ(ran_at("1000"), "1000x1008x1000");
    EXPECT_EQ(ran_at("1234"), "1234x1248x1234");
    EXPECT_EQ(ran_at("1152"), "1152x1168x1152");
    EXPECT_EQ(ran_at("2048"), "2048x2064x2048");
    EXPECT_EQ(ran_at("128x120x64"), "128x144x64");  // 120 up to 128, a multiple of 128: 16 more
    EXPECT_EQ(ran_at("64x200x64"), "64x208x64");
    EXPECT_EQ(ran_at("1040"), "as asked");
    EXPECT_EQ(ran_at("1008"), "as asked");
    EXPECT_EQ(ran_at("64"), "as asked");  // 64 floats: a multiple of 16, not of 128
    // warp_tile pads N and K to 4 and avoids nothing.
    const KernelSpec& w = *find_rung("warp_tile");
    EXPECT_FALSE(padded_config(LaunchConfig{w, parse_size("1024"), w.default_tile}, cpu).has_value());
    const auto pw = padded_config(LaunchConfig{w, parse_size("1023"), w.default_tile}, cpu);
    ASSERT_TRUE(pw.has_value());
    EXPECT_EQ(pw->size.label(), "1023x1024x1024");
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
