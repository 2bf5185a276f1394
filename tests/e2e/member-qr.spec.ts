import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { memberQrText, QR_MESSAGES } from '../../src/shared/qr.ts';
import { type Member, newMember, registerByApi, signInMember } from './helpers.ts';

// QR codes on a phone (issue 6 item 5): a member's own Receive code, and scanning a code in the
// transfer form to fill the recipient. Headless Chromium has no camera, so scanning goes through
// "Scan a photo" with a PNG made here by the qrcode package, the way a phone hands over a photo.

test.describe.configure({ mode: 'serial' });

type Chunk = { file: string; imports?: string[]; dynamicImports?: string[] };
const manifest: Record<string, Chunk> = JSON.parse(
  readFileSync(join(process.env.CLIENT_DIR ?? 'dist', '.vite/manifest.json'), 'utf8'),
);
const chunkOf = (part: string) => Object.entries(manifest).find(([key]) => key.includes(part))?.[1].file;
/** html5-qrcode's chunk, and the scanner component's. */
const HTML5_CHUNK = chunkOf('node_modules/html5-qrcode/');
const SCANNER_CHUNK = chunkOf('src/client/ui/qr-scanner.tsx');

/** Every file a manifest entry loads through static imports. */
function staticClosure(key: string): Set<string> {
  const files = new Set<string>();
  const visit = (name: string) => {
    const chunk = manifest[name];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  visit(key);
  return files;
}

/** Every script the page downloads, by path. */
function watchScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname.slice(1));
  });
  return scripts;
}

const png = async (text: string) => ({
  name: 'code.png',
  mimeType: 'image/png',
  buffer: await QRCode.toBuffer(text, { width: 320, margin: 4 }),
});

/** html5-qrcode's own ZXing build, run here to find codes it cannot read (see hardRecipients). */
type ZXingModule = {
  RGBLuminanceSource: new (luminances: Uint8ClampedArray, width: number, height: number) => unknown;
  HybridBinarizer: new (source: unknown) => unknown;
  BinaryBitmap: new (binarizer: unknown) => unknown;
  MultiFormatReader: new (
    verbose: boolean,
    hints: Map<unknown, unknown>,
  ) => { decode: (bitmap: unknown) => { text: string } };
  DecodeHintType: { POSSIBLE_FORMATS: unknown };
  BarcodeFormat: { QR_CODE: unknown };
};
const ZXing = createRequire(import.meta.url)('html5-qrcode/third_party/zxing-js.umd.js') as ZXingModule;

/** Whether html5-qrcode's ZXing decoder reads this PNG of a code. */
async function zxingReads(image: Buffer, text: string): Promise<boolean> {
  const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
  const luminances = new Uint8ClampedArray(info.width * info.height);
  for (let i = 0; i < luminances.length; i++) luminances[i] = data[i * info.channels] ?? 255;
  const hints = new Map([[ZXing.DecodeHintType.POSSIBLE_FORMATS, [ZXing.BarcodeFormat.QR_CODE]]]);
  const bitmap = new ZXing.BinaryBitmap(
    new ZXing.HybridBinarizer(new ZXing.RGBLuminanceSource(luminances, info.width, info.height)),
  );
  try {
    return new ZXing.MultiFormatReader(false, hints).decode(bitmap).text === text;
  } catch {
    return false;
  }
}

let sender: Member;
let recipient: Member;
/** Members whose member code, as a sharp 320 px image, html5-qrcode's ZXing decoder cannot read. */
const hardRecipients: Member[] = [];

test.beforeAll(async ({ playwright }, testInfo) => {
  const visitor = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  sender = newMember('qrsender');
  recipient = newMember('qrrecipient');
  for (const member of [sender, recipient]) await registerByApi(visitor, member);
  // About one code in six trips ZXing, depending only on its text: draw members until two do.
  const baseURL = testInfo.project.use.baseURL as string;
  for (let tries = 0; hardRecipients.length < 2 && tries < 300; tries++) {
    const candidate = newMember('qrhard');
    const text = memberQrText(baseURL, candidate.email);
    if (!(await zxingReads((await png(text)).buffer, text))) hardRecipients.push(candidate);
  }
  expect(hardRecipients).toHaveLength(2);
  for (const member of hardRecipients) await registerByApi(visitor, member);
  await visitor.dispose();
});

test('html5-qrcode is in no entry nor route chunk, and loads only when the scanner opens', async ({
  page,
}) => {
  expect(HTML5_CHUNK).toBeTruthy();
  expect(SCANNER_CHUNK).toBeTruthy();
  expect(staticClosure('index.html')).not.toContain(HTML5_CHUNK);
  expect(staticClosure('index.html')).not.toContain(SCANNER_CHUNK);
  const formRoute = Object.keys(manifest).find((key) =>
    key.startsWith('src/client/routes/user/transfer-form.tsx'),
  );
  expect(formRoute).toBeTruthy();
  expect(staticClosure(formRoute as string)).not.toContain(HTML5_CHUNK);
  expect(staticClosure(formRoute as string)).not.toContain(SCANNER_CHUNK);

  await signInMember(page, sender);
  const scripts = watchScripts(page);
  await page.goto('/user/transfer-form');
  await expect(page.getByLabel('Recipient email')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts).not.toContain(HTML5_CHUNK);
  expect(scripts).not.toContain(SCANNER_CHUNK);

  await page.getByRole('button', { name: QR_MESSAGES.scanButton }).click();
  const dialog = page.getByRole('dialog', { name: QR_MESSAGES.scanTitle });
  await expect(dialog.getByText(QR_MESSAGES.scanPhoto)).toBeVisible();
  await expect.poll(() => scripts).toContain(SCANNER_CHUNK);
  // Where the browser reads QR codes natively, the library is not needed at all.
  const native = await page.evaluate(() => 'BarcodeDetector' in window);
  if (native) expect(scripts).not.toContain(HTML5_CHUNK);
  else await expect.poll(() => scripts).toContain(HTML5_CHUNK);
  // No camera here: the scanner says so and offers the photo.
  await expect(dialog.getByRole('alert')).toHaveText(QR_MESSAGES.cameraUnavailable);
});

test('scanning a photo of a member code fills the recipient and finds the member', async ({
  page,
  baseURL,
}) => {
  await signInMember(page, sender);
  await page.goto('/user/transfer-form');
  const email = page.getByLabel('Recipient email');
  await expect(email).toHaveValue('');
  await page.getByRole('button', { name: QR_MESSAGES.scanButton }).click();
  const dialog = page.getByRole('dialog', { name: QR_MESSAGES.scanTitle });
  await dialog
    .getByLabel(QR_MESSAGES.scanPhoto)
    .setInputFiles(await png(memberQrText(baseURL as string, recipient.email)));
  await expect(dialog).toBeHidden();
  await expect(email).toHaveValue(recipient.email);
  const lookup = page.getByTestId('recipient-lookup');
  await expect(lookup.getByText(recipient.fullname)).toBeVisible();
  await expect(lookup.getByText(recipient.username)).toBeVisible();
});

test('codes html5-qrcode cannot read from a photo, and a code small in a large photo, are read', async ({
  page,
  baseURL,
}) => {
  await signInMember(page, sender);
  await page.goto('/user/transfer-form');
  const email = page.getByLabel('Recipient email');
  const dialog = page.getByRole('dialog', { name: QR_MESSAGES.scanTitle });
  for (const member of hardRecipients) {
    await page.getByRole('button', { name: QR_MESSAGES.scanButton }).click();
    await dialog
      .getByLabel(QR_MESSAGES.scanPhoto)
      .setInputFiles(await png(memberQrText(baseURL as string, member.email)));
    await expect(dialog).toBeHidden();
    await expect(email).toHaveValue(member.email);
    await expect(page.getByTestId('recipient-lookup').getByText(member.fullname)).toBeVisible();
  }
  // A 4000 x 3000 photo with the code in one corner: read after scaling down, or at a larger size.
  const code = await png(memberQrText(baseURL as string, recipient.email));
  const photo = await sharp({
    create: { width: 4000, height: 3000, channels: 3, background: { r: 236, g: 233, b: 226 } },
  })
    .composite([{ input: code.buffer, left: 2900, top: 2100 }])
    .jpeg({ quality: 85 })
    .toBuffer();
  await page.getByRole('button', { name: QR_MESSAGES.scanButton }).click();
  await dialog
    .getByLabel(QR_MESSAGES.scanPhoto)
    .setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(dialog).toBeHidden();
  await expect(email).toHaveValue(recipient.email);
});

test('a code that is not a member code of this app is refused and fills nothing', async ({ page }) => {
  await signInMember(page, sender);
  await page.goto('/user/transfer-form');
  await page.getByRole('button', { name: QR_MESSAGES.scanButton }).click();
  const dialog = page.getByRole('dialog', { name: QR_MESSAGES.scanTitle });
  const photo = dialog.getByLabel(QR_MESSAGES.scanPhoto);
  // Another site's look-alike of a member code, then a wallet address.
  await photo.setInputFiles(await png(memberQrText('https://elsewhere.example.net', recipient.email)));
  await expect(dialog.getByText(QR_MESSAGES.notMemberCode)).toBeVisible();
  await photo.setInputFiles(await png('0x55d398326f99059fF775485246999027B3197955'));
  await expect(dialog.getByText(QR_MESSAGES.notMemberCode)).toBeVisible();
  // A photo with no code in it at all.
  const blank = await page.screenshot({ clip: { x: 0, y: 0, width: 40, height: 40 } });
  await photo.setInputFiles({ name: 'blank.png', mimeType: 'image/png', buffer: blank });
  await expect(dialog.getByText(QR_MESSAGES.photoUnreadable)).toBeVisible();
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel('Recipient email')).toHaveValue('');
});

test('?to= on the transfer form prefills the recipient; a bad one is ignored', async ({ page }) => {
  await signInMember(page, sender);
  await page.goto(`/user/transfer-form?to=${encodeURIComponent(recipient.email.toUpperCase())}`);
  await expect(page.getByLabel('Recipient email')).toHaveValue(recipient.email);
  await expect(page.getByTestId('recipient-lookup').getByText(recipient.fullname)).toBeVisible();
  await page.goto('/user/transfer-form?to=not-an-email');
  await expect(page.getByLabel('Recipient email')).toHaveValue('');
});

test("a member's Receive code, scanned by another member, fills their transfer form", async ({
  page,
  baseURL,
}) => {
  await signInMember(page, recipient);
  await page.goto('/user/transfer');
  await page.getByRole('button', { name: QR_MESSAGES.receiveTitle }).click();
  const receive = page.getByRole('dialog', { name: QR_MESSAGES.receiveTitle });
  const image = receive.getByRole('img', { name: `Your Receive QR code: ${recipient.email}` });
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute('data-qr-text', memberQrText(baseURL as string, recipient.email));
  await expect(receive.getByText(recipient.email, { exact: true })).toBeVisible();
  // The very image shown, handed to the other member's scanner as a photo.
  const dataUrl = (await image.getAttribute('src')) as string;
  expect(dataUrl.startsWith('data:image/png;base64,')).toBe(true);
  const buffer = Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64');

  await page.context().clearCookies();
  await signInMember(page, sender);
  await page.goto('/user/transfer-form');
  await page.getByRole('button', { name: QR_MESSAGES.scanButton }).click();
  const dialog = page.getByRole('dialog', { name: QR_MESSAGES.scanTitle });
  await dialog
    .getByLabel(QR_MESSAGES.scanPhoto)
    .setInputFiles({ name: 'receive.png', mimeType: 'image/png', buffer });
  await expect(page.getByLabel('Recipient email')).toHaveValue(recipient.email);
  await expect(page.getByTestId('recipient-lookup').getByText(recipient.fullname)).toBeVisible();
});
