#pragma once
// Command-line options of one subcommand: --name VALUE or --name=VALUE, flags, and
// repeatable options. Anything unknown is an InputError naming what is accepted.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tilescope::args {

class Options {
public:
    // `valued`: options that take a value; `flags`: options that take none.
    Options(std::string command, std::set<std::string> valued, std::set<std::string> flags);

    void parse(const std::vector<std::string>& args);

    bool has(const std::string& name) const;
    std::optional<std::string> get(const std::string& name) const;     // last value given
    std::vector<std::string> all(const std::string& name) const;       // every value, in order
    std::string get_or(const std::string& name, const std::string& fallback) const;
    int get_int(const std::string& name, int fallback, int min_value, const std::string& accepted) const;
    std::vector<std::string> list(const std::string& name) const;      // comma-separated values

private:
    std::string command_;
    std::set<std::string> valued_, flags_;
    std::map<std::string, std::vector<std::string>> values_;
};

}  // namespace tilescope::args
