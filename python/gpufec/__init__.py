#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gr-gpufec: GPU (CUDA) channel decoders for GNU Radio, with a CPU path giving the same bits.

Decoder blocks: viterbi_decoder (convolutional codes: streaming and frame modes),
ldpc_decoder (802.11n, 802.16e, 5G NR base graphs, alist / base-matrix files; nr_rate_matcher
for 5G NR rate matching), frame_decoder (any frame family by
name: ldpc, viterbi, repetition, ...). They decode in batches, asynchronously, with a stream
face and a tagged-stream face (length_tag_key).
Turbo (LTE, all 188 K): turbo_decoder, turbo_encoder (on the generic blocks); rate matching:
lte_rate_match, lte_derate_match (PDU blocks), lte_rate_matcher, lte_segmentation; transport
blocks: lte_segment, turbo_pdu_encoder, lte_desegment (PDU blocks), lte_segment_bits(),
turbo_encode(), crc_append(), crc_check().
SCPPM (CCSDS 142, optical): scppm_encoder, scppm_decoder, poisson_channel, the link's stages
scppm_channel_interleaver, scppm_framer, scppm_frame_sync (blocks), scppm_info_bits(),
scppm_slots(), and the helpers scppm_add_framing(), scppm_find_marker(), scppm_deframe(),
scppm_codeword_sync, conv_symbol_interleaver(_b), ccsds_randomize().
Insertion/deletion (TVB codes over the BSID channel): tvb_encoder, tvb_decoder (tagged stream;
pdu_decoder("tvb", tvb_options(...)) for PDUs), bsid_channel (PDU block), bsid_model,
bsid_drift_limits(), tvb_map_decoder (the CPU decoder with priors, for iterative decoding).
CCSDS telemetry (131.0-B): ccsds_tm_receiver (soft symbols to transfer frames: marker sync over
the ambiguities, Viterbi, de-randomizing, Reed-Solomon, LDPC (C2, AR4JA) or turbo, FECF), its stages
ccsds_tm_sync, ccsds_tm_deframer, ccsds_tm_frame_check, and ccsds_tm_encoder; the rs family
decodes Reed-Solomon codeblocks on any frame face; helpers ccsds_tm_codes(),
ccsds_tm_decoder_options(), ccsds_tm_stream_encoder, rs_codeword_corrections(), ccsds_fecf_ok(),
ccsds_fecf_set(), ccsds_pn_sequence().
Encoder blocks: conv_encoder, ldpc_encoder.
Channels for PDU chains: bpsk_awgn_channel (PDU block), awgn_sigma(ebn0_db, rate).
Helpers: __version__, version(), frame_families(), frame_family_options(family), ldpc_codes(), ldpc_code_alist(code),
conv_presets(), conv_preset(name), cuda_devices(), cuda_compiled(),
union_bound_ber(preset, ebn0_db).
"""
from .gpufec_python import *  # noqa: F401,F403
from .gpufec_python import version as _version

__version__ = _version()
from .turbo import turbo_decoder, turbo_encoder, turbo_options  # noqa: F401
from .lte_rate_matching import lte_rate_match, lte_derate_match  # noqa: F401
from .scppm import (scppm_decoder, scppm_encoder, scppm_options, poisson_channel,  # noqa: F401
                    scppm_framer, scppm_frame_sync, scppm_channel_interleaver)
from .tvb import tvb_decoder, tvb_encoder, tvb_options, bsid_channel  # noqa: F401
from .lte_transport import lte_segment, lte_desegment, turbo_pdu_encoder, lte_k_sizes  # noqa: F401
from .nr_transport import nr_segmenter, nr_desegmenter, nr_rate_match, nr_derate_match, ldpc_pdu_encoder  # noqa: F401
from .channels import bpsk_awgn_channel, awgn_sigma  # noqa: F401
from .ccsds_tm import (ccsds_tm_receiver, ccsds_tm_sync, ccsds_tm_deframer,  # noqa: F401
                       ccsds_tm_encoder, ccsds_tm_decoder_options)
