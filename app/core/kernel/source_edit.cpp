#include "core/kernel/source_edit.h"

#include <algorithm>
#include <cctype>

#include "core/base/errors.h"

namespace tilescope {
namespace {

struct CallSite {
    size_t begin = 0, end = 0;  // [begin, end): the name through its closing parenthesis
    int line = 0;
};

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Every barrier call in `source`, outside comments and literals.
std::vector<CallSite> barrier_calls(std::string_view s) {
    std::vector<CallSite> calls;
    int line = 1;
    for (size_t i = 0; i < s.size();) {
        const char c = s[i];
        if (c == '\n') { ++line; ++i; continue; }
        if (s.compare(i, 2, "//") == 0) { while (i < s.size() && s[i] != '\n') ++i; continue; }
        if (s.compare(i, 2, "/*") == 0) {
            const size_t close = s.find("*/", i + 2);
            const size_t stop = close == std::string_view::npos ? s.size() : close + 2;
            line += int(std::count(s.begin() + i, s.begin() + stop, '\n'));
            i = stop;
            continue;
        }
        if (c == '"' || c == '\'') {
            size_t j = i + 1;
            while (j < s.size() && s[j] != c && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
            i = std::min(s.size(), j + 1);
            continue;
        }
        if (word_char(c) && (i == 0 || !word_char(s[i - 1]))) {
            size_t j = i;
            while (j < s.size() && word_char(s[j])) ++j;
            const std::string_view word = s.substr(i, j - i);
            if (word == "barrier" || word == "work_group_barrier") {
                size_t k = j;
                while (k < s.size() && (s[k] == ' ' || s[k] == '\t')) ++k;
                if (k < s.size() && s[k] == '(') {
                    int depth = 0;
                    size_t m = k;
                    for (; m < s.size(); ++m) {
                        if (s[m] == '(') ++depth;
                        else if (s[m] == ')' && --depth == 0) break;
                    }
                    if (m < s.size()) calls.push_back({i, m + 1, line});
                }
            }
            i = j;
            continue;
        }
        ++i;
    }
    return calls;
}

std::string lines_text(const std::vector<int>& lines) {
    std::string s;
    for (int l : lines) s += (s.empty() ? "" : ", ") + std::to_string(l);
    return s;
}

}  // namespace

std::vector<int> barrier_lines(std::string_view source) {
    std::vector<int> lines;
    for (const CallSite& c : barrier_calls(source))
        if (lines.empty() || lines.back() != c.line) lines.push_back(c.line);
    return lines;
}

std::string drop_barrier(std::string_view source, int line, std::string_view option) {
    std::string out(source);
    const std::vector<CallSite> calls = barrier_calls(source);
    bool found = false;
    // Back to front, so earlier offsets stay valid; a multi-line call keeps its newlines.
    for (auto it = calls.rbegin(); it != calls.rend(); ++it) {
        if (it->line != line) continue;
        found = true;
        const std::string_view call = source.substr(it->begin, it->end - it->begin);
        out.replace(it->begin, it->end - it->begin,
                    "(void)0" + std::string(size_t(std::count(call.begin(), call.end(), '\n')), '\n'));
    }
    if (!found) {
        const std::vector<int> lines = barrier_lines(source);
        throw InputError(std::string(option) + " " + std::to_string(line) + ": that line holds no barrier; accepted: " +
                         (lines.empty() ? std::string("none (this kernel has no barrier)") : "a line with a barrier: " + lines_text(lines)));
    }
    return out;
}

KernelSpec drop_barriers(const KernelSpec& kernel, const std::vector<int>& lines, std::string_view option) {
    KernelSpec k = kernel;
    for (int line : lines) k.source = drop_barrier(k.source, line, option);
    return k;
}

}  // namespace tilescope
