/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_LDPC_BLOCK_CODE_H
#define INCLUDED_GPUFEC_LDPC_BLOCK_CODE_H

#include <gnuradio/gpufec/core/ldpc_code.h>
#include <string>

namespace gr {
namespace gpufec {

//! The code an LDPC block's `code` parameter names: a standard id ("802.11n:1944:1/2") or the
//! path of an alist / base-matrix file.
inline ::gpufec::ldpc_code ldpc_block_code(const std::string& code)
{
    if (code.rfind("802.", 0) == 0)
        return ::gpufec::ldpc_code::standard(code);
    return ::gpufec::ldpc_code::load(code);
}

} // namespace gpufec
} // namespace gr

#endif
