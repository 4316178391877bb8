/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "codes/code_file.h"

#include <filesystem>
#include <fstream>

namespace gpufec {

std::string printable(const std::string& text, size_t max_len)
{
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (size_t i = 0; i < text.size() && i < max_len; ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7f) {
            out += char(c);
        } else {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    if (text.size() > max_len)
        out += "...";
    return out;
}

std::string read_code_file(const std::string& path, const std::string& what, size_t max_bytes)
{
    const std::string quoted = "'" + printable(path, 200) + "'";
    if (path.empty())
        throw std::invalid_argument(what + ": no file given");
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(st))
        throw std::invalid_argument(what + ": cannot open " + quoted + " (no such file)");
    if (!std::filesystem::is_regular_file(st))
        throw std::invalid_argument(what + ": " + quoted + " is not a regular file (a directory, a device or a pipe)");
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > max_bytes)
        throw std::invalid_argument(what + ": " + quoted + " has " + std::to_string(size) + " bytes; code files of more than " +
                                    std::to_string(max_bytes >> 20) + " MiB are refused");
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw std::invalid_argument(what + ": cannot open " + quoted + " (no permission?)");
    // read at most max_bytes + 1 whatever the size said (a file may grow while it is read)
    std::string text(max_bytes + 1 > size_t(size) + 1 ? size_t(size) + 1 : max_bytes + 1, '\0');
    text.clear();
    char buf[1 << 16];
    while (f && text.size() <= max_bytes) {
        f.read(buf, sizeof buf);
        text.append(buf, size_t(f.gcount()));
    }
    if (text.size() > max_bytes)
        throw std::invalid_argument(what + ": " + quoted + " has more than " + std::to_string(max_bytes >> 20) +
                                    " MiB; code files that large are refused");
    return text;
}

std::invalid_argument code_file_error(const std::string& kind, const std::string& id, int line, const std::string& what)
{
    return std::invalid_argument(kind + " '" + printable(id, 200) + "'" +
                                 (line > 0 ? ", line " + std::to_string(line) : std::string()) + ": " + what);
}

} // namespace gpufec
