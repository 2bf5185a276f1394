import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserContext, devices, expect, test } from '@playwright/test';
import { type Address, parseUnits } from 'viem';
import { type EvmChain, startEvmChain } from '../helpers/evm-chain.ts';
import { type FakeRelay, startFakeRelay } from '../helpers/fake-wc-relay.ts';
import { startTestWallet } from '../helpers/test-wallet.ts';
import { newMember, registerByApi, signInMember } from './helpers.ts';
import { type OwnServer, startOwnServer } from './pwa-helpers.ts';

// On-chain deposits on a phone, against a real local chain (ganache, chain id 56, an ERC-20 of 18 decimals): a
// server of its own reads receipts from it. The member's screens never download the wallet code until
// Connect wallet is pressed on the deposit screen; a pasted hash of a real transfer is followed from
// "Confirming n of 12" to credited as blocks are mined, and the Active Wallet shows it. The wallet path
// runs the page's real WalletConnect client against a local relay (tests/helpers/fake-wc-relay.ts) and
// a wallet of the test's own (tests/helpers/test-wallet.ts) that signs and sends on the local chain.

const DEPOSIT_ADDRESS = '0x7e57000000000000000000000000000000000e0e' as Address;

let chain: EvmChain;
let token: Address;
let server: OwnServer;
let relay: FakeRelay;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  chain = await startEvmChain();
  token = await chain.deployToken('USDT', 18);
  relay = await startFakeRelay();
  server = await startOwnServer({
    env: {
      BSC_RPC_URL: chain.rpcUrl,
      USDT_CONTRACT: token,
      DEPOSIT_ADDRESS,
      WEB3_POLL_MS: '0',
      WALLETCONNECT_PROJECT_ID: 'e2e-project-id',
      WALLETCONNECT_RELAY_URL: relay.url,
    },
  });
});
test.afterAll(async () => {
  await server?.stop();
  await relay?.stop();
  await chain?.stop();
});

/** The wallet module's file and every chunk it alone imports, from the build's manifest. */
function walletChunks(): string[] {
  type Chunk = { file: string; imports?: string[]; dynamicImports?: string[] };
  const manifest: Record<string, Chunk> = JSON.parse(
    readFileSync(join(server.clientDir, '.vite/manifest.json'), 'utf8'),
  );
  const key = 'src/client/features/web3/wallet/wallet-connect.ts';
  const entry = manifest[key];
  expect(entry, 'the wallet module is a chunk of its own').toBeDefined();
  return [entry?.file ?? ''];
}

test('the wallet code loads only on Connect; a pasted hash of a real transfer is credited after 12 blocks', async ({
  browser,
}) => {
  const context = await browser.newContext({ ...devices['Pixel 7'], baseURL: server.origin });
  try {
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
    });
    const [wallet] = walletChunks();
    const walletLoaded = () => scripts.some((path) => path.endsWith(`/${wallet}`));

    const member = newMember('chain');
    await registerByApi(context.request, member);
    await page.goto('/');
    await signInMember(page, member);
    // The transfer below comes from the chain's deployer, a wallet the member proved theirs by signing
    // (a saved payout address is no proof of who sent a transfer).
    const csrf = ((await (await context.request.get('/api/v1/auth/csrf')).json()) as { csrfToken: string })
      .csrfToken;
    const address = chain.accounts.deployer;
    const issued = await context.request.post('/api/v1/web3/wallets/challenge', {
      headers: { 'X-XSRF-TOKEN': csrf },
      data: { address },
    });
    expect(issued.status(), await issued.text()).toBe(201);
    const signature = await chain.signMessage(
      ((await issued.json()) as { message: string }).message,
      address,
    );
    const proven = await context.request.post('/api/v1/web3/wallets', {
      headers: { 'X-XSRF-TOKEN': csrf },
      data: { address, signature },
    });
    expect(proven.status(), await proven.text()).toBe(201);
    await expect(page.getByTestId('balance-business')).toHaveText('$0.00');
    for (const path of ['/user/deposit-history', '/user/transfer', '/user/dashboard']) {
      await page.goto(path);
      await expect(page.getByRole('heading').first()).toBeVisible();
    }
    await page.goto('/user/web3-deposit');
    await expect(page.getByRole('heading', { name: 'Deposit USDT on BNB Smart Chain' })).toBeVisible();
    await expect(page.getByTestId('web3-deposit-address')).toHaveText(DEPOSIT_ADDRESS);
    await expect(page.getByRole('button', { name: 'Connect wallet' })).toBeVisible();
    expect(scripts.length).toBeGreaterThan(0);
    expect(walletLoaded(), 'no member screen downloads the wallet code').toBe(false);

    // A real transfer of 25.00 USDT, one block deep: pasted, it is confirming.
    const hash = await chain.transfer(token, DEPOSIT_ADDRESS, parseUnits('25', 18));
    await page.getByLabel('Transaction hash', { exact: true }).fill(hash);
    await page.getByRole('button', { name: 'Submit' }).click();
    const followed = page.getByTestId('web3-followed');
    await expect(followed.locator('[data-status]')).toHaveText('Confirming 1 of 12');
    await expect(followed.getByRole('progressbar', { name: 'Confirmations' })).toHaveAttribute('value', '1');
    await expect(followed).toContainText('$25.00');

    // Ten more blocks: 11 of 12, still not credited.
    await chain.mine(10);
    await expect(followed.locator('[data-status]')).toHaveText('Confirming 11 of 12', { timeout: 15_000 });
    // The twelfth: credited, followed by itself (the screen asks again every few seconds).
    await chain.mine(1);
    await expect(followed.locator('[data-status]')).toHaveText('Credited', { timeout: 15_000 });
    await expect(followed).toContainText('$25.00 was added to your Active Wallet.');
    await page.goto('/user/dashboard');
    await expect(page.getByTestId('balance-business')).toHaveText('$25.00');
    await page.goto('/user/deposit-history');
    await expect(page.getByText(hash)).toBeVisible();

    // Only pressing Connect wallet downloads the wallet code.
    await page.goto('/user/web3-deposit');
    expect(walletLoaded()).toBe(false);
    await page.getByRole('button', { name: 'Connect wallet' }).click();
    await expect.poll(walletLoaded).toBe(true);
  } finally {
    await context.close();
  }
});

test('a member connects a wallet on another chain, switches it, proves it and sends USDT through it; credited after 12 blocks', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const wallet = await startTestWallet({
    relayUrl: relay.url,
    rpcUrl: chain.rpcUrl,
    account: chain.accounts.wallet,
    chainId: 1,
  });
  const context = await browser.newContext({ ...devices['Pixel 7'], baseURL: server.origin });
  try {
    await chain.transfer(token, chain.accounts.wallet, parseUnits('100', 18));
    const member = newMember('wallet');
    await registerByApi(context.request, member);
    const page = await context.newPage();
    await page.goto('/');
    await signInMember(page, member);
    await page.goto('/user/web3-deposit');
    const panel = page.getByTestId('web3-wallet');
    await panel.getByRole('button', { name: 'Connect wallet' }).click();

    // The pairing link, as a wallet app takes it pasted (the modal shows the same link as its QR).
    const link = panel.getByLabel('Connection link');
    await expect(link).toHaveValue(/^wc:/, { timeout: 30_000 });
    await wallet.pair(await link.inputValue());
    await expect(panel.getByTestId('web3-wallet-chain')).toHaveText('Ethereum', { timeout: 30_000 });
    await expect(panel).toContainText('Deposits are accepted on BNB Smart Chain only');
    // No amount can be sent from the wrong chain.
    await expect(panel.getByLabel('Amount (USDT)')).toHaveCount(0);
    // Each request to the wallet waits a few seconds here for WalletConnect's verify service, which
    // this machine cannot reach (a phone online gets its answer at once): hence the longer waits.
    await panel.getByRole('button', { name: 'Switch to BNB Smart Chain' }).click();
    await expect(panel.getByTestId('web3-wallet-chain')).toHaveText('BNB Smart Chain', { timeout: 30_000 });

    await panel.getByRole('button', { name: 'Prove this wallet is mine' }).click();
    await expect(panel.getByTestId('web3-wallet-proven')).toBeVisible({ timeout: 30_000 });

    await panel.getByLabel('Amount (USDT)').fill('12.5');
    await panel.getByRole('button', { name: 'Send USDT' }).click();
    const followed = page.getByTestId('web3-followed');
    await expect(followed.locator('[data-status]')).toHaveText('Confirming 1 of 12', { timeout: 30_000 });
    await expect(followed).toContainText('$12.50');
    expect(wallet.requests).toEqual(['wallet_switchEthereumChain', 'personal_sign', 'eth_sendTransaction']);

    await chain.mine(11);
    await expect(followed.locator('[data-status]')).toHaveText('Credited', { timeout: 15_000 });
    await page.goto('/user/dashboard');
    await expect(page.getByTestId('balance-business')).toHaveText('$12.50');
  } finally {
    await context.close();
    await wallet.stop();
  }
});

/**
 * WalletConnect's wallet list (explorer-api.walletconnect.com), answered by the test: this machine cannot
 * reach it, and the modal opens only once it has loaded.
 */
async function fakeWalletList(context: BrowserContext): Promise<void> {
  const listing = {
    id: 'test-wallet',
    name: 'TestPay',
    homepage: 'https://wallet.test',
    image_id: 'test-wallet-image',
    app: { browser: '', ios: '', android: '' },
    mobile: { native: 'testpay:', universal: 'https://wallet.test/app' },
    desktop: { native: '', universal: '' },
    metadata: { shortName: 'TestPay', colors: { primary: '#1b4d3e', secondary: '#ffffff' } },
  };
  await context.route('https://explorer-api.walletconnect.com/**', async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.includes('/getWalletImage/') || url.pathname.includes('/getAssetImage/'))
      return route.fulfill({ status: 404, body: '' });
    return route.fulfill({ json: { listings: { [listing.id]: listing }, total: 1 } });
  });
}

test('the connect modal: the pairing QR on a desktop, the wallet app by its link on a phone', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const member = newMember('modal');
  for (const device of ['Desktop Chrome', 'Pixel 7'] as const) {
    const context = await browser.newContext({ ...devices[device], baseURL: server.origin });
    try {
      await fakeWalletList(context);
      // What the phone's system would be asked to open (a wc: link opens the wallet app on Android).
      await context.addInitScript(() => {
        window.open = (url?: string | URL) => {
          document.documentElement.dataset.opened = String(url);
          return null;
        };
      });
      if (device === 'Desktop Chrome') await registerByApi(context.request, member);
      const page = await context.newPage();
      await page.goto('/');
      await signInMember(page, member);
      await page.goto('/user/web3-deposit');
      await page.getByRole('button', { name: 'Connect wallet' }).click();
      const link = page.getByLabel('Connection link');
      await expect(link).toHaveValue(/^wc:/, { timeout: 30_000 });
      const modal = page.locator('wcm-modal');
      if (device === 'Desktop Chrome') {
        // The QR encodes the same link, to scan with the phone's wallet.
        await expect(modal.locator('wcm-qrcode')).toBeVisible({ timeout: 15_000 });
        await modal.locator('wcm-modal-backcard').getByRole('button').last().click();
        await expect(page.getByTestId('web3-wallet-problem')).toHaveText(
          'Connection cancelled. Press Connect wallet to try again.',
        );
      } else {
        const select = modal.getByRole('button', { name: 'Select Wallet' });
        await expect(select).toBeVisible({ timeout: 15_000 });
        // The modal's wallet carousel above it never stops moving, so Playwright never finds the button
        // "stable" enough to click: the click is sent to it directly.
        await select.dispatchEvent('click');
        await expect(page.locator('html')).toHaveAttribute('data-opened', await link.inputValue());
      }
    } finally {
      await context.close();
    }
  }
});
