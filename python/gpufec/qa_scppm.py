#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gpufec.scppm_encoder, gpufec.poisson_channel and gpufec.scppm_decoder in flowgraphs: a
noiseless loopback, a loopback through the Poisson channel, slot LLRs with log-map, the PDU face,
a negative count reported as an erasure, the link's stages (randomizer, channel interleaver,
framing, codeword synchronisation) end to end, and bad parameters named in the error."""


import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest
from gnuradio import gpufec

from qa_util import decode_pdus, encode_with, run_decoder


def channel(slots, ks, kb, seed=3):
    tb = gr.top_block()
    src = blocks.vector_source_b(slots.tolist())
    ch = gpufec.poisson_channel(Ks=ks, Kb=kb, seed=seed)
    snk = blocks.vector_sink_f()
    tb.connect(src, ch, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.float32)


class qa_scppm(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(9)

    def test_001_noiseless_loopback(self):
        for M, rate in ((4, "1/3"), (16, "2/3"), (256, "1/2")):
            k = gpufec.scppm_info_bits(M, rate)
            bits = self.rng.integers(0, 2, 2 * k, dtype=np.uint8)
            slots = encode_with(gpufec.scppm_encoder(M=M, rate=rate), bits)
            self.assertEqual(len(slots), 2 * gpufec.scppm_slots(M, rate))
            self.assertEqual(int(slots.sum()), 2 * 15120 // (M.bit_length() - 1))  # one pulse a symbol
            dec = gpufec.scppm_decoder(M=M, rate=rate, device="cpu")
            out, _ = run_decoder(dec, slots.astype(np.float32))
            np.testing.assert_array_equal(out, bits, err_msg="M=%d rate %s" % (M, rate))
            self.assertEqual(dec.frames(), 2)
            self.assertEqual(dec.failed_frames(), 0)

    def test_002_poisson_channel_loopback(self):
        M, rate, frames = 16, "2/3", 4
        k = gpufec.scppm_info_bits(M, rate)
        bits = self.rng.integers(0, 2, frames * k, dtype=np.uint8)
        slots = encode_with(gpufec.scppm_encoder(M=M, rate=rate), bits)
        counts = channel(slots, ks=10 ** 0.5, kb=0.2)  # Ks 5 dB: 1 dB above where decoding starts
        self.assertAlmostEqual(float(counts[slots == 0].mean()), 0.2, delta=0.01)
        dec = gpufec.scppm_decoder(M=M, rate=rate, device="cpu", status_tags="all")
        out, tags = run_decoder(dec, counts)
        np.testing.assert_array_equal(out, bits)
        crc = [pmt.to_python(t.value) for t in tags if pmt.symbol_to_string(t.key) == "scppm_crc_ok"]
        self.assertEqual(crc, [True] * frames)
        self.assertGreater(dec.mean_iterations(), 1.0)
        # the same counts as slot log-likelihoods, decoded with log-map
        llr = counts * np.log1p(10 ** 0.5 / 0.2)
        lm = gpufec.scppm_decoder(M=M, rate=rate, algorithm="log-map", input="symbol_llr", device="cpu")
        out2, _ = run_decoder(lm, llr.astype(np.float32))
        np.testing.assert_array_equal(out2, bits)

    def test_003_pdu_face(self):
        M, rate = 8, "1/2"
        k = gpufec.scppm_info_bits(M, rate)
        bits = self.rng.integers(0, 2, k, dtype=np.uint8)
        slots = encode_with(gpufec.scppm_encoder(M=M, rate=rate), bits)
        dec = gpufec.pdu_decoder("scppm", gpufec.scppm_options(M=M, rate=rate), device="cpu")
        msgs = decode_pdus(dec, [pmt.cons(pmt.make_dict(), pmt.init_u8vector(len(slots), (3 * slots).tolist()))])
        self.assertEqual(len(msgs), 1)
        msg = msgs[0]
        np.testing.assert_array_equal(np.array(pmt.u8vector_elements(pmt.cdr(msg)), dtype=np.uint8), bits)
        meta = pmt.to_python(pmt.car(msg))
        self.assertEqual(meta["passed"], True)

    def test_004_negative_count_is_an_erasure(self):
        M, rate = 16, "2/3"
        k = gpufec.scppm_info_bits(M, rate)
        bits = self.rng.integers(0, 2, 2 * k, dtype=np.uint8)
        slots = encode_with(gpufec.scppm_encoder(M=M, rate=rate), bits).astype(np.float32)
        slots[100] = -2.0  # codeword 0
        dec = gpufec.scppm_decoder(M=M, rate=rate, device="cpu")
        out, _ = run_decoder(dec, slots)
        np.testing.assert_array_equal(out[k:], bits[k:])
        self.assertEqual(dec.frames(), 2)
        self.assertEqual(dec.erased_frames(), 1)

    def test_006_framing_through_the_channel(self):
        M, rate = 16, "1/2"
        k = gpufec.scppm_info_bits(M, rate)
        bits = self.rng.integers(0, 2, 2 * k, dtype=np.uint8)
        slots = encode_with(gpufec.scppm_encoder(M=M, rate=rate), bits)
        framed = gpufec.scppm_add_framing(slots, M, rate)
        fs = gpufec.scppm_frame_slots(M, rate)
        self.assertEqual(len(framed), 2 * fs)
        self.assertEqual(list(gpufec.scppm_sync_marker(M))[:4], [0, 2, 7, 14])
        lead = 1234  # slots of noise before the first frame
        stream = np.concatenate([np.zeros(lead, np.uint8), framed, np.zeros(fs, np.uint8)])
        counts = channel(stream, ks=10 ** 0.6, kb=0.2)
        at, score = gpufec.scppm_find_marker(counts, M, rate)
        self.assertEqual(at, lead)
        code_counts = gpufec.scppm_deframe(counts[at:at + 2 * fs], M, rate)
        dec = gpufec.scppm_decoder(M=M, rate=rate, device="cpu")
        out, _ = run_decoder(dec, code_counts)
        np.testing.assert_array_equal(out, bits)
        with self.assertRaises(ValueError):
            gpufec.scppm_deframe(counts[:fs - 1], M, rate)
        # the channel interleaver and its deinterleaver give the symbols back, delayed
        il = gpufec.conv_symbol_interleaver(4, 2, M, False)
        de = gpufec.conv_symbol_interleaver(4, 2, M, True)
        x = code_counts[:100 * M]
        back = de.push(il.push(x, M), M)
        d = il.end_to_end_delay()
        np.testing.assert_array_equal(back[d * M:], x[:len(x) - d * M])

    def test_007_link_chain_blocks(self):
        # randomizer, channel interleaver, framer | Poisson channel with noise before the first
        # marker and a slot slipped in | frame sync, deinterleaver, decoder with de-randomizer
        M, rate, frames = 16, "1/2", 5
        k, fs = gpufec.scppm_info_bits(M, rate), gpufec.scppm_frame_slots(M, rate)
        N, B = 2, 1890  # N B = 3780, a codeword's symbols: the pair delays by one codeword
        bits = self.rng.integers(0, 2, frames * k, dtype=np.uint8)
        tb = gr.top_block()
        src = blocks.vector_source_b(bits.tolist())
        enc = gpufec.scppm_encoder(M=M, rate=rate, randomizer=True)
        il = gpufec.scppm_channel_interleaver(M=M, N=N, B=B)
        fr = gpufec.scppm_framer(M=M, rate=rate)
        snk = blocks.vector_sink_b()
        tb.connect(src, enc, il, fr, snk)
        tb.run()
        framed = np.array(snk.data(), dtype=np.uint8)
        self.assertEqual(len(framed), frames * fs)
        lead = 5000
        stream = np.concatenate([np.zeros(lead, np.uint8), framed[:3 * fs], [0], framed[3 * fs:]])
        tb = gr.top_block()
        src = blocks.vector_source_b(stream.tolist())
        ch = gpufec.poisson_channel(Ks=10 ** 0.6, Kb=0.2, seed=5)
        sync = gpufec.scppm_frame_sync(M=M, rate=rate)
        de = gpufec.scppm_channel_interleaver(M=M, N=N, B=B, deinterleave=True, dtype="float")
        dec = gpufec.scppm_decoder(M=M, rate=rate, device="cpu", randomizer=True)
        out = blocks.vector_sink_b()
        tags = blocks.vector_sink_f()
        tb.connect(src, ch, sync, de, dec, out)
        tb.connect(sync, tags)
        tb.run()
        # frames 0 .. 3 given (4 waits for slots after it), the first codeword's worth is the
        # deinterleaver's fill: codewords 0 .. 2 come out, the user's bits
        got = np.array(out.data(), dtype=np.uint8)
        self.assertEqual(len(got), 3 * k)
        np.testing.assert_array_equal(got, bits[:3 * k])
        self.assertEqual(dec.failed_frames(), 0)
        st = sync.stats()
        self.assertEqual((st["frames"], st["acquisitions"], st["slips"], st["losses"]), (4, 1, 1, 0))
        self.assertEqual(st["skipped_slots"], lead + 1)
        seen = [(t.offset, pmt.to_python(t.value)) for t in tags.tags() if pmt.symbol_to_string(t.key) == "scppm_sync"]
        slots = gpufec.scppm_slots(M, rate)
        self.assertEqual(seen, [(0, "acquired"), (3 * slots, ("slipped", 1))])
        # the encoder's randomizer against the helper: a codeword of zeros is the sequence
        zeros = encode_with(gpufec.scppm_encoder(M=M, rate=rate, randomizer=True), np.zeros(k, np.uint8))
        plain = encode_with(gpufec.scppm_encoder(M=M, rate=rate), gpufec.ccsds_randomize(np.zeros(k, np.uint8)))
        np.testing.assert_array_equal(zeros, plain)
        np.testing.assert_array_equal(gpufec.ccsds_randomize(np.zeros(16, np.uint8))[:16],
                                      np.unpackbits(np.array([0xFF, 0x48], np.uint8)))

    def test_005_bad_parameters_are_named(self):
        for kwargs, word in (({"M": 12}, "M: '12'"), ({"rate": "3/4"}, "rate"), ({"input": "volts"}, "input"),
                             ({"algorithm": "map"}, "algorithm"), ({"algorithm": "log-map"}, "ks, kb"),
                             ({"max_iterations": 0}, "max_iterations")):
            with self.assertRaises(ValueError) as cm:
                gpufec.scppm_decoder(device="cpu", **kwargs)
            self.assertIn(word, str(cm.exception), msg=str(kwargs))
        with self.assertRaises(ValueError):
            gpufec.poisson_channel(Ks=-1)
        with self.assertRaises(ValueError):
            gpufec.scppm_channel_interleaver(dtype="int")
        with self.assertRaises(ValueError):
            gpufec.scppm_frame_sync(max_misses=0)


    def test_090_stream_blocks_without_a_python_reference(self):
        # GNU Radio issue #8137: a Python stream block that no variable holds was freed while the
        # flowgraph still called it (a segmentation fault at tb.start()); ours hold themselves.
        # In a child process, so that a crash fails this test instead of ending the suite.
        import subprocess
        import sys
        code = """
import gc
from gnuradio import blocks, gr, gpufec
tb = gr.top_block()
slots = gpufec.scppm_slots(16, "2/3")
src = blocks.vector_source_b([0, 1] * slots)
snk = blocks.null_sink(gr.sizeof_float)
tb.connect(src, gpufec.scppm_channel_interleaver(M=16, dtype="byte"),
           gpufec.poisson_channel(Ks=5, Kb=0.1, seed=1), gpufec.scppm_frame_sync(M=16), snk)
tb.connect(blocks.vector_source_b([1] * 100), gpufec.scppm_framer(M=16), blocks.null_sink(1))
gc.collect()
tb.run()
print("ran")
"""
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, msg=r.stderr[-2000:])
        self.assertIn("ran", r.stdout)


if __name__ == "__main__":
    gr_unittest.run(qa_scppm)
