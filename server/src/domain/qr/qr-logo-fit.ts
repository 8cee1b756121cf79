import { createRequire } from 'node:module';
import QRCode from 'qrcode';
import type { QrErrorCorrection } from '@hop/shared';

// The qrcode package's own tables of blocks and error-correction codewords per version and level
// (ISO/IEC 18004 table 9), so they are not copied here.
const require = createRequire(import.meta.url);
const ecTables = require('qrcode/lib/core/error-correction-code.js') as {
  getBlocksCount(version: number, level: unknown): number;
  getTotalCodewordsCount(version: number, level: unknown): number;
};
const ecLevels = require('qrcode/lib/core/error-correction-level.js') as Record<QrErrorCorrection, unknown>;
const symbolCodewords = (require('qrcode/lib/core/utils.js') as { getSymbolTotalCodewords(v: number): number }).getSymbolTotalCodewords;

/** The quiet zone every reader expects around a code, in modules (ISO/IEC 18004). */
export const QUIET_ZONE = 4;

/**
 * Codewords of the smallest versions kept back from correction to detect a misdecode (ISO/IEC
 * 18004 table 9, "p"): a reader corrects only (ec - p) / 2 errors in their blocks.
 */
function misdecodeProtection(version: number, level: QrErrorCorrection): number {
  if (version === 1) return { L: 3, M: 2, Q: 1, H: 1 }[level];
  if (version === 2 && level === 'L') return 2;
  if (version === 3 && level === 'L') return 1;
  return 0;
}

/** Where the logo and the clear square behind it go, in modules of the whole image (quiet zone included). */
export function logoBox(total: number, logoSize: number) {
  const side = (total * logoSize) / 100;
  const pad = 0.5;
  const clear = side + 2 * pad;
  return { side, clear, clearAt: (total - clear) / 2, logoAt: (total - side) / 2 };
}

export interface LogoDamage {
  /** The most codewords the logo's clear square touches in one block. */
  worst: number;
  /** How many wrong codewords a reader corrects in each block. */
  correctable: number;
}

/**
 * How much of each Reed-Solomon block the logo's clear square takes from a code. Every codeword
 * with a module under the square counts as wrong (the logo may draw anything there), and a reader
 * does not know where the logo is, so each counts as an error, of which a block corrects half its
 * error-correction codewords.
 */
export function logoDamage(qr: QRCode.QRCode, level: QrErrorCorrection, logoSize: number): LogoDamage {
  const { size, reservedBit } = qr.modules;
  const { version } = qr;
  const total = size + 2 * QUIET_ZONE;
  const box = logoBox(total, logoSize);
  const lo = box.clearAt - QUIET_ZONE;
  const hi = lo + box.clear;
  const covered = (i: number) => i + 1 > lo && i < hi;

  // The codeword each module's bit belongs to, in the order ISO/IEC 18004 7.7.3 places them:
  // two-column strips from the right, up then down, skipping the vertical timing column.
  const codewords = symbolCodewords(version);
  const hit = new Uint8Array(codewords);
  let bit = 0;
  let up = true;
  for (let col = size - 1; col > 0; col -= 2) {
    if (col === 6) col--;
    for (let k = 0; k < size; k++) {
      const row = up ? size - 1 - k : k;
      for (const c of [col, col - 1]) {
        if (reservedBit[row * size + c]) continue;
        const cw = bit >> 3;
        if (cw < codewords && covered(row) && covered(c)) hit[cw] = 1;
        bit++;
      }
    }
    up = !up;
  }

  // Codewords are interleaved: data codewords block by block (the longer blocks last), then the
  // error-correction codewords likewise.
  const ecl = ecLevels[level];
  const blocks = ecTables.getBlocksCount(version, ecl);
  const ecTotal = ecTables.getTotalCodewordsCount(version, ecl);
  const dataTotal = codewords - ecTotal;
  const ecPerBlock = ecTotal / blocks;
  const shortBlocks = blocks - (dataTotal % blocks);
  const shortData = Math.floor(dataTotal / blocks);
  const perBlock = new Array<number>(blocks).fill(0);
  let i = 0;
  for (let k = 0; k <= shortData; k++) {
    for (let b = 0; b < blocks; b++) {
      if (k === shortData && b < shortBlocks) continue;
      perBlock[b]! += hit[i++]!;
    }
  }
  for (let k = 0; k < ecPerBlock; k++) for (let b = 0; b < blocks; b++) perBlock[b]! += hit[i++]!;

  const correctable = Math.floor((ecPerBlock - misdecodeProtection(version, level)) / 2);
  const worst = Math.max(...perBlock);
  return { worst, correctable };
}

/**
 * The code for `text` at `level` with a logo of `logoSize` percent: the smallest version, from the
 * one the text needs, in which the logo's clear square takes no block past what it corrects.
 * Which codewords fall under the square depends on the version (and on the text only through it),
 * so a larger one, its blocks laid out differently and the square a smaller share of its modules,
 * is tried until one fits. The count is the worst case (a codeword the square only grazes, or
 * whose modules the logo happens to draw right, still counts as wrong): what a logo really
 * breaks is less, and that slack is the camera's. Null when no version fits, which no `logoSize`
 * from 1 to 30 at Q or H meets (test/in-process/qr-logo-fit.test.ts).
 */
export function codeWithLogo(text: string, level: QrErrorCorrection, logoSize: number): QRCode.QRCode | null {
  const first = QRCode.create(text, { errorCorrectionLevel: level });
  for (let version = first.version; version <= 40; version++) {
    const qr = version === first.version ? first : QRCode.create(text, { errorCorrectionLevel: level, version });
    const damage = logoDamage(qr, level, logoSize);
    if (damage.worst <= damage.correctable) return qr;
  }
  return null;
}
