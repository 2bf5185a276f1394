import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import {
  type Address,
  createPublicClient,
  encodeDeployData,
  encodeFunctionData,
  erc20Abi,
  type Hash,
  type Hex,
  http,
  numberToHex,
  parseUnits,
  toHex,
} from 'viem';

// A local EVM chain for the on-chain deposit tests: ganache (chain id 56, like BNB Smart Chain) in a
// child process on a free port, with its unlocked accounts, plus a small ERC-20 compiled offline by
// solc-js. Ganache is deprecated upstream, so nothing but this file knows it is ganache: another local
// chain that answers the same JSON-RPC (evm_mine, evm_snapshot, evm_revert) can replace it here.

const require = createRequire(import.meta.url);
const root = join(import.meta.dirname, '..', '..');

type CompiledToken = { abi: readonly unknown[]; bytecode: Hex };
let compiled: CompiledToken | undefined;

/** TestToken (tests/fixtures/test-token.sol), compiled once per process. */
function testToken(): CompiledToken {
  if (compiled) return compiled;
  const solc = require('solc') as { compile: (input: string) => string };
  const source = readFileSync(join(root, 'tests', 'fixtures', 'test-token.sol'), 'utf8');
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'test-token.sol': { content: source } },
        settings: {
          // Ganache 7 knows the forks up to Shanghai at most: no Cancun opcodes (MCOPY) in the bytecode.
          evmVersion: 'paris',
          outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
        },
      }),
    ),
  ) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const contract = output.contracts['test-token.sol']?.TestToken;
  if (!contract) throw new Error('TestToken was not compiled');
  compiled = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  return compiled;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export type EvmChain = Awaited<ReturnType<typeof startEvmChain>>;

export async function startEvmChain() {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      require.resolve('ganache/dist/node/cli.js'),
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '--chain.chainId',
      '56',
      '--wallet.totalAccounts',
      '16',
      '--logging.quiet',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // A test process that ends without stop() (a crash, a failed setup) takes its chain with it.
  const killChain = () => child.kill('SIGKILL');
  process.once('exit', killChain);
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const rpcUrl = `http://127.0.0.1:${port}`;
  const transport = http(rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ transport, cacheTime: 0 });
  // Ganache takes a second or two to listen.
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the local chain stopped: ${stderr}`);
    try {
      if ((await publicClient.getChainId()) === 56) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`the local chain did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const accounts = (await publicClient.request({ method: 'eth_accounts' } as never)) as Address[];
  const [deployer = '0x', other = '0x', wallet = '0x', ...spare] = accounts;
  // Ganache's unlocked accounts sign; eth_sendTransaction directly (viem's wallet client asks for
  // wallet_sendTransaction first, which ganache does not know). A fixed gas limit: with estimation, a
  // transfer that will revert would be refused before it is sent.
  const send = (from: Address, data: Hex, to?: Address) =>
    publicClient.request({
      method: 'eth_sendTransaction',
      params: [{ from, data, gas: numberToHex(3_000_000), ...(to ? { to } : {}) }],
    } as never) as Promise<Hash>;

  async function mined(hash: Hash) {
    return publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  }

  // One transaction at a time per sender, each mined before the next is sent: ganache numbers an
  // unlocked account's transactions as they arrive, and two sent at once from one account (two
  // members funded in parallel from the deployer) can reach its miner out of order and be refused
  // ("the tx doesn't have the correct nonce").
  const lastBySender = new Map<Address, Promise<unknown>>();
  function sendMined(from: Address, data: Hex, to?: Address) {
    const previous = lastBySender.get(from) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const hash = await send(from, data, to);
        return { hash, receipt: await mined(hash) };
      });
    lastBySender.set(from, next);
    return next;
  }

  return {
    rpcUrl,
    /**
     * Unlocked and funded with gas; `wallet` is left for tests that prove an address by signing, and
     * `spare` (13 more) for tests that need a wallet of its own per member.
     */
    accounts: { deployer, other, wallet, spare },
    publicClient,
    /** Deploys a TestToken whose whole supply the deployer holds; answers its address. */
    async deployToken(symbol = 'USDT', decimals = 18): Promise<Address> {
      const { abi, bytecode } = testToken();
      const { receipt } = await sendMined(
        deployer,
        encodeDeployData({
          abi,
          bytecode,
          args: [`Test ${symbol}`, symbol, decimals, parseUnits('1000000000', decimals)],
        }),
      );
      if (!receipt.contractAddress) throw new Error('the token was not deployed');
      return receipt.contractAddress;
    },
    /** A token transfer from the deployer, mined; answers its hash (its receipt may say it reverted). */
    async transfer(token: Address, to: Address, amount: bigint, from: Address = deployer): Promise<Hash> {
      const { hash } = await sendMined(
        from,
        encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
        token,
      );
      return hash;
    },
    /**
     * An EIP-191 signature by an unlocked account, as a connected wallet's personal_sign gives it.
     * Ganache has no personal_sign; its eth_sign signs the same prefixed message.
     */
    async signMessage(message: string, from: Address): Promise<Hex> {
      return (await publicClient.request({
        method: 'eth_sign',
        params: [from, toHex(message)],
      } as never)) as Hex;
    },
    async mine(blocks: number): Promise<void> {
      for (let i = 0; i < blocks; i += 1) await publicClient.request({ method: 'evm_mine' } as never);
    },
    async snapshot(): Promise<Hex> {
      return (await publicClient.request({ method: 'evm_snapshot' } as never)) as Hex;
    },
    async revert(id: Hex): Promise<void> {
      await publicClient.request({ method: 'evm_revert', params: [id] } as never);
    },
    async stop(): Promise<void> {
      process.off('exit', killChain);
      if (child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}
