// Draws the blog teasers' pictures as SVG and writes each as WebP at the widths the carousel uses
// (blog-images.ts). The output is committed beside this file, so a build needs no image tool:
//   npm run landing:images
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { BLOG_IMAGE_WIDTHS, blogImageHeight } from './blog-images.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** Every picture is drawn on a 160 x 100 canvas: a two-colour gradient and a few shapes. */
function picture(from: string, to: string, shapes: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 100">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/>
  </linearGradient></defs>
  <rect width="160" height="100" fill="url(#g)"/>
  <g fill="none" stroke="#ffffff" stroke-opacity="0.08" stroke-width="0.6">
    <path d="M0 25h160M0 50h160M0 75h160M40 0v100M80 0v100M120 0v100"/>
  </g>
  ${shapes}
</svg>`;
}

const PICTURES: Record<string, string> = {
  // A checklist on a clipboard beside a calendar page.
  'blog-planning': picture(
    '#0b1f3a',
    '#1d4ed8',
    `<rect x="34" y="18" width="54" height="68" rx="5" fill="#f4f6fa"/>
     <rect x="50" y="14" width="22" height="8" rx="3" fill="#f5b700"/>
     <g stroke="#1a7f37" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round">
       <path d="m41 35 4 4 7-8"/><path d="m41 52 4 4 7-8"/>
     </g>
     <rect x="41" y="66" width="9" height="9" rx="2" fill="none" stroke="#9aa9c2" stroke-width="2"/>
     <g fill="#9aa9c2"><rect x="57" y="33" width="24" height="4" rx="2"/><rect x="57" y="50" width="20" height="4" rx="2"/><rect x="57" y="68" width="22" height="4" rx="2"/></g>
     <rect x="98" y="34" width="36" height="38" rx="5" fill="#ffffff"/>
     <rect x="98" y="34" width="36" height="11" rx="5" fill="#f5b700"/>
     <g fill="#0b1f3a"><circle cx="106" cy="53" r="2"/><circle cx="116" cy="53" r="2"/><circle cx="126" cy="53" r="2"/><circle cx="106" cy="63" r="2"/><circle cx="116" cy="63" r="2"/></g>
     <circle cx="126" cy="63" r="3.4" fill="#1d4ed8"/>`,
  ),
  // Blocks chained together, the newest one still being confirmed.
  'blog-development': picture(
    '#0f172a',
    '#0e7490',
    `<g stroke="#67e8f9" stroke-width="2.5"><path d="M40 50h20M80 50h20"/></g>
     <g fill="#0b1f3a" stroke="#67e8f9" stroke-width="2.5">
       <rect x="16" y="36" width="28" height="28" rx="5"/><rect x="56" y="36" width="28" height="28" rx="5"/>
     </g>
     <rect x="96" y="36" width="28" height="28" rx="5" fill="#0b1f3a" stroke="#f5b700" stroke-width="2.5" stroke-dasharray="4 3"/>
     <g fill="#67e8f9"><rect x="22" y="44" width="16" height="3" rx="1.5"/><rect x="22" y="51" width="12" height="3" rx="1.5"/><rect x="62" y="44" width="16" height="3" rx="1.5"/><rect x="62" y="51" width="12" height="3" rx="1.5"/></g>
     <g fill="#f5b700"><circle cx="104" cy="50" r="2.4"/><circle cx="110" cy="50" r="2.4"/><circle cx="116" cy="50" r="2.4"/></g>
     <path d="m130 44 8 6-8 6" fill="none" stroke="#67e8f9" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"/>`,
  ),
  // Hexagonal blocks and a pick.
  'blog-mining': picture(
    '#134e4a',
    '#0b1f3a',
    `<g stroke="#5eead4" stroke-width="2" fill="#0f766e">
       <path d="m44 30 12 7v14l-12 7-12-7V37z"/><path d="m68 44 12 7v14l-12 7-12-7V51z"/><path d="m44 58 12 7v14l-12 7-12-7V65z"/>
     </g>
     <path d="m68 16 12 7v14l-12 7-12-7V23z" fill="#f5b700" stroke="#fde68a" stroke-width="2"/>
     <g stroke-linecap="round" fill="none">
       <path d="M104 78 126 30" stroke="#d6b38a" stroke-width="5"/>
       <path d="M106 30c8-8 24-8 32 2" stroke="#e2e8f0" stroke-width="5"/>
     </g>`,
  ),
  // A price line that swings up and down across a band.
  'blog-challenges': picture(
    '#7f1d1d',
    '#0b1f3a',
    `<rect x="14" y="38" width="132" height="26" fill="#ffffff" fill-opacity="0.08"/>
     <path d="M14 60 28 42 40 70 54 30 66 58 80 22 92 74 106 40 118 62 132 34 146 52" fill="none" stroke="#fca5a5" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>
     <g fill="#f5b700"><circle cx="80" cy="22" r="3.5"/><circle cx="92" cy="74" r="3.5"/></g>`,
  ),
  // A small slice of a whole: one trade, a small share of the account.
  'blog-sizing': picture(
    '#312e81',
    '#0b1f3a',
    `<circle cx="62" cy="50" r="30" fill="#c7d2fe"/>
     <path d="M62 50V20a30 30 0 0 1 17.6 5.7z" fill="#f5b700"/>
     <path d="M66 46V15a31 31 0 0 1 17 5.5z" fill="#f5b700" stroke="#fde68a" stroke-width="1.5"/>
     <g fill="#a5b4fc" stroke="#312e81" stroke-width="1.5">
       <ellipse cx="118" cy="74" rx="16" ry="5"/><ellipse cx="118" cy="66" rx="16" ry="5"/><ellipse cx="118" cy="58" rx="16" ry="5"/>
     </g>
     <ellipse cx="118" cy="50" rx="16" ry="5" fill="#f5b700" stroke="#312e81" stroke-width="1.5"/>`,
  ),
  // A warning sign beside a hook: bait that looks too good.
  'blog-scams': picture(
    '#1f2937',
    '#7c2d12',
    `<path d="M58 18 88 72H28z" fill="#f5b700" stroke="#fde68a" stroke-width="2" stroke-linejoin="round"/>
     <rect x="55.5" y="36" width="5" height="20" rx="2.5" fill="#1f2937"/>
     <circle cx="58" cy="63" r="3" fill="#1f2937"/>
     <path d="M118 14v40c0 10-16 10-16 0v-4" fill="none" stroke="#e2e8f0" stroke-width="3.5" stroke-linecap="round"/>
     <path d="m102 50-4 6" stroke="#e2e8f0" stroke-width="3.5" stroke-linecap="round"/>
     <circle cx="110" cy="78" r="7" fill="#fca5a5"/>
     <path d="M112.6 75.2c-1-1.6-5.2-1.6-5.2.8s5.2 1 5.2 3.4-4.2 2.4-5.2.8M110 72.6v10.8" fill="none" stroke="#7f1d1d" stroke-width="1.4" stroke-linecap="round"/>`,
  ),
};

for (const [name, svg] of Object.entries(PICTURES)) {
  for (const width of BLOG_IMAGE_WIDTHS) {
    const file = join(here, `${name}-${width}.webp`);
    const webp = await sharp(Buffer.from(svg), { density: (72 * width) / 160 })
      .resize(width, blogImageHeight(width))
      .webp({ quality: 78, effort: 6 })
      .toBuffer();
    writeFileSync(file, webp);
    console.log(`${file.slice(here.length + 1)}  ${width}x${blogImageHeight(width)}  ${webp.length} bytes`);
  }
}
