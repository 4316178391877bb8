#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gr-gpufec: GPU (CUDA) channel decoders for GNU Radio, with a CPU path giving the same bits.

Blocks: viterbi_decoder, conv_encoder. Helpers: conv_presets(), conv_preset(name),
cuda_devices(), cuda_compiled(), union_bound_ber(preset, ebn0_db).
"""
from .gpufec_python import *  # noqa: F401,F403
