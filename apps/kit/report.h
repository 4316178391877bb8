/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The apps' machine-readable output: one CSV writer (text quoted, missing values empty) and
 * the fields every JSON report starts with. */
#ifndef INCLUDED_GPUFEC_APPS_REPORT_H
#define INCLUDED_GPUFEC_APPS_REPORT_H

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GPUFEC_GIT_COMMIT
#define GPUFEC_GIT_COMMIT "unknown"
#endif

namespace gpufec {
namespace app {

//! the commit this program was built from ("unknown" outside a git checkout)
inline const char* build_commit() { return GPUFEC_GIT_COMMIT; }

/*! Writes `text` to `path` so that the file is whole at every moment: a regular file (or a new
 *  one) is written beside it and renamed over it, so an interrupted run leaves the previous
 *  version; something else (a device, a pipe) is written in place. Throws std::runtime_error,
 *  with the system's reason, when anything fails (a full disk: /dev/full). */
inline void write_text_file(const std::string& path, const std::string& text)
{
    struct stat st;
    const bool exists = ::stat(path.c_str(), &st) == 0;
    const bool in_place = exists && !S_ISREG(st.st_mode);
    const std::string target = in_place ? path : path + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream f(target, std::ios::trunc | std::ios::binary);
        if (!f)
            throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
        f << text;
        f.flush();
        const int err = errno;
        if (!f) {
            f.close();
            if (!in_place)
                std::remove(target.c_str());
            throw std::runtime_error("cannot write " + path + ": " + std::strerror(err ? err : EIO));
        }
    }
    if (!in_place && std::rename(target.c_str(), path.c_str()) != 0) {
        const int err = errno;
        std::remove(target.c_str());
        throw std::runtime_error("cannot write " + path + ": " + std::strerror(err));
    }
}

class csv_table
{
public:
    //! a cell: text (quoted), a count, a number (%.6g; NaN: empty), or nothing (empty)
    using cell = std::variant<std::string, uint64_t, double, std::monostate>;

    explicit csv_table(std::vector<std::string> columns) : d_columns(std::move(columns)) {}
    const std::vector<std::string>& columns() const { return d_columns; }

    void add(const std::vector<cell>& row)
    {
        if (row.size() != d_columns.size())
            throw std::logic_error("csv_table: a row of " + std::to_string(row.size()) + " cells for " +
                                   std::to_string(d_columns.size()) + " columns");
        std::string line;
        for (size_t i = 0; i < row.size(); ++i) {
            if (i)
                line += ',';
            line += format(row[i]);
        }
        d_rows.push_back(line);
    }

    std::string text() const
    {
        std::string s;
        for (size_t i = 0; i < d_columns.size(); ++i)
            s += (i ? "," : "") + d_columns[i];
        s += '\n';
        for (const auto& r : d_rows)
            s += r + '\n';
        return s;
    }

    //! writes the whole table (a file rewritten after every point stays a valid CSV)
    void write(const std::string& path) const { write_text_file(path, text()); }

    /*! Appends the rows to `path`, with the header first where the file is new or empty;
     *  refuses a file whose header is not this table's (so runs collect in one CSV). */
    void append(const std::string& path) const
    {
        const std::string all = text();
        const std::string mine = all.substr(0, all.find('\n'));
        std::string header;
        {
            std::ifstream in(path, std::ios::binary);
            // (a header is one line of at most a few hundred bytes: read no more than that, so
            // /dev/zero or a binary file cannot make this read without end)
            std::string buf(4096, '\0');
            in.read(&buf[0], std::streamsize(buf.size()));
            buf.resize(size_t(in.gcount()));
            header = buf.substr(0, buf.find('\n'));
            if (!buf.empty() && buf.find('\n') == std::string::npos)
                throw std::runtime_error(path + " does not start with a CSV header line; write to a new file");
        }
        if (!header.empty() && header != mine)
            throw std::runtime_error(path + " has other columns (" + header.substr(0, 200) + "); write to a new file");
        std::ofstream f(path, std::ios::app | std::ios::binary);
        f << (header.empty() ? all : all.substr(mine.size() + 1));
        f.flush();
        if (!f)
            throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    }

private:
    static std::string format(const cell& c)
    {
        if (const auto* s = std::get_if<std::string>(&c)) {
            std::string o = "\"";
            for (char ch : *s)
                o += ch == '"' ? std::string("\"\"") : std::string(1, ch);
            return o + "\"";
        }
        if (const auto* u = std::get_if<uint64_t>(&c))
            return std::to_string(*u);
        if (const auto* d = std::get_if<double>(&c)) {
            if (!std::isfinite(*d))
                return "";
            char b[32];
            std::snprintf(b, sizeof b, "%.6g", *d);
            return b;
        }
        return "";
    }

    std::vector<std::string> d_columns;
    std::vector<std::string> d_rows;
};

} // namespace app
} // namespace gpufec

#endif
