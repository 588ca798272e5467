/**
 * SHA-512, SHA-384, SHA-512/256 and SHA-512/224 (FIPS 180-4) over bytes. JavaScript has no
 * fast 64-bit integers, so every 64-bit word is a pair of 32-bit halves (hi, lo).
 */
import { padMessage, wordsToBytes } from './padding.js';

/** Round constants, hi/lo interleaved (generated from the cube roots of the first 80 primes). */
const K = new Int32Array([
  0x428a2f98, 0xd728ae22, 0x71374491, 0x23ef65cd, 0xb5c0fbcf, 0xec4d3b2f, 0xe9b5dba5, 0x8189dbbc, 0x3956c25b,
  0xf348b538, 0x59f111f1, 0xb605d019, 0x923f82a4, 0xaf194f9b, 0xab1c5ed5, 0xda6d8118, 0xd807aa98, 0xa3030242,
  0x12835b01, 0x45706fbe, 0x243185be, 0x4ee4b28c, 0x550c7dc3, 0xd5ffb4e2, 0x72be5d74, 0xf27b896f, 0x80deb1fe,
  0x3b1696b1, 0x9bdc06a7, 0x25c71235, 0xc19bf174, 0xcf692694, 0xe49b69c1, 0x9ef14ad2, 0xefbe4786, 0x384f25e3,
  0x0fc19dc6, 0x8b8cd5b5, 0x240ca1cc, 0x77ac9c65, 0x2de92c6f, 0x592b0275, 0x4a7484aa, 0x6ea6e483, 0x5cb0a9dc,
  0xbd41fbd4, 0x76f988da, 0x831153b5, 0x983e5152, 0xee66dfab, 0xa831c66d, 0x2db43210, 0xb00327c8, 0x98fb213f,
  0xbf597fc7, 0xbeef0ee4, 0xc6e00bf3, 0x3da88fc2, 0xd5a79147, 0x930aa725, 0x06ca6351, 0xe003826f, 0x14292967,
  0x0a0e6e70, 0x27b70a85, 0x46d22ffc, 0x2e1b2138, 0x5c26c926, 0x4d2c6dfc, 0x5ac42aed, 0x53380d13, 0x9d95b3df,
  0x650a7354, 0x8baf63de, 0x766a0abb, 0x3c77b2a8, 0x81c2c92e, 0x47edaee6, 0x92722c85, 0x1482353b, 0xa2bfe8a1,
  0x4cf10364, 0xa81a664b, 0xbc423001, 0xc24b8b70, 0xd0f89791, 0xc76c51a3, 0x0654be30, 0xd192e819, 0xd6ef5218,
  0xd6990624, 0x5565a910, 0xf40e3585, 0x5771202a, 0x106aa070, 0x32bbd1b8, 0x19a4c116, 0xb8d2d0c8, 0x1e376c08,
  0x5141ab53, 0x2748774c, 0xdf8eeb99, 0x34b0bcb5, 0xe19b48a8, 0x391c0cb3, 0xc5c95a63, 0x4ed8aa4a, 0xe3418acb,
  0x5b9cca4f, 0x7763e373, 0x682e6ff3, 0xd6b2b8a3, 0x748f82ee, 0x5defb2fc, 0x78a5636f, 0x43172f60, 0x84c87814,
  0xa1f0ab72, 0x8cc70208, 0x1a6439ec, 0x90befffa, 0x23631e28, 0xa4506ceb, 0xde82bde9, 0xbef9a3f7, 0xb2c67915,
  0xc67178f2, 0xe372532b, 0xca273ece, 0xea26619c, 0xd186b8c7, 0x21c0c207, 0xeada7dd6, 0xcde0eb1e, 0xf57d4f7f,
  0xee6ed178, 0x06f067aa, 0x72176fba, 0x0a637dc5, 0xa2c898a6, 0x113f9804, 0xbef90dae, 0x1b710b35, 0x131c471b,
  0x28db77f5, 0x23047d84, 0x32caab7b, 0x40c72493, 0x3c9ebe0a, 0x15c9bebc, 0x431d67c4, 0x9c100d4c, 0x4cc5d4be,
  0xcb3e42b6, 0x597f299c, 0xfc657e2a, 0x5fcb6fab, 0x3ad6faec, 0x6c44198c, 0x4a475817,
]);

const IV_512 = [
  0x6a09e667, 0xf3bcc908, 0xbb67ae85, 0x84caa73b, 0x3c6ef372, 0xfe94f82b, 0xa54ff53a, 0x5f1d36f1, 0x510e527f,
  0xade682d1, 0x9b05688c, 0x2b3e6c1f, 0x1f83d9ab, 0xfb41bd6b, 0x5be0cd19, 0x137e2179,
];
const IV_384 = [
  0xcbbb9d5d, 0xc1059ed8, 0x629a292a, 0x367cd507, 0x9159015a, 0x3070dd17, 0x152fecd8, 0xf70e5939, 0x67332667,
  0xffc00b31, 0x8eb44a87, 0x68581511, 0xdb0c2e0d, 0x64f98fa7, 0x47b5481d, 0xbefa4fa4,
];
const IV_512_256 = [
  0x22312194, 0xfc2bf72c, 0x9f555fa3, 0xc84c64c2, 0x2393b86b, 0x6f53b151, 0x96387719, 0x5940eabd, 0x96283ee2,
  0xa88effe3, 0xbe5e1e25, 0x53863992, 0x2b0199fc, 0x2c85b8aa, 0x0eb72ddc, 0x81c52ca2,
];
const IV_512_224 = [
  0x8c3d37c8, 0x19544da2, 0x73e19966, 0x89dcd4d6, 0x1dfab7ae, 0x32ff9c82, 0x679dd514, 0x582f9fcf, 0x0f6d2b69,
  0x7bd44da8, 0x77e36f73, 0x04c48942, 0x3f9d85a8, 0x6a1d36c8, 0x1112e6ad, 0x91d692a1,
];

/** High and low halves of a 64-bit right rotation by n (0 < n < 64, n != 32). */
function rotrHi(h: number, l: number, n: number): number {
  return n < 32 ? (h >>> n) | (l << (32 - n)) : (l >>> (n - 32)) | (h << (64 - n));
}
function rotrLo(h: number, l: number, n: number): number {
  return n < 32 ? (l >>> n) | (h << (32 - n)) : (h >>> (n - 32)) | (l << (64 - n));
}
/** Low half of a 64-bit right shift by n < 32 (the high half is simply h >>> n). */
function shrLo(h: number, l: number, n: number): number {
  return (l >>> n) | (h << (32 - n));
}

function compress(msg: Uint8Array, iv: readonly number[], outBytes: number): Uint8Array {
  const m = padMessage(msg, 128);
  const view = new DataView(m.buffer);
  const H = Int32Array.from(iv);
  const W = new Int32Array(160);
  for (let off = 0; off < m.length; off += 128) {
    for (let t = 0; t < 32; t++) W[t] = view.getInt32(off + t * 4);
    for (let t = 16; t < 80; t++) {
      const xh = W[(t - 15) * 2],
        xl = W[(t - 15) * 2 + 1];
      const s0h = rotrHi(xh, xl, 1) ^ rotrHi(xh, xl, 8) ^ (xh >>> 7);
      const s0l = rotrLo(xh, xl, 1) ^ rotrLo(xh, xl, 8) ^ shrLo(xh, xl, 7);
      const yh = W[(t - 2) * 2],
        yl = W[(t - 2) * 2 + 1];
      const s1h = rotrHi(yh, yl, 19) ^ rotrHi(yh, yl, 61) ^ (yh >>> 6);
      const s1l = rotrLo(yh, yl, 19) ^ rotrLo(yh, yl, 61) ^ shrLo(yh, yl, 6);
      const lo = (s0l >>> 0) + (s1l >>> 0) + (W[(t - 7) * 2 + 1] >>> 0) + (W[(t - 16) * 2 + 1] >>> 0);
      W[t * 2] = s0h + s1h + W[(t - 7) * 2] + W[(t - 16) * 2] + Math.floor(lo / 0x100000000);
      W[t * 2 + 1] = lo;
    }
    let ah = H[0],
      al = H[1],
      bh = H[2],
      bl = H[3],
      ch = H[4],
      cl = H[5],
      dh = H[6],
      dl = H[7];
    let eh = H[8],
      el = H[9],
      fh = H[10],
      fl = H[11],
      gh = H[12],
      gl = H[13],
      hh = H[14],
      hl = H[15];
    for (let t = 0; t < 80; t++) {
      const S1h = rotrHi(eh, el, 14) ^ rotrHi(eh, el, 18) ^ rotrHi(eh, el, 41);
      const S1l = rotrLo(eh, el, 14) ^ rotrLo(eh, el, 18) ^ rotrLo(eh, el, 41);
      const chh = (eh & fh) ^ (~eh & gh);
      const chl = (el & fl) ^ (~el & gl);
      const t1lo = (hl >>> 0) + (S1l >>> 0) + (chl >>> 0) + (K[t * 2 + 1] >>> 0) + (W[t * 2 + 1] >>> 0);
      const t1h = (hh + S1h + chh + K[t * 2] + W[t * 2] + Math.floor(t1lo / 0x100000000)) | 0;
      const t1l = t1lo | 0;
      const S0h = rotrHi(ah, al, 28) ^ rotrHi(ah, al, 34) ^ rotrHi(ah, al, 39);
      const S0l = rotrLo(ah, al, 28) ^ rotrLo(ah, al, 34) ^ rotrLo(ah, al, 39);
      const majh = (ah & bh) ^ (ah & ch) ^ (bh & ch);
      const majl = (al & bl) ^ (al & cl) ^ (bl & cl);
      const t2lo = (S0l >>> 0) + (majl >>> 0);
      const t2h = (S0h + majh + Math.floor(t2lo / 0x100000000)) | 0;
      const t2l = t2lo | 0;
      hh = gh;
      hl = gl;
      gh = fh;
      gl = fl;
      fh = eh;
      fl = el;
      const elo = (dl >>> 0) + (t1l >>> 0);
      eh = (dh + t1h + Math.floor(elo / 0x100000000)) | 0;
      el = elo | 0;
      dh = ch;
      dl = cl;
      ch = bh;
      cl = bl;
      bh = ah;
      bl = al;
      const alo = (t1l >>> 0) + (t2l >>> 0);
      ah = (t1h + t2h + Math.floor(alo / 0x100000000)) | 0;
      al = alo | 0;
    }
    const add = (i: number, h: number, l: number) => {
      const lo = (H[i + 1] >>> 0) + (l >>> 0);
      H[i] = H[i] + h + Math.floor(lo / 0x100000000);
      H[i + 1] = lo;
    };
    add(0, ah, al);
    add(2, bh, bl);
    add(4, ch, cl);
    add(6, dh, dl);
    add(8, eh, el);
    add(10, fh, fl);
    add(12, gh, gl);
    add(14, hh, hl);
  }
  return wordsToBytes(H, outBytes);
}

export function sha512(msg: Uint8Array): Uint8Array {
  return compress(msg, IV_512, 64);
}
export function sha384(msg: Uint8Array): Uint8Array {
  return compress(msg, IV_384, 48);
}
export function sha512_256(msg: Uint8Array): Uint8Array {
  return compress(msg, IV_512_256, 32);
}
export function sha512_224(msg: Uint8Array): Uint8Array {
  return compress(msg, IV_512_224, 28);
}
