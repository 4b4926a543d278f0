// Checked arithmetic, bounded parsers and resource limits that act before any work: the
// issue's exact inputs, each an InputError naming the option, never a signal.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/kernel/catalog.h"
#include "core/base/errors.h"
#include "core/base/expr.h"
#include "core/kernel/kernel_spec.h"
#include "core/kernel/launch_config.h"
#include "core/device/runner.h"
#include "core/teach/scene_values.h"

using namespace tilescope;
namespace fs = std::filesystem;

namespace {

// The message of the InputError `f` throws; fails the test when it throws none.
template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no InputError";
    return {};
}

bool mentions(const std::string& message, const std::string& what) { return message.find(what) != std::string::npos; }

}  // namespace

TEST(CheckedExpr, OverflowAndDivisionAreInputErrors) {
    const SizeVars v{64, 64, 64, 16};
    EXPECT_TRUE(mentions(error_of([&] { eval_expr("(-9223372036854775807-1)/-1", v, "--global"); }), "overflows"));
    EXPECT_TRUE(mentions(error_of([&] { eval_expr("3037000500*3037000500", v, "--global"); }), "--global"));
    EXPECT_TRUE(mentions(error_of([&] { eval_expr("9223372036854775807+1", v); }), "overflows"));
    EXPECT_TRUE(mentions(error_of([&] { eval_expr("-(-9223372036854775807-1)", v); }), "overflows"));
    EXPECT_TRUE(mentions(error_of([&] { eval_expr("M/(N-64)", v, "--local"); }), "division by zero"));
    EXPECT_TRUE(mentions(error_of([&] { eval_expr("9223372036854775808", v); }), "64-bit"));
    // Up to the edge it still computes.
    EXPECT_EQ(eval_expr("-9223372036854775807-1", v), INT64_MIN);
    EXPECT_EQ(eval_expr("(-9223372036854775807-1)/1", v), INT64_MIN);
    EXPECT_EQ(eval_expr("3037000499*3037000499", v), 3037000499LL * 3037000499LL);
}

TEST(CheckedExpr, NestingAndLengthAreBounded) {
    const SizeVars v{64, 64, 64, 16};
    const std::string deep = std::string(30000, '(') + "1" + std::string(30000, ')');
    EXPECT_TRUE(mentions(error_of([&] { eval_expr(deep, v, "--global"); }), "longer than 4096"));
    const std::string nested = std::string(300, '(') + "1" + std::string(300, ')');
    const std::string message = error_of([&] { eval_expr(nested, v, "--global"); });
    EXPECT_TRUE(mentions(message, "nested deeper than 256")) << message;
    EXPECT_LT(message.size(), 400u) << "the expression is elided, not repeated whole";
    EXPECT_TRUE(mentions(error_of([&] { eval_expr(std::string(300, '-') + "1", v); }), "nested deeper"));
    const std::string ok = std::string(200, '(') + "M" + std::string(200, ')');
    EXPECT_EQ(eval_expr(ok, v), 64);
    EXPECT_THROW(check_expr(deep), InputError);
}

TEST(CheckedExpr, SyntaxCheckLeavesSizeDependentArithmeticToEvaluation) {
    // N/(M-1) is fine unless M is 1: only evaluation at real sizes can say.
    EXPECT_NO_THROW(check_expr("N/(M-1)"));
    EXPECT_THROW(check_expr("N/(M-1"), InputError);
    EXPECT_EQ(eval_expr("N/(M-1)", SizeVars{3, 8, 1, 1}), 4);
}

TEST(CheckedExpr, ControlCharactersNeverReachTheMessage) {
    const std::string message = error_of([] { eval_expr("M\n+\x1b[2J", SizeVars{1, 1, 1, 1}, "--global"); });
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.find('\x1b'), std::string::npos) << message;
}

// A long path keeps its file's name in a message (a tuning file under a deep folder was shown as
// ".../defaults-cpu.j... (83 characters)"); control characters are escaped at both ends.
TEST(ShownPath, ALongPathKeepsItsEndAndEscapesControlCharacters) {
    const std::string folder = "/tmp/" + std::string(200, 'd') + "/";
    const std::string shown_long = shown_path(folder + "defaults-cpu.json");
    EXPECT_NE(shown_long.find("/defaults-cpu.json (223 characters)"), std::string::npos) << shown_long;
    EXPECT_EQ(shown_long.rfind("/tmp/ddd", 0), 0u) << shown_long;
    EXPECT_LT(shown_long.size(), 150u) << shown_long;
    EXPECT_EQ(shown_path("/tmp/a.json"), "/tmp/a.json");
    const std::string hostile = shown_path("/tmp/\x1b" + std::string(150, 'x') + "\n.json");
    EXPECT_EQ(hostile.find('\x1b'), std::string::npos) << hostile;
    EXPECT_EQ(hostile.find('\n'), std::string::npos) << hostile;
    EXPECT_NE(hostile.find("\\x0a.json"), std::string::npos) << hostile;
}

// C1 controls as UTF-8 writes them (U+009B is an 8-bit terminal's CSI: "\xc2\x9b" "2J" clears
// it) are escaped like C0 ones, in every message (a tuning file's device name reached stdout
// raw) and refused in a lesson's device; other UTF-8 passes untouched.
TEST(Shown, C1ControlsAreEscapedAndOtherUtf8Kept) {
    const std::string csi = "a\xc2\x9b" "2Jb\xc2\x85";
    EXPECT_EQ(shown(csi), "a\\u009b2Jb\\u0085");
    EXPECT_TRUE(has_control_character(csi));
    EXPECT_EQ(shown("caf\xc3\xa9 \xe2\x82\xac \xc2\xa0"), "caf\xc3\xa9 \xe2\x82\xac \xc2\xa0");  // é, €, no-break space
    EXPECT_FALSE(has_control_character("caf\xc3\xa9 \xe2\x82\xac \xc2\xa0"));
    EXPECT_TRUE(has_control_character("\x1b[2J"));
    EXPECT_FALSE(scene_device_problem("nvidia\xc2\x9b" "31m").empty());
    EXPECT_TRUE(scene_device_problem("nvidia").empty());
}

namespace {

LaunchConfig custom(const std::vector<std::string>& args, const std::vector<std::string>& global = {"N"},
                    const std::vector<std::string>& defines = {}, const std::vector<TunableParam>& params = {}) {
    KernelSpec k;
    k.name = "k";
    k.entry = "k";
    k.custom = true;
    k.global = global;
    k.local = std::vector<std::string>(global.size(), "1");
    for (const std::string& d : defines) k.defines.emplace_back(d.substr(0, d.find('=')), d.substr(d.find('=') + 1));
    for (const std::string& a : args) k.args.push_back(parse_arg_spec(a));
    k.params = params;
    validate(k);
    return LaunchConfig{k, parse_size("64"), 16};
}

}  // namespace

TEST(CheckedLaunch, SizesThatWouldWrapAreRefusedWithTheOption) {
    // 2^62 floats are 2^64 bytes: the byte count wrapped to 0 and the trace ran.
    EXPECT_TRUE(mentions(error_of([] { resolve(custom({"t=local:4611686018427387904"})); }), "--arg t=local"));
    EXPECT_TRUE(mentions(error_of([] { resolve(custom({"A=matrix:3037000500x3037000500"})); }), "--arg A=matrix"));
    EXPECT_TRUE(mentions(error_of([] { resolve(custom({"n=int:2147483648"})); }), "32-bit int"));
    EXPECT_TRUE(mentions(error_of([] { resolve(custom({"n=int:N*N*N*N*N*N*N*N*N*N*N"})); }), "--arg n"));
    EXPECT_TRUE(mentions(error_of([] { resolve(custom({"n=int:1"}, {"4294967296", "4294967296"})); }), "--global"));
    EXPECT_TRUE(mentions(error_of([] { resolve(custom({"n=int:1"}, {"N"}, {"X=M/(N-64)"})); }), "--define X"));
    EXPECT_NO_THROW(resolve(custom({"n=int:-2147483648", "t=local:TS*TS", "A=matrix:MxK"})));
}

TEST(CheckedLaunch, ParamsThatOverflowAnExpressionAreRefused) {
    LaunchConfig c = custom({"n=int:1"}, {"WPT*TS"}, {}, {TunableParam{"WPT", 1, {1}}});
    c.params["WPT"] = INT64_MAX;  // --param accepts any integer of at least 0
    EXPECT_TRUE(mentions(error_of([&] { resolve(c); }), "--global 'WPT*TS'"));
    c.params["WPT"] = 4;
    EXPECT_EQ(resolve(c).global[0], 64u);
}

TEST(SourceLimit, ALargeSourceIsRefusedBeforeItIsRead) {
    const fs::path path = fs::temp_directory_path() / ("tilescope-large-" + std::to_string(getpid()) + ".cl");
    {
        std::ofstream out(path);
        out.seekp(static_cast<std::streamoff>(50) << 20);  // 50 MB, sparse: quick to make
        out << "\n";
    }
    CustomKernelOptions o;
    o.source_path = path.string();
    o.entry = "k";
    o.global = {"N"};
    o.local = {"1"};
    o.args = {"n=int:N"};
    const std::string message = error_of([&] { load_custom_kernel(o); });
    EXPECT_TRUE(mentions(message, "at most 1048576 bytes")) << message;
    fs::resize_file(path, kMaxSourceBytes);  // at the limit it is read (and then fails later, on the entry)
    EXPECT_NO_THROW(load_custom_kernel(o));
    fs::remove(path);
}

TEST(RunnerTimes, NoTimedLaunchGivesZerosNotAnEmptyRangeDereference) {
    const TimeSummary none = summarize_times({});
    EXPECT_EQ(none.median_s, 0);
    EXPECT_EQ(none.min_s, 0);
    const TimeSummary some = summarize_times({3, 1, 2, 4});
    EXPECT_DOUBLE_EQ(some.median_s, 2.5);
    EXPECT_DOUBLE_EQ(some.min_s, 1);
}
