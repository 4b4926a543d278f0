#pragma once
// One frame of the slides' tiling animation, as plain data (issue 19): for a work-group,
// a phase, one of its parts and, in a use part, one iteration, which cells of A, B, C and
// of each local array are highlighted, in what role, and with what label ("M0,1"). Also
// a work-item's story (what it loads, stores into local memory and reads, part by part)
// and a cell of C's sum so far, term by term. Pure functions over a Trace whose detail
// groups carry the access log (trace_abi.h version 3); the GUI, the CLI (`tilescope
// frame`) and the hand-out only present what these return.
//
// What a local cell holds is found from the run, not from the kernel's name: the inputs
// were filled by random_matrix (core/device/matrix.h), so the host knows every loaded
// value, and a word a work-item stores into local memory is matched against that
// work-item's own global loads earlier in the same part (the latest match wins). A
// stored 0 that matches no load is a written zero (label "0").
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/trace/trace.h"
#include "core/trace/phases.h"
#include "core/trace/view_model.h"

namespace tilescope {

enum class CellRole {
    Loaded,       // a global cell loaded in the part
    Stored,       // a cell written in the part (C, or a local array)
    Read,         // a local cell read at the selected iteration (the whole part when none)
    Accumulates,  // a cell of C whose sum grows at the selected iteration (or in the part)
    Holds,        // a local cell neither stored nor read in this frame, holding an earlier part's value
};
std::string_view to_string(CellRole role);  // "loaded", "stored", "read", "accumulates", "holds"

// How elements are named: the slides' M, N, P, or A, B, C.
enum class Naming { Slides, Abc };
std::optional<Naming> parse_naming(std::string_view text);  // "slides" or "abc"
// "M0,1" (slides) or "A0,1" (abc) for matrix role 'A', 'B' or 'C'.
std::string element_name(char role, int64_t row, int64_t col, Naming naming);

struct FrameCell {
    int64_t row = 0, col = 0;  // as the array is declared (a global matrix: as its arg spec lays it out)
    CellRole role = CellRole::Loaded;
    std::string label;         // the element's name; a local cell: the element it holds, "0", or "?"
    bool operator==(const FrameCell&) const = default;
    bool operator<(const FrameCell& o) const;
};

struct FrameArray {
    std::string key;     // "A", "B", "C" (the matrix's role) or the local array's name
    std::string buffer;  // the traced buffer's name (the local array's name)
    bool local = false;
    int64_t rows = 0, cols = 0;
    std::vector<FrameCell> cells;  // sorted by row, column, role
};

// An element of a global matrix: `matrix` is its role ("A", "B", "C"), or the buffer's
// name for a buffer that plays none.
struct ElementRef {
    std::string matrix;
    int64_t row = 0, col = 0;
    std::string label;
    bool operator==(const ElementRef&) const = default;
};

// A cell of a local array and what it holds at that moment.
struct LocalCellRef {
    std::string array;
    int64_t row = 0, col = 0;
    std::string label;            // the element held, "0" (a written zero) or "?" (a value no load gave)
    int iteration = -1;           // reads: which iteration of the part
    bool written_zero = false;
    // A written zero: the element the cell stands for, found from the tile's other cells
    // (all of them held elements at one offset from their cells), when that works.
    std::optional<ElementRef> stands_for;
    bool stands_outside = false;  // stands_for lies outside its matrix
    bool operator==(const LocalCellRef&) const = default;
};

// What one work-item did in one part.
struct WorkItemStep {
    int phase = 0, interval = 0;
    std::string part;
    std::vector<ElementRef> loads;           // global elements loaded, in order
    std::vector<ElementRef> stores;          // global elements stored
    std::vector<LocalCellRef> local_stores;  // in order
    std::vector<LocalCellRef> local_reads;   // in order, with their iteration
};

struct WorkItemStory {
    GroupId group{};
    WorkItemId local{}, global{};  // as OpenCL numbers them, dimension 0 first
    uint32_t linear = 0;
    std::optional<ElementRef> computes;  // the element of C it stores; none: outside C
    // 2D launches: the element of C its global id stands for (dimension 1 the row,
    // dimension 0 the column), whether or not it lies inside C.
    std::optional<ElementRef> assigned;
    bool assigned_outside = false;
    std::vector<WorkItemStep> steps;     // one per part, in order
    std::vector<std::string> cases;      // the slides' two special cases it shows, in words
};

// A C cell's sum so far, term by term, from the labels of the local cells its work-item
// read (each iteration one term: the product of what it read at that iteration).
struct CellSum {
    int64_t row = 0, col = 0;
    std::string label;               // "P0,0"
    WorkItemId local{};              // the work-item that computes it
    std::vector<std::string> terms;  // "M0,0·N0,0", ...
    std::string text;                // "M0,0·N0,0 + M0,1·N1,0"; "0" before the first term
};

// A work-item that wrote a zero into local memory in the frame's part instead of loading
// (the slides' "threads (0,1) and (1,1) need special treatment in loading M tile"; the
// slides write Thread(row, column), OpenCL's local id is (column, row)).
struct ZeroWrite {
    WorkItemId local{};  // as OpenCL numbers it, dimension 0 first
    LocalCellRef cell;   // the local cell it zeroed, with the element that cell stands for
    bool operator==(const ZeroWrite&) const = default;
};

// Where a local array's tile lies in its matrix as the frame's part ends: every cell of the
// array that holds an element holds one of one matrix at one offset from its cell (the
// tiled rungs). The tile is the array's whole extent at that offset, so it may hang past
// the matrix's edge, as the slides draw the 3x3 example; `outside` lists the cells that do,
// in the matrix's coordinates (their local cells hold written zeros).
struct TileInMatrix {
    std::string array;      // the local array
    std::string matrix;     // "A", "B" (the matrix's role) or the buffer's name
    Rect rect;              // the whole tile, inclusive, in the matrix's rows and columns
    std::vector<std::array<int64_t, 2>> outside;  // (row, col) past the matrix's edge, by row then column
    bool operator==(const TileInMatrix&) const = default;
};

struct FrameRequest {
    GroupId group{};
    int phase = 0;
    std::string part;                  // a part's name; empty: the phase's first part
    std::optional<int> iteration;      // in a use part; none: the whole part
    std::optional<WorkItemId> item;    // a work-item's local id, for its story
    Naming naming = Naming::Slides;
};

struct Frame {
    int dims = 1;                     // the launch's dimensions (how many numbers an id has)
    Naming naming = Naming::Slides;   // as requested: how labels name elements
    GroupId group{};
    int phases = 0, phase = 0;
    std::string part;                 // "load", "use", ...
    std::vector<std::string> parts;   // the phase's parts, in order
    int interval = 0;                 // the barrier interval the part is
    std::optional<int> iteration;
    int iterations = 0;               // of the part; 0 when it reads no local memory
    std::string iteration_rule;       // how iterations were found
    std::string title;                // "Phase 0 Use for Block (0,0) (iteration 1)"
    bool has_log = false;             // false: a trace without access logs (labels of local cells unknown)
    std::vector<FrameArray> arrays;   // A, B, C (those present), then the local arrays as declared
    std::vector<CellSum> sums;        // every C cell of the group with a sum so far
    std::optional<WorkItemStory> item;
    std::vector<ZeroWrite> zero_writes;  // in this part, by work-item (linear id), in order
    std::vector<TileInMatrix> tiles;     // local arrays whose tile lies in a matrix, as declared

    // The work-items that wrote a zero into `array` in this part, by linear id, each once.
    std::vector<WorkItemId> zero_writers(std::string_view array) const;
    const FrameArray* find(std::string_view key) const;
};

// A cell the picked work-item touches in the frame (the slides single out one thread of a
// "major case"): `array` is a FrameArray key ("A", "B", "C" or a local array's name).
struct ItemCell {
    std::string array;
    int64_t row = 0, col = 0;
    bool operator==(const ItemCell&) const = default;
};
// The cells the frame's picked work-item (frame.item) touches in the frame's part: the
// elements of the matrices it loads and stores, the local cells it stores, and the local
// cells it reads at the frame's iteration (every iteration when the frame shows the whole
// part). Each once, in that order. Empty when no work-item is picked.
std::vector<ItemCell> item_cells(const Frame& frame);

// One line per local array with written zeros in the frame, as the slides say it:
// "atile: work-items (1,0), (1,1) write 0 in place of M0,3, M1,3 (outside M)". Ids are
// OpenCL's local ids (column first). The GUI's legend, the GIF's caption and `tilescope
// frame` all print these.
std::vector<std::string> zero_write_lines(const Frame& frame);
// The same where room is short (a projector's legend): more than four work-items, or
// elements, that fill a rectangle are named by their ranges, "work-items (5..7,0..7) write 0
// in place of N0..7,29..31 (outside N)"; a set that fills none, by its count.
std::vector<std::string> zero_write_lines_brief(const Frame& frame);

// Builds the frame. Throws InputError naming the option a value came from (--group,
// --phase, --part, --iteration, --item), the value and what is accepted.
Frame build_frame(const Trace& trace, const MatrixRoles& roles, const FrameRequest& request);

// A detail group prepared once (its phase plan and the replay of its access log): every
// frame, story and sum of the group then costs only what it shows. build_frame,
// work_item_story and cell_sum each prepare the group anew; a view that shows many
// frames of one group, or the hand-out that embeds them all, keeps one of these instead,
// so its work stays linear in the trace (issue 32: the hand-out of a trace of K phases
// replayed the group once per frame, K^2 work). Holds references to `trace`, which must
// outlive it; copies share the prepared state.
class GroupFrames {
public:
    // Throws InputError (--group) when the trace kept no detail for `group`.
    GroupFrames(const Trace& trace, const MatrixRoles& roles, const GroupId& group);
    // sums = false leaves Frame::sums empty (term_counts says how far each has got).
    Frame frame(const FrameRequest& request, bool sums = true) const;
    WorkItemStory story(const WorkItemId& local, Naming naming = Naming::Slides) const;
    std::optional<CellSum> sum(const FrameRequest& request, int64_t row, int64_t col) const;
    // The sums of the group's C cells once its last part ends, sorted by row and column.
    const std::vector<CellSum>& final_sums() const;
    // For each of final_sums(): how many of its terms it has at `interval` (up to and
    // including `iteration` in it; none: the whole interval). A frame's sum is the start
    // of the final one.
    std::vector<size_t> term_counts(int interval, std::optional<int> iteration) const;
    const PhasePlan& plan() const;
    const GroupId& group() const;
    int iterations(int interval) const;  // of the part; 0 when it reads no local memory

    struct State;

private:
    std::shared_ptr<const State> state_;
};

// A work-item's story over the whole run (`local`: its local id). Throws InputError for a
// group without detail or a work-item outside it.
WorkItemStory work_item_story(const Trace& trace, const MatrixRoles& roles, const GroupId& group,
                              const WorkItemId& local, Naming naming = Naming::Slides);

// Hovering C(row, col): its sum up to the request's part and iteration (all of a part
// before it; the selected part up to and including the iteration, or whole without one).
// None when no work-item of the group stores that cell.
std::optional<CellSum> cell_sum(const Trace& trace, const MatrixRoles& roles, const FrameRequest& request,
                                int64_t row, int64_t col);

}  // namespace tilescope
