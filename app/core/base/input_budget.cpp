#include "core/base/input_budget.h"

#include <unistd.h>

#include <cstdio>

#include "core/base/errors.h"

namespace tilescope {

uint64_t physical_memory_bytes() {
    return static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGE_SIZE));
}

std::string budget_bytes_text(uint64_t b) {
    char buf[64];
    if (b == UINT64_MAX) return "more than 16 EiB";
    if (b >= (uint64_t(1) << 30)) std::snprintf(buf, sizeof buf, "%.1f GiB", double(b) / double(uint64_t(1) << 30));
    else if (b >= (uint64_t(1) << 20)) std::snprintf(buf, sizeof buf, "%.0f MiB", double(b) / double(uint64_t(1) << 20));
    else if (b >= 1024) std::snprintf(buf, sizeof buf, "%.0f KiB", double(b) / 1024.0);
    else std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(b));
    return buf;
}

uint64_t saturating_mul(uint64_t a, uint64_t b) {
    uint64_t r = 0;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

uint64_t saturating_add(uint64_t a, uint64_t b) {
    uint64_t r = 0;
    return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

namespace {
std::string seconds_text(uint64_t steps) {
    char buf[64];
    const double s = double(steps) / kInputStepsPerSecond;
    if (steps == UINT64_MAX || s >= 1e9) return "more than 10^9 s";
    std::snprintf(buf, sizeof buf, s >= 10 ? "%.0f s" : "%.1f s", s);
    return buf;
}
}  // namespace

InputCost::InputCost(std::string label, uint64_t max_bytes, uint64_t max_steps)
    : label_(std::move(label)), max_bytes_(max_bytes), max_steps_(max_steps) {}

void InputCost::bytes(std::string_view field, uint64_t count, uint64_t each) {
    const uint64_t add = saturating_mul(count, each);
    const uint64_t total = saturating_add(bytes_, add);
    if (total > max_bytes_)
        throw InputTooCostly(label_ + ": " + std::string(field) + ": needs about " + budget_bytes_text(add) +
                         " of memory (" + budget_bytes_text(total) + " with the rest of the file); a file may take at most " +
                         budget_bytes_text(max_bytes_));
    bytes_ = total;
}

void InputCost::peak_bytes(std::string_view field, uint64_t count, uint64_t each) const {
    const uint64_t add = saturating_mul(count, each);
    const uint64_t total = saturating_add(bytes_, add);
    if (total > max_bytes_)
        throw InputTooCostly(label_ + ": " + std::string(field) + ": needs about " + budget_bytes_text(add) +
                         " of memory (" + budget_bytes_text(total) + " with the rest of the file); a file may take at most " +
                         budget_bytes_text(max_bytes_));
}

void InputCost::steps(std::string_view field, uint64_t count, uint64_t each) {
    const uint64_t add = saturating_mul(count, each);
    const uint64_t total = saturating_add(steps_, add);
    if (total > max_steps_)
        throw InputTooCostly(label_ + ": " + std::string(field) + ": needs about " + seconds_text(add) + " of work (" +
                         seconds_text(total) + " with the rest of the file); a file may take at most " +
                         seconds_text(max_steps_));
    steps_ = total;
}

}  // namespace tilescope
