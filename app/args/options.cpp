#include "args/options.h"

#include <charconv>

#include "core/base/errors.h"

namespace tilescope::args {

Options::Options(std::string command, std::set<std::string> valued, std::set<std::string> flags)
    : command_(std::move(command)), valued_(std::move(valued)), flags_(std::move(flags)) {}

void Options::parse(const std::vector<std::string>& args) {
    for (size_t i = 0; i < args.size(); ++i) {
        std::string a = args[i], value;
        bool inline_value = false;
        if (a.rfind("--", 0) != 0) throw InputError("'" + command_ + "': unexpected argument '" + shown(a) + "'; see tilescope " + command_ + " --help");
        if (const size_t eq = a.find('='); eq != std::string::npos) {
            value = a.substr(eq + 1);
            a = a.substr(0, eq);
            inline_value = true;
        }
        const std::string name = a.substr(2);
        if (flags_.count(name)) {
            if (inline_value) throw InputError("--" + shown(name, 40) + " takes no value");
            values_[name].push_back("");
        } else if (valued_.count(name)) {
            if (!inline_value) {
                if (i + 1 >= args.size()) throw InputError("--" + name + " needs a value");
                value = args[++i];
            }
            values_[name].push_back(value);
        } else {
            std::string accepted;
            for (auto& v : valued_) accepted += " --" + v;
            for (auto& f : flags_) accepted += " --" + f;
            throw InputError("'" + command_ + "': unknown option '" + shown(a, 40) + "'; accepted:" + accepted);
        }
    }
}

bool Options::has(const std::string& name) const { return values_.count(name) > 0; }

std::optional<std::string> Options::get(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second.back();
}

std::vector<std::string> Options::all(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? std::vector<std::string>{} : it->second;
}

std::string Options::get_or(const std::string& name, const std::string& fallback) const {
    return get(name).value_or(fallback);
}

int Options::get_int(const std::string& name, int fallback, int min_value, const std::string& accepted) const {
    const auto v = get(name);
    if (!v) return fallback;
    int out = 0;
    const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
    if (v->empty() || ec != std::errc() || end != v->data() + v->size() || out < min_value)
        throw InputError("--" + name + " '" + shown(*v) + "': accepted: " + accepted);
    return out;
}

std::vector<std::string> Options::list(const std::string& name) const {
    std::vector<std::string> out;
    for (const std::string& v : all(name)) {
        size_t start = 0;
        for (;;) {
            const size_t c = v.find(',', start);
            const std::string item = v.substr(start, c == std::string::npos ? std::string::npos : c - start);
            if (item.empty()) throw InputError("--" + name + " '" + shown(v) + "': empty item in the list");
            out.push_back(item);
            if (c == std::string::npos) break;
            start = c + 1;
        }
    }
    return out;
}

}  // namespace tilescope::args
