;; CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) for tsdump, slicing-by-16.
;;
;; Why tables and not SIMD: WebAssembly has no carry-less multiply (no PCLMULQDQ / PMULL) and no CRC32
;; instruction, so the folding algorithms that make native CRC-32C fast cannot be expressed directly.
;; Emulating the 64x32-bit carry-less products with i8x16.swizzle nibble tables costs ~35 v128 ops per
;; 16-byte block before the reduction, against 16 table loads + ~40 scalar ops here, with no gain
;; (bench/RESULTS-crc.md). Slicing-by-16 keeps 16 independent loads in flight per 16 input bytes.
;;
;; Memory layout (one module instance, single-threaded):
;;   [0, 16384)        16 tables of 256 u32: table k at k*1024 = CRC of byte n followed by k zero bytes
;;   [65536, 327680)   input window (INPUT_BASE .. INPUT_BASE+INPUT_SIZE): JS copies bytes here, calls crc
;;
;; Rebuild: node scripts/wasm/build.mjs (writes src/bytes/crc32c-wasm-module.ts).

(module
  (memory (export "memory") 5)
  (global (export "INPUT_BASE") i32 (i32.const 65536))
  (global (export "INPUT_SIZE") i32 (i32.const 262144))

  ;; builds the 16 tables; called once by the JS loader
  (func $init (export "init")
    (local $n i32) (local $c i32) (local $k i32) (local $a i32)
    ;; table 0: the byte-at-a-time table
    (loop $bytes
      (local.set $c (local.get $n))
      (local.set $k (i32.const 8))
      (loop $bits
        (local.set $c
          (i32.xor (i32.shr_u (local.get $c) (i32.const 1))
                   (i32.and (i32.const 0x82F63B78) (i32.sub (i32.const 0) (i32.and (local.get $c) (i32.const 1))))))
        (br_if $bits (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (i32.store (i32.shl (local.get $n) (i32.const 2)) (local.get $c))
      (br_if $bytes (i32.lt_u (local.tee $n (i32.add (local.get $n) (i32.const 1))) (i32.const 256))))
    ;; table k from table k-1: one more zero byte shifted through
    (local.set $a (i32.const 1024))
    (loop $entries
      (local.set $c (i32.load (i32.sub (local.get $a) (i32.const 1024))))
      (i32.store (local.get $a)
        (i32.xor (i32.shr_u (local.get $c) (i32.const 8))
                 (i32.load (i32.shl (i32.and (local.get $c) (i32.const 255)) (i32.const 2)))))
      (br_if $entries (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 4))) (i32.const 16384)))))

  ;; crc(previous, ptr, len): continue the CRC `previous` (0 for a fresh one) over memory[ptr, ptr+len).
  ;; Same convention as crc-32's buf(data, seed) and @node-rs/crc32: the pre/post inversion is inside.
  (func $crc (export "crc") (param $prev i32) (param $p i32) (param $len i32) (result i32)
    (local $crc i32) (local $end i32) (local $end16 i32)
    (local $w0 i32) (local $w1 i32) (local $w2 i32) (local $w3 i32)
    (local.set $crc (i32.xor (local.get $prev) (i32.const -1)))
    (local.set $end (i32.add (local.get $p) (local.get $len)))
    (local.set $end16 (i32.sub (local.get $end) (i32.and (local.get $len) (i32.const 15))))
    (if (i32.lt_u (local.get $p) (local.get $end16))
      (then
        (loop $block
          ;; the running CRC is XORed into the first 4 bytes; wasm loads are little-endian, as the reflected CRC wants
          (local.set $w0 (i32.xor (i32.load (local.get $p)) (local.get $crc)))
          (local.set $w1 (i32.load offset=4 (local.get $p)))
          (local.set $w2 (i32.load offset=8 (local.get $p)))
          (local.set $w3 (i32.load offset=12 (local.get $p)))
          ;; byte i of the block goes through table 15-i (byte index * 4 = table offset)
          (local.set $crc
            (i32.xor
              (i32.xor
                (i32.xor
                  (i32.xor (i32.load offset=15360 (i32.and (i32.shl (local.get $w0) (i32.const 2)) (i32.const 1020)))
                           (i32.load offset=14336 (i32.and (i32.shr_u (local.get $w0) (i32.const 6)) (i32.const 1020))))
                  (i32.xor (i32.load offset=13312 (i32.and (i32.shr_u (local.get $w0) (i32.const 14)) (i32.const 1020)))
                           (i32.load offset=12288 (i32.and (i32.shr_u (local.get $w0) (i32.const 22)) (i32.const 1020)))))
                (i32.xor
                  (i32.xor (i32.load offset=11264 (i32.and (i32.shl (local.get $w1) (i32.const 2)) (i32.const 1020)))
                           (i32.load offset=10240 (i32.and (i32.shr_u (local.get $w1) (i32.const 6)) (i32.const 1020))))
                  (i32.xor (i32.load offset=9216 (i32.and (i32.shr_u (local.get $w1) (i32.const 14)) (i32.const 1020)))
                           (i32.load offset=8192 (i32.and (i32.shr_u (local.get $w1) (i32.const 22)) (i32.const 1020))))))
              (i32.xor
                (i32.xor
                  (i32.xor (i32.load offset=7168 (i32.and (i32.shl (local.get $w2) (i32.const 2)) (i32.const 1020)))
                           (i32.load offset=6144 (i32.and (i32.shr_u (local.get $w2) (i32.const 6)) (i32.const 1020))))
                  (i32.xor (i32.load offset=5120 (i32.and (i32.shr_u (local.get $w2) (i32.const 14)) (i32.const 1020)))
                           (i32.load offset=4096 (i32.and (i32.shr_u (local.get $w2) (i32.const 22)) (i32.const 1020)))))
                (i32.xor
                  (i32.xor (i32.load offset=3072 (i32.and (i32.shl (local.get $w3) (i32.const 2)) (i32.const 1020)))
                           (i32.load offset=2048 (i32.and (i32.shr_u (local.get $w3) (i32.const 6)) (i32.const 1020))))
                  (i32.xor (i32.load offset=1024 (i32.and (i32.shr_u (local.get $w3) (i32.const 14)) (i32.const 1020)))
                           (i32.load offset=0 (i32.and (i32.shr_u (local.get $w3) (i32.const 22)) (i32.const 1020))))))))
          (br_if $block (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 16))) (local.get $end16))))))
    ;; the last 0-15 bytes one at a time
    (if (i32.lt_u (local.get $p) (local.get $end))
      (then
        (loop $tail
          (local.set $crc
            (i32.xor (i32.shr_u (local.get $crc) (i32.const 8))
                     (i32.load (i32.shl (i32.and (i32.xor (local.get $crc) (i32.load8_u (local.get $p))) (i32.const 255)) (i32.const 2)))))
          (br_if $tail (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 1))) (local.get $end))))))
    (i32.xor (local.get $crc) (i32.const -1)))
)
