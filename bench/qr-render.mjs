#!/usr/bin/env node
// QR rendering: a 1,024 px PNG with a logo must take under 100 ms. Prints the median of
// each case and the ratio of the logo case to the same code without a logo, both from this run.
// Run after `npm run build`: node bench/qr-render.mjs [iterations]
import sharp from 'sharp';
import { prepareLogo, renderQr } from '../server/dist/domain/qr/qr-render.js';
import { fmt, writeSection } from './lib/measure.mjs';

const iterations = Number(process.argv[2] ?? 30);
const text = 'https://hop.example/q/Ab3dE5gH';
// A 512 px logo with transparency, like the square logos people upload.
const logoSource = await sharp({ create: { width: 512, height: 512, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
  .composite([{ input: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><circle cx="256" cy="256" r="240" fill="#e63946"/><text x="256" y="330" font-size="260" text-anchor="middle" fill="#fff">H</text></svg>') }])
  .png()
  .toBuffer();
const logo = await prepareLogo(logoSource);
if (typeof logo === 'string') throw new Error(logo);

const base = { text, size: 1024, errorCorrection: 'H', foregroundColor: '#000000', backgroundColor: '#ffffff' };
const cases = {
  'png 1024, no logo': { ...base, format: 'png' },
  'png 1024, logo 20%': { ...base, format: 'png', logo, logoSize: 20 },
  'svg 1024, logo 20%': { ...base, format: 'svg', logo, logoSize: 20 },
  'pdf 1024, logo 20%': { ...base, format: 'pdf', logo, logoSize: 20 },
  'png 4096, logo 20%': { ...base, size: 4096, format: 'png', logo, logoSize: 20 },
};

const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = {};
const rows = [];
for (const [name, opts] of Object.entries(cases)) {
  for (let i = 0; i < 3; i++) await renderQr(opts); // warm up
  const times = [];
  let bytes = 0;
  for (let i = 0; i < iterations; i++) {
    const t = process.hrtime.bigint();
    bytes = (await renderQr(opts)).bytes.length;
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  results[name] = median(times);
  rows.push(`| ${name} | ${fmt(results[name], 1)} ms | ${fmt(Math.max(...times), 1)} ms | ${fmt(bytes / 1024, 1)} KiB |`);
  console.log(`${name.padEnd(22)} median ${results[name].toFixed(1).padStart(6)} ms   max ${Math.max(...times).toFixed(1).padStart(6)} ms   ${(bytes / 1024).toFixed(1)} KiB`);
}
const withLogo = results['png 1024, logo 20%'];
console.log(`\nlogo / no logo (png 1024): ${(withLogo / results['png 1024, no logo']).toFixed(2)}x`);
console.log(`png 1024 with a logo: ${withLogo.toFixed(1)} ms, ${withLogo < 100 ? 'under' : 'OVER'} the 100 ms budget`);
writeSection('QR render', [
  `In-process rendering (server/src/domain/qr/qr-render.ts), ${iterations} renders of each after 3 to warm up; error correction H; a 512 px PNG logo with transparency.`,
  '',
  '| code | median | max | size |',
  '|---|---|---|---|',
  ...rows,
  `| **logo / no logo (PNG 1024)** | **${fmt(withLogo / results['png 1024, no logo'], 2)}x** | | |`,
  '',
  `PNG 1024 with a logo: **${fmt(withLogo, 1)} ms** (target under 100 ms). Renders are cached per code and options, so this is paid once per design.`,
].join('\n'));
process.exitCode = withLogo < 100 ? 0 : 1;
