#include <gtest/gtest.h>

#include "core/base/errors.h"
#include "core/base/expr.h"
#include "core/kernel/launch_config.h"

using namespace tilescope;

TEST(Expr, EvaluatesArithmeticOverSizes) {
    const SizeVars v{37, 29, 45, 8};
    EXPECT_EQ(eval_expr("M", v), 37);
    EXPECT_EQ(eval_expr("((N+TS-1)/TS)*TS", v), 32);
    EXPECT_EQ(eval_expr("2*M*N*K", v), 2 * 37 * 29 * 45);
    EXPECT_EQ(eval_expr("-(K - 50)", v), 5);
    EXPECT_EQ(eval_expr(" TS * TS / 4 ", v), 16);
    // % is the remainder, at * and / precedence, with the sign of the left side as in C.
    EXPECT_EQ(eval_expr("M%TS + N%TS + K%TS", v), 5 + 5 + 5);
    EXPECT_EQ(eval_expr("M - M/TS*TS", v), eval_expr("M%TS", v));
    EXPECT_EQ(eval_expr("2*M%5", v), 74 % 5);
    EXPECT_EQ(eval_expr("-M%TS", v), -5);
    EXPECT_EQ(eval_expr("(-9223372036854775807-1) % -1", v), 0);  // no overflow trap
}

TEST(Expr, RejectsMalformed) {
    const SizeVars v{1, 1, 1, 1};
    EXPECT_THROW(eval_expr("M+", v), InputError);
    EXPECT_THROW(eval_expr("(M", v), InputError);
    EXPECT_THROW(eval_expr("Q", v), InputError);
    EXPECT_THROW(eval_expr("M/0", v), InputError);
    EXPECT_THROW(eval_expr("M % 0", v), InputError);
    EXPECT_THROW(eval_expr("M %", v), InputError);
    EXPECT_THROW(eval_expr("99999999999999999999", v), InputError);
}

TEST(Size, ParsesSquareAndRectangular) {
    const ProblemSize s = parse_size("128");
    EXPECT_EQ(s.M, 128);
    EXPECT_EQ(s.K, 128);
    const ProblemSize r = parse_size("37x29x45");
    EXPECT_EQ(r.M, 37);
    EXPECT_EQ(r.N, 29);
    EXPECT_EQ(r.K, 45);
    EXPECT_EQ(r.label(), "37x29x45");
    for (const char* bad : {"0", "-4", "12x5", "axb", "", "3x4x5x6", "1e3", "100000"})
        EXPECT_THROW(parse_size(bad), InputError) << bad;
}

// A long K is accepted up to 2^20 (issue 30 item 2: 64x64x131072); a matrix of 2^31 elements or
// more is refused in one line naming it, since the rungs index rows with 32-bit ints.
TEST(Size, AcceptsALongKWhileEveryMatrixFitsThirtyTwoBitIndices) {
    const ProblemSize k = parse_size("64x64x131072");
    EXPECT_EQ(k.K, 131072);
    EXPECT_EQ(parse_size("64x64x1048576").K, 1048576);
    EXPECT_EQ(parse_size("46340").M, 46340);  // 46340^2 < 2^31
    for (const char* bad : {"64x64x1048577", "1048577x1x1"}) EXPECT_THROW(parse_size(bad), InputError) << bad;
    const std::pair<const char*, const char*> too_many[] = {
        {"46341", "A (MxK) would have 2147488281 elements"}, {"2x1048576x1048576", "B (KxN)"}, {"65536x65536x1", "C (MxN)"}};
    for (const auto& [text, named] : too_many) {
        try {
            parse_size(text);
            ADD_FAILURE() << text << " was accepted";
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(named), std::string::npos) << what;
            EXPECT_NE(what.find("accepted: S or MxNxK with positive integers up to 1048576"), std::string::npos) << what;
            EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        }
    }
}
