#include "core/io/trace_file.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "core/base/plain_errors.h"
#include "core/base/atomic_file.h"
#include "core/base/errors.h"
#include "core/base/json_numbers.h"
#include "core/base/input_budget.h"
#include "core/base/untrusted_file.h"
#include "core/io/trace_cost.h"
#include "core/io/trace_file_check.h"
#include "core/kernel/catalog.h"

namespace tilescope {
using nlohmann::json;

namespace {

// Integer lists and maps, each value read as integer_as does (core/base/json_numbers.h).
template <class T>
std::vector<T> integers_as(const json& j) {
    if (!j.is_array()) throw InputError(std::string("a ") + j.type_name() + " where a list of whole numbers belongs");
    std::vector<T> out;
    out.reserve(j.size());
    for (const json& v : j) out.push_back(integer_as<T>(v));
    return out;
}
std::map<std::string, int64_t> integer_map(const json& j) {
    if (!j.is_object()) throw InputError(std::string("a ") + j.type_name() + " where parameters belong");
    std::map<std::string, int64_t> out;
    for (const auto& [name, v] : j.items()) out[name] = integer_as<int64_t>(v, "parameter '" + shown(name, 40) + "'");
    return out;
}

constexpr std::string_view kMagic = "tilescope trace file, version ";

// The budget of the file being parsed (issue 32): the decoders below charge what they
// allocate before allocating it. Set by parse_trace_file for the parse's duration.
thread_local InputCost* decoding_cost = nullptr;
void charge_decoded(std::string_view field, uint64_t count, uint64_t each) {
    if (decoding_cost) {
        decoding_cost->bytes(field, count, each);
        decoding_cost->steps(field, count, 2);
    }
}

// --- small pieces ---

json totals_json(const AccessTotals& t) { return json::array({t.load_bytes, t.store_bytes, t.loads, t.stores}); }
AccessTotals totals_from(const json& j) {
    return {integer_as<uint64_t>(j.at(0)), integer_as<uint64_t>(j.at(1)), integer_as<uint64_t>(j.at(2)), integer_as<uint64_t>(j.at(3))};
}
json coalescing_json(const CoalescingCounts& c) { return json::array({c.requests, c.sectors, c.ideal_sectors}); }
CoalescingCounts coalescing_from(const json& j) {
    CoalescingCounts c;
    c.requests = integer_as<uint64_t>(j.at(0));
    c.sectors = integer_as<uint64_t>(j.at(1));
    c.ideal_sectors = integer_as<uint64_t>(j.at(2));
    return c;
}
json banks_json(const BankConflictCounts& b) {
    return json::array({b.requests, b.degree_sum, b.conflicted_requests, b.max_degree});
}
BankConflictCounts banks_from(const json& j) {
    BankConflictCounts b;
    b.requests = integer_as<uint64_t>(j.at(0));
    b.degree_sum = integer_as<uint64_t>(j.at(1));
    b.conflicted_requests = integer_as<uint64_t>(j.at(2));
    b.max_degree = integer_as<uint32_t>(j.at(3));
    return b;
}
json id_json(const std::array<uint32_t, 3>& v) { return json::array({v[0], v[1], v[2]}); }
std::array<uint32_t, 3> id_from(const json& j) { return {integer_as<uint32_t>(j.at(0)), integer_as<uint32_t>(j.at(1)), integer_as<uint32_t>(j.at(2))}; }
json dims_json(const std::array<uint64_t, 3>& v) { return json::array({v[0], v[1], v[2]}); }
std::array<uint64_t, 3> dims_from(const json& j) { return {integer_as<uint64_t>(j.at(0)), integer_as<uint64_t>(j.at(1)), integer_as<uint64_t>(j.at(2))}; }

json rects_json(const std::vector<Rect>& rects) {
    json a = json::array();
    for (const Rect& r : rects) {
        a.push_back(r.r0);
        a.push_back(r.c0);
        a.push_back(r.r1);
        a.push_back(r.c1);
    }
    return a;
}
std::vector<Rect> rects_from(const json& j) {
    if (j.size() % 4) throw json::other_error::create(501, "rectangle list not a multiple of 4", &j);
    std::vector<Rect> out;
    for (size_t i = 0; i < j.size(); i += 4)
        out.push_back({integer_as<int64_t>(j[i]), integer_as<int64_t>(j[i + 1]), integer_as<int64_t>(j[i + 2]), integer_as<int64_t>(j[i + 3])});
    return out;
}

// Element touches and counters are the bulk of a trace: raw little-endian words.
template <class T>
json words_json(const std::vector<T>& v) {
    std::vector<uint8_t> bytes(v.size() * sizeof(T));
    if (!v.empty()) std::memcpy(bytes.data(), v.data(), bytes.size());
    return json::binary(std::move(bytes));
}
template <class T>
std::vector<T> words_from(const json& j) {
    const auto& bytes = j.get_binary();
    if (bytes.size() % sizeof(T)) throw json::other_error::create(501, "binary block of the wrong length", &j);
    charge_decoded("a block of counters or values", bytes.size() / sizeof(T), sizeof(T));
    std::vector<T> v(bytes.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), bytes.data(), bytes.size());
    return v;
}
// Touches are sorted by (element, work-item) and most repeat an element or step by one:
// stored as variable-length deltas they take about 2 bytes instead of 8.
void put_varint(std::vector<uint8_t>& out, uint64_t v) {
    while (v >= 0x80) {
        out.push_back(uint8_t(v) | 0x80);
        v >>= 7;
    }
    out.push_back(uint8_t(v));
}
uint64_t get_varint(const std::vector<uint8_t>& in, size_t& at, const json& where) {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (at >= in.size()) throw json::other_error::create(501, "touch list ends early", &where);
        const uint8_t byte = in[at++];
        v |= uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80)) return v;
    }
    throw json::other_error::create(501, "touch list damaged", &where);
}

json touches_json(const std::vector<ElementTouch>& touches) {
    std::vector<uint8_t> out;
    put_varint(out, touches.size());
    uint32_t element = 0, item = 0;
    for (const auto& t : touches) {
        put_varint(out, uint32_t(t.element - element));  // modulo 2^32, so an unsorted list reads back the same
        const bool same = t.element == element && t.work_item >= item;
        put_varint(out, same ? uint64_t(t.work_item - item) * 2 : uint64_t(t.work_item) * 2 + 1);
        element = t.element;
        item = t.work_item;
    }
    return json::binary(std::move(out));
}

std::vector<ElementTouch> touches_from(const json& j) {
    const auto& in = j.get_binary();
    size_t at = 0;
    const uint64_t n = get_varint(in, at, j);
    if (n > in.size()) throw json::other_error::create(501, "touch count larger than the file", &j);
    charge_decoded("an interval's element touches (" + std::to_string(n) + ")", n, sizeof(ElementTouch));
    std::vector<ElementTouch> out(n);
    uint32_t element = 0, item = 0;
    for (auto& t : out) {
        element = uint32_t(element + get_varint(in, at, j));
        const uint64_t w = get_varint(in, at, j);
        item = (w & 1) ? uint32_t(w >> 1) : uint32_t(item + (w >> 1));
        t = {element, item};
    }
    if (at != in.size()) throw json::other_error::create(501, "touch list has trailing bytes", &j);
    return out;
}

// An access log is mostly strided runs (a tile read along a row or down a column, on
// one line): each record is a header byte (its flags, and bits saying its line, size
// and element step repeat the previous ones, and its buffer when under 3) plus only
// what changed, about one byte a record against 16 in memory. Stored words follow the
// records in order, so value_begin is implied; any other value_begin is written out.
json accesses_json(const std::vector<MemoryAccess>& accesses) {
    std::vector<uint8_t> out;
    put_varint(out, accesses.size());
    std::map<uint32_t, std::pair<int64_t, int64_t>> last;  // (buffer, space) -> (element, step)
    uint32_t line = 0, size = 0, words = 0;
    const auto zigzag = [](int64_t v) { return uint64_t(v << 1) ^ uint64_t(v >> 63); };
    for (const MemoryAccess& a : accesses) {
        auto& [element, step] = last[uint32_t(a.buffer) << 1 | (a.local() ? 1 : 0)];
        const int64_t delta = int64_t(a.element) - element;
        const bool implied = a.value_begin == (a.has_value() ? words : 0);
        const uint32_t code = implied && a.buffer < 3 ? a.buffer : 3;
        out.push_back(uint8_t((a.flags & 7) | (a.line == line) << 3 | (a.size == size) << 4 | (delta == step) << 5 | code << 6));
        if (code == 3) {
            put_varint(out, a.buffer);
            put_varint(out, implied ? 0 : uint64_t(a.value_begin) + 1);
        }
        if (a.line != line) put_varint(out, zigzag(int64_t(a.line) - int64_t(line)));
        if (a.size != size) put_varint(out, a.size);
        if (delta != step) put_varint(out, zigzag(delta));
        element = a.element, step = delta, line = a.line, size = a.size;
        words += a.value_count();
    }
    return json::binary(std::move(out));
}

std::vector<MemoryAccess> accesses_from(const json& j) {
    const auto& in = j.get_binary();
    size_t at = 0;
    const uint64_t n = get_varint(in, at, j);
    if (n > in.size()) throw json::other_error::create(501, "access count larger than the file", &j);
    charge_decoded("a work-item's access log (" + std::to_string(n) + " accesses)", n, sizeof(MemoryAccess));
    std::vector<MemoryAccess> out(n);
    std::map<uint32_t, std::pair<int64_t, int64_t>> last;
    uint32_t line = 0, size = 0, words = 0;
    const auto unzigzag = [](uint64_t v) { return int64_t(v >> 1) ^ -int64_t(v & 1); };
    for (MemoryAccess& a : out) {
        if (at >= in.size()) throw json::other_error::create(501, "access log ends early", &j);
        const uint8_t h = in[at++];
        a.flags = h & 7;
        a.buffer = uint16_t(h >> 6);
        uint64_t explicit_begin = 0;
        if (a.buffer == 3) {
            a.buffer = uint16_t(get_varint(in, at, j));
            explicit_begin = get_varint(in, at, j);
        }
        line = (h & 8) ? line : uint32_t(int64_t(line) + unzigzag(get_varint(in, at, j)));
        size = (h & 16) ? size : uint32_t(get_varint(in, at, j));
        auto& [element, step] = last[uint32_t(a.buffer) << 1 | (a.local() ? 1 : 0)];
        if (!(h & 32)) step = unzigzag(get_varint(in, at, j));
        element += step;
        a.element = uint32_t(element);
        a.line = line;
        a.size = uint8_t(size);
        a.value_begin = explicit_begin ? uint32_t(explicit_begin - 1) : a.has_value() ? words : 0;
        words += a.value_count();
    }
    if (at != in.size()) throw json::other_error::create(501, "access log has trailing bytes", &j);
    return out;
}

json matrix_json(const HostMatrix& m) {
    return {{"rows", m.rows}, {"cols", m.cols}, {"colmajor", m.layout == Layout::ColMajor}, {"data", words_json(m.data)}};
}
HostMatrix matrix_from(const json& j) {
    HostMatrix m;
    m.rows = integer_as<int64_t>(j.at("rows"));
    m.cols = integer_as<int64_t>(j.at("cols"));
    m.layout = j.at("colmajor").get<bool>() ? Layout::ColMajor : Layout::RowMajor;
    m.data = words_from<float>(j.at("data"));
    int64_t cells = 0;  // a hostile shape must not overflow before it is refused
    if (m.rows < 0 || m.cols < 0 || __builtin_mul_overflow(m.rows, m.cols, &cells) || int64_t(m.data.size()) != cells)
        throw json::other_error::create(501, "matrix data of the wrong size", &j);
    return m;
}

// --- the kernel and launch ---

json kernel_json(const KernelSpec& k) {
    json args = json::array();
    for (const ArgSpec& a : k.args) args.push_back(to_string(a));
    json defines = json::array(), params = json::array();
    for (const auto& [name, value] : k.defines) defines.push_back({name, value});
    for (const TunableParam& p : k.params) params.push_back({p.name, p.default_value, p.values});
    json j = {{"name", k.name},       {"title", k.title},   {"lesson", k.lesson},   {"tile_meaning", k.tile_meaning},
              {"source", k.source},   {"source_name", k.source_name}, {"entry", k.entry}, {"global", k.global},
              {"local", k.local},     {"defines", defines}, {"args", args},         {"params", params},
              {"tiles", k.tiles},     {"default_tile", k.default_tile}, {"custom", k.custom}, {"library", k.library}};
    if (k.check) j["check"] = {k.check->c, k.check->a, k.check->b};
    // The prelude travels with the source it was built with, so the file rebuilds the
    // same program whatever a later catalog's prelude says; views show `source` only.
    if (!k.prelude.empty()) j["prelude"] = {{"name", k.prelude_name}, {"text", k.prelude}};
    return j;
}

KernelSpec kernel_from(const json& j) {
    // A catalog kernel starts from the catalog's spec, so fields a later version added
    // keep their values; everything saved then overrides it.
    KernelSpec k;
    const std::string name = j.at("name").get<std::string>();
    if (!j.at("custom").get<bool>())
        if (const KernelSpec* known = find_kernel(name)) k = *known;
    k.name = name;
    k.title = j.at("title").get<std::string>();
    k.lesson = j.at("lesson").get<std::string>();
    k.tile_meaning = j.at("tile_meaning").get<std::string>();
    k.source = j.at("source").get<std::string>();
    k.source_name = j.at("source_name").get<std::string>();
    // Files from before preludes hold the whole source: no prelude, whatever the catalog says.
    k.prelude = j.contains("prelude") ? j["prelude"].at("text").get<std::string>() : std::string();
    k.prelude_name = j.contains("prelude") ? j["prelude"].at("name").get<std::string>() : std::string();
    k.entry = j.at("entry").get<std::string>();
    k.global = j.at("global").get<std::vector<std::string>>();
    k.local = j.at("local").get<std::vector<std::string>>();
    k.defines.clear();
    for (const json& d : j.at("defines")) k.defines.emplace_back(d.at(0).get<std::string>(), d.at(1).get<std::string>());
    k.params.clear();
    for (const json& p : j.at("params"))
        k.params.push_back({p.at(0).get<std::string>(), integer_as<int64_t>(p.at(1)), integers_as<int64_t>(p.at(2))});
    k.args.clear();
    // A bad argument is named as the file holds it (its field), never as an option not typed.
    const json& args = j.at("args");
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string text = args.at(i).get<std::string>();
        try {
            k.args.push_back(parse_arg_spec(text));
        } catch (const InputError& e) {
            std::string why = e.what();
            const std::string typed = "--arg '" + shown(text) + "': ";
            if (why.rfind(typed, 0) == 0) why = why.substr(typed.size());
            throw InputError("launch.kernel.args[" + std::to_string(i) + "] '" + shown(text, 80) + "': " + why);
        }
    }
    k.tiles = integers_as<int>(j.at("tiles"));
    k.default_tile = integer_as<int>(j.at("default_tile"));
    k.custom = j.at("custom").get<bool>();
    k.library = j.at("library").get<std::string>();
    k.check.reset();
    if (j.contains("check")) k.check = CheckSpec{j["check"].at(0).get<std::string>(), j["check"].at(1).get<std::string>(),
                                                 j["check"].at(2).get<std::string>()};
    return k;
}

// Whether a kernel read from a file builds and runs exactly as the catalog's rung does:
// its source, and everything that binds and launches it (a changed argument shape alone
// can make the catalog's own source write out of bounds).
bool runs_as_catalog(const KernelSpec& k, const KernelSpec& known) {
    auto args_text = [](const std::vector<ArgSpec>& args) {
        std::vector<std::string> out;
        for (const ArgSpec& a : args) out.push_back(to_string(a));
        return out;
    };
    auto params_of = [](const KernelSpec& s) {
        std::vector<std::pair<std::string, int64_t>> out;
        for (const TunableParam& p : s.params) out.emplace_back(p.name, p.default_value);
        return out;
    };
    const bool then_same = k.then.has_value() == known.then.has_value() &&
                           (!k.then || (k.then->entry == known.then->entry && k.then->global == known.then->global &&
                                        k.then->local == known.then->local && args_text(k.then->args) == args_text(known.then->args)));
    const bool check_same = k.check.has_value() == known.check.has_value() &&
                            (!k.check || (k.check->c == known.check->c && k.check->a == known.check->a && k.check->b == known.check->b));
    return k.source == known.source && k.prelude == known.prelude && k.library == known.library && k.entry == known.entry &&
           k.global == known.global && k.local == known.local && k.defines == known.defines &&
           args_text(k.args) == args_text(known.args) && params_of(k) == params_of(known) && then_same && check_same;
}

json launch_json(const LaunchConfig& c) {
    return {{"kernel", kernel_json(c.kernel)},
            {"size", {c.size.M, c.size.N, c.size.K}},
            {"tile", c.tile},
            {"params", c.params},
            {"params_source", c.params_source}};
}

LaunchConfig launch_from(const json& j) {
    LaunchConfig c;
    c.kernel = kernel_from(j.at("kernel"));
    const json& s = j.at("size");
    c.size = {integer_as<int64_t>(s.at(0)), integer_as<int64_t>(s.at(1)), integer_as<int64_t>(s.at(2))};
    c.tile = integer_as<int>(j.at("tile"));
    c.params = integer_map(j.at("params"));
    c.params_source = j.at("params_source").get<std::string>();
    return c;
}

// --- the trace ---

json buffer_json(const TracedBuffer& b) {
    return {{"name", b.name},
            {"constant", b.constant},
            {"is_matrix", b.is_matrix},
            {"shape", {b.rows, b.cols}},
            {"colmajor", b.layout == Layout::ColMajor},
            {"element_size", b.element_size},
            {"elements", b.elements},
            {"traffic", totals_json(b.traffic)},
            {"distinct", {b.distinct_elements_loaded, b.distinct_elements_stored}},
            {"out_of_range", b.out_of_range},
            {"load_counts", words_json(b.load_counts)},
            {"store_counts", words_json(b.store_counts)}};
}

TracedBuffer buffer_from(const json& j) {
    TracedBuffer b;
    b.name = j.at("name").get<std::string>();
    b.constant = j.at("constant").get<bool>();
    b.is_matrix = j.at("is_matrix").get<bool>();
    b.rows = integer_as<int64_t>(j.at("shape").at(0));
    b.cols = integer_as<int64_t>(j.at("shape").at(1));
    b.layout = j.at("colmajor").get<bool>() ? Layout::ColMajor : Layout::RowMajor;
    b.element_size = integer_as<uint32_t>(j.at("element_size"));
    b.elements = integer_as<uint64_t>(j.at("elements"));
    b.traffic = totals_from(j.at("traffic"));
    b.distinct_elements_loaded = integer_as<uint64_t>(j.at("distinct").at(0));
    b.distinct_elements_stored = integer_as<uint64_t>(j.at("distinct").at(1));
    b.out_of_range = integer_as<uint64_t>(j.at("out_of_range"));
    b.load_counts = words_from<uint32_t>(j.at("load_counts"));
    b.store_counts = words_from<uint32_t>(j.at("store_counts"));
    return b;
}

json access_json(const BufferIntervalAccess& a) {
    return {{"buffer", a.buffer},
            {"local", a.local},
            {"loaded", rects_json(a.loaded)},
            {"stored", rects_json(a.stored)},
            {"counts", {a.elements_loaded, a.elements_stored}},
            {"loads", touches_json(a.loads)},
            {"stores", touches_json(a.stores)}};
}

BufferIntervalAccess access_from(const json& j) {
    BufferIntervalAccess a;
    a.buffer = j.at("buffer").get<std::string>();
    a.local = j.at("local").get<bool>();
    a.loaded = rects_from(j.at("loaded"));
    a.stored = rects_from(j.at("stored"));
    a.elements_loaded = integer_as<uint64_t>(j.at("counts").at(0));
    a.elements_stored = integer_as<uint64_t>(j.at("counts").at(1));
    a.loads = touches_from(j.at("loads"));
    a.stores = touches_from(j.at("stores"));
    return a;
}

json interval_json(const BarrierInterval& in) {
    json buffers = json::array(), locals = json::array(), items = json::array();
    for (const auto& a : in.buffers) buffers.push_back(access_json(a));
    for (const auto& a : in.local_buffers) locals.push_back(access_json(a));
    for (const WorkItemTraffic& w : in.work_items) items.push_back({w.work_item, totals_json(w.global), totals_json(w.local)});
    json j = {{"index", in.index},
              {"end_line", in.end_line},
              {"global", totals_json(in.global)},
              {"local", totals_json(in.local)},
              {"coalescing", coalescing_json(in.coalescing)},
              {"banks", banks_json(in.bank_conflicts)},
              {"buffers", buffers},
              {"local_buffers", locals},
              {"work_items", items}};
    // Added after version 1 was out: optional, so files saved before it still read.
    if (!in.access_log.empty()) {
        json log = json::array();
        for (const WorkItemAccesses& w : in.access_log)
            log.push_back({w.work_item, accesses_json(w.accesses), words_json(w.stored_words)});
        j["access_log"] = std::move(log);
    }
    return j;
}

BarrierInterval interval_from(const json& j) {
    BarrierInterval in;
    in.index = integer_as<int>(j.at("index"));
    in.end_line = integer_as<int>(j.at("end_line"));
    in.global = totals_from(j.at("global"));
    in.local = totals_from(j.at("local"));
    in.coalescing = coalescing_from(j.at("coalescing"));
    in.bank_conflicts = banks_from(j.at("banks"));
    for (const json& a : j.at("buffers")) in.buffers.push_back(access_from(a));
    for (const json& a : j.at("local_buffers")) in.local_buffers.push_back(access_from(a));
    for (const json& w : j.at("work_items"))
        in.work_items.push_back({integer_as<uint32_t>(w.at(0)), totals_from(w.at(1)), totals_from(w.at(2))});
    if (j.contains("access_log"))
        for (const json& w : j.at("access_log"))
            in.access_log.push_back({integer_as<uint32_t>(w.at(0)), accesses_from(w.at(1)), words_from<uint32_t>(w.at(2))});
    return in;
}

json diagnostic_json(const Diagnostic& d) {
    json items = json::array();
    for (const WorkItemId& w : d.work_items) items.push_back(id_json(w));
    return {{"kind", static_cast<int>(d.kind)}, {"message", d.message}, {"line", d.line},
            {"work_items", items},              {"count", d.count},     {"oclgrind", d.oclgrind_text}};
}

Diagnostic diagnostic_from(const json& j) {
    Diagnostic d;
    const int kind = integer_as<int>(j.at("kind"));
    if (kind < 0 || kind > static_cast<int>(DiagnosticKind::Other))
        throw json::other_error::create(501, "unknown diagnostic kind", &j);
    d.kind = static_cast<DiagnosticKind>(kind);
    d.message = j.at("message").get<std::string>();
    d.line = integer_as<int>(j.at("line"));
    for (const json& w : j.at("work_items")) d.work_items.push_back(id_from(w));
    d.count = integer_as<uint64_t>(j.at("count"));
    d.oclgrind_text = j.at("oclgrind").get<std::string>();
    return d;
}

json verification_json(const Verification& v) {
    return {{"verified", v.verified},
            {"max_rel_error", v.max_rel_error},
            {"tolerance", v.tolerance},
            {"elements", {v.checked_elements, v.total_elements}},
            {"first_bad", {v.first_bad_row, v.first_bad_col}}};
}

Verification verification_from(const json& j) {
    Verification v;
    v.verified = j.at("verified").get<bool>();
    v.max_rel_error = j.at("max_rel_error").get<double>();
    v.tolerance = j.at("tolerance").get<double>();
    v.checked_elements = integer_as<int64_t>(j.at("elements").at(0));
    v.total_elements = integer_as<int64_t>(j.at("elements").at(1));
    v.first_bad_row = integer_as<int64_t>(j.at("first_bad").at(0));
    v.first_bad_col = integer_as<int64_t>(j.at("first_bad").at(1));
    return v;
}

json totals_block_json(const TraceTotals& t) {
    return json::array({t.global_load_bytes, t.global_store_bytes, t.local_load_bytes, t.local_store_bytes,
                        t.private_load_bytes, t.private_store_bytes, t.global_loads, t.global_stores, t.local_loads,
                        t.local_stores, t.barriers});
}

TraceTotals totals_block_from(const json& j, double flops) {
    TraceTotals t;
    uint64_t* fields[] = {&t.global_load_bytes, &t.global_store_bytes, &t.local_load_bytes, &t.local_store_bytes,
                          &t.private_load_bytes, &t.private_store_bytes, &t.global_loads, &t.global_stores,
                          &t.local_loads, &t.local_stores, &t.barriers};
    if (j.size() != std::size(fields)) throw json::other_error::create(501, "totals of the wrong length", &j);
    for (size_t i = 0; i < std::size(fields); ++i) *fields[i] = integer_as<uint64_t>(j[i]);
    t.flops = flops;
    return t;
}

// --- the cache model's report (issue 24, item 4): modelled figures travel with the trace ---

json cache_counts_json(const CacheCounts& c) {
    return json::array({c.l1_requests, c.l1_sectors, c.l1_hit_sectors, c.l2_sectors, c.l2_load_sectors, c.l2_hit_sectors,
                        c.l2_merged_sectors, c.dram_read_bytes, c.dram_write_bytes});
}
CacheCounts cache_counts_from(const json& j) {
    CacheCounts c;
    uint64_t* fields[] = {&c.l1_requests,    &c.l1_sectors,        &c.l1_hit_sectors,  &c.l2_sectors,      &c.l2_load_sectors,
                          &c.l2_hit_sectors, &c.l2_merged_sectors, &c.dram_read_bytes, &c.dram_write_bytes};
    if (!j.is_array() || j.size() != std::size(fields)) throw json::other_error::create(501, "cache counts of the wrong length", &j);
    for (size_t i = 0; i < std::size(fields); ++i) *fields[i] = integer_as<uint64_t>(j[i]);
    return c;
}

json caches_json(const CacheReport& r) {
    const CacheParams& p = r.params;
    json buffers = json::array(), lines = json::array();
    for (const auto& [name, c] : r.buffers) buffers.push_back({name, cache_counts_json(c)});
    for (const auto& [line, c] : r.lines) lines.push_back({line, cache_counts_json(c)});
    std::vector<uint64_t> sectors;
    std::vector<uint32_t> times;
    for (const auto& [sector, n] : r.dram_reads) {
        sectors.push_back(sector);
        times.push_back(n);
    }
    return {{"profile", r.profile},
            {"params", {p.l1_bytes, p.l2_bytes, p.line_bytes, p.sector_bytes, p.ways, p.cus, p.resident, p.inflight_rounds,
                        p.merge_clusters, p.hashed_sets ? 1 : 0}},
            {"cluster_of", p.cluster_of},
            {"drift", p.drift},
            {"age_pace", p.age_pace},
            {"l2_halves", {p.l2_halves, p.l2_copy_ways}},
            {"deal_order", p.deal_order},
            {"totals", cache_counts_json(r.totals)},
            {"bounds", {r.bounds.distinct_sectors, r.bounds.group_distinct_sectors}},
            {"buffers", buffers},
            {"lines", lines},
            {"dram_sectors", words_json(sectors)},
            {"dram_times", words_json(times)}};
}

// Shapes only; what the numbers must satisfy is checked in trace_file_check.cpp.
CacheReport caches_from(const json& j) {
    CacheReport r;
    r.profile = j.at("profile").get<std::string>();
    const json& p = j.at("params");
    if (!p.is_array() || p.size() != 10) throw json::other_error::create(501, "caches params of the wrong length", &p);
    r.params.l1_bytes = integer_as<uint64_t>(p[0]);
    r.params.l2_bytes = integer_as<uint64_t>(p[1]);
    r.params.line_bytes = integer_as<uint32_t>(p[2]);
    r.params.sector_bytes = integer_as<uint32_t>(p[3]);
    r.params.ways = integer_as<uint32_t>(p[4]);
    r.params.cus = integer_as<uint32_t>(p[5]);
    r.params.resident = integer_as<uint32_t>(p[6]);
    r.params.inflight_rounds = integer_as<uint32_t>(p[7]);
    r.params.merge_clusters = integer_as<uint32_t>(p[8]);
    const int hashed = integer_as<int>(p[9]);
    if (hashed != 0 && hashed != 1) throw json::other_error::create(501, "caches params: hashed sets neither 0 nor 1", &p);
    r.params.hashed_sets = hashed == 1;
    r.params.cluster_of = integers_as<uint32_t>(j.at("cluster_of"));
    // Absent in files saved before issue 31's timed model: lockstep.
    if (j.contains("drift")) {
        const json& d = j.at("drift");
        if (!d.is_number() || !(d.get<double>() >= 0 && d.get<double>() <= 0.9))
            throw json::other_error::create(501, "caches drift: not a number from 0 to 0.9", &d);
        r.params.drift = d.get<double>();
    }
    // Absent in files saved before age priority (issue 31, second fit): none.
    if (j.contains("age_pace")) {
        const json& a = j.at("age_pace");
        if (!a.is_number() || !(a.get<double>() >= 0 && a.get<double>() <= 10))
            throw json::other_error::create(501, "caches age_pace: not a number from 0 to 10", &a);
        r.params.age_pace = a.get<double>();
    }
    // Absent in files saved before the two-half L2 (issue 31, cache8): one L2.
    if (j.contains("l2_halves")) {
        const json& h = j.at("l2_halves");
        if (!h.is_array() || h.size() != 2 || !h[0].is_number_unsigned() || !h[1].is_number_unsigned() ||
            (integer_as<uint64_t>(h[0]) != 1 && integer_as<uint64_t>(h[0]) != 2) || integer_as<uint64_t>(h[1]) > 1024)
            throw json::other_error::create(501, "caches l2_halves: not [1 or 2, copy ways from 0 to 1024]", &h);
        r.params.l2_halves = integer_as<uint32_t>(h[0]);
        r.params.l2_copy_ways = integer_as<uint32_t>(h[1]);
    }
    // Absent in files saved before the recorded deal order (issue 31, fourth round): round-robin.
    if (j.contains("deal_order")) r.params.deal_order = integers_as<uint32_t>(j.at("deal_order"));
    r.totals = cache_counts_from(j.at("totals"));
    const json& b = j.at("bounds");
    r.bounds = {integer_as<uint64_t>(b.at(0)), integer_as<uint64_t>(b.at(1))};
    for (const json& e : j.at("buffers")) r.buffers.emplace_back(e.at(0).get<std::string>(), cache_counts_from(e.at(1)));
    for (const json& e : j.at("lines")) r.lines.emplace_back(integer_as<int32_t>(e.at(0)), cache_counts_from(e.at(1)));
    const std::vector<uint64_t> sectors = words_from<uint64_t>(j.at("dram_sectors"));
    const std::vector<uint32_t> times = words_from<uint32_t>(j.at("dram_times"));
    if (sectors.size() != times.size()) throw json::other_error::create(501, "caches DRAM sectors and counts differ in length", &j);
    for (size_t i = 0; i < sectors.size(); ++i) r.dram_reads.emplace_back(sectors[i], times[i]);
    return r;
}

json trace_json(const Trace& t) {
    json j;
    j["kernel"] = t.kernel;
    j["entry"] = t.entry;
    j["custom"] = t.custom;
    j["device"] = t.device;
    j["size"] = {t.size.M, t.size.N, t.size.K};
    j["tile"] = t.tile;
    j["params"] = t.params;
    j["dims"] = t.dims;
    j["global"] = dims_json(t.global);
    j["local"] = dims_json(t.local);
    j["groups"] = dims_json(t.groups);
    j["geometry"] = {t.geometry.warp, t.geometry.sector_bytes, t.geometry.banks, t.geometry.bank_bytes};
    j["flags"] = {t.checks, t.complete, t.detail_truncated};
    j["totals"] = totals_block_json(t.totals);
    j["flops"] = t.totals.flops;
    j["coalescing"] = coalescing_json(t.coalescing);
    j["banks"] = banks_json(t.bank_conflicts);
    j["buffers"] = json::array();
    for (const TracedBuffer& b : t.buffers) j["buffers"].push_back(buffer_json(b));
    j["local_buffers"] = json::array();
    for (const LocalBuffer& l : t.local_buffers) j["local_buffers"].push_back({l.name, l.bytes, l.rows, l.cols});
    j["lines"] = json::array();
    for (const LineTraffic& l : t.lines)
        j["lines"].push_back({l.line, l.local, totals_json(l.traffic), coalescing_json(l.coalescing), banks_json(l.bank_conflicts)});
    j["barrier_lines"] = t.barrier_lines;
    j["group_totals"] = json::array();
    for (const GroupTotals& g : t.group_totals)
        j["group_totals"].push_back({id_json(g.group), g.barriers, totals_json(g.global), totals_json(g.local)});
    j["detail"] = json::array();
    for (const GroupTrace& g : t.detail) {
        json intervals = json::array();
        for (const BarrierInterval& in : g.intervals) intervals.push_back(interval_json(in));
        j["detail"].push_back({{"group", id_json(g.group)}, {"size", id_json(g.size)}, {"intervals", intervals}});
    }
    j["diagnostics"] = json::array();
    for (const Diagnostic& d : t.diagnostics) j["diagnostics"].push_back(diagnostic_json(d));
    j["messages_dropped"] = t.messages_dropped;
    j["seconds"] = t.seconds;
    if (t.verification) j["verification"] = verification_json(*t.verification);
    j["wrong_cells"] = json::array();
    for (const auto& cell : t.wrong_cells) {
        j["wrong_cells"].push_back(cell[0]);
        j["wrong_cells"].push_back(cell[1]);
    }
    if (t.result) j["result"] = matrix_json(*t.result);
    j["dropped_barriers"] = t.dropped_barriers;
    // Added in issue 24 (version 2 files without it still read): the cache model's report
    // and its profile, so a saved trace shows the memory hierarchy with no OpenCL. The
    // request stream it was computed from is not saved: another profile needs a new trace.
    if (t.caches) j["caches"] = caches_json(*t.caches);
    return j;
}

Trace trace_from(const json& j) {
    Trace t;
    t.kernel = j.at("kernel").get<std::string>();
    t.entry = j.at("entry").get<std::string>();
    t.custom = j.at("custom").get<bool>();
    t.device = j.at("device").get<std::string>();
    const json& s = j.at("size");
    t.size = {integer_as<int64_t>(s.at(0)), integer_as<int64_t>(s.at(1)), integer_as<int64_t>(s.at(2))};
    t.tile = integer_as<int>(j.at("tile"));
    t.params = integer_map(j.at("params"));
    t.dims = integer_as<int>(j.at("dims"));
    if (t.dims < 1 || t.dims > 3) throw json::other_error::create(501, "dimensions outside 1..3", &j);
    t.global = dims_from(j.at("global"));
    t.local = dims_from(j.at("local"));
    t.groups = dims_from(j.at("groups"));
    const json& g = j.at("geometry");
    t.geometry = {integer_as<uint32_t>(g.at(0)), integer_as<uint32_t>(g.at(1)), integer_as<uint32_t>(g.at(2)), integer_as<uint32_t>(g.at(3))};
    t.checks = j.at("flags").at(0).get<bool>();
    t.complete = j.at("flags").at(1).get<bool>();
    t.detail_truncated = j.at("flags").at(2).get<bool>();
    t.totals = totals_block_from(j.at("totals"), j.at("flops").get<double>());
    t.coalescing = coalescing_from(j.at("coalescing"));
    t.bank_conflicts = banks_from(j.at("banks"));
    for (const json& b : j.at("buffers")) t.buffers.push_back(buffer_from(b));
    for (const json& l : j.at("local_buffers")) {
        LocalBuffer b;
        b.name = l.at(0).get<std::string>();
        b.bytes = integer_as<uint64_t>(l.at(1));
        b.rows = integer_as<uint64_t>(l.at(2));
        b.cols = integer_as<uint64_t>(l.at(3));
        t.local_buffers.push_back(std::move(b));
    }
    for (const json& l : j.at("lines"))
        t.lines.push_back({integer_as<int>(l.at(0)), l.at(1).get<bool>(), totals_from(l.at(2)), coalescing_from(l.at(3)),
                           banks_from(l.at(4))});
    t.barrier_lines = integers_as<int>(j.at("barrier_lines"));
    for (const json& gt : j.at("group_totals"))
        t.group_totals.push_back({id_from(gt.at(0)), integer_as<uint32_t>(gt.at(1)), totals_from(gt.at(2)), totals_from(gt.at(3))});
    for (const json& d : j.at("detail")) {
        GroupTrace gt;
        gt.group = id_from(d.at("group"));
        gt.size = id_from(d.at("size"));
        for (const json& in : d.at("intervals")) gt.intervals.push_back(interval_from(in));
        t.detail.push_back(std::move(gt));
    }
    for (const json& d : j.at("diagnostics")) t.diagnostics.push_back(diagnostic_from(d));
    t.messages_dropped = integer_as<uint64_t>(j.at("messages_dropped"));
    t.seconds = j.at("seconds").get<double>();
    if (j.contains("verification")) t.verification = verification_from(j["verification"]);
    const json& wrong = j.at("wrong_cells");
    if (wrong.size() % 2) throw json::other_error::create(501, "wrong-cell list of odd length", &j);
    for (size_t i = 0; i < wrong.size(); i += 2) t.wrong_cells.push_back({integer_as<int64_t>(wrong[i]), integer_as<int64_t>(wrong[i + 1])});
    if (j.contains("result")) t.result = matrix_from(j["result"]);
    t.dropped_barriers = integers_as<int>(j.at("dropped_barriers"));
    if (j.contains("caches")) {
        try {
            t.caches = caches_from(j["caches"]);
        } catch (const json::exception& e) {  // named here, so the one line says which field
            throw InputError("trace.caches: " + json_problem(e));
        }
    }
    return t;
}

}  // namespace

bool TraceFile::operator==(const TraceFile& o) const {
    return trace == o.trace && launch_json(launch) == launch_json(o.launch) && measurements == o.measurements;
}

// Version 2 (issue 23) adds a second header line, "fnv1a64 <16 hex digits> <bytes>", the
// checksum and length of the CBOR that follows, so a flipped or lost byte is refused
// instead of quietly changing what the file shows. Version 1 files (no checksum) are still
// read, with every other check; saving writes version 2.
constexpr std::string_view kChecksumTag = "fnv1a64 ";

std::string checksum_line(std::string_view body) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(body)));
    return std::string(kChecksumTag) + hex + " " + std::to_string(body.size()) + "\n";
}

namespace {
// CBOR text strings must be valid UTF-8 (check_cbor refuses them otherwise): names that
// came from the user (a kernel file's name in Latin-1) are stored with U+FFFD instead.
void make_utf8_valid(json& j) {
    if (j.is_string()) {
        const std::string& s = j.get_ref<const std::string&>();
        if (!valid_utf8(s)) j = utf8_replaced(s);
    } else if (j.is_array()) {
        for (json& e : j) make_utf8_valid(e);
    } else if (j.is_object()) {
        bool keys_ok = true;
        for (auto it = j.begin(); it != j.end(); ++it) keys_ok = keys_ok && valid_utf8(it.key());
        if (!keys_ok) {
            json fixed = json::object();
            for (auto it = j.begin(); it != j.end(); ++it) fixed[utf8_replaced(it.key())] = std::move(it.value());
            j = std::move(fixed);
        }
        for (auto& [key, value] : j.items()) make_utf8_valid(value);
    }
}
}  // namespace

std::string serialize_trace_file(const TraceFile& file) {
    json content = {{"launch", launch_json(file.launch)},
                    {"trace", trace_json(file.trace)},
                    {"measurements", file.measurements}};
    make_utf8_valid(content);
    std::vector<uint8_t> cbor = json::to_cbor(content);
    const std::string_view body(reinterpret_cast<const char*>(cbor.data()), cbor.size());
    std::string out = std::string(kMagic) + std::to_string(kTraceFileVersion) + "\n" + checksum_line(body);
    out.append(body);
    return out;
}

namespace {

// The first line: the format and its version. Refused here, from the first bytes alone,
// is anything that is not a trace file.
int header_version(std::string_view bytes, const std::string& file) {
    const size_t newline = bytes.find('\n');
    if (bytes.substr(0, kMagic.size()) != kMagic || newline == std::string_view::npos || newline > 64)
        throw InputError(file + ": not a tilescope trace file (save one with tilescope trace ... --save FILE.tstrace)");
    const std::string version_text(bytes.substr(kMagic.size(), newline - kMagic.size()));
    if (version_text.empty() || version_text.find_first_not_of("0123456789") != std::string::npos || version_text.size() > 6)
        throw InputError(file + ": damaged header (version '" + shown(version_text, 16) + "')");
    const int version = std::stoi(version_text);
    if (version != kTraceFileVersion && version != 1)
        throw InputError(file + ": trace file version " + version_text + "; this tilescope reads versions 1 and " +
                         std::to_string(kTraceFileVersion) + " (trace the kernel again to get one)");
    return version;
}

// The CBOR after the header, its checksum verified (version 2).
std::string_view checked_body(std::string_view bytes, int version, const std::string& file) {
    std::string_view rest = bytes.substr(bytes.find('\n') + 1);
    if (version == 1) return rest;
    const size_t newline = rest.find('\n');
    if (newline == std::string_view::npos || newline > 64 || rest.substr(0, kChecksumTag.size()) != kChecksumTag)
        throw InputError(file + ": damaged header (no checksum line); save it again");
    const std::string_view line = rest.substr(0, newline + 1);
    const std::string_view body = rest.substr(newline + 1);
    if (line != checksum_line(body))
        throw InputError(file + ": damaged (its checksum or length does not match its contents: bytes were changed or lost); save it again");
    return body;
}

}  // namespace

TraceFile parse_trace_file(std::string_view bytes, std::string_view name) {
    const std::string file(name);
    const int version = header_version(bytes, file);
    const std::string_view body = checked_body(bytes, version, file);
    // nlohmann's CBOR reader recurses per nesting level: depth, lengths and UTF-8 first,
    // and what its document will take (issue 32): one budget for the whole file.
    InputCost cost(file);
    check_cbor(body, kMaxTraceNesting, file, &cost);
    struct Charging {
        explicit Charging(InputCost* c) { decoding_cost = c; }
        ~Charging() { decoding_cost = nullptr; }
    } charging(&cost);
    try {
        const json content = json::from_cbor(body.begin(), body.end());
        TraceFile out;
        out.launch = launch_from(content.at("launch"));
        out.trace = trace_from(content.at("trace"));
        out.measurements = content.at("measurements");
        if (!out.measurements.is_array()) throw InputError("measurements: not a list");
        validate_trace_file(out);
        // What the views, the replay and the hand-out will derive from it, before they do.
        charge_trace_views(out, cost);
        // A kernel whose source is the file's, not the catalog's, is carried by the file: it
        // is built or run nowhere until the user trusts it (issue 32, item 1).
        // One that runs as the catalog's is the catalog's: nothing else the file says about it
        // (its candidate tiles and values, what it pads to, its texts) is ever used.
        const KernelSpec& k = out.launch.kernel;
        const KernelSpec* known = k.custom ? nullptr : find_kernel(k.name);
        if (known && runs_as_catalog(k, *known))
            out.launch.kernel = *known;
        else
            out.launch.kernel.carried_by = file;
        return out;
    } catch (const InputTooCostly&) {
        throw;
    } catch (const json::exception& e) {
        const bool truncated = std::string_view(e.what()).find("unexpected end of input") != std::string_view::npos;
        throw InputError(file + (truncated ? ": truncated (the file ends early); save it again"
                                           : ": damaged trace file (" + json_problem(e) + ")"));
    } catch (const InputError& e) {
        throw InputError(file + ": damaged trace file (" + shown(e.what(), 240) + ")");
    } catch (const std::bad_alloc&) {
        throw InputError(file + ": damaged trace file (a length larger than memory)");
    } catch (const std::length_error&) {
        throw InputError(file + ": damaged trace file (a length larger than memory)");
    }
}

void save_trace_file(const std::string& path, const TraceFile& file) {
    write_file_atomically(path, serialize_trace_file(file), "--save");
}

TraceFile load_trace_file(const std::string& path, std::string_view option) {
    const std::string label = std::string(option) + " '" + shown_path(path) + "'";
    // Bounded before it is read; the first line is checked before the rest is.
    const std::string bytes = read_untrusted_file(path, kMaxTraceFileBytes, label,
                                                  [&](std::string_view head) { (void)header_version(head, label); });
    return parse_trace_file(bytes, label);
}

}  // namespace tilescope
