#pragma once
// One budget for every input (issue 32): what a file from someone else may make tilescope
// spend, whatever its size on disk. Each reader and each structure derived from a file
// (the JSON/CBOR document, the decoded trace, the inputs the views rebuild, a group's
// replay, the traces a lesson asks for) charges its cost here *before* spending it, and
// past the budget the file is refused with one line naming the file, the field and the
// limit (an InputError: exit 2 on the command line).
//
// Two quantities: bytes of memory, and steps of work. A step is one elementary unit of
// what the structure does per element (decoding a touch, drawing a random input word,
// replaying an access, writing a cell of the hand-out): about 10^8 steps a second on
// the 2-core development machine, so the step budget stands for about 10 s
// (docs/reliability.md says how this was measured).
#include <cstdint>
#include <string>
#include <string_view>

#include "core/base/errors.h"

namespace tilescope {

// A file refused for what it would cost (not for being damaged): callers that rewrap
// InputError ("damaged trace file (...)") pass this one through as it is.
struct InputTooCostly : InputError {
    using InputError::InputError;
};

inline constexpr uint64_t kInputBudgetBytes = uint64_t(1) << 30;   // 1 GiB
inline constexpr uint64_t kInputBudgetSteps = 1'000'000'000;       // about 10 s
inline constexpr double kInputStepsPerSecond = 1e8;                // what the step budget assumes

// "3.4 GiB", "512 MiB", "4 KiB"
std::string budget_bytes_text(uint64_t bytes);

// This machine's RAM in bytes (what "half the RAM" limits are halves of).
uint64_t physical_memory_bytes();

// a * b, saturating at UINT64_MAX (a hostile count must not wrap into a small cost).
uint64_t saturating_mul(uint64_t a, uint64_t b);
uint64_t saturating_add(uint64_t a, uint64_t b);

// The running cost of one input. `label` names the file as messages do ("--open 'x.tstrace'").
class InputCost {
public:
    explicit InputCost(std::string label, uint64_t max_bytes = kInputBudgetBytes, uint64_t max_steps = kInputBudgetSteps);

    // Charges count * each bytes (steps) to `field`; throws InputError when the total
    // passes the budget: "<label>: <field>: needs about 3.4 GiB of memory (the whole file
    // 3.5 GiB); a file may take at most 1 GiB".
    void bytes(std::string_view field, uint64_t count, uint64_t each = 1);
    void steps(std::string_view field, uint64_t count, uint64_t each = 1);
    // Bytes held only for a while (one group's replay): checked against the budget with
    // what is held for good, but not added to it.
    void peak_bytes(std::string_view field, uint64_t count, uint64_t each = 1) const;

    uint64_t total_bytes() const { return bytes_; }
    uint64_t total_steps() const { return steps_; }
    const std::string& label() const { return label_; }

private:
    std::string label_;
    uint64_t max_bytes_, max_steps_;
    uint64_t bytes_ = 0, steps_ = 0;
};

}  // namespace tilescope
