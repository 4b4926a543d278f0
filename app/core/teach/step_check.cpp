#include "core/teach/step_check.h"

#include <regex>
#include <set>

#include "core/base/errors.h"
#include "core/trace/phases.h"
#include "core/trace/view_model.h"

namespace tilescope {
namespace {

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The text's sentences (split after ". ", "? ", "! " and ": " is kept inside).
std::vector<std::string> sentences(const std::string& text) {
    std::vector<std::string> out;
    std::string cur;
    for (size_t i = 0; i < text.size(); ++i) {
        cur += text[i];
        if ((text[i] == '.' || text[i] == '?' || text[i] == '!') && (i + 1 == text.size() || text[i + 1] == ' ')) {
            out.push_back(cur);
            cur.clear();
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

// A sentence that says where its figures come from: a page of docs/, a tilescope command
// that reproduces them, or the view on screen that measures them now.
bool names_source(const std::string& sentence) {
    static const std::regex source(
        R"(docs/[a-z_]+\.md|tilescope (bench|trace|frame)\b|the performance view|above the plots|this machine's device|\bslides\b)", std::regex::icase);
    return std::regex_search(sentence, source);
}

// A sentence that states something measured, rather than counted on screen.
bool states_measurement(const std::string& sentence) {
    static const std::regex measured(
        R"(\b[0-9]+(\.[0-9]+)? ?ms\b|\b(faster|slower)\b|Nsight|\bmeasured\b|\btimed\b)");
    return std::regex_search(sentence, measured);
}

void element_labels(const std::vector<ElementRef>& refs, std::set<std::string>& out) {
    for (const ElementRef& r : refs) out.insert(r.label);
}
void local_labels(const std::vector<LocalCellRef>& refs, std::set<std::string>& out) {
    for (const LocalCellRef& r : refs) {
        out.insert(r.label);
        if (r.stands_for) out.insert(r.stands_for->label);
    }
}

// Every element name the screen holds: the frame's cells, its sums' terms, and the story of
// its work-item (what it loads, stores, holds, and what its id stands for).
std::set<std::string> frame_labels(const Frame& f) {
    std::set<std::string> out;
    for (const FrameArray& a : f.arrays)
        for (const FrameCell& c : a.cells) out.insert(c.label);
    static const std::regex name(R"([MNPABC][0-9]+,[0-9]+)");
    for (const CellSum& s : f.sums) {
        out.insert(s.label);
        for (const std::string& t : s.terms)
            for (std::sregex_iterator it(t.begin(), t.end(), name), end; it != end; ++it) out.insert(it->str());
    }
    if (f.item) {
        if (f.item->computes) out.insert(f.item->computes->label);
        if (f.item->assigned) out.insert(f.item->assigned->label);
        for (const WorkItemStep& s : f.item->steps) {
            element_labels(s.loads, out);
            element_labels(s.stores, out);
            local_labels(s.local_stores, out);
            local_labels(s.local_reads, out);
        }
    }
    return out;
}

std::string capitalised(std::string s) {
    if (!s.empty()) s[0] = char(std::toupper(static_cast<unsigned char>(s[0])));
    return s;
}

}  // namespace

std::optional<Frame> step_frame(const LessonStep& step, const Trace& trace) {
    const nlohmann::json& st = step.state;
    if (!st.contains("phase")) return std::nullopt;
    FrameRequest r;
    if (st.contains("group")) r.group = GroupId{st["group"][0].get<uint32_t>(), st["group"].size() > 1 ? st["group"][1].get<uint32_t>() : 0u, 0u};
    r.phase = st["phase"].get<int>();
    r.part = st.value("part", std::string());
    if (st.contains("iteration")) r.iteration = st["iteration"].get<int>();
    if (st.contains("item")) r.item = WorkItemId{st["item"][0].get<uint32_t>(), st["item"].size() > 1 ? st["item"][1].get<uint32_t>() : 0u, 0u};
    if (const auto n = parse_naming(st.value("naming", std::string("slides")))) r.naming = *n;
    return build_frame(trace, matrix_roles(trace), r);
}

std::string step_heading(const LessonStep& step, const std::string& opened_title, const std::string& shown_title) {
    if (shown_title.empty() || shown_title == opened_title) return step.title;
    return shown_title + "  (stepped on from: " + step.title + ")";
}

std::vector<std::string> heading_disagreements(const std::string& heading, const Frame& f) {
    std::vector<std::string> out;
    // Only the heading's own part (before "(stepped on from: ...)") describes the frame.
    const std::string own = heading.substr(0, heading.find("  (stepped on from: "));
    std::smatch m;
    static const std::regex phase(R"(\bPhase ([0-9]+)\b)"), block(R"(\bBlock ?\(([0-9]+), ?([0-9]+)\))"),
        iteration(R"(\(iteration ([0-9]+)\))"), part(R"(\b(Load|Use|Store|Compute)s?\b)");
    if (std::regex_search(own, m, phase) && std::stoi(m[1]) != f.phase)
        out.push_back("says Phase " + m[1].str() + " over phase " + std::to_string(f.phase));
    if (std::regex_search(own, m, block) && (std::stoul(m[1]) != f.group[0] || std::stoul(m[2]) != f.group[1]))
        out.push_back("says Block (" + m[1].str() + "," + m[2].str() + ") over block (" + std::to_string(f.group[0]) + "," +
                      std::to_string(f.group[1]) + ")");
    const bool says_iteration = std::regex_search(own, m, iteration);
    if (says_iteration && (!f.iteration || std::stoi(m[1]) != *f.iteration))
        out.push_back("says iteration " + m[1].str() + " over " + (f.iteration ? "iteration " + std::to_string(*f.iteration) : "the whole part"));
    if (!says_iteration && f.iteration && std::regex_search(own, part) && f.iterations > 1)
        out.push_back("names no iteration over iteration " + std::to_string(*f.iteration) + " of " + std::to_string(f.iterations));
    if (std::regex_search(own, m, part) && lower(m[1]) != lower(f.part.substr(0, f.part.find(' '))))
        out.push_back("says " + m[1].str() + " over the " + f.part + " part");
    return out;
}

std::vector<std::string> step_disagreements(const LessonStep& step, const Trace* trace) {
    std::vector<std::string> out;
    auto add = [&](const std::string& where, const std::string& what) { out.push_back(where + ": " + what); };
    const std::string question = step.question ? step.question->text : std::string();
    const LaunchConfig launch = step_launch(step);
    const std::optional<Frame> frame = trace ? step_frame(step, *trace) : std::nullopt;

    // The title describes the frame the step opens.
    if (frame)
        for (const std::string& d : heading_disagreements(step.title, *frame)) add("title", d);

    // Element names: each one the text names is on screen (a cell, a sum's term, the story).
    if (frame) {
        const std::set<std::string> shown = frame_labels(*frame);
        static const std::regex name(R"(\b[MNP][0-9]+,[0-9]+\b)");
        for (const auto& [where, text] : {std::pair<std::string, std::string>{"title", step.title}, {"script", step.script}})
            for (std::sregex_iterator it(text.begin(), text.end(), name), end; it != end; ++it)
                if (!shown.count(it->str())) add(where, "names " + it->str() + ", which the frame does not show");
        // A phase the text names exists in the group.
        static const std::regex phase(R"(\b[Pp]hase ([0-9]+)\b)");
        for (const auto& text : {step.title, step.script})
            for (std::sregex_iterator it(text.begin(), text.end(), phase), end; it != end; ++it)
                if (std::stoi((*it)[1]) >= frame->phases)
                    add("text", "names phase " + (*it)[1].str() + " of a group with " + std::to_string(frame->phases) + " phases");
        // "local id (X,Y)": the step's work-item.
        std::smatch m;
        static const std::regex local(R"(local id \(([0-9]+),([0-9]+)\))");
        if (std::regex_search(step.script, m, local) &&
            (!frame->item || std::stoul(m[1]) != frame->item->local[0] || std::stoul(m[2]) != frame->item->local[1]))
            add("script", "names local id (" + m[1].str() + "," + m[2].str() + "), which is not the step's work-item");
    }

    // Sizes, tiles and PAD named in the title or question are the step's (or its compare's).
    std::set<int64_t> sizes = {launch.size.M, launch.size.N}, tiles = {launch.tile}, pads;
    auto pad_of = [](const LaunchConfig& c) -> std::optional<int64_t> {
        const auto it = c.params.find("PAD");
        if (it != c.params.end()) return it->second;
        for (const auto& p : c.kernel.params)
            if (p.name == "PAD") return p.default_value;
        return std::nullopt;
    };
    if (const auto p = pad_of(launch)) pads.insert(*p);
    if (const auto other = step_compare_launch(step)) {
        if (const auto p = pad_of(*other)) pads.insert(*p);
        tiles.insert(other->tile);
        sizes.insert({other->size.M, other->size.N});
    }
    for (const auto& [where, text] : {std::pair<std::string, std::string>{"title", step.title}, {"question", question}}) {
        static const std::regex size(R"(\b([0-9]+) ?[x×] ?([0-9]+)\b)"), tile(R"(\b(?:TILE_WIDTH|TS) ?=? ?([0-9]+)\b)"), pad(R"(\bPAD ?= ?([0-9]+)\b)");
        for (std::sregex_iterator it(text.begin(), text.end(), size), end; it != end; ++it)
            if (!sizes.count(std::stoll((*it)[1])) && !tiles.count(std::stoll((*it)[1])))
                add(where, "names size " + it->str() + ", not the step's " + launch.size.label());
        for (std::sregex_iterator it(text.begin(), text.end(), tile), end; it != end; ++it)
            if (!tiles.count(std::stoll((*it)[1]))) add(where, "names " + it->str() + ", not the step's tile " + std::to_string(launch.tile));
        for (std::sregex_iterator it(text.begin(), text.end(), pad), end; it != end; ++it)
            if (!pads.count(std::stoll((*it)[1]))) add(where, "names " + it->str() + ", which neither side runs");
    }
    static const std::regex pad(R"(\bPAD ?= ?([0-9]+)\b)");
    for (std::sregex_iterator it(step.script.begin(), step.script.end(), pad), end; it != end; ++it)
        if (!pads.count(std::stoll((*it)[1]))) add("script", "names " + it->str() + ", which neither side runs");

    // The script: a measured figure, or a size the screen does not show, names its source.
    static const std::regex other_size(R"(\b([0-9]+) ?[x×] ?([0-9]+)\b|\b([0-9]+)(³|\^3)|\b([0-9]+)²)");
    for (const std::string& s : sentences(step.script)) {
        if (names_source(s)) continue;
        if (states_measurement(s)) add("script", "states a measurement without its source (docs/*.md or a tilescope command): \"" + s + "\"");
        for (std::sregex_iterator it(s.begin(), s.end(), other_size), end; it != end; ++it) {
            const std::string n = (*it)[1].matched ? (*it)[1].str() : (*it)[3].matched ? (*it)[3].str() : (*it)[5].str();
            if (!sizes.count(std::stoll(n)) && !tiles.count(std::stoll(n)))
                add("script", "names size " + it->str() + " (the screen shows " + launch.size.label() + ") without its source: \"" + s + "\"");
        }
    }
    return out;
}

}  // namespace tilescope
