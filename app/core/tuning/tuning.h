#pragma once
// Per-device tuned parameters, kept as data: <device-slug>.json holds, for each tuned rung
// and size bucket, the best verified tile and parameters and every result of the sweep
// that found them. Files are compiled into the binary (like kernels/) and also read at
// run time, so a tuning run on another machine can be brought back and used at once:
//   $TILESCOPE_TUNING_DIR, then the user's folder ($XDG_DATA_HOME/tilescope/tuning, where
//   `tilescope tune` writes), then ./assets/tuning, then <directory of the executable>/tuning,
//   then the embedded copies.
// A device nobody tuned still gets sensible values (lookup_tuning): its own file, else a
// file of a similar device (same vendor and architecture family), else the parameters
// kept for its type (assets/tuning/defaults-cpu.json, defaults-gpu.json).
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/kernel/launch_config.h"
#include "core/device/opencl_env.h"
#include "core/tuning/tune_types.h"

namespace tilescope {

// "NVIDIA CUDA / NVIDIA H200" -> "nvidia-cuda-nvidia-h200": lower case, runs of anything
// but letters and digits become one '-'.
// Limits of a tuning file read from disk (issue 23); beyond them it is skipped with a line.
inline constexpr uint64_t kMaxTuningFileBytes = 1u << 20;  // 1 MiB
// One look through the tuning folders reads at most this much, whatever lies there
// (issue 32: sixty 1 MiB files made every lookup read 60 MiB): past it the rest is
// skipped with one warning. Real tuning files are a few KiB.
inline constexpr uint64_t kMaxTuningFolderBytes = 2u << 20;  // 2 MiB per look, all folders together
inline constexpr int kMaxTuningFolderFiles = 64;             // .json files considered per folder
inline constexpr int kMaxTuningNesting = 16;                // a real tuning file nests 5 deep

std::string device_slug(std::string_view device_label);
std::string device_slug(const DeviceInfo& device);

// The tuned choice for one rung on one device.
struct TunedChoice {
    std::string kernel;
    int tile = 0;
    std::map<std::string, int64_t> params;
    double gflops = 0;
    std::string size;     // the problem size it was tuned at
    std::string origin;   // the file it came from ("embedded assets/tuning/x.json" or a path)
    std::string device;   // the device the file was tuned on ("" for the type defaults)
    std::string bucket;   // the size bucket of the entry ("small", "large")
};

// Tuning is per size bucket, so small problems get tiles that fill the device: "small" when
// C is at most 1024 x 1024 (max(M, N) <= 1024), else "large".
std::string size_bucket(const ProblemSize& size);
std::string size_bucket(std::string_view size_label);  // of a stored "1024" / "MxNxK"; "" if unreadable

// Devices of one vendor and architecture family share tuning as a fallback:
// "pocl:skylake-avx512:amd" (PoCL's LLVM target and the CPU's vendor), "nvidia:hopper";
// "" when the label says too little (then only the exact device matches).
std::string device_family(std::string_view device_label);

// The user's tuning folder: $XDG_DATA_HOME/tilescope/tuning, else ~/.local/share/tilescope/tuning.
std::string user_tuning_dir();

// "<slug>.timed.json": where bench --kernel fastest remembers, in user_tuning_dir(), the point it
// timed fastest at a shape that was no row of the tables; read like every tuning file (bounded,
// validated), only for rows of exactly the shape asked for and of this device.
std::string timed_picks_file(const DeviceInfo& device);

// How a device found its tile and parameters, best first.
enum class TuningMatch { exact, similar, type_defaults };

struct TuningLookup {
    TunedChoice choice;
    TuningMatch match = TuningMatch::exact;
    std::string note;  // for tables and the GUI: "tuned here", "tuned for a similar device: NAME", "defaults for CPUs"
};

// `--kernel fastest` (issue 30 item 3): the rung and point a tuning file's "fastest" table
// (measured: for each shape benchmarked, the verified rung that ran fastest there, with its
// tile and parameters) says is fastest at the measured shape nearest the one asked for
// (nearest in log M, log N, log K). Looked up in the order lookup_tuning uses: this device's
// file, a similar device's, the type defaults.
struct FastestPick {
    TunedChoice choice;     // kernel, tile, params, gflops and size as measured; origin, device
    TuningMatch match = TuningMatch::exact;
    std::string note;       // "tuned here", "tuned for a similar device: NAME", "defaults for GPUs"
    std::string reason;     // one line: why this rung ("splitk: C is 128x128 ...")
    double distance = 0;    // from the row's shape to the one asked for (log M, N, K); 0: a row of this shape
    bool remembered = false;  // a row bench timed at this shape (timed_picks_file): nothing left to time
};

// Entries of a tuning file's "fastest" table, in file order; unreadable entries are left out
// (at most kMaxFastestEntries are read).
inline constexpr int kMaxFastestEntries = 512;
// A measured figure a tuning file may claim: GFLOP/s from 0 to kMaxClaimedGflops (10 PFLOP/s, 150
// times an H200's FP32 peak). An entry claiming more, or less than 0, is unreadable and left out:
// a file from someone else must not put "1000000000 GFLOP/s there" on the screen or win every pick.
inline constexpr double kMaxClaimedGflops = 1e7;
inline bool plausible_gflops(double g) { return g >= 0 && g <= kMaxClaimedGflops; }
std::vector<TunedChoice> fastest_entries_in(std::string_view json_text);

// The pick for `size` on `device`, or nullopt when no tuning file (not even the type
// defaults) has a table entry that resolves at this size.
// First a row of this very shape in the device's timed picks (timed_picks_file: the points
// `bench --kernel fastest` timed at a shape that was no row, the fastest remembered).
std::optional<FastestPick> pick_fastest(const DeviceInfo& device, const ProblemSize& size);

// The distinct points (rung, tile, params) of the `rows` nearest rows at `size` (this device's
// tables and similar devices', or the type defaults when that is all there is), each as the
// pick it would be, pick_fastest's first. One element when that pick's row is of this shape
// (nothing to try), none when there is no pick. `bench --kernel fastest` times them here.
std::vector<FastestPick> fastest_candidates(const DeviceInfo& device, const ProblemSize& size, int rows = 3);

// The tuning file's text with a "fastest" row for `size` naming this point (measured here by
// `who`), unless the row there already names a faster run; everything else is kept, but for the
// oldest rows past kMaxFastestEntries. A damaged `existing` is refused (InputError), never replaced.
std::string merge_fastest_row(std::string_view existing, const std::string& device_label, const std::string& kernel,
                              const ProblemSize& size, int tile, const std::map<std::string, int64_t>& params, double gflops,
                              const std::string& who);

// The best available choice for `kernel` at `size` on `device`: this device's file (this
// bucket, then another bucket), a similar device's file (same order), the type defaults
// for this bucket; nullopt when none has the rung. A large problem whose large-bucket choice
// would fill the compute units poorly (its work-groups falling unevenly on them, or fewer than
// two per unit: a score below 0.9) takes the same file's small-bucket choice when that one
// scores higher; the note says so.
std::optional<TuningLookup> lookup_tuning(const DeviceInfo& device, std::string_view kernel, const ProblemSize& size);

// Directories read at run time, in precedence order (existing or not).
std::vector<std::string> tuning_search_dirs();

// Where `tilescope tune` writes by default: $TILESCOPE_TUNING_DIR, else user_tuning_dir()
// (never the install or the repository).
std::string default_tuning_dir();

// The choice for `kernel` in one tuning file's text, or nullopt (also for unreadable text):
// the entry for `bucket` when given and present, else the entry tuned last.
// `same_bucket`, when given, says whether the entry is of the bucket asked for.
std::optional<TunedChoice> tuned_choice_in(std::string_view json_text, std::string_view kernel,
                                           std::string_view bucket = {}, bool* same_bucket = nullptr);

// The points a type-defaults file names for tune --quick to look at besides its start
// (`"also_try": [{"tile": T, "params": {...}, "from": "..."}]` in the kernel's bucket entry):
// those of `bucket`, in file order; unreadable entries are left out, at most kMaxAlsoTry read.
inline constexpr int kMaxAlsoTry = 8;
std::vector<TunePoint> also_try_in(std::string_view json_text, std::string_view kernel, std::string_view bucket);

// The choice for `kernel` on the device with this slug, from the first file that has one.
std::optional<TunedChoice> find_tuned(std::string_view slug, std::string_view kernel);

// Sets config's tile and parameters from lookup_tuning when there is a choice for the rung
// that still resolves; params_source becomes "tuned" (this device), "similar" (a similar
// device) or "type-defaults", and tuning_note says which in words. Else leaves it alone.
// Returns whether it applied one.
bool apply_tuning(LaunchConfig& config, const DeviceInfo& device);

// The tuning file's text with `kernel`'s entry replaced: the best verified result and
// all of `results` (which must have a verified one), plus the earlier results of that
// kernel at the same size for points `results` did not rerun. `existing` is the file's
// current text (empty when new); entries of other kernels are kept.
// `chosen`, when not -1, is the index in `results` of the point to store as the best (it must
// have verified): tune --quick keeps its start unless this run's own measurements beat it, so
// an earlier run's figure never picks the stored point.
std::string merge_tuning(std::string_view existing, const std::string& device_label, const std::string& kernel,
                         const ProblemSize& size, const std::vector<TuneResult>& results, const std::string& command,
                         int chosen = -1);

// Index of the best verified result, or -1.
int best_result(const std::vector<TuneResult>& results);

// The sweep: every combination of `tiles` and each parameter's candidate values (the
// kernel's own lists unless `values` overrides some), the defaults first.
std::vector<std::pair<int, std::map<std::string, int64_t>>> sweep_points(
    const KernelSpec& kernel, const std::vector<int>& tiles, const std::map<std::string, std::vector<int64_t>>& values);

}  // namespace tilescope

namespace tilescope {

// ---- tilescope tune --quick: a guided search instead of the full grid ----
// One size of quick_tune_to_file's paired second look: the candidate's speed over the start's
// there, the median of the pairs' ratios (both timed in turn); 0 when either failed or did not
// verify. On a CPU device the same pairs by CPU time too (GFLOP per CPU-second of the process:
// what each point did with the CPU it got, whoever else ran), 0 where not measured.
struct PairedLook {
    std::string size;  // its label, "1000" or "96x6000x9000"
    double ratio = 0;
    double cpu_ratio = 0;
    int pairs = 0;     // how many pairs the look took (0: not said)
};

// Whether a paired second look stores the candidate: it looked at one size at least, and the
// candidate was faster than the start at every one, by kPairedLookGain at least (a median ratio
// of 1.003 printed as "1.00x" is a tie, and a tie keeps the start), and where CPU time was
// measured, no slower by it than kPairedLookCpuFloor: a candidate whose wall-clock win came
// with more CPU time per FLOP won by the moments others left the CPU free, not by itself (issue
// 30 item 4: a point stored at 1.15x the start by the wall clock on a machine at load 5 then
// measured 80 % of the peak by CPU time, against the start's 87 % in the same run). A point tuned at 1024 serves 1000 and
// 1234 too (one tuning file entry per size bucket), so a point that wins at one size and loses
// at a neighbour is not stored.
inline constexpr double kPairedLookGain = 1.01;
inline constexpr double kPairedLookCpuFloor = 1.0 / kPairedLookGain;
bool paired_looks_win(const std::vector<PairedLook>& looks);

// The times of one size's paired look so far, pair by pair: the start's and the candidate's
// wall-clock seconds, and (on a CPU device) the CPU seconds of the process during each launch.
struct PairedTimes {
    std::vector<double> start_s, candidate_s;
    std::vector<double> start_cpu_s, candidate_cpu_s;  // empty, or one per pair
    void append(const PairedTimes& more);
};

// The look those times make: median ratios by wall and by CPU time (the start's time over the
// candidate's; a pair with a zero time is left out). Pure.
PairedLook judge_paired(const std::string& size, const PairedTimes& times);

// Whether more pairs could turn a look's verdict: its medians' 95 % intervals (by order
// statistics: the ratios ranked n/2 -/+ 0.98 sqrt(n)) reach across the threshold that decides
// it (kPairedLookGain by wall, kPairedLookCpuFloor by CPU time). A look that wins is close when
// either interval reaches across; one that loses, when every test it fails does. Pure.
enum class PairedVerdict { win, lose, close };
PairedVerdict paired_verdict(const PairedTimes& times);

// One size's paired look, taking pairs in batches: `time_more(n, into)` times n more pairs and
// appends them (false: the pairs failed, or did not verify: the look fails, ratio 0). After
// each batch paired_verdict decides; a close verdict takes another batch, up to `max_pairs`,
// and the medians of every pair taken decide then. So a look at a quiet machine stops at one
// batch, and a noisy one is not decided by its first few pairs. Pure apart from time_more.
inline constexpr int kPairedLookBatch = 10, kPairedLookMaxPairs = 30;
PairedLook paired_look(const std::string& size, const std::function<bool(int pairs, PairedTimes& into)>& time_more,
                       int batch = kPairedLookBatch, int max_pairs = kPairedLookMaxPairs);

// The sizes tune --quick on a CPU judges a candidate at, unless told: the size it searches at
// and two neighbours, each dimension scaled by 1000/1024 and by 1234/1024, rounded, at least 1,
// each size once (at 1024: 1024, 1000 and 1234, the sizes issue 30 measures the CPU at).
std::vector<ProblemSize> quick_tune_judge_sizes(const ProblemSize& size);

// Coordinate descent from a start point (the device's best known choice): along each axis
// (TS, then each parameter, values in the kernel's order), try the neighbours of the best so
// far and move when one is faster; repeat until a round finds nothing, then look two steps
// away once more; then, with time left, move two axes at once by one step each (parameters
// interact), restarting from any pair that wins; stop early at `max_points` or `budget_s`.
// A handful of points per axis and pair instead of the product of all of them.
struct QuickTuneOptions {
    int max_points = 100;                      // points measured at most
    double budget_s = kQuickTuneBudgetS;       // wall time at most (core/tuning/tune_types.h)
    std::function<bool()> cancelled;           // polled between points; true stops with Cancelled
    std::function<void(int done, int planned, const TuneResult&)> progress;  // after each point
    // quick_tune_to_file's second look at a candidate that measured faster than the start, when
    // set: both timed in turn (Runner::measure_interleaved, so both meet the same moments of a
    // loaded machine) at one or more sizes, returning per size the median of the pairs' ratios,
    // the candidate's speed over the start's (0 when either failed or did not verify);
    // paired_looks_win decides. Unset: each is measured once more, one after the other, with the
    // MeasurePoint.
    std::function<std::vector<PairedLook>(const TuneResult& start, const TuneResult& candidate)> confirm_paired;
    int confirm_pairs = 0;  // how many pairs confirm_paired times at first (for the verdict's words)
    // With confirm_paired: the points that measured faster than the start, fastest first, that
    // are looked at in turn until one wins; at most this many (each look is up to 30 pairs at
    // each size).
    int confirm_candidates = 3;
    // Points measured right after the start, before the search moves (quick_tune_also_try).
    // With confirm_paired (quick_tune_to_file), each that verified gets a paired look, before the
    // candidates above, whatever its one measurement in the search said: on a loaded CPU that one
    // median of 3 can fall either side of the start's, and a named point has won looks before.
    std::vector<TunePoint> also_try;
};

using MeasurePoint = std::function<TuneResult(int tile, const std::map<std::string, int64_t>& params)>;

// One point of a sweep on a real device: resolve, validate, measure (options' reps,
// warm-up and cancel flag), verify. Refusals (limits, build, launch) become status
// "refused"; Cancelled is thrown. `measured`, when given, receives the Measurement.
struct RunOptions;
struct Measurement;
class Runner;

// The pick at a shape that is no row, measured there (issue 30 items 1 and 3): one point timed.
struct PickTrial {
    std::string kernel;
    int tile = 0;
    std::map<std::string, int64_t> params;
    std::string row;       // the table row it came from ("3001x555x2555")
    double gflops = 0;     // of the trial's launches (0 when it did not verify)
    bool verified = false;
    int round = 1;         // 1: the rows' points; 2: the winner beside its K-slice neighbours
};
struct TimedPick {
    FastestPick pick;               // the point to run; its reason says how it was chosen
    std::vector<PickTrial> trials;  // empty: nothing timed (a row of this shape, or one point only)
    double trial_s = 0;             // wall time of the trial
};
inline constexpr int kPickTrialRows = 3;  // the nearest rows whose points are timed
// Round two's neighbour replaces the point it is timed beside only when at least this much faster:
// at 6000^3 on the H200 (a row) the wide point won round two by 0.8 % and then ran 1.0 % slower
// over 10 launches than the row's point (docs/benchmarks.md, speed13).
inline constexpr double kRoundTwoMargin = 0.01;

// pick_fastest, and at a shape that is no row of the tables, the distinct points of the
// kPickTrialRows nearest rows (fastest_candidates) that `runner` accepts timed here in turn
// (Runner::measure_interleaved: 1 warm-up, 2 launches each, verified); the fastest verified one
// is kept, said in its reason ("fastest of 3 points timed here (...)"), and remembered as a row
// of this shape in user_tuning_dir()/timed_picks_file (a damaged file there is left as it is;
// the reason says it was not remembered). `options` gives the cancel flag and progress lines
// (its reps and warm-up are not used). nullopt when there is no pick. Throws Cancelled.
// Then a second round (PickTrial::round 2) times the fastest point again beside
// trial_slice_neighbours (when it splits K: splitk's SLICES), trial_wide_point (warp_tile and
// splitk), trial_inplace_points (splitk and warp_tile on padded copies) and trial_tile_points (its
// own tile split, the other square tile), the same launches each; the fastest of that round runs (a neighbour only when at least
// kRoundTwoMargin faster than the point it is timed beside) and is remembered. The rows' slice counts were measured at other shapes: at the
// sittings' weak draws the count alone moved a point by 4-15 % (docs/benchmarks.md, speed11).
// Where round 1 has one point only (a row of this very shape, or nearest rows that all name one
// point) round 2 still runs, with that point as its winner (speed13: the tables never tried the
// wide point, 9 % faster at 3900x4779x1928 on the H200); the result is remembered the same way.
// Nothing is timed at a remembered row, or when the point has no neighbour to time.
std::optional<TimedPick> timed_fastest_pick(Runner& runner, const DeviceInfo& device, const ProblemSize& size, bool pad,
                                            const RunOptions& options);

// The points beside a trial's winner that splits K: one slice fewer and one more (SLICES - 1 and
// + 1), where that changes how many slices run at its K; one slice is the rung it splits
// (compares_with, warp_tile for splitk) with the same parameters. Points in `tried` and points
// that no longer resolve are left out. None for a point without SLICES.
std::vector<LaunchConfig> trial_slice_neighbours(const LaunchConfig& winner, const std::vector<LaunchConfig>& tried);

// The trial's wide point beside a winner of warp_tile or splitk (speed12): 64 x 128 tiles (TS 64,
// NMUL 2: cuBLAS's shape at 2474^3 on the H200) at TSK 16, with the winner's SLICES and INPLACE.
// The tables were tuned without NMUL, so the second round times it beside the winner: at the
// H200's weak squares near 2474^3 it measured 2-5 % faster than their rows' points, and slower
// at 4096^3 and 6144^3 (docs/benchmarks.md, speed12). nullopt for other rungs, a winner that is
// already wide, a point in `tried` or one that does not resolve.
std::optional<LaunchConfig> trial_wide_point(const LaunchConfig& winner, const std::vector<LaunchConfig>& tried);

// The trial's in-place points beside a winner of splitk or warp_tile that runs on padded copies (N
// or K not a multiple of 4), reading A and B where they lie with INPLACE 2 (no copies; one float per
// work-item and load, consecutive work-items on consecutive floats of a row; speed14):
// 1. the winner itself in place, where it is a point of TSK 8 that is not wide and INPLACE 2 builds
//    for it. On the H200 at four shapes with one short side and a long K, at splitk points of TSK 8
//    it ran up to 9 % faster than on copies in 17 of 20 pairs; at the wide point (TSK 16) 13-25 %
//    slower (speed14). A warp_tile winner as it is where K is at most kInPlaceShortK (speed15,
//    H200: TS 64 in place 18 % faster at 2248x1853x646, 5 % slower at 3001x2503x701); past that K
//    split in two (splitk SLICES 2), since whole in place it ran 3-15 % slower at three large
//    shapes on the H100 (speed14) and split in two 4.6 % faster than on copies at 9847x1080x8179
//    (session 47).
// 2. 128 x 64 tiles (TS 128, NDIV 2, TSK 8) in place, with the winner's SLICES (2 when it has
//    none): on the H100 (session 47) 92.1 % of cuBLAS at 3807x638x3879 against the 64 x 64 winner's
//    87.3 % on copies, 90.2 % against the wide winner's 87.8 % at 985x8361x8908, 97.1 % against
//    93.6 % at 545x4366x1795; 90.2 % against 94.1 % at 2845^3 (round 2 keeps the faster).
// Points in `tried`, repeated, or not resolving are left out; none for other rungs, a winner
// already in place, or aligned rows. Reading only one operand in place (INPLACE 3, 4) was slower
// than INPLACE 2 or within 0.5 % of it at all six shapes measured, so it is not timed (speed15).
// (docs/benchmarks.md, each section named.)
constexpr int64_t kInPlaceShortK = 1024;
std::vector<LaunchConfig> trial_inplace_points(const LaunchConfig& winner, const std::vector<LaunchConfig>& tried);

// The trial's tile points beside a winner of splitk or warp_tile (session 49), on copies or in place
// as the winner is:
// 1. a winner that walks all of K split into 2, 4 and 8 K-slices (splitk with its tile and
//    parameters), where its tiles of C number fewer than kSplitTilesPerUnit per compute unit. At
//    1326x3685x3551 on the H200 round 2 had only the winner (warp_tile TS 64, whole: 37,931
//    GFLOP/s on copies) split in two in place, and 128 x 64 in two in place ran (38,767); TS 64 in 8
//    slices measured 41,209 at the padded size (session 48, sitting and explore3).
//    With more tiles than that C alone gives every unit many waves, and the splits are not timed;
//    a count that runs as many slices at this K as a smaller one (few phases) is left out.
// 2. 128 x 128 tiles whole (warp_tile, TSK 16) beside a winner of TS 64: at 985x8364x8908 on the
//    H200 they measured 10 % faster than 64 x 64 tiles in 8 slices (session 48, explore3), and at
//    985x8361x8908 they won round two over round one's 64 x 64 winner in 4 slices (session 49).
// Points in `tried`, repeated, or not resolving are left out; none for other rungs.
constexpr int64_t kSplitTilesPerUnit = 16;
std::vector<LaunchConfig> trial_tile_points(const LaunchConfig& winner, unsigned compute_units, const std::vector<LaunchConfig>& tried);

// The launch of a pick: its rung, tile and parameters at `size`, params_source and notes set.
LaunchConfig pick_config(const FastestPick& pick, const ProblemSize& size, bool pad);
class Runner;
TuneResult measure_tune_point(Runner& runner, const KernelSpec& kernel, const ProblemSize& size, int tile,
                              const std::map<std::string, int64_t>& params, const RunOptions& options,
                              Measurement* measured = nullptr);

// The results in the order measured (the start first). `measure` runs one point.
std::vector<TuneResult> quick_tune(const KernelSpec& kernel, int start_tile, const std::map<std::string, int64_t>& start_params,
                                   const MeasurePoint& measure, const QuickTuneOptions& options = {});

// About how many points quick_tune measures for `kernel` (for "about N s" before starting).
int quick_tune_expected_points(const KernelSpec& kernel);

// "About N s" before starting: the expected points times the seconds one point takes
// (build, warm-up, timed runs, verification: measure one to know), never past the budget.
double quick_tune_estimate_s(const KernelSpec& kernel, double seconds_per_point, double budget_s);

// Whether `tune` has anything to choose for the rung: a ladder rung (not a library, not a
// custom source) with more than one tile or a tunable parameter.
bool is_tunable(const KernelSpec& kernel);

// The point quick_tune starts from on `device` at `size`: the best it already has (its
// own, a similar device's, its type's; `note` says which), else the rung's defaults.
QuickTuneStart quick_tune_start(const DeviceInfo& device, const KernelSpec& kernel, const ProblemSize& size);

// The points the type defaults (defaults-cpu.json, defaults-gpu.json: the first such file that
// has the rung) name for tune --quick to look at on `device` at `size`'s bucket (also_try_in);
// QuickTuneOptions::also_try.
std::vector<TunePoint> quick_tune_also_try(const DeviceInfo& device, const KernelSpec& kernel, const ProblemSize& size);

// quick_tune, then (when a point verified) the locked read-merge-write of its results
// into `out_path` (merge_tuning, update_file_locked: atomic, never half-written), as
// `tilescope tune --quick` and the GUI both do. A cancel (Cancelled, thrown) or a run with
// nothing verified writes nothing.
// The start is the first point measured, and the stored point never measured slower than it
// in this run: when a candidate measured faster, the start and that candidate are measured
// once more, back to back (or timed in pairs by options.confirm_paired: then each point that
// measured faster than the start, fastest first, up to options.confirm_candidates, until one
// wins, each of options.also_try first), and the candidate is
// stored only if it wins again (single medians on a busy CPU vary by a third); otherwise the
// start is stored. `QuickTuneRun::verdict`
// says which, with the figures.
QuickTuneRun quick_tune_to_file(const KernelSpec& kernel, const ProblemSize& size, const std::string& device_label,
                                const QuickTuneStart& start, const MeasurePoint& measure, const QuickTuneOptions& options,
                                const std::string& out_path, const std::string& command);

}  // namespace tilescope
