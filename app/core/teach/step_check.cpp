#include "core/teach/step_check.h"

#include <cmath>
#include <cstdio>
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
        R"(docs/[a-z_]+\.md|tilescope (bench|trace|frame|occupancy)\b|the performance view|above the plots|this machine's device|\bslides\b)", std::regex::icase);
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


// ---- numbers (issue 33: "any number in the text is checked") ----

// A number word's value ("four" 4, "half" 2, "quadruples" 4); 0 when the word is none.
double number_word(const std::string& w) {
    static const std::pair<const char*, double> words[] = {
        {"two", 2},    {"three", 3},   {"four", 4},    {"five", 5},      {"six", 6},        {"seven", 7},
        {"eight", 8},  {"nine", 9},    {"ten", 10},    {"eleven", 11},   {"twelve", 12},    {"sixteen", 16},
        {"twice", 2},  {"double", 2},  {"doubles", 2}, {"half", 2},      {"quarter", 4},    {"triples", 3},
        {"quadruples", 4}, {"thrice", 3}};
    const std::string l = lower(w);
    for (const auto& [k, v] : words)
        if (l == k) return v;
    return 0;
}

// The noun a count is bound to ("work-items", "work-groups", "phases"), from the words after it.
std::string bound_noun(const std::string& after) {
    static const std::regex noun(R"(^\s+(?:more |fewer |new |extra )?(work-items?|work-groups?|groups?|blocks?|phases?)\b)");
    std::smatch m;
    if (!std::regex_search(after, m, noun)) return "";
    const std::string n = m[1].str();
    if (n.rfind("work-item", 0) == 0) return "work-items";
    if (n.rfind("phase", 0) == 0) return "phases";
    return "work-groups";
}

// A figure as written ("4,280", "1.57") matched against the text of a page: as written, or
// without its thousands separators, standing alone (not inside a longer number).
// With `unit` ("MB", "µs", "%"), the page must write the unit after the figure too.
bool page_states(const std::string& page, const std::string& figure, const std::string& unit = "") {
    std::string plain;
    for (char c : figure)
        if (c != ',') plain += c;
    for (const std::string& f : {figure, plain}) {
        for (size_t at = page.find(f); at != std::string::npos; at = page.find(f, at + 1)) {
            const bool before_ok = at == 0 || !(std::isdigit(static_cast<unsigned char>(page[at - 1])) || page[at - 1] == '.' || page[at - 1] == ',');
            const size_t end = at + f.size();
            const bool after_ok = end >= page.size() || !std::isdigit(static_cast<unsigned char>(page[end])) ||
                                  false;
            const bool decimal_after = end + 1 < page.size() && (page[end] == '.' || page[end] == ',') &&
                                       std::isdigit(static_cast<unsigned char>(page[end + 1]));
            const bool unit_ok = unit.empty() || page.compare(end, unit.size(), unit) == 0 ||
                                 (end < page.size() && page[end] == ' ' && page.compare(end + 1, unit.size(), unit) == 0);
            if (before_ok && after_ok && !decimal_after && unit_ok) return true;
        }
    }
    return false;
}

// The unit written after a figure ("22,114 µs", "134 MB", "88.6%"), or "".
std::string unit_after(const std::string& after) {
    static const char* units[] = {"GFLOP/s", "ms", "µs", "MB", "GB", "KB", "%", "B"};
    const size_t skip = !after.empty() && after[0] == ' ' ? 1 : 0;
    for (const char* u : units) {
        const std::string unit = u;
        if (after.compare(skip, unit.size(), unit) != 0) continue;
        const size_t end = skip + unit.size();
        if (end < after.size() && std::isalpha(static_cast<unsigned char>(after[end]))) continue;
        return unit;
    }
    return "";
}

// Whether `value` as written (with `decimals` places) is `fact` rounded the same way.
bool same_figure(double value, int decimals, double fact) {
    const double scale = std::pow(10.0, decimals);
    return std::llround(fact * scale) == std::llround(value * scale);
}

}  // namespace

std::vector<std::pair<double, std::string>> step_facts(const LessonStep& step, const Frame* frame, const Trace* trace,
                                                       const Trace* compare) {
    std::vector<std::pair<double, std::string>> f;
    auto side = [&](const LaunchConfig& c, const std::string& who) {
        const int64_t ts = c.tile;
        f.push_back({double(c.size.M), "M" + who});
        f.push_back({double(c.size.N), "N" + who});
        f.push_back({double(c.size.K), "K" + who});
        f.push_back({double(c.size.M - 1), "last row of P" + who});
        f.push_back({double(c.size.N - 1), "last column of P" + who});
        f.push_back({double(c.size.K - 1), "last column of M" + who});
        f.push_back({double(ts), "TS" + who});
        f.push_back({double(ts * ts), "work-items per group (TS x TS)" + who});
        if (ts > 0) f.push_back({double((c.size.K + ts - 1) / ts), "phases (ceil(K/TS))" + who});
        for (const auto& [k, v] : c.params) f.push_back({double(v), k + who});
        for (const auto& p : c.kernel.params)
            if (!c.params.count(p.name)) f.push_back({double(p.default_value), p.name + who});
        try {
            const ResolvedLaunch r = resolve(c);
            f.push_back({double(r.groups[0]), "work-groups along dimension 0" + who});
            f.push_back({double(r.groups[1]), "work-groups along dimension 1" + who});
            f.push_back({double(r.total_groups()), "work-groups" + who});
            f.push_back({double(r.group_size()), "work-items per group" + who});
            f.push_back({double(r.total_groups() * r.group_size()), "work-items launched" + who});
        } catch (const std::exception&) {
        }
    };
    const LaunchConfig launch = step_launch(step);
    side(launch, "");
    const std::optional<LaunchConfig> other = step_compare_launch(step);
    if (other) {
        side(*other, " (compare)");
        // Ratios between the two sides ("four times larger", "half as many phases").
        const double a = launch.tile, b = other->tile;
        if (a > 0 && b > 0 && a != b) {
            const double r = std::max(a, b) / std::min(a, b);
            f.push_back({r, "ratio of the two TS"});
            f.push_back({r * r, "ratio of the two tiles' areas"});
        }
    }
    // The model's constants.
    f.push_back({0, "the 0 a load past the edge stores"});
    f.push_back({2, "operands of a multiply-add"});
    f.push_back({4, "bytes per float"});
    f.push_back({32, "lanes of a request; bytes of a sector"});
    f.push_back({double((2 * launch.size.M * launch.size.N * launch.size.K * 4) >> 20), "MB of 2*M*N*K floats"});
    if (frame) {
        f.push_back({double(frame->phase), "the frame's phase"});
        f.push_back({double(frame->phases), "the group's phases"});
        if (frame->iteration) f.push_back({double(*frame->iteration), "the frame's iteration"});
        f.push_back({double(frame->iterations), "iterations of the part"});
        for (int64_t i = 0; i < launch.tile; ++i) {
            f.push_back({double(i), "a row or column of the local tiles"});
            f.push_back({double(frame->phase * launch.tile + i), "a column of M (row of N) the phase's tiles cover"});
        }
    }
    auto bank = [&](const Trace* t, const std::string& who) {
        if (!t || t->bank_conflicts.requests == 0) return;
        f.push_back({double(t->bank_conflicts.max_degree), "bank-conflict degree" + who});
        f.push_back({t->bank_conflicts.mean_degree(), "mean bank-conflict degree" + who});
    };
    bank(trace, "");
    bank(compare, " (compare)");
    if (trace && compare && compare->totals.global_load_bytes && trace->totals.global_load_bytes) {
        const double a = double(trace->totals.global_load_bytes), b = double(compare->totals.global_load_bytes);
        f.push_back({std::max(a, b) / std::min(a, b), "ratio of the two sides' global loads"});
    }
    return f;
}

namespace {

// The counts a noun takes ("work-items": the work-items per group, launched, in a row or
// column of P), from the facts.
bool noun_allows(const std::string& noun, double v, const std::vector<std::pair<double, std::string>>& facts) {
    for (const auto& [x, what] : facts) {
        if (x != v) continue;
        if (noun == "work-items" && (what.find("work-items") != std::string::npos || what[0] == 'M' || what[0] == 'N')) return true;
        if (noun == "work-groups" && what.find("work-groups") != std::string::npos) return true;
        if (noun == "phases" && what.find("phases") != std::string::npos) return true;
    }
    return false;
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

std::vector<std::string> step_disagreements(const LessonStep& step, const Trace* trace, const Trace* compare, const DocReader& read_doc) {
    std::vector<std::string> out;
    auto add = [&](const std::string& where, const std::string& what) { out.push_back(where + ": " + what); };
    const std::string question = step.question ? step.question->text : std::string();
    const LaunchConfig launch = step_launch(step);
    // The frame is on screen in the emulation view only (a compare step's trace is its left side).
    const bool shows_frame = step.state.value("view", std::string("emulation")) == "emulation";
    const std::optional<Frame> frame = trace && shows_frame ? step_frame(step, *trace) : std::nullopt;

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
    std::set<int64_t> sizes = {launch.size.M, launch.size.N, launch.size.K}, tiles = {launch.tile}, pads;
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
        sizes.insert({other->size.M, other->size.N, other->size.K});
    }
    // The launch's grid, resolved once: its work-group sides are on screen too (tiled_wpt's 32x16
    // groups of quiz 1), and the number check below reads it.
    std::optional<ResolvedLaunch> grid;
    try {
        grid = resolve(launch);
    } catch (const std::exception&) {
    }
    if (grid)
        for (int d = 0; d < std::min(grid->dims, 2); ++d) tiles.insert(int64_t(grid->local[size_t(d)]));
    // Every side of a size ("37x29x45", "2x2"), not its first alone: one changed side fails.
    static const std::regex size_chain(R"(\b[0-9]+(?: ?[x×] ?[0-9]+)+\b)"), side(R"([0-9]+)");
    auto foreign_side = [&](const std::string& size) {
        for (std::sregex_iterator it(size.begin(), size.end(), side), end; it != end; ++it)
            if (!sizes.count(std::stoll(it->str())) && !tiles.count(std::stoll(it->str()))) return true;
        return false;
    };
    for (const auto& [where, text] : {std::pair<std::string, std::string>{"title", step.title}, {"question", question}}) {
        static const std::regex tile(R"(\b(?:TILE_WIDTH|TS) ?=? ?([0-9]+)\b)"), pad(R"(\bPAD ?= ?([0-9]+)\b)");
        for (std::sregex_iterator it(text.begin(), text.end(), size_chain), end; it != end; ++it)
            if (foreign_side(it->str())) add(where, "names size " + it->str() + ", not the step's " + launch.size.label());
        for (std::sregex_iterator it(text.begin(), text.end(), tile), end; it != end; ++it)
            if (!tiles.count(std::stoll((*it)[1]))) add(where, "names " + it->str() + ", not the step's tile " + std::to_string(launch.tile));
        for (std::sregex_iterator it(text.begin(), text.end(), pad), end; it != end; ++it)
            if (!pads.count(std::stoll((*it)[1]))) add(where, "names " + it->str() + ", which neither side runs");
    }
    static const std::regex pad(R"(\bPAD ?= ?([0-9]+)\b)");
    for (std::sregex_iterator it(step.script.begin(), step.script.end(), pad), end; it != end; ++it)
        if (!pads.count(std::stoll((*it)[1]))) add("script", "names " + it->str() + ", which neither side runs");

    // The script: a measured figure, or a size the screen does not show, names its source.
    static const std::regex other_size(R"(\b[0-9]+(?: ?[x×] ?[0-9]+)+\b|\b[0-9]+(?:³|\^3|²))");
    for (const std::string& s : sentences(step.script)) {
        if (names_source(s)) continue;
        if (states_measurement(s)) add("script", "states a measurement without its source (docs/*.md or a tilescope command): \"" + s + "\"");
        for (std::sregex_iterator it(s.begin(), s.end(), other_size), end; it != end; ++it)
            if (foreign_side(it->str()))
                add("script", "names size " + it->str() + " (the screen shows " + launch.size.label() + ") without its source: \"" + s + "\"");
    }

    // Every number: checked by its construct, by the page its sentence names, or as a fact.
    const std::vector<std::pair<double, std::string>> facts = step_facts(step, frame ? &*frame : nullptr, trace, compare);
    std::vector<std::string> source_lines;
    {
        std::string line;
        for (char c : launch.kernel.source) {
            if (c == '\n') {
                source_lines.push_back(line);
                line.clear();
            } else {
                line += c;
            }
        }
        source_lines.push_back(line);
    }
    static const std::regex command(R"(tilescope [a-z]+(?:\s+--[a-z-]+(?:\s+[A-Za-z0-9_.:=/]+(?:,[A-Za-z0-9_.:=/]+)*)?)*)"),
        doc_ref(R"(docs/[a-z_]+\.md)"), element(R"(\b[MNPABC][0-9]+,[0-9]+\b)"),
        size_ref(R"(\b[0-9]+(?: ?[x×] ?[0-9]+)+\b|\b[0-9]+(?:³|²|\^3))"), date(R"(\b[0-9]{4}-[0-9]{2}-[0-9]{2}\b)"),
        keyed(R"(\b(?:[Pp]hase|[Ii]teration|[Ss]tep|TS|TILE_WIDTH|PAD) ?=? ?[0-9]+\b)"),
        block_ref(R"(\b(?:[Bb]lock|[Gg]roup) ?\(([0-9]+), ?([0-9]+)\))"), thread_ref(R"(\bThread ?\(([0-9]+), ?([0-9]+)\))"),
        local_ref(R"(\blocal id \(([0-9]+), ?([0-9]+)\))"), line_ref(R"(\bline ([0-9]+)\b)"),
        iteration_ref(R"(\b[Ii]teration ([0-9]+)\b)"), tile_ref(R"(\b(?:TILE_WIDTH|TS) ?=? ?([0-9]+)\b)"),
        number(R"([0-9][0-9,.]*[0-9]|[0-9]|\b[A-Za-z]+\b)");
    auto blank = [](std::string& text, const std::regex& re) {
        for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
            for (long i = it->position(); i < it->position() + it->length(); ++i) text[size_t(i)] = ' ';
    };
    for (const auto& [where, text] : {std::pair<std::string, std::string>{"title", step.title}, {"script", step.script}, {"question", question}})
        for (const std::string& sentence : sentences(text)) {
            std::string rest = sentence;
            const bool runs_command = std::regex_search(rest, command);
            blank(rest, command);
            const bool sourced = runs_command || names_source(rest);
            std::vector<std::string> docs;
            for (std::sregex_iterator it(rest.begin(), rest.end(), doc_ref), end; it != end; ++it) docs.push_back(it->str());
            blank(rest, doc_ref);
            // A size or a tile in a sentence that names a page: each of its numbers on that page
            // (the figures below are held to it; these are blanked before them).
            if (!docs.empty() && read_doc && !runs_command)
                for (const std::regex* re : {&size_ref, &tile_ref})
                    for (std::sregex_iterator it(rest.begin(), rest.end(), *re), end; it != end; ++it) {
                        const std::string construct = it->str();
                        for (std::sregex_iterator d(construct.begin(), construct.end(), side), dend; d != dend; ++d) {
                            bool found = false;
                            for (const std::string& doc : docs)
                                if (const auto page = read_doc(doc); page && page_states(*page, d->str())) found = true;
                            if (!found) add(where, "names " + construct + ", which the page it names does not state: \"" + sentence + "\"");
                        }
                    }
            // Constructs with their own check.
            std::smatch m;
            for (std::sregex_iterator it(rest.begin(), rest.end(), block_ref), end; it != end; ++it)
                if (grid && (std::stoul((*it)[1]) >= grid->groups[0] || std::stoul((*it)[2]) >= grid->groups[1]))
                    add(where, "names " + it->str() + ", a work-group the launch does not have");
            for (std::sregex_iterator it(rest.begin(), rest.end(), thread_ref), end; it != end; ++it)
                if (frame && (!frame->item || std::stoul((*it)[2]) != frame->item->local[0] || std::stoul((*it)[1]) != frame->item->local[1]))
                    add(where, "names " + it->str() + " (row, column), which is not the step's work-item");
            for (std::sregex_iterator it(rest.begin(), rest.end(), line_ref), end; it != end; ++it) {
                const size_t n = std::stoul((*it)[1]);
                if (n == 0 || n > source_lines.size())
                    add(where, "names " + it->str() + " of a kernel source of " + std::to_string(source_lines.size()) + " lines");
                else if (lower(sentence).find("barrier") != std::string::npos && source_lines[n - 1].find("barrier") == std::string::npos)
                    add(where, "names " + it->str() + " beside a barrier, but that line of " + launch.kernel.name + " holds none");
            }
            if (frame && frame->iterations > 0)
                for (std::sregex_iterator it(rest.begin(), rest.end(), iteration_ref), end; it != end; ++it)
                    if (std::stoi((*it)[1]) >= frame->iterations)
                        add(where, "names " + it->str() + " of a part with " + std::to_string(frame->iterations) + " iterations");
            if (!sourced)
                for (std::sregex_iterator it(rest.begin(), rest.end(), tile_ref), end; it != end; ++it)
                    if (!tiles.count(std::stoll((*it)[1]))) add(where, "names " + it->str() + ", not the step's tile " + std::to_string(launch.tile));
            for (const std::regex* re : {&element, &size_ref, &date, &keyed, &block_ref, &thread_ref, &local_ref, &line_ref}) blank(rest, *re);
            // What is left: each number stated.
            for (std::sregex_iterator it(rest.begin(), rest.end(), number), end; it != end; ++it) {
                const std::string tok = it->str();
                const size_t at = size_t(it->position()), stop = at + tok.size();
                double value = 0;
                int decimals = 0;
                bool word = std::isalpha(static_cast<unsigned char>(tok[0])) != 0;
                if (word) {
                    value = number_word(tok);
                    if (value == 0) continue;
                } else {
                    // Part of a name ("L1", "H200", "i7", "reg2d"): not a number.
                    if (at > 0 && (std::isalpha(static_cast<unsigned char>(rest[at - 1])) || rest[at - 1] == '_')) continue;
                    if (stop < rest.size() && (std::isalpha(static_cast<unsigned char>(rest[stop])) || rest[stop] == '_') &&
                        !(stop + 1 < rest.size() && rest[stop] == 'x'))
                        continue;
                    std::string plain;
                    for (char c : tok)
                        if (c != ',') plain += c;
                    value = std::stod(plain);
                    const size_t dot = plain.find('.');
                    decimals = dot == std::string::npos ? 0 : int(plain.size() - dot - 1);
                }
                if (!docs.empty()) {
                    if (word || !read_doc) continue;
                    bool found = false;
                    for (const std::string& d : docs)
                        if (const auto page = read_doc(d); page && page_states(*page, tok, unit_after(rest.substr(stop)))) found = true;
                    if (!found) {
                        std::string names;
                        for (const std::string& d : docs) names += (names.empty() ? "" : ", ") + d;
                        add(where, "states " + tok + (unit_after(rest.substr(stop)).empty() ? "" : " " + unit_after(rest.substr(stop))) + ", which " +
                                       names + " (the source it names) does not: \"" + sentence + "\"");
                    }
                    continue;
                }
                if (sourced) continue;
                const std::string noun = bound_noun(rest.substr(stop));
                if (!noun.empty()) {
                    if (!noun_allows(noun, value, facts))
                        add(where, "says " + tok + " " + noun + ", not a count of " + noun + " the step launches: \"" + sentence + "\"");
                    continue;
                }
                bool known = false;
                for (const auto& [fact, what] : facts)
                    if (same_figure(value, decimals, fact)) known = true;
                if (!known)
                    add(where, "states " + tok + ", which is none of the step's figures (sizes, TS, counts, the traced figures) and names no source: \"" +
                                   sentence + "\"");
            }
        }
    return out;
}

}  // namespace tilescope
