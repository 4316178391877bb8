/*
 * Copyright 2026 gr-gpufec authors.
 *
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 */

#ifndef INCLUDED_GPUFEC_API_H
#define INCLUDED_GPUFEC_API_H

#include <gnuradio/attributes.h>

#ifdef gnuradio_gpufec_EXPORTS
#define GPUFEC_API __GR_ATTR_EXPORT
#else
#define GPUFEC_API __GR_ATTR_IMPORT
#endif

#endif /* INCLUDED_GPUFEC_API_H */
