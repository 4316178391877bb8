/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* What every code-file loader (LDPC alist and base matrices, SimCommSys TVB systems) shares:
 * reading a file with limits, quoting its bytes in messages, and errors that name the file and
 * the line. */
#ifndef INCLUDED_GPUFEC_CODE_FILE_H
#define INCLUDED_GPUFEC_CODE_FILE_H

#include <cstddef>
#include <stdexcept>
#include <string>

namespace gpufec {

//! the largest code file any loader reads
constexpr size_t max_code_file_bytes = size_t(64) << 20;

/*! Bytes a message may quote as they are; others become \xNN. Files can hold anything, and a
 *  message that is not valid UTF-8 cannot even reach Python. At most max_len bytes, then "...". */
std::string printable(const std::string& text, size_t max_len = 40);

/*! The text of the code file at `path`. Refuses, naming `what` (the option, "code" or "file")
 *  and the path: a path that does not exist or cannot be opened, something that is not a regular
 *  file (a directory, a device such as /dev/zero, a pipe), and files beyond max_bytes. */
std::string read_code_file(const std::string& path, const std::string& what, size_t max_bytes = max_code_file_bytes);

//! "<kind> '<id>', line <line>: <what>" (no line where line <= 0)
std::invalid_argument code_file_error(const std::string& kind, const std::string& id, int line, const std::string& what);

} // namespace gpufec

#endif
