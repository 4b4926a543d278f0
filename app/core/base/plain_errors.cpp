#include "core/base/plain_errors.h"

#include <filesystem>
#include <new>
#include <string_view>

#include "core/base/errors.h"

namespace tilescope {
namespace {

// The text between `before` and `after` in `what` (empty when either is missing), at most 40 characters.
std::string between(std::string_view what, std::string_view before, std::string_view after) {
    const size_t a = what.find(before);
    if (a == std::string_view::npos) return {};
    const size_t from = a + before.size();
    const size_t b = after.empty() ? what.size() : what.find(after, from);
    if (b == std::string_view::npos || b - from > 40) return {};
    return std::string(what.substr(from, b - from));
}

// "a string" / "an object": nlohmann's type names (null, boolean, number, string, array,
// object, binary, discarded) with an article.
std::string a(const std::string& type) {
    if (type == "array") return "a list";
    if (type == "object") return "an object";
    if (type == "null") return "null";
    if (type == "binary" || type == "discarded") return "binary data";
    return "a " + type;
}

}  // namespace

std::string json_problem(const nlohmann::json::exception& e) {
    const std::string_view what = e.what();
    if (const auto* p = dynamic_cast<const nlohmann::json::parse_error*>(&e)) {
        const std::string at = std::to_string(p->byte);
        if (what.find("unexpected end of input") != std::string_view::npos) return "it ends early (at byte " + at + ")";
        if (what.find("UTF-8") != std::string_view::npos || what.find("invalid string") != std::string_view::npos)
            return "text that is not valid UTF-8 or has a bad escape at byte " + at;
        return "not valid at byte " + at;
    }
    switch (e.id) {
        case 302:  // "type must be number, but is string"
        case 305: {
            const std::string want = between(what, "type must be ", ", but is ");
            const std::string got = between(what, ", but is ", "");
            if (!want.empty() && !got.empty()) return a(got) + " where " + a(want) + " belongs";
            return "a value of the wrong kind";
        }
        case 401: {  // "array index 3 is out of range"
            const std::string index = between(what, "array index ", " is out of range");
            return index.empty() ? "a list too short" : "a list without item " + index;
        }
        case 403: {  // "key 'steps' not found"
            const std::string key = between(what, "key '", "' not found");
            return key.empty() ? "a missing field" : "no field '" + key + "'";
        }
        case 406:  // number overflow
        case 407:
            return "a number too large";
        case 316:
            return "text that is not valid UTF-8";
        case 501: {  // thrown by tilescope's own readers (other_error::create(501, OUR WORDS)); nlohmann
                     // raises 501 only for JSON Patch, which tilescope does not use
            const size_t end = what.find("] ");
            if (end != std::string_view::npos && end + 2 < what.size()) return std::string(what.substr(end + 2, 160));
            return "a value of an unexpected kind";
        }
        default:
            return "a value of an unexpected kind";
    }
}

std::string failure_in_words(const std::exception& e) {
    if (const auto* j = dynamic_cast<const nlohmann::json::exception*>(&e)) return "a document it read or wrote held " + json_problem(*j);
    if (dynamic_cast<const std::bad_alloc*>(&e)) return "it ran out of memory";
    if (const auto* f = dynamic_cast<const std::filesystem::filesystem_error*>(&e))
        return "a file operation on '" + shown_path(f->path1().string(), 120) + "' failed (" + f->code().message() + ")";
    return "an unexpected failure";
}

std::string said_plainly(const std::exception& e, const std::string& context) {
    if (dynamic_cast<const InputError*>(&e) || dynamic_cast<const OutputError*>(&e) || dynamic_cast<const Cancelled*>(&e))
        return shown(e.what(), std::string::npos);
    return context + ": " + failure_in_words(e);
}

std::string unexpected_failure(const std::vector<std::string>& args, const std::exception& e) {
    std::string given;
    for (const std::string& a : args) given += (given.empty() ? "" : " ") + shown(a, 80);
    const std::string why = failure_in_words(e);
    return "could not finish with what was given (" + (given.empty() ? std::string("no options") : shown(given, 240)) +
           "): " + why + "; nothing was written. This is a fault in tilescope, not in what you gave: please report it with this command line";
}

}  // namespace tilescope
