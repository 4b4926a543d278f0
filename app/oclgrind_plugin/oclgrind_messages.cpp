// Keeping Oclgrind's messages. Depends on oclgrind_messages.h (run.h) and
// oclgrind_lookups.h.
#include "oclgrind_messages.h"

#include <oclgrind/KernelInvocation.h>
#include <oclgrind/WorkGroup.h>
#include <oclgrind/WorkItem.h>

#include <cctype>
#include <cstring>

#include "oclgrind_lookups.h"

namespace tilescope::trace_plugin {
namespace {

constexpr uint32_t kFullCopiesPerKind = 3;

// What makes two of Oclgrind's messages the same finding: the first line without its
// hex addresses, and every "At line N" (the source lines involved).
std::string message_key(const char* message) {
    std::string key;
    const char* p = message;
    for (; *p && *p != '\n'; ++p) {
        if (p[0] == '0' && p[1] == 'x') {
            p += 2;
            while (std::isxdigit(static_cast<unsigned char>(*p))) ++p;
            --p;
            key += '#';
            continue;
        }
        key += *p;
    }
    for (const char* at = std::strstr(p, "At line "); at; at = std::strstr(at + 8, "At line ")) {
        key += '|';
        for (const char* d = at + 8; std::isdigit(static_cast<unsigned char>(*d)); ++d) key += *d;
    }
    return key;
}

// The message with the work-item, work-group and source line it came from, if any.
abi::Message located(const Run& run, oclgrind::MessageType type) {
    abi::Message m;
    m.type = static_cast<uint32_t>(type);
    if (const oclgrind::WorkItem* wi = run.invocation->getCurrentWorkItem()) {
        m.has_work_item = true;
        m.work_item_global = id3(wi->getGlobalID());
        m.work_item_local = id3(wi->getLocalID());
        m.line = line_of(wi->getCurrentInstruction());
    }
    if (const oclgrind::WorkGroup* wg = run.invocation->getCurrentWorkGroup()) {
        m.has_group = true;
        m.group = id3(wg->getGroupID());
        if (!m.line) m.line = line_of(wg->getCurrentBarrier());
    }
    return m;
}

}  // namespace

void keep_message(Run& run, oclgrind::MessageType type, const char* message) {
    abi::Message m = located(run, type);
    const std::string key = message_key(message);
    std::lock_guard<std::mutex> lock(run.mutex);
    auto& seen = run.message_index[key];
    if (seen.second >= kFullCopiesPerKind) {
        ++run.messages[seen.first].repeats;
        return;
    }
    if (run.messages.size() >= run.config.max_messages) {
        ++run.messages_dropped;
        return;
    }
    if (seen.second++ == 0) seen.first = run.messages.size();
    m.text = message;
    run.messages.push_back(std::move(m));
}

}  // namespace tilescope::trace_plugin
