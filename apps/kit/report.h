/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The apps' machine-readable output: one CSV writer (text quoted, missing values empty) and
 * the fields every JSON report starts with. */
#ifndef INCLUDED_GPUFEC_APPS_REPORT_H
#define INCLUDED_GPUFEC_APPS_REPORT_H

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#ifndef GPUFEC_GIT_COMMIT
#define GPUFEC_GIT_COMMIT "unknown"
#endif

namespace gpufec {
namespace app {

//! the commit this program was built from ("unknown" outside a git checkout)
inline const char* build_commit() { return GPUFEC_GIT_COMMIT; }

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
    void write(const std::string& path) const
    {
        std::ofstream f(path, std::ios::trunc);
        if (!f || !(f << text()))
            throw std::runtime_error("cannot write " + path);
    }

    /*! Appends the rows to `path`, with the header first where the file is new or empty;
     *  refuses a file whose header is not this table's (so runs collect in one CSV). */
    void append(const std::string& path) const
    {
        std::string header;
        {
            std::ifstream in(path);
            std::getline(in, header);
        }
        const std::string all = text();
        const std::string mine = all.substr(0, all.find('\n'));
        if (!header.empty() && header != mine)
            throw std::runtime_error(path + " has other columns (" + header + "); write to a new file");
        std::ofstream f(path, std::ios::app);
        if (!f || !(f << (header.empty() ? all : all.substr(mine.size() + 1))))
            throw std::runtime_error("cannot write " + path);
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
