#pragma once
// The replay behind core/trace/frame.h: a detail group's access log walked in the order
// Oclgrind ran it (interval by interval, work-items in linear order, each one's accesses
// in order), tracking what every word of every local array holds. Each local store's
// words are matched against the same work-item's earlier global loads in the same
// interval, whose values the host knows (random_matrix); each local read takes what the
// word holds at that moment and its iteration (the i-th read of that array by that
// work-item in the interval).
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/trace/trace.h"
#include "core/trace/view_model.h"

namespace tilescope::frame_replay {

// What a word of local memory holds.
struct Held {
    enum Kind : uint8_t { Nothing, Element, Zero, Unknown };
    Kind kind = Nothing;
    uint8_t word = 0;      // which 4-byte word of the element (elements wider than 4 bytes)
    uint16_t buffer = 0;   // Element: index into Trace::buffers
    uint32_t element = 0;  // Element: element index in that buffer
    bool operator==(const Held&) const = default;
};

struct GlobalAccess {
    uint16_t buffer = 0;
    uint32_t element = 0;
};
struct LocalAccess {
    uint16_t array = 0;  // index into Trace::local_buffers
    uint32_t word = 0;
    Held held;           // a store: what it wrote; a read: what the word held then
    int iteration = -1;  // reads only
};

// One work-item in one interval.
struct ItemPart {
    std::vector<GlobalAccess> loads, stores;
    std::vector<LocalAccess> local_stores, local_reads;
    int iterations = 0;  // the most reads it made of any one local array
};

struct GroupReplay {
    const GroupTrace* group = nullptr;
    bool has_log = false;                       // some interval of the group has an access log
    std::vector<std::vector<ItemPart>> parts;   // [interval][linear local id]
    std::vector<std::vector<std::vector<Held>>> after;  // [interval][local array][word]: held once it ends
    std::vector<int> c_element;                 // [linear local id]: element of C it stores first, -1: none
    std::vector<uint32_t> c_stores;             // [linear local id]: stores into C (more than one: several elements)
};

GroupReplay replay(const Trace& trace, const MatrixRoles& roles, const GroupTrace& group);

// The work replays did in this process, counted so tests can check that a view or the
// hand-out replays each group once (linear in the trace), not once per frame (issue 32).
struct ReplayCounters {
    std::atomic<uint64_t> replays{0};   // groups replayed
    std::atomic<uint64_t> accesses{0};  // access-log records walked
};
ReplayCounters& replay_counters();
// Input matrices drawn (random_matrix) for replays; each is kept while among the last
// few asked for, so a trace's inputs are drawn once however many frames are built.
uint64_t input_draws();

// 'A', 'B', 'C' for the buffers playing those roles, 0 for others.
char role_of(const Trace& trace, const MatrixRoles& roles, uint32_t buffer);

// (row, col) of an element of a global buffer (a matrix as laid out; else row 0), and of
// a word of a local array (as declared).
std::array<int64_t, 2> global_cell(const Trace& trace, uint32_t buffer, uint32_t element);
std::array<int64_t, 2> local_cell(const Trace& trace, uint32_t array, uint32_t word);

}  // namespace tilescope::frame_replay
