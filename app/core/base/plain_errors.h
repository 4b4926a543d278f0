#pragma once
// A library's exception said in words of our own (issue 32, item 6): a message names the
// file and what it held, never the library's text ("[json.exception.type_error.302] type
// must be number, but is string", "basic_string::substr: __pos ...").
#include <exception>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tilescope {

// "not valid at byte 12", "it ends early (at byte 40)", "a string where a number belongs",
// "no field 'steps'", "a list without item 3", "a number too large", "text that is not
// valid UTF-8"; anything else "a value of an unexpected kind".
std::string json_problem(const nlohmann::json::exception& e);

// The one line for a failure no reader turned into an InputError (a fault of tilescope's,
// caught last by the command line): what the user gave (`given`, the subcommand's
// arguments) and what went wrong in our words (a JSON fault, out of memory, a file
// operation and its path), never e.what(): "could not finish with what was given (--open
// 'x.tstrace'): ...; nothing was written. This is a fault in tilescope ...".
// The "why" of unexpected_failure alone: "it ran out of memory", "a file operation on 'P'
// failed (No space left on device)", "a document it read or wrote held ...".
std::string failure_in_words(const std::exception& e);

// Our own errors (InputError, OutputError, Cancelled) as they are: they already name what
// the user gave; anything else "CONTEXT: " and failure_in_words. For the GUI's catches.
std::string said_plainly(const std::exception& e, const std::string& context);

std::string unexpected_failure(const std::vector<std::string>& given, const std::exception& e);

}  // namespace tilescope
