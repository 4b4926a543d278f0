#include "core/emulator/oclgrind_messages.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

namespace tilescope {
namespace abi = trace_abi;

namespace {


std::string headline(const std::string& text) {
    const size_t nl = text.find('\n');
    std::string h = text.substr(0, nl);
    while (!h.empty() && (h.back() == ' ' || h.back() == '\r')) h.pop_back();
    return h;
}

std::vector<int> lines_in(const std::string& text) {
    static const std::regex re(R"(At line (\d+))");
    std::vector<int> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
        out.push_back(std::stoi((*it)[1]));
    return out;
}

std::vector<WorkItemId> work_items_in(const std::string& text) {
    static const std::regex re(R"(Global\((\d+),(\d+),(\d+)\))");
    std::vector<WorkItemId> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
        out.push_back({static_cast<uint32_t>(std::stoul((*it)[1])), static_cast<uint32_t>(std::stoul((*it)[2])),
                       static_cast<uint32_t>(std::stoul((*it)[3]))});
    return out;
}

std::string id_text(const std::array<uint32_t, 3>& id) {
    std::string s(1, '(');
    for (int d = 0; d < 3; ++d) {
        if (d) s.push_back(',');
        s.append(std::to_string(id[d]));
    }
    s.push_back(')');
    return s;
}

std::optional<GroupId> group_in(const std::string& text) {
    static const std::regex re(R"((?:Group|Work-group: )\((\d+),(\d+),(\d+)\))");
    std::smatch m;
    if (!std::regex_search(text, m, re)) return std::nullopt;
    return GroupId{static_cast<uint32_t>(std::stoul(m[1])), static_cast<uint32_t>(std::stoul(m[2])),
                   static_cast<uint32_t>(std::stoul(m[3]))};
}

std::string space_in(const std::string& text) {
    static const std::regex re(R"(\b(global|local|constant|private) memory)");
    std::smatch m;
    return std::regex_search(text, m, re) ? std::string(m[1]) : std::string();
}

// What an address in a message points at: "A[4096]" (a global buffer's flat index, as
// the kernel writes it) or "atile[2][3]" (a local array); empty when unknown.
struct AddressName {
    std::string text, buffer;
    bool past_end = false;
    uint64_t elements = 0;
};

AddressName name_address(const std::string& head, const std::string& space, const abi::Result& raw) {
    static const std::regex re(R"(address 0x([0-9a-fA-F]+))");
    std::smatch m;
    AddressName n;
    const uint32_t bits = raw.address_offset_bits;
    if (!std::regex_search(head, m, re) || bits == 0 || bits >= 64) return n;
    const uint64_t address = std::stoull(m[1], nullptr, 16);
    const uint64_t buffer = address >> bits, offset = address & ((uint64_t(1) << bits) - 1);
    if (space == "local") {
        for (const auto& l : raw.local_buffers) {
            if (l.memory_buffer != buffer || l.memory_buffer == 0) continue;
            const uint64_t word = offset / 4, cols = std::max<uint64_t>(1, l.cols);
            n.buffer = l.name;
            n.elements = std::max<uint64_t>(1, l.rows) * l.cols;
            n.past_end = word >= n.elements;
            n.text = l.rows > 1 ? l.name + "[" + std::to_string(word / cols) + "][" + std::to_string(word % cols) + "]"
                                : l.name + "[" + std::to_string(word) + "]";
            return n;
        }
        return n;
    }
    for (const auto& b : raw.buffers) {
        if (b.arg_index < 0 || b.memory_buffer != buffer || offset < b.base_offset || b.element_size == 0) continue;
        const uint64_t e = (offset - b.base_offset) / b.element_size;
        n.buffer = b.name;
        n.elements = b.elements;
        n.past_end = e >= b.elements;
        n.text = b.name + "[" + std::to_string(e) + "]";
        return n;
    }
    return n;
}

// The instruction text under each "entity" of a race report says whether it loads or stores.
std::vector<std::string> race_operations(const std::string& text) {
    std::vector<std::string> ops;
    for (const char* marker : {"First entity:", "Second entity:"}) {
        const size_t at = text.find(marker);
        if (at == std::string::npos) continue;
        const size_t end = text.find("At line", at);
        const std::string block = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
        ops.push_back(block.find("store ") != std::string::npos || block.find("atomic") != std::string::npos
                          ? "writes"
                          : "reads");
    }
    return ops;
}

struct Parsed {
    DiagnosticKind kind = DiagnosticKind::Other;
    std::vector<int> key_lines;  // what makes two reports the same diagnostic
    int line = 0;
    std::string message;
    std::vector<WorkItemId> work_items;
};

Parsed parse_message(const abi::Message& msg, const abi::Result& raw) {
    Parsed p;
    const std::string& text = msg.text;
    const std::string head = headline(text);
    const std::vector<int> lines = lines_in(text);
    p.work_items = work_items_in(text);
    if (p.work_items.empty() && msg.has_work_item) p.work_items.push_back(msg.work_item_global);
    const std::optional<GroupId> group = msg.has_group ? std::optional<GroupId>(msg.group) : group_in(text);
    const std::string space = space_in(head);
    p.line = !lines.empty() ? lines.front() : static_cast<int>(msg.line);
    auto at_line = [](int line) { return line > 0 ? " at line " + std::to_string(line) : std::string(); };
    auto item_text = [&](size_t i) {
        return i < p.work_items.size() ? "work-item " + id_text(p.work_items[i]) : std::string("a work-item");
    };

    if (head.find("data race") != std::string::npos) {
        p.kind = DiagnosticKind::Race;
        const std::vector<std::string> ops = race_operations(text);
        const AddressName what = name_address(head, space, raw);
        const std::string where = !what.text.empty() ? what.text
                                  : "the same " + (space.empty() ? std::string("memory") : space + " memory") + " address";
        const int l0 = lines.size() > 0 ? lines[0] : 0, l1 = lines.size() > 1 ? lines[1] : 0;
        // The line of the write is the one to look at (a read-write race is a write too early or too late).
        if (ops.size() == 2 && ops[0] == "reads" && ops[1] == "writes") p.line = l1 ? l1 : p.line;
        p.key_lines = {std::min(l0, l1), std::max(l0, l1)};
        const std::string group_text = group ? " in work-group " + id_text(*group) : "";
        p.message = "Data race on " + where + group_text + ": " + item_text(0) + " " +
                    (ops.size() > 0 ? ops[0] : "accesses") + " it" + at_line(l0) + " and " + item_text(1) + " " +
                    (ops.size() > 1 ? ops[1] : "accesses") + " it" + at_line(l1) +
                    ", with no barrier between them, so the result depends on which runs first";
        p.message += space == "local" ? "; a barrier(CLK_LOCAL_MEM_FENCE) between the two accesses fixes it." : ".";
    } else if (head.find("divergence") != std::string::npos) {
        p.kind = DiagnosticKind::Divergence;
        static const std::regex only(R"(Only (\d+) out of (\d+) work-items executed (barrier|copy))");
        std::smatch m;
        const std::string group_text = group ? "work-group " + id_text(*group) : "a work-group";
        if (std::regex_search(text, m, only)) {
            p.key_lines = {p.line};
            p.message = "Only " + std::string(m[1]) + " of the " + std::string(m[2]) + " work-items of " + group_text +
                        " reached the " + (m[3] == "copy" ? "async copy" : "barrier") + at_line(p.line) +
                        "; every work-item of a group must reach each barrier, or none may.";
        } else {
            // A work-item reached a different barrier from the ones already waiting: the
            // waiting ones' barrier ("Previous work-items executed") is where the group split.
            const int here = lines.size() > 0 ? lines[0] : 0, before = lines.size() > 1 ? lines[1] : 0;
            p.line = before ? before : here;
            p.key_lines = {std::min(here, before), std::max(here, before)};
            p.message = "Work-items of " + group_text + " reached different barriers: " + item_text(0) +
                        " is at the barrier" + at_line(here) + " while earlier work-items wait at the one" +
                        at_line(before) + "; every work-item must reach the same barriers in the same order.";
        }
        p.work_items.resize(std::min<size_t>(p.work_items.size(), 1));
    } else if (head.rfind("Invalid read", 0) == 0 || head.rfind("Invalid write", 0) == 0) {
        static const std::regex re(R"(Invalid (read|write) of size (\d+))");
        std::smatch m;
        if (std::regex_search(head, m, re)) {
            p.kind = DiagnosticKind::OutOfBounds;
            const AddressName what = name_address(head, space, raw);
            const std::string verb = m[1] == "read" ? "reads" : "writes";
            p.message = item_text(0) + " " + verb + " " + std::string(m[2]) + " bytes";
            if (!what.text.empty() && what.past_end)
                p.message += " at " + what.text + ", past the end of " + what.buffer + " (" + std::to_string(what.elements) +
                             " elements),";
            else if (!what.text.empty())
                p.message += " at " + what.text + ", outside " + what.buffer + ",";
            else
                p.message += " outside every buffer of " + (space.empty() ? std::string("memory") : space + " memory");
            p.message += at_line(p.line) + "; check the index and the bounds test before it.";
            p.message[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(p.message[0])));
        } else {
            p.message = head + at_line(p.line) + ".";
        }
        p.key_lines = {p.line};
    } else if (head.find("exceeds static array size") != std::string::npos) {
        p.kind = DiagnosticKind::OutOfBounds;
        p.key_lines = {p.line};
        p.message = head + at_line(p.line) + ": the index is outside the array.";
    } else if (head.find("ninitialized") != std::string::npos) {
        p.kind = DiagnosticKind::Uninitialized;
        p.key_lines = {p.line};
        std::string h = head;
        if (auto a = h.find(" address 0x"); a != std::string::npos) h.resize(a);
        h[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(h[0])));
        p.message = item_text(0) + " uses a value that was never written (" + h + ")" + at_line(p.line) +
                    "; every element must be stored before it is read.";
        p.message[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(p.message[0])));
    } else {
        p.kind = DiagnosticKind::Other;
        p.key_lines = {p.line};
        p.message = "Oclgrind: " + head + at_line(p.line) + ".";
    }
    return p;
}

}  // namespace

std::vector<Diagnostic> diagnose(const abi::Result& raw) {
    std::vector<Diagnostic> out;
    // Reports of the same kind at the same source lines are one diagnostic; other
    // messages also need the same first line of text.
    std::map<std::tuple<DiagnosticKind, std::vector<int>, std::string>, size_t> index;
    for (const abi::Message& msg : raw.messages) {
        if (msg.type < 2) continue;  // debug and info messages are not findings
        Parsed p = parse_message(msg, raw);
        const auto key = std::make_tuple(p.kind, p.key_lines,
                                         p.kind == DiagnosticKind::Other ? headline(msg.text) : std::string());
        auto it = index.find(key);
        if (it == index.end()) {
            Diagnostic d;
            d.kind = p.kind;
            d.message = std::move(p.message);
            d.line = p.line;
            d.oclgrind_text = msg.text;
            d.count = 1 + msg.repeats;
            for (const auto& w : p.work_items)
                if (std::find(d.work_items.begin(), d.work_items.end(), w) == d.work_items.end() && d.work_items.size() < 8)
                    d.work_items.push_back(w);
            index[key] = out.size();
            out.push_back(std::move(d));
            continue;
        }
        Diagnostic& d = out[it->second];
        d.count += 1 + msg.repeats;
        for (const auto& w : p.work_items)
            if (std::find(d.work_items.begin(), d.work_items.end(), w) == d.work_items.end() && d.work_items.size() < 8)
                d.work_items.push_back(w);
    }
    // Errors a student must fix first: races and divergence, then memory, then the rest.
    std::stable_sort(out.begin(), out.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return static_cast<int>(a.kind) < static_cast<int>(b.kind);
    });
    return out;
}

}  // namespace tilescope
