#pragma once
// The cache model judged on launches it was not fitted on (issue 31): the held-out table
// (docs/results/caches31/heldout.csv, compiled into the binary with measured.csv, which
// names each GPU's device, date and tool). Every verdict shown beside a modelled cache
// figure is computed here from those rows, never written by hand. Pure.
#include <optional>
#include <string>
#include <vector>

namespace tilescope {

constexpr double kHeldOutL2Target = 15.0;  // L2 sectors within 15 % of Nsight Compute
constexpr double kHeldOutL1Target = 3.0;   // L1 hit rate within 3 points

struct HeldOutRow {
    std::string gpu, kernel;  // profile name ("h200"), twin name ("naive")
    int size = 0;             // M = N = K
    double ncu_l2 = 0, ncu_l1_hit = 0;                 // measured: sectors, percent
    std::optional<double> model_l2, model_l1_hit;       // modelled; none where not modelled
    bool modelled() const { return model_l2.has_value() && model_l1_hit.has_value(); }
    double l2_error_pct() const;  // (model - ncu) / ncu, percent
    bool l2_within() const;
    bool l1_within() const;
};

struct HeldOutSource {
    std::string gpu, device, date, tool;
};

struct HeldOutTable {
    std::vector<HeldOutRow> rows;
    std::vector<HeldOutSource> sources;
};

// Parses heldout.csv and measured.csv text; throws InputError naming `what` and the line
// that is wrong. Bounded: at most 10,000 rows.
HeldOutTable parse_held_out(const std::string& heldout_csv, const std::string& measured_csv, const std::string& what);
// The compiled-in table (empty when the binary carries none).
const HeldOutTable& held_out_table();

// The check for one profile (its base name, "h200") and, when `kernel` is one the table
// holds, that kernel alone: one line for L2 sectors, one for the L1 hit rate, each saying
// whether the model is within target at every held-out size, and where it is not, the
// measured figure with device, size and date. "" when the table has no row for them.
std::string held_out_l2_line(const HeldOutTable& t, const std::string& gpu, const std::string& kernel = "");
std::string held_out_l1_line(const HeldOutTable& t, const std::string& gpu, const std::string& kernel = "");

// DRAM reads past the L2 (issue 31, item 2: naive and tiled at 4,096^3 and 6,144^3), measured and
// modelled (docs/results/caches31/dram_past_l2.csv, compiled in; the model's figures are the
// profiles', docs/caches.md "The L2 as two halves").
constexpr double kDramPastL2Target = 30.0;  // DRAM read sectors within 30 % of Nsight Compute
struct DramRow {
    std::string gpu, kernel;
    int size = 0;
    double ncu = 0, model = 0;  // DRAM read sectors
    double error_pct() const { return ncu > 0 ? (model - ncu) / ncu * 100.0 : 0.0; }
    bool within() const;
};
// Parses dram_past_l2.csv text; throws InputError naming `what` and what is wrong. At most 10,000 rows.
std::vector<DramRow> parse_dram_past_l2(const std::string& csv, const std::string& what);
const std::vector<DramRow>& dram_past_l2_table();
// One line for a profile's base name and a kernel the table holds: within 30 % at every size, or
// where not, the measured figure with device and date (from `t`'s sources). "" for any other kernel.
std::string dram_past_l2_line(const std::vector<DramRow>& rows, const HeldOutTable& t, const std::string& gpu,
                              const std::string& kernel);

}  // namespace tilescope
