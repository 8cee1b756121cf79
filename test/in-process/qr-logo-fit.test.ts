// A logo never leaves a code unreadable: the QR version is chosen so that the logo's clear square
// takes no Reed-Solomon block past what it corrects, counted at its worst (docs/adr/,
// "QR codes with a logo"). Checked against jsQR, a decoder that shares no code with the encoder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import QRCode from 'qrcode';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { QUIET_ZONE, codeWithLogo, logoBox, logoDamage } from '../../server/src/domain/qr/qr-logo-fit.js';
import { prepareLogo, renderQr } from '../../server/src/domain/qr/qr-render.js';
import { decodePng } from '../helpers/qr-decode.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomCode = () => Array.from({ length: 8 }, () => ALPHABET[Math.floor(Math.random() * ALPHABET.length)]).join('');
/** Scan URLs as short, as long as a loopback test server's, and as a long custom domain's. */
const scanUrls = () => [`https://hop.example/q/${randomCode()}`, `http://127.0.0.1:41234/q/${randomCode()}`, `https://links.a-rather-long-company-name.example/q/${randomCode()}`];

/**
 * The worst a logo can do: every module under its clear square drawn the other way, so every
 * codeword with a module there is wrong. Drawn at 4 px a module and read by jsQR.
 */
function readWithSquareInverted(qr: QRCode.QRCode, logoSize: number): string | null {
  const { size, data } = qr.modules;
  const total = size + 2 * QUIET_ZONE;
  const box = logoBox(total, logoSize);
  const lo = box.clearAt - QUIET_ZONE;
  const hi = lo + box.clear;
  const under = (i: number) => i + 1 > lo && i < hi;
  const px = 4;
  const width = total * px;
  const pixels = new Uint8ClampedArray(width * width * 4).fill(255);
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      const dark = (data[r * size + c] === 1) !== (under(r) && under(c));
      if (!dark) continue;
      for (let y = 0; y < px; y++) {
        for (let x = 0; x < px; x++) {
          const i = (((r + QUIET_ZONE) * px + y) * width + (c + QUIET_ZONE) * px + x) * 4;
          pixels[i] = pixels[i + 1] = pixels[i + 2] = 0;
        }
      }
    }
  }
  return jsQR(pixels, width, width)?.data ?? null;
}

test('every logo size at Q and H finds a version the logo leaves readable', () => {
  for (const text of scanUrls()) {
    for (const level of ['Q', 'H'] as const) {
      for (let logoSize = 1; logoSize <= 30; logoSize++) {
        const qr = codeWithLogo(text, level, logoSize);
        assert.ok(qr, `${level} ${logoSize}% for ${text}`);
        const damage = logoDamage(qr, level, logoSize);
        assert.ok(damage.worst <= damage.correctable, `${level} ${logoSize}%: ${damage.worst} of ${damage.correctable}`);
        // Small logos keep the version the text needs.
        if (logoSize <= 5) assert.equal(qr.version, QRCode.create(text, { errorCorrectionLevel: level }).version);
      }
    }
  }
});

test('the damage count is exact: with every module under the square inverted, a code reads just when the count is within the budget', () => {
  let within = 0;
  let beyond = 0;
  for (const text of scanUrls()) {
    for (const level of ['Q', 'H'] as const) {
      for (const logoSize of [15, 20, 25, 30]) {
        const first = QRCode.create(text, { errorCorrectionLevel: level }).version;
        for (let version = first; version <= first + 4; version++) {
          const qr = QRCode.create(text, { errorCorrectionLevel: level, version });
          const { worst, correctable } = logoDamage(qr, level, logoSize);
          const read = readWithSquareInverted(qr, logoSize);
          const label = `v${version} ${level} ${logoSize}%: ${worst} of ${correctable} for ${text}`;
          if (worst <= correctable) {
            within++;
            assert.equal(read, text, label);
          } else {
            beyond++;
            assert.notEqual(read, text, label);
          }
        }
      }
    }
  }
  assert.ok(within > 20 && beyond > 10, `both sides of the budget were checked (${within} within, ${beyond} beyond)`);
});

test('rendered PNG codes with a logo read for any code id (the API test reads SVG and PDF)', async () => {
  // A disc with a square in it: a logo shaped like a finder pattern, the hardest kind for a reader.
  const logo = await prepareLogo(await sharp({ create: { width: 300, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><circle cx="150" cy="150" r="140" fill="#e63946"/><rect x="100" y="100" width="100" height="100" fill="#1d3557"/></svg>') }])
    .png()
    .toBuffer());
  assert.ok(Buffer.isBuffer(logo));
  const cases = [
    { size: 400, logoSize: 25, errorCorrection: 'Q' },
    { size: 400, logoSize: 30, errorCorrection: 'Q' },
    { size: 512, logoSize: 30, errorCorrection: 'H' },
    { size: 128, logoSize: 30, errorCorrection: 'H' },
    { size: 1024, logoSize: 20, errorCorrection: 'H' },
  ] as const;
  for (const c of cases) {
    for (let i = 0; i < 20; i++) {
      const text = scanUrls()[i % 3]!;
      const { bytes } = await renderQr({ ...c, text, format: 'png', foregroundColor: '#000000', backgroundColor: '#ffffff', logo, logoSize: c.logoSize });
      assert.equal(await decodePng(bytes), text, `${JSON.stringify(c)} for ${text}`);
    }
  }
});
