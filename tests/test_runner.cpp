// Runs real kernels on PoCL (the CPU OpenCL device every set-up installs).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "catalog_params.h"
#include "core/kernel/catalog.h"
#include "core/base/errors.h"
#include "core/device/matrix.h"
#include "core/device/runner.h"

using namespace tilescope;

namespace {

const DeviceInfo& pocl() { return select_device("pocl"); }

Measurement measure(const KernelSpec& k, const std::string& size, int tile) {
    Runner r(pocl());
    RunOptions o;
    o.reps = 1;
    o.warmup = 0;
    return r.measure(LaunchConfig{k, parse_size(size), tile}, o);
}

KernelSpec custom(const std::string& file, const std::string& entry, std::vector<std::string> global,
                  std::vector<std::string> local, std::vector<std::string> args, std::vector<std::string> defines = {}) {
    CustomKernelOptions c;
    c.source_path = std::string(TILESCOPE_TEST_DATA) + "/" + file;
    c.entry = entry;
    c.global = std::move(global);
    c.local = std::move(local);
    c.args = std::move(args);
    c.defines = std::move(defines);
    c.check = "C=A*B";
    return load_custom_kernel(c);
}

}  // namespace

TEST(Devices, ListsPoclAndTheEmulator) {
    bool has_pocl = false, has_emulator = false;
    for (const DeviceInfo& d : all_devices()) {
        has_pocl |= d.platform.find("Portable Computing Language") != std::string::npos;
        has_emulator |= d.is_emulator;
    }
    EXPECT_TRUE(has_pocl);
    EXPECT_TRUE(has_emulator);
    EXPECT_FALSE(select_device("").is_emulator);
    EXPECT_TRUE(select_device("emulator").is_emulator);
    EXPECT_THROW(select_device("no-such-device"), InputError);
    EXPECT_THROW(select_device("9:9"), InputError);
}

// Every rung of the catalog (kernels/ladder.json), the library included, verifies at a
// square size at its default tile and at sizes that are multiples of nothing (partial
// tiles, partial vectors, unaligned rows) at its smallest tile and its default one.
class EveryRung : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryRung, VerifiesSquareAndNonMultipleSizes) {
    const KernelSpec* k = find_rung(GetParam());
    ASSERT_NE(k, nullptr);
    ASSERT_FALSE(k->tiles.empty()) << GetParam() << ": ladder.json \"tiles\" is empty";
    const int smallest = k->tiles.front(), standard = k->default_tile;
    for (auto [size, tile] : std::vector<std::pair<std::string, int>>{
             {"64", standard}, {"37x29x45", smallest}, {"5x3x7", smallest}, {"130x67x33", standard}}) {
        const Measurement m = measure(*k, size, tile);
        EXPECT_TRUE(m.verification.verified) << GetParam() << " " << size << " TS=" << tile << ": "
                                             << m.verification.summary();
        EXPECT_GT(m.gflops, 0) << GetParam() << " " << size;
        EXPECT_EQ(m.verification.checked_elements, m.size.M * m.size.N);
    }
}

INSTANTIATE_TEST_SUITE_P(Ladder, EveryRung, ::testing::ValuesIn(test::every_rung()), test::RungName());

TEST(Runner, TiledVerifiesAtEveryLessonTile) {
    for (int ts : {4, 8, 16, 32}) {
        const Measurement m = measure(*find_rung("tiled"), "67x45x33", ts);
        EXPECT_TRUE(m.verification.verified) << "TS=" << ts << ": " << m.verification.summary();
    }
}

TEST(Runner, CustomKernelWithArgumentsInAnotherOrder) {
    const KernelSpec k = custom("custom_cab.cl", "matmul_cab", {"((N+15)/16)*16,((M+15)/16)*16"}, {"16,16"},
                                {"C=matrix:MxN:out", "A=matrix:MxK", "B=matrix:KxN", "wA=int:K", "wB=int:N", "hA=int:M"},
                                {"BLOCK=16"});
    const Measurement m = measure(k, "40x24x56", 16);
    EXPECT_TRUE(m.verification.verified) << m.verification.summary();
}

TEST(Runner, CustomColumnMajorKernel) {
    const KernelSpec k = custom("custom_colmajor.cl", "matmul_colmajor", {"((M+7)/8)*8,((N+7)/8)*8"}, {"8,8"},
                                {"M=int:M", "N=int:N", "K=int:K", "A=matrix:MxK:colmajor", "B=matrix:KxN:colmajor",
                                 "C=matrix:MxN:colmajor:out"});
    const Measurement m = measure(k, "33x20x17", 8);
    EXPECT_TRUE(m.verification.verified) << m.verification.summary();
    // The same kernel described as row-major computes something else: the check notices.
    const KernelSpec wrong = custom("custom_colmajor.cl", "matmul_colmajor", {"((M+7)/8)*8,((N+7)/8)*8"}, {"8,8"},
                                    {"M=int:M", "N=int:N", "K=int:K", "A=matrix:MxK", "B=matrix:KxN",
                                     "C=matrix:MxN:colmajor:out"});
    EXPECT_FALSE(measure(wrong, "33x20x17", 8).verification.verified);
}

TEST(Runner, WrongProductIsNotVerifiedAndHasNoRate) {
    const KernelSpec k = custom("wrong_product.cl", "mm_wrong", {"((N+7)/8)*8,((M+7)/8)*8"}, {"8,8"},
                                {"M=int:M", "N=int:N", "K=int:K", "A=matrix:MxK", "B=matrix:KxN", "C=matrix:MxN:out"});
    const Measurement m = measure(k, "48x40x64", 8);
    EXPECT_FALSE(m.verification.verified);
    EXPECT_EQ(m.gflops, 0);
    EXPECT_GT(m.verification.max_rel_error, m.verification.tolerance);
}

TEST(Runner, RefusesTilesBeyondTheDevice) {
    Runner r(pocl());
    LaunchConfig c{*find_rung("tiled"), parse_size("256"), 128};  // 16384 work-items per group
    try {
        r.measure(c, RunOptions{});
        FAIL() << "expected a refusal";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("at most"), std::string::npos) << e.what();
    }
}

TEST(Runner, RefusesBuffersBeyondTheDevice) {
    // A device whose limits are PoCL's made small, so the refusal does not hang on this
    // machine's RAM (--size stops at 2^31 elements a matrix, 8 GiB, which a large host holds).
    DeviceInfo small = pocl();
    small.max_alloc = uint64_t(64) << 20;
    small.global_mem = uint64_t(256) << 20;
    Runner r(small);
    LaunchConfig c{*find_rung("naive"), parse_size("8192"), 16};  // 256 MiB per matrix
    try {
        r.check_limits(c, resolve(c));
        FAIL() << "expected a refusal";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("per buffer"), std::string::npos) << e.what();
    }
}

TEST(Runner, KernelThatDoesNotBuildNamesTheError) {
    const KernelSpec k = custom("does_not_build.cl", "mm_broken", {"N"}, {"1"},
                                {"M=int:M", "N=int:N", "K=int:K", "A=matrix:MxK", "B=matrix:KxN", "C=matrix:MxN:out"});
    try {
        measure(k, "8", 1);
        FAIL() << "expected a build failure";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("undefined_thing"), std::string::npos) << e.what();
    }
}

TEST(Runner, ParameterWithoutArgIsRefused) {
    const KernelSpec k = custom("custom_colmajor.cl", "matmul_colmajor", {"M,N"}, {"1,1"},
                                {"M=int:M", "N=int:N", "A=matrix:MxK", "B=matrix:KxN", "C=matrix:MxN:out"});
    EXPECT_THROW(measure(k, "8", 1), InputError);
}

// Above 2^31 multiply-adds the check is sampled (verification_sample): every chosen row and
// column whole, each element's reference summed in k order. Here the sums are made the plain
// way, element by element, in every layout of A and B, and the check must agree with them:
// its worst error, where it lies, and how many elements it saw; a wrong element in a chosen
// column (not a chosen row) and a NaN in a chosen row are found.
TEST(Verification, TheSampledCheckAgreesWithElementwiseSumsInEveryLayout) {
    const int64_t M = 701, N = 1503, K = 2053;  // 2.16e9 multiply-adds: sampled
    const VerificationSample s = verification_sample(M, N, K);
    ASSERT_FALSE(s.full);
    ASSERT_GE(s.rows.size(), 50u);
    ASSERT_GE(s.cols.size(), 50u);
    EXPECT_EQ(s.rows.front(), 0);
    EXPECT_EQ(s.rows.back(), M - 1);
    EXPECT_EQ(s.cols.front(), 0);
    EXPECT_EQ(s.cols.back(), N - 1);
    EXPECT_TRUE(verification_sample(64, 64, 64).full);
    for (const Layout la : {Layout::RowMajor, Layout::ColMajor})
        for (const Layout lb : {Layout::RowMajor, Layout::ColMajor}) {
            SCOPED_TRACE(std::string("A ") + (la == Layout::RowMajor ? "row" : "column") + "-major, B " +
                         (lb == Layout::RowMajor ? "row" : "column") + "-major");
            const HostMatrix a = random_matrix("A", M, K, la), b = random_matrix("B", K, N, lb);
            HostMatrix c{M, N, Layout::RowMajor, std::vector<float>(static_cast<size_t>(M * N), 0.0f)};
            double want = 0;
            int64_t elements = 0;
            const auto fill = [&](int64_t i, int64_t j) {
                double sum = 0, mag = 0;
                for (int64_t k = 0; k < K; ++k) {
                    const double p = static_cast<double>(a.at(i, k)) * b.at(k, j);
                    sum += p;
                    mag += std::fabs(p);
                }
                c.data[c.index(i, j)] = static_cast<float>(sum);
                want = std::max(want, std::fabs(static_cast<double>(static_cast<float>(sum)) - sum) / std::max(mag, 1e-30));
                ++elements;
            };
            for (const int64_t i : s.rows)
                for (int64_t j = 0; j < N; ++j) fill(i, j);
            for (const int64_t j : s.cols)
                for (int64_t i = 0; i < M; ++i)
                    if (!std::binary_search(s.rows.begin(), s.rows.end(), i)) fill(i, j);
            Verification v = verify_product(a, b, c);
            EXPECT_TRUE(v.verified) << v.summary();
            EXPECT_EQ(v.checked_elements, elements);
            EXPECT_EQ(v.total_elements, M * N);
            EXPECT_NEAR(v.max_rel_error, want, 1e-9 * want + 1e-300) << v.summary();
            EXPECT_GT(want, 0);
            // An element off the chosen rows (zero: never filled) is not seen; one in a chosen column is.
            int64_t off = 1;
            while (std::binary_search(s.rows.begin(), s.rows.end(), off)) ++off;
            ASSERT_EQ(c.at(off, 1 + (s.cols[1] == 1)), 0.0f);
            c.data[c.index(off, s.cols[3])] += 0.5f;
            v = verify_product(a, b, c);
            EXPECT_FALSE(v.verified);
            EXPECT_EQ(v.first_bad_row, off);
            EXPECT_EQ(v.first_bad_col, s.cols[3]);
            EXPECT_GT(v.max_rel_error, v.tolerance);
            c.data[c.index(s.rows[7], N / 2)] = std::nanf("");
            v = verify_product(a, b, c);
            EXPECT_FALSE(v.verified);
            EXPECT_TRUE(std::isinf(v.max_rel_error));
            EXPECT_EQ(v.first_bad_row, s.rows[7]);
            EXPECT_EQ(v.first_bad_col, N / 2);
        }
}
