// Typed engine errors. Every message says what is wrong and what to do about it; the engine never
// prints or exits, callers (CLI, GUI) show these messages. Part of the public API.
#pragma once
#include <stdexcept>
#include <string>

namespace twb {

/// Base of every error the engine throws on purpose.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A user-supplied input (file, text, option) is unusable.
class InputError : public Error {
public:
    using Error::Error;
};

/// A configuration value is out of range or inconsistent.
class ConfigError : public Error {
public:
    using Error::Error;
};

/// A file on disk (checkpoint, dataset, tokenizer) is truncated, corrupt or does not match.
class FormatError : public Error {
public:
    using Error::Error;
};

/// Writing failed (permissions, disk full).
class IoError : public Error {
public:
    using Error::Error;
};

/// Thrown when a long operation is stopped through its progress callback or stop flag.
class Cancelled : public Error {
public:
    Cancelled() : Error("cancelled") {}
};

}  // namespace twb
